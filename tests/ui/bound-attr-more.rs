//! bound-attr: `more` names a root property by its serde name (`nextCursor`, not
//! `next_cursor`).
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Export {
    pub next_cursor: Option<String>,
}

/// Exports the audit log.
#[tool(annotations(category = "read"), bound(array_len = 50, more = "next_cursor"))]
pub fn audit_export(input: Export) -> ToolResult {
    ToolResult::text(input.next_cursor.unwrap_or_default())
}

fn main() {}
