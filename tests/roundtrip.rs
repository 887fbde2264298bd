//! Schema and serde agree, on generated values.
//!
//! For each type: every generated value serializes to JSON that the derived schema
//! accepts, and so does serde on the way back; then every document made by breaking one
//! place of that JSON (a wrong type, an out-of-range number, a missing key, an unknown
//! key where the type denies them) is accepted by the schema exactly when serde accepts
//! it. For types with `#[schema]` constraints (stricter than serde by design) only
//! "the schema accepts ⇒ serde accepts" holds, and is checked.
//!
//! "serde" here is the call pipeline's own deserializer (`deserialize_input`), which is
//! what a handler's input goes through. Every document with its integers written as
//! floats (`5.0`: JSON Schema's `integer` accepts them, and model providers send them) is
//! accepted by both and reads as the same value.
//!
//! Known, documented gaps: `null` for an `Option` field (serde reads it as `None`; the
//! schema, following the contract, has no `null`), unknown keys in types without
//! `deny_unknown_fields` (serde ignores them; the closed schema refuses them).
//!
//! Outputs: every generated value, as serde writes it (`null`s included), validates
//! against the type's output schema (`#[derive(ToolOutput)]`).
#![allow(missing_docs)]

mod common;

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Debug;

use common::types::*;
use neuralis::dispatch::Output;
use neuralis::{ToolInput, ToolOutput};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// How strictly schema and serde must agree on broken documents.
#[derive(Clone, Copy, PartialEq)]
enum Agree {
    /// Schema and serde accept exactly the same broken documents.
    Exactly,
    /// The schema accepts only what serde accepts (it may refuse more).
    SchemaStricter,
}

fn strip_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, v| !v.is_null());
            m.values_mut().for_each(strip_nulls);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}

const WRONG: &[fn() -> Value] = &[
    || json!(true),
    || json!("x"),
    || json!(1.5),
    || json!(2.0),
    || json!(-1),
    || json!(300),
    || json!(70000),
    || json!([]),
    || json!({}),
];

/// Every document made by breaking one place of `doc`.
fn mutations(doc: &Value, deny_unknown_at_root: bool) -> Vec<Value> {
    fn places(v: &Value, path: Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(path.clone());
        match v {
            Value::Object(m) => {
                for (k, v) in m {
                    let mut p = path.clone();
                    p.push(k.clone());
                    places(v, p, out);
                }
            }
            Value::Array(a) => {
                for (i, v) in a.iter().enumerate() {
                    let mut p = path.clone();
                    p.push(i.to_string());
                    places(v, p, out);
                }
            }
            _ => {}
        }
    }
    fn at<'a>(v: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
        path.iter().try_fold(v, |v, k| match v {
            Value::Object(m) => m.get_mut(k),
            Value::Array(a) => k.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
            _ => None,
        })
    }
    let mut paths = Vec::new();
    places(doc, Vec::new(), &mut paths);
    let mut out = Vec::new();
    for path in paths.iter().filter(|p| !p.is_empty()) {
        for wrong in WRONG {
            let mut d = doc.clone();
            if let Some(slot) = at(&mut d, path) {
                *slot = wrong();
                out.push(d);
            }
        }
        let (last, parent) = path.split_last().expect("not the root");
        let mut d = doc.clone();
        if let Some(Value::Object(m)) = at(&mut d, parent) {
            m.remove(last);
            out.push(d);
        }
    }
    if deny_unknown_at_root {
        let mut d = doc.clone();
        if let Some(m) = d.as_object_mut() {
            m.insert("unknownKey".into(), json!(1));
            out.push(d);
        }
    }
    out
}

