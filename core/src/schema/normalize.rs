//! Open-bag normalization (section 3 of the contract).

use serde_json::Value;

/// The default `propertyNames` pattern: rejects `__proto__`, `constructor`, `prototype`,
/// and keys starting with `__` or `$`. (Stub: the real definition lands with the checker.)
pub const DEFAULT_PROPERTY_NAMES: &str = "";

/// The default `propertyNames` schema injected into open bags.
#[must_use]
pub fn default_property_names() -> Value {
    Value::Null
}

/// Injects the default `propertyNames` into every open bag below the root. Idempotent.
pub fn normalize(schema: &mut Value) {
    let _ = schema;
}
