//! bound-attr: `more_value` is `offset` (a misspelling gets a suggestion).
use neuralis::{ToolInput, ToolOutput, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Export {
    pub offset: Option<u32>,
}

#[derive(ToolOutput, serde::Serialize)]
pub struct Entries {
    pub entries: Vec<u32>,
}

/// Exports the audit log.
#[tool(annotations(category = "read"), bound(more = "offset", more_value = "ofset"))]
pub fn audit_export(input: Export) -> Entries {
    Entries { entries: input.offset.into_iter().collect() }
}

fn main() {}
