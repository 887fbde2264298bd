//! One verdict per keyword: [`Check::asserts`] decides every keyword that is decided on
//! the value itself, with one predicate per keyword below it, and [`property`] finds a
//! declared member. The tree walk ([`valid`](super::valid)), the collecting walk
//! ([`collect`](super::collect), which asks the tree walk whether a keyword failed) and the
//! streaming reader's leaf test and plans ([`stream`](super::stream)) all ask these, so a
//! keyword means the same on every path. Only the keywords that hold subschemas (`items`,
//! `properties`, `additionalProperties`, `propertyNames`, `allOf`, `anyOf`, `oneOf`, `not`)
//! are walked by each path in its own way.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::node::{ARRAY, BOOLEAN, Check, INTEGER, NULL, NUMBER, Name, OBJECT, STRING, head};
use super::num::{self, Num};
use crate::schema::default_property_names_accepts;

impl Check {
    /// The verdict of a keyword decided on `v` itself (an assertion); `None` for a keyword
    /// that holds subschemas, whose verdict is theirs.
    #[inline]
    pub(super) fn asserts(&self, v: &Value) -> Option<bool> {
        // On the keyword first (one jump), then on the instance.
        Some(match self {
            Check::Type { set, .. } => of_type(*set, v),
            Check::Enum(options) => in_enum(options, v),
            Check::Const(c) => num::equal(c, v),
            Check::Minimum(l, _) => compared(v, *l, Ordering::is_ge),
            Check::Maximum(l, _) => compared(v, *l, Ordering::is_le),
            Check::ExclusiveMinimum(l, _) => compared(v, *l, Ordering::is_gt),
            Check::ExclusiveMaximum(l, _) => compared(v, *l, Ordering::is_lt),
            Check::MultipleOf(m) => match v {
                Value::Number(n) => num::is_multiple_of(Num::of(n), *m),
                _ => true,
            },
            Check::MinLength(l) => v.as_str().is_none_or(|s| length_at_least(s, *l)),
            Check::MaxLength(l) => v.as_str().is_none_or(|s| length_at_most(s, *l)),
            Check::Pattern(re, _) => v.as_str().is_none_or(|s| re.is_match(s)),
            Check::Format(f, _) => v.as_str().is_none_or(|s| f.accepts(s)),
            Check::MinItems(l) => v.as_array().is_none_or(|a| count_at_least(a.len(), *l)),
            Check::MaxItems(l) => v.as_array().is_none_or(|a| count_at_most(a.len(), *l)),
            Check::UniqueItems => v.as_array().is_none_or(|items| unique(items)),
            Check::Required(names, covered) => {
                *covered
                    || v.as_object()
                        .is_none_or(|map| missing(names, map).next().is_none())
            }
            Check::DefaultPropertyNames(_) => v
                .as_object()
                .is_none_or(|map| map.keys().all(|k| default_property_names_accepts(k))),
            Check::Items(_)
            | Check::Properties(_)
            | Check::Closed { .. }
            | Check::PropertyNames(_)
            | Check::AllOf(_)
            | Check::AnyOf(_)
            | Check::OneOf(_)
            | Check::Not(..) => return None,
        })
    }
}

/// `type`: whether `v` is of a type in `set` (an integer is a number; `1.0` is an integer).
#[inline]
pub(super) fn of_type(set: u8, v: &Value) -> bool {
    match v {
        Value::Null => set & NULL != 0,
        Value::Bool(_) => set & BOOLEAN != 0,
        Value::Number(n) => set & NUMBER != 0 || (set & INTEGER != 0 && Num::of(n).is_integral()),
        Value::String(_) => set & STRING != 0,
        Value::Array(_) => set & ARRAY != 0,
        Value::Object(_) => set & OBJECT != 0,
    }
}

/// `enum`: whether `v` equals one of `options` (`1` equals `1.0`).
#[inline]
pub(super) fn in_enum(options: &[Value], v: &Value) -> bool {
    options.iter().any(|o| num::equal(o, v))
}

/// `minimum`, `maximum` and their exclusive forms: a number compared with the limit
/// (`ok` says which orders pass); anything else passes.
#[inline]
fn compared(v: &Value, limit: Num, ok: fn(Ordering) -> bool) -> bool {
    match v {
        Value::Number(n) => num::compare(Num::of(n), limit).is_some_and(ok),
        _ => true,
    }
}

/// `minLength`, in code points (counted only when the bytes cannot decide).
#[inline]
pub(super) fn length_at_least(s: &str, min: u64) -> bool {
    if s.len() as u64 >= min.saturating_mul(4) {
        return true;
    }
    s.chars().count() as u64 >= min
}

/// `maxLength`, in code points (counted only when the bytes cannot decide).
#[inline]
pub(super) fn length_at_most(s: &str, max: u64) -> bool {
    if s.len() as u64 <= max {
        return true;
    }
    s.chars().count() as u64 <= max
}

/// `minItems`, on an array's length.
#[inline]
pub(super) fn count_at_least(count: usize, min: u64) -> bool {
    count as u64 >= min
}

/// `maxItems`, on an array's length.
#[inline]
pub(super) fn count_at_most(count: usize, max: u64) -> bool {
    count as u64 <= max
}

/// `uniqueItems: true` (`1` and `1.0` are the same item).
fn unique(items: &[Value]) -> bool {
    items
        .iter()
        .enumerate()
        .all(|(i, a)| items[..i].iter().all(|b| !num::equal(a, b)))
}

/// `required`: the names `map` lacks.
#[inline]
pub(super) fn missing<'n>(
    names: &'n [String],
    map: &Map<String, Value>,
) -> impl Iterator<Item = &'n String> {
    names.iter().filter(|n| !has_key(map, n))
}

/// Whether `map` holds `key`: a small map is scanned (cheaper than hashing the key), a
/// larger one looked up.
#[inline]
pub(super) fn has_key(map: &Map<String, Value>, key: &str) -> bool {
    if map.len() <= 8 {
        map.keys().any(|k| key_eq(k, key))
    } else {
        map.contains_key(key)
    }
}

/// String equality for short keys, compared in line (no call for the usual mismatch).
#[inline]
pub(super) fn key_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// `properties`: the index of the declared property `key`, if it is one (its length and
/// first eight bytes compared first).
#[inline]
pub(super) fn property(properties: &[(Name, usize)], key: &str) -> Option<usize> {
    let h = head(key);
    properties.iter().position(|(name, _)| name.matches(key, h))
}
