//! `result-shape`: untrusted result JSON read into a well-formed result, each repair
//! reported with its pointer (`normalize_result`).

#![allow(clippy::unwrap_used, reason = "tests")]

use neuralis_core::contract::{Diagnostic, RuleId};
use neuralis_core::result::{Content, ContentBlock, ToolResult, normalize_result};
use serde_json::{Value, json};

fn norm(v: Value) -> (ToolResult, Vec<Diagnostic>) {
    normalize_result(v)
}

#[test]
fn well_formed_result_passes_without_diagnostics() {
    let v = json!({
        "content": [
            {"type": "text", "text": "hi", "annotations": {"audience": ["user"], "priority": 0.5}},
            {"type": "image", "data": "AAAA", "mimeType": "image/png"},
            {"type": "audio", "data": "AAAA", "mimeType": "audio/wav"},
            {"type": "resource", "resource": {"uri": "file:///a", "mimeType": "text/plain", "text": "a"}}
        ],
        "isError": false,
        "structuredContent": {"ok": true},
        "_meta": {"trace": "x"}
    });
    let (r, diags) = norm(v.clone());
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(r.blocks().len(), 4);
    let mut expected = v;
    if let Value::Object(m) = &mut expected {
        m.remove("isError");
    }
    assert_eq!(r.for_ui(), expected);
}

#[test]
fn unknown_block_dropped_counted_and_reported() {
    let (r, diags) =
        norm(json!({"content": [{"type": "hologram"}, {"type": "text", "text": "a"}]}));
    assert_eq!(r.blocks(), vec![ContentBlock::text("a")]);
    assert_eq!(
        r.neuralis_meta().and_then(|m| m.get("droppedBlocks")),
        Some(&json!(1))
    );
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].rule, RuleId::ResultShape);
    assert_eq!(diags[0].pointer, "/content/0");
}

#[test]
fn malformed_blocks_reported_with_pointer() {
    let (r, diags) = norm(json!({"content": [
        {"type": "text"},
        {"type": "image", "data": "AA"},
        7,
        {"text": "no type"},
        {"type": "resource", "resource": {"text": "no uri"}}
    ]}));
    assert!(r.blocks().is_empty());
    let pointers: Vec<_> = diags.iter().map(|d| d.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/content/0/text",
            "/content/1/mimeType",
            "/content/2",
            "/content/3",
            "/content/4/resource/uri"
        ]
    );
    assert_eq!(
        r.neuralis_meta().and_then(|m| m.get("malformedBlocks")),
        Some(&json!(5))
    );
}

#[test]
fn resource_link_becomes_resource() {
    let (r, diags) = norm(json!({"content": [
        {"type": "resource_link", "uri": "https://x/a.pdf", "name": "a.pdf", "mimeType": "application/pdf"}
    ]}));
    assert!(diags.is_empty());
    assert_eq!(
        r.for_ui()["content"][0],
        json!({"type": "resource", "resource": {
            "uri": "https://x/a.pdf", "mimeType": "application/pdf",
            "_meta": {"neuralis": {"link": {"name": "a.pdf"}}}
        }})
    );
}

#[test]
fn video_becomes_resource_with_video_mime() {
    let (r, diags) =
        norm(json!({"content": [{"type": "video", "data": "AAAA", "mimeType": "video/mp4"}]}));
    assert!(diags.is_empty());
    assert_eq!(
        r.for_ui()["content"][0],
        json!({"type": "resource", "resource": {"uri": "neuralis:inline-video", "mimeType": "video/mp4", "blob": "AAAA"}})
    );
    let (r, diags) =
        norm(json!({"content": [{"type": "video", "data": "AAAA", "mimeType": "image/png"}]}));
    assert!(r.blocks().is_empty());
    assert_eq!(diags[0].pointer, "/content/0/mimeType");
}

#[test]
fn non_result_values_are_kept_as_structured_content() {
    let (r, diags) = norm(json!({"items": [1, 2]}));
    assert_eq!(r.structured_content, Some(json!({"items": [1, 2]})));
    assert_eq!(r.blocks(), vec![ContentBlock::text("{\"items\":[1,2]}")]);
    assert_eq!(diags[0].pointer, "");
    let (r, _) = norm(json!("plain"));
    assert_eq!(r.blocks(), vec![ContentBlock::text("plain")]);
}

#[test]
fn wrong_field_types_are_repaired_and_reported() {
    let (r, diags) = norm(json!({"content": "t", "isError": "yes", "_meta": 3, "extra": 1}));
    assert_eq!(r.content, Content::Text("t".into()));
    assert!(!r.is_error);
    assert!(r.meta.is_none());
    let pointers: Vec<_> = diags.iter().map(|d| d.pointer.as_str()).collect();
    assert_eq!(pointers, ["/_meta", "/isError", "/extra"]);
}

#[test]
fn normalizing_twice_changes_nothing() {
    let (once, _) = norm(
        json!({"content": [{"type": "x"}, {"type": "text"}], "_meta": {"neuralis": {"droppedBlocks": 2}}}),
    );
    assert_eq!(
        once.neuralis_meta().and_then(|m| m.get("droppedBlocks")),
        Some(&json!(3))
    );
    let (twice, diags) = norm(once.for_ui());
    assert_eq!(twice, once);
    assert!(diags.is_empty());
}
