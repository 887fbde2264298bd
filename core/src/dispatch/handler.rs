//! Handlers: the type-erased [`Handler`], its context, and the typed registration helpers.

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::TaskMode;
use super::abort::AbortSignal;
use super::ask::{
    self, AskError, Asker, Capability, ElicitForm, Elicited, Form, Question, Root, Sampled,
    SamplingRequest,
};
use super::de::{Fields, read_text};
use super::log::{LogLevel, LogMessage, LogSink};
use super::output::Output;
use super::progress::{Progress, ProgressSink};
use super::session::SessionContext;
use super::state::{ServiceType, StateMap};
use super::{ArgumentError, arguments_result};
use crate::result::{ContentBlock, ToolBound, ToolResult, TypedBound, normalize_result};
use crate::tool::CallError;

/// A boxed, sendable future: what an async handler hands the pipeline.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What a handler gives back for one call: a result at once (sync handlers, and failures
/// found before the handler ran), or a future of it (async handlers).
///
/// Sync handlers return [`Call::Ready`], so the pipeline allocates no future for them.
pub enum Call<'a> {
    /// The result, already there.
    Ready(ToolResult),
    /// The result, once the future completes.
    Pending(BoxFuture<'a, ToolResult>),
}

impl fmt::Debug for Call<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Call::Ready(r) => f.debug_tuple("Ready").field(r).finish(),
            Call::Pending(_) => f.write_str("Pending(..)"),
        }
    }
}

/// A tool's handler, type-erased: it receives the arguments the pipeline validated (with
/// defaults filled in) and the call's [`ToolContext`], and gives back a [`Call`].
///
/// Implement it by hand for full control, or build one from a function with [`sync_fn`],
/// [`sync_fn_cx`], [`async_fn`] or [`async_fn_cx`], which deserialize the arguments into
/// the function's input type and convert its return value with [`IntoToolResult`]. The
/// generated dispatch table of a package calls those same helpers.
pub trait Handler: Send + Sync + 'static {
    /// Runs one call. `args` has passed the tool's schema.
    fn call<'a>(&'a self, args: Value, cx: &'a ToolContext) -> Call<'a>;

    /// Runs one call on arguments that arrived as JSON text, read as they are checked
    /// (see [`Arguments`]); `None` when they were not decided on the way, and then the
    /// pipeline parses and validates the text and runs [`call`](Self::call). The default
    /// is `None`: a handler that reads its input through [`Arguments::read`] (as
    /// [`sync_fn`] and the others do) overrides it to skip the tree.
    fn call_text<'a>(&'a self, args: Arguments<'_>, cx: &'a ToolContext) -> Option<Call<'a>> {
        let _ = (args, cx);
        None
    }

    /// The output this handler's successful results carry (MCP `outputSchema`), when it
    /// declares one: every such result is checked against it (see
    /// [`output`](super::output)). `None` by default.
    fn output(&self) -> Option<Output> {
        None
    }

    /// The service this handler is a method of, which the package must hold (a
    /// `#[neuralis::tools]` method's descriptor says so); `None` for anything else.
    /// [`PackageBuilder::build`](super::PackageBuilder::build) refuses a package that
    /// lacks it.
    fn service(&self) -> Option<ServiceType> {
        None
    }

    /// The tool's own caps beside the package's, and the argument that asks for more
    /// (see [`ToolBound`]); none by default. `#[tool(bound(...))]` fills it.
    fn bound(&self) -> ToolBound {
        ToolBound::NONE
    }

    /// How the tool's calls run as tasks (see [`TaskMode`]); never, by default.
    /// `#[tool(task = "...")]` fills it.
    fn task(&self) -> TaskMode {
        TaskMode::FORBIDDEN
    }

    /// The input's root properties an MCP server mirrors in HTTP headers (see
    /// [`neuralis_model::header`]); none by default. `#[schema(header = "...")]` on the
    /// input's fields fills it.
    fn headers(&self) -> &'static [neuralis_model::header::Header] {
        &[]
    }
}

/// What a handler gets besides its input: the verified session, the abort signal (only
/// for a `cancellable` tool), the package's state (a [`StateMap`]: its services and
/// any other value registered with [`PackageBuilder::state`](super::PackageBuilder::state)),
/// and the caller's channels for [`progress`](Self::progress) reports and
/// [`log`](Self::log) messages.
#[derive(Clone)]
pub struct ToolContext {
    pub(super) tool: Arc<str>,
    pub(super) session: SessionContext,
    pub(super) abort: Option<AbortSignal>,
    pub(super) state: Arc<StateMap>,
    pub(super) progress: Option<ProgressSink>,
    pub(super) log: Option<LogSink>,
    pub(super) asker: Option<Arc<dyn Asker>>,
    /// How the handler's typed value is bounded as it is serialized: the tool's caps,
    /// whether its output goes under `result`, the argument that asks for more.
    pub(super) bound: TypedBound<'static>,
}

