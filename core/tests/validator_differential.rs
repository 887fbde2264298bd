//! The built-in validator (`neuralis_model::validate`) against `jsonschema` (the oracle):
//! the same verdict on every value, and the same pointer and message for the first
//! failure.
//!
//! Schemas: every golden snapshot (`tests/snapshots/*.json`, `tests/snapshots/output/*.json`)
//! and every example package's tool file (`examples/*/tools/*.json`), each as written and
//! normalized (as the loader serves it), plus generated schemas (`generated_schemas`).
//! Values are drawn near each schema from a seeded generator (`Near`): the right types and
//! wrong ones, numbers at and across bounds, integers written as `1.0`, numbers past 2^53
//! and `u64`, strings at and across lengths with characters outside the BMP, pattern and
//! format hits and misses, enum misses, extra, reserved and missing keys, nesting.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use neuralis_core::schema::normalize;
use neuralis_model::validate::Validator;
use proptest::prelude::*;
use serde_json::{Map, Number, Value, json};

/// A small seeded generator (xorshift), so each case is reproducible from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const STRINGS: &[&str] = &[
    "",
    "a",
    "ab",
    "abc",
    "ABC",
    "a1",
    "Porto",
    "é",
    "ü😀",
    "😀",
    "😀😀",
    "\u{10FFFF}",
    "x y",
    " ",
    "\u{a0}",
    "\n",
    "\u{2028}",
    "__x",
    "$y",
    "__proto__",
    "constructor",
    "prototype",
    "_a",
    "٣",
    "12",
    "2024-01-02",
    "metric",
    "imperial",
    "a-b",
    "low",
    "high",
    "medium",
];
const DATES: &[&str] = &[
    "2024-02-29",
    "2023-02-29",
    "2024-1-01",
    "2024-13-01",
    "x",
    "2024-12-31",
];
const DATE_TIMES: &[&str] = &[
    "2024-01-02T03:04:05Z",
    "2024-01-02t03:04:05.5+01:00",
    "2024-01-02 03:04:05Z",
    "2024-01-02T24:00:00Z",
    "2016-12-31T23:59:60Z",
    "2024-01-02T03:04:05",
    "2024-01-02T03:04:05+1:00",
];
const TIMES: &[&str] = &[
    "03:04:05Z",
    "23:59:60Z",
    "12:00:00.123-05:30",
    "12:00",
    "25:00:00Z",
];
const EMAILS: &[&str] = &[
    "a@b.co",
    "a.b@example.com",
    "a..b@example.com",
    "@x.com",
    "a@",
    "\"q\"@x.com",
    "a@[127.0.0.1]",
    "a b@x.com",
    "a@-x.com",
    "a@x",
    "a+tag@example.org",
];
const URIS: &[&str] = &[
    "https://example.com/a?b#c",
    "//example.com",
    "a b",
    "urn:isbn:1",
    "http://[::1]:80/",
    "1a:b",
    "http://exa mple.com",
    "mailto:a@b.c",
    "/path",
    "http://x/%zz",
    "http://user@host:8080",
];
const HOSTS: &[&str] = &[
    "example.com",
    "-a.com",
    "a..b",
    "xn--bcher-kva.ch",
    "ab--c.com",
    "a",
    "localhost.",
];
const IPS: &[&str] = &[
    "127.0.0.1",
    "256.0.0.1",
    "::1",
    "1::2::3",
    "fe80::1",
    "01.2.3.4",
    "1.2.3",
];

/// Draws values near a schema.
struct Near<'a> {
    root: &'a Value,
    rng: Rng,
}

