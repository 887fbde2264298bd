//! A failure of the arguments' deserializer ([`Error`]): serde's message, the path to
//! where it happened, and a fingerprint of the value it names ([`Seen`]).

use std::fmt;

use serde::de::{self, Expected, Unexpected};
use serde_json::Value;

use super::{Integral, integral};
use crate::contract::push_pointer;

/// A deserialization failure and where it happened: the path segments, innermost first,
/// added as the error leaves each container. Boxed, as `serde_json`'s is: every
/// `Result` the reading passes around stays the size of its value.
#[derive(Debug)]
pub(crate) struct Error(pub(super) Box<Failure>);

/// What an [`Error`] holds.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(super) message: String,
    pub(super) path: Vec<Segment>,
    /// A key that did not parse as its (numeric or boolean) type: the failure is the
    /// object's, not the key's (as `serde_path_to_error` says it).
    pub(super) unparsed_key: bool,
    /// The value an "invalid type" or "invalid value" failure names.
    pub(super) value: Option<Seen>,
}

/// A fingerprint of a JSON value, enough to tell which member of an object a failure
/// names: scalars by their value (strings by length and hash), containers by kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Seen {
    Null,
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(u64),
    Str(usize, u64),
    Seq,
    Map,
}

impl Seen {
    pub(super) fn of(value: &Value) -> Self {
        match value {
            Value::Null => Seen::Null,
            Value::Bool(b) => Seen::Bool(*b),
            Value::Number(n) => match integral(n) {
                Integral::Unsigned(u) => Seen::Unsigned(u),
                Integral::Signed(i) => Seen::Signed(i),
                Integral::Float(f) => Seen::Float(f.to_bits()),
            },
            Value::String(s) => Seen::str(s),
            Value::Array(_) => Seen::Seq,
            Value::Object(_) => Seen::Map,
        }
    }

    pub(super) fn of_unexpected(unexpected: &Unexpected<'_>) -> Option<Self> {
        Some(match *unexpected {
            Unexpected::Unit => Seen::Null,
            Unexpected::Bool(b) => Seen::Bool(b),
            Unexpected::Unsigned(u) => Seen::Unsigned(u),
            Unexpected::Signed(i) if i >= 0 => Seen::Unsigned(i.cast_unsigned()),
            Unexpected::Signed(i) => Seen::Signed(i),
            Unexpected::Float(f) => Seen::Float(f.to_bits()),
            Unexpected::Str(s) => Seen::str(s),
            Unexpected::Seq => Seen::Seq,
            Unexpected::Map => Seen::Map,
            _ => return None,
        })
    }

    /// FNV-1a: no allocation, and collisions only blur which member is named.
    pub(super) fn str(s: &str) -> Self {
        let hash = s.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        Seen::Str(s.len(), hash)
    }
}

#[derive(Debug)]
pub(super) enum Segment {
    Key(String),
    Index(usize),
}

impl std::ops::Deref for Error {
    type Target = Failure;
    fn deref(&self) -> &Failure {
        &self.0
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut Failure {
        &mut self.0
    }
}

impl Error {
    #[cold]
    pub(super) fn at(mut self, segment: Segment) -> Self {
        self.path.push(segment);
        self
    }

    #[cold]
    pub(super) fn unparsed_key(mut self) -> Self {
        self.unparsed_key = true;
        self
    }

    pub(super) fn pointer(&self) -> String {
        let mut pointer = String::new();
        for segment in self.path.iter().rev() {
            pointer = match segment {
                Segment::Key(key) => push_pointer(&pointer, key),
                Segment::Index(i) => push_pointer(&pointer, &i.to_string()),
            };
        }
        pointer
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    #[cold]
    fn custom<M: fmt::Display>(message: M) -> Self {
        Error(Box::new(Failure {
            message: message.to_string(),
            path: Vec::new(),
            unparsed_key: false,
            value: None,
        }))
    }

    #[cold]
    fn invalid_type(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        let mut e: Self = de::Error::custom(format_args!(
            "invalid type: {}, expected {expected}",
            Wording(unexpected)
        ));
        e.value = Seen::of_unexpected(&unexpected);
        e
    }

    #[cold]
    fn invalid_value(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        let mut e: Self = de::Error::custom(format_args!(
            "invalid value: {}, expected {expected}",
            Wording(unexpected)
        ));
        e.value = Seen::of_unexpected(&unexpected);
        e
    }
}

/// An unexpected value in `serde_json`'s words: `null`, and floats as JSON writes them.
struct Wording<'a>(Unexpected<'a>);

impl fmt::Display for Wording<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Unexpected::Unit => f.write_str("null"),
            Unexpected::Float(v) => write!(f, "floating point `{}`", Value::from(v)),
            other => fmt::Display::fmt(&other, f),
        }
    }
}
