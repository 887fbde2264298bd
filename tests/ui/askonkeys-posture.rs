//! askonkeys-posture: a `read` tool asks on every call anyway.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Does a thing.
#[tool(annotations(destructive, category = "read"), ask_on_keys(path))]
pub fn do_thing(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {}
