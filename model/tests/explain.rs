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

fn one(key: &str, value: Value) -> Vec<(String, String)> {
    faults(&enums(), &with(key, value))
}

fn at(pointer: &str, message: &str) -> (String, String) {
    (pointer.to_owned(), message.to_owned())
}

#[test]
fn an_internal_tag_picks_the_variant_and_its_faults_are_inside_it() {
    assert!(enums().is_valid(&base()));
    assert_eq!(
        one("internal", json!({"kind": "circle", "radius": 70000})),
        [at("/internal/radius", "at most 65535")]
    );
    assert_eq!(
        one("internal", json!({"kind": "square"})),
        [at("/internal/kind", "one of `circle`, `leaf`, `empty`")]
    );
    assert_eq!(
        one("internal", json!({"radius": 1})),
        [at(
            "/internal/kind",
            "`kind` is required (it picks the variant): one of `circle`, `leaf`, `empty`"
        )]
    );
    assert_eq!(
        one(
            "internal",
            json!({"kind": "circle", "radius": 1, "label": "x"})
        ),
        [at(
            "/internal/label",
            "`label` is not a field of `circle`; it belongs to `leaf`"
        )]
    );
    assert_eq!(
        one("internal", json!("circle")),
        [at(
            "/internal",
            "an object whose `kind` is one of `circle`, `leaf`, `empty`, not a string"
        )]
    );
}

#[test]
fn an_adjacent_tag_picks_the_variant_of_the_content() {
    assert_eq!(
        one("adjacent", json!({"t": "Pair", "c": {"a": 300, "b": "x"}})),
        [
            at("/adjacent/c/a", "at most 255"),
            at("/adjacent/c/b", "an integer, not a string")
        ]
    );
    assert_eq!(
        one("adjacent", json!({"t": "Unit", "c": 1})),
        [at(
            "/adjacent/c",
            "`c` is not a field of `Unit`; it belongs to `Text`, `Pair`"
        )]
    );
}

#[test]
fn an_external_tag_is_the_one_key() {
    assert_eq!(
        one("external", json!({"number": 256})),
        [at("/external/number", "at most 255")]
    );
    assert_eq!(
        one("external", json!({"point": {"xPos": 1.5}})),
        [
            at("/external/point/yPos", "`yPos` is required"),
            at("/external/point/xPos", "an integer, not a fraction")
        ]
    );
    let expected = "`nothing`, or an object with one key, the variant: one of `number`, `point`";
    assert_eq!(
        one("external", json!("something")),
        [at("/external", expected)]
    );
    assert_eq!(one("external", json!(5)), [at("/external", expected)]);
    assert_eq!(
        one(
            "external",
            json!({"number": 1, "point": {"xPos": 1, "yPos": 2}})
        ),
        [at("/external", expected)]
    );
    assert_eq!(
        one("external", json!({"numbr": 1})),
        [at(
            "/external/numbr",
            "`numbr` is not a variant here; did you mean `number`?"
        )]
    );
}

#[test]
fn an_untagged_value_is_explained_by_its_closest_branch() {
    assert_eq!(
        one("untagged", json!({"name": 5})),
        [at("/untagged/name", "a string, not a number")]
    );
    assert_eq!(
        one("untagged", json!({"nam": "x"})),
        [
            at(
                "/untagged/nam",
                "`nam` is not an argument here; did you mean `name`?"
            ),
            at("/untagged/name", "`name` is required")
        ]
    );
    // No branch closer: each in a few words, no name internal to the schema.
    assert_eq!(
        one("untagged", json!(5)),
        [at("/untagged", "a boolean, or an object with `name`")]
    );
}

#[test]
fn every_fault_at_once_and_no_keyword_name() {
    let mut call = with("units", json!("kelvin"));
    call["internal"] = json!({"kind": "leaf", "label": 3, "weight": -1});
    call["dryrun"] = json!(true);
    call.as_object_mut().unwrap().remove("shout");
    let got = faults(&enums(), &call);
    assert_eq!(
        got,
        [
            at("/shout", "`shout` is required"),
            at("/units", "one of `metric`, `imperial`"),
            at("/internal/label", "a string, not a number"),
            at("/internal/weight", "at least 0"),
            at(
                "/dryrun",
                "`dryrun` is not an argument here; accepted: `shout`, `units`, `external`, \
                 `internal`, `adjacent`, `untagged`"
            ),
        ]
    );
    for (_, message) in &got {
        for keyword in ["oneOf", "anyOf", "enum", "maximum", "schema"] {
            assert!(!message.contains(keyword), "{message}");
        }
    }
}

