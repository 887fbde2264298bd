//! Bounding while serializing (`bound_typed`) against bounding the whole value: a typed
//! value bounded as it is serialized gives the `structuredContent` that bounding
//! `ToolResult::json(value)` gives (wrapped under `result` or not), with the same cuts and
//! counts; its text is valid JSON that never holds more than `structuredContent` (the JSON
//! of it when it fits), a marker block says what was left out, the whole stays within the
//! caps, and bounding it again changes nothing.
//!
//! The values are `result_props.rs`'s JSON (`common/json_gen.rs`, serialized through
//! `Value`'s own `Serialize`), values nested past 127 levels, and Rust types that reach
//! every form serde writes: structs, `Option`, every kind of enum variant, maps with
//! integer keys, tuples, `char`, bytes, sequences of unknown length, and a key written
//! twice (which falls back to the whole value).

#![allow(clippy::unwrap_used, reason = "tests")]

use std::collections::BTreeMap;

use neuralis_core::result::{
    BoundCaps, BoundStats, Content, ContentBlock, MARKER_RESERVE, ToolResult, TypedBound,
    bound_result, bound_typed, utf16_len,
};
use proptest::prelude::*;
use serde::Serialize;
use serde::ser::SerializeSeq as _;
use serde_json::{Map, Value, json};

#[path = "common/json_gen.rs"]
mod json_gen;
use json_gen::{json_value, text};

/// A value nested about 127 levels deep, where containers are dropped.
fn deep_value() -> impl Strategy<Value = Value> {
    (json_value(), 118usize..132).prop_map(|(leaf, depth)| {
        let mut v = leaf;
        for i in 0..depth {
            v = if i % 2 == 0 {
                Value::Array(vec![v, Value::from(i)])
            } else {
                let mut m = Map::new();
                m.insert("d".into(), v);
                m.insert("n".into(), Value::from(i));
                Value::Object(m)
            };
        }
        v
    })
}

/// Many items and long strings, so the caps cut.
fn wide_value() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(json_value(), 0..300),
        "[a-z😀]{0,400}",
        any::<bool>(),
    )
        .prop_map(|(items, s, ok)| json!({"ok": ok, "note": s, "items": items}))
}

fn any_value() -> impl Strategy<Value = Value> {
    prop_oneof![6 => json_value(), 2 => wide_value(), 1 => deep_value()]
}

fn cap(small: std::ops::Range<usize>) -> impl Strategy<Value = usize> {
    prop_oneof![4 => small, 1 => Just(usize::MAX)]
}

fn caps() -> impl Strategy<Value = BoundCaps> {
    prop_oneof![
        1 => Just(BoundCaps::default()),
        4 => (cap(0..2000), cap(0..8), cap(0..80), cap(0..1500)).prop_map(
            |(text_chars, array_len, string_chars, structured_bytes)| BoundCaps {
                text_chars,
                array_len,
                string_chars,
                structured_bytes,
                ..BoundCaps::default()
            },
        ),
    ]
}

/// The wire bytes, in document order (`Value` equality ignores the order of members).
fn wire(v: &impl Serialize) -> String {
    serde_json::to_string(v).unwrap()
}

/// What bounding the whole value gives today: `ToolResult::json`, wrapped as the
/// pipeline wraps an output that is not an object, then `bound_result`.
fn whole(v: &Value, wrapped: bool) -> ToolResult {
    let mut r = ToolResult::json(v.clone());
    if wrapped && let Some(s) = r.structured_content.take() {
        r.structured_content = Some(json!({ "result": s }));
    }
    r
}

/// The cuts of `structuredContent`: its counts, and the places listed.
fn structured_cuts(stats: &BoundStats) -> (Vec<usize>, Vec<String>, usize) {
    let counts = vec![
        stats.strings_clipped,
        stats.arrays_shrunk,
        stats.items_dropped,
        stats.members_dropped,
        stats.depth_dropped,
    ];
    let places = stats
        .cuts
        .iter()
        .filter(|c| c.pointer.starts_with("/structuredContent"))
        .map(|c| format!("{} {:?} {} {}", c.pointer, c.kind, c.original, c.kept))
        .collect();
    let content = stats
        .cuts
        .iter()
        .filter(|c| c.pointer.starts_with("/content"))
        .count();
    (counts, places, stats.total_cuts - content)
}