fn agree<T>(
    validator: &jsonschema::Validator,
    value: &T,
    deny_unknown: bool,
    how: Agree,
) -> Result<(), TestCaseError>
where
    T: Serialize + DeserializeOwned + Debug,
{
    let mut doc = serde_json::to_value(value).expect("values serialize");
    strip_nulls(&mut doc);
    prop_assert!(
        validator.is_valid(&doc),
        "the schema refuses a serialized value: {doc}\n{:?}",
        validator
            .iter_errors(&doc)
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
    prop_assert!(
        reads::<T>(&doc).is_ok(),
        "serde refuses its own output: {doc}"
    );
    let floats = integers_as_floats(&doc);
    prop_assert!(
        validator.is_valid(&floats),
        "the schema refuses integers written as floats: {floats}"
    );
    match reads::<T>(&floats) {
        Ok(back) => {
            let mut back = serde_json::to_value(&back).expect("values serialize");
            strip_nulls(&mut back);
            prop_assert_eq!(
                floats_as_integers(&back),
                floats_as_integers(&doc),
                "{} read as another value",
                floats
            );
        }
        Err(e) => prop_assert!(false, "a valid call is refused: {floats}: {e}"),
    }
    for broken in mutations(&doc, deny_unknown) {
        let schema_ok = validator.is_valid(&broken);
        let serde_ok = reads::<T>(&broken).is_ok();
        if schema_ok {
            prop_assert!(serde_ok, "the schema accepts what serde refuses: {broken}");
        }
        // A set's schema refuses duplicates (`uniqueItems`) that serde merges without a
        // word: stricter on purpose, so a mutation that only duplicates an item is no
        // disagreement.
        let only_duplicates = validator.iter_errors(&broken).all(|e| {
            matches!(
                e.kind(),
                jsonschema::error::ValidationErrorKind::UniqueItems
            )
        });
        if how == Agree::Exactly && !schema_ok && !only_duplicates {
            prop_assert!(!serde_ok, "serde accepts what the schema refuses: {broken}");
        }
    }
    Ok(())
}

/// `doc` read as the pipeline reads a handler's input; the refusal's text otherwise.
fn reads<T: DeserializeOwned>(doc: &Value) -> Result<T, String> {
    neuralis::dispatch::deserialize_input::<T>("t", doc.clone())
        .map_err(|r| serde_json::to_string(&r).unwrap_or_default())
}

/// Every integer written as a float (`5` as `5.0`), where `f64` holds it exactly.
fn integers_as_floats(v: &Value) -> Value {
    match v {
        Value::Number(n) if n.is_i64() || n.is_u64() => match n.as_f64() {
            Some(f) if f.abs() < 9_007_199_254_740_992.0 => json!(f),
            _ => v.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(integers_as_floats).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), integers_as_floats(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Every number with a zero fraction written as an integer, to compare values as JSON
/// Schema does (`5.0` and `5` are one number); arrays in a fixed order, since a hash set
/// writes its items in the order of its own hasher.
fn floats_as_integers(v: &Value) -> Value {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if !n.is_i64() && !n.is_u64() && f.fract() == 0.0 && f.abs() < 9e15 => {
                #[allow(clippy::cast_possible_truncation)]
                let i = f as i64;
                json!(i)
            }
            _ => v.clone(),
        },
        Value::Array(a) => {
            let mut items: Vec<Value> = a.iter().map(floats_as_integers).collect();
            items.sort_by_cached_key(Value::to_string);
            Value::Array(items)
        }
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), floats_as_integers(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// What serde writes validates against the type's output schema (as the pipeline sends
/// it: wrapped as `result` when the schema is not an object's).
fn written_fits<T: Serialize>(
    output: &Output,
    validator: &jsonschema::Validator,
    value: &T,
) -> Result<(), TestCaseError> {
    let written = serde_json::to_value(value).expect("values serialize");
    let sent = if output.is_wrapped() {
        json!({ "result": written })
    } else {
        written
    };
    prop_assert!(
        validator.is_valid(&sent),
        "the output schema refuses what serde writes: {sent}\n{:?}",
        validator
            .iter_errors(&sent)
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
    Ok(())
}

fn check<T, S>(strategy: S, deny_unknown: bool, how: Agree)
where
    T: ToolInput + ToolOutput + Serialize + DeserializeOwned + Debug,
    S: Strategy<Value = T>,
{
    let schema = T::schema();
    let validator = jsonschema::draft7::new(&schema).expect("the schema compiles");
    let output = Output::of::<T>();
    let output_validator =
        jsonschema::draft7::new(output.schema()).expect("the output schema compiles");
    let config = ProptestConfig {
        cases: 64,
        ..ProptestConfig::default()
    };
    let mut runner = proptest::test_runner::TestRunner::new(config);
    runner
        .run(&strategy, |value| {
            written_fits(&output, &output_validator, &value)?;
            agree(&validator, &value, deny_unknown, how)
        })
        .unwrap_or_else(|e| panic!("{}: {e}", std::any::type_name::<T>()));
}

fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 é_-]{0,8}"
}

/// Map keys the default `propertyNames` of an open bag accepts (no `__` or `$` prefix,
/// no `__proto__`, `constructor`, `prototype`).
fn key() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9][a-zA-Z0-9 é_-]{0,7}".prop_filter("not a guarded name", |k| {
        !matches!(k.as_str(), "constructor" | "prototype")
    })
}

