//! `check_bytes` never panics, whatever the bytes: random, mutated JSON, deep nesting,
//! huge numbers, unicode keys.

use neuralis_core::contract::{RuleId, check_bytes, json::locate};
use proptest::prelude::*;

const SEED: &str = include_str!("../../examples/weather/tools/weather_forecast.json");

/// JSON-ish fragments that stress the reader and the rules.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("{".to_owned()),
        Just("}".to_owned()),
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just(",".to_owned()),
        Just(":".to_owned()),
        Just("\"".to_owned()),
        Just("\\".to_owned()),
        Just("1e999999".to_owned()),
        Just("-0.0000000000000000000000001".to_owned()),
        Just("123456789012345678901234567890".to_owned()),
        Just("\"\\ud800\"".to_owned()),
        Just("\"ключ\": \"値\"".to_owned()),
        Just("\"$ref\": \"#/definitions/a\"".to_owned()),
        Just("\"properties\": {}".to_owned()),
        Just("\"x-neuralis\": null".to_owned()),
        Just("\"askOnKeys\": [1, \"a\", \"a\"]".to_owned()),
        Just("\"default\": {\"a\": [[[[]]]]}".to_owned()),
        "[a-zA-Z~/%#]{0,6}".prop_map(|s| format!("\"{s}\"")),
    ]
}

/// A schema-shaped document from random pieces.
fn schema_like() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f)
            .map_or(serde_json::Value::Null, serde_json::Value::Number)),
        "\\PC{0,8}".prop_map(serde_json::Value::from),
        Just(serde_json::Value::from("object")),
        Just(serde_json::Value::from("#/definitions/a")),
    ];
    let keys = prop_oneof![
        Just("type".to_owned()),
        Just("properties".to_owned()),
        Just("required".to_owned()),
        Just("additionalProperties".to_owned()),
        Just("allOf".to_owned()),
        Just("not".to_owned()),
        Just("dependencies".to_owned()),
        Just("definitions".to_owned()),
        Just("$ref".to_owned()),
        Just("items".to_owned()),
        Just("x-neuralis".to_owned()),
        Just("annotations".to_owned()),
        Just("defaults".to_owned()),
        Just("askOnKeys".to_owned()),
        Just("userId".to_owned()),
        "\\PC{0,6}",
    ];
    leaf.prop_recursive(6, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            prop::collection::vec((keys.clone(), inner), 0..6)
                .prop_map(|kv| serde_json::Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let report = check_bytes("fuzz", &bytes);
        prop_assert!(report.schema.is_some() || !report.diagnostics.is_empty());
        let _ = locate(&bytes, "/a/0/b");
    }

    #[test]
    fn mutated_seed(
        edits in prop::collection::vec((any::<prop::sample::Index>(), fragment(), 0..3usize), 1..6),
    ) {
        let mut text = SEED.as_bytes().to_vec();
        for (at, piece, mode) in edits {
            let i = at.index(text.len() + 1);
            match mode {
                0 => { text.splice(i..i, piece.bytes()); }
                1 => { let end = (i + piece.len()).min(text.len()); text.splice(i..end, piece.bytes()); }
                _ => { let end = (i + 4).min(text.len()); text.drain(i..end); }
            }
        }
        let report = check_bytes("weather_forecast", &text);
        for d in &report.diagnostics {
            prop_assert!(!d.message.is_empty());
            if d.rule != RuleId::ToolName && report.schema.is_some() && !d.pointer.is_empty() {
                // Every pointer names something in the document.
                let schema = report.schema.as_ref().expect("parsed");
                prop_assert!(schema.pointer(&d.pointer).is_some(), "{} at {}", d.rule, d.pointer);
            }
        }
    }

    #[test]
    fn schema_shaped(value in schema_like(), pretty in any::<bool>()) {
        let text = if pretty {
            serde_json::to_vec_pretty(&value)
        } else {
            serde_json::to_vec(&value)
        }.expect("serializes");
        let report = check_bytes("fuzz", &text);
        if value.is_object() {
            prop_assert!(report.schema.is_some(), "{:?}", report.diagnostics);
            for d in &report.diagnostics {
                if d.rule != RuleId::ToolName {
                    prop_assert!(d.location.is_some(), "{} at {} unlocated", d.rule, d.pointer);
                }
            }
        }
    }

    #[test]
    fn deep_nesting(depth in 100..400usize, open in prop::sample::select(vec!["[", "{\"a\":", "{\"\\\"[\":"])) {
        let mut text = String::from("{\"a\":");
        for _ in 0..depth { text.push_str(open); }
        let report = check_bytes("deep", text.as_bytes());
        prop_assert_eq!(report.diagnostics.len(), 1);
        let rule = report.diagnostics[0].rule;
        // The outer object is level 1, so `depth` openers reach level `depth + 1`.
        let expected = if depth + 1 > 128 { RuleId::DepthLimit } else { RuleId::JsonSyntax };
        prop_assert_eq!(rule, expected);
    }
}
