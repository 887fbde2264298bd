//! Open-bag normalization (section 3 of the contract).
//!
//! An *open bag* is a non-root subschema whose `additionalProperties` is `true` or a schema.
//! Every open bag that declares no `propertyNames` gets [`default_property_names`]. The walk
//! visits schema positions only:
//!
//! - the values of the `properties`, `patternProperties`, `definitions` and `dependencies`
//!   maps (a `dependencies` value that is an array of names is not a schema and is skipped);
//! - `additionalProperties`, `items` (one schema or an array of schemas), `additionalItems`,
//!   `contains`, `propertyNames`;
//! - every branch of `allOf`, `anyOf`, `oneOf`, and `then`, `else`.
//!
//! It never enters `not` or `if` (a constraint there would be negated, or would change which
//! branch applies), the values of `default`, `const`, `enum`, `examples`, `x-neuralis`, or any
//! keyword it does not know. It never follows a `$ref`, and never touches the root.

use std::sync::OnceLock;

use serde_json::{Map, Value};

/// The default `propertyNames` schema, as JSON text.
///
/// It rejects the keys `__proto__`, `constructor` and `prototype`, and every key that starts
/// with `__` or `$`; it accepts everything else (`_x`, `constructorX`, `x__`, `a$`, and the
/// empty key). The pattern `^(?:__|\$)` has no lookaround, no flags and no class escapes, so
/// it means the same under ECMA-262 (the platform's validators, with or without the `u`
/// flag) and under Rust's `regex` crate.
///
/// ```
/// use neuralis_model::schema::{DEFAULT_PROPERTY_NAMES, default_property_names};
/// let parsed: serde_json::Value = serde_json::from_str(DEFAULT_PROPERTY_NAMES).expect("valid json");
/// assert_eq!(parsed, default_property_names());
/// ```
pub const DEFAULT_PROPERTY_NAMES: &str = r#"{"not":{"anyOf":[{"enum":["__proto__","constructor","prototype"]},{"pattern":"^(?:__|\\$)"}]}}"#;

/// The exact keys the default `propertyNames` rejects (besides the reserved prefixes).
pub const RESERVED_PROPERTY_NAMES: &[&str] = &["__proto__", "constructor", "prototype"];

/// The pattern of the reserved prefixes: a key starting with `__` or `$`.
pub const RESERVED_PROPERTY_NAME_PATTERN: &str = r"^(?:__|\$)";

/// The default `propertyNames` schema injected into open bags (see [`DEFAULT_PROPERTY_NAMES`]).
#[must_use]
pub fn default_property_names() -> Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(build_default_property_names).clone()
}

/// [`default_property_names`], built (once).
fn build_default_property_names() -> Value {
    let names = RESERVED_PROPERTY_NAMES
        .iter()
        .map(|s| Value::String((*s).to_owned()))
        .collect();
    let mut by_enum = Map::new();
    by_enum.insert("enum".to_owned(), Value::Array(names));
    let mut by_pattern = Map::new();
    by_pattern.insert(
        "pattern".to_owned(),
        Value::String(RESERVED_PROPERTY_NAME_PATTERN.to_owned()),
    );
    let mut any_of = Map::new();
    any_of.insert(
        "anyOf".to_owned(),
        Value::Array(vec![Value::Object(by_enum), Value::Object(by_pattern)]),
    );
    let mut not = Map::new();
    not.insert("not".to_owned(), Value::Object(any_of));
    Value::Object(not)
}

/// Whether the default `propertyNames` accepts `key`, decided without a regex engine.
///
/// ```
/// use neuralis_model::schema::default_property_names_accepts;
/// assert!(!default_property_names_accepts("__proto__"));
/// assert!(!default_property_names_accepts("$ref"));
/// assert!(default_property_names_accepts("constructorX"));
/// assert!(default_property_names_accepts("_x"));
/// ```
#[must_use]
pub fn default_property_names_accepts(key: &str) -> bool {
    !(RESERVED_PROPERTY_NAMES.contains(&key) || key.starts_with("__") || key.starts_with('$'))
}

/// Injects the default `propertyNames` into every open bag below the root.
///
/// Idempotent; a declared `propertyNames` is left alone; a root that is not an object, and
/// every value that is not an object schema, are left as they are.
///
/// ```
/// use neuralis_model::schema::{default_property_names, normalize};
/// use serde_json::json;
///
/// let mut schema = json!({
///     "type": "object",
///     "additionalProperties": false,
///     "properties": { "tags": { "type": "object", "additionalProperties": { "type": "string" } } }
/// });
/// normalize(&mut schema);
/// assert_eq!(schema["properties"]["tags"]["propertyNames"], default_property_names());
/// assert!(schema.get("propertyNames").is_none(), "the root is never touched");
///
/// let once = schema.clone();
/// normalize(&mut schema);
/// assert_eq!(schema, once);
/// ```
pub fn normalize(schema: &mut Value) {
    if let Value::Object(root) = schema {
        walk_children(root);
    }
}

/// Whether `schema` is an open bag (`additionalProperties` is `true` or a schema object)
/// that declares no `propertyNames`, found in one pass over its keys (no hashed lookups:
/// this runs on every subschema).
fn needs_property_names(schema: &Map<String, Value>) -> bool {
    let mut open = false;
    for (key, value) in schema {
        match key.as_str() {
            "additionalProperties" => open = matches!(value, Value::Bool(true) | Value::Object(_)),
            "propertyNames" => return false,
            _ => {}
        }
    }
    open
}

/// Normalizes one non-root subschema, then its children.
fn walk_schema(value: &mut Value) {
    let Value::Object(schema) = value else {
        return;
    };
    if needs_property_names(schema) {
        schema.insert("propertyNames".to_owned(), default_property_names());
    }
    walk_children(schema);
}

/// Visits every schema position of `schema` but `not` and `if` (where a guard would be
/// negated or change which branch applies) and `$defs` (not draft-07's).
fn walk_children(schema: &mut Map<String, Value>) {
    super::for_each_subschema_mut(schema, |keyword, child| {
        if !matches!(keyword, "not" | "if" | "$defs") {
            walk_schema(child);
        }
    });
}
