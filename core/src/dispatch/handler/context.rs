//! [`ToolContext`]: what a handler gets besides its input (the session, the abort
//! signal, the package's state, the caller's channels), and its asking API.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::dispatch::abort::AbortSignal;
use crate::dispatch::ask::{
    self, AskError, Asker, Capability, ElicitForm, Elicited, Form, Question, Root, Sampled,
    SamplingRequest,
};
use crate::dispatch::log::{LogLevel, LogMessage, LogSink};
use crate::dispatch::progress::{Progress, ProgressSink};
use crate::dispatch::session::SessionContext;
use crate::dispatch::state::StateMap;
use crate::result::TypedBound;

/// What a handler gets besides its input: the verified session, the abort signal (only
/// for a `cancellable` tool), the package's state (a [`StateMap`]: its services and
/// any other value registered with [`PackageBuilder::state`](crate::dispatch::PackageBuilder::state)),
/// and the caller's channels for [`progress`](Self::progress) reports and
/// [`log`](Self::log) messages.
#[derive(Clone)]
pub struct ToolContext {
    pub(in crate::dispatch) tool: Arc<str>,
    pub(in crate::dispatch) session: SessionContext,
    pub(in crate::dispatch) abort: Option<AbortSignal>,
    pub(in crate::dispatch) state: Arc<StateMap>,
    pub(in crate::dispatch) progress: Option<ProgressSink>,
    pub(in crate::dispatch) log: Option<LogSink>,
    pub(in crate::dispatch) asker: Option<Arc<dyn Asker>>,
    /// How the handler's typed value is bounded as it is serialized: the tool's caps,
    /// whether its output goes under `result`, the argument that asks for more.
    pub(in crate::dispatch) bound: TypedBound<'static>,
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
    /// [`PackageBuilder::state`](crate::dispatch::PackageBuilder::state)), replacing a `T` it had:
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
    /// [`LogSink`] (through [`CallOptions::log`](crate::dispatch::CallOptions::log)), if it gave
    /// one; the plain pipeline ([`Package::dispatch`](crate::dispatch::Package::dispatch)) and the
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
    /// [`TaskStart::Handler`](crate::dispatch::TaskStart::Handler)). Returns at once when the call
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
