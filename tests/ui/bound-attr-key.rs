//! bound-attr: the caps are named as `BoundCaps` names its fields.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Export {
    pub cursor: Option<String>,
}

/// Exports the audit log.
#[tool(annotations(category = "read"), bound(array_length = 50))]
pub fn audit_export(input: Export) -> ToolResult {
    ToolResult::text(input.cursor.unwrap_or_default())
}

fn main() {}