fn texts(r: &ToolResult) -> Vec<String> {
    match &r.content {
        Content::Text(t) => vec![t.clone()],
        Content::Blocks(b) => b
            .iter()
            .filter_map(|b| match b {
                ContentBlock::Text(t) => Some(t.text.clone()),
                _ => None,
            })
            .collect(),
    }
}

/// Checks `bound_typed(value)` against the whole value's bounding, and its text.
fn check<T: Serialize>(value: &T, caps: &BoundCaps, wrapped: bool) -> Result<(), TestCaseError> {
    let v = serde_json::to_value(value).unwrap();
    let how = TypedBound {
        caps: *caps,
        wrapped,
        more: Some("cursor"),
        more_from: None,
    };
    let (typed, stats) = bound_typed(value, &how);
    let (expected, expected_stats) = bound_result(&whole(&v, wrapped), caps);

    // `structuredContent`, byte for byte, and its cuts.
    prop_assert_eq!(
        typed.structured_content.as_ref().map(wire),
        expected.structured_content.as_ref().map(wire)
    );
    let (counts, places, total) = structured_cuts(&stats);
    let (e_counts, e_places, e_total) = structured_cuts(&expected_stats);
    prop_assert_eq!(counts, e_counts);
    if stats.cuts.len() == stats.total_cuts
        && expected_stats.cuts.len() == expected_stats.total_cuts
    {
        prop_assert_eq!(total, e_total);
    }
    let n = places.len().min(e_places.len());
    prop_assert_eq!(&places[..n], &e_places[..n]);

    // The text: JSON, never more than `structuredContent`, then the marker.
    let texts = texts(&typed);
    let units: usize = texts.iter().map(|t| utf16_len(t)).sum();
    prop_assert!(units <= caps.text_chars, "{units} units of text");
    let (json_text, marker) = match texts.last() {
        Some(last) if last.starts_with("… [truncated") => {
            prop_assert!(!stats.is_empty() || texts.len() == 1);
            prop_assert!(utf16_len(last) <= MARKER_RESERVE);
            (texts.len().checked_sub(2).map(|i| texts[i].clone()), true)
        }
        _ => (texts.first().cloned(), false),
    };
    let shown = typed.structured_content.as_ref().map(|s| {
        if wrapped {
            s.get("result").cloned().unwrap_or(Value::Null)
        } else {
            s.clone()
        }
    });
    if let Some(json_text) = &json_text {
        let parsed: Value = serde_json::from_str(json_text)
            .map_err(|e| TestCaseError::fail(format!("not JSON ({e}): {json_text}")))?;
        if stats.is_empty() {
            // Nothing left out: the text is the JSON of what is sent.
            prop_assert_eq!(Some(parsed), shown.clone().or(Some(Value::Null)));
        } else if let Some(shown) = &shown {
            prop_assert!(within(&parsed, shown), "{json_text} is not within {shown}");
        }
    }
    // Caps with room for the marker's block and its text.
    if !stats.is_empty() && caps.array_len >= 2 && caps.text_chars >= MARKER_RESERVE {
        prop_assert!(
            marker,
            "cuts without a marker: {:?} in {}",
            texts,
            wire(&typed)
        );
        prop_assert!(texts.last().is_some_and(|m| m.contains("`cursor`")));
    }

    // What the pipeline does next changes nothing.
    let (again, again_stats) = bound_result(&typed, caps);
    prop_assert_eq!(wire(&again), wire(&typed));
    prop_assert!(again_stats.is_empty());
    Ok(())
}

