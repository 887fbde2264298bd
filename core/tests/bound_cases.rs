//! Bounding, case by case: small results whose bounded form is worked out by hand from
//! the contract's `result-bound` rule and the caps' documentation, pinned as the whole
//! wire form (document order and `_meta.neuralis.bound` included). Every case is bounded
//! both ways, a copy (`bound_result`) and in place (`bound_result_owned`), which must give
//! the same bytes, and bounding the output again must change nothing.
//!
//! The marker of a clip is `… [truncated: N → K characters]`: 33 UTF-16 units with two
//! two-digit counts, and it counts within the cap; a cap too small to hold it cuts plainly.

#![allow(clippy::unwrap_used, reason = "tests")]

use neuralis_core::result::{
    BoundCaps, Tally, ToolResult, bound_result, bound_result_owned, normalize_and_bound,
};
use serde_json::{Value, json};

fn result(v: Value) -> ToolResult {
    serde_json::from_value(v).unwrap()
}

/// The wire bytes, in document order.
fn wire(r: &ToolResult) -> String {
    serde_json::to_string(r).unwrap()
}

/// Bounds `r` both ways and checks the output against `expected`, then that bounding it
/// again changes nothing; returns what was cut.
fn bounds_to(r: &ToolResult, caps: &BoundCaps, expected: &Value) -> Tally {
    let (copy, cut) = bound_result(r, caps);
    assert_eq!(wire(&copy), expected.to_string(), "the copy");
    let (owned, owned_cut) = bound_result_owned(r.clone(), caps);
    assert_eq!(wire(&owned), expected.to_string(), "in place");
    assert_eq!(owned_cut, cut);
    let (again, again_cut) = bound_result_owned(owned, caps);
    assert_eq!(wire(&again), expected.to_string(), "again");
    assert!(again_cut.is_empty(), "again: {again_cut:?}");
    cut
}

#[test]
fn text_is_clipped_in_utf16_units_with_a_marker_stating_both_counts() {
    // 30 emoji are 60 units; the cap of 50 leaves 17 units beside the marker, and the
    // 9th emoji would need 18: 8 are kept, never half of one.
    let r = ToolResult::text("😀".repeat(30));
    let caps = BoundCaps {
        text_chars: 50,
        ..BoundCaps::default()
    };
    let kept = format!("{}… [truncated: 60 → 16 characters]", "😀".repeat(8));
    let cut = bounds_to(
        &r,
        &caps,
        &json!({
            "content": [{"type": "text", "text": kept}],
            "_meta": {"neuralis": {"bound": {"textClipped": 1, "cuts": 1, "at": [
                {"pointer": "/content/0/text", "kind": "text", "original": 60, "kept": 16}
            ]}}}
        }),
    );
    assert_eq!(cut.text_clipped, 1);
}

#[test]
fn the_text_budget_is_shared_by_all_blocks_and_a_block_left_without_any_is_dropped() {
    // "é" is one unit, "😀" two: the first block takes 10 of 25 units, the second gets
    // 15, too few for a marker (33), so it is cut plainly to 7 emoji; nothing is left for
    // the resource's text or the last block, which are dropped.
    let r = ToolResult::from_blocks(vec![])
        .with_block(neuralis_core::result::ContentBlock::text("é".repeat(10)))
        .with_block(neuralis_core::result::ContentBlock::text("😀".repeat(10)))
        .with_block(neuralis_core::result::ContentBlock::resource_text(
            "file:///a",
            None,
            "text",
        ))
        .with_block(neuralis_core::result::ContentBlock::text("x"));
    let caps = BoundCaps {
        text_chars: 25,
        ..BoundCaps::default()
    };
    bounds_to(
        &r,
        &caps,
        &json!({
            "content": [
                {"type": "text", "text": "é".repeat(10)},
                {"type": "text", "text": "😀".repeat(7)}
            ],
            "_meta": {"neuralis": {"bound": {"textClipped": 3, "blocksDropped": 2, "cuts": 3, "at": [
                {"pointer": "/content/1/text", "kind": "text", "original": 20, "kept": 14},
                {"pointer": "/content/2/resource/text", "kind": "text", "original": 4, "kept": 0},
                {"pointer": "/content/3/text", "kind": "text", "original": 1, "kept": 0}
            ]}}}
        }),
    );
}

