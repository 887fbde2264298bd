//! What a type's schema accepts, as far as a literal can tell, readable in `const` code,
//! so that the macros check literals against types when the crate compiles, even for a
//! type defined in another crate: `#[tool(defaults(key = value))]` against the property
//! it defaults (`defaults-undeclared`), and `#[schema(default = ...)]` and `examples`
//! against a field whose type is an enum or a nested struct (`schema-attr`).
//!
//! Every `ToolInput` type states its [`ToolInput::SHAPE`](crate::input::ToolInput::SHAPE):
//! `#[derive(ToolInput)]` writes the variant names of a unit enum, `Fields` (its root keys)
//! for a struct;
//! the std impls write their kinds. A type's root keys are here too: `ROOT_KEYS` (the
//! names, [`RootKey`]) and `ROOT_SHAPES` (per root property, its type's shape and the
//! field's own `#[schema]` bounds, [`KeyShape`]); [`RootKey`] says why they are two lists.
//!
//! ```
//! use neuralis_model::shape::{Bounds, KeyShape, Lit, Shape, default_fits};
//!
//! const KEYS: &[KeyShape] = &[
//!     KeyShape::Key("days", Shape::int(0, 255), Bounds::NONE.maximum(14.0)),
//!     KeyShape::Key("urgency", Shape::Enum(&["low", "high"]), Bounds::NONE),
//!     KeyShape::Flatten(&[KeyShape::Key("city", Shape::Str, Bounds::NONE)]),
//! ];
//! const _: () = assert!(default_fits(KEYS, "days", Lit::Int(3)));
//! assert!(!default_fits(KEYS, "days", Lit::Int(30)));
//! assert!(!default_fits(KEYS, "days", Lit::Str("3")));
//! assert!(default_fits(KEYS, "urgency", Lit::Str("low")));
//! assert!(!default_fits(KEYS, "urgency", Lit::Str("medium")));
//! assert!(default_fits(KEYS, "city", Lit::Str("Lisbon")));
//! ```

/// What kind of JSON value a type's schema accepts, as far as a literal can tell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// Anything a literal can be, or a shape no literal check can decide (untagged enums,
    /// hand-written impls): the check passes.
    Any,
    /// `true` or `false`.
    Bool,
    /// An integer within the type's range.
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
    /// A string of one character.
    Char,
    /// One of these strings (a unit-only enum; the unit variants of an externally tagged
    /// enum, whose other variants are objects).
    Enum(&'static [&'static str]),
    /// An array of items of this shape.
    Array(&'static Shape),
    /// An object: no literal is one.
    Object,
    /// An object with these named properties (a struct): no literal is one, and a message
    /// can say which property holds a key one level down.
    Fields(&'static [RootKey]),
}

impl Shape {
    /// The shape of an integer type.
    #[must_use]
    pub const fn int(min: i128, max: u128) -> Self {
        Shape::Int { min, max }
    }
}

/// The `#[schema]` bounds of a field, as far as `const` code checks them (`pattern`,
/// `multiple_of` and `unique_items` are checked by the build emitter, `format` at package
/// load and in the drift tests).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// `minimum`.
    pub minimum: Option<f64>,
    /// `maximum`.
    pub maximum: Option<f64>,
    /// `exclusive_minimum`.
    pub exclusive_minimum: Option<f64>,
    /// `exclusive_maximum`.
    pub exclusive_maximum: Option<f64>,
    /// `min_length`, in characters.
    pub min_length: Option<u64>,
    /// `max_length`, in characters.
    pub max_length: Option<u64>,
    /// `min_items`.
    pub min_items: Option<u64>,
    /// `max_items`.
    pub max_items: Option<u64>,
}

impl Bounds {
    /// No bounds.
    pub const NONE: Bounds = Bounds {
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        min_length: None,
        max_length: None,
        min_items: None,
        max_items: None,
    };

    /// These bounds with `maximum`.
    #[must_use]
    pub const fn maximum(mut self, v: f64) -> Self {
        self.maximum = Some(v);
        self
    }
}

