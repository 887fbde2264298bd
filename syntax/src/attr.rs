//! Attribute parsing: `#[serde(...)]`, `#[schema(...)]` and doc comments.
//!
//! Parsers report into a [`Ctxt`](crate::Ctxt) and go on: a bad attribute is reported and
//! ignored, so every mistake of an item shows up in one build.

pub mod docs;
pub mod schema;
pub mod serde;

use proc_macro2::Span;

/// A value with the span of the tokens it came from.
#[derive(Debug, Clone)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it was written (the key of `key = value`, or the value).
    pub span: Span,
}

impl<T> Spanned<T> {
    /// A value at `span`.
    pub fn new(value: T, span: Span) -> Self {
        Self { value, span }
    }
}

/// Which half of serde a model follows: what it reads (a tool's input, `ToolInput`) or
/// what it writes (a tool's output, `ToolOutput`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// What serde reads: `rename(deserialize = ...)`, `alias`, `default`,
    /// `skip_deserializing`, `deserialize_with`.
    #[default]
    Deserialize,
    /// What serde writes: `rename(serialize = ...)`, `skip_serializing(_if)`,
    /// `serialize_with`.
    Serialize,
}

/// Where an attribute is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// On the struct or enum.
    Container,
    /// On an enum variant.
    Variant,
    /// On a field.
    Field,
}

impl Scope {
    /// How the scope reads in a message.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Container => "container",
            Scope::Variant => "variant",
            Scope::Field => "field",
        }
    }
}

pub use neuralis_model::suggest::did_you_mean;
