//! handler-signature: the input is taken by value.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Does a thing.
#[tool(annotations(category = "read"))]
pub fn do_thing(input: &Input) -> ToolResult {
    ToolResult::text(input.path.clone())
}

fn main() {}
