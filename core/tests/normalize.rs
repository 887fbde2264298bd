//! Section 3: open-bag normalization, both ways, and the default `propertyNames` in Rust.
#![allow(clippy::unwrap_used)]

use neuralis_core::schema::{
    DEFAULT_PROPERTY_NAMES, default_property_names, default_property_names_accepts, normalize,
};
use proptest::prelude::*;
use serde_json::{Value, json};

/// A closed root whose one property `p` is `sub`.
fn root_with(sub: Value) -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "additionalProperties": false,
        "properties": { "p": sub }
    })
}

fn normalized(mut v: Value) -> Value {
    normalize(&mut v);
    v
}

/// The value at `pointer` of the normalized document.
fn at(v: &Value, pointer: &str) -> Value {
    v.pointer(pointer)
        .unwrap_or_else(|| panic!("no value at {pointer} in {v:#}"))
        .clone()
}

fn has_default(v: &Value, pointer: &str) -> bool {
    at(v, pointer).get("propertyNames") == Some(&default_property_names())
}

const BAG: fn() -> Value = || json!({ "type": "object", "additionalProperties": true });

#[test]
fn open_bag_with_true_gets_the_default() {
    let v = normalized(root_with(BAG()));
    assert!(has_default(&v, "/properties/p"));
}

#[test]
fn open_bag_with_a_schema_gets_the_default() {
    let v = normalized(root_with(
        json!({ "additionalProperties": { "type": "string" } }),
    ));
    assert!(has_default(&v, "/properties/p"));
}

#[test]
fn closed_and_implicit_objects_are_not_bags() {
    for sub in [
        json!({ "type": "object", "additionalProperties": false }),
        json!({ "type": "object", "properties": { "a": {} } }),
        json!({ "type": "object", "additionalProperties": null }),
    ] {
        let v = normalized(root_with(sub.clone()));
        assert_eq!(at(&v, "/properties/p"), sub, "{sub} is not an open bag");
    }
}

#[test]
fn every_schema_position_is_walked() {
    let cases: &[(Value, &str)] = &[
        (
            json!({ "properties": { "q": BAG() } }),
            "/properties/p/properties/q",
        ),
        (
            json!({ "patternProperties": { "^x": BAG() } }),
            "/properties/p/patternProperties/^x",
        ),
        (
            json!({ "definitions": { "d": BAG() } }),
            "/properties/p/definitions/d",
        ),
        (
            json!({ "dependencies": { "a": BAG() } }),
            "/properties/p/dependencies/a",
        ),
        (
            json!({ "additionalProperties": BAG() }),
            "/properties/p/additionalProperties",
        ),
        (json!({ "items": BAG() }), "/properties/p/items"),
        (json!({ "items": [{}, BAG()] }), "/properties/p/items/1"),
        (
            json!({ "additionalItems": BAG() }),
            "/properties/p/additionalItems",
        ),
        (json!({ "contains": BAG() }), "/properties/p/contains"),
        (
            json!({ "propertyNames": { "allOf": [BAG()] } }),
            "/properties/p/propertyNames/allOf/0",
        ),
        (json!({ "allOf": [BAG()] }), "/properties/p/allOf/0"),
        (json!({ "anyOf": [{}, BAG()] }), "/properties/p/anyOf/1"),
        (json!({ "oneOf": [BAG()] }), "/properties/p/oneOf/0"),
        (json!({ "if": {}, "then": BAG() }), "/properties/p/then"),
        (json!({ "if": {}, "else": BAG() }), "/properties/p/else"),
    ];
    for (sub, pointer) in cases {
        let v = normalized(root_with(sub.clone()));
        assert!(has_default(&v, pointer), "no default at {pointer}: {v:#}");
    }
}