impl Near<'_> {
    fn any(&mut self, depth: usize) -> Value {
        match self.rng.below(if depth > 2 { 5 } else { 7 }) {
            0 => Value::Null,
            1 => json!(self.rng.chance(50)),
            2 => self.number(None, None, false),
            3 => json!(self.rng.pick(STRINGS)),
            4 => json!(self.rng.below(100) as i64 - 50),
            5 => Value::Array(
                (0..self.rng.below(3))
                    .map(|_| self.any(depth + 1))
                    .collect(),
            ),
            _ => {
                let mut m = Map::new();
                for _ in 0..self.rng.below(3) {
                    m.insert(self.rng.pick(STRINGS).to_string(), self.any(depth + 1));
                }
                Value::Object(m)
            }
        }
    }

    fn number(&mut self, lo: Option<f64>, hi: Option<f64>, integer: bool) -> Value {
        let edge = [lo, hi].into_iter().flatten().collect::<Vec<f64>>();
        let x: f64 = match self.rng.below(10) {
            0 => *self.rng.pick(&[
                1e20,
                -1e20,
                9_007_199_254_740_993.0,
                1.8e19,
                1e308,
                -1e308,
                0.1,
                0.5,
            ]),
            1..=3 if !edge.is_empty() => {
                let e = *self.rng.pick(&edge);
                e + *self.rng.pick(&[-1.0, 0.0, 1.0, -0.5, 0.5, 0.0])
            }
            4 => {
                return json!(*self.rng.pick(&[
                    u64::MAX,
                    i64::MAX as u64,
                    9_007_199_254_740_993_u64
                ]));
            }
            5 => return json!(i64::MIN),
            _ => {
                self.rng.below(40) as f64 - 10.0
                    + if integer || self.rng.chance(60) {
                        0.0
                    } else {
                        0.25
                    }
            }
        };
        if x.fract() == 0.0 && x.abs() < 9e15 && !self.rng.chance(25) {
            json!(x as i64)
        } else {
            Number::from_f64(x).map_or(Value::Null, Value::Number)
        }
    }

    fn string(&mut self, s: &Map<String, Value>) -> Value {
        if let Some(Value::String(f)) = s.get("format")
            && self.rng.chance(70)
        {
            let pool: &[&str] = match f.as_str() {
                "date" => DATES,
                "date-time" => DATE_TIMES,
                "time" => TIMES,
                "email" => EMAILS,
                "uri" | "uri-reference" => URIS,
                "hostname" => HOSTS,
                "ipv4" | "ipv6" => IPS,
                _ => STRINGS,
            };
            return json!(self.rng.pick(pool));
        }
        let min = s.get("minLength").and_then(Value::as_u64);
        let max = s.get("maxLength").and_then(Value::as_u64);
        if (min.is_some() || max.is_some()) && self.rng.chance(50) {
            let bound = *self
                .rng
                .pick(&[min, max].into_iter().flatten().collect::<Vec<u64>>());
            let n = (bound as i64 + *self.rng.pick(&[-1_i64, 0, 1])).max(0) as usize;
            let unit = *self.rng.pick(&["a", "é", "😀", "\u{10000}"]);
            return json!(unit.repeat(n.min(3000)));
        }
        json!(self.rng.pick(STRINGS))
    }

    fn value(&mut self, schema: &Value, depth: usize) -> Value {
        if depth > 6 || self.rng.chance(8) {
            return self.any(depth);
        }
        let Some(s) = schema.as_object() else {
            return self.any(depth);
        };
        if let Some(Value::String(r)) = s.get("$ref") {
            let target = r
                .strip_prefix('#')
                .and_then(|p| self.root.pointer(p))
                .cloned();
            return match target {
                Some(t) => self.value(&t, depth + 1),
                None => self.any(depth),
            };
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(branches)) = s.get(key)
                && !branches.is_empty()
                && self.rng.chance(70)
            {
                let b = self.rng.pick(branches).clone();
                return self.value(&b, depth + 1);
            }
        }
        if let Some(Value::Array(options)) = s.get("enum")
            && !options.is_empty()
        {
            return if self.rng.chance(80) {
                self.rng.pick(options).clone()
            } else {
                self.any(depth)
            };
        }
        if let Some(c) = s.get("const") {
            return if self.rng.chance(70) {
                c.clone()
            } else {
                self.any(depth)
            };
        }
        let ty = match s.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Array(ts)) if !ts.is_empty() => {
                self.rng.pick(ts).as_str().unwrap_or("null").to_owned()
            }
            _ if s.contains_key("properties") || s.contains_key("additionalProperties") => {
                "object".into()
            }
            _ if s.contains_key("items") => "array".into(),
            _ if s.contains_key("pattern") || s.contains_key("minLength") => "string".into(),
            _ => return self.any(depth),
        };
        let f = |k: &str| s.get(k).and_then(Value::as_f64);
        match ty.as_str() {
            "integer" | "number" => {
                let lo = f("minimum").or(f("exclusiveMinimum"));
                let hi = f("maximum").or(f("exclusiveMaximum"));
                if let Some(m) = f("multipleOf")
                    && self.rng.chance(50)
                {
                    let k = self.rng.below(20) as f64 - 5.0;
                    return Number::from_f64(k * m).map_or(Value::Null, Value::Number);
                }
                self.number(lo, hi, ty == "integer")
            }
            "string" => self.string(s),
            "boolean" => json!(self.rng.chance(50)),
            "null" => Value::Null,
            "array" => {
                let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
                let max = s
                    .get("maxItems")
                    .and_then(Value::as_u64)
                    .map(|m| m as usize);
                let n = match max {
                    Some(m) if self.rng.chance(30) => m + self.rng.below(2),
                    _ => min.saturating_sub(self.rng.below(2)) + self.rng.below(3),
                };
                let items = s.get("items").cloned().unwrap_or(json!({}));
                let mut out: Vec<Value> = (0..n.min(20))
                    .map(|_| self.value(&items, depth + 1))
                    .collect();
                if !out.is_empty() && self.rng.chance(20) {
                    let first = out[0].clone();
                    out.push(first);
                }
                Value::Array(out)
            }
            "object" => {
                let mut m = Map::new();
                let required: Vec<&str> = s
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if let Some(Value::Object(props)) = s.get("properties") {
                    for (k, sub) in props {
                        let keep = if required.contains(&k.as_str()) {
                            95
                        } else {
                            50
                        };
                        if self.rng.chance(keep) {
                            let v = self.value(sub, depth + 1);
                            m.insert(k.clone(), v);
                        }
                    }
                }
                if self.rng.chance(25) {
                    let key = *self
                        .rng
                        .pick(&["extra", "userId", "__proto__", "$x", "a", "😀"]);
                    let v = match s.get("additionalProperties") {
                        Some(extra @ Value::Object(_)) => self.value(extra, depth + 1),
                        _ => self.any(depth + 1),
                    };
                    m.insert(key.to_owned(), v);
                }
                Value::Object(m)
            }
            _ => self.any(depth),
        }
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every schema of the golden snapshots and the example packages, as written and
/// normalized.
fn file_schemas() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut paths = Vec::new();
    for dir in ["tests/snapshots", "tests/snapshots/output"] {
        for e in std::fs::read_dir(repo().join(dir)).unwrap() {
            paths.push(e.unwrap().path());
        }
    }
    for e in std::fs::read_dir(repo().join("examples")).unwrap() {
        let tools = e.unwrap().path().join("tools");
        if tools.is_dir() {
            for t in std::fs::read_dir(tools).unwrap() {
                paths.push(t.unwrap().path());
            }
        }
    }
    paths.retain(|p| p.extension().is_some_and(|e| e == "json"));
    paths.sort();
    for p in paths {
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let name = p.strip_prefix(repo()).unwrap_or(&p).display().to_string();
        let mut normalized = schema.clone();
        normalize(&mut normalized);
        out.push((format!("{name} (normalized)"), normalized));
        out.push((name, schema));
    }
    out
}

