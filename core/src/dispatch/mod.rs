//! The call pipeline: from a model's JSON arguments to a bounded result.
//!
//! A [`Package`] holds a package's tools (their checked, normalized files) and their
//! [`Handler`]s. [`Package::dispatch`] runs one call through every stage:
//!
//! 1. **gate**: an unknown tool, and a tool whose `requires.features` the session's grants
//!    do not satisfy, get one and the same generic refusal ([`Refusal`]), byte for byte,
//!    so a caller cannot enumerate the tools it may not see;
//! 2. **defaults**: `x-neuralis.defaults` filled in for the keys the call did not send;
//! 3. **validation** against the tool's full schema with `jsonschema` (providers drop
//!    constraints, so this side always validates; a validator is compiled once per tool,
//!    on its first call, never per call). The closed root refuses session field names
//!    such as `userId` here, before any handler runs;
//! 4. **deserialization** into the handler's input type;
//! 5. **handler**, sync or async, with a [`ToolContext`]: the verified [`SessionContext`],
//!    and the [`AbortSignal`] only when the tool declares `annotations.cancellable: true`;
//! 6. **normalization** of what the handler returned ([`IntoToolResult`]: typed results are
//!    well-formed by construction, raw JSON goes through
//!    [`normalize_result`](crate::result::normalize_result));
//! 7. **bounding** with [`bound_result_owned`] and the
//!    package's [`BoundCaps`].
//!
//! Validation and deserialization failures are `isError` results the model can read, one
//! line per failing value with its JSON pointer. Approval is not a stage of `dispatch`
//! (asking a person is the host's job): the host asks [`Package::approval`] first.
//!
//! **Panics.** A handler that panics (sync, or while its future is polled) gives an
//! `isError` result saying the tool has a bug; the panic message goes to
//! `_meta.neuralis.panic` (UI only), never to the model. Catching needs unwinding: on
//! targets built with `panic = "abort"` (wasm32-unknown-unknown on stable) a panic aborts as
//! usual, and the WASM entry answers the call with the same result before the abort
//! traps the module (see [`wasm`](crate::wasm)).
//!
//! **Cancellation.** For a `cancellable` tool, `dispatch` races the handler against the
//! abort signal and returns a cancelled result as soon as it fires (the handler's future is
//! dropped; a sync handler is expected to poll [`ToolContext::is_aborted`]). A tool that
//! does not declare it is never interrupted by the pipeline: its handler runs to
//! completion even when the run is aborted. A caller that stops waiting drops the future
//! of `dispatch`, and with it an async handler's future: to let such a handler finish,
//! spawn the dispatch on the host's runtime and drop the join handle instead. A call
//! aborted before its handler starts is not started.
//!
//! No runtime is needed: futures are boxed, [`block_on`] is std only, and the pipeline
//! uses no threads (it builds for `wasm32-unknown-unknown`).
//!
//! The name [`Package`] is this module's: the package a host serves. The loader's
//! [`package::Package`](crate::package::Package) is what loading tool files found; a
//! dispatch package is built from those files through it.
//!
//! ```
//! use neuralis_core::dispatch::{AbortSignal, Package, SessionContext, sync_fn};
//! use serde_json::json;
//!
//! #[derive(serde::Deserialize)]
//! struct Greet { name: String, punctuation: String }
//!
//! let tool = br#"{
//!   "$schema": "http://json-schema.org/draft-07/schema#",
//!   "type": "object", "additionalProperties": false, "description": "Greet someone.",
//!   "properties": {
//!     "name": { "type": "string", "minLength": 1 },
//!     "punctuation": { "type": "string" }
//!   },
//!   "required": ["name"],
//!   "x-neuralis": { "defaults": { "punctuation": "!" }, "annotations": { "category": "read" } }
//! }"#;
//! let package = Package::builder()
//!     .tool("greet", &tool[..], sync_fn(|g: Greet| format!("hello, {}{}", g.name, g.punctuation)))
//!     .build()
//!     .expect("a valid package");
//! let session = SessionContext::builder("user-1").build();
//!
//! let ok = package.dispatch_blocking("greet", json!({"name": "Ada"}), &session);
//! assert_eq!(ok.for_model(), json!({"content": [{"type": "text", "text": "hello, Ada!"}]}));
//!
//! let refused = package.dispatch_blocking("greet", json!({"name": "Ada", "userId": "x"}), &session);
//! assert!(refused.is_error);
//! ```

