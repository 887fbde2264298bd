//! handler-signature near-misses: every handler form the toolkit calls.
use neuralis::{AbortSignal, ToolContext, ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

#[derive(serde::Serialize, neuralis::ToolOutput)]
pub struct Out {
    pub ok: bool,
}

/// Sync, by value, a result.
#[tool(annotations(category = "read"))]
pub fn plain(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

/// Sync, with the context, a serializable value.
#[tool(annotations(category = "read"))]
fn with_context(input: Input, cx: &ToolContext) -> Out {
    let _ = (input, cx);
    Out { ok: true }
}

/// Async, a `Result` of a value.
#[tool(annotations(category = "read"))]
pub(crate) async fn fallible(input: Input) -> Result<Out, std::io::Error> {
    let _ = input;
    Ok(Out { ok: true })
}

/// Async, cancellable, context after the signal, a `Result` of a result.
#[tool(annotations(category = "read", cancellable))]
pub async fn cancellable(abort: &AbortSignal, cx: &ToolContext, input: Input) -> Result<ToolResult, String> {
    let _ = cx;
    if abort.is_aborted() {
        return Err("aborted".into());
    }
    Ok(ToolResult::text(input.path))
}

/// A raw identifier, a destructured input.
#[tool(annotations(category = "read"))]
pub fn r#type(Input { path }: Input) -> ToolResult {
    ToolResult::text(path)
}

fn main() {
    assert_eq!(__neuralis_tool_type.name, "type");
    let _ = [
        &__neuralis_tool_plain,
        &__neuralis_tool_with_context,
        &__neuralis_tool_fallible,
        &__neuralis_tool_cancellable,
    ];
}