/// One entry of a type's root keys (`ToolInput::ROOT_KEYS`): the property names a closed
/// object schema declares.
///
/// Keys brought in by `#[serde(flatten)]` are kept as a reference to the flattened type's
/// own list, so `const` code can walk them without allocating (see [`has_root_key`]).
///
/// A type's root keys are written in two lists, names here and names with shapes in
/// [`KeyShape`] (`ToolInput::ROOT_SHAPES`), because one list cannot hold both: a struct's
/// [`Shape::Fields`] refers to its keys, and a field's shape is its type's `SHAPE`, so for a
/// type that reaches itself (`struct Node { next: Option<Box<Node>> }`) a list of names
/// *with* shapes would be a `const` that needs its own value (rustc's E0391 cycle). The
/// names list holds no shape, which ends the cycle; both are walked by the functions below.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootKey {
    /// A property name, after serde renaming.
    Name(&'static str),
    /// The root keys of a flattened type.
    Flatten(&'static [RootKey]),
}

/// Every root key of `keys`, flattened, in declaration order.
///
/// ```
/// use neuralis_model::shape::{RootKey, root_key_names};
/// const INNER: &[RootKey] = &[RootKey::Name("b")];
/// const OUTER: &[RootKey] = &[RootKey::Name("a"), RootKey::Flatten(INNER)];
/// assert_eq!(root_key_names(OUTER), ["a", "b"]);
/// ```
#[must_use]
pub fn root_key_names(keys: &[RootKey]) -> Vec<&'static str> {
    let mut out = Vec::new();
    fn walk(keys: &[RootKey], out: &mut Vec<&'static str>) {
        for key in keys {
            match key {
                RootKey::Name(n) => out.push(n),
                RootKey::Flatten(inner) => walk(inner, out),
            }
        }
    }
    walk(keys, &mut out);
    out
}

/// Whether `keys` (flattened) contains `name`; usable in `const` assertions.
///
/// ```
/// use neuralis_model::shape::{RootKey, has_root_key};
/// const KEYS: &[RootKey] = &[RootKey::Flatten(&[RootKey::Name("city")])];
/// const _: () = assert!(has_root_key(KEYS, "city"));
/// assert!(!has_root_key(KEYS, "City"));
/// ```
#[must_use]
pub const fn has_root_key(keys: &[RootKey], name: &str) -> bool {
    let mut i = 0;
    while i < keys.len() {
        match keys[i] {
            RootKey::Name(n) => {
                if str_eq(n, name) {
                    return true;
                }
            }
            RootKey::Flatten(inner) => {
                if has_root_key(inner, name) {
                    return true;
                }
            }
        }
        i += 1;
    }
    false
}

/// The first root key of `keys` (flattened) that is a reserved session-context name
/// (`reserved-input-key`); usable in `const` assertions.
///
/// ```
/// use neuralis_model::shape::{RootKey, reserved_root_key};
/// assert_eq!(reserved_root_key(&[RootKey::Name("userId")]), Some("userId"));
/// assert_eq!(reserved_root_key(&[RootKey::Name("UserId")]), None);
/// ```
#[must_use]
pub const fn reserved_root_key(keys: &[RootKey]) -> Option<&'static str> {
    let reserved = crate::contract::rules::RESERVED_INPUT_KEYS;
    let mut i = 0;
    while i < keys.len() {
        match keys[i] {
            RootKey::Name(n) => {
                let mut j = 0;
                while j < reserved.len() {
                    if str_eq(n, reserved[j]) {
                        return Some(n);
                    }
                    j += 1;
                }
            }
            RootKey::Flatten(inner) => {
                if let Some(n) = reserved_root_key(inner) {
                    return Some(n);
                }
            }
        }
        i += 1;
    }
    None
}

