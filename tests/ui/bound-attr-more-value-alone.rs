//! bound-attr: `more_value` says what to send in `more`'s argument: without `more` it has
//! none.
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
#[tool(annotations(category = "read"), bound(array_len = 50, more_value = "offset"))]
pub fn audit_export(input: Export) -> Entries {
    Entries { entries: input.offset.into_iter().collect() }
}

fn main() {}
