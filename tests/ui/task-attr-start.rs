//! task-attr: `task_start` needs a `task` under which calls may run as tasks.
use neuralis::{ToolContext, ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Exports a file.
#[tool(annotations(category = "read"), task_start = "handler")]
pub async fn export(input: Input, cx: &ToolContext) -> ToolResult {
    cx.begin_task().await;
    ToolResult::text(input.path)
}

fn main() {}