mod abort;
mod block;
mod handler;
pub(crate) mod json;
mod progress;
mod session;

use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::future::{Future, poll_fn};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::pin;
use std::sync::{Arc, OnceLock};
use std::task::Poll;

use serde_json::{Map, Value, json};

pub use self::abort::{AbortController, AbortSignal, Cancelled};
pub use self::block::block_on;
#[doc(hidden)]
pub use self::handler::__private;
pub use self::handler::{
    AsyncFnCx, BoxFuture, Call, Handler, IntoToolResult, Json, ToolContext, async_fn, async_fn_cx,
    deserialize_input, sync_fn, sync_fn_cx,
};
pub use self::progress::{CallOptions, Progress, ProgressSink};
pub use self::session::{SessionBuilder, SessionContext};

use crate::catalog::{Category, ToolEntry};
use crate::contract::CheckOptions;
use crate::contract::rules::RESERVED_INPUT_KEYS;
use crate::name::is_wire_safe_tool_name;
use crate::package::{FileReport, load_package_from_sources_with};
use crate::result::{BoundCaps, ToolResult, bound_result_owned};

/// How many failing values an invalid-arguments result lists.
const MAX_LISTED_ERRORS: usize = 16;

/// A package a host serves: its tools and their handlers, ready to dispatch calls.
///
/// Built with [`Package::builder`]. Cheap to share (`Arc<Package>`): every method takes
/// `&self`, and the per-tool validators are compiled once, on first use.
pub struct Package {
    tools: Vec<Slot>,
    index: HashMap<String, usize>,
    caps: BoundCaps,
    state: Option<Arc<dyn Any + Send + Sync>>,
    files: Vec<FileReport>,
}

/// One tool of a package.
struct Slot {
    entry: ToolEntry,
    name: Arc<str>,
    handler: Box<dyn Handler>,
    cancellable: bool,
    validator: OnceLock<Result<jsonschema::Validator, String>>,
}

impl Slot {
    /// The tool's validator, compiled on first use.
    fn validator(&self) -> &Result<jsonschema::Validator, String> {
        self.validator.get_or_init(|| {
            jsonschema::draft7::new(&self.entry.schema).map_err(|e| e.masked().to_string())
        })
    }
}

impl fmt::Debug for Package {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Package")
            .field(
                "tools",
                &self.tools.iter().map(|s| &*s.name).collect::<Vec<_>>(),
            )
            .field("caps", &self.caps)
            .field("state", &self.state.is_some())
            .finish_non_exhaustive()
    }
}

/// Builds a [`Package`] from tool files and handlers; see [`Package::builder`].
///
/// The generated dispatch table of a package calls [`tool`](Self::tool) once per tool,
/// with the bytes of the emitted `tools/<name>.json` and a handler made by [`sync_fn`],
/// [`sync_fn_cx`], [`async_fn`] or [`async_fn_cx`].
#[must_use]
pub struct PackageBuilder {
    sources: Vec<(String, Vec<u8>)>,
    handlers: Vec<(String, Box<dyn Handler>)>,
    caps: BoundCaps,
    state: Option<Arc<dyn Any + Send + Sync>>,
    options: CheckOptions,
}

impl fmt::Debug for PackageBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PackageBuilder")
            .field(
                "tools",
                &self.sources.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            )
            .field(
                "handlers",
                &self.handlers.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            )
            .field("caps", &self.caps)
            .finish_non_exhaustive()
    }
}

impl PackageBuilder {
    /// Adds a tool: its name (the file stem), the bytes of its `tools/<name>.json`, and its
    /// handler.
    pub fn tool(
        self,
        name: impl Into<String>,
        file: impl AsRef<[u8]>,
        handler: impl Handler,
    ) -> Self {
        let name = name.into();
        self.tool_file(name.clone(), file).handler(name, handler)
    }

    /// Adds a tool file alone; its handler comes with [`handler`](Self::handler).
    pub fn tool_file(mut self, name: impl Into<String>, file: impl AsRef<[u8]>) -> Self {
        self.sources.push((name.into(), file.as_ref().to_vec()));
        self
    }

    /// Adds the handler of the tool `name`.
    pub fn handler(mut self, name: impl Into<String>, handler: impl Handler) -> Self {
        self.handlers.push((name.into(), Box::new(handler)));
        self
    }