fn leaf() -> impl Strategy<Value = Leaf> {
    (text(), any::<Option<u8>>()).prop_map(|(label, weight)| Leaf { label, weight })
}

#[test]
fn scalars() {
    let s = (
        (
            any::<bool>(),
            any::<i8>(),
            any::<i16>(),
            any::<i32>(),
            any::<i64>(),
            any::<isize>(),
        ),
        (
            any::<u8>(),
            any::<u16>(),
            any::<u32>(),
            any::<u64>(),
            any::<usize>(),
        ),
        (
            -1e30f32..1e30,
            any::<f64>().prop_filter("finite", |f| f.is_finite()),
        ),
        (any::<String>(), any::<char>(), text(), text()),
    )
        .prop_map(
            |(
                (flag, i8, i16, i32, i64, isize),
                (u8, u16, u32, u64, usize),
                (f32, f64),
                (text, letter, cow, boxed),
            )| Scalars {
                flag,
                i8,
                i16,
                i32,
                i64,
                isize,
                u8,
                u16,
                u32,
                u64,
                usize,
                f32,
                f64,
                text,
                letter,
                cow: Cow::Owned(cow),
                boxed: boxed.into_boxed_str(),
            },
        );
    check(s, true, Agree::Exactly);
}

#[test]
fn optionals() {
    let s = (
        any::<Option<u16>>(),
        any::<u8>(),
        any::<u32>(),
        any::<bool>(),
    )
        .prop_map(|(maybe, defaulted, with_path, needed)| Optionals {
            maybe,
            defaulted,
            with_path,
            needed,
        });
    check(s, true, Agree::Exactly);
    check(
        (any::<u8>(), text()).prop_map(|(a, b)| AllDefault { a, b }),
        true,
        Agree::Exactly,
    );
}

#[test]
fn collections() {
    let s = (
        prop::collection::vec(any::<u8>(), 0..4),
        prop::collection::vec_deque(text(), 0..3),
        prop::collection::hash_set(any::<u16>(), 0..3),
        prop::collection::btree_set(text(), 0..3),
        any::<[i8; 3]>(),
        prop::collection::hash_map(key(), any::<u32>(), 0..3),
        prop::collection::btree_map(key(), any::<bool>(), 0..3),
        (
            any::<Option<i32>>(),
            leaf(),
            prop::collection::vec(prop::collection::vec(any::<bool>(), 0..2), 0..2),
        ),
    )
        .prop_map(
            |(
                list,
                deque,
                hash_set,
                tree_set,
                triple,
                hash_map,
                tree_map,
                (any, leaf, nested_list),
            )| {
                Collections {
                    list,
                    deque: VecDeque::from_iter(deque),
                    hash_set: HashSet::from_iter(hash_set),
                    tree_set: BTreeSet::from_iter(tree_set),
                    triple,
                    hash_map: HashMap::from_iter(hash_map),
                    tree_map: BTreeMap::from_iter(tree_map),
                    any: json!({ "n": any }),
                    bag: serde_json::Map::from_iter([("k".to_owned(), json!(any))]),
                    boxed: Box::new(leaf),
                    nested_list,
                }
            },
        );
    check(s, true, Agree::Exactly);
}

