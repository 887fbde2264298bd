//! `deserialize_input` (the pipeline's own deserializer over a validated `Value`) against
//! two oracles nobody here wrote: `serde_json::from_value` for what comes out (the input,
//! or the failure's message) and `serde_path_to_error` for where a failure is. The one
//! rule of ours is applied to the oracles' input first: a number with a zero fraction
//! within the 64-bit range is the integer it is (JSON Schema's `integer` accepts `5.0`).
//!
//! Values are drawn from keys and shapes the input types use, so that most draws reach
//! deep into a type before they fail (or do not fail at all).

use std::collections::{BTreeMap, HashMap};

use neuralis_core::dispatch::deserialize_input;
use neuralis_core::result::ToolResult;
use proptest::prelude::*;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

#[derive(Deserialize, Debug, PartialEq)]
struct Leaf {
    a: String,
    #[serde(default)]
    n: u8,
    b: Option<bool>,
}

#[derive(Deserialize, Debug, PartialEq)]
enum Kind {
    Unit,
    New(i32),
    Tuple(u8, String),
    Struct { a: String },
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "kind")]
enum Tagged {
    A { n: u8 },
    B(Leaf),
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Either {
    Num(f64),
    Text(String),
    Leaf(Leaf),
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct Strict {
    a: Vec<Leaf>,
    #[serde(default)]
    b: Option<Kind>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Flat {
    n: i64,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Newtype(Vec<u16>);

#[derive(Deserialize, Debug, PartialEq)]
struct Unit;

#[derive(Deserialize, Debug, PartialEq)]
struct Wide {
    a: Option<Box<Wide>>,
    b: Option<(u8, char)>,
    n: Option<HashMap<u32, bool>>,
    x: Option<BTreeMap<bool, Kind>>,
    kind: Option<Tagged>,
    #[serde(rename = "1")]
    one: Option<Either>,
}

/// The pointer and message of a refusal, or the value.
fn ours<T: DeserializeOwned>(v: &Value) -> Result<T, (String, String)> {
    deserialize_input::<T>("t", v.clone()).map_err(|r| refusal(&r))
}

fn refusal(r: &ToolResult) -> (String, String) {
    let e = &r.structured_content.as_ref().expect("structured")["errors"][0];
    let s = |k: &str| e[k].as_str().expect("string").to_owned();
    (s("pointer"), s("message"))
}

/// `v` with every float that has a zero fraction and fits 64 bits written as an integer.
fn integral(v: &Value) -> Value {
    match v {
        Value::Number(n) if !n.is_u64() && !n.is_i64() => {
            let f = n.as_f64().expect("a float");
            if f.fract() != 0.0 {
                v.clone()
            } else if (0.0..18_446_744_073_709_551_616.0).contains(&f) {
                json!(f as u64)
            } else if (-9_223_372_036_854_775_808.0..0.0).contains(&f) {
                json!(f as i64)
            } else {
                v.clone()
            }
        }
        Value::Array(a) => Value::Array(a.iter().map(integral).collect()),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), integral(v))).collect())
        }
        other => other.clone(),
    }
}

/// The oracles: `serde_json::from_value` for the outcome, `serde_path_to_error` (over the
/// same value, by reference) for the pointer of a failure; both given `v` with its
/// integral floats as integers.
fn theirs<T: DeserializeOwned>(v: &Value) -> Result<T, (String, String)> {
    let v = &integral(v);
    serde_json::from_value::<T>(v.clone()).map_err(|e| {
        let tracked = serde_path_to_error::deserialize::<_, T>(v)
            .err()
            .expect("both fail");
        let mut pointer = String::new();
        for segment in tracked.path().iter() {
            use serde_path_to_error::Segment;
            let token = match segment {
                Segment::Seq { index } => index.to_string(),
                Segment::Map { key } => key.clone(),
                Segment::Enum { variant } => variant.clone(),
                Segment::Unknown => continue,
            };
            pointer.push('/');
            pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
        }
        // A numeric key's failure comes from `serde_json`'s text parser, with a location
        // that means nothing for a value: the message is compared without it.
        let message = e.to_string();
        let message = match message.rfind(" at line ") {
            Some(i) => message[..i].to_owned(),
            None => message,
        };
        (pointer, message)
    })
}

fn agree<T: DeserializeOwned + PartialEq + std::fmt::Debug>(
    v: &Value,
) -> Result<(), TestCaseError> {
    let (a, b) = (ours::<T>(v), theirs::<T>(v));
    match (&a, &b) {
        (Ok(x), Ok(y)) => prop_assert_eq!(x, y),
        (Err(x), Err(y)) if x != y && array_as_struct(v, x) => {}
        (Err(x), Err(y)) => prop_assert_eq!(x, y, "{}", v),
        (Err(x), Ok(_)) if array_as_struct(v, x) => {}
        _ => prop_assert!(false, "{v}: ours {a:?}, serde_json {b:?}"),
    }
    Ok(())
}

