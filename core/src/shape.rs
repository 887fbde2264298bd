//! The JSON kind of each root property, readable in `const` code, so that `#[tool]` can
//! check a `defaults(key = value)` literal against the type of the property it defaults
//! (`defaults-undeclared`) when the crate compiles, even for an input defined in another
//! crate. `#[derive(ToolInput)]` writes `ToolInput::ROOT_SHAPES` from the field types it
//! recognises; a type it composes through the trait reads as [`Shape::Any`].
//!
//! ```
//! use neuralis_core::shape::{KeyShape, Lit, Shape, default_fits};
//!
//! const KEYS: &[KeyShape] = &[
//!     KeyShape::Key("days", Shape::int(0, 255)),
//!     KeyShape::Flatten(&[KeyShape::Key("city", Shape::Str)]),
//! ];
//! const _: () = assert!(default_fits(KEYS, "days", Lit::Int(3)));
//! assert!(!default_fits(KEYS, "days", Lit::Int(300)));
//! assert!(!default_fits(KEYS, "days", Lit::Str));
//! assert!(default_fits(KEYS, "city", Lit::Str));
//! ```

/// What kind of JSON value a type's schema accepts, as far as a literal can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Anything, or a type whose schema is composed at run time (the check passes).
    Any,
    /// `true` or `false`.
    Bool,
    /// An integer within bounds.
    Int {
        /// The smallest value.
        min: i128,
        /// The largest value.
        max: u128,
    },
    /// Any number.
    Number,
    /// A string.
    Str,
    /// An array.
    Array,
    /// An object (no literal is one).
    Object,
}

impl Shape {
    /// The shape of an integer type.
    #[must_use]
    pub const fn int(min: i128, max: u128) -> Self {
        Shape::Int { min, max }
    }
}

/// One root key with the shape of its type, or the keys of a flattened type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyShape {
    /// A property (serde name) and its type's shape.
    Key(&'static str, Shape),
    /// The keys of a flattened type.
    Flatten(&'static [KeyShape]),
}

/// A `defaults` literal, by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lit {
    /// `true`, `false`.
    Bool,
    /// An integer.
    Int(i128),
    /// A number with a fraction or exponent.
    Float,
    /// A string.
    Str,
    /// An array.
    Array,
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The shape of root key `name`, looking through flattened types.
#[must_use]
pub const fn key_shape(keys: &[KeyShape], name: &str) -> Option<Shape> {
    let mut i = 0;
    while i < keys.len() {
        match keys[i] {
            KeyShape::Key(n, shape) => {
                if str_eq(n, name) {
                    return Some(shape);
                }
            }
            KeyShape::Flatten(inner) => {
                if let Some(s) = key_shape(inner, name) {
                    return Some(s);
                }
            }
        }
        i += 1;
    }
    None
}

/// Whether `lit` fits a value of `shape`.
#[must_use]
pub const fn fits(shape: Shape, lit: Lit) -> bool {
    match (shape, lit) {
        (Shape::Any, _)
        | (Shape::Bool, Lit::Bool)
        | (Shape::Number, Lit::Int(_) | Lit::Float)
        | (Shape::Str, Lit::Str)
        | (Shape::Array, Lit::Array) => true,
        (Shape::Int { min, max }, Lit::Int(v)) => v >= min && (v < 0 || v as u128 <= max),
        _ => false,
    }
}

/// Whether a default `lit` for root key `name` fits the key's type. A key that is not
/// among `keys` passes here: `has_root_key` reports it.
#[must_use]
pub const fn default_fits(keys: &[KeyShape], name: &str, lit: Lit) -> bool {
    match key_shape(keys, name) {
        Some(shape) => fits(shape, lit),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_against_shapes() {
        let u8s = Shape::int(0, 255);
        assert!(fits(u8s, Lit::Int(0)) && fits(u8s, Lit::Int(255)));
        assert!(!fits(u8s, Lit::Int(256)) && !fits(u8s, Lit::Int(-1)));
        assert!(!fits(u8s, Lit::Float) && !fits(u8s, Lit::Str));
        assert!(fits(Shape::Number, Lit::Int(-3)) && fits(Shape::Number, Lit::Float));
        assert!(!fits(Shape::Object, Lit::Str) && !fits(Shape::Str, Lit::Bool));
        assert!(fits(Shape::Any, Lit::Array));
    }
}
