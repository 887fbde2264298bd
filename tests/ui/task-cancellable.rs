//! task-cancellable: a tool whose calls run only as tasks can be stopped.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Exports a file.
#[tool(annotations(category = "read"), task = "required")]
pub async fn export(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {}