#[test]
fn rules_read_with_their_bounds() {
    let v = Validator::compile(&json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "email": {"type": "string", "format": "email"},
            "phone": {"type": "string", "pattern": "^\\+[1-9][0-9]{6,14}$"},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}, "maxItems": 5, "uniqueItems": true},
            "channel": {"type": "string", "enum": ["stable", "beta"]},
            "dry_run": {"type": "boolean"},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5}
        }
    }))
    .unwrap();
    let got = faults(
        &v,
        &json!({"email": "nope", "phone": "12", "tags": ["a", "a", "b", "c", "d", "eeee"],
                "channel": "nightly", "dryrun": 1, "ratio": 0}),
    );
    assert_eq!(
        got,
        [
            at("/email", "an email address"),
            at("/phone", "matches `^\\+[1-9][0-9]{6,14}$`"),
            at("/tags", "at most 5 items"),
            at("/tags", "no two items the same"),
            at("/tags/5", "at most 3 characters"),
            at("/channel", "one of `stable`, `beta`"),
            at("/ratio", "greater than 0"),
            at(
                "/dryrun",
                "`dryrun` is not an argument here; did you mean `dry_run`?"
            ),
        ]
    );
    assert!(v.explain(&json!({"email": "a@b.co"})).is_empty());
}

#[test]
fn a_value_that_fits_two_branches_of_a_one_of_says_so() {
    let v = Validator::compile(&json!({
        "oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]
    }))
    .unwrap();
    assert_eq!(
        faults(&v, &json!(3)),
        [at(
            "",
            "fits more than one shape, and exactly one is accepted: an integer; a number"
        )]
    );
}

#[test]
fn a_tag_behind_a_ref_is_recognized() {
    let v = Validator::compile(&json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {"strategy": {"$ref": "#/definitions/Strategy"}},
        "definitions": {
            "Strategy": {"oneOf": [
                {"$ref": "#/definitions/Canary"},
                {"type": "object", "additionalProperties": false,
                 "properties": {"kind": {"const": "all_at_once"}}, "required": ["kind"]}
            ]},
            "Canary": {"type": "object", "additionalProperties": false,
                "properties": {"kind": {"type": "string", "enum": ["canary"]},
                               "percent": {"type": "integer", "minimum": 1, "maximum": 50}},
                "required": ["kind", "percent"]}
        }
    }))
    .unwrap();
    assert_eq!(
        faults(&v, &json!({"strategy": {"kind": "canary", "percent": 80}})),
        [at("/strategy/percent", "at most 50")]
    );
    assert_eq!(
        faults(&v, &json!({"strategy": {"kind": "rolling"}})),
        [at("/strategy/kind", "one of `canary`, `all_at_once`")]
    );
}

#[test]
fn a_refused_key_name_is_reported_at_the_key() {
    let v = Validator::compile(&json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "labels": {"type": "object", "additionalProperties": {"type": "string"},
                       "propertyNames": {"not": {"anyOf": [
                           {"enum": ["__proto__", "constructor", "prototype"]},
                           {"pattern": "^(?:__|\\$)"}]}}},
            "codes": {"type": "object", "additionalProperties": {"type": "integer"},
                      "propertyNames": {"pattern": "^[a-z]+$", "maxLength": 4}}
        }
    }))
    .unwrap();
    assert_eq!(
        faults(
            &v,
            &json!({"labels": {"$x": "a", "ok": 1}, "codes": {"AB": 1}})
        ),
        [
            at("/labels/ok", "a string, not a number"),
            at(
                "/labels/$x",
                "`$x` is not an accepted key: a key may not start with `__` or `$`, nor be \
                 `constructor` or `prototype`"
            ),
            at(
                "/codes/AB",
                "`AB` is not an accepted key: matches `^[a-z]+$`"
            ),
        ]
    );
}