#[test]
fn renamed() {
    let s = (text(), text(), any::<u8>(), text()).prop_map(
        |(city_name, postal_code, both_ways, r#type)| Renamed {
            city_name,
            postal_code,
            both_ways,
            r#type,
            cache: 0,
            computed: 0,
        },
    );
    check(s, true, Agree::Exactly);
}

#[test]
fn cases() {
    let s = (any::<u8>(), any::<bool>()).prop_map(|(u, b)| Cases {
        lower: Lower {
            user_id: u,
            very_long_name: b,
        },
        upper: Upper {
            user_id: u,
            very_long_name: b,
        },
        pascal: Pascal {
            user_id: u,
            very_long_name: b,
        },
        camel: Camel {
            user_id: u,
            very_long_name: b,
        },
        snake: Snake {
            user_id: u,
            very_long_name: b,
        },
        screaming_snake: ScreamingSnake {
            user_id: u,
            very_long_name: b,
        },
        kebab: Kebab {
            user_id: u,
            very_long_name: b,
        },
        screaming_kebab: ScreamingKebab {
            user_id: u,
            very_long_name: b,
        },
    });
    check(s, true, Agree::Exactly);
}

#[test]
fn enums() {
    let shout = prop_oneof![
        Just(Shout::VeryLoud),
        Just(Shout::Quiet),
        Just(Shout::Renamed)
    ];
    let units = prop_oneof![Just(Units::Metric), Just(Units::Imperial)];
    let external = prop_oneof![
        Just(External::Nothing),
        any::<u8>().prop_map(External::Number),
        (any::<i32>(), any::<i32>()).prop_map(|(x_pos, y_pos)| External::Point { x_pos, y_pos }),
    ];
    let internal = prop_oneof![
        any::<u16>().prop_map(|radius| Internal::Circle { radius }),
        leaf().prop_map(Internal::Leaf),
        Just(Internal::Empty),
    ];
    let adjacent = prop_oneof![
        text().prop_map(Adjacent::Text),
        (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Adjacent::Pair { a, b }),
        Just(Adjacent::Unit),
    ];
    let untagged = prop_oneof![
        any::<bool>().prop_map(Untagged::Flag),
        text().prop_map(|name| Untagged::Named { name }),
    ];
    let s = (shout, units, external, internal, adjacent, untagged).prop_map(
        |(shout, units, external, internal, adjacent, untagged)| Enums {
            shout,
            units,
            external,
            internal,
            adjacent,
            untagged,
        },
    );
    check(s, true, Agree::Exactly);
}

#[test]
fn flattened() {
    let s = (
        text(),
        any::<u8>(),
        prop::option::of(text()),
        prop::option::of(text()),
    )
        .prop_map(|(query, limit, cursor, tag)| Flattened {
            query,
            page: Page { limit, cursor },
            filter: tag.map(|tag| Filter { tag }),
        });
    check(s, false, Agree::SchemaStricter);
}

#[test]
fn wrappers() {
    let s = (
        any::<f64>().prop_filter("finite", |f| f.is_finite()),
        "[a-z]{3,6}@x\\.io",
        leaf(),
    )
        .prop_map(|(m, address, leaf)| Wrappers {
            meters: Meters(m),
            email: Email { address },
            inner: Transparent { leaf },
        });
    check(s, true, Agree::SchemaStricter);
}

#[test]
fn recursive() {
    let tree = any::<u8>()
        .prop_map(|value| Tree {
            value,
            children: Vec::new(),
        })
        .prop_recursive(3, 8, 2, |inner| {
            (any::<u8>(), prop::collection::vec(inner, 0..2))
                .prop_map(|(value, children)| Tree { value, children })
        });
    let s = (
        text(),
        tree.clone(),
        prop::collection::vec((text(), tree), 0..2),
    )
        .prop_map(|(name, tree, kids)| Recursive {
            name,
            tree,
            children: kids
                .into_iter()
                .map(|(name, tree)| Recursive {
                    name,
                    tree,
                    children: Vec::new(),
                })
                .collect(),
        });
    check(s, true, Agree::Exactly);
}

