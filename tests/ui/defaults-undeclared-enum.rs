//! defaults-undeclared: a default that is not a variant of its field's enum.
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
    pub urgency: Option<Urgency>,
}

/// Creates an issue.
#[tool(defaults(urgency = "medium"), annotations(category = "write"))]
pub fn issue_create(input: Issue) -> ToolResult {
    ToolResult::text(input.title)
}

fn main() {}