#[test]
fn properties_named_like_keywords_are_schemas() {
    for name in [
        "not",
        "if",
        "default",
        "enum",
        "x-neuralis",
        "propertyNames",
    ] {
        let mut props = serde_json::Map::new();
        props.insert(name.to_owned(), BAG());
        let v = normalized(root_with(json!({ "type": "object", "properties": props })));
        let pointer = format!("/properties/p/properties/{name}");
        assert!(has_default(&v, &pointer), "no default at {pointer}");
    }
}

#[test]
fn root_level_definitions_and_combinators_are_walked() {
    let v = normalized(json!({
        "type": "object",
        "additionalProperties": false,
        "definitions": { "d": BAG() },
        "allOf": [{ "items": BAG() }]
    }));
    assert!(has_default(&v, "/definitions/d"));
    assert!(has_default(&v, "/allOf/0/items"));
}

#[test]
fn nothing_is_injected_where_the_contract_says_not() {
    let cases: &[(Value, &str)] = &[
        (json!({ "not": BAG() }), "not"),
        (
            json!({ "not": { "properties": { "q": BAG() } } }),
            "inside not",
        ),
        (json!({ "if": BAG(), "then": {} }), "if"),
        (json!({ "if": { "anyOf": [BAG()] } }), "inside if"),
        (json!({ "default": BAG() }), "default"),
        (json!({ "const": BAG() }), "const"),
        (json!({ "enum": [BAG()] }), "enum"),
        (json!({ "examples": [BAG()] }), "examples"),
        (json!({ "x-neuralis": BAG() }), "x-neuralis"),
        (json!({ "x-custom": BAG() }), "an unknown keyword"),
        (
            json!({ "x-custom": { "properties": { "q": BAG() } } }),
            "inside an unknown keyword",
        ),
        (
            json!({ "dependencies": { "a": ["b"] } }),
            "a dependencies array",
        ),
        (json!({ "$ref": "#/definitions/d" }), "a $ref"),
    ];
    for (sub, what) in cases {
        let v = normalized(root_with(sub.clone()));
        assert_eq!(at(&v, "/properties/p"), *sub, "injected into {what}");
    }
}

#[test]
fn declared_property_names_are_left_alone() {
    let sub = json!({
        "type": "object",
        "additionalProperties": true,
        "propertyNames": { "pattern": "^[a-z]+$" }
    });
    let v = normalized(root_with(sub.clone()));
    assert_eq!(at(&v, "/properties/p"), sub);
    // Even a permissive one.
    let sub = json!({ "additionalProperties": true, "propertyNames": true });
    let v = normalized(root_with(sub.clone()));
    assert_eq!(at(&v, "/properties/p"), sub);
}

#[test]
fn the_root_is_never_touched() {
    let root = json!({ "type": "object", "additionalProperties": true });
    assert_eq!(normalized(root.clone()), root);
    let root = json!({ "additionalProperties": { "type": "string" } });
    assert_eq!(normalized(root.clone()), root);
    for v in [json!(null), json!([BAG()]), json!("x"), json!(true)] {
        assert_eq!(normalized(v.clone()), v);
    }
}

#[test]
fn the_const_text_is_the_injected_schema() {
    let parsed: Value = serde_json::from_str(DEFAULT_PROPERTY_NAMES).unwrap();
    assert_eq!(parsed, default_property_names());
}

#[path = "common/property_names.rs"]
mod property_names;
use property_names::{ACCEPTED, REJECTED};

/// The injected schema, validated by a draft-07 validator (the `jsonschema` crate, Rust's
/// `regex` semantics), on an object with one key.
#[test]
fn the_default_property_names_behaves_as_the_contract_says_in_rust() {
    let bag = normalized(root_with(BAG()));
    let bag = at(&bag, "/properties/p");
    let validator = jsonschema::draft7::new(&bag).expect("a valid draft-07 schema");
    let direct = jsonschema::draft7::new(&default_property_names()).expect("valid");
    for key in REJECTED {
        let mut obj = serde_json::Map::new();
        obj.insert((*key).to_owned(), json!(1));
        assert!(
            !validator.is_valid(&Value::Object(obj)),
            "`{key}` must be rejected"
        );
        assert!(!direct.is_valid(&json!(key)), "`{key}` must be rejected");
        assert!(
            !default_property_names_accepts(key),
            "`{key}` must be rejected"
        );
    }
    for key in ACCEPTED {
        let mut obj = serde_json::Map::new();
        obj.insert((*key).to_owned(), json!(1));
        assert!(
            validator.is_valid(&Value::Object(obj)),
            "`{key}` must be accepted"
        );
        assert!(direct.is_valid(&json!(key)), "`{key}` must be accepted");
        assert!(
            default_property_names_accepts(key),
            "`{key}` must be accepted"
        );
    }
}

