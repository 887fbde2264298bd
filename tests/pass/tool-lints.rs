//! The `#[tool]` expansion is lint-clean under `deny(warnings)`, unused qualifications
//! and missing docs (and clippy's pedantic group, where clippy runs).
#![deny(warnings, unused_qualifications, missing_docs, clippy::pedantic)]

use neuralis::{AbortSignal, ToolContext, ToolInput, ToolResult, tool};

/// The input.
#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    /// A path.
    pub path: String,
    /// A count.
    pub count: Option<i8>,
}

/// Sync.
#[tool(defaults(count = -3), annotations(category = "read"))]
pub fn sync_tool(input: Input, cx: &ToolContext) -> ToolResult {
    let _ = cx;
    ToolResult::text(input.path)
}

/// Async, cancellable, fallible.
#[tool(
    annotations(destructive, category = "write", cancellable),
    ask_on_keys(count)
)]
pub async fn async_tool(input: Input, abort: AbortSignal) -> Result<Vec<String>, String> {
    if abort.is_aborted() {
        return Err("aborted".to_owned());
    }
    Ok(vec![input.path])
}

fn main() {}
