//! task-attr: a task the handler begins needs an `async fn` to await `begin_task` in.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Exports a file.
#[tool(annotations(category = "read"), task = "optional", task_start = "handler")]
pub fn export(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {}