/// The level methods of [`ToolContext`]: `$name(message)` is `log(LogLevel::$level,
/// message)`, each with its doc and example.
macro_rules! level_methods {
    ($($name:ident => $level:ident, $what:literal;)*) => {$(
        #[doc = concat!("Logs `message` at [`LogLevel::", stringify!($level), "`] (", $what, "): ")]
        #[doc = concat!("[`log`](Self::log)`(LogLevel::", stringify!($level), ", message)`, a no-op")]
        #[doc = "unless the caller asked for messages of this level.\n\n```"]
        #[doc = "use std::sync::{Arc, Mutex};"]
        #[doc = "use neuralis_core::dispatch::{LogLevel, LogSink, SessionContext, ToolContext};"]
        #[doc = ""]
        #[doc = "let seen = Arc::new(Mutex::new(Vec::new()));"]
        #[doc = "let sink = {"]
        #[doc = "    let seen = Arc::clone(&seen);"]
        #[doc = "    LogSink::new(LogLevel::Debug, move |m| seen.lock().expect(\"not poisoned\").push((m.level, m.data)))"]
        #[doc = "};"]
        #[doc = "let cx = ToolContext::new(\"sync\", SessionContext::builder(\"u\").build()).with_log(sink);"]
        #[doc = concat!("cx.", stringify!($name), "(format_args!(\"{} of {} files\", 2, 5));")]
        #[doc = "assert_eq!("]
        #[doc = "    *seen.lock().expect(\"not poisoned\"),"]
        #[doc = concat!("    [(LogLevel::", stringify!($level), ", \"2 of 5 files\".into())]")]
        #[doc = ");"]
        #[doc = "```"]
        pub fn $name(&self, message: impl fmt::Display) {
            self.log(LogLevel::$level, message);
        }
    )*};
}

impl ToolContext {
    /// A context for calling a handler directly (tests, benches): the pipeline builds its
    /// own for every call.
    #[must_use]
    pub fn new(tool: &str, session: SessionContext) -> Self {
        Self {
            tool: Arc::from(tool),
            session,
            abort: None,
            state: Arc::default(),
            progress: None,
            log: None,
            asker: None,
            bound: TypedBound::default(),
        }
    }

    /// This context with an asker (as the pipeline gives a call whose host gave one): see
    /// [`elicit`](Self::elicit).
    #[must_use]
    pub fn with_asker(mut self, asker: impl Asker) -> Self {
        self.asker = Some(Arc::new(asker));
        self
    }

    /// This context with a progress sink (as the pipeline gives a call whose host asked
    /// for progress).
    #[must_use]
    pub fn with_progress(mut self, sink: ProgressSink) -> Self {
        self.progress = Some(sink);
        self
    }

    /// This context with a log sink (as the pipeline gives a call whose host asked for
    /// log messages): see [`log`](Self::log).
    #[must_use]
    pub fn with_log(mut self, sink: LogSink) -> Self {
        self.log = Some(sink);
        self
    }

    /// This context with an abort signal (as the pipeline gives a `cancellable` tool).
    #[must_use]
    pub fn with_abort(mut self, abort: AbortSignal) -> Self {
        self.abort = Some(abort);
        self
    }

    /// This context with package state of type `T` (see
    /// [`PackageBuilder::state`](super::PackageBuilder::state)), replacing a `T` it had:
    /// for calling a handler, or a `#[neuralis::tools]` method's descriptor, directly.
    #[must_use]
    pub fn with_state<T: Any + Send + Sync>(mut self, state: Arc<T>) -> Self {
        Arc::make_mut(&mut self.state).replace_arc(state);
        self
    }