    /// The caps every result is bounded to (default: [`BoundCaps::default`]).
    pub fn caps(mut self, caps: BoundCaps) -> Self {
        self.caps = caps;
        self
    }

    /// State every handler can read with [`ToolContext::state`] (a client, a cache...).
    pub fn state<T: Any + Send + Sync>(mut self, state: T) -> Self {
        self.state = Some(Arc::new(state));
        self
    }

    /// The checker options the tool files are loaded with (the declared cards).
    pub fn check_options(mut self, options: CheckOptions) -> Self {
        self.options = options;
        self
    }

    /// Checks every tool file and matches it with its handler.
    ///
    /// # Errors
    ///
    /// A [`BuildError`] listing every problem: a file with a contract error (with its
    /// diagnostics), a tool without a handler, a handler without a tool, two handlers for
    /// one tool. Warnings do not fail the build: they are in [`Package::files`].
    pub fn build(self) -> Result<Package, BuildError> {
        let loaded = load_package_from_sources_with(
            self.sources.iter().map(|(n, b)| (n.as_str(), b.as_slice())),
            &self.options,
        );
        let mut problems: Vec<BuildProblem> = loaded
            .files
            .iter()
            .filter(|f| f.has_errors())
            .cloned()
            .map(BuildProblem::File)
            .collect();
        let mut handlers: HashMap<String, Box<dyn Handler>> = HashMap::new();
        for (name, handler) in self.handlers {
            match handlers.entry(name) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    problems.push(BuildProblem::DuplicateHandler(e.key().clone()));
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(handler);
                }
            }
        }
        let mut tools = Vec::with_capacity(loaded.tools.len());
        let mut index = HashMap::with_capacity(loaded.tools.len());
        for entry in loaded.tools {
            let Some(handler) = handlers.remove(&entry.name) else {
                problems.push(BuildProblem::NoHandler(entry.name));
                continue;
            };
            index.insert(entry.name.clone(), tools.len());
            tools.push(Slot {
                name: Arc::from(entry.name.as_str()),
                cancellable: entry.meta.annotations.cancellable == Some(true),
                entry,
                handler,
                validator: OnceLock::new(),
            });
        }
        let failed: std::collections::HashSet<&str> = loaded
            .files
            .iter()
            .filter(|f| !f.loaded)
            .map(|f| f.name.as_str())
            .collect();
        let mut orphans: Vec<String> = handlers
            .into_keys()
            .filter(|n| !failed.contains(n.as_str()))
            .collect();
        orphans.sort();
        problems.extend(orphans.into_iter().map(BuildProblem::NoTool));
        if problems.is_empty() {
            Ok(Package {
                tools,
                index,
                caps: self.caps,
                state: self.state,
                files: loaded.files,
            })
        } else {
            Err(BuildError { problems })
        }
    }
}

/// Why a [`Package`] could not be built: every problem found, in order.
#[derive(Debug, Clone)]
pub struct BuildError {
    /// The problems.
    pub problems: Vec<BuildProblem>,
}

/// One reason a [`Package`] could not be built.
#[derive(Debug, Clone)]
pub enum BuildProblem {
    /// A tool file with at least one contract error; its report has every diagnostic.
    File(FileReport),
    /// A tool file with no handler.
    NoHandler(String),
    /// A handler for a name no tool file has.
    NoTool(String),
    /// A second handler for one tool (`duplicate-tool`).
    DuplicateHandler(String),
}

