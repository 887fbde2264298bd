//! Types from another crate, for the cross-crate tests of `#[derive(ToolInput)]`.

use neuralis::ToolInput;
use serde::Deserialize;

/// Caller context that a careless author might flatten into a tool's input.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallerContext {
    /// Who is calling.
    pub user_id: String,
    /// In which conversation.
    pub conversation_id: String,
}

/// Paging, safe to flatten anywhere.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Paging {
    /// Items per page.
    #[schema(minimum = 1, maximum = 100)]
    pub page_size: u8,
    /// Where to continue.
    pub cursor: Option<String>,
}