    /// How the handler's typed value is bounded as it is serialized.
    pub(crate) fn typed_bound(&self) -> &TypedBound<'static> {
        &self.bound
    }

    /// The tool being called.
    #[must_use]
    pub fn tool_name(&self) -> &str {
        &self.tool
    }

    /// The caller's verified session. Caller identity comes from here, never from arguments.
    #[must_use]
    pub fn session(&self) -> &SessionContext {
        &self.session
    }

    /// The run's abort signal: `Some` only when the tool declares
    /// `annotations.cancellable: true`, a promise that the handler returns promptly once it
    /// fires. An undeclared tool gets `None` and is never interrupted.
    #[must_use]
    pub fn abort(&self) -> Option<&AbortSignal> {
        self.abort.as_ref()
    }

    /// Whether the run is aborted (always `false` for a tool that is not `cancellable`).
    #[must_use]
    pub fn is_aborted(&self) -> bool {
        self.abort.as_ref().is_some_and(AbortSignal::is_aborted)
    }

    /// Reports the call's progress to the caller: `done` of `total` (when known, in the
    /// handler's own unit), and what is happening now.
    ///
    /// Over MCP this is a `notifications/progress` when the client's request carried a
    /// progress token, and nothing otherwise; outside MCP it goes to the host's
    /// [`ProgressSink`], if it gave one. A report that does not move forward (MCP requires
    /// `progress` to increase) or is not a finite number is dropped by the MCP server.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use neuralis_core::dispatch::{ProgressSink, SessionContext, ToolContext};
    ///
    /// let seen = Arc::new(Mutex::new(Vec::new()));
    /// let sink = {
    ///     let seen = Arc::clone(&seen);
    ///     ProgressSink::new(move |p| seen.lock().expect("not poisoned").push((p.done, p.total, p.message)))
    /// };
    /// let cx = ToolContext::new("reindex", SessionContext::builder("u").build()).with_progress(sink);
    /// cx.progress(2.0, Some(5.0), Some("indexing"));
    /// ToolContext::new("reindex", SessionContext::builder("u").build()).progress(1.0, None, None); // nobody asked: a no-op
    /// assert_eq!(*seen.lock().expect("not poisoned"), [(2.0, Some(5.0), Some("indexing".to_owned()))]);
    /// ```
    pub fn progress(&self, done: f64, total: Option<f64>, message: Option<&str>) {
        if let Some(sink) = &self.progress {
            sink.report(Progress {
                done,
                total,
                message: message.map(str::to_owned),
            });
        }
    }

    /// Whether the host listens to [`progress`](Self::progress) reports for this call.
    #[must_use]
    pub fn reports_progress(&self) -> bool {
        self.progress.is_some()
    }

    /// Logs `message` at `level` for the caller to read, under the tool's name (the
    /// logger). [`debug`](Self::debug), [`info`](Self::info), [`notice`](Self::notice),
    /// [`warning`](Self::warning), [`error`](Self::error), [`critical`](Self::critical),
    /// [`alert`](Self::alert) and [`emergency`](Self::emergency) say the level in the
    /// name.
    ///
    /// Over MCP this is a `notifications/message` (`level`, `logger`, `data` the message
    /// text), sent before the call's result, when the client asked for messages of this
    /// level: with `logging/setLevel` on the connection before protocol 2026-07-28, with
    /// `_meta["io.modelcontextprotocol/logLevel"]` on the request itself on 2026-07-28. A
    /// client that did not ask gets nothing. Outside MCP it goes to the host's
    /// [`LogSink`] (through [`CallOptions::log`](super::CallOptions::log)), if it gave
    /// one; the plain pipeline ([`Package::dispatch`](super::Package::dispatch)) and the
    /// WASM entry give none, and logging is then a no-op.
    ///
    /// The message is formatted only when it goes somewhere: pass `format_args!(..)`, a
    /// `&str` or any other [`Display`](fmt::Display), and a message nobody asked for costs
    /// one comparison, no allocation. Log messages are for the person or client watching
    /// the call, not the model: what the model should read belongs in the result.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use neuralis_core::dispatch::{LogLevel, LogSink, SessionContext, ToolContext};
    ///
    /// let seen = Arc::new(Mutex::new(Vec::new()));
    /// let sink = {
    ///     let seen = Arc::clone(&seen);
    ///     LogSink::new(LogLevel::Info, move |m| {
    ///         seen.lock().expect("not poisoned").push((m.level, m.logger.to_string(), m.data))
    ///     })
    /// };
    /// let session = SessionContext::builder("u").build();
    /// let cx = ToolContext::new("reindex", session.clone()).with_log(sink);
    /// let notes = 12;
    /// cx.debug(format_args!("opening {notes} notes")); // below `info`: never formatted
    /// cx.log(LogLevel::Notice, format_args!("indexed {notes} notes"));
    /// cx.warning("the index was stale");
    /// ToolContext::new("reindex", session).error("nobody asked: a no-op");
    /// assert_eq!(
    ///     *seen.lock().expect("not poisoned"),
    ///     [
    ///         (LogLevel::Notice, "reindex".to_owned(), "indexed 12 notes".into()),
    ///         (LogLevel::Warning, "reindex".to_owned(), "the index was stale".into()),
    ///     ]
    /// );
    /// ```
    pub fn log(&self, level: LogLevel, message: impl fmt::Display) {
        if let Some(sink) = self.log_sink(level) {
            sink.send(LogMessage {
                level,
                logger: Arc::clone(&self.tool),
                data: Value::String(message.to_string()),
            });
        }
    }

    /// Logs a structured value at `level`: [`log`](Self::log) with any
    /// [`Serialize`] value as the message's `data` (a JSON object, an array...) instead
    /// of text. The value is serialized only when the message goes somewhere; a value
    /// that fails to serialize is logged as the text of the failure.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use neuralis_core::dispatch::{LogLevel, LogSink, SessionContext, ToolContext};
    /// use serde_json::json;
    ///
    /// let seen = Arc::new(Mutex::new(Vec::new()));
    /// let sink = {
    ///     let seen = Arc::clone(&seen);
    ///     LogSink::new(LogLevel::Debug, move |m| seen.lock().expect("not poisoned").push(m.data))
    /// };
    /// let cx = ToolContext::new("fetch", SessionContext::builder("u").build()).with_log(sink);
    /// cx.log_data(LogLevel::Info, &json!({"url": "https://example.com", "status": 200}));
    /// assert_eq!(
    ///     *seen.lock().expect("not poisoned"),
    ///     [json!({"url": "https://example.com", "status": 200})]
    /// );
    /// ```
    pub fn log_data<T: Serialize + ?Sized>(&self, level: LogLevel, data: &T) {
        if let Some(sink) = self.log_sink(level) {
            let data = serde_json::to_value(data).unwrap_or_else(|e| {
                Value::String(format!("the log data could not be serialized: {e}"))
            });
            sink.send(LogMessage {
                level,
                logger: Arc::clone(&self.tool),
                data,
            });
        }
    }

    /// Whether a message at `level` goes anywhere: for a handler that would do work only
    /// to log its outcome (a [`log`](Self::log) call needs no such check).
    ///
    /// ```
    /// use neuralis_core::dispatch::{LogLevel, LogSink, SessionContext, ToolContext};
    ///
    /// let cx = ToolContext::new("t", SessionContext::builder("u").build());
    /// assert!(!cx.log_enabled(LogLevel::Emergency)); // no sink: nothing is enabled
    /// let cx = cx.with_log(LogSink::new(LogLevel::Warning, |_| {}));
    /// assert!(cx.log_enabled(LogLevel::Error) && !cx.log_enabled(LogLevel::Info));
    /// ```
    #[must_use]
    pub fn log_enabled(&self, level: LogLevel) -> bool {
        self.log_sink(level).is_some()
    }

    level_methods! {
        debug => Debug, "detailed information for debugging";
        info => Info, "what the tool is doing";
        notice => Notice, "a normal but significant event";
        warning => Warning, "something may be wrong; the call goes on";
        error => Error, "something failed";
        critical => Critical, "a critical condition";
        alert => Alert, "someone must act at once";
        emergency => Emergency, "the system is unusable";
    }

    /// The log sink, when it takes messages at `level`.
    fn log_sink(&self, level: LogLevel) -> Option<&LogSink> {
        self.log.as_ref().filter(|sink| sink.accepts(level))
    }

    /// The package's state of type `T`: registered as a `T` or as an `Arc<T>` (one `Arc`
    /// either way, see [`StateMap`]); `None` when the package holds no `T`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use neuralis_core::dispatch::{SessionContext, ToolContext};
    ///
    /// struct Hits(AtomicU32);
    /// let cx = ToolContext::new("count", SessionContext::builder("u").build())
    ///     .with_state(Arc::new(Hits(AtomicU32::new(0))));
    /// cx.state::<Hits>().expect("registered").0.fetch_add(1, Ordering::SeqCst);
    /// let shared: &Arc<Hits> = cx.state::<Arc<Hits>>().expect("the same value, as an `Arc`");
    /// assert_eq!(shared.0.load(Ordering::SeqCst), 1);
    /// assert!(cx.state::<String>().is_none());
    /// ```
    #[must_use]
    pub fn state<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.state.get::<T>()
    }
}

