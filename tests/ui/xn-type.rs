//! xn-type: `estimated_duration_ms` takes a non-negative integer.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Does a thing.
#[tool(annotations(category = "read", estimated_duration_ms = "2s"))]
pub fn do_thing(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {}