/// Random schema-ish documents: schema keywords, value keywords and unknown keys mixed.
fn arb_doc() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!(true)),
        Just(json!(false)),
        Just(json!(null)),
        Just(json!({})),
        any::<i32>().prop_map(|n| json!(n)),
        "[a-z_$]{0,4}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 96, 6, |inner| {
        let key = prop_oneof![
            Just("properties"),
            Just("patternProperties"),
            Just("definitions"),
            Just("dependencies"),
            Just("additionalProperties"),
            Just("additionalProperties"),
            Just("items"),
            Just("additionalItems"),
            Just("contains"),
            Just("propertyNames"),
            Just("allOf"),
            Just("anyOf"),
            Just("oneOf"),
            Just("not"),
            Just("if"),
            Just("then"),
            Just("else"),
            Just("default"),
            Just("const"),
            Just("enum"),
            Just("examples"),
            Just("x-neuralis"),
            Just("x-other"),
            Just("a"),
            Just("type"),
        ]
        .prop_map(str::to_owned);
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key, inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// The subtrees normalization must never change, collected from the original document by
/// the same walk over schema positions (a property *named* `not` is a schema, not `not`).
fn frozen(v: &Value, out: &mut Vec<(String, Value)>, pointer: &str) {
    let Value::Object(map) = v else { return };
    let ptr = |base: &str, k: &str| format!("{base}/{}", k.replace('~', "~0").replace('/', "~1"));
    for (k, child) in map {
        let p = ptr(pointer, k);
        match k.as_str() {
            "not" | "if" | "default" | "const" | "enum" | "examples" | "x-neuralis" | "x-other"
            | "a" | "type" => out.push((p, child.clone())),
            "properties" | "patternProperties" | "definitions" | "dependencies" => {
                if let Value::Object(m) = child {
                    for (name, sub) in m {
                        frozen(sub, out, &ptr(&p, name));
                    }
                }
            }
            "allOf" | "anyOf" | "oneOf" | "items" if child.is_array() => {
                for (i, sub) in child.as_array().into_iter().flatten().enumerate() {
                    frozen(sub, out, &ptr(&p, &i.to_string()));
                }
            }
            "items"
            | "additionalProperties"
            | "additionalItems"
            | "contains"
            | "propertyNames"
            | "then"
            | "else" => frozen(child, out, &p),
            _ => {}
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn normalize_is_idempotent(doc in arb_doc()) {
        let once = normalized(doc);
        let twice = normalized(once.clone());
        prop_assert_eq!(once, twice);
    }

    #[test]
    fn normalize_only_adds_property_names_below_the_root(doc in arb_doc()) {
        let after = normalized(doc.clone());
        if let (Value::Object(before), Value::Object(after)) = (&doc, &after) {
            let keys = |m: &serde_json::Map<String, Value>| m.keys().cloned().collect::<Vec<_>>();
            prop_assert_eq!(keys(before), keys(after));
        } else {
            prop_assert_eq!(&doc, &after);
        }
        let mut untouched = Vec::new();
        frozen(&doc, &mut untouched, "");
        for (pointer, value) in untouched {
            // Normalization only adds keys, so every frozen value is still there, unchanged.
            prop_assert_eq!(after.pointer(&pointer), Some(&value), "changed at {}", pointer);
        }
    }
}
