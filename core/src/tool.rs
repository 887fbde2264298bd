//! Handlers as the dispatch table sees them: one [`ToolDescriptor`] per `#[tool]`
//! handler, holding its name, its `x-neuralis` block, its input schema and a type-erased
//! call adapter.
//!
//! The adapter takes the call's [`Arguments`] (a validated tree, or the text of a
//! `dispatch_text` call, checked as it is read) and the [`ToolContext`]; it reads the
//! input, calls the handler (awaiting it when `async`), and turns what the handler
//! returns into a [`ToolResult`]:
//!
//! | handler returns | result |
//! |---|---|
//! | `ToolResult`, a `ContentBlock` or a list of them | as is |
//! | `String`, `&str` | one text block |
//! | `()` | `{"ok": true}` as `structuredContent` and text |
//! | `serde_json::Value` | read as a result ([`normalize_result`](crate::result::normalize_result)) |
//! | `T: ToolOutput + Serialize` | `structuredContent` with its JSON text as the content, and the tool's `outputSchema` |
//! | [`Json<T>`](crate::dispatch::Json) with `T: Serialize` | the same, without an output schema |
//! | `Result<T, E>` with `E: Display` | `Ok` as above; `Err` an `isError` result with the error's text |
//!
//! Any other return type (a type that is only `Serialize`) is a `handler-signature` error
//! when the crate compiles.
//!
//! A tree is expected to have passed the pipeline's checks already (feature gate,
//! defaults, schema validation); the adapter only reports a deserialization failure as
//! [`CallError::Input`]. A text that is not decided as it is read gives
//! [`CallError::Reread`], and the pipeline calls again with the tree.
//!
//! A descriptor is itself a [`dispatch::Handler`](crate::dispatch::Handler), so a
//! package registers it as it is:
//!
//! ```
//! use neuralis_core::dispatch::{AbortController, SessionContext, ToolContext};
//!
//! let controller = AbortController::new();
//! let cx = ToolContext::new("tidy", SessionContext::builder("u1").build())
//!     .with_abort(controller.signal());
//! assert!(!cx.is_aborted());
//! controller.abort();
//! assert!(cx.is_aborted());
//! ```

use std::fmt;

use serde_json::Value;

use crate::catalog::ToolMeta;
pub use crate::dispatch::{AbortSignal, Arguments, BoxFuture, ServiceType, ToolContext};
use crate::dispatch::{Call, TaskMode};
use crate::input::RootKey;
use crate::result::{ToolBound, ToolResult};

/// The adapter of a synchronous handler.
pub type SyncCall = for<'t> fn(Arguments<'t>, &ToolContext) -> Result<ToolResult, CallError>;

/// The adapter of an `async` handler: the input is read before the future is made (so a
/// text that must be read as a tree is known at once), the handler runs in the future.
pub type AsyncCall =
    for<'a, 't> fn(
        Arguments<'t>,
        &'a ToolContext,
    ) -> Result<BoxFuture<'a, Result<ToolResult, CallError>>, CallError>;

/// How a descriptor calls its handler: the generated adapter, sync or async. (A
/// descriptor as a whole is a [`dispatch::Handler`](crate::dispatch::Handler).)
#[derive(Clone, Copy)]
pub enum Adapter {
    /// A plain function.
    Sync(SyncCall),
    /// An `async fn`.
    Async(AsyncCall),
}

impl fmt::Debug for Adapter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Adapter::Sync(_) => "Adapter::Sync",
            Adapter::Async(_) => "Adapter::Async",
        })
    }
}

/// Why the adapter could not call the handler.
#[derive(Debug)]
#[non_exhaustive]
pub enum CallError {
    /// The arguments do not deserialize into the handler's input type: the `isError`
    /// result the model reads, naming the JSON pointer of the value that did not fit.
    Input(Box<ToolResult>),
    /// The handler is not available: its `#[tool]` attribute has compile errors.
    Unavailable,
    /// The handler is a method of a service the context does not hold (a descriptor
    /// called outside a built package: [`PackageBuilder::build`](crate::dispatch::PackageBuilder::build)
    /// refuses a package without its services).
    NoService(&'static str),
    /// Arguments that came as text were not decided as they were read (see
    /// [`Arguments`]): the pipeline reads them again as a tree. Never the model's.
    Reread,
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Input(result) => {
                f.write_str("invalid arguments")?;
                for block in result.blocks() {
                    if let crate::result::ContentBlock::Text(t) = block {
                        write!(f, ": {}", t.text)?;
                    }
                }
                Ok(())
            }
            CallError::Unavailable => f.write_str("the tool is not available"),
            CallError::NoService(service) => write!(
                f,
                "the tool is a method of `{service}`, and the call's context holds no `{service}`"
            ),
            CallError::Reread => f.write_str("the arguments must be read again as a tree"),
        }
    }
}

