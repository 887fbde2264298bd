//! No cascade: a derive error on a tool's input reports that error alone, not
//! `input-not-struct` at the handler nor `askonkeys-undeclared`/`defaults-undeclared`
//! for the keys the input really declares.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    #[schema(colour = "red")]
    pub path: String,
    pub recursive: Option<bool>,
}

/// Removes files.
#[tool(
    defaults(recursive = false),
    annotations(destructive, category = "machine"),
    ask_on_keys(recursive, path),
)]
pub fn remove(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {}