/// One value against both validators.
fn agree(
    name: &str,
    ours: &Validator,
    oracle: &jsonschema::Validator,
    value: &Value,
) -> Result<(), String> {
    let expected = oracle.is_valid(value);
    if ours.is_valid(value) != expected {
        return Err(format!(
            "{name}: verdict differs on {value}: jsonschema says {expected}"
        ));
    }
    // The model's explanation (issue 60): faults exactly when refused, in its own words.
    let explained = ours.explain(value);
    if explained.is_empty() != expected {
        return Err(format!(
            "{name}: explanation of {value} disagrees with the verdict: {explained:?}"
        ));
    }
    if let Some(f) = explained
        .iter()
        .find(|f| f.message.contains("keyword") || f.message.is_empty())
    {
        return Err(format!("{name}: {value} explained in schema words: {f:?}"));
    }
    let theirs = oracle.iter_errors(value).next();
    let mine = ours.first_error(value);
    match (theirs, mine) {
        (None, None) => Ok(()),
        (Some(t), Some(m)) => {
            let (tp, tm) = (
                t.instance_path().as_str().to_owned(),
                t.masked().to_string(),
            );
            if tp != m.pointer || tm != m.message {
                Err(format!(
                    "{name}: first failure of {value}: jsonschema `{tp}`: {tm}; ours `{}`: {}",
                    m.pointer, m.message
                ))
            } else {
                Ok(())
            }
        }
        (t, m) => Err(format!(
            "{name}: errors differ on {value}: {:?} / {m:?}",
            t.map(|e| e.to_string())
        )),
    }
}

