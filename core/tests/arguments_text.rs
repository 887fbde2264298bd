//! The text entry's two paths held to one outcome: arguments read straight from the text
//! into the input, checked as they are read (`Handler::call_text`), against the tree path
//! (`serde_json` parses the text, the pipeline adds the defaults, validates and reads the
//! tree). For every drawn text, `dispatch_text` must give what `dispatch` gives on
//! `serde_json`'s parse of it: the same input (the handler writes it with `{:?}`) or the
//! same refusal, with its pointers and messages. A recording handler says which path ran,
//! and the draws must take the text path often enough that the test could fail.
//!
//! Texts are drawn from values on the schema's keys, then written with what a client may
//! send and a reader may get wrong: escapes (`\u00e9`, surrogate pairs, `\/`), integers
//! written as `5.0` or `5e0`, `-0`, integers beyond 64 bits, repeated keys, whitespace,
//! and broken text.

// The inputs' fields are read through `Debug` only.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use neuralis_core::dispatch::{
    Arguments, Call, Handler, Package, SessionContext, ToolContext, deserialize_input,
};
use neuralis_core::result::ToolResult;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

#[derive(Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
enum Units {
    Metric,
    Imperial,
}

#[derive(Deserialize, Debug)]
struct Limits {
    min: i64,
    max: Option<i64>,
}

#[derive(Deserialize, Debug)]
#[serde(tag = "kind")]
enum Choice {
    A { n: u8 },
    B { s: String },
}

#[derive(Deserialize, Debug)]
#[serde(untagged)]
enum When {
    Text(String),
    Number(f64),
}

#[derive(Deserialize, Debug)]
struct Input {
    city: String,
    days: u8,
    units: Units,
    tags: Option<Vec<String>>,
    limits: Option<Limits>,
    extra: Option<Value>,
    choice: Option<Choice>,
    map: Option<BTreeMap<String, i32>>,
    ratio: Option<f64>,
    when: Option<When>,
    pair: Option<(u8, char)>,
}

/// The same keys, read loosely: every member a `Value`, maps and flattening.
#[derive(Deserialize, Debug)]
struct Loose {
    city: Value,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

const SCHEMA: &str = r#"{
  "type": "object", "additionalProperties": false, "description": "Arguments.",
  "required": ["city", "units"],
  "properties": {
    "city": {"type": "string", "minLength": 1, "maxLength": 24},
    "days": {"type": "integer", "minimum": 1, "maximum": 14},
    "units": {"type": "string", "enum": ["metric", "imperial"]},
    "tags": {"type": "array", "items": {"type": "string", "maxLength": 8}, "maxItems": 3},
    "limits": {"type": "object", "additionalProperties": false, "required": ["min"],
      "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}}},
    "extra": {"description": "Anything."},
    "choice": {"oneOf": [
      {"type": "object", "additionalProperties": false, "required": ["kind", "n"],
       "properties": {"kind": {"const": "A"}, "n": {"type": "integer", "minimum": 0, "maximum": 255}}},
      {"type": "object", "additionalProperties": false, "required": ["kind", "s"],
       "properties": {"kind": {"const": "B"}, "s": {"type": "string"}}}]},
    "map": {"type": "object", "additionalProperties": {"type": "integer", "minimum": -5}},
    "ratio": {"type": "number", "exclusiveMinimum": 0},
    "when": {"type": ["string", "number"]},
    "pair": {"type": "array", "minItems": 2, "maxItems": 2}
  },
  "x-neuralis": {"defaults": {"days": 3}, "annotations": {"category": "read"}}
}"#;

/// A handler that writes its input, and counts the calls that read the text itself.
struct Recorder<I> {
    text_reads: Arc<AtomicUsize>,
    input: PhantomData<fn() -> I>,
}

impl<I: DeserializeOwned + Debug + 'static> Handler for Recorder<I> {
    fn call<'a>(&'a self, args: Value, cx: &'a ToolContext) -> Call<'a> {
        Call::Ready(match deserialize_input::<I>(cx.tool_name(), args) {
            Ok(input) => ToolResult::text(format!("{input:?}")),
            Err(refused) => *refused,
        })
    }

