//! A test-only package: one tool per edge of the pipeline that `tests/wasm` drives in a
//! real WebAssembly host (a 10 MB result, a panic, a feature gate, an async handler that
//! yields, one that never completes). Not an example to copy: `catalog` is.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use neuralis::{ToolContext, ToolInput, ToolOutput, ToolResult, tool};
use serde::{Deserialize, Serialize};

neuralis::package!();
neuralis::wasm_entry!();

/// No arguments.
#[derive(ToolInput, Deserialize)]
#[schema(root)]
pub struct Nothing {}

/// The input of [`probe_panic`].
#[derive(ToolInput, Deserialize)]
#[schema(root)]
pub struct PanicInput {
    /// What the panic says.
    pub message: String,
}

/// The caller, as the pipeline handed it to the handler.
#[derive(Serialize, ToolOutput)]
#[serde(rename_all = "camelCase")]
pub struct Caller {
    /// Always `true`.
    pub ok: bool,
    /// The session's user.
    pub user_id: String,
    /// Whether the session grants `probe.secret`.
    pub secret: bool,
    /// How many times the handler's future was polled.
    pub polls: u32,
}

/// The size of [`probe_big`]'s text: 10 MiB.
pub const BIG_BYTES: usize = 10 * 1024 * 1024;

/// Return a 10 MiB text, for the bound.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub fn probe_big(input: Nothing) -> ToolResult {
    let Nothing {} = input;
    ToolResult::text("x".repeat(BIG_BYTES))
}

/// Panic with the given message.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub fn probe_panic(input: PanicInput) -> ToolResult {
    panic!("probe panic: {}", input.message)
}

/// Say who calls, after yielding to the executor a few times.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn probe_whoami(input: Nothing, cx: &ToolContext) -> Caller {
    let Nothing {} = input;
    let polls = YieldTimes { left: 3, polls: 0 }.await;
    let session = cx.session();
    Caller {
        ok: true,
        user_id: session.user_id().to_owned(),
        secret: session.is_granted("probe.secret"),
        polls,
    }
}

/// A tool only a session granted `probe.secret` sees.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline"),
    requires(features("probe.secret"))
)]
pub fn probe_gated(input: Nothing) -> ToolResult {
    let Nothing {} = input;
    ToolResult::text("granted")
}

/// Wait for something that never happens.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn probe_stuck(input: Nothing) -> ToolResult {
    let Nothing {} = input;
    std::future::pending::<()>().await;
    ToolResult::text("unreachable")
}

/// A future that is pending `left` times, waking itself each time, then gives the number
/// of times it was polled: an async handler that really yields to the executor.
struct YieldTimes {
    left: u32,
    polls: u32,
}

impl Future for YieldTimes {
    type Output = u32;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
        self.polls += 1;
        if self.left == 0 {
            return Poll::Ready(self.polls);
        }
        self.left -= 1;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}