/// The `reserved-input-key` message for the first reserved root key of `keys`, naming
/// it between `head` and `tail`; empty when there is none. For `const` assertions.
///
/// ```
/// use neuralis_model::shape::{RootKey, reserved_key_message};
/// const M: neuralis_model::shape::Message =
///     reserved_key_message(&[RootKey::Name("city"), RootKey::Name("role")], "`", "` is reserved");
/// assert_eq!(M.as_str(), "`role` is reserved");
/// ```
#[must_use]
pub const fn reserved_key_message(keys: &[RootKey], head: &str, tail: &str) -> Message {
    match reserved_root_key(keys) {
        Some(key) => Message::new().push(head).push(key).push(tail),
        None => Message::new(),
    }
}

/// One root key with its type's shape and the field's bounds, or the keys of a
/// flattened type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum KeyShape {
    /// A property (serde name), its type's shape, the field's bounds.
    Key(&'static str, Shape, Bounds),
    /// The keys of a flattened type.
    Flatten(&'static [KeyShape]),
}

/// A literal as the macros read it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lit {
    /// `true`, `false`.
    Bool,
    /// An integer.
    Int(i128),
    /// A number with a fraction or exponent.
    Float(f64),
    /// A string.
    Str(&'static str),
    /// An array.
    Array(&'static [Lit]),
}

/// `a == b`, in `const` code.
pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
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

/// The shape and bounds of root key `name`, looking through flattened types.
#[must_use]
pub const fn key_shape(keys: &[KeyShape], name: &str) -> Option<(Shape, Bounds)> {
    let mut i = 0;
    while i < keys.len() {
        match keys[i] {
            KeyShape::Key(n, shape, bounds) => {
                if str_eq(n, name) {
                    return Some((shape, bounds));
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

/// The root property of `keys` whose own object has a property `name`, one level down
/// (a struct field the author meant to `#[serde(flatten)]`).
#[must_use]
pub const fn nested_key(keys: &[KeyShape], name: &str) -> Option<&'static str> {
    let mut i = 0;
    while i < keys.len() {
        match keys[i] {
            KeyShape::Key(field, Shape::Fields(inner), _) => {
                if has_root_key(inner, name) {
                    return Some(field);
                }
            }
            KeyShape::Key(..) => {}
            KeyShape::Flatten(inner) => {
                if let Some(field) = nested_key(inner, name) {
                    return Some(field);
                }
            }
        }
        i += 1;
    }
    None
}

/// The message for a key that is not a root property: `head`, then, when a root
/// property's own object has it one level down, where it is and the fix, then `tail`.
///
/// ```
/// use neuralis_model::input::RootKey;
/// use neuralis_model::shape::{Bounds, KeyShape, Shape, undeclared_key_message};
///
/// const KEYS: &[KeyShape] = &[
///     KeyShape::Key("options", Shape::Fields(&[RootKey::Name("delete")]), Bounds::NONE),
/// ];
/// let m = undeclared_key_message(KEYS, "delete", "`delete` is no root property", ".");
/// assert_eq!(m.as_str(), "`delete` is no root property (it is a property of `options`, one level down: mark the field `options` `#[serde(flatten)]` to make its properties root properties).");
/// ```
#[must_use]
pub const fn undeclared_key_message(
    keys: &[KeyShape],
    name: &str,
    head: &str,
    tail: &str,
) -> Message {
    let m = Message::new().push(head);
    let m = match nested_key(keys, name) {
        Some(field) => m
            .push(" (it is a property of `")
            .push(field)
            .push("`, one level down: mark the field `")
            .push(field)
            .push("` `#[serde(flatten)]` to make its properties root properties)"),
        None => match closest_key(keys, name) {
            Some((key, _)) => m.push(" (did you mean `").push(key).push("`?)"),
            None => m,
        },
    };
    m.push(tail)
}

/// The root key of `keys` (flattened ones included) closest to `name` by the toolkit's
/// suggestion rule ([`crate::suggest::suggestion_distance`]), with its distance.
const fn closest_key(keys: &[KeyShape], name: &str) -> Option<(&'static str, usize)> {
    let mut best: Option<(&'static str, usize)> = None;
    let mut i = 0;
    while i < keys.len() {
        let found = match keys[i] {
            KeyShape::Key(key, ..) => match crate::suggest::suggestion_distance(name, key) {
                Some(d) => Some((key, d)),
                None => None,
            },
            KeyShape::Flatten(inner) => closest_key(inner, name),
        };
        if let Some((key, d)) = found {
            let better = match best {
                Some((_, b)) => d < b,
                None => true,
            };
            if better {
                best = Some((key, d));
            }
        }
        i += 1;
    }
    best
}

/// Characters (code points) in a string, as JSON Schema counts `minLength`.
const fn chars(s: &str) -> u64 {
    let b = s.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] & 0xC0 != 0x80 {
            n += 1;
        }
        i += 1;
    }
    n
}

/// Why a literal does not fit, for the message.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Misfit {
    /// A literal of another kind than the shape.
    Kind(Shape),
    /// A string that is none of the enum's names.
    NotInEnum(&'static [&'static str]),
    /// An integer outside the type's range.
    Range {
        /// The smallest value.
        min: i128,
        /// The largest value.
        max: u128,
    },
    /// A number outside the field's bounds.
    Bound,
    /// A string of a length outside the field's bounds.
    Length,
    /// An array of a length outside the field's bounds.
    Items,
}

/// Why `lit` does not fit a value of `shape` within `bounds`, or `None` when it fits.
#[must_use]
pub const fn misfit(shape: Shape, bounds: Bounds, lit: Lit) -> Option<Misfit> {
    let kind = match (shape, lit) {
        (Shape::Any, _)
        | (Shape::Bool, Lit::Bool)
        | (Shape::Number, Lit::Int(_) | Lit::Float(_))
        | (Shape::Str, Lit::Str(_)) => None,
        (Shape::Int { min, max }, Lit::Int(v)) => {
            if v >= min && (v < 0 || v as u128 <= max) {
                None
            } else {
                Some(Misfit::Range { min, max })
            }
        }
        (Shape::Char, Lit::Str(s)) => {
            if chars(s) == 1 {
                None
            } else {
                Some(Misfit::Kind(Shape::Char))
            }
        }
        (Shape::Enum(names), Lit::Str(s)) => {
            let mut i = 0;
            let mut found = false;
            while i < names.len() {
                if str_eq(names[i], s) {
                    found = true;
                }
                i += 1;
            }
            if found {
                None
            } else {
                Some(Misfit::NotInEnum(names))
            }
        }
        (Shape::Array(item), Lit::Array(items)) => {
            let mut i = 0;
            let mut bad = None;
            while i < items.len() {
                if bad.is_none() {
                    bad = misfit(*item, Bounds::NONE, items[i]);
                }
                i += 1;
            }
            bad
        }
        (other, _) => Some(Misfit::Kind(other)),
    };
    if kind.is_some() {
        return kind;
    }
    let number = match lit {
        Lit::Int(v) => Some(v as f64),
        Lit::Float(v) => Some(v),
        _ => None,
    };
    if let Some(x) = number {
        let below = match (bounds.minimum, bounds.exclusive_minimum) {
            (Some(m), _) if x < m => true,
            (_, Some(m)) if x <= m => true,
            _ => false,
        };
        let above = match (bounds.maximum, bounds.exclusive_maximum) {
            (Some(m), _) if x > m => true,
            (_, Some(m)) if x >= m => true,
            _ => false,
        };
        if below || above {
            return Some(Misfit::Bound);
        }
    }
    if let Lit::Str(s) = lit {
        let n = chars(s);
        let short = matches!(bounds.min_length, Some(m) if n < m);
        let long = matches!(bounds.max_length, Some(m) if n > m);
        if short || long {
            return Some(Misfit::Length);
        }
    }
    if let Lit::Array(items) = lit {
        let n = items.len() as u64;
        let few = matches!(bounds.min_items, Some(m) if n < m);
        let many = matches!(bounds.max_items, Some(m) if n > m);
        if few || many {
            return Some(Misfit::Items);
        }
    }
    None
}

/// Whether `lit` fits a value of `shape`.
#[must_use]
pub const fn fits(shape: Shape, lit: Lit) -> bool {
    misfit(shape, Bounds::NONE, lit).is_none()
}

/// Whether a default `lit` for root key `name` fits the key's type and bounds. A key that
/// is not among `keys` passes here: `has_root_key` reports it.
#[must_use]
pub const fn default_fits(keys: &[KeyShape], name: &str, lit: Lit) -> bool {
    match key_shape(keys, name) {
        Some((shape, bounds)) => misfit(shape, bounds, lit).is_none(),
        None => true,
    }
}

/// A message built in `const` code, so that a compile-time check names what it found
/// (a `const` panic takes one `&str`). Text past 1,024 bytes is dropped, whole pieces at
/// a time, so the text stays UTF-8.
#[derive(Debug, Clone, Copy)]
pub struct Message {
    buf: [u8; 1024],
    len: usize,
}

impl Default for Message {
    fn default() -> Self {
        Self::new()
    }
}

impl Message {
    /// An empty message.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            buf: [0; 1024],
            len: 0,
        }
    }

    /// The message with `s` appended.
    #[must_use]
    pub const fn push(mut self, s: &str) -> Self {
        let b = s.as_bytes();
        if self.len + b.len() > self.buf.len() {
            return self;
        }
        let mut i = 0;
        while i < b.len() {
            self.buf[self.len + i] = b[i];
            i += 1;
        }
        self.len += b.len();
        self
    }

    /// The message with the decimal digits of `v` appended.
    #[must_use]
    pub const fn push_int(self, v: i128) -> Self {
        if v < 0 {
            self.push("-").push_uint(v.unsigned_abs())
        } else {
            self.push_uint(v as u128)
        }
    }

    /// The message with the decimal digits of `v` appended.
    #[must_use]
    pub const fn push_uint(self, mut v: u128) -> Self {
        let mut digits = [0u8; 40];
        let mut n = 0;
        loop {
            digits[digits.len() - 1 - n] = b'0' + (v % 10) as u8;
            n += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        match core::str::from_utf8(digits.split_at(digits.len() - n).1) {
            Ok(s) => self.push(s),
            Err(_) => self,
        }
    }

    /// The message with the reason of `m` appended, as words.
    #[must_use]
    pub const fn push_misfit(self, m: Misfit) -> Self {
        match m {
            Misfit::Kind(shape) => self.push("expected ").push_shape(shape),
            Misfit::NotInEnum(names) => {
                let mut out = self.push("expected one of ");
                let mut i = 0;
                while i < names.len() {
                    if i > 0 {
                        out = out.push(", ");
                    }
                    out = out.push("`").push(names[i]).push("`");
                    i += 1;
                }
                out
            }
            Misfit::Range { min, max } => self
                .push("expected an integer in ")
                .push_int(min)
                .push("..=")
                .push_uint(max),
            Misfit::Bound => self.push("the value is outside the field's `minimum`/`maximum`"),
            Misfit::Length => {
                self.push("the string's length is outside the field's `min_length`/`max_length`")
            }
            Misfit::Items => {
                self.push("the array's length is outside the field's `min_items`/`max_items`")
            }
        }
    }

    const fn push_shape(self, shape: Shape) -> Self {
        match shape {
            Shape::Any => self.push("any value"),
            Shape::Bool => self.push("`true` or `false`"),
            Shape::Int { .. } => self.push("an integer"),
            Shape::Number => self.push("a number"),
            Shape::Str => self.push("a string"),
            Shape::Char => self.push("a string of one character"),
            Shape::Enum(_) => self.push("a string"),
            Shape::Array(_) => self.push("an array"),
            Shape::Object | Shape::Fields(_) => self.push("an object, which no literal is"),
        }
    }

    /// Whether nothing was written.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The text.
    #[must_use]
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => "",
        }
    }
}

