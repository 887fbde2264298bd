//! bound-attr: a cap of `BoundCaps` is a positive integer; `0` keeps nothing.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Export {
    pub cursor: Option<String>,
}

/// Exports the audit log.
#[tool(annotations(category = "read"), bound(array_len = 0))]
pub fn audit_export(input: Export) -> ToolResult {
    ToolResult::text(input.cursor.unwrap_or_default())
}

fn main() {}
