//! The compiled form of a schema: a [`Node`] per subschema, holding its keywords as
//! [`Check`]s in `jsonschema`'s order, and the predicates on values the checks share.

use serde_json::{Map, Number, Value};

use super::format::Format;
use super::keyword::key_eq;
use super::num::Num;

#[derive(Debug)]
pub(super) enum Node {
    True,
    False,
    /// A `$ref` (its siblings ignored, as draft-07 says); resolved after compiling.
    Ref(usize),
    Checks(Vec<Check>),
    /// Being compiled.
    Pending,
}

pub(super) const NULL: u8 = 1;
pub(super) const BOOLEAN: u8 = 2;
pub(super) const INTEGER: u8 = 4;
pub(super) const NUMBER: u8 = 8;
pub(super) const STRING: u8 = 16;
pub(super) const ARRAY: u8 = 32;
pub(super) const OBJECT: u8 = 64;
pub(super) const TYPE_NAMES: [(u8, &str); 7] = [
    (NULL, "null"),
    (BOOLEAN, "boolean"),
    (INTEGER, "integer"),
    (NUMBER, "number"),
    (STRING, "string"),
    (ARRAY, "array"),
    (OBJECT, "object"),
];

#[derive(Debug)]
pub(super) enum Check {
    Type {
        set: u8,
        single: bool,
    },
    Enum(Vec<Value>),
    Const(Value),
    Minimum(Num, Number),
    Maximum(Num, Number),
    ExclusiveMinimum(Num, Number),
    ExclusiveMaximum(Num, Number),
    MultipleOf(f64),
    MinLength(u64),
    MaxLength(u64),
    Pattern(Box<regex_lite::Regex>, String),
    Format(Format, String),
    Items(usize),
    MinItems(u64),
    MaxItems(u64),
    UniqueItems,
    /// `properties` with `additionalProperties` absent or `true`.
    Properties(Vec<(Name, usize)>),
    /// `properties` (possibly none) with `additionalProperties`: `None` is `false`.
    Closed {
        properties: Vec<(Name, usize)>,
        additional: Option<usize>,
        /// Whether the schema has `properties` at all (without it, an extra key is the
        /// false schema's failure, as `jsonschema` words it).
        declared: bool,
        /// A `required` of one name beside `additionalProperties: false`: `jsonschema`
        /// checks it in the same pass and reports it after the members.
        required: Option<String>,
        /// The declared properties a sibling `required` names (bits by index), checked in
        /// the members' pass by `is_valid`; the `required` check then answers `true` there
        /// (and still reports, in its place, when errors are listed).
        required_mask: u64,
    },
    /// The names; `true` when the closed object's pass checks them (`is_valid` only).
    Required(Vec<String>, bool),
    PropertyNames(usize),
    /// The default `propertyNames` the normalizer writes, decided without a regex.
    DefaultPropertyNames(Box<Value>),
    AllOf(Vec<usize>),
    AnyOf(Vec<usize>),
    OneOf(Vec<usize>),
    Not(usize, Box<Value>),
}

/// A declared property name, with what a look-up compares first: its length and its
/// first eight bytes.
#[derive(Debug)]
pub(super) struct Name {
    pub(super) text: String,
    pub(super) head: u64,
}

impl Name {
    pub(super) fn new(text: &str) -> Name {
        Name {
            text: text.to_owned(),
            head: head(text),
        }
    }

    #[inline]
    pub(super) fn matches(&self, key: &str, key_head: u64) -> bool {
        self.head == key_head
            && self.text.len() == key.len()
            && (key.len() <= 8 || self.text.as_bytes()[8..] == key.as_bytes()[8..])
    }
}

/// The first eight bytes of a key (zero-padded), as one number.
#[inline]
pub(super) fn head(key: &str) -> u64 {
    let b = key.as_bytes();
    if let Some(first) = b.first_chunk::<8>() {
        return u64::from_le_bytes(*first);
    }
    let mut h = 0u64;
    for (i, byte) in b.iter().enumerate() {
        h |= u64::from(*byte) << (8 * i);
    }
    h
}

impl Check {
    /// The order of a schema's keywords: `jsonschema`'s (cheap assertions first, then the
    /// applicators), document order between equals.
    pub(super) fn priority(&self) -> u8 {
        match self {
            Check::Type { .. } => 1,
            Check::Const(_) => 5,
            Check::Enum(_) => 6,
            Check::Minimum(..) => 10,
            Check::Maximum(..) => 11,
            Check::ExclusiveMinimum(..) => 12,
            Check::ExclusiveMaximum(..) => 13,
            Check::MultipleOf(_) => 14,
            Check::MinLength(_) => 20,
            Check::MaxLength(_) => 21,
            Check::MinItems(_) => 22,
            Check::MaxItems(_) => 23,
            Check::Required(..) => 26,
            Check::Pattern(..) => 30,
            Check::Format(..) => 31,
            Check::UniqueItems => 35,
            Check::Properties(_) => 40,
            Check::Closed { .. } => 42,
            Check::PropertyNames(_) | Check::DefaultPropertyNames(_) => 43,
            Check::Items(_) => 44,
            Check::AllOf(_) => 50,
            Check::AnyOf(_) => 51,
            Check::OneOf(_) => 52,
            Check::Not(..) => 53,
        }
    }
}

pub(super) fn type_bit(name: &str) -> Option<u8> {
    TYPE_NAMES.iter().find(|(_, n)| *n == name).map(|(b, _)| *b)
}

/// The value of `key` in `map`, found as [`has_key`](super::keyword::has_key) finds it: a small map is scanned
/// (cheaper than hashing the key), a larger one looked up.
pub(super) fn get_key<'m>(map: &'m Map<String, Value>, key: &str) -> Option<&'m Value> {
    if map.len() <= 8 {
        map.iter().find(|(k, _)| key_eq(k, key)).map(|(_, v)| v)
    } else {
        map.get(key)
    }
}