/// Whether `part` is `whole` or a bounded form of it: array prefixes, members kept under
/// their keys, strings whole or a prefix with a marker.
fn within(part: &Value, whole: &Value) -> bool {
    match (part, whole) {
        (Value::Array(p), Value::Array(w)) => {
            p.len() <= w.len() && p.iter().zip(w).all(|(p, w)| within(p, w))
        }
        (Value::Object(p), Value::Object(w)) => p
            .iter()
            .all(|(k, p)| w.get(k).is_some_and(|w| within(p, w))),
        (Value::String(p), Value::String(w)) => {
            p == w || {
                let head = p.split("… [truncated: ").next().unwrap_or("");
                w.starts_with(head)
            }
        }
        (p, w) => p == w,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn json_values_bound_as_the_whole_value(v in any_value(), caps in caps(), wrapped in any::<bool>()) {
        check(&v, &caps, wrapped)?;
    }
}

/// A `null` result where its text does not fit: no text, not a clipped `n` (found by the
/// property above).
#[test]
fn a_null_without_room_for_its_text_has_none() {
    let caps = BoundCaps {
        text_chars: 1,
        array_len: 1,
        string_chars: 0,
        structured_bytes: 0,
        ..BoundCaps::default()
    };
    for wrapped in [false, true] {
        check(&Value::Null, &caps, wrapped).expect("bounded as the whole value");
    }
    let (r, stats) = bound_typed(
        &(),
        &TypedBound {
            caps,
            ..TypedBound::default()
        },
    );
    assert!(texts(&r).is_empty(), "{r:?}");
    assert_eq!(stats.text_clipped, 1);
}

/// Every form serde writes.
#[derive(Debug, Clone, Serialize)]
struct Report {
    ok: bool,
    title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    entries: Vec<Entry>,
    by_id: BTreeMap<u32, String>,
    pair: (i64, char),
    unit: (),
    raw: Bytes,
    lazy: Lazy,
    #[serde(flatten)]
    extra: BTreeMap<String, i32>,
    events: Vec<Event>,
    adjacent: Option<Adjacent>,
}

/// Internally tagged (written as a map with the tag first).
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Event {
    Opened { by: String },
    Closed { by: String, reasons: Vec<String> },
    Noted(BTreeMap<String, String>),
}

/// Adjacently tagged.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Count(u32),
    Names(Vec<String>),
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "snake_case")]
enum Entry {
    Plain,
    Id(u64),
    Moved { from: String, to: String },
    Range(i32, i32),
    Tagged(Box<Entry>),
}

#[derive(Debug, Clone)]
struct Bytes(Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

/// A sequence of unknown length (`serialize_seq(None)`).
#[derive(Debug, Clone)]
struct Lazy(Vec<f64>);

impl Serialize for Lazy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for x in self.0.iter().filter(|x| x.is_finite()) {
            seq.serialize_element(x)?;
        }
        seq.end()
    }
}

fn entry() -> impl Strategy<Value = Entry> {
    let leaf = prop_oneof![
        Just(Entry::Plain),
        any::<u64>().prop_map(Entry::Id),
        (text(), text()).prop_map(|(from, to)| Entry::Moved { from, to }),
        (any::<i32>(), any::<i32>()).prop_map(|(a, b)| Entry::Range(a, b)),
    ];
    leaf.prop_recursive(3, 8, 1, |inner| {
        inner.prop_map(|e| Entry::Tagged(Box::new(e)))
    })
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        text().prop_map(|by| Event::Opened { by }),
        (text(), prop::collection::vec(text(), 0..6))
            .prop_map(|(by, reasons)| Event::Closed { by, reasons }),
        prop::collection::btree_map("[a-z]{1,4}", text(), 0..4).prop_map(Event::Noted),
    ]
}

fn adjacent() -> impl Strategy<Value = Adjacent> {
    prop_oneof![
        any::<u32>().prop_map(Adjacent::Count),
        prop::collection::vec(text(), 0..8).prop_map(Adjacent::Names),
    ]
}

