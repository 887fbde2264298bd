//! Property tests for tool results: bounding, normalization and the iframe budget.

#![allow(clippy::unwrap_used, reason = "tests")]

use neuralis_core::result::{
    BoundCaps, Content, ContentBlock, IFRAME_MAX_BYTES, IFRAME_MAX_STRING_CHARS, ToolResult,
    bound_result, bound_result_owned, iframe_payload, normalize_result, utf16_len,
};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

#[path = "common/json_gen.rs"]
mod json_gen;
use json_gen::{json_value, leaf, text};

fn block() -> impl Strategy<Value = Value> {
    prop_oneof![
        text().prop_map(|t| json!({"type": "text", "text": t})),
        ("[A-Za-z0-9+/]{0,120}", "image/(png|jpeg)")
            .prop_map(|(d, m)| json!({"type": "image", "data": d, "mimeType": m})),
        "[A-Za-z0-9+/]{0,40}"
            .prop_map(|d| json!({"type": "audio", "data": d, "mimeType": "audio/wav"})),
        (text(), text())
            .prop_map(|(u, t)| json!({"type": "resource", "resource": {"uri": u, "text": t}})),
        text().prop_map(|u| json!({"type": "resource_link", "uri": u, "name": "n"})),
        Just(json!({"type": "video", "data": "AAAA", "mimeType": "video/mp4"})),
        Just(json!({"type": "hologram"})),
        Just(json!({"type": "text"})),
        leaf(),
    ]
}

/// Untrusted result JSON: mostly result-shaped, sometimes anything.
fn raw_result() -> impl Strategy<Value = Value> {
    let shaped = (
        prop_oneof![
            prop::collection::vec(block(), 0..8).prop_map(Value::Array),
            text().prop_map(Value::String),
            leaf(),
        ],
        prop::option::of(any::<bool>()),
        prop::option::of(json_value()),
        prop::option::of(json_value()),
    )
        .prop_map(|(content, is_error, structured, meta)| {
            let mut m = Map::new();
            m.insert("content".into(), content);
            if let Some(e) = is_error {
                m.insert("isError".into(), Value::Bool(e));
            }
            if let Some(s) = structured {
                m.insert("structuredContent".into(), s);
            }
            if let Some(meta) = meta {
                m.insert("_meta".into(), meta);
            }
            Value::Object(m)
        });
    prop_oneof![4 => shaped, 1 => json_value()]
}

fn caps() -> impl Strategy<Value = BoundCaps> {
    (
        0usize..200,
        0usize..8,
        0usize..80,
        0usize..1500,
        0usize..100,
    )
        .prop_map(
            |(text_chars, array_len, string_chars, structured_bytes, blob_bytes)| BoundCaps {
                text_chars,
                array_len,
                string_chars,
                structured_bytes,
                blob_bytes,
            },
        )
}

/// Every string (keys too) and every array length in `v`.
fn walk(v: &Value, strings: &mut Vec<String>, arrays: &mut Vec<usize>) {
    match v {
        Value::String(s) => strings.push(s.clone()),
        Value::Array(a) => {
            arrays.push(a.len());
            a.iter().for_each(|e| walk(e, strings, arrays));
        }
        Value::Object(m) => m.values().for_each(|e| walk(e, strings, arrays)),
        _ => {}
    }
}