impl std::error::Error for CallError {}

impl From<CallError> for ToolResult {
    fn from(error: CallError) -> Self {
        match error {
            CallError::Input(result) => *result,
            CallError::Unavailable => ToolResult::error(
                "the tool is not available: its `#[tool]` attribute has compile errors",
            ),
            CallError::NoService(_) => {
                ToolResult::error(format!("the tool is not available: {error}"))
            }
            CallError::Reread => ToolResult::error(
                "the tool's arguments could not be read (a text the pipeline must read as a tree)",
            ),
        }
    }
}

impl crate::dispatch::Handler for ToolDescriptor {
    fn service(&self) -> Option<ServiceType> {
        self.service
    }

    fn output(&self) -> Option<crate::dispatch::Output> {
        (self.output)()
    }

    fn bound(&self) -> ToolBound {
        self.bound
    }

    fn task(&self) -> TaskMode {
        self.task
    }

    fn headers(&self) -> &'static [crate::header::Header] {
        self.headers
    }

    fn call<'a>(&'a self, args: Value, cx: &'a ToolContext) -> Call<'a> {
        self.adapt(Arguments::from(args), cx)
            .unwrap_or_else(|e| Call::Ready(ToolResult::from(e)))
    }

    fn call_text<'a>(&'a self, args: Arguments<'_>, cx: &'a ToolContext) -> Option<Call<'a>> {
        match self.adapt(args, cx) {
            Ok(call) => Some(call),
            Err(CallError::Reread) => None,
            Err(e) => Some(Call::Ready(ToolResult::from(e))),
        }
    }
}

/// One `#[tool]` handler (a free function, or a method of a `#[neuralis::tools]` impl):
/// what the dispatch table holds.
#[derive(Debug, Clone, Copy)]
pub struct ToolDescriptor {
    /// The tool name (`tools/<name>.json`).
    pub name: &'static str,
    /// The `x-neuralis` block as compact JSON, computed by the macro.
    pub x_neuralis: &'static str,
    /// The handler's doc comment, one part per `#[doc]` attribute.
    pub description: &'static [&'static str],
    /// The input type's root schema (`ToolInput::schema`).
    pub schema: fn() -> Value,
    /// The input type's root keys.
    pub root_keys: &'static [RootKey],
    /// `annotations(cancellable)`: the handler is given the abort signal.
    pub cancellable: bool,
    /// For a method, the service it is called on (the impl's `Self` type), which the
    /// adapter reads from the call's state; `None` for a free function.
    pub service: Option<ServiceType>,
    /// The output the handler's return type declares (MCP `outputSchema`): `Some` for a
    /// type deriving `ToolOutput`, or a `Result` of one.
    pub output: fn() -> Option<crate::dispatch::Output>,
    /// `bound(...)`: the tool's own caps and the argument that asks for more (the
    /// toolkit's, so never in `x_neuralis`).
    pub bound: ToolBound,
    /// `task = "..."` and `task_start = "..."`: how its calls run as tasks (the
    /// toolkit's, so never in `x_neuralis`).
    pub task: TaskMode,
    /// The input's root properties mirrored in HTTP headers (`ToolInput::HEADERS`; the
    /// MCP server's, so never in `x_neuralis` or the file).
    pub headers: &'static [crate::header::Header],
    /// The call adapter.
    pub handler: Adapter,
}

