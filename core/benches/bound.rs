//! Bounding 1 MB, 10 MB and 50 MB results against `serde_json::to_vec` of the same value.
//!
//! Scenarios per size:
//! - `to_vec`: serializing the result's wire form, the yardstick;
//! - `clone`: cloning the parsed result, for reference (the floor of any full copy);
//! - `bound_default`: the default caps (output about 256 KiB, input mostly unread);
//! - `bound_half`: arrays uncapped, `structured_bytes` half the input (shrinking does
//!   real work over half the data);
//! - `bound_fits`: caps above the input, so everything is measured and copied (the
//!   worst case: a full copy);
//! - `bound_owned_fits`: the same caps through `bound_result_owned`, which hands a result
//!   already within its caps back after one read-only pass (the input clone is setup,
//!   the output dropped, both outside the timing);
//! - `bound_owned_half`: the `bound_half` caps through `bound_result_owned` (the input
//!   clone is setup and the output is dropped, both outside the timing): the dispatch
//!   funnel's path for a result that must be cut, cut in place: one measuring pass over
//!   the half kept, then freeing the half cut (issue 19's target: <= 1.5x `to_vec`);
//! - `bound_text`: a text block of the same size clipped to the default text cap;
//! - `bound_small/owned_*`: a handler's everyday result (one short text block, or small
//!   JSON with its text) through `bound_result_owned`, as the dispatch funnel bounds it.
//!
//! Run: `cargo bench -p neuralis-core --bench bound -- --warm-up-time 1 --measurement-time 3 --sample-size 10`;
//! `benches/bound_ratios.sh` runs the owned and half scenarios in rounds and prints their
//! ratios to `to_vec` (optionally beside a baseline binary).
//!
//! Count mode (`support/count.rs`, for `benches/count.sh bound ...`): size 0 is the
//! short text result, 1 the small JSON, 2 a list of content blocks of every kind (with
//! annotations and block `_meta`), 3 the 1 MB result; the scenarios are `clone` (the
//! baseline of the owned ones), `copy` and `owned` with the default caps, `copy_tight` and
//! `owned_tight` with caps that cut every part (see [`tight`]); sizes 11, 12 and 13 are
//! the 1, 10 and 100 MB typed results, with `typed_bound`, `typed_to_vec_kept`,
//! `typed_to_value_kept` and `typed_value_floor` (see [`count_typed`]).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use neuralis_core::dispatch::{IntoToolResult as _, Json};
use neuralis_core::result::{
    BoundCaps, ContentAnnotations, ContentBlock, ToolResult, TypedBound, bound_result,
    bound_result_owned, bound_typed,
};
use serde_json::{Value, json};

/// A result whose `structuredContent` serializes to about `bytes` bytes.
fn result_of(bytes: usize) -> ToolResult {
    let item = |i: usize| {
        json!({
            "id": i,
            "name": format!("item-{i}"),
            "price": 12.5,
            "active": i.is_multiple_of(2),
            "tags": ["alpha", "beta", "gamma"],
            "note": "Lorem ipsum dolor sit amet, \"quoted\" é 😀 consectetur adipiscing elit",
        })
    };
    let per_item = serde_json::to_vec(&item(100_000)).map_or(150, |v| v.len() + 1);
    let n = bytes / per_item;
    let items: Vec<Value> = (0..n).map(item).collect();
    ToolResult::text(format!("{n} items"))
        .with_structured(json!({"ok": true, "count": n, "items": items}))
}

fn bench(c: &mut Criterion) {
    for mb in [1usize, 10, 50] {
        let bytes = mb * 1_000_000;
        let result = result_of(bytes);
        let wire = result.for_ui();
        let size = serde_json::to_vec(&wire).map_or(0, |v| v.len());
        let text = ToolResult::text("é😀 lorem ipsum ".repeat(bytes / 20));

        let mut group = c.benchmark_group(format!("bound_{mb}MB"));
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_function(BenchmarkId::new("to_vec", size), |b| {
            b.iter(|| serde_json::to_vec(black_box(&wire)).map(|v| v.len()));
        });
        group.bench_function(BenchmarkId::new("clone", size), |b| {
            b.iter(|| black_box(&result).clone());
        });
        let default = BoundCaps::default();
        group.bench_function(BenchmarkId::new("bound_default", size), |b| {
            b.iter(|| bound_result(black_box(&result), &default));
        });
        let half = BoundCaps {
            array_len: usize::MAX,
            structured_bytes: size / 2,
            ..BoundCaps::default()
        };
        group.bench_function(BenchmarkId::new("bound_half", size), |b| {
            b.iter(|| bound_result(black_box(&result), &half));
        });
        group.bench_function(BenchmarkId::new("bound_owned_half", size), |b| {
            b.iter_batched(
                || result.clone(),
                |r| bound_result_owned(r, &half),
                criterion::BatchSize::LargeInput,
            );
        });
        let fits = BoundCaps {
            array_len: usize::MAX,
            structured_bytes: usize::MAX,
            ..BoundCaps::default()
        };
        group.bench_function(BenchmarkId::new("bound_fits", size), |b| {
            b.iter(|| bound_result(black_box(&result), &fits));
        });
        group.bench_function(BenchmarkId::new("bound_owned_fits", size), |b| {
            b.iter_batched(
                || result.clone(),
                |r| bound_result_owned(r, &fits),
                criterion::BatchSize::LargeInput,
            );
        });
        let text_wire = text.for_ui();
        group.bench_function(BenchmarkId::new("to_vec_text", size), |b| {
            b.iter(|| serde_json::to_vec(black_box(&text_wire)).map(|v| v.len()));
        });
        group.bench_function(BenchmarkId::new("bound_text", size), |b| {
            b.iter(|| bound_result(black_box(&text), &default));
        });
        group.finish();
    }
}

