//! Property tests of `remote::lower`: for any input, the output uses only the subset's
//! keywords, stays within its caps and depth, every dropped pointer exists in the input,
//! and lowering is idempotent.

use neuralis_core::remote::{
    DEPTH_CAP, ENUM_CAP, PROPERTIES_CAP, SCHEMA_DESCRIPTION_CAP, SUBSET_KEYWORDS, SUBSET_TYPES,
    lower,
};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..3).prop_map(|n| json!(n)),
        Just(json!(1.5)),
        "[a-c1]{0,2}".prop_map(Value::String),
    ]
}

fn type_value() -> impl Strategy<Value = Value> {
    let name = prop_oneof![
        Just("object"),
        Just("string"),
        Just("integer"),
        Just("number"),
        Just("boolean"),
        Just("array"),
        Just("null"),
        Just("date"),
    ];
    prop_oneof![
        name.clone().prop_map(|t| json!(t)),
        prop::collection::vec(name, 0..4).prop_map(|ts| json!(ts)),
        Just(json!(3)),
    ]
}

fn description() -> impl Strategy<Value = Value> {
    prop_oneof![
        "[a-z ]{0,20}".prop_map(Value::String),
        (495usize..505, prop::bool::ANY).prop_map(|(n, emoji)| {
            let unit = if emoji { "😀" } else { "é" };
            Value::String(format!("{}{}", "a".repeat(n - 2), unit.repeat(2)))
        }),
        Just(json!(5)),
    ]
}

fn enum_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::collection::vec(scalar(), 0..6).prop_map(Value::Array),
        prop::collection::vec(scalar(), 30..40).prop_map(Value::Array),
        Just(json!([[1], { "k": 1 }, "k"])),
        Just(json!("a")),
    ]
}

const NAMES: &[&str] = &["a", "b", "tier", "x/y", "~0", "p49"];

fn required() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(NAMES), 0..4).prop_map(|v| json!(v)),
        Just(json!([1, "a"])),
        Just(json!("a")),
    ]
}

/// Keywords outside the subset, some holding schemas.
fn other(inner: BoxedStrategy<Value>) -> impl Strategy<Value = (String, Value)> {
    prop_oneof![
        Just(("format".to_owned(), json!("date"))),
        Just(("minimum".to_owned(), json!(1))),
        Just(("$schema".to_owned(), json!("x"))),
        Just(("x-neuralis".to_owned(), json!({}))),
        Just(("title".to_owned(), json!("t"))),
        any::<bool>().prop_map(|b| ("additionalProperties".to_owned(), json!(b))),
        inner
            .clone()
            .prop_map(|s| ("additionalProperties".to_owned(), s)),
        prop::collection::vec(inner, 0..3).prop_map(|v| ("oneOf".to_owned(), Value::Array(v))),
    ]
}

/// Random schemas, a quarter of them nested 6 to 11 levels deep through `properties` or
/// `items` so the depth cap is crossed often.
fn schema() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => node(),
        1 => (6usize..12, node(), prop::collection::vec(any::<bool>(), 12)).prop_map(|(n, leaf, steps)| {
            steps.into_iter().take(n).fold(leaf, |inner, via_items| {
                if via_items {
                    json!({ "type": "array", "items": inner })
                } else {
                    json!({ "type": "object", "properties": { "a": inner }, "required": ["a"] })
                }
            })
        }),
    ]
}

fn node() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        4 => Just(json!({})),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => Just(json!(7)),
        4 => type_value().prop_map(|t| json!({ "type": t })),
    ];
    leaf.prop_recursive(12, 96, 4, |inner| {
        let props = prop_oneof![
            4 => prop::collection::vec((prop::sample::select(NAMES), inner.clone()), 0..4)
                .prop_map(|v| Value::Object(v.into_iter().map(|(k, s)| (k.to_owned(), s)).collect())),
            1 => (45usize..52).prop_map(|n| {
                Value::Object((0..n).map(|i| (format!("p{i}"), json!({ "type": "string" }))).collect())
            }),
            1 => Just(json!([])),
        ];
        let items = prop_oneof![
            3 => inner.clone(),
            1 => prop::collection::vec(inner.clone(), 0..2).prop_map(Value::Array),
        ];
        (
            prop::option::of(type_value()),
            prop::option::of(description()),
            prop::option::of(enum_value()),
            prop::option::of(props),
            prop::option::of(required()),
            prop::option::of(items),
            prop::collection::vec(other(inner.boxed()), 0..3),
            any::<bool>(),
        )
            .prop_map(|(t, desc, en, props, req, items, others, req_first)| {
                let mut m = Map::new();
                if req_first {
                    req.clone().map(|r| m.insert("required".into(), r));
                }
                t.map(|v| m.insert("type".into(), v));
                desc.map(|v| m.insert("description".into(), v));
                en.map(|v| m.insert("enum".into(), v));
                props.map(|v| m.insert("properties".into(), v));
                items.map(|v| m.insert("items".into(), v));
                if !req_first {
                    req.map(|r| m.insert("required".into(), r));
                }
                for (k, v) in others {
                    m.insert(k, v);
                }
                Value::Object(m)
            })
    })
}

fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// Checks one lowered node and its children; returns an error naming the pointer.
fn check_node(node: &Value, ptr: &str, depth: usize) -> Result<(), String> {
    let obj = node
        .as_object()
        .ok_or_else(|| format!("{ptr}: not an object"))?;
    for key in obj.keys() {
        if !SUBSET_KEYWORDS.contains(&key.as_str()) {
            return Err(format!("{ptr}: keyword `{key}` outside the subset"));
        }
    }
    if let Some(t) = obj.get("type") {
        let t = t
            .as_str()
            .ok_or_else(|| format!("{ptr}: type not a string"))?;
        if !SUBSET_TYPES.contains(&t) {
            return Err(format!("{ptr}: type `{t}`"));
        }
    }
    if let Some(d) = obj.get("description") {
        let d = d.as_str().ok_or_else(|| format!("{ptr}: description"))?;
        if utf16_len(d) > SCHEMA_DESCRIPTION_CAP {
            return Err(format!("{ptr}: description too long"));
        }
    }
    if let Some(e) = obj.get("enum") {
        let e = e.as_array().ok_or_else(|| format!("{ptr}: enum"))?;
        if e.is_empty() || e.len() > ENUM_CAP || !e.iter().all(Value::is_string) {
            return Err(format!("{ptr}: enum {e:?}"));
        }
        for (i, v) in e.iter().enumerate() {
            if e[..i].contains(v) {
                return Err(format!("{ptr}: duplicate enum value {v}"));
            }
        }
    }
    if depth >= DEPTH_CAP && (obj.contains_key("properties") || obj.contains_key("items")) {
        return Err(format!("{ptr}: followed past depth {DEPTH_CAP}"));
    }
    let props = obj.get("properties").map(|p| p.as_object());
    if let Some(props) = props {
        let props = props.ok_or_else(|| format!("{ptr}: properties"))?;
        if props.len() > PROPERTIES_CAP {
            return Err(format!("{ptr}: {} properties", props.len()));
        }
        for (name, sub) in props {
            check_node(sub, &format!("{ptr}/properties/{name}"), depth + 1)?;
        }
    }
    if let Some(req) = obj.get("required") {
        let req = req.as_array().ok_or_else(|| format!("{ptr}: required"))?;
        let declared = obj.get("properties").and_then(Value::as_object);
        if req.is_empty() {
            return Err(format!("{ptr}: empty required"));
        }
        for (i, name) in req.iter().enumerate() {
            let ok = name
                .as_str()
                .is_some_and(|n| declared.is_some_and(|d| d.contains_key(n)));
            if !ok || req[..i].contains(name) {
                return Err(format!("{ptr}: required name {name}"));
            }
        }
    }
    if let Some(items) = obj.get("items") {
        check_node(items, &format!("{ptr}/items"), depth + 1)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn lowered_schemas_are_in_the_subset(input in schema()) {
        let lowered = lower(&input);
        if let Err(e) = check_node(&lowered.schema, "", 0) {
            return Err(TestCaseError::fail(format!("{e}\ninput: {input}\noutput: {}", lowered.schema)));
        }
    }

    #[test]
    fn lowering_is_idempotent(input in schema()) {
        let once = lower(&input);
        let twice = lower(&once.schema);
        prop_assert_eq!(&twice.schema, &once.schema);
        prop_assert!(twice.dropped.is_empty(), "{:?}", twice.dropped);
    }

    #[test]
    fn dropped_pointers_exist_in_the_input(input in schema()) {
        for dropped in lower(&input).dropped {
            prop_assert!(
                input.pointer(&dropped.pointer).is_some(),
                "{} not in {}", dropped.pointer, input
            );
        }
    }
}
