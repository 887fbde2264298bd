//! [`IntoToolResult`]: what a handler may return, and [`Json`], a serializable value
//! returned as a result.

use std::fmt;

use serde::Serialize;
use serde_json::{Value, json};

use super::ToolContext;
use crate::result::{ContentBlock, ToolResult, normalize_result};

/// What a handler may return: anything that becomes a [`ToolResult`].
///
/// - [`ToolResult`] as it is;
/// - [`Json<T>`] for any `T: Serialize`: `structuredContent` plus its compact JSON text for
///   the model (a value that fails to serialize gives an `isError` result);
/// - [`Value`]: normalized as untrusted result JSON (a result object is read as one, any
///   other value becomes `structuredContent`, see
///   [`normalize_result`](crate::result::normalize_result));
/// - `String` and `&str`: one text block; [`ContentBlock`] and `Vec<ContentBlock>`;
/// - `()`: `{"ok": true}`;
/// - `Result<T, E>` with `T` any of these and `E: Display`: `Err` is `isError: true` with
///   the error's text.
///
/// There is no blanket impl for every `Serialize` type: [`ToolResult`] and `Result` are
/// themselves `Serialize`, so such an impl would overlap and read them as data. Wrap a
/// serializable value in [`Json`] (the `#[tool]` macro does it for you).
pub trait IntoToolResult {
    /// The result.
    fn into_tool_result(self) -> ToolResult;

    /// The result in a call whose caps `cx` holds: a [`Json`] value is bounded as it is
    /// serialized (as a typed return is, see
    /// [`bound_typed`](crate::result::bound_typed)); anything else is
    /// [`into_tool_result`](Self::into_tool_result), bounded by the pipeline.
    fn into_tool_result_in(self, cx: &ToolContext) -> ToolResult
    where
        Self: Sized,
    {
        let _ = cx;
        self.into_tool_result()
    }
}

impl IntoToolResult for ToolResult {
    fn into_tool_result(self) -> ToolResult {
        self
    }
}

impl IntoToolResult for Value {
    fn into_tool_result(self) -> ToolResult {
        normalize_result(self).0
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::text(self)
    }
}

impl IntoToolResult for &str {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::text(self)
    }
}

impl IntoToolResult for ContentBlock {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::from(self)
    }
}

impl IntoToolResult for Vec<ContentBlock> {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::from_blocks(self)
    }
}

impl IntoToolResult for () {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::json(json!({"ok": true}))
    }
}

impl<T: Serialize> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> ToolResult {
        match serde_json::to_value(&self.0) {
            Ok(value) => ToolResult::json(value),
            Err(e) => ToolResult::error(format!("the tool's result could not be serialized: {e}")),
        }
    }

    fn into_tool_result_in(self, cx: &ToolContext) -> ToolResult {
        crate::dispatch::returned::bounded(&self.0, cx)
    }
}

impl<T: IntoToolResult, E: fmt::Display> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> ToolResult {
        match self {
            Ok(v) => v.into_tool_result(),
            Err(e) => ToolResult::error(e.to_string()),
        }
    }

    fn into_tool_result_in(self, cx: &ToolContext) -> ToolResult {
        match self {
            Ok(v) => v.into_tool_result_in(cx),
            Err(e) => ToolResult::error(e.to_string()),
        }
    }
}

/// A serializable value returned as a result: `structuredContent`, and its compact JSON
/// text as the content the model reads.
///
/// ```
/// use neuralis_core::dispatch::{IntoToolResult, Json};
/// use serde_json::json;
///
/// #[derive(serde::Serialize)]
/// struct Forecast { ok: bool, high: i32 }
/// let r = Json(Forecast { ok: true, high: 21 }).into_tool_result();
/// assert_eq!(r.structured_content, Some(json!({"ok": true, "high": 21})));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Json<T>(pub T);
