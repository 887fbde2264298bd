//! Handlers from functions ([`sync_fn`], [`sync_fn_cx`], [`async_fn`], [`async_fn_cx`])
//! and [`with_task`], which gives a handler its task mode.

use std::future::Future;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{Arguments, Call, Handler, IntoToolResult, ToolContext, deserialize_input};
use crate::dispatch::TaskMode;
use crate::dispatch::output::Output;
use crate::dispatch::state::ServiceType;
use crate::result::ToolBound;

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
