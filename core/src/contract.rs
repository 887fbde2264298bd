//! The contract: rule table, diagnostics, and the checker for any `tools/*.json`.
//!
//! The rules live in `neuralis-model` (re-exported here), which the macros and the build
//! script share; this module gives the checker its draft-07 validator, `jsonschema`, so
//! that [`check_value`], [`check_bytes`] and [`check_bytes_with`] run every rule.

pub use neuralis_model::contract::*;

use serde_json::Value;

/// Checks the bytes of `tools/<name>.json` with default options.
///
/// ```
/// use neuralis_core::{RuleId, check_bytes};
/// let report = check_bytes("find", br#"{"type": "object"}"#);
/// assert!(report.has_errors());
/// assert!(report.diagnostics.iter().any(|d| d.rule == RuleId::RootClosed));
/// ```
#[must_use]
pub fn check_bytes(name: &str, bytes: &[u8]) -> Report {
    check_bytes_with(name, bytes, &CheckOptions::default())
}

/// Checks the bytes of `tools/<name>.json`.
///
/// A file that cannot be read (`depth-limit`, `json-syntax`) gets that one diagnostic
/// alone, and no schema. Otherwise every diagnostic of [`check_value`] gets the line and
/// column of its pointer, and they come in document order.
#[must_use]
pub fn check_bytes_with(name: &str, bytes: &[u8], options: &CheckOptions) -> Report {
    check_bytes_using(name, bytes, options, Some(&JsonSchema))
}

/// Checks an already parsed tool document named `name`: every rule of sections 1, 2 and
/// 4 of `docs/contract.md` except `duplicate-tool` (a build-time rule), all violations at once,
/// each with the RFC 6901 pointer of the offending key or value, in a fixed order.
///
/// The checks recurse as deep as the value goes: for untrusted input, start from bytes
/// with [`check_bytes`], which refuses documents deeper than 128 levels first.
///
/// ```
/// use neuralis_core::contract::{CheckOptions, RuleId, check_value};
/// let schema = serde_json::json!({
///     "$schema": "http://json-schema.org/draft-07/schema#",
///     "type": "object",
///     "additionalProperties": false,
///     "description": "Look a user up.",
///     "properties": { "userId": { "type": "string" } },
///     "x-neuralis": { "annotations": { "category": "read" } }
/// });
/// let found = check_value("find_user", &schema, &CheckOptions::default());
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].rule, RuleId::ReservedInputKey);
/// assert_eq!(found[0].pointer, "/properties/userId");
/// ```
#[must_use]
pub fn check_value(name: &str, schema: &Value, options: &CheckOptions) -> Vec<Diagnostic> {
    check_value_using(name, schema, options, Some(&JsonSchema))
}

/// The checker's draft-07 validator: `jsonschema`.
struct JsonSchema;

fn violation(error: &jsonschema::ValidationError<'_>) -> Violation {
    let instance = error.instance();
    Violation {
        pointer: error.instance_path().as_str().to_owned(),
        message: error.masked().to_string(),
        found: (!matches!(instance.as_ref(), Value::Object(_) | Value::Array(_)))
            .then(|| instance.clone().into_owned()),
    }
}

impl Draft07 for JsonSchema {
    fn meta_violations(&self, schema: &Value) -> Vec<Violation> {
        with_meta_validator(|validator| {
            // Most documents are vouched for by a walk of the meta-schema's own rules,
            // asking the validator only about formats; any doubt goes to the validator.
            if meta::surely_valid(schema, &mut |doc| validator.is_valid(doc))
                || validator.is_valid(schema)
            {
                return Vec::new();
            }
            validator
                .iter_errors(schema)
                .map(|e| violation(&e))
                .collect()
        })
    }

    fn compile<'a>(&'a self, schema: &Value) -> Option<Box<dyn Compiled + 'a>> {
        let validator = jsonschema::draft7::new(schema).ok()?;
        Some(Box::new(Compiled7(validator)))
    }
}

struct Compiled7(jsonschema::Validator);

impl Compiled for Compiled7 {
    fn violations(&self, instance: &Value) -> Vec<Violation> {
        self.0
            .iter_errors(instance)
            .map(|e| violation(&e))
            .collect()
    }

    fn first_violation(&self, instance: &Value) -> Option<Violation> {
        self.0.iter_errors(instance).next().map(|e| violation(&e))
    }
}

/// `Ok` when `schema` is a valid draft-07 schema, else the first reason it is not.
pub(crate) fn meta_check(schema: &Value) -> Result<(), String> {
    with_meta_validator(|meta| match meta.iter_errors(schema).next() {
        None => Ok(()),
        Some(e) => {
            let at = e.instance_path().as_str();
            let at = if at.is_empty() { "(root)" } else { at };
            Err(format!(
                "not a valid draft-07 schema at `{at}`: {}",
                e.masked()
            ))
        }
    })
}

/// Runs `f` with the draft-07 meta-schema validator, obtained once per process.
#[cfg(not(target_family = "wasm"))]
fn with_meta_validator<R>(f: impl FnOnce(&jsonschema::Validator) -> R) -> R {
    use std::sync::OnceLock;
    static META: OnceLock<jsonschema::meta::MetaValidator<'static>> = OnceLock::new();
    f(META
        .get_or_init(jsonschema::draft7::meta::validator)
        .as_ref())
}

/// Runs `f` with the draft-07 meta-schema validator, obtained once per thread (on wasm
/// the validator is not `Sync`, and there is one thread).
#[cfg(target_family = "wasm")]
fn with_meta_validator<R>(f: impl FnOnce(&jsonschema::Validator) -> R) -> R {
    thread_local! {
        static META: jsonschema::meta::MetaValidator<'static> = jsonschema::draft7::meta::validator();
    }
    META.with(|meta| f(meta.as_ref()))
}
