//! cancellable-signal near-miss: a cancellable handler takes the signal; others don't.
use neuralis::{AbortSignal, ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Copies slowly.
#[tool(annotations(category = "write", cancellable))]
pub async fn copy(input: Input, abort: AbortSignal) -> ToolResult {
    abort.aborted().await;
    ToolResult::text(input.path)
}

/// Reads quickly.
#[tool(annotations(category = "read", cancellable = false))]
pub fn read(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {
    assert!(__neuralis_tool_copy.cancellable);
    assert!(!__neuralis_tool_read.cancellable);
}
