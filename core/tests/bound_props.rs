//! Properties of bounding over generated results: the copy (`bound_result`) and the
//! in-place path (`bound_result_owned`) give the same bytes (document order included)
//! and the same counts; a bounded result is within every cap and bounding it again
//! changes nothing; what is kept is the input's own data (no placeholder: members under
//! their keys, array items in their order, strings whole or a prefix with the marker),
//! and a container's `structuredContent` is kept whenever `{}` or `[]` fits.
//!
//! The JSON generators are `result_props.rs`'s (`common/json_gen.rs`); the results here
//! add block `_meta` and annotations, `_meta.neuralis` with an earlier bound record,
//! values nested past the 127 levels a value keeps, uncapped caps.

#![allow(clippy::unwrap_used, reason = "tests")]

use neuralis_core::result::{
    BoundCaps, Content, ContentBlock, ToolResult, bound_result, bound_result_owned, bound_value,
    normalize_result, utf16_len,
};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

#[path = "common/json_gen.rs"]
mod json_gen;
use json_gen::{json_value, leaf, text};

/// A value nested about 127 levels deep, where containers are dropped.
fn deep_value() -> impl Strategy<Value = Value> {
    (
        json_value(),
        118usize..132,
        prop::collection::vec(json_value(), 0..3),
    )
        .prop_map(|(leaf, depth, siblings)| {
            let mut v = leaf;
            for i in 0..depth {
                v = if i % 3 == 0 {
                    let mut items = siblings.clone();
                    items.insert(0, v);
                    Value::Array(items)
                } else {
                    let mut m = Map::new();
                    m.insert("a".into(), siblings.first().cloned().unwrap_or(Value::Null));
                    m.insert("d".into(), v);
                    Value::Object(m)
                };
            }
            v
        })
}

fn any_value() -> impl Strategy<Value = Value> {
    prop_oneof![6 => json_value(), 1 => deep_value()]
}

fn block() -> impl Strategy<Value = Value> {
    prop_oneof![
        (text(), prop::option::of(json_value())).prop_map(|(t, meta)| {
            let mut b = json!({"type": "text", "text": t});
            if let Some(meta) = meta {
                b["_meta"] = json!({"m": meta});
            }
            b
        }),
        ("[A-Za-z0-9+/]{0,120}", "image/(png|jpeg)")
            .prop_map(|(d, m)| json!({"type": "image", "data": d, "mimeType": m})),
        ("[A-Za-z0-9+/]{0,40}", prop::collection::vec(text(), 0..6)).prop_map(
            |(d, audience)| json!({"type": "audio", "data": d, "mimeType": "audio/wav",
                "annotations": {"audience": audience, "lastModified": "2025-01-01T00:00:00Z"}})
        ),
        (text(), text(), prop::option::of(json_value())).prop_map(|(u, t, meta)| {
            let mut b = json!({"type": "resource", "resource": {"uri": u, "text": t, "mimeType": "text/plain"}});
            if let Some(meta) = meta {
                b["resource"]["_meta"] = json!({"r": meta.clone()});
                b["_meta"] = json!({"b": meta});
            }
            b
        }),
        (text(), "[A-Za-z0-9+/]{0,60}")
            .prop_map(|(u, d)| json!({"type": "resource", "resource": {"uri": u, "blob": d}})),
        text().prop_map(|u| json!({"type": "resource_link", "uri": u, "name": "n"})),
        Just(json!({"type": "hologram"})),
        leaf(),
    ]
}

/// `_meta`, sometimes with the toolkit's own namespace and an earlier bound record.
fn meta() -> impl Strategy<Value = Value> {
    (
        json_value(),
        prop::option::of(json_value()),
        prop::option::of((0u64..40, 0u64..5)),
    )
        .prop_map(|(base, own, bound)| {
            let mut m = match base {
                Value::Object(m) => m,
                other => {
                    let mut m = Map::new();
                    m.insert("x".into(), other);
                    m
                }
            };
            if own.is_some() || bound.is_some() {
                let mut n = match own {
                    Some(Value::Object(n)) => n,
                    Some(other) => {
                        let mut n = Map::new();
                        n.insert("trace".into(), other);
                        n
                    }
                    None => Map::new(),
                };
                if let Some((cuts, items)) = bound {
                    n.insert(
                        "bound".into(),
                        json!({"itemsDropped": items, "cuts": cuts, "at": [
                            {"pointer": "/structuredContent/a", "kind": "array", "original": 9, "kept": 2}
                        ]}),
                    );
                }
                m.insert("neuralis".into(), Value::Object(n));
            }
            Value::Object(m)
        })
}

