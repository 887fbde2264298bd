//! The `#[tool]` expansion is lint-clean under `deny(warnings)`, unused qualifications
//! and missing docs (and clippy's pedantic group, where clippy runs).
#![deny(warnings, unused_qualifications, missing_docs, clippy::pedantic)]

use neuralis::{AbortSignal, ToolContext, ToolInput, ToolResult, tool, tools};

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

/// A service.
pub struct Service {
    /// Its lines.
    pub lines: std::sync::Mutex<Vec<String>>,
}

#[tools]
impl Service {
    /// A sync method.
    #[tool(annotations(category = "write"))]
    pub fn method_tool(&self, input: Input) -> Result<usize, String> {
        let mut lines = self.lines.lock().map_err(|e| e.to_string())?;
        lines.push(input.path);
        Ok(lines.len())
    }

    /// An async, cancellable method with the context.
    #[tool(annotations(category = "read", cancellable))]
    pub async fn async_method(&self, cx: &ToolContext, input: Input, abort: AbortSignal) -> ToolResult {
        let _ = (cx, abort, &self.lines);
        ToolResult::text(input.path)
    }
}

fn main() {}