#[test]
fn string_content_and_blocks_cut_to_nothing() {
    let string = ToolResult {
        content: neuralis_core::result::Content::Text("hello world".into()),
        ..ToolResult::default()
    };
    let blocks = result(json!({"content": [
        {"type": "text", "text": "abcdef"},
        {"type": "resource", "resource": {"uri": "u", "text": "text"}},
        {"type": "text", "text": "x"}
    ]}));
    let none = BoundCaps {
        text_chars: 0,
        ..BoundCaps::default()
    };
    let record = |cuts: Value| json!({"neuralis": {"bound": cuts}});
    bounds_to(
        &string,
        &none,
        &json!({"content": "", "_meta": record(json!({"textClipped": 1, "cuts": 1, "at": [
            {"pointer": "/content", "kind": "text", "original": 11, "kept": 0}
        ]}))}),
    );
    bounds_to(
        &blocks,
        &none,
        &json!({"content": [], "_meta": record(json!({"textClipped": 3, "blocksDropped": 3, "cuts": 3, "at": [
            {"pointer": "/content/0/text", "kind": "text", "original": 6, "kept": 0},
            {"pointer": "/content/1/resource/text", "kind": "text", "original": 4, "kept": 0},
            {"pointer": "/content/2/text", "kind": "text", "original": 1, "kept": 0}
        ]}))}),
    );
    // Three units and one block: the blocks past the cap go from the tail, recorded
    // after the cuts inside the blocks kept.
    let three = BoundCaps {
        text_chars: 3,
        array_len: 1,
        ..BoundCaps::default()
    };
    bounds_to(
        &string,
        &three,
        &json!({"content": "hel", "_meta": record(json!({"textClipped": 1, "cuts": 1, "at": [
            {"pointer": "/content", "kind": "text", "original": 11, "kept": 3}
        ]}))}),
    );
    bounds_to(
        &blocks,
        &three,
        &json!({"content": [{"type": "text", "text": "abc"}], "_meta": record(json!({
        "textClipped": 1, "blocksDropped": 2, "cuts": 2, "at": [
            {"pointer": "/content/0/text", "kind": "text", "original": 6, "kept": 3},
            {"pointer": "/content", "kind": "blocks", "original": 3, "kept": 1}
        ]}))}),
    );
}

#[test]
fn arrays_lose_items_from_the_tail_everywhere() {
    let r = result(json!({
        "content": [
            {"type": "text", "text": "a", "annotations": {"audience": ["user", "assistant", "x"]}},
            {"type": "text", "text": "b"},
            {"type": "text", "text": "c"}
        ],
        "structuredContent": {"rows": [1, 2, 3, 4, 5], "ok": true},
        "_meta": {"trace": [[1, 2, 3], 4]}
    }));
    let caps = BoundCaps {
        array_len: 2,
        ..BoundCaps::default()
    };
    bounds_to(
        &r,
        &caps,
        &json!({
            "content": [
                {"type": "text", "text": "a", "annotations": {"audience": ["user", "assistant"]}},
                {"type": "text", "text": "b"}
            ],
            "structuredContent": {"rows": [1, 2], "ok": true},
            "_meta": {"trace": [[1, 2], 4], "neuralis": {"bound": {
                "arraysShrunk": 3, "itemsDropped": 5, "blocksDropped": 1, "cuts": 4, "at": [
                    {"pointer": "/content/0/annotations/audience", "kind": "array", "original": 3, "kept": 2},
                    {"pointer": "/content", "kind": "blocks", "original": 3, "kept": 2},
                    {"pointer": "/structuredContent/rows", "kind": "array", "original": 5, "kept": 2},
                    {"pointer": "/_meta/trace/0", "kind": "array", "original": 3, "kept": 2}
                ]}}}
        }),
    );
}

#[test]
fn uris_mime_types_and_annotations_are_clipped_to_string_chars() {
    // A 100-unit URI under a cap of 40: the marker with three-digit counts takes 35
    // units, so 5 are kept; with two-digit counts it takes 33, so 7 are kept of a
    // 46-unit timestamp and a 56-unit mime type.
    let r = result(json!({"content": [
        {"type": "resource", "resource": {"uri": "a".repeat(100), "mimeType": "text/plain", "text": "t"},
         "annotations": {"audience": ["user"], "lastModified": "2025-01-01T00:00:00Z, and then some more words"}},
        {"type": "image", "data": "AAAA", "mimeType": "image/png; name=".to_owned() + &"x".repeat(40)}
    ]}));
    let caps = BoundCaps {
        string_chars: 40,
        ..BoundCaps::default()
    };
    bounds_to(
        &r,
        &caps,
        &json!({
            "content": [
                {"type": "resource", "resource": {
                    "uri": "aaaaa… [truncated: 100 → 5 characters]", "mimeType": "text/plain", "text": "t"},
                 "annotations": {"audience": ["user"], "lastModified": "2025-01… [truncated: 46 → 7 characters]"}},
                {"type": "image", "data": "AAAA",
                 "mimeType": "image/p… [truncated: 56 → 7 characters]"}
            ],
            "_meta": {"neuralis": {"bound": {"stringsClipped": 3, "cuts": 3, "at": [
                {"pointer": "/content/0/resource/uri", "kind": "string", "original": 100, "kept": 5},
                {"pointer": "/content/0/annotations/lastModified", "kind": "string", "original": 46, "kept": 7},
                {"pointer": "/content/1/mimeType", "kind": "string", "original": 56, "kept": 7}
            ]}}}
        }),
    );
}