impl fmt::Display for BuildProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildProblem::File(report) => {
                write!(f, "`{}` has contract errors", report.file)?;
                for d in report.diagnostics.iter().filter(|d| d.is_error()) {
                    write!(f, "\n  {d}")?;
                }
                Ok(())
            }
            BuildProblem::NoHandler(name) => write!(
                f,
                "the tool `{name}` has no handler; register one with `handler(\"{name}\", ...)`"
            ),
            BuildProblem::NoTool(name) => write!(
                f,
                "a handler is registered for `{name}`, but no tool file has that name; add `tools/{name}.json`"
            ),
            BuildProblem::DuplicateHandler(name) => write!(
                f,
                "duplicate-tool: two handlers claim the tool `{name}`; keep one"
            ),
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the package has {} problem(s)", self.problems.len())?;
        for p in &self.problems {
            write!(f, "\n- {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for BuildError {}

/// The one generic refusal of a tool the caller may not call: unknown, or not granted.
///
/// Both cases give the same message, byte for byte, so a caller learns nothing about tools
/// it may not see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    message: String,
}

impl Refusal {
    fn new(name: &str) -> Self {
        // The name is echoed only when it is a wire-safe name (at most 48 characters), so
        // a refusal never carries arbitrary model text.
        let message = if is_wire_safe_tool_name(name) {
            format!("no tool named `{name}` is available")
        } else {
            "no tool by that name is available".to_owned()
        };
        Self { message }
    }

    /// The refusal as the `isError` result a call gets.
    #[must_use]
    pub fn to_result(&self) -> ToolResult {
        ToolResult::error(self.message.clone())
            .with_structured(json!({"ok": false, "error": "unknown-tool"}))
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Refusal {}

/// The approval posture of one call (see [`Package::approval`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Approval {
    /// The tool's declaration makes this call ask a person first.
    Ask(AskReason),
    /// The declaration adds no ask: the host's floor for this category decides (a
    /// declaration can only make a call ask, never grant one).
    Floor(Category),
}

impl Approval {
    /// Whether the declaration makes this call ask.
    #[must_use]
    pub fn asks(&self) -> bool {
        matches!(self, Approval::Ask(_))
    }
}

/// Why a call asks for approval.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AskReason {
    /// The tool's category is `unknown`: every call asks.
    UnknownCategory,
    /// The call sends these keys of `askOnKeys` (presence, whatever their values).
    Keys(Vec<String>),
}

/// One failing value of an invalid-arguments result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ArgumentError {
    pub(crate) pointer: String,
    pub(crate) message: String,
}

/// The `isError` result of arguments that failed validation or deserialization: one line
/// per failing value, with its pointer, for the model; the same as `structuredContent`.
pub(crate) fn arguments_result(tool: &str, what: &str, errors: &[ArgumentError]) -> ToolResult {
    let mut text = format!("invalid arguments for `{tool}`: {what}");
    for e in errors.iter().take(MAX_LISTED_ERRORS) {
        let at = if e.pointer.is_empty() {
            "(root)"
        } else {
            &e.pointer
        };
        text.push_str(&format!("\n- `{at}`: {}", e.message));
    }
    if errors.len() > MAX_LISTED_ERRORS {
        text.push_str(&format!(
            "\n- and {} more",
            errors.len() - MAX_LISTED_ERRORS
        ));
    }
    let listed: Vec<Value> = errors
        .iter()
        .take(MAX_LISTED_ERRORS)
        .map(|e| json!({"pointer": e.pointer, "message": e.message}))
        .collect();
    ToolResult::error(text).with_structured(json!({
        "ok": false,
        "error": "invalid-arguments",
        "errors": listed,
    }))
}

/// The feature gate ([`ToolMeta::features_satisfied`](crate::catalog::ToolMeta::features_satisfied)),
/// without collecting the grants on every call.
fn granted(entry: &ToolEntry, session: &SessionContext) -> bool {
    entry
        .meta
        .requires
        .features
        .iter()
        .all(|f| session.is_granted(f))
}

/// The result of a call stopped by the abort signal.
fn cancelled_result() -> ToolResult {
    ToolResult::error("the call was cancelled before it finished")
        .with_structured(json!({"ok": false, "error": "cancelled"}))
        .with_neuralis_meta("cancelled", Value::Bool(true))
}

/// The result of a handler that panicked.
pub(crate) fn panic_result(payload: &(dyn Any + Send)) -> ToolResult {
    let message = panic_message(payload);
    ToolResult::error(
        "the tool failed with an internal error (a bug in the tool, not in the arguments); \
         retrying with the same arguments will fail the same way",
    )
    .with_structured(json!({"ok": false, "error": "internal"}))
    .with_neuralis_meta("panic", Value::String(message))
}

/// The message of a panic payload (`panic!` gives a `&str` or a `String`).
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with no message".to_owned())
}

