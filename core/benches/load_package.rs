//! Loading packages of 100, 1,000 and 10,000 realistic tools, beside a plain parse of
//! the same bytes (issue 19's target: `load_package_from_sources` <= 1.2x the parse,
//! linear in the number of files).
//!
//! - `parse`: `serde_json::from_slice::<Value>` of every file, each tree dropped at once;
//! - `parse_keep_all`: the same, keeping every tree (what any loader that returns a
//!   catalog of trees must do);
//! - `json_read_keep_all`: the loader's own parse (`contract::json::read`: size, depth,
//!   UTF-8, duplicate keys), keeping every tree;
//! - `load_package_from_sources`: check + normalize + type every file;
//! - `load_package_fs`: the same from a temporary directory (1,000 tools only).
//!
//! The loaders' results, and `parse_keep_all`'s, are dropped outside the timing: a catalog
//! outlives its load, and freeing thousands of trees at once costs glibc's allocator about
//! as much as building them.
//!
//! The files are generated deterministically (2–20 properties: strings with enums and
//! lengths, patterns, formats, numbers with bounds, booleans, arrays of strings and of
//! objects, nested closed objects, open maps; `definitions` with `$ref`s in one tool of
//! four; descriptions everywhere; a valid `x-neuralis` block). 10,000 tools are about 58 MB.
//!
//! Times are the benchmark thread's CPU time (`support/cpu.rs`; `NEURALIS_BENCH_WALL=1` for
//! wall time). `benches/ratios.sh load_package load_ parse,parse_keep_all` gives the
//! ratios over rounds.
//!
//! Run: `cargo bench -p neuralis-core --bench load_package -- --warm-up-time 1 --measurement-time 3`
#![allow(missing_docs, clippy::unwrap_used)]

use std::hint::black_box;

use criterion::measurement::{Measurement, WallTime};
use criterion::{Criterion, Throughput};
use neuralis_core::catalog::{Annotations, Category, Presentation, ToolMeta};
use neuralis_core::contract::json;
use neuralis_core::load::{load_package, load_package_from_sources};
use serde_json::{Map, Value, json};

const SIZES: [usize; 3] = [100, 1_000, 10_000];

/// A small deterministic generator (64-bit LCG), so every run benches the same bytes.
struct Rng(u64);

impl Rng {
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

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "item", "project", "note", "owner", "status", "label", "query", "limit", "page", "region",
    "filter", "title", "body", "color", "tag", "target", "source", "mode", "level", "scope",
];

const SENTENCES: &[&str] = &[
    "The identifier of the item to act on.",
    "Optional filter applied before the results are returned.",
    "How many results to return at most; the server may return fewer.",
    "A free-form note shown to the user next to the result.",
    "When true, include archived entries as well.",
    "The region the request is routed to, as an ISO 3166 code.",
];

const FORMATS: &[&str] = &["date-time", "date", "email", "uri", "uuid", "hostname"];

fn description(rng: &mut Rng) -> Value {
    json!(rng.pick(SENTENCES))
}

/// One property schema; `depth` bounds nesting.
fn property(rng: &mut Rng, depth: u32) -> Value {
    let kind = if depth >= 2 {
        rng.below(4)
    } else {
        rng.below(8)
    };
    match kind {
        0 => json!({
            "type": "string",
            "enum": ["active", "archived", "all", "pending"],
            "default": "active",
            "description": description(rng),
        }),
        1 => json!({
            "type": "string",
            "minLength": 1,
            "maxLength": 200 + rng.below(800),
            "pattern": "^[a-zA-Z0-9 ._-]*$",
            "description": description(rng),
        }),
        2 => json!({
            "type": "integer",
            "minimum": 0,
            "maximum": 100 + rng.below(900),
            "default": 10,
            "description": description(rng),
        }),
        3 => {
            if rng.below(2) == 0 {
                json!({ "type": "boolean", "default": false, "description": description(rng) })
            } else {
                json!({
                    "type": "string",
                    "format": rng.pick(FORMATS),
                    "description": description(rng),
                })
            }
        }
        4 => json!({
            "type": "array",
            "items": { "type": "string", "maxLength": 64 },
            "maxItems": 50,
            "uniqueItems": true,
            "description": description(rng),
        }),
        5 => {
            let n = 2 + rng.below(3) as usize;
            json!({
                "type": "array",
                "items": object(rng, depth + 1, n),
                "description": description(rng),
            })
        }
        6 => {
            let n = 2 + rng.below(4) as usize;
            object(rng, depth + 1, n)
        }
        _ => json!({
            "type": "object",
            "additionalProperties": { "type": "string", "maxLength": 256 },
            "maxProperties": 32,
            "description": description(rng),
        }),
    }
}

