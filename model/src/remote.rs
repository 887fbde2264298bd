//! The `mcp-remote` profile: serving tools to platforms that consume MCP servers
//! (section 6 of the contract).
//!
//! Such a platform namespaces, rewrites and lowers what a server offers before a model
//! sees it. This module does the same conversions so the author sees their outcome:
//!
//! - [`lower`]: the input schema as the provider subset keeps it, with every dropped
//!   construct (`remote-dropped`);
//! - [`sanitize_description`]: the description as it is stored (`remote-description`);
//! - [`check_name`], [`wire_name`], [`RESERVED_REMOTE_NAMES`]: names on the wire
//!   (`remote-name`, `remote-reserved-name`);
//! - [`check_entitlements`]: root properties that look like entitlements
//!   (`remote-entitlement`);
//! - [`check_profile`]: the profile's own rules on one tool file. The profile also runs
//!   every rule of sections 1–4 ([`check_value_using`](crate::checker::check_value_using)); callers run both.

mod lower;
mod names;
mod sanitize;

use serde_json::Value;

pub use lower::{
    DEPTH_CAP, DropReason, Dropped, ENUM_CAP, Lowered, METADATA_ROOT_KEYS, PROPERTIES_CAP,
    SCHEMA_DESCRIPTION_CAP, SUBSET_KEYWORDS, SUBSET_TYPES, lower,
};
pub use names::{
    ENTITLEMENT_WORDS, RESERVED_REMOTE_NAMES, check_entitlements, check_name, entitlement_word,
    is_reserved_remote_name, wire_name,
};
pub use sanitize::{
    Change, DESCRIPTION_CAP, INSTRUCTION_PHRASES, REMOVED, Sanitized, sanitize_description,
};

use crate::contract::{Diagnostic, RuleId};

/// The profile's own rules on the tool file `tools/<name>.json`:
/// `remote-reserved-name`, `remote-description`, `remote-dropped` (one warning per
/// dropped construct whose [`DropReason::is_reported`]) and `remote-entitlement`.
///
/// `remote-name` is not reported here: for a file, `tool-name` already covers it. A root
/// description past 500 characters gets `remote-description` alone, not also
/// `remote-dropped`.
/// A missing or non-string description is left to `description-missing` and
/// `schema-draft`.
///
/// ```
/// use neuralis_model::{RuleId, remote::check_profile};
/// use serde_json::json;
///
/// let diagnostics = check_profile("add_to_cart", &json!({
///     "type": "object",
///     "additionalProperties": false,
///     "description": "Add a design to this buyer's cart.",
///     "properties": {
///         "sku": { "type": "string", "pattern": "^[A-Z]+$" },
///         "tier": { "type": "string", "enum": ["retail", "wholesale"] }
///     }
/// }));
/// let found: Vec<_> = diagnostics.iter().map(|d| (d.rule, d.pointer.as_str())).collect();
/// assert_eq!(found, [
///     (RuleId::RemoteDropped, "/properties/sku/pattern"),
///     (RuleId::RemoteEntitlement, "/properties/tier"),
/// ]);
/// ```
#[must_use]
pub fn check_profile(name: &str, schema: &Value) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = names::check_reserved(name).into_iter().collect();
    if let Some(text) = schema.get("description").and_then(Value::as_str) {
        out.extend(check_description(text));
    }
    out.extend(
        lower(schema)
            .dropped
            .into_iter()
            .filter(|d| d.reason.is_reported())
            // A root description past 500 characters is past 400 too: `remote-description`
            // already says so, with the text as stored.
            .filter(|d| !(d.pointer == "/description" && d.reason == DropReason::Truncated))
            .map(|d| {
                Diagnostic::new(RuleId::RemoteDropped, d.pointer.clone()).with_message(d.describe())
            }),
    );
    out.extend(check_entitlements(schema));
    out
}

/// `remote-description` when the root description would be rewritten. The message lists
/// the rewrites; the hint shows the text the model will read.
fn check_description(text: &str) -> Option<Diagnostic> {
    let sanitized = sanitize_description(text);
    if sanitized.is_unchanged() {
        return None;
    }
    let changes: Vec<String> = sanitized.changes.iter().map(ToString::to_string).collect();
    let hint = RuleId::RemoteDescription.rule().hint;
    Some(
        Diagnostic::new(RuleId::RemoteDescription, "/description")
            .with_message(format!(
                "the description will be rewritten before the model sees it: {}",
                changes.join(", ")
            ))
            .with_hint(format!("{hint}; stored as: {:?}", sanitized.text)),
    )
}