/// The invalid-arguments entries of one validation error.
fn validation_errors(error: &jsonschema::ValidationError<'_>, out: &mut Vec<ArgumentError>) {
    let base = error.instance_path().as_str();
    use jsonschema::error::ValidationErrorKind;
    // A missing key is reported where it belongs, which says more than the root does.
    if let ValidationErrorKind::Required {
        property: Value::String(key),
    } = error.kind()
    {
        out.push(ArgumentError {
            pointer: crate::contract::push_pointer(base, key),
            message: format!("`{key}` is required"),
        });
        return;
    }
    if let ValidationErrorKind::AdditionalProperties { unexpected } = error.kind() {
        for key in unexpected {
            let why = if base.is_empty() && RESERVED_INPUT_KEYS.contains(&key.as_str()) {
                "; caller identity and session fields come from the verified session, never from arguments"
            } else {
                ""
            };
            out.push(ArgumentError {
                pointer: crate::contract::push_pointer(base, key),
                message: format!("`{key}` is not an argument here{why}"),
            });
        }
        return;
    }
    out.push(ArgumentError {
        pointer: base.to_owned(),
        message: error.masked().to_string(),
    });
}

impl Package {
    /// Starts a package.
    pub fn builder() -> PackageBuilder {
        PackageBuilder {
            sources: Vec::new(),
            handlers: Vec::new(),
            caps: BoundCaps::default(),
            state: None,
            options: CheckOptions::default(),
        }
    }

    /// Every tool file's report (warnings included), in load order.
    #[must_use]
    pub fn files(&self) -> &[FileReport] {
        &self.files
    }

    /// The caps results are bounded to.
    #[must_use]
    pub fn caps(&self) -> &BoundCaps {
        &self.caps
    }

    /// The tool `name` if the session may call it: `None` both for an unknown tool and for
    /// one whose `requires.features` are not all granted.
    fn gated(&self, name: &str, session: &SessionContext) -> Result<&Slot, Refusal> {
        self.index
            .get(name)
            .map(|&i| &self.tools[i])
            .filter(|s| granted(&s.entry, session))
            .ok_or_else(|| Refusal::new(name))
    }