#[test]
fn a_blob_over_the_cap_drops_its_block_whole() {
    let r = ToolResult::from_blocks(vec![
        neuralis_core::result::ContentBlock::image("A".repeat(9), "image/png"),
        neuralis_core::result::ContentBlock::text("kept"),
        neuralis_core::result::ContentBlock::resource_blob("file:///v", "video/mp4", "B".repeat(8)),
    ]);
    let caps = BoundCaps {
        blob_bytes: 8,
        ..BoundCaps::default()
    };
    bounds_to(
        &r,
        &caps,
        &json!({
            "content": [
                {"type": "text", "text": "kept"},
                {"type": "resource", "resource": {"uri": "file:///v", "mimeType": "video/mp4", "blob": "BBBBBBBB"}}
            ],
            "_meta": {"neuralis": {"bound": {"blocksDropped": 1, "blobsDropped": 1, "cuts": 1, "at": [
                {"pointer": "/content/0/data", "kind": "blob", "original": 9, "kept": 0}
            ]}}}
        }),
    );
}

#[test]
fn structured_content_keeps_primitives_then_the_smallest_containers_then_prefixes() {
    let r = ToolResult::text("x").with_structured(json!({
        "id": 7,
        "big": (1..=100).collect::<Vec<_>>(),
        "name": "x",
        "small": [1, 2],
        "mid": {"a": [1, 2, 3, 4, 5]}
    }));
    // 45 bytes: {"id":7,"name":"x"} takes 19, "small" fits whole (14 more with its
    // comma), what is left (5 bytes after `,"big":`) holds [1,2], and nothing is left
    // for "mid". Members keep their document order.
    let caps = BoundCaps {
        structured_bytes: 45,
        ..BoundCaps::default()
    };
    let expected = json!({"id": 7, "big": [1, 2], "name": "x", "small": [1, 2]});
    assert_eq!(expected.to_string().len(), 45);
    bounds_to(
        &r,
        &caps,
        &json!({
            "content": [{"type": "text", "text": "x"}],
            "structuredContent": expected,
            "_meta": {"neuralis": {"bound": {
                "arraysShrunk": 1, "itemsDropped": 98, "membersDropped": 1, "cuts": 2, "at": [
                    {"pointer": "/structuredContent/big", "kind": "array", "original": 100, "kept": 2},
                    {"pointer": "/structuredContent", "kind": "object", "original": 5, "kept": 4}
                ]}}}
        }),
    );
}

#[test]
fn structured_content_is_emptied_or_dropped_never_replaced() {
    let r = ToolResult::text("x").with_structured(json!({"rows": [1, 2, 3]}));
    let record = |kept: usize, members: usize| {
        json!({"neuralis": {"bound": {"membersDropped": members, "cuts": 1, "at": [
            {"pointer": "/structuredContent", "kind": "object", "original": members, "kept": kept}
        ]}}})
    };
    // `{}` is the least an object can be...
    let two = BoundCaps {
        structured_bytes: 2,
        ..BoundCaps::default()
    };
    bounds_to(
        &r,
        &two,
        &json!({"content": [{"type": "text", "text": "x"}], "structuredContent": {},
            "_meta": record(0, 1)}),
    );
    // ...and below it there is no `structuredContent` at all, rather than a stand-in.
    let one = BoundCaps {
        structured_bytes: 1,
        ..BoundCaps::default()
    };
    bounds_to(
        &r,
        &one,
        &json!({"content": [{"type": "text", "text": "x"}], "_meta": record(0, 1)}),
    );
}

