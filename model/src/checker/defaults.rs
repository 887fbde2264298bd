//! `default-invalid`: every `default` and `examples` entry against its own subschema.

use serde_json::{Map, Value};

use super::root::HeldValues;
use super::words::short;
use super::{Compiled, Draft07};
use crate::contract::rules::RuleId;
use crate::contract::{Diagnostic, push_pointer};
use crate::validate::Validator;

/// Where the root goes inside the probe document (see [`probe`]).
const ROOT_SLOT: &str = "__neuralis_root";

// default-invalid (warning): a `default`, or an entry of `examples`, validates against the
// subschema that holds it. Reason: draft-07 allows any value there, so the file loads, but
// a client that fills in the default sends an argument the tool refuses.
pub(super) fn check_default_invalid(
    schema: &Value,
    found: HeldValues<'_>,
    validator: &dyn Draft07,
    out: &mut Vec<Diagnostic>,
) {
    if found.is_empty() {
        return;
    }
    let mut rewritten = None;
    for held in found {
        let (pointer, sub) = (held.pointer, held.schema);
        // The built-in validator compiles the subschema where it is, its `$ref`s resolved
        // in the document (nothing copied). One outside the subset gets a probe that keeps
        // the root around it, for the caller's general validator.
        let alone = Validator::compile_at(schema, &pointer, sub).ok();
        let probe_compiled;
        let compiled: &dyn Compiled = match &alone {
            Some(v) => v,
            None => {
                let rewritten = rewritten.get_or_insert_with(|| rewrite_refs(schema));
                let Some(c) = probe(validator, rewritten, &pointer) else {
                    // A schema that does not compile is `schema-draft`'s to report.
                    continue;
                };
                probe_compiled = c;
                &*probe_compiled
            }
        };
        if let Some(value) = held.default
            && let Some(why) = refusal(compiled, value)
        {
            out.push(diagnostic(
                push_pointer(&pointer, "default"),
                format!(
                    "the `default` {} does not validate against its own schema: {why}",
                    shown(value)
                ),
            ));
        }
        for (i, example) in held.examples.into_iter().flatten().enumerate() {
            if let Some(why) = refusal(compiled, example) {
                out.push(diagnostic(
                    push_pointer(&push_pointer(&pointer, "examples"), &i.to_string()),
                    format!(
                        "the example {} does not validate against its own schema: {why}",
                        shown(example)
                    ),
                ));
            }
        }
    }
}

fn diagnostic(pointer: String, message: String) -> Diagnostic {
    Diagnostic::new(RuleId::DefaultInvalid, pointer).with_message(message)
}

fn shown(value: &Value) -> String {
    match value {
        Value::Object(_) | Value::Array(_) => String::from("value"),
        other => format!("`{}`", short(other)),
    }
}

fn refusal(compiled: &dyn Compiled, value: &Value) -> Option<String> {
    compiled.first_violation(value).map(|v| v.message)
}

/// The document with every same-document `$ref` (`#...`) moved under
/// `#/definitions/__neuralis_root`, where [`probe`] puts it.
fn rewrite_refs(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = match (k.as_str(), v) {
                        ("$ref", Value::String(r)) if r.starts_with('#') => {
                            Value::String(format!("#/definitions/{ROOT_SLOT}{}", &r[1..]))
                        }
                        _ => rewrite_refs(v),
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(rewrite_refs).collect()),
        other => other.clone(),
    }
}

/// A validator for the subschema at `pointer` of the root, with the root's references
/// (`#`, `#/definitions/...`) still resolving: the root sits under `definitions` and the
/// probe refers into it.
fn probe<'a>(
    validator: &'a dyn Draft07,
    rewritten: &Value,
    pointer: &str,
) -> Option<Box<dyn Compiled + 'a>> {
    let mut root = rewritten.clone();
    if let Some(map) = root.as_object_mut() {
        map.remove(crate::xn::BLOCK);
        map.remove("$schema");
    }
    let mut definitions = Map::new();
    definitions.insert(ROOT_SLOT.to_owned(), root);
    let mut document = Map::new();
    document.insert("definitions".to_owned(), Value::Object(definitions));
    document.insert(
        "$ref".to_owned(),
        Value::String(format!("#/definitions/{ROOT_SLOT}{}", fragment(pointer))),
    );
    validator.compile(&Value::Object(document))
}

/// A JSON pointer as a URI fragment: characters outside the fragment set percent-encoded.
fn fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for b in pointer.bytes() {
        if b.is_ascii_alphanumeric() || b"/~-._!$&'()*+,;=:@".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_encode_what_a_uri_cannot_hold() {
        assert_eq!(fragment("/properties/a b"), "/properties/a%20b");
        assert_eq!(fragment("/properties/100%"), "/properties/100%25");
        assert_eq!(fragment("/properties/é"), "/properties/%C3%A9");
    }
}
