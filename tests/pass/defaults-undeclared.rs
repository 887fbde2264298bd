//! defaults-undeclared near-miss: defaults on a renamed field and on a field flattened from
//! another crate, each by its serde name.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub query: String,
    #[serde(rename = "maxResults")]
    pub max_results: Option<u32>,
    #[serde(flatten)]
    pub paging: neuralis_test_support::Paging,
}

/// Searches.
#[tool(defaults(maxResults = 10, pageSize = 20), annotations(category = "read"))]
pub fn search(input: Input) -> ToolResult {
    ToolResult::text(input.query)
}

fn main() {
    assert_eq!(
        __neuralis_tool_search.x_neuralis()["defaults"],
        serde_json::json!({ "maxResults": 10, "pageSize": 20 })
    );
}
