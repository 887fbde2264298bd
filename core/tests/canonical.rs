//! The canonical writer: key order, layout, byte stability, and the seed's golden example.
#![allow(clippy::unwrap_used)]

use neuralis_core::schema::{KEYWORD_ORDER, LINE_WIDTH, to_canonical_string, to_canonical_vec};
use proptest::prelude::*;
use serde_json::{Value, json};

/// The platform's complete example (the seed's `catalog_list`), byte for byte.
const CATALOG_LIST: &str = include_str!("../../examples/catalog/tools/catalog_list.json");

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

/// Reverses the key order of every object, recursively.
fn reversed(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .rev()
                .map(|(k, v)| (k.clone(), reversed(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(reversed).collect()),
        v => v.clone(),
    }
}

#[test]
fn the_seed_example_writes_back_byte_for_byte() {
    let v: Value = serde_json::from_str(CATALOG_LIST).unwrap();
    assert_eq!(to_canonical_string(&v), CATALOG_LIST);
}

#[test]
fn the_seed_example_is_reordered_into_the_documented_order() {
    let v: Value = serde_json::from_str(CATALOG_LIST).unwrap();
    // Every object scrambled: the writer restores the seed's order, except in the property
    // map, which keeps document order (one property here, so the bytes are the seed's).
    let out = to_canonical_string(&reversed(&v));
    assert_eq!(out, CATALOG_LIST);
    let back: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        keys(&back),
        [
            "$schema",
            "title",
            "type",
            "additionalProperties",
            "description",
            "properties",
            "required",
            "x-neuralis"
        ]
    );
    assert_eq!(
        keys(&back["properties"]["filter"]),
        ["type", "enum", "default", "description"]
    );
    assert_eq!(
        keys(&back["x-neuralis"]),
        ["family", "operation", "transport", "annotations", "ui"]
    );
}

#[test]
fn the_x_neuralis_block_has_its_own_order_at_every_level() {
    let doc = json!({
        "x-neuralis": {
            "zeta": 1,
            "askOnKeys": ["b", "a"],
            "requires": { "escalations": ["e"], "features": ["f"] },
            "ui": { "icon": "i", "cardType": "c", "presentation": "card" },
            "annotations": {
                "cancellable": true, "estimatedDurationMs": 5, "category": "write",
                "openWorldHint": false, "idempotentHint": true, "destructiveHint": true,
                "readOnlyHint": false, "title": "T"
            },
            "defaults": { "z": 1, "a": { "y": 2, "b": 3 } },
            "transport": "embedded", "operation": "o", "family": "f"
        }
    });
    let back: Value = serde_json::from_str(&to_canonical_string(&doc)).unwrap();
    let xn = &back["x-neuralis"];
    assert_eq!(
        keys(xn),
        [
            "family",
            "operation",
            "transport",
            "defaults",
            "annotations",
            "ui",
            "requires",
            "askOnKeys",
            "zeta"
        ]
    );
    assert_eq!(
        keys(&xn["annotations"]),
        [
            "title",
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
            "category",
            "estimatedDurationMs",
            "cancellable"
        ]
    );
    assert_eq!(keys(&xn["ui"]), ["presentation", "cardType", "icon"]);
    assert_eq!(keys(&xn["requires"]), ["features", "escalations"]);
    // `defaults` is a property-name map of values: document order, values as they are.
    assert_eq!(keys(&xn["defaults"]), ["z", "a"]);
    assert_eq!(keys(&xn["defaults"]["a"]), ["y", "b"]);
    assert_eq!(xn["askOnKeys"], json!(["b", "a"]));
}

#[test]
fn property_maps_keep_document_order_and_their_values_are_schemas() {
    let doc = json!({
        "properties": {
            "zed": { "description": "d", "type": "string" },
            "alpha": { "type": "object", "properties": { "y": {}, "b": {} } }
        },
        "definitions": { "z": { "title": "t", "$ref": "#" }, "a": {} },
        "patternProperties": { "^z": {}, "^a": { "format": "f", "type": "string" } },
        "dependencies": { "z": ["b", "a"], "a": { "required": [], "properties": {} } }
    });
    let back: Value = serde_json::from_str(&to_canonical_string(&doc)).unwrap();
    assert_eq!(
        keys(&back),
        [
            "properties",
            "patternProperties",
            "dependencies",
            "definitions"
        ]
    );
    assert_eq!(keys(&back["properties"]), ["zed", "alpha"]);
    assert_eq!(keys(&back["properties"]["zed"]), ["type", "description"]);
    assert_eq!(keys(&back["properties"]["alpha"]["properties"]), ["y", "b"]);
    assert_eq!(keys(&back["definitions"]), ["z", "a"]);
    assert_eq!(keys(&back["definitions"]["z"]), ["$ref", "title"]);
    assert_eq!(keys(&back["patternProperties"]), ["^z", "^a"]);
    assert_eq!(keys(&back["patternProperties"]["^a"]), ["type", "format"]);
    assert_eq!(back["dependencies"]["z"], json!(["b", "a"]));
    assert_eq!(keys(&back["dependencies"]["a"]), ["properties", "required"]);
}

