//! A strict model's `null` for "nothing", read as the key not sent.
//!
//! A strict dialect (OpenAI's strict function calling, and what Anthropic and Gemini
//! models do when every property is required) makes the model send every key, and `null`
//! for the ones it has nothing for. The contract is silent on `null`; the toolkit reads
//! it so **(ours)**: a member whose value is `null`, whose key its object does not
//! require, and whose schema does not admit `null` is the key not sent. The handler sees
//! `None`, the tool's `defaults` apply, and the approval gate (`askOnKeys`) does not count
//! it. A required key's `null`, and a `null` the schema admits, are left for the
//! validator, which refuses the first and accepts the second, as before.
//!
//! ```
//! use neuralis_model::dialect::absent_nulls;
//! use serde_json::json;
//!
//! let schema = json!({"type": "object", "additionalProperties": false,
//!     "properties": {"city": {"type": "string"}, "days": {"type": "integer"},
//!                    "note": {"type": ["string", "null"]}},
//!     "required": ["city"]});
//! let mut args = json!({"city": null, "days": null, "note": null});
//! assert_eq!(absent_nulls(&schema, &mut args), 1);
//! // `days` is not sent; `city` is required and `note` admits `null`: both kept.
//! assert_eq!(args, json!({"city": null, "note": null}));
//! ```

use serde_json::Value;

/// How many `$ref`s in a row are followed to find a node's `properties` (a chain of
/// references that never reaches one is left alone).
const REF_HOPS: usize = 32;

/// Removes from `args`, in place, every object member that is a strict model's "nothing"
/// (see the [module docs](crate::dialect)): at the root and in every nested object the schema
/// describes through `properties`, `items` and local `$ref`s. Returns how many it
/// removed. A value with no `null` anywhere is only scanned.
pub fn absent_nulls(schema: &Value, args: &mut Value) -> usize {
    if !has_null(args) {
        return 0;
    }
    walk(schema, schema, args)
}

/// Whether `value` holds a `null` at any depth.
fn has_null(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.iter().any(has_null),
        Value::Object(map) => map.values().any(has_null),
        _ => false,
    }
}

/// The node `schema` stands for: itself, or what its local `$ref` chain points at.
pub(super) fn resolve<'a>(root: &'a Value, mut schema: &'a Value) -> Option<&'a Value> {
    for _ in 0..REF_HOPS {
        match schema.get("$ref").and_then(Value::as_str) {
            None => return Some(schema),
            Some("#") => schema = root,
            Some(r) => schema = root.pointer(r.strip_prefix('#')?)?,
        }
    }
    None
}

fn walk(root: &Value, schema: &Value, value: &mut Value) -> usize {
    let Some(node) = resolve(root, schema) else {
        return 0;
    };
    match value {
        Value::Object(map) => {
            let Some(properties) = node.get("properties").and_then(Value::as_object) else {
                return 0;
            };
            let required = node.get("required").and_then(Value::as_array);
            let is_required =
                |key: &str| required.is_some_and(|r| r.iter().any(|k| k.as_str() == Some(key)));
            let before = map.len();
            map.retain(|key, v| {
                !(v.is_null()
                    && !is_required(key)
                    && properties
                        .get(key)
                        .is_some_and(|p| !admits_null(root, p, 0)))
            });
            let mut removed = before - map.len();
            for (key, v) in map.iter_mut() {
                if let (Some(p), true) = (properties.get(key), v.is_object() || v.is_array()) {
                    removed += walk(root, p, v);
                }
            }
            removed
        }
        Value::Array(items) => match node.get("items") {
            Some(item) if item.is_object() => items
                .iter_mut()
                .filter(|v| v.is_object() || v.is_array())
                .map(|v| walk(root, item, v))
                .sum(),
            _ => 0,
        },
        _ => 0,
    }
}

/// Whether `null` may pass `schema`, read from its keywords (`type`, `enum`, `const`,
/// the compositions, `$ref`). When it cannot tell (`not`, a reference it cannot follow),
/// it says yes, so the `null` is kept and the validator decides.
pub(crate) fn admits_null(root: &Value, schema: &Value, hops: usize) -> bool {
    let map = match schema {
        Value::Bool(b) => return *b,
        Value::Object(map) => map,
        _ => return true,
    };
    if let Some(r) = map.get("$ref").and_then(Value::as_str) {
        if hops >= REF_HOPS {
            return true;
        }
        let target = match r {
            "#" => Some(root),
            r => r.strip_prefix('#').and_then(|p| root.pointer(p)),
        };
        return target.is_none_or(|t| admits_null(root, t, hops + 1));
    }
    let type_ok = match map.get("type") {
        None => true,
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.iter().any(|t| t.as_str() == Some("null")),
        Some(_) => true,
    };
    let enum_ok = map
        .get("enum")
        .and_then(Value::as_array)
        .is_none_or(|values| values.iter().any(Value::is_null));
    let const_ok = map.get("const").is_none_or(Value::is_null);
    let branches = |key: &str, all: bool| {
        map.get(key).and_then(Value::as_array).is_none_or(|b| {
            if all {
                b.iter().all(|s| admits_null(root, s, hops + 1))
            } else {
                b.iter().any(|s| admits_null(root, s, hops + 1))
            }
        })
    };
    type_ok
        && enum_ok
        && const_ok
        && branches("anyOf", false)
        && branches("oneOf", false)
        && branches("allOf", true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_objects_and_arrays_follow_the_schema() {
        let schema = json!({"type": "object", "properties": {
            "filter": {"$ref": "#/definitions/Filter"},
            "rows": {"type": "array", "items": {"type": "object",
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                "required": ["a"]}}},
            "definitions": {"Filter": {"type": "object",
                "properties": {"tag": {"type": "string"}}}}});
        let mut args = json!({"filter": {"tag": null}, "rows": [{"a": null, "b": null}]});
        assert_eq!(absent_nulls(&schema, &mut args), 2);
        assert_eq!(args, json!({"filter": {}, "rows": [{"a": null}]}));
    }

    #[test]
    fn a_null_the_schema_admits_is_kept() {
        let root = json!({});
        for admits in [
            json!({}),
            json!(true),
            json!({"type": "null"}),
            json!({"anyOf": [{"type": "integer"}, {"type": "null"}]}),
            json!({"enum": ["a", null]}),
            json!({"not": {"type": "null"}}),
            json!({"$ref": "#/nowhere"}),
        ] {
            assert!(admits_null(&root, &admits, 0), "{admits}");
        }
        for refuses in [
            json!(false),
            json!({"type": "integer"}),
            json!({"type": ["string", "null"], "enum": ["a"]}),
            json!({"const": 1}),
            json!({"oneOf": [{"type": "integer"}, {"type": "string"}]}),
            json!({"allOf": [{"type": ["integer", "null"]}, {"type": "integer"}]}),
        ] {
            assert!(!admits_null(&root, &refuses, 0), "{refuses}");
        }
    }

    #[test]
    fn a_self_reference_is_followed_by_the_value_not_forever() {
        let schema = json!({"type": "object", "properties": {
            "next": {"$ref": "#"}, "v": {"type": "integer"}}});
        let mut args = json!({"next": {"next": {"v": null}}});
        assert_eq!(absent_nulls(&schema, &mut args), 1);
        assert_eq!(args, json!({"next": {"next": {}}}));
        let looping = json!({"$ref": "#/definitions/A",
            "definitions": {"A": {"$ref": "#/definitions/B"}, "B": {"$ref": "#/definitions/A"}}});
        let mut args = json!({"x": null});
        assert_eq!(absent_nulls(&looping, &mut args), 0);
    }
}