const VALUES_PER_FILE: usize = 400;

#[test]
fn every_snapshot_and_example_schema_agrees_with_jsonschema() {
    let schemas = file_schemas();
    assert!(schemas.len() >= 100, "{} schemas", schemas.len());
    let mut cases = 0;
    let mut failures = Vec::new();
    for (i, (name, schema)) in schemas.iter().enumerate() {
        let ours = Validator::compile(schema).unwrap_or_else(|e| panic!("{name}: {e}"));
        let oracle = jsonschema::draft7::new(schema).unwrap();
        let mut near = Near {
            root: schema,
            rng: Rng(0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1)),
        };
        for _ in 0..VALUES_PER_FILE {
            let value = near.value(schema, 0);
            cases += 1;
            if let Err(e) = agree(name, &ours, &oracle, &value) {
                failures.push(e);
            }
        }
    }
    println!(
        "{} schemas x {VALUES_PER_FILE} values = {cases} cases",
        schemas.len()
    );
    failures.truncate(30);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Generated schemas: the keywords of the subset, nested, with `$ref`s into `definitions`.
fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"type": "string"})),
        (0u64..4, 0u64..6)
            .prop_map(|(a, b)| json!({"type": "string", "minLength": a, "maxLength": a + b})),
        prop::sample::select(vec![
            "^[a-z]+$",
            "^(?:__|\\$)",
            "\\d",
            "^\\w+$",
            "^\\s*$",
            "a|b",
            "^.{2,3}$",
            "^[^x]*$",
            "é",
            "😀",
            "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
        ])
        .prop_map(|p| json!({"type": "string", "pattern": p})),
        prop::sample::select(vec![
            "date",
            "date-time",
            "time",
            "email",
            "uri",
            "uri-reference",
            "hostname",
            "ipv4",
            "ipv6",
            "uuid"
        ])
        .prop_map(|f| json!({"type": "string", "format": f})),
        (-5i64..5, 0i64..10)
            .prop_map(|(a, b)| json!({"type": "integer", "minimum": a, "maximum": a + b})),
        (-5i64..5).prop_map(
            |a| json!({"type": "number", "exclusiveMinimum": a, "exclusiveMaximum": a as f64 + 2.5})
        ),
        prop::sample::select(vec![0.5, 2.0, 0.1, 3.0])
            .prop_map(|m| json!({"type": "number", "multipleOf": m})),
        Just(json!({"type": "integer", "minimum": 0, "maximum": 18_446_744_073_709_551_615_u64})),
        Just(
            json!({"type": "integer", "minimum": -1.7014118346046923e38, "maximum": 1.7014118346046923e38})
        ),
        Just(json!({"type": ["number", "null"]})),
        Just(json!({"type": "boolean"})),
        Just(json!({"enum": ["low", "high", 1, null]})),
        Just(json!({"enum": ["a", "b", "c", "d", "e"]})),
        Just(json!({"const": 3})),
        Just(json!({"const": {"a": [1]}})),
        Just(json!({"not": {"type": "string"}})),
        Just(json!({"$ref": "#/definitions/Leaf"})),
        Just(json!(true)),
        Just(json!({})),
    ]
}

