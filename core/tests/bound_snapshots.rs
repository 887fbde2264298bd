//! Bounding pinned to fixed outputs, in `tests/snapshots/bound/*.json` (one case a line).
//!
//! The cases are a seeded sample of the generated inputs the engine was once compared
//! against an oracle with (the engine as it was before plans, issue 19), picked to cover
//! every kind of cut in every part of a result; the outputs are what that oracle produced
//! for them, byte for byte (document order included). Each result case is also bounded
//! by value (`bound_result_owned`, the dispatch funnel's in-place path), which must give
//! the same bytes and counts, and bounded again, which must change nothing.
//!
//! - `results`: `bound_result` over normalized, untrusted results (content blocks of
//!   every kind, string content, `_meta` with an earlier bound record, deep nesting);
//! - `values`: `bound_value`;
//! - `budgets`: eight hand-written values at every `structured_bytes` from 0 to past
//!   their size, in runs of budgets that give the same output;
//! - `large`: results of tens to hundreds of kilobytes cut at a fraction of their size
//!   (the output by its length and FNV-1a hash);
//! - `iframe`: `iframe_payload` (by its length, hash, member sizes and `truncated`).
//!
//! `SNAPSHOTS=overwrite cargo test -p neuralis-core --test bound_snapshots` rewrites the
//! outputs from the inputs; review the diff: an intended change to bounding shows there.

#![allow(clippy::unwrap_used, reason = "tests")]

use std::fmt::Write as _;
use std::path::PathBuf;

use neuralis_core::result::{
    BoundCaps, Tally, ToolResult, bound_result, bound_result_owned, bound_value, iframe_payload,
};
use serde::Deserialize;
use serde_json::{Map, Value, json};

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/snapshots/bound/{name}.json"))
}

fn overwrite() -> bool {
    std::env::var_os("SNAPSHOTS").is_some_and(|v| v == "overwrite")
}

/// JSON text read without serde_json's nesting limit (some inputs nest 130 levels).
fn parse(text: &str) -> Value {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    Value::deserialize(&mut de).unwrap()
}

fn read(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(path(name)).unwrap();
    match parse(&text) {
        Value::Array(cases) => cases,
        _ => panic!("{name}: an array of cases"),
    }
}

fn write(name: &str, cases: &[Value]) {
    let mut text = String::from("[\n");
    for (i, c) in cases.iter().enumerate() {
        let sep = if i + 1 < cases.len() { "," } else { "" };
        writeln!(text, "{c}{sep}").unwrap();
    }
    text.push_str("]\n");
    std::fs::write(path(name), text).unwrap();
}

/// The caps of a case (`null`: no cap).
fn caps(v: &Value) -> BoundCaps {
    let cap = |k: &str| {
        v[k].as_u64()
            .map_or(usize::MAX, |n| usize::try_from(n).unwrap())
    };
    BoundCaps {
        text_chars: cap("text_chars"),
        array_len: cap("array_len"),
        string_chars: cap("string_chars"),
        structured_bytes: cap("structured_bytes"),
        blob_bytes: cap("blob_bytes"),
    }
}

/// What a bounding cut, in the form of `_meta.neuralis.bound`: the non-zero counts,
/// `cuts` (all of them) and `at` (the listed ones).
fn stats(t: &Tally) -> Value {
    let mut m = Map::new();
    for (name, n) in [
        ("stringsClipped", t.strings_clipped),
        ("arraysShrunk", t.arrays_shrunk),
        ("itemsDropped", t.items_dropped),
        ("membersDropped", t.members_dropped),
        ("depthDropped", t.depth_dropped),
        ("textClipped", t.text_clipped),
        ("blocksDropped", t.blocks_dropped),
        ("blobsDropped", t.blobs_dropped),
    ] {
        if n > 0 {
            m.insert(name.into(), json!(n));
        }
    }
    m.insert("cuts".into(), json!(t.total_cuts));
    m.insert("at".into(), serde_json::to_value(&t.cuts).unwrap());
    Value::Object(m)
}

/// The wire bytes, in document order (`Value` equality ignores the order of members).
fn text(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).unwrap()
}

fn fnv(bytes: &[u8]) -> String {
    let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{h:016x}")
}

/// Compares (or, overwriting, replaces) `case[key]` with what was computed.
fn pin(name: &str, i: usize, case: &mut Value, key: &str, got: Value) {
    if overwrite() {
        case[key] = got;
    } else {
        assert_eq!(
            text(&got),
            text(&case[key]),
            "{name}.json case {i}: {key} differs (SNAPSHOTS=overwrite rewrites it)"
        );
    }
}

fn finish(name: &str, cases: &[Value]) {
    if overwrite() {
        write(name, cases);
    }
}

