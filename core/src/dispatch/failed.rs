//! The results of calls that failed: what a call gets instead of its handler's result (the
//! generic [`Refusal`], the invalid-arguments result, the cancelled and the panicked
//! result).

use std::any::Any;
use std::fmt;

use serde_json::{Value, json};

use crate::name::is_wire_safe_tool_name;
use crate::result::ToolResult;

/// How many failing values an invalid-arguments result lists.
const MAX_LISTED_ERRORS: usize = 16;

/// The one generic refusal of a tool the caller may not call: unknown, or not granted.
///
/// Both cases give the same message, byte for byte, so a caller learns nothing about tools
/// it may not see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    message: String,
}

impl Refusal {
    pub(super) fn new(name: &str) -> Self {
        // The name is echoed only when it is a wire-safe name (at most 48 characters), so
        // a refusal never carries arbitrary model text.
        let message = if is_wire_safe_tool_name(name) {
            format!("no tool named `{name}` is available")
        } else {
            "no tool by that name is available".to_owned()
        };
        Self { message }
    }

    /// The refusal as the `isError` result a call gets.
    #[must_use]
    pub fn to_result(&self) -> ToolResult {
        ToolResult::error(self.message.clone())
            .with_structured(json!({"ok": false, "error": "unknown-tool"}))
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Refusal {}

/// One failing value of an invalid-arguments result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ArgumentError {
    pub(crate) pointer: String,
    pub(crate) message: String,
}

/// The `isError` result of arguments that failed validation or deserialization: one line
/// per failing value, with its pointer, for the model; the same as `structuredContent`.
pub(crate) fn arguments_result(tool: &str, what: &str, errors: &[ArgumentError]) -> ToolResult {
    let mut text = format!("invalid arguments for `{tool}`: {what}");
    for e in errors.iter().take(MAX_LISTED_ERRORS) {
        let at = if e.pointer.is_empty() {
            "(root)"
        } else {
            &e.pointer
        };
        text.push_str(&format!("\n- `{at}`: {}", e.message));
    }
    if errors.len() > MAX_LISTED_ERRORS {
        text.push_str(&format!(
            "\n- and {} more",
            errors.len() - MAX_LISTED_ERRORS
        ));
    }
    let listed: Vec<Value> = errors
        .iter()
        .take(MAX_LISTED_ERRORS)
        .map(|e| json!({"pointer": e.pointer, "message": e.message}))
        .collect();
    ToolResult::error(text).with_structured(json!({
        "ok": false,
        "error": "invalid-arguments",
        "errors": listed,
    }))
}

/// The result of a call stopped by the abort signal.
pub(super) fn cancelled_result() -> ToolResult {
    ToolResult::error("the call was cancelled before it finished")
        .with_structured(json!({"ok": false, "error": "cancelled"}))
        .with_neuralis_meta("cancelled", Value::Bool(true))
}

/// The result of a handler that panicked.
pub(crate) fn panic_result(payload: &(dyn Any + Send)) -> ToolResult {
    let message = panic_message(payload);
    ToolResult::error(
        "the tool failed with an internal error (a bug in the tool, not in the arguments); \
         retrying with the same arguments will fail the same way",
    )
    .with_structured(json!({"ok": false, "error": "internal"}))
    .with_neuralis_meta("panic", Value::String(message))
}

/// The message of a panic payload (`panic!` gives a `&str` or a `String`).
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with no message".to_owned())
}
