//! cancellable-signal: `cancellable` promises a handler that takes the abort signal.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Does a thing.
#[tool(annotations(category = "read", cancellable))]
pub fn do_thing(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {}
