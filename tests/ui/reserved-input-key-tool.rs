//! reserved-input-key: a tool's input is a root even without `#[schema(root)]`, so
//! `userId` (from `rename_all`) is refused where `#[tool]` names the type.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Input {
    pub user_id: String,
}

/// Looks a user up.
#[tool(annotations(read_only, category = "read"))]
pub fn lookup(input: Input) -> ToolResult {
    ToolResult::text(input.user_id)
}

fn main() {}