/// Asking the person or client behind the call (see [`Asker`]).
///
/// One API for every MCP era: over a session (protocols before 2026-07-28) each question
/// is a request to the client while the handler waits; on 2026-07-28 the call answers
/// with an `InputRequiredResult` naming each question by its `key`, and when the client
/// retries with the answers the handler is **run again from the start**, each question it
/// asks again answered by key from the retry and the sealed `requestState`. So a handler
/// does nothing irreversible before its last question, and gives each question its own
/// key, the same on every run (see `docs/tool.md`, "Tools that ask").
impl ToolContext {
    /// Puts any question, named `key`, to the person or client behind the call, through
    /// the host's [`Asker`].
    ///
    /// # Errors
    ///
    /// [`AskError::NoAsker`] when the host gave none (the plain pipeline, the WASM entry);
    /// otherwise what the asker says.
    pub async fn ask(&self, key: &str, question: Question) -> Result<ask::Answer, AskError> {
        match &self.asker {
            Some(asker) => asker.ask(key, question).await,
            None => Err(AskError::NoAsker),
        }
    }

    /// Asks a person to fill in the form of `T` (an [`ElicitForm`]: a `ToolInput` struct
    /// marked `#[schema(elicitation)]`, checked when the crate compiles), showing
    /// `message`: their answer, typed, or that they declined or cancelled.
    ///
    /// ```
    /// use neuralis_core::dispatch::{
    ///     Answer, AskError, Asker, BoxFuture, ElicitForm, Elicited, Question, SessionContext,
    ///     ToolContext, block_on,
    /// };
    /// use neuralis_core::input::{Composer, ToolInput};
    /// use serde_json::json;
    ///
    /// // What `#[derive(ToolInput)] #[schema(elicitation)]` writes, by hand.
    /// #[derive(serde::Deserialize, Debug, PartialEq)]
    /// struct Reviewer { name: String }
    /// impl ToolInput for Reviewer {
    ///     fn schema_name() -> std::borrow::Cow<'static, str> {
    ///         "Reviewer".into()
    ///     }
    ///     fn schema_in(_: &mut Composer) -> serde_json::Value {
    ///         json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
    ///     }
    /// }
    /// impl ElicitForm for Reviewer {}
    ///
    /// /// Fills in every form with Ada's name.
    /// struct Ada;
    /// impl Asker for Ada {
    ///     fn ask<'a>(&'a self, _key: &'a str, q: Question) -> BoxFuture<'a, Result<Answer, AskError>> {
    ///         Box::pin(async move {
    ///             let content = json!({"name": "Ada"}).as_object().cloned().unwrap_or_default();
    ///             match q {
    ///                 Question::Elicit(_) => Ok(Answer::Elicit(Elicited::Accept(content))),
    ///                 other => Err(AskError::Unsupported(other.capability())),
    ///             }
    ///         })
    ///     }
    /// }
    ///
    /// let cx = ToolContext::new("review", SessionContext::builder("u").build()).with_asker(Ada);
    /// let answer = block_on(cx.elicit::<Reviewer>("reviewer", "Who reviews this change?"));
    /// assert_eq!(answer, Some(Ok(Elicited::Accept(Reviewer { name: "Ada".into() }))));
    /// ```
    ///
    /// # Errors
    ///
    /// [`AskError`]: nobody to ask, a client without `elicitation`, or content that does
    /// not fit `T`. Declining and cancelling are answers, not errors.
    pub async fn elicit<T: ElicitForm>(
        &self,
        key: &str,
        message: impl Into<String>,
    ) -> Result<Elicited<T>, AskError> {
        ask::typed_form(
            self.ask(key, Question::Elicit(Form::of::<T>(message)))
                .await,
        )
    }