/// A handler's everyday result: one short text block, or a small JSON value with its text,
/// within the default caps (what the dispatch funnel bounds on every call).
fn bench_small(c: &mut Criterion) {
    let caps = BoundCaps::default();
    let text = ToolResult::text("5 days of metric weather for Lisbon, Portugal, hourly");
    let json = ToolResult::json(json!({
        "ok": true,
        "city": "Lisbon",
        "days": [{"day": 1, "high": 21.5, "low": 14.0, "wind": "NW 20 km/h"},
                 {"day": 2, "high": 23.0, "low": 15.5, "wind": "N 10 km/h"}],
    }));
    let mut group = c.benchmark_group("bound_small");
    for (name, r) in [("text", text), ("json", json)] {
        group.bench_function(format!("owned_{name}"), |b| {
            b.iter_batched(
                || r.clone(),
                |r| bound_result_owned(r, &caps),
                criterion::BatchSize::SmallInput,
            );
        });
    }
    group.finish();
}

/// One entry of a typed audit log (about 150 bytes of JSON).
#[derive(serde::Serialize, Clone)]
struct Entry {
    id: u64,
    actor: String,
    action: &'static str,
    at: u64,
    ok: bool,
    tags: [&'static str; 2],
}

/// A typed result: what a handler returns (`Serialize`), never a `Value`.
#[derive(serde::Serialize)]
struct Audit {
    ok: bool,
    count: usize,
    entries: Vec<Entry>,
}

/// A typed result of about `bytes` bytes of JSON.
fn audit_of(bytes: usize) -> Audit {
    let entry = |i: usize| Entry {
        id: i as u64,
        actor: format!("user-{:08}@example.org", i % 100_000),
        action: "document.export.completed",
        at: 1_764_000_000 + i as u64,
        ok: i.is_multiple_of(3),
        tags: ["audit", "export"],
    };
    let per_entry = serde_json::to_vec(&entry(100_000)).map_or(150, |v| v.len() + 1);
    let n = bytes / per_entry;
    Audit {
        ok: true,
        count: n,
        entries: (0..n).map(entry).collect(),
    }
}

/// Bounding a typed result of 1, 10 and 100 MB as it is serialized (`bound_typed`, the
/// path of a `#[tool]` returning a `ToolOutput` type) against `serde_json::to_vec` of
/// the part it keeps alone (issue 31's target: <= 1.5x), with `serde_json::to_value` of
/// the kept part for reference and, at 1 and 10 MB, the untyped path (`Json`: the whole
/// value as a `Value` and its text, then bounded).
fn bench_typed(c: &mut Criterion) {
    for mb in [1usize, 10, 100] {
        let audit = audit_of(mb * 1_000_000);
        let how = TypedBound::default();
        let (bounded, _) = bound_typed(&audit, &how);
        let kept = bounded
            .structured_content
            .as_ref()
            .map_or(0, |s| s["entries"].as_array().map_or(0, Vec::len));
        let part = Audit {
            ok: audit.ok,
            count: audit.count,
            entries: audit.entries[..kept].to_vec(),
        };
        let size = serde_json::to_vec(&part).map_or(0, |v| v.len());
        let mut group = c.benchmark_group(format!("typed_{mb}MB"));
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_function(BenchmarkId::new("to_vec_kept", size), |b| {
            b.iter(|| serde_json::to_vec(black_box(&part)).map(|v| v.len()));
        });
        group.bench_function(BenchmarkId::new("to_value_kept", size), |b| {
            b.iter(|| serde_json::to_value(black_box(&part)));
        });
        group.bench_function(BenchmarkId::new("bound_typed", size), |b| {
            b.iter(|| bound_typed(black_box(&audit), &how));
        });
        if mb <= 10 {
            let caps = BoundCaps::default();
            group.bench_function(BenchmarkId::new("untyped_whole", size), |b| {
                b.iter(|| {
                    let r = Json(black_box(&audit)).into_tool_result();
                    bound_result_owned(r, &caps)
                });
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default();
    targets = bench, bench_small, bench_typed
}

#[path = "support/count.rs"]
mod counted;

/// Content blocks of every kind, with annotations and block `_meta`, within the default
/// caps.
fn blocks() -> ToolResult {
    let annotations = ContentAnnotations {
        audience: Some(vec!["user".into(), "assistant".into()]),
        priority: Some(0.5),
        last_modified: Some("2025-01-01T00:00:00Z".into()),
    };
    let meta = json!({"trace": {"spans": [1, 2, 3], "note": "é😀 lorem ipsum"}});
    let mut blocks = Vec::new();
    for i in 0..4 {
        let mut text =
            ContentBlock::text(format!("{i}: é😀 lorem ipsum dolor sit amet ").repeat(8));
        let mut image = ContentBlock::image("QUJD".repeat(64), "image/png");
        let mut resource =
            ContentBlock::resource_text(format!("file:///notes/{i}.md"), None, "note ".repeat(40));
        for b in [&mut text, &mut image, &mut resource] {
            let (a, m) = match b {
                ContentBlock::Text(t) => (&mut t.annotations, &mut t.meta),
                ContentBlock::Image(x) | ContentBlock::Audio(x) => {
                    (&mut x.annotations, &mut x.meta)
                }
                ContentBlock::Resource(r) => (&mut r.annotations, &mut r.meta),
            };
            *a = Some(annotations.clone());
            *m = meta.as_object().cloned();
        }
        blocks.extend([text, image, resource]);
    }
    ToolResult::from_blocks(blocks).with_structured(json!({"ok": true, "count": 12}))
}

/// Caps that cut every part of the count mode's results: text, blocks, strings, blobs,
/// arrays and `structuredContent`.
fn tight() -> BoundCaps {
    BoundCaps {
        text_chars: 300,
        array_len: 6,
        string_chars: 12,
        structured_bytes: 120_000,
        blob_bytes: 200,
    }
}

/// The count mode of the typed scenarios: sizes 11, 12 and 13 are the 1, 10 and 100 MB
/// typed results; `typed_bound` bounds one as it is serialized, `typed_to_vec_kept` and
/// `typed_to_value_kept` serialize the part it keeps alone, and `typed_value_floor` does
/// both: the least a result that holds `structuredContent` as a `Value` (as
/// `ToolResult` and rmcp's `CallToolResult` do) and its text as JSON can cost.
fn count_typed(size: usize, name: &str, runs: usize) {
    let mb = match size {
        11 => 1,
        12 => 10,
        13 => 100,
        other => panic!("no size {other}"),
    };
    let audit = audit_of(mb * 1_000_000);
    let how = TypedBound::default();
    let kept = 200.min(audit.entries.len());
    let part = Audit {
        ok: audit.ok,
        count: audit.count,
        entries: audit.entries[..kept].to_vec(),
    };
    for _ in 0..runs {
        match name {
            "typed_bound" => drop(black_box(bound_typed(black_box(&audit), &how))),
            "typed_to_vec_kept" => drop(black_box(serde_json::to_vec(black_box(&part)))),
            "typed_to_value_kept" => drop(black_box(serde_json::to_value(black_box(&part)))),
            "typed_value_floor" => drop(black_box((
                serde_json::to_value(black_box(&part)),
                serde_json::to_vec(black_box(&part)),
            ))),
            other => panic!("no scenario {other}"),
        }
    }
}

/// The count mode: `runs` runs of one scenario over the result of `size`.
fn count(size: usize, name: &str, runs: usize) {
    if name.starts_with("typed_") {
        return count_typed(size, name, runs);
    }
    let result = match size {
        0 => ToolResult::text("5 days of metric weather for Lisbon, Portugal, hourly"),
        1 => ToolResult::json(json!({
            "ok": true,
            "city": "Lisbon",
            "days": [{"day": 1, "high": 21.5, "low": 14.0, "wind": "NW 20 km/h"},
                     {"day": 2, "high": 23.0, "low": 15.5, "wind": "N 10 km/h"}],
        })),
        2 => blocks(),
        3 => result_of(1_000_000),
        other => panic!("no size {other}"),
    };
    let (default, tight) = (BoundCaps::default(), tight());
    for _ in 0..runs {
        let r = black_box(&result);
        match name {
            "clone" => drop(black_box(r.clone())),
            "copy" => drop(black_box(bound_result(r, &default))),
            "owned" => drop(black_box(bound_result_owned(r.clone(), &default))),
            "copy_tight" => drop(black_box(bound_result(r, &tight))),
            "owned_tight" => drop(black_box(bound_result_owned(r.clone(), &tight))),
            other => panic!("no scenario {other}"),
        }
    }
}

fn main() {
    if let Some((size, scenario, runs)) = counted::requested() {
        return count(size, &scenario, runs);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
