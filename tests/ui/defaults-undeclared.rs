//! defaults-undeclared: `page_size` is the Rust name of a flattened field from another crate;
//! serde reads `pageSize`.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub query: String,
    #[serde(flatten)]
    pub paging: neuralis_test_support::Paging,
}

/// Searches.
#[tool(defaults(page_size = 20), annotations(category = "read"))]
pub fn search(input: Input) -> ToolResult {
    ToolResult::text(input.query)
}

fn main() {}
