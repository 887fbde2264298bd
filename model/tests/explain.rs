//! Refusals a model can act on (`Validator::explain`, issue 60): each fault at the deepest
//! place, in plain words with its bound, inside data-carrying enums too.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]

use neuralis_model::validate::Validator;
use serde_json::{Value, json};

/// The tool file of every enum representation, as the derive writes it.
fn enums() -> Validator {
    let schema: Value =
        serde_json::from_str(include_str!("../../tests/snapshots/enums.json")).unwrap();
    Validator::compile(&schema).unwrap()
}

fn faults(v: &Validator, instance: &Value) -> Vec<(String, String)> {
    v.explain(instance)
        .into_iter()
        .map(|f| (f.pointer, f.message))
        .collect()
}

fn base() -> Value {
    json!({"shout": "QUIET", "units": "metric", "external": "nothing",
           "internal": {"kind": "empty"}, "adjacent": {"t": "Unit"}, "untagged": true})
}

fn with(key: &str, value: Value) -> Value {
    let mut v = base();
    v[key] = value;
    v
}

#[test]
fn debug_print() {
    let v = enums();
    assert!(v.is_valid(&base()));
    for (k, val) in [
        ("internal", json!({"kind": "circle", "radius": 70000})),
        ("internal", json!({"kind": "square"})),
        ("internal", json!({"radius": 1})),
        (
            "internal",
            json!({"kind": "circle", "radius": 1, "label": "x"}),
        ),
        ("internal", json!("circle")),
        ("adjacent", json!({"t": "Pair", "c": {"a": 300, "b": "x"}})),
        ("adjacent", json!({"t": "Unit", "c": 1})),
        ("external", json!({"number": 256})),
        ("external", json!({"point": {"xPos": 1}})),
        ("external", json!("something")),
        ("external", json!({"numbr": 1})),
        ("external", json!(5)),
        ("untagged", json!({"name": 5})),
        ("untagged", json!(5)),
        ("untagged", json!({"nam": "x"})),
        ("units", json!("kelvin")),
        ("units", json!(5)),
    ] {
        println!("{k} {val} => {:?}", faults(&v, &with(k, val.clone())));
    }
    panic!();
}
