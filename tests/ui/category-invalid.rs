//! category-invalid: `filesystem` is not a category.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Does a thing.
#[tool(annotations(category = "filesystem"))]
pub fn do_thing(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {}