fn assert_within_caps(r: &ToolResult, caps: &BoundCaps) {
    // content
    let blocks = match &r.content {
        Content::Text(t) => {
            assert!(utf16_len(t) <= caps.text_chars);
            Vec::new()
        }
        Content::Blocks(b) => b.clone(),
    };
    assert!(blocks.len() <= caps.array_len);
    let mut text_total = 0;
    for b in &blocks {
        match b {
            ContentBlock::Text(t) => text_total += utf16_len(&t.text),
            ContentBlock::Image(x) | ContentBlock::Audio(x) => {
                assert!(x.data.len() <= caps.blob_bytes)
            }
            ContentBlock::Resource(res) => {
                text_total += res.resource.text.as_deref().map_or(0, utf16_len);
                assert!(
                    res.resource
                        .blob
                        .as_ref()
                        .is_none_or(|b| b.len() <= caps.blob_bytes)
                );
                assert!(utf16_len(&res.resource.uri) <= caps.string_chars);
            }
        }
    }
    assert!(
        text_total <= caps.text_chars,
        "{text_total} > {}",
        caps.text_chars
    );
    // structuredContent
    if let Some(s) = &r.structured_content {
        assert!(s.to_string().len() <= caps.structured_bytes);
        let (mut strings, mut arrays) = (Vec::new(), Vec::new());
        walk(s, &mut strings, &mut arrays);
        assert!(strings.iter().all(|s| utf16_len(s) <= caps.string_chars));
        assert!(arrays.iter().all(|&n| n <= caps.array_len));
    }
    // _meta, without the toolkit's own bound record
    if let Some(meta) = &r.meta {
        let mut meta = meta.clone();
        if let Some(Value::Object(n)) = meta.get_mut("neuralis") {
            n.remove("bound");
        }
        let (mut strings, mut arrays) = (Vec::new(), Vec::new());
        walk(&Value::Object(meta), &mut strings, &mut arrays);
        assert!(strings.iter().all(|s| utf16_len(s) <= caps.string_chars));
        assert!(arrays.iter().all(|&n| n <= caps.array_len));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn bounded_output_is_within_every_cap(raw in raw_result(), caps in caps()) {
        let (r, _) = normalize_result(raw);
        let (b, _) = bound_result(&r, &caps);
        assert_within_caps(&b, &caps);
    }

    #[test]
    fn bounding_is_idempotent(raw in raw_result(), caps in caps()) {
        let (r, _) = normalize_result(raw);
        let (once, _) = bound_result(&r, &caps);
        let (twice, stats) = bound_result(&once, &caps);
        prop_assert_eq!(&twice, &once);
        prop_assert!(stats.is_empty());
    }

    #[test]
    fn normalization_is_idempotent(raw in raw_result()) {
        let (once, _) = normalize_result(raw);
        let (twice, _) = normalize_result(once.for_ui());
        prop_assert_eq!(twice, once);
    }

    #[test]
    fn bounding_survives_the_wire(raw in raw_result(), caps in caps()) {
        let (r, _) = normalize_result(raw);
        let (b, _) = bound_result(&r, &caps);
        let (back, _) = normalize_result(b.for_ui());
        prop_assert_eq!(back, b);
    }

    #[test]
    fn top_level_primitives_survive(
        prims in prop::collection::vec(("[a-z]{1,8}", leaf()), 0..6),
        big in prop::collection::vec(json_value(), 0..60),
        array_len in 0usize..10,
    ) {
        let mut m = Map::new();
        m.insert("items".into(), Value::Array(big));
        for (k, v) in prims {
            m.insert(format!("p_{k}"), v);
        }
        let prim_bytes: usize = m.iter().filter(|(k, _)| k.starts_with("p_")).map(|(k, v)| k.len() + 4 + v.to_string().len()).sum();
        let caps = BoundCaps { structured_bytes: prim_bytes + 2, array_len, ..BoundCaps::default() };
        let r = ToolResult::text("x").with_structured(Value::Object(m.clone()));
        let (b, _) = bound_result(&r, &caps);
        let out = b.structured_content.unwrap();
        for (k, v) in m.iter().filter(|(k, _)| k.starts_with("p_")) {
            prop_assert_eq!(out.get(k), Some(v));
        }
    }

    #[test]
    fn cuts_keep_code_points_whole_and_state_counts(s in "(😀|𝄞|é|a|\"){0,400}", cap in 0usize..300, bytes in 2usize..600) {
        let caps = BoundCaps { string_chars: cap, structured_bytes: bytes + 9, text_chars: cap, ..BoundCaps::default() };
        let r = ToolResult::text(s.clone()).with_structured(json!({"s": s}));
        let (b, _) = bound_result(&r, &caps);
        let marker = regex_lite_marker();
        let mut outs = Vec::new();
        if let Some(Value::String(o)) = b.structured_content.as_ref().and_then(|v| v.get("s")) {
            outs.push(o.clone());
        }
        if let Content::Blocks(blocks) = &b.content
            && let Some(ContentBlock::Text(t)) = blocks.first()
        {
            outs.push(t.text.clone());
        }
        for o in outs {
            let units: Vec<u16> = o.encode_utf16().collect();
            prop_assert!(units.last().is_none_or(|u| !(0xD800..0xDC00).contains(u)));
            if o == s {
                continue;
            }
            match marker(&o) {
                Some((prefix, original, kept)) => {
                    prop_assert!(s.starts_with(prefix));
                    prop_assert_eq!(original, utf16_len(&s));
                    prop_assert_eq!(kept, utf16_len(prefix));
                }
                None => prop_assert!(s.starts_with(&o)),
            }
        }
    }

}

proptest! {
    // Each case builds megabytes of input: few cases.
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn iframe_payload_is_within_budget(
        emoji in 0usize..60_000,
        keys in 0usize..20_000,
        depth in 0usize..300,
        ascii in "[a-z\"\\\\\u{1}]{0,50}",
    ) {
        let big = "😀\u{1}\"".repeat(emoji);
        let mut nested = json!(big.clone());
        for i in 0..depth {
            nested = if i % 2 == 0 { json!([nested]) } else { json!({"d": nested}) };
        }
        let wide: Map<String, Value> = (0..keys).map(|i| (format!("{ascii}{i}"), json!(i))).collect();
        let structured = json!({"ok": true, "nested": nested, "big": big, "wide": wide});
        let r = ToolResult::text(big.clone()).with_structured(structured);
        let p = iframe_payload(&ascii, &json!({"q": big, "wide": wide}), &r);
        prop_assert!(p.json.len() <= IFRAME_MAX_BYTES);
        let back: Value = serde_json::from_str(&p.json).unwrap();
        let (mut strings, mut arrays) = (Vec::new(), Vec::new());
        walk(&back, &mut strings, &mut arrays);
        prop_assert!(strings.iter().all(|s| utf16_len(s) <= IFRAME_MAX_STRING_CHARS));
        prop_assert_eq!(&back["toolName"], &json!(ascii));
        prop_assert_eq!(&back["structuredContent"]["ok"], &json!(true));
        prop_assert_eq!(back.get("truncated").is_some(), !p.cuts.is_empty());
        if emoji * 4 > IFRAME_MAX_STRING_CHARS || depth > 120 {
            prop_assert!(back.get("truncated").is_some());
        }
    }
}

/// Splits `prefix… [truncated: N → M characters]` into its parts.
fn regex_lite_marker() -> impl Fn(&str) -> Option<(&str, usize, usize)> {
    |o: &str| {
        let body = o.strip_suffix(" characters]")?;
        let at = body.rfind("… [truncated: ")?;
        let (prefix, rest) = body.split_at(at);
        let rest = rest.strip_prefix("… [truncated: ")?;
        let (a, b) = rest.split_once(" → ")?;
        Some((prefix, a.parse().ok()?, b.parse().ok()?))
    }
}

#[test]
fn long_text_is_clipped_with_marker() {
    let r = ToolResult::text("é".repeat(50_000))
        .with_structured(json!({"rows": vec![json!({"a": 1}); 10_000]}));
    let caps = BoundCaps {
        text_chars: 8_000,
        ..BoundCaps::default()
    };
    let (b, stats) = bound_result(&r, &caps);
    let Content::Blocks(blocks) = &b.content else {
        panic!("blocks")
    };
    let ContentBlock::Text(t) = &blocks[0] else {
        panic!("text")
    };
    assert!(t.text.ends_with("… [truncated: 50000 → 7961 characters]"));
    assert_eq!(utf16_len(&t.text), 7_999);
    assert_eq!(
        b.structured_content.unwrap()["rows"]
            .as_array()
            .unwrap()
            .len(),
        200
    );
    assert_eq!(stats.items_dropped, 9_800);
    let bound = &b.meta.unwrap()["neuralis"]["bound"];
    assert_eq!(bound["textClipped"], 1);
    assert_eq!(bound["at"][0]["pointer"], "/content/0/text");
    assert_eq!(bound["at"][1]["pointer"], "/structuredContent/rows");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn owned_bounding_matches_borrowed(raw in raw_result(), caps in caps()) {
        let (r, _) = normalize_result(raw);
        let (borrowed, _) = bound_result(&r, &caps);
        let (owned, _) = bound_result_owned(r, &caps);
        prop_assert_eq!(&owned, &borrowed);
        let (again, stats) = bound_result_owned(borrowed.clone(), &caps);
        prop_assert_eq!(again, borrowed);
        prop_assert!(stats.is_empty());
    }
}