impl ToolDescriptor {
    /// The handler's call, or why it did not start (its input not read).
    fn adapt<'a>(
        &'a self,
        args: Arguments<'_>,
        cx: &'a ToolContext,
    ) -> Result<Call<'a>, CallError> {
        Ok(match self.handler {
            Adapter::Sync(f) => match f(args, cx) {
                Err(CallError::Reread) => return Err(CallError::Reread),
                result => Call::Ready(result.unwrap_or_else(ToolResult::from)),
            },
            Adapter::Async(f) => {
                let fut = f(args, cx)?;
                Call::Pending(Box::pin(async move {
                    fut.await.unwrap_or_else(ToolResult::from)
                }))
            }
        })
    }

    /// The `x-neuralis` block as JSON.
    #[must_use]
    pub fn x_neuralis(&self) -> Value {
        serde_json::from_str(self.x_neuralis).unwrap_or(Value::Null)
    }

    /// The `x-neuralis` block, typed.
    ///
    /// # Errors
    ///
    /// When the block does not read as a [`ToolMeta`]; the macro only emits blocks that do.
    pub fn meta(&self) -> Result<ToolMeta, serde_json::Error> {
        serde_json::from_str(self.x_neuralis)
    }

    /// The description: the doc comment joined as rustdoc joins it, `None` when empty.
    #[must_use]
    pub fn description(&self) -> Option<String> {
        let text = crate::input::join_doc(self.description);
        (!text.is_empty()).then_some(text)
    }

    /// The tool's document as composed at run time: the input's root schema with the
    /// description and the `x-neuralis` block.
    #[must_use]
    pub fn document(&self) -> Value {
        crate::input::tool_document((self.schema)(), self.description(), self.x_neuralis())
    }
}

/// Helpers for code generated by `#[tool]`. Not public API.
#[doc(hidden)]
pub mod private {
    use std::fmt::Display;
    use std::future::Future;

    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use serde_json::Value;

    pub use super::{
        AbortSignal, Adapter, Arguments, AsyncCall, BoxFuture, CallError, ServiceType, SyncCall,
        ToolContext, ToolDescriptor,
    };
    pub use crate::dispatch::Output;
    pub use crate::dispatch::returned::{
        OutputProbe, Returned, ViaIntoOutput, ViaIntoToolResult, ViaNoOutput, ViaOutput,
        ViaOutputKind, ViaPlain, ViaResult, ViaResultOutput, ViaResultWritten, ViaSerialize,
        ViaWritten,
    };
    pub use crate::dispatch::{ElicitChoice, ElicitForm};
    pub use crate::dispatch::{TaskMode, TaskStart, TaskSupport};
    pub use crate::input::root_schema;
    pub use crate::input::{reserved_key_message, reserved_root_key};
    pub use crate::result::{ToolBound, ToolResult};
    pub use crate::shape::{
        Bounds, KeyShape, Lit, Message, Shape, default_fits, default_message, misfit_message,
        undeclared_key_message,
    };
    pub use neuralis_model::const_checks::{
        Given, default_value_message, more_offset_message, root_key_message, tool_input_message,
    };
    pub use neuralis_model::header::{Header, header_shape_message, nested_header_message};

    /// The handler's input from the call's arguments.
    ///
    /// # Errors
    ///
    /// [`CallError::Input`] when serde refuses the arguments, naming where.
    pub fn deserialize<T: DeserializeOwned>(
        arguments: Arguments<'_>,
        cx: &ToolContext,
    ) -> Result<T, CallError> {
        arguments.read(cx.tool_name())
    }

    /// A returned value as `structuredContent` plus its JSON text.
    #[must_use]
    pub fn serialize_result<T: Serialize + ?Sized>(value: &T) -> ToolResult {
        match serde_json::to_value(value) {
            Ok(v) => ToolResult::json(v),
            Err(e) => ToolResult::error(format!("the tool's result could not be serialized: {e}")),
        }
    }

    /// A returned error as an `isError` result.
    #[must_use]
    pub fn error_result<E: Display + ?Sized>(error: &E) -> ToolResult {
        ToolResult::error(error.to_string())
    }