fn schema() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            (inner.clone(), any::<bool>(), 0u64..2, prop::option::of(1u64..4)).prop_map(|(items, unique, min, max)| {
                let mut s = json!({"type": "array", "items": items, "minItems": min});
                if unique { s["uniqueItems"] = json!(true); }
                if let Some(m) = max { s["maxItems"] = json!(m); }
                s
            }),
            (prop::collection::vec(inner.clone(), 1..4), any::<bool>(), 0usize..3, 0u8..3).prop_map(|(props, closed, required, names)| {
                let keys = ["city", "days", "note", "tags"];
                let mut p = Map::new();
                for (k, v) in keys.iter().zip(props) { p.insert((*k).to_owned(), v); }
                let req: Vec<&str> = keys.iter().take(required.min(p.len())).copied().collect();
                let mut s = json!({"type": "object", "additionalProperties": !closed, "properties": p, "required": req});
                if !closed { s["additionalProperties"] = json!(false); }
                if names == 1 { s["propertyNames"] = serde_json::from_str(neuralis_core::schema::DEFAULT_PROPERTY_NAMES).unwrap(); }
                if names == 2 { s["propertyNames"] = json!({"maxLength": 4}); }
                s
            }),
            inner.clone().prop_map(|v| json!({"type": "object", "additionalProperties": v})),
            prop::collection::vec(inner.clone(), 1..4).prop_map(|v| json!({"anyOf": v})),
            prop::collection::vec(inner.clone(), 1..4).prop_map(|v| json!({"oneOf": v})),
            prop::collection::vec(inner, 1..3).prop_map(|v| json!({"allOf": v})),
        ]
    })
}

fn with_definitions(body: Value, leaf: Value) -> Value {
    let mut s = match body {
        Value::Object(m) => Value::Object(m),
        other => json!({"allOf": [other]}),
    };
    s["definitions"] = json!({"Leaf": leaf, "Tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/definitions/Tree"}}, "n": {"type": "integer"}}}});
    s
}

const VALUES_PER_GENERATED: usize = 40;

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn generated_schemas_agree_with_jsonschema(body in schema(), leaf in leaf(), seed in any::<u64>(), tree in any::<bool>()) {
        let mut s = with_definitions(body, leaf);
        if tree {
            s["properties"] = json!({"tree": {"$ref": "#/definitions/Tree"}, "self": {"$ref": "#"}});
        }
        let ours = Validator::compile(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
        let oracle = jsonschema::draft7::new(&s).unwrap();
        let mut near = Near { root: &s, rng: Rng(seed | 1) };
        for _ in 0..VALUES_PER_GENERATED {
            let value = near.value(&s, 0);
            if let Err(e) = agree(&s.to_string(), &ours, &oracle, &value) {
                prop_assert!(false, "{}", e);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// `Validator::compile_leaf` (what `default-invalid` decides most defaults with, in the
    /// checker's walk) gives the verdict of the same subschema compiled where it stands in
    /// its document (`compile_at`, the check's own path), and answers for every leaf that
    /// holds no subschema and no `$ref`.
    #[test]
    fn a_leaf_compiled_alone_agrees_with_it_compiled_in_its_document(
        body in schema(),
        leaf in leaf(),
        seed in any::<u64>(),
        annotated in any::<bool>(),
    ) {
        let mut leaf = leaf;
        if annotated && let Value::Object(map) = &mut leaf {
            map.insert("default".to_owned(), json!("x"));
            map.insert("examples".to_owned(), json!([1, "y", null]));
            map.insert("description".to_owned(), json!("d"));
        }
        let plain = leaf
            .as_object()
            .is_none_or(|m| !m.contains_key("$ref") && !m.contains_key("not"));
        let doc = with_definitions(json!({"type": "object", "properties": {"a": body}}), leaf);
        for pointer in ["/definitions/Leaf", "/properties/a"] {
            let sub = doc.pointer(pointer).unwrap();
            let fast = Validator::compile_leaf(sub);
            if pointer == "/definitions/Leaf" {
                prop_assert_eq!(fast.is_some(), plain, "{}", sub);
            }
            let Some(fast) = fast else { continue };
            let slow = Validator::compile_at(&doc, pointer, sub).unwrap();
            let mut near = Near { root: &doc, rng: Rng(seed | 1) };
            for _ in 0..VALUES_PER_GENERATED {
                let value = near.value(sub, 0);
                prop_assert_eq!(
                    fast.is_valid(&value),
                    slow.is_valid(&value),
                    "{} at {} on {}",
                    sub,
                    pointer,
                    value
                );
            }
        }
    }
}
