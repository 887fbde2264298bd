//! `neuralis result` end to end.

#![allow(clippy::unwrap_used, reason = "tests")]

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{Value, json};

fn write(dir: &str, name: &str, v: &Value) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(v).unwrap()).unwrap();
    path
}

fn run(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_neuralis"))
        .arg("result")
        .args(args)
        .output()
        .unwrap()
}

fn tool() -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object", "additionalProperties": false, "properties": {},
        "x-neuralis": {"operation": "rows.list", "ui": {"cardType": "rows.table"}, "annotations": {"category": "read"}}
    })
}

#[test]
fn model_view_is_bounded_and_has_no_meta() {
    let t = write("cli_model", "list_rows.json", &tool());
    let r = write(
        "cli_model",
        "result.json",
        &json!({
            "content": [{"type": "text", "text": "x".repeat(100)}, {"type": "hologram"}],
            "structuredContent": {"ok": true},
            "_meta": {"trace": "abc"}
        }),
    );
    let out = run(&[
        t.as_os_str(),
        r.as_os_str(),
        "--view".as_ref(),
        "model".as_ref(),
        "--text-chars".as_ref(),
        "50".as_ref(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = v["content"][0]["text"].as_str().unwrap();
    assert!(
        text.ends_with("… [truncated: 100 → 15 characters]"),
        "{text}"
    );
    assert_eq!(v["content"].as_array().unwrap().len(), 1);
    assert!(v.get("_meta").is_none());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("warning[result-shape]"), "{stderr}");
    assert!(stderr.contains("(at `/content/1`)"), "{stderr}");
    assert!(stderr.contains("warning[result-bound]"), "{stderr}");
}

#[test]
fn card_view_resolves_the_card_and_the_payload() {
    let t = write("cli_card", "list_rows.json", &tool());
    let r = write(
        "cli_card",
        "result.json",
        &json!({"content": "2 rows", "structuredContent": {"status": "pending", "rows": [1, 2]}}),
    );
    let out = run(&[
        t.as_os_str(),
        r.as_os_str(),
        "--view".as_ref(),
        "card".as_ref(),
        "--cards".as_ref(),
        "rows.table,other".as_ref(),
    ]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["card"], "rows.table");
    assert_eq!(v["source"], "cardType");
    assert_eq!(v["status"], json!({"name": "pending", "tone": "in-flight"}));
    assert_eq!(v["payload"]["toolName"], "list_rows");
    assert_eq!(v["payload"]["structuredContent"]["rows"], json!([1, 2]));
    assert!(v["bytes"].as_u64().unwrap() <= 131_072);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("warning[status-convention]"), "{stderr}");
}

#[test]
fn both_views_by_default_and_default_card_when_undeclared() {
    let t = write("cli_both", "list_rows.json", &tool());
    let r = write(
        "cli_both",
        "result.json",
        &json!({"content": [], "structuredContent": {"ok": true}}),
    );
    let out = run(&[
        t.as_os_str(),
        r.as_os_str(),
        "--cards".as_ref(),
        "unrelated".as_ref(),
    ]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["model"], json!({"content": []}));
    assert_eq!(v["card"]["card"], "default");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("warning[card-resolution]"), "{stderr}");
    assert!(!stderr.contains("status-convention"), "{stderr}");
}

#[test]
fn bad_json_exits_2_with_the_rule_id() {
    let t = write("cli_bad", "list_rows.json", &tool());
    let dir = t.parent().unwrap().to_path_buf();
    let r = dir.join("broken.json");
    std::fs::write(&r, b"{\"content\": ").unwrap();
    let out = run(&[t.as_os_str(), r.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[json-syntax]"));
}
