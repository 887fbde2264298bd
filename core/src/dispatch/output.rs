//! Output schemas: the shape a tool promises for its `structuredContent`, checked before
//! a result leaves the pipeline.
//!
//! Since MCP 2025-06-18 a tool may declare `outputSchema`, and clients validate the
//! `structuredContent` of its results against it (and reject a result that does not
//! conform). A tool's output schema comes from its handler ([`Handler::output_schema`],
//! which `#[tool]` fills from the return type) or from
//! [`PackageBuilder::output_schema`](super::PackageBuilder::output_schema). The pipeline
//! checks every successful result against it with a validator compiled once per tool:
//!
//! - a result that breaks it (or has no `structuredContent` at all) is the tool's bug: the
//!   caller gets a generic `isError` result, and the host gets an [`OutputMismatch`] with
//!   the pointer and the message (by default a line on stderr; see
//!   [`PackageBuilder::on_output_mismatch`](super::PackageBuilder::on_output_mismatch));
//! - bounding (`result-bound`) shrinks arrays from the tail and clips strings. When that
//!   makes a result that was valid break its schema (an array cut below its `minItems`, a
//!   clipped string that no longer matches its `pattern`), the caller gets an `isError`
//!   result saying the result was too large to send, never an invalid result.
//!
//! `isError` results are not checked: MCP clients validate successful results only.
//!
//! [`Handler::output_schema`]: super::Handler::output_schema

use std::fmt;
use std::sync::{Arc, OnceLock};

use serde_json::{Value, json};

use crate::result::ToolResult;

/// A tool's output schema and its validator, compiled on first use.
pub(super) struct OutputSchema {
    pub(super) schema: Arc<Value>,
    validator: OnceLock<Result<jsonschema::Validator, String>>,
}

impl OutputSchema {
    /// An output schema; `None` when it is not a valid draft-07 schema (the reason).
    pub(super) fn new(schema: Value) -> Result<Self, String> {
        if let Err(e) = crate::contract::meta_check(&schema) {
            return Err(e);
        }
        Ok(Self {
            schema: Arc::new(schema),
            validator: OnceLock::new(),
        })
    }

    fn validator(&self) -> &Result<jsonschema::Validator, String> {
        self.validator.get_or_init(|| {
            jsonschema::draft7::new(&self.schema).map_err(|e| e.masked().to_string())
        })
    }

    /// The first way `result` breaks the schema, if it does (successful results only).
    pub(super) fn violation(&self, result: &ToolResult) -> Option<(String, String)> {
        if result.is_error {
            return None;
        }
        let Some(structured) = &result.structured_content else {
            return Some((
                String::new(),
                "the result has no `structuredContent`, but the tool declares an output schema"
                    .to_owned(),
            ));
        };
        match self.validator() {
            Ok(validator) => validator.iter_errors(structured).next().map(|e| {
                (
                    format!("/structuredContent{}", e.instance_path().as_str()),
                    e.masked().to_string(),
                )
            }),
            Err(e) => Some((String::new(), format!("the output schema does not compile: {e}"))),
        }
    }
}

/// A result that broke its tool's output schema: the tool's bug, for the host to see.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct OutputMismatch {
    /// The tool.
    pub tool: String,
    /// Where the result breaks the schema (`/structuredContent/items/0/id`; empty when
    /// `structuredContent` is missing).
    pub pointer: String,
    /// What is wrong there.
    pub message: String,
    /// `true` when the handler's result was valid and bounding made it invalid (the result
    /// was too large to send within its schema).
    pub after_bounding: bool,
}

impl fmt::Display for OutputMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            String::new()
        } else {
            format!(" at `{}`", self.pointer)
        };
        if self.after_bounding {
            write!(
                f,
                "the result of `{}` no longer matches its output schema once bounded{at}: {}",
                self.tool, self.message
            )
        } else {
            write!(
                f,
                "`{}` returned a result that does not match its output schema{at}: {}",
                self.tool, self.message
            )
        }
    }
}

/// Where the host hears of [`OutputMismatch`]es.
#[derive(Clone)]
pub(super) struct MismatchSink(pub(super) Arc<dyn Fn(&OutputMismatch) + Send + Sync>);

impl Default for MismatchSink {
    fn default() -> Self {
        Self(Arc::new(|m: &OutputMismatch| eprintln!("neuralis: {m}")))
    }
}

impl fmt::Debug for MismatchSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MismatchSink(..)")
    }
}

/// What the caller gets for a result that broke the tool's output schema: nothing of the
/// result, nothing of the details.
pub(super) fn mismatch_result(after_bounding: bool) -> ToolResult {
    if after_bounding {
        ToolResult::error(
            "the tool's result was too large to send within its declared output schema; \
             ask for less (a narrower filter, fewer items)",
        )
        .with_structured(json!({"ok": false, "error": "result-too-large"}))
    } else {
        ToolResult::error(
            "the tool failed with an internal error (its result did not match its declared \
             output schema: a bug in the tool, not in the arguments); retrying with the same \
             arguments will fail the same way",
        )
        .with_structured(json!({"ok": false, "error": "internal"}))
    }
}

/// The schema a non-object output is wrapped in: MCP's `structuredContent` is an object
/// (before 2026-07-28 it must be), so a tool whose output is not one sends
/// `{"result": <value>}` and declares this.
///
/// ```
/// use neuralis_core::dispatch::wrap_output_schema;
/// use serde_json::json;
///
/// assert_eq!(
///     wrap_output_schema(json!({"type": "array", "items": {"type": "string"}})),
///     json!({"type": "object", "properties": {"result": {"type": "array", "items": {"type": "string"}}},
///            "required": ["result"], "additionalProperties": false})
/// );
/// let object = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}});
/// assert_eq!(wrap_output_schema(object.clone()), object);
/// ```
#[must_use]
pub fn wrap_output_schema(schema: Value) -> Value {
    if schema.get("type").and_then(Value::as_str) == Some("object") {
        return schema;
    }
    json!({
        "type": "object",
        "properties": {"result": schema},
        "required": ["result"],
        "additionalProperties": false,
    })
}