#[test]
fn primitive_metadata_stays_and_the_earlier_record_is_added_to_never_cut() {
    let r = result(json!({
        "content": [{"type": "text", "text": "a"}],
        "_meta": {
            "neuralis": {"card": "weather", "bound": {"itemsDropped": 2, "cuts": 1, "at": [
                {"pointer": "/structuredContent/a", "kind": "array", "original": 9, "kept": 2}
            ]}},
            "note": "kept",
            "trace": {"spans": (0..40).collect::<Vec<_>>()}
        }
    }));
    // `_meta` without its namespace gets 60 bytes: the primitive first ({"note":"kept"}
    // is 15), then `,"trace":{"spans":` and what is left for the spans (26 bytes: 11 of
    // them); the namespace is bounded apart and its record carried on.
    let caps = BoundCaps {
        structured_bytes: 60,
        ..BoundCaps::default()
    };
    let spans: Vec<usize> = (0..11).collect();
    let expected_meta = json!({"note": "kept", "trace": {"spans": spans}});
    assert_eq!(expected_meta.to_string().len(), 58);
    let mut expected = json!({"content": [{"type": "text", "text": "a"}], "_meta": expected_meta});
    expected["_meta"]["neuralis"] = json!({"card": "weather", "bound": {
    "arraysShrunk": 1, "itemsDropped": 31, "cuts": 2, "at": [
        {"pointer": "/structuredContent/a", "kind": "array", "original": 9, "kept": 2},
        {"pointer": "/_meta/trace/spans", "kind": "array", "original": 40, "kept": 11}
    ]}});
    let cut = bounds_to(&r, &caps, &expected);
    // what this bounding cut, without the earlier record
    assert_eq!(cut.items_dropped, 29);
    assert_eq!(cut.total_cuts, 1);
}

#[test]
fn every_listed_cut_is_a_result_bound_warning_and_the_rest_are_counted() {
    let many: serde_json::Map<String, Value> = (0..20)
        .map(|i| (format!("a{i:02}"), json!([1, 2, 3])))
        .collect();
    let caps = BoundCaps {
        array_len: 1,
        ..BoundCaps::default()
    };
    let (r, diags) = normalize_and_bound(
        json!({"content": [{"type": "text", "text": "t"}], "structuredContent": many}),
        &caps,
    );
    assert_eq!(diags.len(), 17);
    assert!(diags.iter().all(|d| d.rule.as_str() == "result-bound"));
    assert_eq!(diags[0].pointer, "/structuredContent/a00");
    assert_eq!(diags[0].message, "cut from 3 to 1 items");
    assert_eq!(diags[15].pointer, "/structuredContent/a15");
    assert_eq!(diags[16].pointer, "");
    assert_eq!(diags[16].message, "4 more cuts not listed");
    let record = &r.neuralis_meta().unwrap()["bound"];
    assert_eq!(record["cuts"], 20);
    assert_eq!(record["at"].as_array().unwrap().len(), 16);
}

/// Results each over one cap (text, structured bytes, `_meta`, blobs and text blocks):
/// bounded, they are within their caps (bounding them again cuts nothing); under the
/// default caps they come back as they are.
#[test]
fn bounded_results_are_within_caps_and_oversized_ones_are_not() {
    let samples = || {
        vec![
            ToolResult::text("é😀".repeat(40)),
            ToolResult::json(json!({"rows": (0..50).collect::<Vec<_>>(), "s": "x".repeat(300)})),
            ToolResult::text("a")
                .with_meta("trace", json!({"spans": [1, 2, 3, 4, 5, 6]}))
                .with_neuralis_meta("droppedBlocks", json!(2)),
            ToolResult::from_blocks(vec![
                neuralis_core::result::ContentBlock::image("A".repeat(64), "image/png"),
                neuralis_core::result::ContentBlock::resource_text(
                    "file:///a",
                    None,
                    "t".repeat(90),
                ),
            ]),
        ]
    };
    let caps = BoundCaps {
        text_chars: 60,
        array_len: 4,
        string_chars: 50,
        structured_bytes: 120,
        blob_bytes: 32,
    };
    for r in samples() {
        let (b, stats) = bound_result(&r, &caps);
        assert!(!stats.is_empty(), "{r:?}");
        assert_ne!(wire(&b), wire(&r));
        let (again, stats) = bound_result(&b, &caps);
        assert!(stats.is_empty(), "{b:?}");
        assert_eq!(wire(&again), wire(&b));
    }
    for r in samples() {
        let (b, stats) = bound_result(&r, &BoundCaps::default());
        assert!(stats.is_empty(), "{r:?}");
        assert_eq!(wire(&b), wire(&r));
    }
}