    /// The tools `session` may see and call (catalog, MCP listing, client snapshot): those
    /// whose `requires.features` the session's grants satisfy, in load order.
    pub fn catalog<'a>(
        &'a self,
        session: &'a SessionContext,
    ) -> impl Iterator<Item = &'a ToolEntry> + 'a {
        self.tools
            .iter()
            .map(|s| &s.entry)
            .filter(|e| granted(e, session))
    }

    /// The approval posture of calling `name` with `args`: `askOnKeys` presence (a sent
    /// key asks whatever its value, `{"delete": false}` too), and category `unknown`
    /// always asks. Values are never read; defaults do not count as sent.
    ///
    /// # Errors
    ///
    /// The generic [`Refusal`] for a tool that is unknown or not granted to `session`,
    /// the same in both cases.
    pub fn approval(
        &self,
        name: &str,
        args: &Value,
        session: &SessionContext,
    ) -> Result<Approval, Refusal> {
        let slot = self.gated(name, session)?;
        let meta = &slot.entry.meta;
        if meta.annotations.category == Category::Unknown {
            return Ok(Approval::Ask(AskReason::UnknownCategory));
        }
        let sent: Vec<String> = match args.as_object() {
            Some(map) => meta
                .ask_on_keys
                .iter()
                .filter(|k| map.contains_key(k.as_str()))
                .cloned()
                .collect(),
            None => Vec::new(),
        };
        if sent.is_empty() {
            Ok(Approval::Floor(meta.annotations.category))
        } else {
            Ok(Approval::Ask(AskReason::Keys(sent)))
        }
    }

    /// Runs one call through the pipeline (see the [module docs](self)) and returns the
    /// bounded result. Never panics on any `name`, `args` or handler.
    ///
    /// `args` `null` reads as `{}` (clients that send no arguments); `abort` is the run's
    /// signal ([`AbortSignal::never`] when there is none).
    pub async fn dispatch(
        &self,
        name: &str,
        args: Value,
        session: &SessionContext,
        abort: AbortSignal,
    ) -> ToolResult {
        self.dispatch_with(name, args, session, CallOptions::new().abort(abort))
            .await
    }

    /// [`dispatch`](Self::dispatch) with the host's [`CallOptions`]: the abort signal and
    /// a [`ProgressSink`] for the handler's [`ToolContext::progress`] reports.
    pub async fn dispatch_with(
        &self,
        name: &str,
        args: Value,
        session: &SessionContext,
        options: CallOptions,
    ) -> ToolResult {
        let result = self.run(name, args, session, options).await;
        bound_result_owned(result, &self.caps).0
    }

    /// The pipeline before bounding.
    async fn run(
        &self,
        name: &str,
        args: Value,
        session: &SessionContext,
        options: CallOptions,
    ) -> ToolResult {
        let CallOptions { abort, progress } = options;
        let slot = match self.gated(name, session) {
            Ok(slot) => slot,
            Err(refusal) => return refusal.to_result(),
        };
        let args = match self.prepare(slot, args) {
            Ok(args) => args,
            Err(refused) => return *refused,
        };
        if abort.is_aborted() {
            return cancelled_result();
        }
        let cx = ToolContext {
            tool: Arc::clone(&slot.name),
            session: session.clone(),
            abort: slot.cancellable.then(|| abort.clone()),
            state: self.state.clone(),
            progress,
        };
        let call = match catch_unwind(AssertUnwindSafe(|| slot.handler.call(args, &cx))) {
            Ok(call) => call,
            Err(payload) => return panic_result(&*payload),
        };
        let mut future = match call {
            Call::Ready(result) => return result,
            Call::Pending(future) => future,
        };
        // Once a poll has panicked, or the race is decided, the future is never polled again.
        if slot.cancellable {
            let mut cancelled = pin!(abort.cancelled());
            poll_fn(|task| {
                match catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(task))) {
                    Ok(Poll::Ready(result)) => return Poll::Ready(result),
                    Ok(Poll::Pending) => {}
                    Err(payload) => return Poll::Ready(panic_result(&*payload)),
                }
                match cancelled.as_mut().poll(task) {
                    Poll::Ready(()) => Poll::Ready(cancelled_result()),
                    Poll::Pending => Poll::Pending,
                }
            })
            .await
        } else {
            poll_fn(
                |task| match catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(task))) {
                    Ok(poll) => poll,
                    Err(payload) => Poll::Ready(panic_result(&*payload)),
                },
            )
            .await
        }
    }

    /// Defaults, then validation: the arguments the handler may see, or the `isError`
    /// result the model reads.
    fn prepare(&self, slot: &Slot, args: Value) -> Result<Value, Box<ToolResult>> {
        let mut args = match args {
            Value::Null => Value::Object(Map::new()),
            other => other,
        };
        if let Value::Object(map) = &mut args {
            for (key, value) in &slot.entry.meta.defaults {
                if !map.contains_key(key) {
                    map.insert(key.clone(), value.clone());
                }
            }
        }
        let validator = match slot.validator() {
            Ok(v) => v,
            Err(e) => {
                return Err(Box::new(ToolResult::error(format!(
                    "the tool `{}` cannot validate its arguments: its schema does not compile ({e})",
                    slot.name
                ))));
            }
        };
        if validator.is_valid(&args) {
            return Ok(args);
        }
        let mut errors = Vec::new();
        for error in validator.iter_errors(&args) {
            validation_errors(&error, &mut errors);
        }
        Err(Box::new(arguments_result(
            &slot.name,
            "they do not match the tool's schema",
            &errors,
        )))
    }

    /// [`dispatch`](Self::dispatch) for sync callers, with no abort signal, driven by
    /// [`block_on`]. An async handler that waits on a specific runtime (tokio I/O or
    /// timers) needs that runtime: call `dispatch` from it instead.
    ///
    /// On `wasm32`, a handler whose future stays pending (nothing can wake it on one
    /// thread) gives an `isError` result instead of hanging.
    pub fn dispatch_blocking(
        &self,
        name: &str,
        args: Value,
        session: &SessionContext,
    ) -> ToolResult {
        let mut future = pin!(self.dispatch(name, args, session, AbortSignal::never()));
        // A sync handler completes on the first poll: no waker to allocate for it.
        if let Poll::Ready(result) = future
            .as_mut()
            .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()))
        {
            return result;
        }
        block_on(future).unwrap_or_else(|| {
            ToolResult::error(
                "the tool's handler is waiting on something this host cannot drive; \
                 the host must call it asynchronously",
            )
        })
    }

    /// The tool `name`, when the package has it (whoever asks: a host-side look-up, not
    /// gated).
    #[must_use]
    pub fn tool(&self, name: &str) -> Option<&ToolEntry> {
        self.index.get(name).map(|&i| &self.tools[i].entry)
    }

    /// Every tool of the package, ungated, in load order (for the host's own listings).
    pub fn tools(&self) -> impl Iterator<Item = &ToolEntry> {
        self.tools.iter().map(|s| &s.entry)
    }
}