fn report() -> impl Strategy<Value = Report> {
    (
        (any::<bool>(), text(), prop::option::of(text())),
        prop::collection::vec(entry(), 0..40),
        prop::collection::btree_map(any::<u32>(), text(), 0..12),
        (any::<i64>(), any::<char>()),
        prop::collection::vec(any::<u8>(), 0..20),
        prop::collection::vec(prop_oneof![Just(f64::NAN), -1e6f64..1e6], 0..30),
        (
            prop::collection::btree_map("x_[a-z]{1,3}", any::<i32>(), 0..4),
            prop::collection::vec(event(), 0..20),
            prop::option::of(adjacent()),
        ),
    )
        .prop_map(
            |((ok, title, note), entries, by_id, pair, raw, lazy, (extra, events, adjacent))| {
                Report {
                    ok,
                    title,
                    note,
                    entries,
                    by_id,
                    pair,
                    unit: (),
                    raw: Bytes(raw),
                    lazy: Lazy(lazy),
                    extra,
                    events,
                    adjacent,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn typed_values_bound_as_the_whole_value(r in report(), caps in caps(), wrapped in any::<bool>()) {
        check(&r, &caps, wrapped)?;
        // A list (an output that is not an object is wrapped) and an enum.
        check(&r.entries, &caps, true)?;
        if let Some(e) = r.entries.first() {
            check(e, &caps, true)?;
        }
    }
}

/// A map whose key comes twice: `to_value` keeps the last value at the first place, and
/// so does the fallback to the whole value.
struct Twice;

impl Serialize for Twice {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("a", &[1, 2, 3])?;
        m.serialize_entry("b", "x")?;
        m.serialize_entry("a", &[4])?;
        m.end()
    }
}

#[test]
fn what_the_sketch_does_not_mirror_is_bounded_whole() {
    let caps = BoundCaps {
        array_len: 1,
        ..BoundCaps::default()
    };
    check(&Twice, &caps, false).unwrap();
    check(&json!({"n": 1u64 << 63}), &caps, false).unwrap();
    let raw = serde_json::value::RawValue::from_string("[1, 2, 3]".into()).unwrap();
    check(&raw, &caps, true).unwrap();
    check(&vec![raw.clone(), raw], &caps, true).unwrap();
    // 128-bit integers that fit 64 bits, keys of every kind `serde_json` writes.
    check(&(1u128 << 60, -(1i128 << 62)), &caps, true).unwrap();
    let keys: BTreeMap<bool, u8> = [(true, 1), (false, 2)].into_iter().collect();
    check(&keys, &caps, false).unwrap();
    check(&FloatKeys, &caps, false).unwrap();
}

/// A map whose keys are floats (`serde_json` writes them as text).
struct FloatKeys;

impl Serialize for FloatKeys {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry(&1.5f64, "a")?;
        m.serialize_entry(&-0.25f32, "b")?;
        m.end()
    }
}

/// What `to_value` refuses, `bound_typed` refuses with the same words.
#[test]
fn what_serde_json_refuses_is_refused_alike() {
    fn same<T: Serialize>(value: &T) {
        let typed = bound_typed(value, &TypedBound::default()).0;
        let json = serde_json::to_value(value).unwrap_err();
        assert!(typed.is_error);
        assert_eq!(
            texts(&typed),
            [format!("the tool's result could not be serialized: {json}")]
        );
    }
    same(&(1u128 << 100));
    same(&(-(1i128 << 100)));
    let unit_keys: BTreeMap<(), u8> = [((), 1)].into_iter().collect();
    same(&unit_keys);
    struct NanKey;
    impl Serialize for NanKey {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap as _;
            let mut m = s.serialize_map(None)?;
            m.serialize_entry(&f64::NAN, &1)?;
            m.end()
        }
    }
    same(&NanKey);
}

/// Items that count how many of them were serialized.
struct Counted<'a>(&'a std::sync::atomic::AtomicUsize);

impl Serialize for Counted<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        s.serialize_u8(1)
    }
}