#[test]
fn subschemas_in_every_position_are_reordered() {
    let unordered = json!({ "description": "d", "type": "string" });
    let doc = json!({
        "additionalProperties": unordered, "items": [unordered], "additionalItems": unordered,
        "contains": unordered, "propertyNames": unordered, "allOf": [unordered],
        "anyOf": [unordered], "oneOf": [unordered], "not": unordered, "if": unordered,
        "then": unordered, "else": unordered
    });
    let back: Value = serde_json::from_str(&to_canonical_string(&doc)).unwrap();
    for p in [
        "/additionalProperties",
        "/items/0",
        "/additionalItems",
        "/contains",
        "/propertyNames",
        "/allOf/0",
        "/anyOf/0",
        "/oneOf/0",
        "/not",
        "/if",
        "/then",
        "/else",
    ] {
        assert_eq!(
            keys(back.pointer(p).unwrap()),
            ["type", "description"],
            "at {p}"
        );
    }
    let doc = json!({ "items": unordered });
    let back: Value = serde_json::from_str(&to_canonical_string(&doc)).unwrap();
    assert_eq!(keys(&back["items"]), ["type", "description"]);
}

#[test]
fn values_and_unknown_keywords_are_written_as_they_are() {
    let value = json!({ "description": "d", "type": "x", "z": [{ "title": 1, "$schema": 2 }] });
    let doc = json!({
        "zz-unknown": value, "default": value, "const": value, "enum": [value],
        "examples": [value], "aa-unknown": value
    });
    let back: Value = serde_json::from_str(&to_canonical_string(&doc)).unwrap();
    assert_eq!(
        keys(&back),
        [
            "enum",
            "const",
            "default",
            "examples",
            "aa-unknown",
            "zz-unknown"
        ]
    );
    for p in [
        "/zz-unknown",
        "/default",
        "/const",
        "/enum/0",
        "/examples/0",
        "/aa-unknown",
    ] {
        assert_eq!(
            keys(back.pointer(p).unwrap()),
            ["description", "type", "z"],
            "at {p}"
        );
        assert_eq!(
            keys(back.pointer(&format!("{p}/z/0")).unwrap()),
            ["title", "$schema"]
        );
    }
}

#[test]
fn the_keyword_table_has_no_duplicates_and_starts_as_the_seed() {
    let mut seen = std::collections::HashSet::new();
    assert!(KEYWORD_ORDER.iter().all(|k| seen.insert(*k)));
    let pos = |k: &str| KEYWORD_ORDER.iter().position(|o| *o == k).unwrap();
    let root = [
        "$schema",
        "title",
        "type",
        "additionalProperties",
        "description",
        "properties",
        "required",
        "x-neuralis",
    ];
    assert!(root.windows(2).all(|w| pos(w[0]) < pos(w[1])));
    let nested = ["type", "enum", "default", "description"];
    assert!(nested.windows(2).all(|w| pos(w[0]) < pos(w[1])));
}

#[test]
fn layout_is_two_space_indent_with_a_trailing_newline() {
    let out = to_canonical_string(
        &json!({ "type": "object", "properties": { "a": { "type": "string" } } }),
    );
    assert_eq!(
        out,
        "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"a\": {\n      \"type\": \"string\"\n    }\n  }\n}\n"
    );
    assert_eq!(to_canonical_string(&json!({})), "{}\n");
    assert_eq!(to_canonical_vec(&json!([])), b"[]\n");
    // A value list goes on one line while it fits, one member per line when it does not.
    let short = to_canonical_string(&json!({ "enum": ["a", "b"] }));
    assert_eq!(short, "{\n  \"enum\": [\"a\", \"b\"]\n}\n");
    let long: Vec<String> = (0..20).map(|i| format!("value-{i}")).collect();
    let out = to_canonical_string(&json!({ "enum": long }));
    assert!(out.contains("\"enum\": [\n    \"value-0\",\n"), "{out}");
    assert!(out.lines().all(|l| l.chars().count() <= LINE_WIDTH));
}

#[test]
fn strings_are_escaped_as_serde_json_does() {
    let s = "q\"b\\s\n\r\t\u{8}\u{c}\u{1}\u{7f}é😀";
    let out = to_canonical_string(&json!({ "title": s }));
    assert!(out.contains(&serde_json::to_string(s).unwrap()), "{out}");
    let back: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(back["title"], s);
}

/// Arbitrary JSON with schema keywords among the keys, so every context is exercised.
fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        (-1_000_000i64..1_000_000).prop_map(|n| json!(n as f64 / 64.0)),
        any::<String>().prop_map(Value::String),
        "[a-z ]{0,30}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 128, 8, |inner| {
        let key = prop_oneof![
            4 => prop::sample::select(KEYWORD_ORDER).prop_map(str::to_owned),
            1 => prop::sample::select(&["family", "annotations", "ui", "requires", "defaults", "category"][..])
                .prop_map(str::to_owned),
            2 => any::<String>(),
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key, inner), 0..8)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_writer_is_byte_stable(v in arb_json()) {
        let once = to_canonical_string(&v);
        prop_assert!(once.ends_with('\n'));
        let parsed: Value = serde_json::from_str(&once).unwrap();
        prop_assert_eq!(&parsed, &v, "the output parses to the same value");
        let twice = to_canonical_string(&parsed);
        prop_assert_eq!(once, twice);
    }
}

#[test]
fn deep_documents_are_normalized_and_written() {
    // 50 nested open bags: 100 JSON levels, plus the injected `propertyNames` at each.
    let mut doc = json!({ "type": "string" });
    for _ in 0..50 {
        doc = json!({ "type": "object", "additionalProperties": doc });
    }
    let mut doc =
        json!({ "type": "object", "additionalProperties": false, "properties": { "p": doc } });
    neuralis_core::schema::normalize(&mut doc);
    let mut bag = &doc["properties"]["p"];
    for level in 0..50 {
        assert!(bag.get("propertyNames").is_some(), "level {level}");
        bag = &bag["additionalProperties"];
    }
    let out = to_canonical_string(&doc);
    let back: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(back, doc);
    assert_eq!(to_canonical_string(&back), out);
}