/// A closed nested object with `n` properties.
fn object(rng: &mut Rng, depth: u32, n: usize) -> Value {
    let mut props = Map::new();
    for i in 0..n {
        props.insert(format!("{}_{i}", rng.pick(WORDS)), property(rng, depth + 1));
    }
    let first = props.keys().next().cloned();
    json!({
        "type": "object",
        "additionalProperties": false,
        "description": description(rng),
        "properties": props,
        "required": first.into_iter().collect::<Vec<_>>(),
    })
}

/// One tool file, pretty-printed as an author would commit it.
fn tool(rng: &mut Rng, i: usize) -> Vec<u8> {
    let n = 2 + rng.below(19) as usize;
    let mut props = Map::new();
    for p in 0..n {
        props.insert(format!("{}_{p}", rng.pick(WORDS)), property(rng, 0));
    }
    // One tool in four shares a definition between properties, by `$ref`.
    let definitions = (rng.below(4) == 0).then(|| {
        let n = 2 + rng.below(4) as usize;
        let address = object(rng, 1, n);
        for p in 0..1 + rng.below(2) {
            props.insert(
                format!("address_{p}"),
                json!({ "$ref": "#/definitions/Address" }),
            );
        }
        json!({ "Address": address })
    });
    let keys: Vec<String> = props.keys().cloned().collect();
    let family = rng.pick(WORDS);
    let write = rng.below(3) == 0;
    // The block from the model's typed value, which writes it in the canonical order.
    let mut meta = ToolMeta {
        family: Some(family.to_owned()),
        operation: Some(format!("{family}.op{i}")),
        transport: Some("embedded".to_owned()),
        annotations: Annotations {
            title: Some(format!("Tool {i}")),
            read_only_hint: Some(!write),
            destructive_hint: Some(write),
            category: if write {
                Category::Write
            } else {
                Category::Read
            },
            estimated_duration_ms: Some(100 + rng.below(5_000)),
            ..Annotations::default()
        },
        ..ToolMeta::default()
    };
    meta.ui.presentation = Some(if write {
        Presentation::Inline
    } else {
        Presentation::Explored
    });
    meta.ui.icon = Some("list".to_owned());
    if rng.below(2) == 0 {
        meta.requires.features = vec![format!("{family}.read")];
    }
    if write {
        meta.ask_on_keys = vec![keys[0].clone()];
    }
    let xn = meta.to_value();
    let mut schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": format!("Tool {i}"),
        "type": "object",
        "additionalProperties": false,
        "description": "Does one thing well, for the model to decide from. Returns a summary.",
        "properties": props,
        "required": [keys[0]],
        "x-neuralis": xn,
    });
    if let Some(definitions) = definitions {
        schema["definitions"] = definitions;
    }
    serde_json::to_vec_pretty(&schema).unwrap()
}

fn corpus(tools: usize) -> Vec<(String, Vec<u8>)> {
    let mut rng = Rng(0x5eed);
    (0..tools)
        .map(|i| (format!("tool_{i:04}"), tool(&mut rng, i)))
        .collect()
}

