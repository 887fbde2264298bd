//! The canonical writer: fixed key order, two-space indent, trailing newline.

use serde_json::Value;

/// The canonical text of a tool document.
#[must_use]
pub fn to_canonical_string(schema: &Value) -> String {
    let mut s = serde_json::to_string_pretty(schema).unwrap_or_default();
    s.push('\n');
    s
}

/// The canonical bytes of a tool document.
#[must_use]
pub fn to_canonical_vec(schema: &Value) -> Vec<u8> {
    to_canonical_string(schema).into_bytes()
}
