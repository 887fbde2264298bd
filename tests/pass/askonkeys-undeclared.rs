//! askonkeys-undeclared near-miss: keys by their serde names, one from a flattened type of
//! another crate.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Input {
    pub path: String,
    pub dry_run: Option<bool>,
    #[serde(flatten)]
    pub paging: neuralis_test_support::Paging,
}

/// Deletes a file.
#[tool(annotations(destructive, category = "write"), ask_on_keys(pageSize, dryRun))]
pub fn delete_file(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {}
