//! Handlers as the dispatch table sees them: one [`ToolDescriptor`] per `#[tool]`
//! handler, holding its name, its `x-neuralis` block, its input schema and a type-erased
//! call adapter.
//!
//! The adapter takes the call's arguments as JSON and the [`ToolContext`]; it
//! deserializes the input, calls the handler (awaiting it when `async`), and turns what
//! the handler returns into a [`ToolResult`]:
//!
//! | handler returns | result |
//! |---|---|
//! | `ToolResult` | as is |
//! | any `T: Serialize` | `structuredContent` with its JSON text as the content |
//! | `Result<T, E>` with `E: Display` | `Ok` as above; `Err` an `isError` result with the error's text |
//!
//! The arguments are expected to have passed the pipeline's checks already (feature
//! gate, defaults, schema validation); the adapter only reports a deserialization failure
//! as [`CallError::Input`].
//!
//! ```
//! use neuralis_core::tool::{AbortSignal, ToolContext};
//!
//! let signal = AbortSignal::new();
//! let cx = ToolContext::new().with_abort(signal.clone());
//! assert!(!cx.abort_signal().is_some_and(AbortSignal::is_aborted));
//! signal.abort();
//! assert!(cx.abort_signal().is_some_and(AbortSignal::is_aborted));
//! ```

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use serde_json::{Map, Value};

use crate::catalog::ToolMeta;
use crate::input::RootKey;
use crate::result::ToolResult;

/// A boxed future, as async handlers' adapters return it.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The adapter of a synchronous handler.
pub type SyncCall = fn(Value, &ToolContext) -> Result<ToolResult, CallError>;

/// The adapter of an `async` handler.
pub type AsyncCall =
    for<'a> fn(Value, &'a ToolContext) -> BoxFuture<'a, Result<ToolResult, CallError>>;

/// How a handler is called.
#[derive(Clone, Copy)]
pub enum Handler {
    /// A plain function.
    Sync(SyncCall),
    /// An `async fn`.
    Async(AsyncCall),
}

impl fmt::Debug for Handler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Handler::Sync(_) => "Handler::Sync",
            Handler::Async(_) => "Handler::Async",
        })
    }
}

/// Why the adapter could not call the handler.
#[derive(Debug)]
#[non_exhaustive]
pub enum CallError {
    /// The arguments do not deserialize into the handler's input type.
    Input(serde_json::Error),
    /// The handler is not available: its `#[tool]` attribute has compile errors.
    Unavailable,
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Input(e) => write!(f, "invalid arguments: {e}"),
            CallError::Unavailable => f.write_str("the tool is not available"),
        }
    }
}

impl std::error::Error for CallError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CallError::Input(e) => Some(e),
            CallError::Unavailable => None,
        }
    }
}

/// One `#[tool]` handler: what the dispatch table holds.
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
    /// The call adapter.
    pub handler: Handler,
}

impl ToolDescriptor {
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
        let mut root = match (self.schema)() {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        if let Some(d) = self.description() {
            root.insert("description".into(), Value::String(d));
        }
        root.insert("x-neuralis".into(), self.x_neuralis());
        Value::Object(root)
    }
}

/// What a handler learns about its call besides its input.
///
/// Minimal for now: the abort signal of a cancellable tool. (The call pipeline adds the
/// verified session and the package state.)
#[derive(Debug, Clone, Default)]
pub struct ToolContext {
    abort: Option<AbortSignal>,
}

impl ToolContext {
    /// A context with nothing in it.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The context with an abort signal, for a cancellable tool.
    #[must_use]
    pub fn with_abort(mut self, signal: AbortSignal) -> Self {
        self.abort = Some(signal);
        self
    }

    /// The abort signal, when the caller gave one.
    #[must_use]
    pub fn abort_signal(&self) -> Option<&AbortSignal> {
        self.abort.as_ref()
    }
}

#[derive(Debug, Default)]
struct AbortState {
    aborted: AtomicBool,
    wakers: Mutex<Vec<Waker>>,
}

/// Fires when the caller gives up on a call. Clones share one signal.
///
/// Only a handler that declares `annotations(cancellable)` takes one (the macro refuses
/// the others: `cancellable-signal`); it checks [`AbortSignal::is_aborted`] between steps
/// or awaits [`AbortSignal::aborted`].
#[derive(Debug, Clone, Default)]
pub struct AbortSignal {
    state: Arc<AbortState>,
}

impl AbortSignal {
    /// A signal that has not fired.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Fires the signal; every clone sees it, and every [`Aborted`] future completes.
    pub fn abort(&self) {
        self.state.aborted.store(true, Ordering::SeqCst);
        let wakers = match self.state.wakers.lock() {
            Ok(mut w) => std::mem::take(&mut *w),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        };
        for w in wakers {
            w.wake();
        }
    }

    /// Whether the signal has fired.
    #[must_use]
    pub fn is_aborted(&self) -> bool {
        self.state.aborted.load(Ordering::SeqCst)
    }

    /// A future that completes when the signal fires.
    pub fn aborted(&self) -> Aborted {
        Aborted {
            signal: self.clone(),
        }
    }
}

/// The future of [`AbortSignal::aborted`].
#[derive(Debug)]
#[must_use = "futures do nothing unless awaited"]
pub struct Aborted {
    signal: AbortSignal,
}

impl Future for Aborted {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.signal.is_aborted() {
            return Poll::Ready(());
        }
        match self.signal.state.wakers.lock() {
            Ok(mut w) => w.push(cx.waker().clone()),
            Err(poisoned) => poisoned.into_inner().push(cx.waker().clone()),
        }
        // The signal may have fired between the check and the registration.
        if self.signal.is_aborted() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
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
        AbortSignal, AsyncCall, BoxFuture, CallError, Handler, SyncCall, ToolContext,
        ToolDescriptor,
    };
    pub use crate::input::root_schema;
    pub use crate::result::ToolResult;
    pub use crate::shape::{KeyShape, Lit, Shape, default_fits};

    /// The handler's input from the call's arguments.
    ///
    /// # Errors
    ///
    /// [`CallError::Input`] when serde refuses the arguments.
    pub fn deserialize<T: DeserializeOwned>(arguments: Value) -> Result<T, CallError> {
        serde_json::from_value(arguments).map_err(CallError::Input)
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

    /// The signal a cancellable handler is given: the caller's, or one that never fires.
    #[must_use]
    pub fn abort_signal(cx: &ToolContext) -> AbortSignal {
        cx.abort_signal().cloned().unwrap_or_default()
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
    pub fn unavailable(_: Value, _: &ToolContext) -> Result<ToolResult, CallError> {
        Err(CallError::Unavailable)
    }

    /// The schema of a handler whose `#[tool]` has errors.
    #[must_use]
    pub fn no_schema() -> Value {
        Value::Null
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abort_wakes_waiters() {
        let signal = AbortSignal::new();
        let mut fut = Box::pin(signal.aborted());
        let waker = Waker::noop();
        let mut cx = Context::from_waker(waker);
        assert!(fut.as_mut().poll(&mut cx).is_pending());
        signal.clone().abort();
        assert!(fut.as_mut().poll(&mut cx).is_ready());
    }

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
        let e = private::deserialize::<u8>(Value::String("x".into())).expect_err("not a u8");
        assert!(e.to_string().starts_with("invalid arguments: "), "{e}");
    }
}
