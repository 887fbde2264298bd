//! The typed catalog and the run-time meanings of section 4.
#![allow(clippy::unwrap_used)]

use neuralis_core::catalog::{Annotations, Category, Presentation, ToolMeta, Ui};
use serde_json::{Value, json};

const CATALOG_LIST: &str = include_str!("../../examples/catalog/tools/catalog_list.json");
const WEATHER: &str = include_str!("../../examples/weather/tools/weather_forecast.json");

fn meta(block: Value) -> ToolMeta {
    serde_json::from_value(block).unwrap()
}

#[test]
fn the_examples_read_into_typed_blocks() {
    let catalog = ToolMeta::from_schema(&serde_json::from_str(CATALOG_LIST).unwrap()).unwrap();
    assert_eq!(catalog.family.as_deref(), Some("catalog"));
    assert_eq!(catalog.operation.as_deref(), Some("catalog.list"));
    assert_eq!(catalog.transport.as_deref(), Some("embedded"));
    assert_eq!(
        catalog.annotations,
        Annotations {
            title: Some("List Catalog".into()),
            read_only_hint: Some(true),
            destructive_hint: Some(false),
            category: Category::Read,
            ..Annotations::default()
        }
    );
    assert_eq!(
        catalog.ui,
        Ui {
            presentation: Some(Presentation::Explored),
            card_type: None,
            icon: Some("list".into())
        }
    );

    let weather = ToolMeta::from_schema(&serde_json::from_str(WEATHER).unwrap()).unwrap();
    assert_eq!(weather.defaults.get("days"), Some(&json!(3)));
    assert_eq!(weather.annotations.category, Category::Network);
    assert_eq!(weather.annotations.estimated_duration_ms, Some(2000));
    assert_eq!(weather.requires.features, ["weather.read"]);
    assert_eq!(weather.effective_presentation(), Presentation::Card);
}

#[test]
fn the_typed_block_serializes_back_to_the_same_block() {
    let doc: Value = serde_json::from_str(WEATHER).unwrap();
    let typed = ToolMeta::from_schema(&doc).unwrap();
    let back = serde_json::to_value(&typed).unwrap();
    assert_eq!(back, doc["x-neuralis"]);
    // Field order is the canonical order: the serialization is the file's, key for key.
    assert_eq!(back.to_string(), doc["x-neuralis"].to_string());
}

#[test]
fn the_block_shape_is_enforced_by_the_types() {
    for bad in [
        json!({ "recovery": "retry" }),
        json!({ "annotations": { "category": "bogus" } }),
        json!({ "annotations": { "readOnlyHint": "yes" } }),
        json!({ "annotations": { "estimatedDurationMs": -1 } }),
        json!({ "ui": { "presentation": "modal" } }),
        json!({ "ui": { "colour": "red" } }),
        json!({ "requires": { "features": "a" } }),
        json!({ "askOnKeys": "delete" }),
    ] {
        assert!(
            serde_json::from_value::<ToolMeta>(bad.clone()).is_err(),
            "{bad} must not type"
        );
    }
    assert!(ToolMeta::from_schema(&json!({ "type": "object" })).is_err());
    // The near misses type.
    for good in [
        json!({}),
        json!({ "annotations": { "category": "admin", "estimatedDurationMs": 0 } }),
        json!({ "ui": { "presentation": "inline" }, "askOnKeys": [] }),
    ] {
        assert!(
            serde_json::from_value::<ToolMeta>(good.clone()).is_ok(),
            "{good} must type"
        );
    }
}

#[test]
fn every_category_has_its_wire_name() {
    for (c, name) in Category::ALL
        .iter()
        .zip(neuralis_core::contract::rules::CATEGORIES)
    {
        assert_eq!(c.as_str(), *name);
        assert_eq!(serde_json::to_value(c).unwrap(), json!(name));
        assert_eq!(serde_json::from_value::<Category>(json!(name)).unwrap(), *c);
    }
    assert_eq!(
        Category::ALL.len(),
        neuralis_core::contract::rules::CATEGORIES.len()
    );
    assert_eq!(meta(json!({})).annotations.category, Category::Unknown);
}

#[test]
fn effective_presentation_follows_the_contract_order() {
    let cases = [
        (json!({}), Presentation::Inline),
        (
            json!({ "annotations": { "readOnlyHint": false } }),
            Presentation::Inline,
        ),
        (
            json!({ "annotations": { "readOnlyHint": true } }),
            Presentation::Explored,
        ),
        (
            json!({ "annotations": { "readOnlyHint": true }, "ui": { "cardType": "c" } }),
            Presentation::Card,
        ),
        (json!({ "ui": { "cardType": "c" } }), Presentation::Card),
        (
            json!({ "ui": { "cardType": "c", "presentation": "inline" } }),
            Presentation::Inline,
        ),
        (
            json!({ "annotations": { "readOnlyHint": true }, "ui": { "presentation": "inline" } }),
            Presentation::Inline,
        ),
        (
            json!({ "ui": { "presentation": "explored" } }),
            Presentation::Explored,
        ),
        (json!({ "ui": { "icon": "i" } }), Presentation::Inline),
    ];
    for (block, expected) in cases {
        assert_eq!(
            meta(block.clone()).effective_presentation(),
            expected,
            "{block}"
        );
    }
}

#[test]
fn ask_on_keys_is_presence_based() {
    let m = meta(json!({
        "annotations": { "destructiveHint": true, "category": "write" },
        "askOnKeys": ["delete", "force"]
    }));
    for args in [
        json!({ "delete": true }),
        json!({ "delete": false }),
        json!({ "delete": null }),
        json!({ "title": "t", "force": 0 }),
    ] {
        assert!(m.asks_for_approval(&args), "{args} sends a listed key");
    }
    for args in [
        json!({}),
        json!({ "title": "delete" }),
        json!({ "Delete": true }),
        json!(null),
        json!(["delete"]),
    ] {
        assert!(!m.asks_for_approval(&args), "{args} sends no listed key");
    }
    // Nested keys are not root keys.
    assert!(!m.asks_for_approval(&json!({ "opts": { "delete": true } })));
}

#[test]
fn category_unknown_always_asks() {
    let m = meta(json!({ "annotations": { "category": "unknown" } }));
    assert!(m.asks_for_approval(&json!({})));
    assert!(m.asks_for_approval(&json!(null)));
    let m = meta(json!({ "annotations": { "category": "read" } }));
    assert!(!m.asks_for_approval(&json!({})));
}

#[test]
fn the_feature_gate_needs_every_listed_feature() {
    let m = meta(
        json!({ "requires": { "features": ["a.read", "b.read"], "escalations": ["a.admin"] } }),
    );
    assert!(m.features_satisfied(["a.read", "b.read"]));
    assert!(m.features_satisfied(vec![
        "x".to_owned(),
        "b.read".to_owned(),
        "a.read".to_owned()
    ]));
    assert!(!m.features_satisfied(["a.read"]));
    assert!(!m.features_satisfied(["a.read", "A.READ".to_lowercase().as_str(), "b.rea"]));
    assert!(!m.features_satisfied(std::iter::empty::<&str>()));
    // Escalations gate nothing.
    let only_escalations = meta(json!({ "requires": { "escalations": ["a.admin"] } }));
    assert!(only_escalations.features_satisfied(std::iter::empty::<String>()));
}