#[test]
fn results() {
    let mut cases = read("results");
    for (i, case) in cases.iter_mut().enumerate() {
        let r: ToolResult = serde_json::from_value(case["input"].clone()).unwrap();
        let caps = caps(&case["caps"]);
        let (out, cut) = bound_result(&r, &caps);
        pin(
            "results",
            i,
            case,
            "output",
            serde_json::to_value(&out).unwrap(),
        );
        pin("results", i, case, "stats", stats(&cut));

        let (owned, owned_cut) = bound_result_owned(r, &caps);
        assert_eq!(text(&owned), text(&out), "results.json case {i}: in place");
        assert_eq!(owned_cut, cut, "results.json case {i}: in place");
        let (again, again_cut) = bound_result_owned(owned, &caps);
        assert_eq!(text(&again), text(&out), "results.json case {i}: again");
        assert!(again_cut.is_empty(), "results.json case {i}: again");
        let (copy_again, copy_again_cut) = bound_result(&out, &caps);
        assert_eq!(
            text(&copy_again),
            text(&out),
            "results.json case {i}: again"
        );
        assert!(copy_again_cut.is_empty(), "results.json case {i}: again");
    }
    finish("results", &cases);
}

#[test]
fn values() {
    let mut cases = read("values");
    for (i, case) in cases.iter_mut().enumerate() {
        let (out, cut) = bound_value(&case["input"], &caps(&case["caps"]));
        pin("values", i, case, "output", out);
        pin("values", i, case, "stats", stats(&cut));
    }
    finish("values", &cases);
}

#[test]
fn budgets() {
    let mut cases = read("budgets");
    for (i, case) in cases.iter_mut().enumerate() {
        let v = case["input"].clone();
        let size = text(&v).len();
        let mut runs: Vec<Value> = Vec::new();
        for structured_bytes in 0..=size + 2 {
            let caps = BoundCaps {
                structured_bytes,
                ..caps(&case["caps"])
            };
            let r = ToolResult::text("x").with_structured(v.clone());
            let (out, cut) = bound_result(&r, &caps);
            let (owned, owned_cut) = bound_result_owned(r, &caps);
            assert_eq!(text(&owned), text(&out), "budgets.json case {i}");
            assert_eq!(owned_cut, cut, "budgets.json case {i}");
            let run = json!({"output": out.structured_content, "stats": stats(&cut)});
            match runs.last_mut() {
                Some(last)
                    if text(&last["output"]) == text(&run["output"])
                        && last["stats"] == run["stats"] =>
                {
                    last["budgets"][1] = json!(structured_bytes);
                }
                _ => {
                    let mut run = run;
                    run["budgets"] = json!([structured_bytes, structured_bytes]);
                    runs.push(run);
                }
            }
        }
        pin("budgets", i, case, "runs", Value::Array(runs));
    }
    finish("budgets", &cases);
}

#[test]
fn large() {
    let mut cases = read("large");
    for (i, case) in cases.iter_mut().enumerate() {
        let items = case["items"].as_array().unwrap().clone();
        let copies = usize::try_from(case["copies"].as_u64().unwrap()).unwrap();
        let rows: Vec<Value> = items
            .iter()
            .cycle()
            .take(items.len() * copies)
            .cloned()
            .collect();
        let structured = json!({"ok": true, "count": rows.len(), "rows": rows,
            "nested": {"more": items, "note": "é😀".repeat(copies)}});
        let caps = caps(&case["caps"]);
        let r = ToolResult::text("x").with_structured(structured);
        let (out, cut) = bound_result(&r, &caps);
        let wire = text(&out);
        pin(
            "large",
            i,
            case,
            "output",
            json!({"bytes": wire.len(), "fnv1a64": fnv(wire.as_bytes())}),
        );
        pin("large", i, case, "stats", stats(&cut));
        let (owned, owned_cut) = bound_result_owned(r, &caps);
        assert_eq!(text(&owned), wire, "large.json case {i}: in place");
        assert_eq!(owned_cut, cut, "large.json case {i}: in place");
    }
    finish("large", &cases);
}

#[test]
fn iframe() {
    let mut cases = read("iframe");
    for (i, case) in cases.iter_mut().enumerate() {
        let n = |k: &str| usize::try_from(case[k].as_u64().unwrap()).unwrap();
        let (big, keys, key_len) = (n("big"), n("keys"), n("key_len"));
        let long = "😀\u{1}\"".repeat(big);
        let wide: Map<String, Value> = (0..keys).map(|i| (format!("k{i}"), json!(i))).collect();
        let mut s = json!({"ok": true, "v": case["structured"], "long": long, "wide": wide});
        s["k".repeat(key_len)] = json!(1);
        let r = ToolResult::text(long.clone()).with_structured(s);
        let p = iframe_payload("t", &json!({"q": case["input"], "long": long}), &r);
        let members: Map<String, Value> = p
            .value
            .as_object()
            .unwrap()
            .iter()
            .filter(|(k, _)| k.as_str() != "truncated")
            .map(|(k, v)| (k.clone(), json!(text(v).len())))
            .collect();
        let payload = json!({"bytes": p.json.len(), "fnv1a64": fnv(p.json.as_bytes()),
            "members": members, "truncated": p.value.get("truncated")});
        pin("iframe", i, case, "payload", payload);
        pin("iframe", i, case, "stats", stats(&p.cuts));
    }
    finish("iframe", &cases);
}
