//! task-attr and task-cancellable near-miss: an optional task needs no signal, a required
//! one is cancellable, a task the handler begins is `async`; none of it reaches the block.
use neuralis::dispatch::{TaskStart, TaskSupport};
use neuralis::{AbortSignal, ToolContext, ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Exports a file.
#[tool(annotations(category = "read"), task = "optional")]
pub async fn export(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

/// Migrates a database.
#[tool(annotations(category = "write", cancellable), task = "required")]
pub async fn migrate(input: Input, abort: AbortSignal) -> ToolResult {
    if abort.is_aborted() {
        return ToolResult::error("stopped");
    }
    ToolResult::text(input.path)
}

/// Asks which file, then runs as a task.
#[tool(
    annotations(category = "read", cancellable),
    task = "required",
    task_start = "handler"
)]
pub async fn pick(input: Input, cx: &ToolContext, abort: AbortSignal) -> ToolResult {
    let _ = abort;
    cx.begin_task().await;
    ToolResult::text(input.path)
}

/// Reads quickly.
#[tool(annotations(category = "read"), task = "forbidden")]
pub fn read(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {
    assert_eq!(__neuralis_tool_export.task.support, TaskSupport::Optional);
    assert_eq!(__neuralis_tool_migrate.task.support, TaskSupport::Required);
    assert_eq!(__neuralis_tool_pick.task.start, TaskStart::Handler);
    assert_eq!(__neuralis_tool_read.task.support, TaskSupport::Forbidden);
    assert!(!__neuralis_tool_export.x_neuralis.contains("task"));
}
