//! askonkeys-undeclared: `force` is a property of the `options` field, one level down
//! (the author forgot `#[serde(flatten)]`): the error says where it is.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Options {
    pub force: Option<bool>,
}

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
    pub options: Options,
}

/// Deletes a file.
#[tool(annotations(destructive, category = "write"), ask_on_keys(force))]
pub fn delete_file(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {}
