//! Handlers: the type-erased [`Handler`] and what it is given back ([`Call`]); its context
//! (`context`), what it may return (`into_result`), its arguments (`arguments`), and the
//! handlers made from functions (`adapters`), each in a room of its own.

mod adapters;
mod arguments;
mod context;
mod into_result;

pub use adapters::{AsyncFnCx, WithTask, async_fn, async_fn_cx, sync_fn, sync_fn_cx, with_task};
pub use arguments::{Arguments, deserialize_input};
pub use context::ToolContext;
pub use into_result::{IntoToolResult, Json};

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use super::TaskMode;
use super::output::Output;
use super::state::ServiceType;
use crate::result::{ToolBound, ToolResult};

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
