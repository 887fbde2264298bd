//! cancellable-signal: a handler that reads the abort signal must declare `cancellable`.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Does a thing.
#[tool(annotations(category = "read"))]
pub fn do_thing(input: Input, abort: neuralis::AbortSignal) -> ToolResult {
    ToolResult::text(format!("{} {}", input.path, abort.is_aborted()))
}

fn main() {}
