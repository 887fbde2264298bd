//! `status-convention`: the settled status read from `structuredContent`
//! (`settled_status`), and what breaks the convention (`check_status`).

#![allow(clippy::unwrap_used, reason = "tests")]

use neuralis_core::contract::RuleId;
use neuralis_core::result::{Tone, check_status, settled_status};
use serde_json::{Value, json};

fn tone(v: Value) -> (String, Tone) {
    let s = settled_status(&v);
    (s.name, s.tone)
}

#[test]
fn each_status_word_of_the_convention() {
    assert_eq!(tone(json!({"ok": true})), ("success".into(), Tone::Success));
    assert_eq!(
        tone(json!({"ok": false})),
        ("failure".into(), Tone::Failure)
    );
    assert_eq!(
        tone(json!({"status": "success"})),
        ("success".into(), Tone::Success)
    );
    assert_eq!(
        tone(json!({"status": "completed"})),
        ("completed".into(), Tone::Success)
    );
    assert_eq!(
        tone(json!({"status": "pending_review"})),
        ("pending_review".into(), Tone::Success)
    );
    assert_eq!(
        tone(json!({"status": "error"})),
        ("error".into(), Tone::Failure)
    );
    assert_eq!(
        tone(json!({"status": "fail"})),
        ("fail".into(), Tone::Failure)
    );
    assert_eq!(
        tone(json!({"status": "partial"})),
        ("partial".into(), Tone::Partial)
    );
    assert_eq!(
        tone(json!({"status": "pending"})),
        ("pending".into(), Tone::InFlight)
    );
    assert_eq!(
        tone(json!({"status": "pending_upload"})),
        ("pending_upload".into(), Tone::InFlight)
    );
    assert_eq!(
        tone(json!({"status": "archived"})),
        ("archived".into(), Tone::Neutral)
    );
    assert_eq!(
        tone(json!({"count": 3})),
        ("committed".into(), Tone::Success)
    );
    assert_eq!(tone(Value::Null), ("committed".into(), Tone::Success));
}

#[test]
fn ok_true_wins_and_names_come_from_status() {
    assert_eq!(
        tone(json!({"ok": true, "status": "done"})),
        ("done".into(), Tone::Success)
    );
    assert_eq!(
        tone(json!({"ok": false, "status": "timeout"})),
        ("timeout".into(), Tone::Failure)
    );
    assert_eq!(
        tone(json!({"ok": false, "status": "completed"})),
        ("completed".into(), Tone::Success)
    );
}

#[test]
fn a_non_string_status_names_nothing() {
    assert_eq!(
        tone(json!({"status": 200})),
        ("committed".into(), Tone::Success)
    );
}

fn rules(v: Value) -> Vec<(RuleId, String)> {
    check_status(&v)
        .into_iter()
        .map(|d| (d.rule, d.pointer))
        .collect()
}

#[test]
fn settled_pending_is_reported_but_pending_review_is_not() {
    let at = "/structuredContent/status".to_owned();
    assert_eq!(
        rules(json!({"status": "pending"})),
        [(RuleId::StatusConvention, at.clone())]
    );
    assert_eq!(
        rules(json!({"status": "Pending_Approval"})),
        [(RuleId::StatusConvention, at)]
    );
    assert!(rules(json!({"status": "pending_review"})).is_empty());
    assert!(rules(json!({"status": "completed"})).is_empty());
}

#[test]
fn non_string_and_domain_status_are_reported() {
    let at = "/structuredContent/status".to_owned();
    assert_eq!(
        rules(json!({"status": 404})),
        [(RuleId::StatusConvention, at.clone())]
    );
    assert_eq!(
        rules(json!({"status": null})),
        [(RuleId::StatusConvention, at.clone())]
    );
    assert_eq!(
        rules(json!({"status": "404"})),
        [(RuleId::StatusConvention, at)]
    );
    assert!(rules(json!({"ok": true, "httpStatus": 404})).is_empty());
}

#[test]
fn non_boolean_ok_is_reported() {
    assert_eq!(
        rules(json!({"ok": "true"})),
        [(RuleId::StatusConvention, "/structuredContent/ok".to_owned())]
    );
    assert!(rules(json!({"ok": false})).is_empty());
}