/// The one difference on purpose: a struct is read from an object only (serde_json also
/// takes an array of its fields, which no struct's object schema lets through). True
/// when ours refused an array where a struct was expected.
fn array_as_struct(v: &Value, (pointer, message): &(String, String)) -> bool {
    message.starts_with("invalid type: sequence, expected struct")
        && v.pointer(pointer).is_some_and(Value::is_array)
}

fn key() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "a", "b", "n", "x", "kind", "1", "-2", "true", "false", "Unit", "New", "Tuple", "Struct",
        "A", "B", "zz", "a/b~",
    ])
    .prop_map(str::to_owned)
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        prop_oneof![
            Just(0i64),
            Just(1),
            Just(255),
            Just(256),
            Just(-1),
            Just(70_000)
        ]
        .prop_map(|n| json!(n)),
        Just(json!(1.5)),
        prop::sample::select(vec![0.0, 5.0, -1.0, 255.0, 256.0, -0.0, 1e19, 1e20, -1e19])
            .prop_map(|f| json!(f)),
        Just(json!(u64::MAX)),
        prop::sample::select(vec!["", "x", "Unit", "New", "A", "é😀", "ab"]).prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn agrees_with_serde_json_and_path_to_error(v in json()) {
        agree::<Leaf>(&v)?;
        agree::<Kind>(&v)?;
        agree::<Tagged>(&v)?;
        agree::<Either>(&v)?;
        agree::<Strict>(&v)?;
        agree::<Flat>(&v)?;
        agree::<Newtype>(&v)?;
        agree::<Unit>(&v)?;
        agree::<Wide>(&v)?;
        agree::<Vec<Kind>>(&v)?;
        agree::<HashMap<String, Vec<Option<u8>>>>(&v)?;
        agree::<BTreeMap<i8, String>>(&v)?;
        agree::<Value>(&v)?;
    }
}

#[test]
fn the_pointer_of_a_deep_failure() {
    let v = json!({"a": [{"a": "x", "b": null}, {"a": "y", "n": 300, "b": true}]});
    assert_eq!(
        ours::<Strict>(&v).expect_err("refused"),
        (
            "/a/1/n".to_owned(),
            "invalid value: integer `300`, expected u8".to_owned()
        )
    );
    let v = json!({"b": {"Struct": {"a": 7}}, "a": []});
    assert_eq!(ours::<Strict>(&v).expect_err("refused").0, "/b/Struct/a");
}

#[test]
fn a_struct_is_read_from_an_object_only() {
    let v = json!({"a": [["x", 1, true]]});
    assert!(theirs::<Strict>(&v).is_ok(), "serde_json takes the array");
    assert_eq!(
        ours::<Strict>(&v).expect_err("refused"),
        (
            "/a/0".to_owned(),
            "invalid type: sequence, expected struct Leaf".to_owned()
        )
    );
}

#[derive(Deserialize, Debug, PartialEq)]
struct Paging {
    page: u8,
    size: Option<u16>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Listing {
    query: String,
    #[serde(flatten)]
    paging: Paging,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Outer {
    inner: Listing,
}

#[test]
fn integral_floats_read_as_integers() {
    let v = json!({"query": "q", "page": 5.0, "size": 300.0});
    let read: Listing = ours(&v).expect("read");
    assert_eq!(
        read,
        Listing {
            query: "q".into(),
            paging: Paging {
                page: 5,
                size: Some(300)
            }
        }
    );
    let v = json!({"a": "x", "n": 7.0, "b": null});
    assert_eq!(ours::<Leaf>(&v).expect("read").n, 7);
    // Out of the type's range, or not integral: refused as before, at the field.
    let v = json!({"a": "x", "n": 256.0});
    assert_eq!(
        ours::<Leaf>(&v).expect_err("refused"),
        (
            "/n".to_owned(),
            "invalid value: integer `256`, expected u8".to_owned()
        )
    );
    let v = json!({"a": "x", "n": 2.5});
    assert_eq!(ours::<Leaf>(&v).expect_err("refused").0, "/n");
}

#[test]
fn a_flattened_fields_refusal_points_at_the_field() {
    let v = json!({"query": "q", "page": "two"});
    assert_eq!(
        ours::<Listing>(&v).expect_err("refused"),
        (
            "/page".to_owned(),
            "invalid type: string \"two\", expected u8".to_owned()
        )
    );
    // serde_path_to_error cannot say where: the flattened struct is read from serde's
    // buffer, after the object's own loop.
    assert_eq!(theirs::<Listing>(&v).expect_err("refused").0, "");
    let v = json!({"inner": {"size": 70000, "query": "q", "page": 1}});
    assert_eq!(ours::<Outer>(&v).expect_err("refused").0, "/inner/size");
    let v = json!({"inner": {"size": 1, "query": "q", "page": 1.5}});
    assert_eq!(ours::<Outer>(&v).expect_err("refused").0, "/inner/page");
    // A missing member is the object's failure.
    let v = json!({"query": "q", "size": 1});
    assert_eq!(
        ours::<Listing>(&v).expect_err("refused"),
        ("".to_owned(), "missing field `page`".to_owned())
    );
}