/// The message for a literal that does not fit: `head`, the reason, `tail`; empty when
/// `lit` fits `shape` within `bounds`.
#[must_use]
pub const fn misfit_message(
    shape: Shape,
    bounds: Bounds,
    lit: Lit,
    head: &str,
    tail: &str,
) -> Message {
    match misfit(shape, bounds, lit) {
        Some(m) => Message::new().push(head).push_misfit(m).push(tail),
        None => Message::new(),
    }
}

/// The message for a `defaults` literal of root key `name` that does not fit (see
/// [`misfit_message`]); empty when it fits or when `name` is no key (`has_root_key`
/// reports that).
#[must_use]
pub const fn default_message(
    keys: &[KeyShape],
    name: &str,
    lit: Lit,
    head: &str,
    tail: &str,
) -> Message {
    match key_shape(keys, name) {
        Some((shape, bounds)) => misfit_message(shape, bounds, lit, head, tail),
        None => Message::new(),
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
        assert!(!fits(u8s, Lit::Float(1.5)) && !fits(u8s, Lit::Str("1")));
        assert!(fits(Shape::Number, Lit::Int(-3)) && fits(Shape::Number, Lit::Float(0.5)));
        assert!(!fits(Shape::Object, Lit::Str("x")) && !fits(Shape::Str, Lit::Bool));
        assert!(fits(Shape::Any, Lit::Array(&[])));
        assert!(fits(Shape::Char, Lit::Str("é")) && !fits(Shape::Char, Lit::Str("ab")));
        const LEVELS: Shape = Shape::Enum(&["low", "high"]);
        assert!(fits(LEVELS, Lit::Str("low")) && !fits(LEVELS, Lit::Str("Low")));
        const LIST: Shape = Shape::Array(&LEVELS);
        assert!(fits(LIST, Lit::Array(&[Lit::Str("low"), Lit::Str("high")])));
        assert!(!fits(LIST, Lit::Array(&[Lit::Str("low"), Lit::Str("mid")])));
    }

    #[test]
    fn bounds() {
        let b = Bounds {
            minimum: Some(1.0),
            max_length: Some(3),
            ..Bounds::NONE
        }
        .maximum(14.0);
        assert_eq!(misfit(Shape::Number, b, Lit::Int(14)), None);
        assert_eq!(misfit(Shape::Number, b, Lit::Int(15)), Some(Misfit::Bound));
        assert_eq!(
            misfit(Shape::Number, b, Lit::Float(0.5)),
            Some(Misfit::Bound)
        );
        assert_eq!(
            misfit(Shape::Str, b, Lit::Str("abcd")),
            Some(Misfit::Length)
        );
        let exclusive = Bounds {
            exclusive_maximum: Some(10.0),
            ..Bounds::NONE
        };
        assert_eq!(
            misfit(Shape::Number, exclusive, Lit::Int(10)),
            Some(Misfit::Bound)
        );
    }

    #[test]
    fn messages_name_what_they_found() {
        let m = misfit_message(
            Shape::Enum(&["low", "high"]),
            Bounds::NONE,
            Lit::Str("medium"),
            "the default `urgency = \"medium\"`: ",
            "",
        );
        assert_eq!(
            m.as_str(),
            "the default `urgency = \"medium\"`: expected one of `low`, `high`"
        );
        let m = misfit_message(Shape::int(-128, 127), Bounds::NONE, Lit::Int(300), "", "");
        assert_eq!(m.as_str(), "expected an integer in -128..=127");
        assert!(misfit_message(Shape::Str, Bounds::NONE, Lit::Str("x"), "a", "b").is_empty());
        let long = Message::new()
            .push(&"x".repeat(1000))
            .push(&"y".repeat(100));
        assert_eq!(
            long.as_str().len(),
            1000,
            "a piece that does not fit is dropped whole"
        );
    }
}
