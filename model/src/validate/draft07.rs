//! The validator as the checker's [`Draft07`]: the meta-schema check and the compiled
//! schemas of `defaults-undeclared` and `default-invalid`.

use std::sync::OnceLock;

use serde_json::Value;

use super::format::Format;
use super::{ValidationError, Validator};
use crate::contract::meta::{Asserted, surely_valid_with};
use crate::contract::{Compiled, Draft07, Violation};

/// The draft-07 meta-schema (<http://json-schema.org/draft-07/schema#>), as published.
pub const META_SCHEMA: &str = include_str!("draft-07-schema.json");

/// The meta-schema compiled by the built-in validator (its `$id` names the document
/// itself, so it is left out; every `$ref` in it is local).
fn meta() -> Option<&'static Validator> {
    static META: OnceLock<Option<Validator>> = OnceLock::new();
    META.get_or_init(|| {
        let mut schema: Value = serde_json::from_str(META_SCHEMA).ok()?;
        if let Some(map) = schema.as_object_mut() {
            map.remove("$id");
        }
        Validator::compile(&schema).ok()
    })
    .as_ref()
}

/// Every way `schema` fails the draft-07 meta-schema, in `jsonschema`'s order.
///
/// ```
/// use neuralis_model::validate::meta_errors;
/// use serde_json::json;
/// assert!(meta_errors(&json!({"type": "string", "pattern": "^a"})).is_empty());
/// let errors = meta_errors(&json!({"minLength": -1}));
/// assert_eq!(errors[0].pointer, "/minLength");
/// assert_eq!(errors[0].message, "value is less than the minimum of 0");
/// ```
///
/// A document goes through [`surely_valid_with`](crate::contract::meta::surely_valid_with) first,
/// the walk of the meta-schema's own rules, with the formats the meta-schema asserts
/// checked as it asserts them (`uri-reference` for `$id` and `$ref`, `uri` for `$schema`,
/// `regex` for `pattern` and the names of `patternProperties`): a fraction of the
/// validator's walk over the whole meta-schema, which the loader runs on every tool file,
/// and no meta-schema to compile at all for a valid one (a WASM module's first call loads
/// its package). Only a document it cannot vouch for is validated whole, so every refusal
/// is the validator's (`core/tests/meta_walk.rs` holds both to `jsonschema`'s verdicts).
#[must_use]
pub fn meta_errors(schema: &Value) -> Vec<ValidationError> {
    // The patterns this document has already shown to be regular expressions: a tool
    // file repeats its few patterns across its properties.
    let mut patterns: Vec<&str> = Vec::new();
    let sure = surely_valid_with(schema, &mut |asserted| {
        if let Asserted::Pattern(text) | Asserted::PatternName(text) = asserted {
            if patterns.contains(&text) {
                return true;
            }
            let ok = Format::Regex.accepts(text);
            if ok {
                patterns.push(text);
            }
            return ok;
        }
        asserted_format_ok(asserted)
    });
    if sure {
        return Vec::new();
    }
    match meta() {
        Some(meta) => meta.errors(schema),
        None => Vec::new(),
    }
}

/// `surely_valid`'s question, a string whose format the meta-schema asserts, answered by
/// that format.
fn asserted_format_ok(asserted: Asserted<'_>) -> bool {
    let (format, text) = match asserted {
        Asserted::Reference(_, text) => (Format::UriReference, text),
        Asserted::Schema(text) => (Format::Uri, text),
        Asserted::Pattern(text) | Asserted::PatternName(text) => (Format::Regex, text),
    };
    format.accepts(text)
}

/// The checker's draft-07 validator when no general validator is compiled in: the
/// meta-schema check, and compiled schemas for the subset (a schema outside it is not
/// compiled, and the checks that would need it are left out).
///
/// ```
/// use neuralis_model::checker::{CheckOptions, check_value_using};
/// use neuralis_model::validate::Subset;
/// let schema = serde_json::json!({
///     "$schema": "http://json-schema.org/draft-07/schema#",
///     "type": "object", "additionalProperties": false, "description": "Find.",
///     "properties": { "n": { "type": "integer", "default": "x" } },
///     "x-neuralis": { "annotations": { "category": "read" } }
/// });
/// let found = check_value_using("find", &schema, &CheckOptions::default(), Some(&Subset));
/// assert_eq!(found[0].pointer, "/properties/n/default");
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Subset;

/// A scalar instance, as violations show it.
pub(crate) fn found(instance: &Value, pointer: &str) -> Option<Value> {
    instance
        .pointer(pointer)
        .filter(|v| !matches!(v, Value::Object(_) | Value::Array(_)))
        .cloned()
}

fn violation(instance: &Value, e: ValidationError) -> Violation {
    Violation {
        found: found(instance, &e.pointer),
        pointer: e.pointer,
        message: e.message,
    }
}

impl Draft07 for Subset {
    fn meta_violations(&self, schema: &Value) -> Vec<Violation> {
        meta_errors(schema)
            .into_iter()
            .map(|e| violation(schema, e))
            .collect()
    }

    fn compile<'a>(&'a self, schema: &Value) -> Option<Box<dyn Compiled + 'a>> {
        Validator::compile(schema)
            .ok()
            .map(|v| Box::new(v) as Box<dyn Compiled>)
    }
}

impl Compiled for Validator {
    fn violations(&self, instance: &Value) -> Vec<Violation> {
        self.errors(instance)
            .into_iter()
            .map(|e| violation(instance, e))
            .collect()
    }
}