    /// Asks a person to fill in any `form` (its schema unchecked: the client decides
    /// whether it can show it): the content as JSON, or that they declined or cancelled.
    ///
    /// # Errors
    ///
    /// As [`elicit`](Self::elicit).
    pub async fn elicit_form(&self, key: &str, form: Form) -> Result<Elicited, AskError> {
        ask::form_answer(self.ask(key, Question::Elicit(form)).await)
    }

    /// Asks a person to confirm `message` (a form with no fields): `true` when they
    /// accept, `false` when they decline or cancel.
    ///
    /// # Errors
    ///
    /// As [`elicit`](Self::elicit).
    pub async fn confirm(&self, key: &str, message: impl Into<String>) -> Result<bool, AskError> {
        let form = Form::new(
            message,
            serde_json::json!({"type": "object", "properties": {}, "required": []}),
        );
        Ok(self.elicit_form(key, form).await?.is_accepted())
    }

    /// Where the call becomes a task, for a tool declared `#[tool(task = "...",
    /// task_start = "handler")]`: what the handler asked before was asked within the
    /// call's request, what it asks after is the task's (see
    /// [`TaskStart::Handler`](super::TaskStart::Handler)). Returns at once when the call
    /// does not run as a task (the client did not opt in, or the host makes no tasks) and
    /// inside the task itself; a tool whose task starts with the call never needs it.
    ///
    /// ```
    /// use neuralis_core::dispatch::{SessionContext, ToolContext, block_on};
    ///
    /// let cx = ToolContext::new("export", SessionContext::builder("u").build());
    /// block_on(cx.begin_task()); // no host that makes tasks: goes on at once
    /// ```
    pub async fn begin_task(&self) {
        if let Some(asker) = &self.asker {
            asker.begin_task().await;
        }
    }

    /// Asks the client's model for a completion (MCP sampling).
    ///
    /// # Errors
    ///
    /// [`AskError`]: nobody to ask, a client without `sampling`, or an error from it.
    pub async fn sample(&self, key: &str, request: SamplingRequest) -> Result<Sampled, AskError> {
        ask::sampled(self.ask(key, Question::Sample(request)).await)
    }

    /// The client's roots (MCP `roots/list`).
    ///
    /// # Errors
    ///
    /// [`AskError`]: nobody to ask, a client without `roots`, or an error from it.
    pub async fn roots(&self, key: &str) -> Result<Vec<Root>, AskError> {
        ask::roots(self.ask(key, Question::Roots).await)
    }

    /// Whether the call can put questions that need `capability` (MCP: the client
    /// declared it). `false` when the host gave no way to ask at all. A handler that can
    /// do without an answer checks this first: on MCP 2026-07-28, a question the client
    /// cannot answer ends the call with `-32021` (missing required client capability).
    #[must_use]
    pub fn supports(&self, capability: Capability) -> bool {
        self.asker.as_ref().is_some_and(|a| a.supports(capability))
    }
}

impl fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContext")
            .field("tool", &self.tool)
            .field("session", &self.session)
            .field("abort", &self.abort)
            .field("state", &*self.state)
            .field("progress", &self.progress.is_some())
            .field("log", &self.log.as_ref().map(LogSink::min_level))
            .field("asker", &self.asker.is_some())
            .finish()
    }
}

/// What a handler may return: anything that becomes a [`ToolResult`].
///
/// - [`ToolResult`] as it is;
/// - [`Json<T>`] for any `T: Serialize`: `structuredContent` plus its compact JSON text for
///   the model (a value that fails to serialize gives an `isError` result);
/// - [`Value`]: normalized as untrusted result JSON (a result object is read as one, any
///   other value becomes `structuredContent`, see
///   [`normalize_result`](crate::result::normalize_result));
/// - `String` and `&str`: one text block; [`ContentBlock`] and `Vec<ContentBlock>`;
/// - `()`: `{"ok": true}`;
/// - `Result<T, E>` with `T` any of these and `E: Display`: `Err` is `isError: true` with
///   the error's text.
///
/// There is no blanket impl for every `Serialize` type: [`ToolResult`] and `Result` are
/// themselves `Serialize`, so such an impl would overlap and read them as data. Wrap a
/// serializable value in [`Json`] (the `#[tool]` macro does it for you).
pub trait IntoToolResult {
    /// The result.
    fn into_tool_result(self) -> ToolResult;

    /// The result in a call whose caps `cx` holds: a [`Json`] value is bounded as it is
    /// serialized (as a typed return is, see
    /// [`bound_typed`](crate::result::bound_typed)); anything else is
    /// [`into_tool_result`](Self::into_tool_result), bounded by the pipeline.
    fn into_tool_result_in(self, cx: &ToolContext) -> ToolResult
    where
        Self: Sized,
    {
        let _ = cx;
        self.into_tool_result()
    }
}

