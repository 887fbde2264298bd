//! Every violation of a `#[tool]` at once: an unknown key, a bad category, a duplicate key
//! in `ask_on_keys`.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Does a thing.
#[tool(
    colour = "red",
    annotations(destructive, category = "wrte"),
    ask_on_keys(path, path),
)]
pub fn do_thing(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {}