    /// The service a method is called on, from the call's state.
    ///
    /// # Errors
    ///
    /// [`CallError::NoService`] when the context holds no `T` (a package holds its
    /// services: it does not build without them).
    pub fn service<'a, T: std::any::Any + Send + Sync>(
        cx: &'a ToolContext,
        name: &'static str,
    ) -> Result<&'a T, CallError> {
        cx.state::<T>().ok_or(CallError::NoService(name))
    }

    /// The signal a cancellable handler is given: the caller's, or one that never fires.
    #[must_use]
    pub fn abort_signal(cx: &ToolContext) -> AbortSignal {
        cx.abort().cloned().unwrap_or_default()
    }

    /// Boxes an async handler's future.
    pub fn boxed<'a, T, F>(future: F) -> BoxFuture<'a, T>
    where
        F: Future<Output = T> + Send + 'a,
    {
        Box::pin(future)
    }

    /// The adapter of a handler whose `#[tool]` has errors: it is never called for real.
    ///
    /// # Errors
    ///
    /// Always [`CallError::Unavailable`].
    pub fn unavailable(_: Arguments<'_>, _: &ToolContext) -> Result<ToolResult, CallError> {
        Err(CallError::Unavailable)
    }

    /// The schema of a handler whose `#[tool]` has errors.
    #[must_use]
    pub fn no_schema() -> Value {
        Value::Null
    }

    /// The output of a handler whose return type declares none, or whose `#[tool]` has
    /// errors.
    #[must_use]
    pub fn no_output() -> Option<Output> {
        None
    }

    /// The drift test of one tool (the package table writes one per tool): the emitted
    /// file, rendered from source by the build script, against the run-time composition
    /// of its handler's descriptor; and the file against the run-time checker, since the
    /// table's `builder()` serves it without checking it again.
    ///
    /// # Panics
    ///
    /// When the file has a contract error, or the two differ, naming the JSON pointer of
    /// the first difference: the test's failure.
    #[track_caller]
    pub fn no_drift(name: &str, file: &str, descriptor: &ToolDescriptor) {
        let report = crate::contract::check_bytes(name, file.as_bytes());
        if let Some(d) = report.diagnostics.iter().find(|d| d.is_error()) {
            panic!(
                "tools/{name}.json fails the run-time checker, which the package table does \
                 not run again: {d}\n(the build script checks the file it writes; rebuild, and \
                 report a bug if this persists)"
            );
        }
        let emitted: Value = serde_json::from_str(file).unwrap_or(Value::Null);
        let composed = descriptor.document();
        if let Some(d) = first_difference(&emitted, &composed, "") {
            panic!(
                "tools/{name}.json drifted from the run-time composition of its handler: {d}\n\
                 (the build script renders from source, `ToolInput::schema()` composes at run \
                 time; rebuild, and report a bug if this persists)"
            );
        }
    }

    /// The first place where `a` and `b` differ, by JSON pointer.
    fn first_difference(a: &Value, b: &Value, at: &str) -> Option<String> {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for (k, v) in x {
                    let here = crate::contract::push_pointer(at, k);
                    match y.get(k) {
                        Some(w) => {
                            if let Some(d) = first_difference(v, w, &here) {
                                return Some(d);
                            }
                        }
                        None => return Some(format!("`{here}` is only in the file")),
                    }
                }
                y.keys().find(|k| !x.contains_key(*k)).map(|k| {
                    format!(
                        "`{}` is only in the run-time composition",
                        crate::contract::push_pointer(at, k)
                    )
                })
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
                .iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (v, w))| first_difference(v, w, &format!("{at}/{i}"))),
            _ if a == b => None,
            _ => Some(format!(
                "`{at}`: the file has `{a}`, the run-time composition `{b}`"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_turn_returns_into_results() {
        let ok = private::serialize_result(&serde_json::json!({ "ok": true }));
        assert_eq!(
            ok.structured_content,
            Some(serde_json::json!({ "ok": true }))
        );
        assert!(!ok.is_error);
        let err = private::error_result("no such city");
        assert!(err.is_error);
        let cx = ToolContext::new("t", crate::dispatch::SessionContext::builder("u").build());
        let e = private::deserialize::<u8>(Value::String("x".into()).into(), &cx)
            .expect_err("not a u8");
        assert!(e.to_string().starts_with("invalid arguments: "), "{e}");
        assert!(ToolResult::from(e).is_error);
        let missing = private::service::<String>(&cx, "Notes").expect_err("no state");
        assert_eq!(
            missing.to_string(),
            "the tool is a method of `Notes`, and the call's context holds no `Notes`"
        );
        let cx = cx.with_state(std::sync::Arc::new(String::from("here")));
        assert_eq!(
            private::service::<String>(&cx, "String")
                .map(String::as_str)
                .ok(),
            Some("here")
        );
    }
}
