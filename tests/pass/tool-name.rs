//! tool-name near-miss: 48 characters with `-` and `_`, given with `name = "..."`.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Does a thing.
#[tool(
    name = "a-tool_name-of-exactly-forty-eight-characters-xy",
    annotations(category = "read"),
)]
pub fn do_thing(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {
    assert_eq!(__neuralis_tool_do_thing.name.len(), 48);
}