#[test]
fn keywords() {
    let s = (
        1u8..=14,
        (1u32..199).prop_map(|n| f64::from(n) / 2.0),
        "[a-z]{1,8}",
        prop::collection::btree_set(any::<u8>(), 1..=3),
        any::<Option<bool>>(),
        any::<f64>().prop_filter("finite", |f| f.is_finite()),
    )
        .prop_map(|(days, ratio, code, picks, old, distance)| Keywords {
            days,
            ratio,
            code,
            date: "2026-11-30".into(),
            picks: picks.into_iter().collect(),
            old,
            distance,
        });
    check(s, true, Agree::SchemaStricter);
}

#[test]
fn docs() {
    let s = (text(), text(), text(), text(), text()).prop_map(
        |(multi, included, block, linked, referenced)| Docs {
            multi,
            included,
            block,
            linked,
            referenced,
        },
    );
    check(s, true, Agree::Exactly);
}

#[test]
fn wide() {
    // serde_json writes 128-bit integers only within the 64-bit range.
    let s = (
        any::<i64>(),
        any::<u64>(),
        prop::collection::linked_list(any::<u8>(), 0..3),
        prop::collection::vec(any::<bool>(), 0..3),
    )
        .prop_map(|(big, huge, linked, slice)| Wide {
            big: i128::from(big),
            huge: u128::from(huge),
            linked,
            slice: slice.into_boxed_slice(),
        });
    check(s, true, Agree::Exactly);
}

#[test]
fn generics() {
    let s = (
        prop::collection::vec(leaf(), 0..3),
        prop::collection::vec(any::<i16>(), 0..3),
        any::<u32>(),
    )
        .prop_map(|(leaves, numbers, total)| Generics {
            leaves: Paged {
                items: leaves,
                total,
            },
            numbers: Paged {
                items: numbers,
                total,
            },
        });
    check(s, true, Agree::Exactly);
}

#[test]
fn mutations_break_one_place() {
    let doc = json!({ "a": 1, "b": [true] });
    let all = mutations(&doc, true);
    assert!(all.contains(&json!({ "b": [true] })), "a key removed");
    assert!(
        all.contains(&json!({ "a": "x", "b": [true] })),
        "a wrong type"
    );
    assert!(
        all.contains(&json!({ "a": 1, "b": [300] })),
        "an item broken"
    );
    assert!(all.contains(&json!({ "a": 1, "b": [true], "unknownKey": 1 })));
}

#[test]
fn written_values_fit_their_output_schema() {
    let s = (
        proptest::option::of(any::<u8>()),
        prop_oneof![any::<f64>(), Just(f64::NAN), Just(f64::INFINITY)],
        proptest::option::of(text()),
        text(),
        any::<bool>(),
        proptest::collection::vec(
            prop_oneof![Just(Units::Metric), Just(Units::Imperial)],
            0..3,
        ),
    )
        .prop_map(|(maybe, ratio, note, secret, renamed, tags)| Written {
            maybe,
            ratio,
            note,
            secret,
            renamed,
            tags,
        });
    let output = Output::of::<Written>();
    assert!(!output.is_wrapped());
    let schema = output.schema();
    assert_eq!(schema["required"], json!(["maybe", "ratio", "outName"]));
    let validator = jsonschema::draft7::new(schema).expect("the output schema compiles");
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 128,
        ..ProptestConfig::default()
    });
    runner
        .run(&s, |value| written_fits(&output, &validator, &value))
        .unwrap_or_else(|e| panic!("Written: {e}"));
    // The schema is exact where serde is: a `null` where it never writes one is refused.
    let mut written = serde_json::to_value(Written {
        maybe: None,
        ratio: f64::NAN,
        note: None,
        secret: String::new(),
        renamed: true,
        tags: Vec::new(),
    })
    .expect("serializes");
    assert!(validator.is_valid(&written), "{written}");
    written["note"] = Value::Null;
    assert!(
        !validator.is_valid(&written),
        "`note` is left out, never null"
    );
}
