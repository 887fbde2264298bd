//! `card-resolution`: a result's card is the first declared one among the app marker,
//! `ui.cardType`, `operation`, `structuredContent.kind`, then `.type`, the tool's name and
//! `default` (`resolve_card`, `check_card`).

#![allow(clippy::unwrap_used, reason = "tests")]

use neuralis_core::contract::RuleId;
use neuralis_core::result::{CardSource, ToolResult, check_card, resolve_card};
use serde_json::{Value, json};

const ALL: &[&str] = &[
    "marker",
    "ui-card",
    "op",
    "kind-card",
    "type-card",
    "my_tool",
];

fn tool() -> Value {
    json!({"x-neuralis": {"operation": "op", "ui": {"cardType": "ui-card"}}})
}

fn result() -> ToolResult {
    ToolResult::json(json!({"kind": "kind-card", "type": "type-card"}))
        .with_neuralis_meta("card", json!("marker"))
}

fn source(tool: &Value, r: &ToolResult, declared: &[&str]) -> (String, CardSource) {
    let m = resolve_card("my_tool", tool, r, Some(declared));
    (m.card, m.source)
}

#[test]
fn app_marker_comes_first() {
    assert_eq!(
        source(&tool(), &result(), ALL),
        ("marker".into(), CardSource::AppMarker)
    );
}

#[test]
fn card_type_next() {
    assert_eq!(
        source(&tool(), &result(), &ALL[1..]),
        ("ui-card".into(), CardSource::CardType)
    );
}

#[test]
fn operation_next() {
    assert_eq!(
        source(&tool(), &result(), &ALL[2..]),
        ("op".into(), CardSource::Operation)
    );
}

#[test]
fn structured_kind_next() {
    assert_eq!(
        source(&tool(), &result(), &ALL[3..]),
        ("kind-card".into(), CardSource::Kind)
    );
}

#[test]
fn structured_type_next() {
    assert_eq!(
        source(&tool(), &result(), &ALL[4..]),
        ("type-card".into(), CardSource::Type)
    );
}

#[test]
fn tool_name_next() {
    assert_eq!(
        source(&tool(), &result(), &ALL[5..]),
        ("my_tool".into(), CardSource::ToolName)
    );
}

#[test]
fn default_last() {
    assert_eq!(
        source(&tool(), &result(), &[]),
        ("default".into(), CardSource::Default)
    );
}

#[test]
fn unknown_catalog_takes_the_first_candidate_present() {
    let m = resolve_card(
        "my_tool",
        &json!({}),
        &ToolResult::json(json!({"type": "t"})),
        None,
    );
    assert_eq!((m.card.as_str(), m.source), ("t", CardSource::Type));
}

#[test]
fn non_string_candidates_are_skipped() {
    let r = ToolResult::json(json!({"kind": 3, "type": "type-card"}));
    assert_eq!(
        source(&json!({}), &r, ALL),
        ("type-card".into(), CardSource::Type)
    );
}

#[test]
fn unmatched_card_type_is_reported_and_matched_is_not() {
    let d = check_card("t", &tool(), &ToolResult::text("x"), Some(&["other"]));
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].rule, RuleId::CardResolution);
    assert_eq!(d[0].pointer, "/x-neuralis/ui/cardType");
    assert!(check_card("t", &tool(), &ToolResult::text("x"), Some(&["ui-card"])).is_empty());
}
