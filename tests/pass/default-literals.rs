//! defaults-undeclared and schema-attr near-misses for literals checked against types:
//! an enum's variant (by serde name), a value inside the field's bounds, a default and
//! examples on an enum field.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Urgency {
    Low,
    High,
}

#[derive(ToolInput, serde::Deserialize)]
pub struct Issue {
    pub title: String,
    #[schema(default = "low", examples = ["high"])]
    pub urgency: Option<Urgency>,
    #[schema(minimum = 1, maximum = 14)]
    pub days: Option<u8>,
    pub tags: Option<Vec<Urgency>>,
}

/// Creates an issue.
#[tool(defaults(urgency = "high", days = 14, tags = ["low"]), annotations(category = "write"))]
pub fn issue_create(input: Issue) -> ToolResult {
    ToolResult::text(input.title)
}

fn main() {
    assert_eq!(
        __neuralis_tool_issue_create.x_neuralis()["defaults"],
        serde_json::json!({ "urgency": "high", "days": 14, "tags": ["low"] })
    );
    assert_eq!(
        <Issue as ToolInput>::schema()["properties"]["urgency"]["default"],
        "low"
    );
}