    fn call_text<'a>(&'a self, args: Arguments<'_>, cx: &'a ToolContext) -> Option<Call<'a>> {
        let input = args.read::<I>(cx.tool_name()).ok()?;
        self.text_reads.fetch_add(1, Ordering::Relaxed);
        Some(Call::Ready(ToolResult::text(format!("{input:?}"))))
    }
}

struct Fixture {
    package: Package,
    session: SessionContext,
    text_reads: Arc<AtomicUsize>,
}

fn fixture() -> Fixture {
    let text_reads = Arc::new(AtomicUsize::new(0));
    let recorder = |_: ()| Recorder::<Input> {
        text_reads: Arc::clone(&text_reads),
        input: PhantomData,
    };
    let loose = Recorder::<Loose> {
        text_reads: Arc::clone(&text_reads),
        input: PhantomData,
    };
    let package = Package::builder()
        .tool("typed", SCHEMA, recorder(()))
        .tool("loose", SCHEMA, loose)
        .build()
        .expect("the schema loads");
    Fixture {
        package,
        session: SessionContext::builder("u").build(),
        text_reads,
    }
}

/// What the model reads of a call.
fn outcome(r: &ToolResult) -> Value {
    r.for_model()
}

/// Both paths on one text: the text entry, and the tree path on `serde_json`'s parse
/// (when the text is JSON).
fn agree(f: &Fixture, tool: &str, text: &str) -> Result<(), TestCaseError> {
    let by_text = f.package.dispatch_text_blocking(tool, text, &f.session);
    match serde_json::from_str::<Value>(text) {
        Ok(tree) => {
            let by_tree = f.package.dispatch_blocking(tool, tree, &f.session);
            prop_assert_eq!(
                outcome(&by_text),
                outcome(&by_tree),
                "{} on the text {}",
                tool,
                text
            );
        }
        Err(_) => prop_assert!(by_text.is_error, "not JSON, yet read: {}", text),
    }
    Ok(())
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        prop::sample::select(vec![0i64, 1, 3, 7, 14, 15, 255, 256, -1, -5, -6, 70_000])
            .prop_map(|n| json!(n)),
        prop::sample::select(vec![0.5, 5.0, -1.0, 1e19, 1e300, 2.5e-3]).prop_map(|f| json!(f)),
        Just(json!(u64::MAX)),
        prop::sample::select(vec![
            "",
            "Porto",
            "metric",
            "imperial",
            "A",
            "B",
            "é😀",
            "a\"b\\c/",
            "line\nbreak",
            "\u{1}",
            "a very long city name indeed",
        ])
        .prop_map(|s| json!(s)),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "city", "days", "units", "tags", "limits", "extra", "choice", "map", "ratio", "when",
        "pair", "min", "max", "kind", "n", "s", "zz",
    ])
    .prop_map(str::to_owned)
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Arguments on the schema's keys: mostly valid-looking, often not.
fn arguments() -> impl Strategy<Value = Value> {
    let city = prop_oneof![
        4 => prop::sample::select(vec!["Porto", "Lisbon, Portugal", "é😀", "a\"b\\c/"]).prop_map(|s| json!(s)),
        1 => scalar(),
    ];
    let units = prop_oneof![
        4 => prop::sample::select(vec!["metric", "imperial"]).prop_map(|s| json!(s)),
        1 => scalar(),
    ];
    let optional = prop::collection::vec((key(), value()), 0..4);
    let choice = prop_oneof![
        Just(json!({"kind": "A", "n": 7})),
        Just(json!({"kind": "B", "s": "x"})),
        Just(json!({"kind": "A", "s": "x"})),
        value(),
    ];
    (
        city,
        units,
        optional,
        proptest::option::of(choice),
        any::<u8>(),
    )
        .prop_map(|(city, units, optional, choice, drop)| {
            let mut map = serde_json::Map::new();
            if drop % 7 != 0 {
                map.insert("city".into(), city);
            }
            if drop % 5 != 0 {
                map.insert("units".into(), units);
            }
            for (k, v) in optional {
                map.insert(k, v);
            }
            if let Some(choice) = choice {
                map.insert("choice".into(), choice);
            }
            Value::Object(map)
        })
}

