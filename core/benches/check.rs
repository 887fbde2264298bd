//! The checker beside a plain `serde_json` parse of the same bytes, in the same run.
//!
//! 1,000 generated tool files (2 to 20 properties, nested objects, arrays, maps, enums,
//! descriptions, some defaults and `askOnKeys`). Compare `parse` with `check_bytes`.

#![allow(missing_docs, clippy::unwrap_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::{Value, json};

/// A small deterministic generator (no dependency, same corpus every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const WORDS: &[&str] = &[
    "item",
    "name",
    "status",
    "owner",
    "limit",
    "cursor",
    "query",
    "region",
    "label",
    "note",
    "created",
    "updated",
    "priority_level",
    "tags",
    "filter",
    "sort",
    "page",
    "format",
];

fn description(rng: &mut Lcg) -> Value {
    let n = 4 + rng.below(16) as usize;
    let words: Vec<&str> = (0..n)
        .map(|_| WORDS[rng.below(WORDS.len() as u64) as usize])
        .collect();
    Value::from(format!("The {} to use.", words.join(" ")))
}

fn property(rng: &mut Lcg, depth: u32) -> Value {
    match rng.below(if depth > 1 { 4 } else { 7 }) {
        0 => {
            json!({"type": "string", "minLength": 1, "maxLength": 200, "description": description(rng)})
        }
        1 => {
            json!({"type": "integer", "minimum": 0, "maximum": 1000, "description": description(rng)})
        }
        2 => {
            json!({"type": "string", "enum": ["a", "b", "c", "d"], "description": description(rng)})
        }
        3 => json!({"type": "boolean", "description": description(rng)}),
        4 => {
            json!({"type": "array", "maxItems": 50, "items": property(rng, depth + 1), "description": description(rng)})
        }
        5 => {
            json!({"type": "object", "additionalProperties": {"type": "string"}, "description": description(rng)})
        }
        _ => {
            let mut props = serde_json::Map::new();
            for i in 0..(1 + rng.below(5)) {
                props.insert(format!("f{i}"), property(rng, depth + 1));
            }
            json!({"type": "object", "additionalProperties": false, "properties": props,
                   "required": ["f0"], "description": description(rng)})
        }
    }
}

fn tool(rng: &mut Lcg, i: usize) -> Vec<u8> {
    let mut props = serde_json::Map::new();
    let n = 2 + rng.below(19) as usize;
    for p in 0..n {
        props.insert(format!("{}_{p}", WORDS[p % WORDS.len()]), property(rng, 0));
    }
    let first = props.keys().next().cloned().unwrap();
    let destructive = rng.below(3) == 0;
    let mut xn = json!({
        "family": "bench",
        "operation": format!("bench.op{i}"),
        "transport": "embedded",
        "annotations": {
            "title": format!("Tool {i}"),
            "readOnlyHint": !destructive,
            "destructiveHint": destructive,
            "category": if destructive { "write" } else { "read" }
        },
        "ui": {"presentation": "inline"}
    });
    if destructive {
        xn["askOnKeys"] = json!([first.clone()]);
    }
    if props[&first]["type"] == "integer" {
        xn["defaults"] = json!({ first.clone(): 10 });
    }
    let doc = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": format!("Tool {i}"),
        "type": "object",
        "additionalProperties": false,
        "description": description(rng),
        "properties": props,
        "required": [first],
        "x-neuralis": xn,
    });
    serde_json::to_vec_pretty(&doc).unwrap()
}

fn corpus() -> Vec<Vec<u8>> {
    let mut rng = Lcg(0x5eed);
    (0..1000).map(|i| tool(&mut rng, i)).collect()
}

fn bench(c: &mut Criterion) {
    let files = corpus();
    let with_defaults = files
        .iter()
        .filter(|f| {
            serde_json::from_slice::<Value>(f).unwrap()["x-neuralis"]["defaults"].is_object()
        })
        .count();
    eprintln!("{with_defaults} of {} tools have defaults", files.len());
    for (i, f) in files.iter().enumerate() {
        let report = neuralis_core::check_bytes(&format!("tool_{i}"), f);
        assert!(!report.has_errors(), "{:#?}", report.diagnostics);
    }
    let bytes: u64 = files.iter().map(|f| f.len() as u64).sum();
    let mut group = c.benchmark_group("1000_tools");
    group.throughput(Throughput::Bytes(bytes));
    group.bench_function("parse", |b| {
        b.iter(|| {
            for f in &files {
                std::hint::black_box(serde_json::from_slice::<Value>(f).unwrap());
            }
        });
    });
    group.bench_function("read_strict", |b| {
        b.iter(|| {
            for f in &files {
                std::hint::black_box(neuralis_core::contract::json::read(f).unwrap());
            }
        });
    });
    group.bench_function("check_bytes", |b| {
        b.iter(|| {
            for (i, f) in files.iter().enumerate() {
                std::hint::black_box(neuralis_core::check_bytes(
                    if i % 2 == 0 { "a" } else { "b" },
                    f,
                ));
            }
        });
    });
    let values: Vec<Value> = files
        .iter()
        .map(|f| serde_json::from_slice(f).unwrap())
        .collect();
    group.bench_function("meta_schema_only", |b| {
        let meta = jsonschema::draft7::meta::validator();
        b.iter(|| {
            for v in &values {
                std::hint::black_box(meta.is_valid(v));
            }
        });
    });
    group.bench_function("check_value", |b| {
        let options = neuralis_core::contract::CheckOptions::default();
        b.iter(|| {
            for v in &values {
                std::hint::black_box(neuralis_core::check_value("a", v, &options));
            }
        });
    });
    let without_defaults: Vec<Value> = values
        .iter()
        .cloned()
        .map(|mut v| {
            v["x-neuralis"].as_object_mut().unwrap().remove("defaults");
            v
        })
        .collect();
    group.bench_function("check_value_without_defaults", |b| {
        let options = neuralis_core::contract::CheckOptions::default();
        b.iter(|| {
            for v in &without_defaults {
                std::hint::black_box(neuralis_core::check_value("a", v, &options));
            }
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
