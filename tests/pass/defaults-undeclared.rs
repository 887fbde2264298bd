//! defaults-undeclared near-miss: defaults on a renamed field, on a field flattened from
//! another crate, and on an input defined in another crate, each by its serde name and
//! with a value of the field's type.
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

/// Pages through something, with an input defined in another crate.
#[tool(defaults(pageSize = 50, cursor = "start"), annotations(category = "read"))]
pub fn page(input: neuralis_test_support::Paging) -> ToolResult {
    ToolResult::text(input.page_size.to_string())
}

fn main() {
    assert_eq!(
        __neuralis_tool_page.x_neuralis()["defaults"],
        serde_json::json!({ "pageSize": 50, "cursor": "start" })
    );
    assert_eq!(
        __neuralis_tool_search.x_neuralis()["defaults"],
        serde_json::json!({ "maxResults": 10, "pageSize": 20 })
    );
}