/// How a value is written: each choice applies where it can.
#[derive(Debug, Clone, Copy)]
struct Style {
    escape_all: bool,
    float_integers: bool,
    exponent_integers: bool,
    spaces: bool,
    repeat_first_key: bool,
    break_it: u8,
}

fn style() -> impl Strategy<Value = Style> {
    (
        any::<bool>(),
        prop::bool::weighted(0.2),
        prop::bool::weighted(0.1),
        any::<bool>(),
        prop::bool::weighted(0.1),
        any::<u8>(),
    )
        .prop_map(
            |(escape_all, float_integers, exponent_integers, spaces, repeat, break_it)| Style {
                escape_all,
                float_integers,
                exponent_integers,
                spaces,
                repeat_first_key: repeat,
                break_it,
            },
        )
}

fn write_string(s: &str, style: Style, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '/' if style.escape_all => out.push_str("\\/"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if style.escape_all && !c.is_ascii() => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04X}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn write(v: &Value, style: Style, out: &mut String, top: bool) {
    let gap = if style.spaces { " \n\t" } else { "" };
    match v {
        Value::Number(n) if n.is_u64() || n.is_i64() => {
            out.push_str(&n.to_string());
            if style.float_integers {
                out.push_str(".0");
            } else if style.exponent_integers {
                out.push_str("e0");
            }
        }
        Value::String(s) => write_string(s, style, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(gap);
                write(item, style, out, false);
            }
            out.push_str(gap);
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            if top
                && style.repeat_first_key
                && let Some(first) = entries.first().copied()
            {
                entries.push(first);
            }
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(gap);
                write_string(k, style, out);
                out.push_str(gap);
                out.push(':');
                write(v, style, out, false);
            }
            out.push_str(gap);
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// The text of `v` in `style`, sometimes broken (a byte cut, doubled or replaced).
fn text(v: &Value, style: Style) -> String {
    let mut out = String::new();
    write(v, style, &mut out, true);
    if style.break_it < 230 || out.len() < 3 {
        return out;
    }
    let at = usize::from(style.break_it) % out.len();
    let mut bytes = out.into_bytes();
    match style.break_it % 3 {
        0 => {
            bytes.truncate(at);
        }
        1 => {
            let b = bytes[at];
            bytes.insert(at, b);
        }
        _ => bytes[at] = b',',
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn the_text_path_gives_what_the_tree_path_gives(args in arguments(), style in style()) {
        let f = fixture();
        let text = text(&args, style);
        agree(&f, "typed", &text)?;
        agree(&f, "loose", &text)?;
    }
}

/// The draws take the text path often enough for the comparison to mean something: a
/// reader that always gave up would pass the proptest.
#[test]
fn most_valid_calls_are_read_from_the_text() {
    let f = fixture();
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = (arguments(), style());
    let (mut valid, mut calls) = (0, 0);
    for _ in 0..2000 {
        let (args, style) = strategy.new_tree(&mut runner).expect("a draw").current();
        let text = text(&args, style);
        let before = f.text_reads.load(Ordering::Relaxed);
        let r = f.package.dispatch_text_blocking("typed", &text, &f.session);
        calls += 1;
        if !r.is_error {
            valid += 1;
        }
        let read = f.text_reads.load(Ordering::Relaxed) > before;
        assert!(
            !read || !r.is_error,
            "a text read straight is a success: {text}"
        );
    }
    let read = f.text_reads.load(Ordering::Relaxed);
    assert!(valid >= 100, "{valid} valid calls of {calls}");
    assert!(
        read * 10 >= valid * 7,
        "only {read} of {valid} valid calls read from the text"
    );
}

/// Each way the reader gives up, on a text the tree path accepts: the outcome is the
/// tree path's, and the handler ran once.
#[test]
fn what_the_reader_leaves_to_the_tree() {
    let f = fixture();
    for text in [
        r#"{"city": "Porto", "units": "metric", "city": "Lisbon"}"#,
        r#"{"city": "Porto", "units": "metric", "extra": -0}"#,
        r#"{"city": "Porto", "units": "metric", "extra": 18446744073709551616}"#,
        r#"{"city": "Porto", "units": "metric", "map": {"a": 1, "a": 2}}"#,
        r#"{"city": "Porto", "units": "metric", "extra": "\ud800"}"#,
    ] {
        let before = f.text_reads.load(Ordering::Relaxed);
        agree(&f, "typed", text).expect("one outcome");
        agree(&f, "loose", text).expect("one outcome");
        assert_eq!(
            f.text_reads.load(Ordering::Relaxed),
            before,
            "read from the text: {text}"
        );
    }
}

/// What the reader decides itself: a call it reads is the tree path's call, defaults in,
/// an integer written `5.0` read as the integer (as the tree path reads it).
#[test]
fn a_valid_call_is_read_from_the_text_with_its_defaults() {
    let f = fixture();
    let r = f.package.dispatch_text_blocking(
        "typed",
        r#"{"city": "Porto", "units": "metric", "days": 5.0}"#,
        &f.session,
    );
    assert_eq!(f.text_reads.load(Ordering::Relaxed), 1);
    assert!(
        r.for_model()["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("days: 5,")),
        "{:?}",
        r.for_model()
    );
    let text = r#"{"city": "Caf\u00e9 \ud83d\ude00", "units": "imperial", "tags": ["a", "b"],
        "limits": {"min": -3}, "choice": {"kind": "B", "s": "x"}, "map": {"x": 2},
        "ratio": 0.25, "when": 1e3, "pair": [1, "z"], "extra": {"any": [null, true]}}"#;
    let r = f.package.dispatch_text_blocking("typed", text, &f.session);
    assert_eq!(
        f.text_reads.load(Ordering::Relaxed),
        2,
        "{:?}",
        r.for_model()
    );
    let written = r.for_model()["content"][0]["text"]
        .as_str()
        .expect("text")
        .to_owned();
    assert!(written.starts_with("Input { city: \"Café 😀\", days: 3, units: Imperial"));
    agree(&f, "typed", text).expect("one outcome");
}

/// An input that reads one member and stops: the tree path refuses the members it left
/// (`serde_json`'s "fewer elements in map"), and the text reader, which was never told
/// the object ended, leaves the call to it.
#[test]
fn an_input_that_stops_early_is_left_to_the_tree() {
    struct First(String);
    impl<'de> Deserialize<'de> for First {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Visit;
            impl<'de> serde::de::Visitor<'de> for Visit {
                type Value = First;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: serde::de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> Result<First, A::Error> {
                    let first: Option<(String, Value)> = map.next_entry()?;
                    Ok(First(first.map(|(k, _)| k).unwrap_or_default()))
                }
            }
            d.deserialize_map(Visit)
        }
    }
    impl Debug for First {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "First({})", self.0)
        }
    }
    let text_reads = Arc::new(AtomicUsize::new(0));
    let package = Package::builder()
        .tool(
            "first",
            SCHEMA,
            Recorder::<First> {
                text_reads: Arc::clone(&text_reads),
                input: PhantomData,
            },
        )
        .build()
        .expect("the schema loads");
    let f = Fixture {
        package,
        session: SessionContext::builder("u").build(),
        text_reads,
    };
    let text = r#"{"city": "Porto", "units": "metric"}"#;
    agree(&f, "first", text).expect("one outcome");
    assert_eq!(f.text_reads.load(Ordering::Relaxed), 0);
    let r = f.package.dispatch_text_blocking("first", text, &f.session);
    assert!(r.is_error, "{:?}", r.for_model());
}
