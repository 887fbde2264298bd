//! askonkeys-too-many: nine distinct keys, one above the limit.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Does a thing.
#[tool(
    annotations(destructive, category = "write"),
    ask_on_keys(a, b, c, d, e, f, g, h, i),
)]
pub fn do_thing(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {}
