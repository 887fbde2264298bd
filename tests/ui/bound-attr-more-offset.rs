//! bound-attr: `more_value = "offset"` sends the next offset in `more`'s argument, which
//! must be an integer (`cursor` is a string).
use neuralis::{ToolInput, ToolOutput, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Export {
    pub cursor: Option<String>,
}

#[derive(ToolOutput, serde::Serialize)]
pub struct Entries {
    pub entries: Vec<String>,
}

/// Exports the audit log.
#[tool(annotations(category = "read"), bound(more = "cursor", more_value = "offset"))]
pub fn audit_export(input: Export) -> Entries {
    Entries { entries: input.cursor.into_iter().collect() }
}

fn main() {}