#[test]
fn an_array_is_not_walked_past_what_is_kept() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let seen = AtomicUsize::new(0);
    let items: Vec<Counted<'_>> = (0..1_000_000).map(|_| Counted(&seen)).collect();
    let (r, stats) = bound_typed(&json_items(&items), &TypedBound::default());
    // The cap's 200 items, and not one more: the `Vec`'s loop is stopped.
    assert_eq!(seen.load(Ordering::Relaxed), 200);
    assert_eq!(stats.items_dropped, 1_000_000 - 200);
    assert_eq!(
        r.structured_content.as_ref().unwrap()["items"]
            .as_array()
            .unwrap()
            .len(),
        200
    );

    // An iterator of unknown length is counted item by item, never serialized past the
    // cap either.
    seen.store(0, Ordering::Relaxed);
    let (_, stats) = bound_typed(&Unsized(&items), &TypedBound::default());
    assert_eq!(seen.load(Ordering::Relaxed), 200);
    assert_eq!(stats.items_dropped, 1_000_000 - 200);
}

fn json_items<'a, T: Serialize>(items: &'a [T]) -> impl Serialize + 'a {
    #[derive(Serialize)]
    struct Items<'a, T: Serialize> {
        items: &'a [T],
    }
    Items { items }
}

/// `serialize_seq(None)` over the items.
struct Unsized<'a, T>(&'a [T]);

impl<T: Serialize> Serialize for Unsized<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for x in self.0 {
            seq.serialize_element(x)?;
        }
        seq.end()
    }
}

#[test]
fn a_failed_serialize_is_the_error_json_gives() {
    struct Fails;
    impl Serialize for Fails {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("no clock"))
        }
    }
    let (r, stats) = bound_typed(&Fails, &TypedBound::default());
    assert!(r.is_error);
    assert_eq!(
        texts(&r),
        ["the tool's result could not be serialized: no clock"]
    );
    assert!(stats.is_empty());
}

#[test]
fn the_marker_counts_what_the_text_and_structured_content_left_out() {
    // 20,000 entries: `structuredContent` keeps 200; the text, with 1,000 characters,
    // fewer still; the marker counts against the handler's 20,000.
    let value = json!({"ok": true, "entries": (0..20_000).collect::<Vec<u32>>()});
    let how = TypedBound {
        caps: BoundCaps {
            text_chars: 1000,
            ..BoundCaps::default()
        },
        wrapped: false,
        more: Some("page"),
        more_from: None,
    };
    let (r, stats) = bound_typed(&value, &how);
    assert_eq!(stats.items_dropped, 19_800);
    let texts = texts(&r);
    let shown: Value = serde_json::from_str(&texts[0]).unwrap();
    let kept = shown["entries"].as_array().unwrap().len();
    assert!(kept < 200, "{kept}");
    assert_eq!(
        texts[1],
        format!(
            "… [truncated: {} of 20000 items left out at /entries; to get more, call again with `page`]",
            20_000 - kept
        )
    );
    assert_eq!(
        r.structured_content.as_ref().unwrap()["entries"]
            .as_array()
            .unwrap()
            .len(),
        200
    );
    let record = &r.meta.as_ref().unwrap()["neuralis"]["bound"];
    assert_eq!(record["itemsDropped"], 19_800);
    assert_eq!(record["textClipped"], 1);
    assert_eq!(record["at"][0]["pointer"], "/content/0/text");
    assert_eq!(record["at"][1]["pointer"], "/structuredContent/entries");
}

#[test]
fn a_result_that_fits_is_what_json_gives() {
    let value = json!({"ok": true, "n": [1, 2, 3], "s": "é😀"});
    let (r, stats) = bound_typed(&value, &TypedBound::default());
    assert_eq!(r, ToolResult::json(value));
    assert!(stats.is_empty());
    let (r, _) = bound_typed(&Value::Null, &TypedBound::default());
    assert_eq!(r, ToolResult::json(Value::Null));
}