#[path = "support/count.rs"]
mod counted;
#[path = "support/cpu.rs"]
mod cpu;

fn bench<M: Measurement>(c: &mut Criterion<M>) {
    for tools in SIZES {
        bench_size(c, tools);
    }
}

fn bench_size<M: Measurement>(c: &mut Criterion<M>, tools: usize) {
    let files = corpus(tools);
    let bytes: u64 = files.iter().map(|(_, b)| b.len() as u64).sum();

    // Sanity: every generated tool loads (with the real checker too).
    let package = load_package_from_sources(files.iter().map(|(n, b)| (n, b)));
    let errors: Vec<_> = package
        .diagnostics()
        .filter(|(_, d)| d.is_error())
        .collect();
    assert!(
        errors.is_empty(),
        "generated tools must load: {:?}",
        &errors[..errors.len().min(3)]
    );
    assert_eq!(package.tools.len(), tools);
    drop(package);

    let mut group = c.benchmark_group(format!("load_{tools}_tools"));
    group.throughput(Throughput::Bytes(bytes));
    group.bench_function("parse", |b| {
        b.iter(|| {
            for (_, bytes) in &files {
                black_box(serde_json::from_slice::<Value>(black_box(bytes)).unwrap());
            }
        });
    });
    // A loader returns every tree, so it is also measured against a parse that keeps them.
    // The catalog outlives the load, so dropping it is not timed (`iter_with_large_drop`).
    group.bench_function("parse_keep_all", |b| {
        b.iter_with_large_drop(|| {
            files
                .iter()
                .map(|(_, bytes)| serde_json::from_slice::<Value>(black_box(bytes)).unwrap())
                .collect::<Vec<_>>()
        });
    });
    // The loader's own parse (depth, UTF-8, duplicate keys), every tree kept.
    group.bench_function("json_read_keep_all", |b| {
        b.iter_with_large_drop(|| {
            files
                .iter()
                .map(|(_, bytes)| json::read(black_box(bytes)).unwrap())
                .collect::<Vec<_>>()
        });
    });
    group.bench_function("load_package_from_sources", |b| {
        b.iter_with_large_drop(|| load_package_from_sources(files.iter().map(|(n, b)| (n, b))));
    });
    if tools == 1_000 {
        let dir = tempfile::tempdir().unwrap();
        for (name, b) in &files {
            std::fs::write(dir.path().join(format!("{name}.json")), b).unwrap();
        }
        group.bench_function("load_package_fs", |b| {
            b.iter_with_large_drop(|| load_package(dir.path()).unwrap());
        });
    }
    group.finish();
}

/// The count mode (`support/count.rs`): `tools` generated tools, then `loads` runs of one
/// scenario (`parse`, `parse_keep_all` or `load_package_from_sources`). What a kept-all
/// scenario returns is leaked, not dropped, as criterion's `iter_with_large_drop` leaves
/// the drop out of the time.
fn count(tools: usize, name: &str, loads: usize) {
    let files = corpus(tools);
    for _ in 0..loads {
        match name {
            "parse" => {
                for (_, bytes) in &files {
                    black_box(serde_json::from_slice::<Value>(black_box(bytes)).unwrap());
                }
            }
            "parse_keep_all" => std::mem::forget(black_box(
                files
                    .iter()
                    .map(|(_, bytes)| serde_json::from_slice::<Value>(black_box(bytes)).unwrap())
                    .collect::<Vec<_>>(),
            )),
            "load_package_from_sources" => std::mem::forget(black_box(load_package_from_sources(
                files.iter().map(|(n, b)| (n, b)),
            ))),
            other => panic!("no scenario {other}"),
        }
    }
}

fn main() {
    if let Some((tools, scenario, loads)) = counted::requested() {
        return count(tools, &scenario, loads);
    }
    cpu::run(bench::<cpu::ThreadCpu>, bench::<WallTime>);
}