impl IntoToolResult for ToolResult {
    fn into_tool_result(self) -> ToolResult {
        self
    }
}

impl IntoToolResult for Value {
    fn into_tool_result(self) -> ToolResult {
        normalize_result(self).0
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::text(self)
    }
}

impl IntoToolResult for &str {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::text(self)
    }
}

impl IntoToolResult for ContentBlock {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::from(self)
    }
}

impl IntoToolResult for Vec<ContentBlock> {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::from_blocks(self)
    }
}

impl IntoToolResult for () {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::json(json!({"ok": true}))
    }
}

impl<T: Serialize> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> ToolResult {
        match serde_json::to_value(&self.0) {
            Ok(value) => ToolResult::json(value),
            Err(e) => ToolResult::error(format!("the tool's result could not be serialized: {e}")),
        }
    }

    fn into_tool_result_in(self, cx: &ToolContext) -> ToolResult {
        super::returned::bounded(&self.0, cx)
    }
}

impl<T: IntoToolResult, E: fmt::Display> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> ToolResult {
        match self {
            Ok(v) => v.into_tool_result(),
            Err(e) => ToolResult::error(e.to_string()),
        }
    }

    fn into_tool_result_in(self, cx: &ToolContext) -> ToolResult {
        match self {
            Ok(v) => v.into_tool_result_in(cx),
            Err(e) => ToolResult::error(e.to_string()),
        }
    }
}

/// A serializable value returned as a result: `structuredContent`, and its compact JSON
/// text as the content the model reads.
///
/// ```
/// use neuralis_core::dispatch::{IntoToolResult, Json};
/// use serde_json::json;
///
/// #[derive(serde::Serialize)]
/// struct Forecast { ok: bool, high: i32 }
/// let r = Json(Forecast { ok: true, high: 21 }).into_tool_result();
/// assert_eq!(r.structured_content, Some(json!({"ok": true, "high": 21})));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Json<T>(pub T);

/// Deserializes validated arguments into a handler's input type, by value (strings move
/// into the input). The rules are `serde_json::from_value`'s, except that a struct is read
/// from an object only (serde_json also takes an array of the fields, which no struct's
/// object schema lets through). On failure, the `isError` result names the JSON pointer
/// of the value that did not fit.
///
/// ```
/// use neuralis_core::dispatch::deserialize_input;
/// use serde_json::json;
///
/// #[derive(serde::Deserialize, Debug)]
/// struct Rows { rows: Vec<Row> }
/// #[derive(serde::Deserialize, Debug)]
/// struct Row { n: u8 }
///
/// let rows: Rows = deserialize_input("t", json!({"rows": [{"n": 1}]})).expect("fits");
/// assert_eq!(rows.rows[0].n, 1);
/// let refused = deserialize_input::<Rows>("t", json!({"rows": [{"n": 1}, {"n": 300}]}))
///     .expect_err("300 is no u8");
/// let errors = &refused.structured_content.as_ref().expect("errors")["errors"];
/// assert_eq!(errors[0]["pointer"], "/rows/1/n");
/// ```
///
/// # Errors
///
/// The `isError` result the model reads.
pub fn deserialize_input<I: DeserializeOwned>(
    tool: &str,
    args: Value,
) -> Result<I, Box<ToolResult>> {
    // By value (strings move into the input), one deserializer type for the whole tree,
    // and the pointer of a failure built on the way out of it: nothing tracked on success.
    super::de::from_value::<I>(args).map_err(|(pointer, message)| misfit(tool, pointer, message))
}

/// A call's arguments as a handler reads them: a tree that passed the tool's schema (its
/// defaults in), or, on [`Package::dispatch_text`](super::Package::dispatch_text), the
/// JSON text itself, checked against the schema as it is read into the input (no tree).
///
/// A text the reader cannot decide on the way (anything that would not pass, and a few
/// texts `serde_json` reads in its own way, such as a repeated key) is not read:
/// [`read`](Self::read) gives [`CallError::Reread`] and the pipeline runs the call again
/// with the tree, which writes any refusal. A handler never sees the difference.
///
/// ```
/// use neuralis_core::dispatch::Arguments;
/// use neuralis_core::tool::CallError;
/// use serde_json::json;
///
/// #[derive(serde::Deserialize, Debug)]
/// struct Echo { text: String }
/// let echo: Echo = Arguments::from(json!({"text": "hi"})).read("echo").expect("fits");
/// assert_eq!(echo.text, "hi");
/// let refused = Arguments::from(json!({"text": 1})).read::<Echo>("echo").expect_err("no string");
/// assert!(matches!(refused, CallError::Input(_)));
/// ```
pub struct Arguments<'t>(Source<'t>);

enum Source<'t> {
    Tree(Value),
    Text(&'t str, Fields<'t>),
}

impl From<Value> for Arguments<'_> {
    fn from(tree: Value) -> Self {
        Arguments(Source::Tree(tree))
    }
}

