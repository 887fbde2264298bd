//! bound-attr near-miss: every cap a positive integer, `more` a root property by its serde
//! name (one of a flattened type from another crate too), on a function and a method;
//! `more_value = "offset"` with an integer argument (an `Option<u32>`, a flattened `u8`).
use neuralis::{ToolInput, ToolOutput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Export {
    pub next_cursor: Option<String>,
    pub offset: Option<u32>,
    #[serde(flatten)]
    pub paging: neuralis_test_support::Paging,
}

#[derive(ToolOutput, serde::Serialize)]
pub struct Entries {
    pub entries: Vec<String>,
}

/// Exports the audit log.
#[tool(
    annotations(category = "read"),
    bound(
        text_chars = 8000,
        array_len = 50,
        string_chars = 1000,
        structured_bytes = 65536,
        blob_bytes = 1048576,
        more = "nextCursor"
    )
)]
pub fn audit_export(input: Export) -> Entries {
    Entries {
        entries: input.next_cursor.into_iter().collect(),
    }
}

/// Exports the audit log from an offset.
#[tool(
    annotations(category = "read"),
    bound(array_len = 50, more = "offset", more_value = "offset")
)]
pub fn audit_from(input: Export) -> Entries {
    Entries {
        entries: input.offset.into_iter().map(|o| o.to_string()).collect(),
    }
}

pub struct Audit;

#[neuralis::tools]
impl Audit {
    /// Pages through the audit log.
    #[tool(
        annotations(category = "read"),
        bound(more = "pageSize", more_value = "offset")
    )]
    pub fn audit_page(&self, input: Export) -> ToolResult {
        ToolResult::text(input.next_cursor.unwrap_or_default())
    }
}

fn main() {
    assert_eq!(__neuralis_tool_audit_export.bound.array_len, Some(50));
    assert_eq!(__neuralis_tool_audit_export.bound.more, Some("nextCursor"));
    assert_eq!(__neuralis_tool_Audit__audit_page.bound.more, Some("pageSize"));
    assert!(__neuralis_tool_Audit__audit_page.bound.more_offset);
    assert!(__neuralis_tool_audit_from.bound.more_offset);
    assert!(!__neuralis_tool_audit_export.bound.more_offset);
}
