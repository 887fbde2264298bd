//! The contract: rule table, diagnostics, and the checker for any `tools/*.json`.
//!
//! The rules live in `neuralis-model` (re-exported here), which the macros and the build
//! script share; this module gives the checker its draft-07 validator, so that
//! [`check_value`], [`check_bytes`] and [`check_bytes_with`] run every rule: the built-in
//! validator (`neuralis_model::validate`) for the meta-schema and for every schema in its
//! subset, and, with the `jsonschema` feature, `jsonschema` for a schema outside it.

pub use neuralis_model::checker::{
    CheckOptions, Profile, Report, check_bytes_using, check_value_using, did_you_mean,
};
pub use neuralis_model::contract::*;

use neuralis_model::validate::{Subset, Validator, meta_errors};
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
    check_bytes_using(name, bytes, options, Some(&General))
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
    check_value_using(name, schema, options, Some(&General))
}

/// The checker's draft-07 validator: the built-in one for the meta-schema and for every
/// schema in its subset; `jsonschema` for the others when the feature is on (without it,
/// the checks that need such a schema compiled are left out, as the build script leaves
/// them, and `Package::build` refuses the schema).
struct General;

impl Draft07 for General {
    fn meta_violations(&self, schema: &Value) -> Vec<Violation> {
        Subset.meta_violations(schema)
    }

    fn compile<'a>(&'a self, schema: &Value) -> Option<Box<dyn Compiled + 'a>> {
        match Validator::compile(schema) {
            Ok(validator) => Some(Box::new(validator)),
            #[cfg(feature = "jsonschema")]
            Err(e) if e.is_not_in_subset() => {
                let validator = jsonschema::draft7::new(schema).ok()?;
                Some(Box::new(general::Compiled7(validator)))
            }
            Err(_) => None,
        }
    }
}

/// `jsonschema` behind the checker's [`Compiled`], for schemas outside the subset.
#[cfg(feature = "jsonschema")]
pub(crate) mod general {
    use super::{Compiled, Violation};
    use serde_json::Value;

    pub(crate) fn violation(error: &jsonschema::ValidationError<'_>) -> Violation {
        let instance = error.instance();
        Violation {
            pointer: error.instance_path().as_str().to_owned(),
            message: error.masked().to_string(),
            found: (!matches!(instance.as_ref(), Value::Object(_) | Value::Array(_)))
                .then(|| instance.clone().into_owned()),
        }
    }

    pub(crate) struct Compiled7(pub(crate) jsonschema::Validator);

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
}

/// `Ok` when `schema` is a valid draft-07 schema, else the first reason it is not.
pub(crate) fn meta_check(schema: &Value) -> Result<(), String> {
    match meta_errors(schema).into_iter().next() {
        None => Ok(()),
        Some(e) => {
            let at = if e.pointer.is_empty() {
                "(root)"
            } else {
                &e.pointer
            };
            Err(format!(
                "not a valid draft-07 schema at `{at}`: {}",
                e.message
            ))
        }
    }
}