impl fmt::Debug for Arguments<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Source::Tree(tree) => f.debug_tuple("Arguments::Tree").field(tree).finish(),
            Source::Text(text, _) => f.debug_tuple("Arguments::Text").field(text).finish(),
        }
    }
}

impl<'t> Arguments<'t> {
    /// Text to be checked against `fields` as it is read.
    pub(super) fn text(text: &'t str, fields: Fields<'t>) -> Self {
        Arguments(Source::Text(text, fields))
    }

    /// The input the handler of `tool` takes.
    ///
    /// # Errors
    ///
    /// [`CallError::Input`] when a tree does not fit the input type (the `isError` result
    /// naming where), [`CallError::Reread`] when a text was not decided on the way.
    pub fn read<I: DeserializeOwned>(self, tool: &str) -> Result<I, CallError> {
        match self.0 {
            Source::Tree(tree) => deserialize_input(tool, tree).map_err(CallError::Input),
            Source::Text(text, fields) => read_text(text, fields).ok_or(CallError::Reread),
        }
    }
}

/// The refusal of arguments that passed the schema but not the input type (not generic:
/// one copy for every input type).
#[cold]
fn misfit(tool: &str, pointer: String, message: String) -> Box<ToolResult> {
    Box::new(arguments_result(
        tool,
        "the arguments do not fit the tool's input type",
        &[ArgumentError { pointer, message }],
    ))
}

/// The function of a sync handler without context.
struct SyncFn<F, I> {
    f: F,
    input: PhantomData<fn() -> I>,
}

/// The function of a sync handler with context.
struct SyncFnCx<F, I> {
    f: F,
    input: PhantomData<fn() -> I>,
}

/// The function of an async handler without context.
struct AsyncFn<F, I> {
    f: F,
    input: PhantomData<fn() -> I>,
}

/// The function of an async handler with context.
struct AsyncFnCxHandler<F, I> {
    f: F,
    input: PhantomData<fn() -> I>,
}

/// A handler from a sync function of the input: `fn(Input) -> R`.
///
/// ```
/// use neuralis_core::dispatch::{Handler, sync_fn};
///
/// #[derive(serde::Deserialize)]
/// struct Add { a: i64, b: i64 }
/// let handler = sync_fn(|i: Add| (i.a + i.b).to_string());
/// # let _ = &handler;
/// ```
pub fn sync_fn<I, R, F>(f: F) -> impl Handler
where
    F: Fn(I) -> R + Send + Sync + 'static,
    I: DeserializeOwned + 'static,
    R: IntoToolResult + 'static,
{
    SyncFn {
        f,
        input: PhantomData,
    }
}

impl<F, I, R> Handler for SyncFn<F, I>
where
    F: Fn(I) -> R + Send + Sync + 'static,
    I: DeserializeOwned + 'static,
    R: IntoToolResult + 'static,
{
    fn call<'a>(&'a self, args: Value, cx: &'a ToolContext) -> Call<'a> {
        Call::Ready(match deserialize_input::<I>(cx.tool_name(), args) {
            Ok(input) => (self.f)(input).into_tool_result(),
            Err(refused) => *refused,
        })
    }

    fn call_text<'a>(&'a self, args: Arguments<'_>, cx: &'a ToolContext) -> Option<Call<'a>> {
        let input = args.read::<I>(cx.tool_name()).ok()?;
        Some(Call::Ready((self.f)(input).into_tool_result()))
    }
}

/// A handler from a sync function of the input and the context:
/// `fn(Input, &ToolContext) -> R`.
pub fn sync_fn_cx<I, R, F>(f: F) -> impl Handler
where
    F: Fn(I, &ToolContext) -> R + Send + Sync + 'static,
    I: DeserializeOwned + 'static,
    R: IntoToolResult + 'static,
{
    SyncFnCx {
        f,
        input: PhantomData,
    }
}

impl<F, I, R> Handler for SyncFnCx<F, I>
where
    F: Fn(I, &ToolContext) -> R + Send + Sync + 'static,
    I: DeserializeOwned + 'static,
    R: IntoToolResult + 'static,
{
    fn call<'a>(&'a self, args: Value, cx: &'a ToolContext) -> Call<'a> {
        Call::Ready(match deserialize_input::<I>(cx.tool_name(), args) {
            Ok(input) => (self.f)(input, cx).into_tool_result(),
            Err(refused) => *refused,
        })
    }

    fn call_text<'a>(&'a self, args: Arguments<'_>, cx: &'a ToolContext) -> Option<Call<'a>> {
        let input = args.read::<I>(cx.tool_name()).ok()?;
        Some(Call::Ready((self.f)(input, cx).into_tool_result()))
    }
}

/// A handler from an async function of the input: `async fn(Input) -> R`, or a closure
/// returning a `Send` future.
///
/// ```
/// use neuralis_core::dispatch::{Handler, async_fn};
///
/// #[derive(serde::Deserialize)]
/// struct Ping { text: String }
/// let handler = async_fn(|i: Ping| async move { format!("pong: {}", i.text) });
/// # let _ = &handler;
/// ```
pub fn async_fn<I, R, F, Fut>(f: F) -> impl Handler
where
    F: Fn(I) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = R> + Send + 'static,
    I: DeserializeOwned + 'static,
    R: IntoToolResult + 'static,
{
    AsyncFn {
        f,
        input: PhantomData,
    }
}

