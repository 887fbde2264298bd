//! Output schemas: the shape a tool promises for its `structuredContent`, checked before
//! a result leaves the pipeline.
//!
//! Since MCP 2025-06-18 a tool may declare `outputSchema`, and clients validate the
//! `structuredContent` of its results against it (and reject a result that does not
//! conform). A tool's [`Output`] comes from its handler ([`Handler::output`], which
//! `#[tool]` fills from a return type deriving `ToolOutput`) or from
//! [`PackageBuilder::output_schema`](super::PackageBuilder::output_schema). Its schema's
//! root is an object: an output that is not one (a number, a list, an enum written as a
//! string) is sent as `{"result": <value>}`, and its schema says so. The pipeline checks
//! every successful result against it with a validator compiled once per tool:
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
//! `isError` results of a tool with an output schema carry no `structuredContent` (their
//! details are in the text): it could not match the schema, and some clients (the MCP
//! Inspector) validate it all the same.
//!
//! [`Handler::output`]: super::Handler::output

use std::fmt;
use std::sync::Arc;

use serde_json::{Value, json};

use super::validation::Checker;
use crate::output::{ToolOutput, Written, is_object_schema, output_root, output_root_written};
use crate::result::ToolResult;

/// The key under `_meta.neuralis` where an `isError` result of a tool with an output
/// schema keeps the `structuredContent` it cannot send (the refusal's id and the failing
/// arguments' pointers, a handler's own details).
pub const ERROR_META: &str = "error";

/// What a tool declares of its successful results (MCP `outputSchema`): the schema of
/// their `structuredContent`, whose root is always an object, and whether the handler's
/// value is wrapped as `{"result": <value>}` to fit it (an output that is not an object:
/// a number, a list, an enum written as a string).
///
/// ```
/// use neuralis_core::dispatch::Output;
/// use serde_json::json;
///
/// let listed = Output::from_schema(json!({"type": "array", "items": {"type": "string"}}));
/// assert!(listed.is_wrapped());
/// assert_eq!(listed.schema(), &json!({"type": "object",
///     "properties": {"result": {"type": "array", "items": {"type": "string"}}},
///     "required": ["result"], "additionalProperties": false}));
///
/// let object = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}});
/// assert!(!Output::from_schema(object.clone()).is_wrapped());
///
/// // From a type deriving `ToolOutput` (what `#[tool]` declares for its return type).
/// assert!(Output::of::<Vec<u8>>().is_wrapped());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    schema: Value,
    wrapped: bool,
}

impl Output {
    /// The output of a handler returning `T`: `T`'s output schema, wrapped when it is not
    /// an object schema.
    #[must_use]
    pub fn of<T: ToolOutput + ?Sized>() -> Self {
        let (schema, wrapped) = output_root::<T>();
        Self { schema, wrapped }
    }

    /// The output of a handler returning `T`, a type that derives only `ToolInput`: what
    /// its input derive wrote of what serde writes ([`Written`]), wrapped when it is not
    /// an object schema. For a type that derives both, this is [`of`](Self::of)'s.
    #[must_use]
    pub fn written<T: Written + ?Sized>() -> Self {
        let (schema, wrapped) = output_root_written::<T>();
        Self { schema, wrapped }
    }

    /// An output from a schema written by hand: an object schema as it is, any other
    /// wrapped as the `result` property.
    #[must_use]
    pub fn from_schema(schema: Value) -> Self {
        if is_object_schema(&schema) {
            return Self {
                schema,
                wrapped: false,
            };
        }
        Self {
            schema: json!({
                "type": "object",
                "properties": {"result": schema},
                "required": ["result"],
                "additionalProperties": false,
            }),
            wrapped: true,
        }
    }

    /// The schema of `structuredContent` (an object schema).
    #[must_use]
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// Whether the handler's value is sent as `{"result": <value>}`.
    #[must_use]
    pub fn is_wrapped(&self) -> bool {
        self.wrapped
    }
}

/// A tool's output and its validator, compiled when the package is built.
pub(super) struct OutputSchema {
    pub(super) output: Output,
    validator: Checker,
}

impl OutputSchema {
    /// A checked output; the reason when its schema is not a valid draft-07 schema, or
    /// needs a general validator the package was built without.
    pub(super) fn new(output: Output) -> Result<Self, String> {
        crate::contract::meta_check(&output.schema)?;
        let validator =
            Checker::new(&output.schema).map_err(|e| super::validation::needs_general(&e))?;
        Ok(Self { output, validator })
    }

    /// The handler's result as it leaves: a wrapped output's value under `result`; an
    /// `isError` result without `structuredContent` (its details are in the text), which
    /// could not match the output schema and which some clients (the MCP Inspector)
    /// check against it all the same. The details stay, for the UI and the host, under
    /// `_meta.neuralis.error` (never read by the model, never checked against the schema).
    pub(super) fn shape(&self, mut result: ToolResult) -> ToolResult {
        if result.is_error {
            if let Some(details) = result.structured_content.take() {
                result = result.with_neuralis_meta(ERROR_META, details);
            }
            return result;
        }
        if self.output.wrapped
            && !result.is_error
            && let Some(value) = result.structured_content.take()
        {
            let mut wrapped = serde_json::Map::new();
            wrapped.insert(crate::result::RESULT.to_owned(), value);
            result.structured_content = Some(Value::Object(wrapped));
        }
        result
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
        if let Some(why) = self.validator.broken() {
            return Some((
                String::new(),
                format!("the output schema does not compile: {why}"),
            ));
        }
        self.validator
            .first_error(structured)
            .map(|(pointer, message)| (format!("/structuredContent{pointer}"), message))
    }
}

/// Whether bounding may be why `result` breaks its schema at `pointer`: a cut of
/// `structuredContent` it records (`_meta.neuralis.bound`) is at that place, above it or
/// below it, or a cut is not listed. A typed value is bounded while it is serialized, so the pipeline never sees
/// it whole: this tells a schema it no longer meets once cut (an array below its
/// `minItems`, a clipped string off its `pattern`, a member dropped) from the tool's bug.
pub(super) fn cut_at(result: &ToolResult, pointer: &str) -> bool {
    let Some(record) = result
        .neuralis_meta()
        .and_then(|n| n.get(crate::result::BOUND_META))
    else {
        return false;
    };
    let listed = record.get("at").and_then(Value::as_array);
    let total = record.get("cuts").and_then(Value::as_u64).unwrap_or(0);
    if listed.is_none_or(|l| (l.len() as u64) < total) {
        return true;
    }
    let under = |a: &str, b: &str| a == b || a.strip_prefix(b).is_some_and(|r| r.starts_with('/'));
    listed.into_iter().flatten().any(|cut| {
        cut.get("pointer")
            .and_then(Value::as_str)
            .filter(|p| under(p, "/structuredContent"))
            .is_some_and(|p| under(pointer, p) || under(p, pointer))
    })
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
/// result, nothing of the details, and (as every `isError` result of a typed tool) no
/// `structuredContent`.
pub(super) fn mismatch_result(after_bounding: bool) -> ToolResult {
    if after_bounding {
        ToolResult::error(
            "the tool's result was too large to send within its declared output schema; \
             ask for less (a narrower filter, fewer items)",
        )
    } else {
        ToolResult::error(
            "the tool failed with an internal error (its result did not match its declared \
             output schema: a bug in the tool, not in the arguments); retrying with the same \
             arguments will fail the same way",
        )
    }
}