/// Untrusted result JSON, normalized: mostly result-shaped, sometimes anything.
fn any_result() -> impl Strategy<Value = ToolResult> {
    let shaped = (
        prop_oneof![
            prop::collection::vec(block(), 0..8).prop_map(Value::Array),
            text().prop_map(Value::String),
            leaf(),
        ],
        prop::option::of(any::<bool>()),
        prop::option::of(any_value()),
        prop::option::of(meta()),
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
    prop_oneof![6 => shaped, 1 => json_value()].prop_map(|raw| normalize_result(raw).0)
}

fn cap(small: std::ops::Range<usize>) -> impl Strategy<Value = usize> {
    prop_oneof![4 => small, 1 => Just(usize::MAX)]
}

fn caps() -> impl Strategy<Value = BoundCaps> {
    (
        cap(0..200),
        cap(0..8),
        cap(0..80),
        cap(0..1500),
        cap(0..100),
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

/// The wire bytes, in document order (`Value` equality ignores the order of members).
fn wire(r: &impl serde::Serialize) -> String {
    serde_json::to_string(r).unwrap()
}

/// Whether `out` is made of `input`'s own data: the same primitives, strings whole or a
/// prefix (a clipped one ending with the marker that states both counts), members under
/// their keys in their order, array items in their order (items nested too deep go).
fn kept_from(out: &Value, input: &Value) -> bool {
    match (out, input) {
        (Value::String(o), Value::String(i)) => o == i || clipped_from(o, i),
        (Value::Array(o), Value::Array(i)) => {
            let mut rest = i.iter();
            o.iter().all(|e| rest.any(|f| kept_from(e, f)))
        }
        (Value::Object(o), Value::Object(i)) => {
            let mut rest = i.iter();
            o.iter()
                .all(|(k, e)| rest.any(|(l, f)| k == l && kept_from(e, f)))
        }
        (o, i) => o == i,
    }
}

/// Whether some form of `v` fits any budget of 2 bytes or more: `{}`, `[]`, `""`.
fn can_shrink(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Object(_) | Value::String(_))
}

/// `o` is a prefix of `i` that stops at a character boundary, or such a prefix and
/// `… [truncated: N → K characters]` with `i`'s length and the prefix's, in UTF-16 units.
fn clipped_from(o: &str, i: &str) -> bool {
    let prefix = o
        .rfind("… [truncated: ")
        .and_then(|at| {
            let (prefix, marker) = o.split_at(at);
            let expected = format!(
                "… [truncated: {} → {} characters]",
                utf16_len(i),
                utf16_len(prefix)
            );
            (marker == expected).then_some(prefix)
        })
        .unwrap_or(o);
    i.starts_with(prefix)
}

/// Every string at most `chars` UTF-16 units, every array at most `items` long, nothing
/// nested deeper than 127 levels (the value is at level `depth`).
fn within(v: &Value, chars: usize, items: usize, depth: usize) -> bool {
    match v {
        Value::String(s) => utf16_len(s) <= chars,
        Value::Array(a) => {
            depth <= 127 && a.len() <= items && a.iter().all(|e| within(e, chars, items, depth + 1))
        }
        Value::Object(m) => depth <= 127 && m.values().all(|e| within(e, chars, items, depth + 1)),
        _ => true,
    }
}

/// A map bounded as one value: within the string and array caps and `structured_bytes`
/// (a map is at least `{}`).
fn map_within(m: &Map<String, Value>, caps: &BoundCaps) -> bool {
    let v = Value::Object(m.clone());
    within(&v, caps.string_chars, caps.array_len, 1)
        && wire(&v).len() <= caps.structured_bytes.max(2)
}

fn assert_within_caps(r: &ToolResult, caps: &BoundCaps) {
    let text_ok = |s: &str| utf16_len(s) <= caps.string_chars;
    let mut text = 0;
    match &r.content {
        Content::Text(t) => text = utf16_len(t),
        Content::Blocks(blocks) => {
            assert!(blocks.len() <= caps.array_len);
            for b in blocks {
                let (annotations, meta) = match b {
                    ContentBlock::Text(t) => {
                        text += utf16_len(&t.text);
                        (&t.annotations, &t.meta)
                    }
                    ContentBlock::Image(x) | ContentBlock::Audio(x) => {
                        assert!(x.data.len() <= caps.blob_bytes && text_ok(&x.mime_type));
                        (&x.annotations, &x.meta)
                    }
                    ContentBlock::Resource(e) => {
                        let res = &e.resource;
                        text += res.text.as_deref().map_or(0, utf16_len);
                        assert!(res.blob.as_ref().is_none_or(|b| b.len() <= caps.blob_bytes));
                        assert!(text_ok(&res.uri) && res.mime_type.as_deref().is_none_or(text_ok));
                        assert!(res.meta.as_ref().is_none_or(|m| map_within(m, caps)));
                        (&e.annotations, &e.meta)
                    }
                };
                if let Some(a) = annotations {
                    let audience = a.audience.as_deref().unwrap_or_default();
                    assert!(audience.len() <= caps.array_len);
                    assert!(audience.iter().all(|s| text_ok(s)));
                    assert!(a.last_modified.as_deref().is_none_or(text_ok));
                }
                assert!(meta.as_ref().is_none_or(|m| map_within(m, caps)));
            }
        }
    }
    assert!(text <= caps.text_chars, "{text} > {}", caps.text_chars);
    if let Some(s) = &r.structured_content {
        assert!(within(s, caps.string_chars, caps.array_len, 1));
        assert!(wire(s).len() <= caps.structured_bytes);
    }
    // `_meta` and its namespace are bounded apart, each without its own subtree.
    if let Some(meta) = &r.meta {
        let mut meta = meta.clone();
        if let Some(Value::Object(mut own)) = meta.remove("neuralis") {
            own.shift_remove("bound");
            assert!(map_within(&own, caps), "{own:?}");
        }
        assert!(map_within(&meta, caps), "{meta:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn copy_and_in_place_give_the_same_bytes_and_counts(r in any_result(), caps in caps()) {
        let (copy, cut) = bound_result(&r, &caps);
        let (owned, owned_cut) = bound_result_owned(r, &caps);
        prop_assert_eq!(wire(&owned), wire(&copy));
        prop_assert_eq!(owned_cut, cut);
    }

    #[test]
    fn bounded_results_are_within_every_cap_and_stay_as_they_are(
        r in any_result(),
        caps in caps(),
    ) {
        let (once, _) = bound_result_owned(r, &caps);
        assert_within_caps(&once, &caps);
        let (copy, cut) = bound_result(&once, &caps);
        prop_assert_eq!(wire(&copy), wire(&once));
        prop_assert!(cut.is_empty());
        let (owned, cut) = bound_result_owned(once.clone(), &caps);
        prop_assert_eq!(wire(&owned), wire(&once));
        prop_assert!(cut.is_empty());
    }

    #[test]
    fn what_is_kept_is_the_inputs_own_data(r in any_result(), caps in caps()) {
        let (b, _) = bound_result(&r, &caps);
        match (&b.structured_content, &r.structured_content) {
            (Some(o), Some(i)) => prop_assert!(kept_from(o, i), "{o} from {i}"),
            (None, Some(i)) => prop_assert!(
                caps.structured_bytes < 2 || !can_shrink(i),
                "{i} dropped"
            ),
            (Some(o), None) => prop_assert!(false, "{o} from nothing"),
            (None, None) => {}
        }
        let (Some(o), Some(i)) = (&b.meta, &r.meta) else {
            return Ok(());
        };
        let (mut o, mut i) = (o.clone(), i.clone());
        for m in [&mut o, &mut i] {
            if let Some(Value::Object(own)) = m.get_mut("neuralis") {
                own.shift_remove("bound");
            }
        }
        // the namespace moves last
        let o: Map<String, Value> = o.into_iter().filter(|(k, _)| k != "neuralis").collect();
        let own = (b.meta.as_ref().unwrap().get("neuralis"), i.shift_remove("neuralis"));
        prop_assert!(kept_from(&Value::Object(o), &Value::Object(i)));
        // (a namespace that is no object is bounded as any member, then replaced by the
        // record's object)
        if let (Some(Value::Object(o)), Some(i @ Value::Object(_))) = own {
            let mut o = o.clone();
            o.shift_remove("bound");
            prop_assert!(kept_from(&Value::Object(o), &i));
        }
    }

    #[test]
    fn values_are_bounded_within_their_caps_from_their_own_data(
        v in any_value(),
        caps in caps(),
    ) {
        let (out, cut) = bound_value(&v, &caps);
        if out.is_null() && !v.is_null() {
            // only when not even `{}`, `[]`, `""` or the primitive itself fits
            prop_assert!(
                caps.structured_bytes < 2
                    || (!can_shrink(&v) && wire(&v).len() > caps.structured_bytes),
                "{v} dropped ({cut:?})"
            );
            return Ok(());
        }
        prop_assert!(within(&out, caps.string_chars, caps.array_len, 1));
        prop_assert!(wire(&out).len() <= caps.structured_bytes);
        prop_assert!(kept_from(&out, &v));
        let (again, cut) = bound_value(&out, &caps);
        prop_assert_eq!(wire(&again), wire(&out));
        prop_assert!(cut.is_empty());
    }
}

proptest! {
    // Each case bounds its value hundreds of times: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Every budget from nothing to past the size, so each boundary of each measure is
    /// crossed (a measure off by one byte shows here).
    #[test]
    fn every_budget_fits_in_place_as_in_the_copy(
        v in json_value(),
        (array_len, string_chars) in prop_oneof![
            Just((usize::MAX, usize::MAX)),
            Just((2, 1)),
            Just((1, 0)),
            (0usize..4, 0usize..40)
        ],
    ) {
        let size = wire(&v).len();
        for structured_bytes in 0..=size + 2 {
            let caps = BoundCaps { structured_bytes, array_len, string_chars, ..BoundCaps::default() };
            let r = ToolResult::text("x").with_structured(v.clone());
            let (copy, cut) = bound_result(&r, &caps);
            let (owned, owned_cut) = bound_result_owned(r, &caps);
            prop_assert_eq!(wire(&owned), wire(&copy));
            prop_assert_eq!(owned_cut, cut);
            if let Some(s) = &copy.structured_content {
                prop_assert!(wire(s).len() <= structured_bytes);
                prop_assert!(kept_from(s, &v));
            }
        }
    }
}

proptest! {
    // Each case builds up to megabytes: few cases.
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Results up to megabytes long, cut at a fraction of their size.
    #[test]
    fn large_results_are_cut_in_place_as_in_the_copy(
        items in prop::collection::vec(json_value(), 1..40),
        copies in 1usize..400,
        fraction in 1usize..12,
        array_len in cap(1..500),
        string_chars in cap(0..40),
    ) {
        let rows: Vec<Value> = items.iter().cycle().take(items.len() * copies).cloned().collect();
        let structured = json!({"ok": true, "count": rows.len(), "rows": rows,
            "nested": {"more": items, "note": "é😀".repeat(copies)}});
        let size = wire(&structured).len();
        let caps = BoundCaps {
            array_len,
            string_chars,
            structured_bytes: size * fraction / 12,
            ..BoundCaps::default()
        };
        let r = ToolResult::text("x").with_structured(structured);
        let (copy, cut) = bound_result(&r, &caps);
        let (owned, owned_cut) = bound_result_owned(r, &caps);
        prop_assert_eq!(wire(&owned), wire(&copy));
        prop_assert_eq!(owned_cut, cut);
        assert_within_caps(&owned, &caps);
        // the primitives stay
        let s = owned.structured_content.unwrap();
        prop_assert_eq!(&s["ok"], &json!(true));
    }
}