impl<F, I, R, Fut> Handler for AsyncFn<F, I>
where
    F: Fn(I) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = R> + Send + 'static,
    I: DeserializeOwned + 'static,
    R: IntoToolResult + 'static,
{
    fn call<'a>(&'a self, args: Value, cx: &'a ToolContext) -> Call<'a> {
        match deserialize_input::<I>(cx.tool_name(), args) {
            Ok(input) => {
                let fut = (self.f)(input);
                Call::Pending(Box::pin(async move { fut.await.into_tool_result() }))
            }
            Err(refused) => Call::Ready(*refused),
        }
    }

    fn call_text<'a>(&'a self, args: Arguments<'_>, cx: &'a ToolContext) -> Option<Call<'a>> {
        let fut = (self.f)(args.read::<I>(cx.tool_name()).ok()?);
        Some(Call::Pending(Box::pin(async move {
            fut.await.into_tool_result()
        })))
    }
}

/// An async function of the input and a borrowed context, `async fn(Input, &ToolContext)
/// -> R`: the bound [`async_fn_cx`] needs (the returned future borrows the context, which
/// a plain `Fn` bound cannot name).
pub trait AsyncFnCx<'a, I>: Fn(I, &'a ToolContext) -> Self::Future {
    /// The future the function returns.
    type Future: Future<Output = Self::Value> + Send + 'a;
    /// What the future gives.
    type Value;
}

impl<'a, I, F, Fut> AsyncFnCx<'a, I> for F
where
    F: Fn(I, &'a ToolContext) -> Fut,
    Fut: Future + Send + 'a,
{
    type Future = Fut;
    type Value = Fut::Output;
}

/// A handler from an async function of the input and the context:
/// `async fn(Input, &ToolContext) -> R`.
///
/// ```
/// use neuralis_core::dispatch::{Handler, ToolContext, async_fn_cx};
///
/// #[derive(serde::Deserialize)]
/// struct WhoAmI {}
/// async fn who_am_i(_: WhoAmI, cx: &ToolContext) -> String {
///     cx.session().user_id().to_owned()
/// }
/// let handler = async_fn_cx(who_am_i);
/// # let _ = &handler;
/// ```
pub fn async_fn_cx<I, R, F>(f: F) -> impl Handler
where
    F: for<'a> AsyncFnCx<'a, I, Value = R> + Send + Sync + 'static,
    I: DeserializeOwned + 'static,
    R: IntoToolResult + 'static,
{
    AsyncFnCxHandler {
        f,
        input: PhantomData,
    }
}

impl<F, I, R> Handler for AsyncFnCxHandler<F, I>
where
    F: for<'a> AsyncFnCx<'a, I, Value = R> + Send + Sync + 'static,
    I: DeserializeOwned + 'static,
    R: IntoToolResult + 'static,
{
    fn call<'a>(&'a self, args: Value, cx: &'a ToolContext) -> Call<'a> {
        match deserialize_input::<I>(cx.tool_name(), args) {
            Ok(input) => {
                let fut = (self.f)(input, cx);
                Call::Pending(Box::pin(async move { fut.await.into_tool_result() }))
            }
            Err(refused) => Call::Ready(*refused),
        }
    }

    fn call_text<'a>(&'a self, args: Arguments<'_>, cx: &'a ToolContext) -> Option<Call<'a>> {
        let fut = (self.f)(args.read::<I>(cx.tool_name()).ok()?, cx);
        Some(Call::Pending(Box::pin(async move {
            fut.await.into_tool_result()
        })))
    }
}

/// `handler`, its calls run as tasks as `mode` says: what `#[tool(task = "...")]` gives a
/// macro-built tool, for a handler registered by hand. Everything else is `handler`'s.
///
/// ```
/// use neuralis_core::dispatch::{Handler, TaskMode, TaskSupport, async_fn, with_task};
///
/// async fn export(_: serde_json::Value) -> &'static str {
///     "exported"
/// }
/// let handler = with_task(async_fn(export), TaskMode::new(TaskSupport::Optional));
/// assert_eq!(handler.task().support, TaskSupport::Optional);
/// ```
pub fn with_task<H: Handler>(handler: H, mode: TaskMode) -> WithTask<H> {
    WithTask { handler, mode }
}

/// A handler with its own [`TaskMode`] (see [`with_task`]).
#[derive(Debug, Clone)]
pub struct WithTask<H> {
    handler: H,
    mode: TaskMode,
}

impl<H: Handler> Handler for WithTask<H> {
    fn call<'a>(&'a self, args: Value, cx: &'a ToolContext) -> Call<'a> {
        self.handler.call(args, cx)
    }

    fn call_text<'a>(&'a self, args: Arguments<'_>, cx: &'a ToolContext) -> Option<Call<'a>> {
        self.handler.call_text(args, cx)
    }

    fn output(&self) -> Option<Output> {
        self.handler.output()
    }

    fn service(&self) -> Option<ServiceType> {
        self.handler.service()
    }

    fn bound(&self) -> ToolBound {
        self.handler.bound()
    }

    fn task(&self) -> TaskMode {
        self.mode
    }

    fn headers(&self) -> &'static [neuralis_model::header::Header] {
        self.handler.headers()
    }
}
