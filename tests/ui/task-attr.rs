//! task-attr: `task` is `optional`, `required` or `forbidden`.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Exports a file.
#[tool(annotations(category = "read"), task = "optinal")]
pub async fn export(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {}
