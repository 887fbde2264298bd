//! Reading validated arguments into a handler's input type, by value, with the JSON
//! pointer of a failure.
//!
//! [`from_value`] is `serde_json::from_value` with two differences: a failure says where
//! (the pointer of the value that did not fit, built on the way out of the failing call,
//! so a success tracks nothing), and it is one deserializer type for the whole tree. The
//! second matters for build time: every input type's `Deserialize` impl is instantiated
//! once, for [`Args`], where reading by reference with a path-tracking fallback
//! instantiated it twice (for `&Value` and for the tracker's wrapper around it), and that
//! second copy was about a third of the machine code a package of tools compiled.
//!
//! Strings move out of the tree (no copy); the rules are `serde_json`'s own for a
//! `Value` but two: structs from objects (serde_json also takes an array of the fields,
//! which no struct's object schema lets through); and a number with a zero fraction
//! (`5.0`) within the 64-bit range is read as the integer it is, because JSON Schema's
//! `integer` accepts it (draft-06 on) and model providers send integers so. Otherwise:
//! enums from a string or a one-key object, `null` as `None` or `()`, numbers by their
//! JSON kind, map keys parsed for numeric and boolean key types. A proptest in
//! `tests/arguments_de.rs` checks that the two agree on every value and every input type
//! it draws (serde_json given the value with its integral floats written as integers).
//!
//! A value that serde buffers before reading it (the members a `#[serde(flatten)]` field
//! takes) fails outside this deserializer, with no path. The object remembers a
//! fingerprint of each member it handed over whole ([`Seen`]), and such a failure is put
//! at the member whose value the error names.
//!
//! [`Args`] has a second source: the call's JSON text, checked against the tool's schema
//! as it is read ([`text`], for `dispatch_text`). It stays one deserializer type, and
//! every method, `MapAccess` and `SeqAccess` function stays one generic function a
//! visitor or seed: the source decides first, in code that is not generic, what there
//! is to read (a value, an opened object or array, a key, a member), and the one
//! generic function reads it with the rules above.

use std::cell::Cell;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, EnumAccess, Expected, IntoDeserializer, MapAccess,
    SeqAccess, Unexpected, VariantAccess, Visitor,
};
use serde_json::{Map, Number, Value};

mod error;
mod text;

use error::Segment;
pub(crate) use error::{Error, Seen};
pub(crate) use text::{Fields, defaults_pass, read_text};

/// Reads `value` into `T`; on failure, the JSON pointer of the value that did not fit
/// (`""` for the root) and serde's message.
pub(crate) fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, (String, String)> {
    T::deserialize(Args::new(value)).map_err(|e| (e.pointer(), e.0.message))
}

/// What `value` is, for an "invalid type" message (`serde_json`'s wording).
fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match integral(n) {
            Integral::Unsigned(u) => Unexpected::Unsigned(u),
            Integral::Signed(i) => Unexpected::Signed(i),
            Integral::Float(f) => Unexpected::Float(f),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

#[cold]
fn invalid_type(value: &Value, expected: &dyn Expected) -> Error {
    de::Error::invalid_type(unexpected(value), expected)
}

/// A JSON number by what it is: an integer (a float with a zero fraction within the
/// 64-bit range too, as JSON Schema's `integer` counts it), or a float.
enum Integral {
    Unsigned(u64),
    Signed(i64),
    Float(f64),
}

// 2^64 and -2^63 are exact as f64, and every integral f64 between them is exact as an
// integer: the casts neither truncate nor lose the sign.
fn integral(n: &Number) -> Integral {
    if let Some(u) = n.as_u64() {
        return Integral::Unsigned(u);
    }
    if let Some(i) = n.as_i64() {
        return Integral::Signed(i);
    }
    let f = n.as_f64().unwrap_or(f64::NAN);
    if f.fract() == 0.0 {
        if (0.0..18_446_744_073_709_551_616.0).contains(&f) {
            return Integral::Unsigned(f as u64);
        }
        if (-9_223_372_036_854_775_808.0..0.0).contains(&f) {
            return Integral::Signed(f as i64);
        }
    }
    Integral::Float(f)
}

fn visit_number<'de, V: Visitor<'de>>(n: &Number, visitor: V) -> Result<V::Value, Error> {
    match integral(n) {
        Integral::Unsigned(u) => visitor.visit_u64(u),
        Integral::Signed(i) => visitor.visit_i64(i),
        Integral::Float(f) => visitor.visit_f64(f),
    }
}

/// A tree's array to be read (not generic: the one generic function is
/// [`visit_items`]).
#[inline]
fn tree_items(array: Vec<Value>) -> Seq<'static, 'static> {
    Seq::Tree(TreeSeq::new(array))
}

/// A tree's object to be read.
#[inline]
fn tree_entries(object: Map<String, Value>) -> Entries<'static, 'static> {
    Entries::Tree(TreeEntries::new(object))
}

/// A visitor over an array's elements, from either source (one function for both).
#[inline]
fn visit_items<'de, V: Visitor<'de>>(mut seq: Seq<'_, '_>, visitor: V) -> Result<V::Value, Error> {
    let out = visitor.visit_seq(&mut seq)?;
    seq.finish().map(|()| out)
}

/// A visitor over an object's members, from either source.
#[inline]
fn visit_entries<'de, V: Visitor<'de>>(
    mut map: Entries<'_, '_>,
    visitor: V,
) -> Result<V::Value, Error> {
    match visitor.visit_map(&mut map) {
        Ok(out) => map.finish().map(|()| out),
        Err(e) => Err(map.locate(e)),
    }
}

/// The object a struct or a map is read from (not generic: one copy for every visitor).
fn object(value: Value, expected: &dyn Expected) -> Result<Map<String, Value>, Error> {
    match value {
        Value::Object(o) => Ok(o),
        other => Err(invalid_type(&other, expected)),
    }
}

/// The array a sequence is read from.
fn array(value: Value, expected: &dyn Expected) -> Result<Vec<Value>, Error> {
    match value {
        Value::Array(a) => Ok(a),
        other => Err(invalid_type(&other, expected)),
    }
}

/// What an input type is read from: one deserializer type for both sources (so every
/// input type's `Deserialize` is instantiated once), a validated tree ([`Tree`]) or JSON
/// text checked as it is read (`text`).
pub(crate) struct Args<'a, 't>(Src<'a, 't>);

enum Src<'a, 't> {
    Tree(Tree<'a>),
    Text(text::At<'a, 't>),
}

impl Args<'_, '_> {
    fn new(value: Value) -> Self {
        Args(Src::Tree(Tree(value, None)))
    }
}

impl<'a> From<Tree<'a>> for Args<'a, '_> {
    fn from(tree: Tree<'a>) -> Self {
        Args(Src::Tree(tree))
    }
}

/// A validated argument value, read by value. An object's member also carries where to
/// note that serde took it whole ([`TreeEntries::locate`]).
pub(crate) struct Tree<'a>(Value, Option<&'a Cell<Option<Seen>>>);

/// What a container's method reads: the tree (its value, and where to note that serde
/// took it whole), or an object or array of the text, opened to be read member by member.
pub(crate) enum Read<'a, 't> {
    Tree(Value, Option<&'a Cell<Option<Seen>>>),
    Entries(Entries<'a, 't>),
    Items(Seq<'a, 't>),
}

impl<'a, 't> Args<'a, 't> {
    /// The value a scalar's method reads: the tree's, or the text's scalar (or a value
    /// it checked whole). Not generic: one copy whatever the visitor.
    #[inline]
    fn tree(self) -> Result<Value, Error> {
        match self.0 {
            Src::Tree(Tree(value, _)) => Ok(value),
            Src::Text(at) => at.value(),
        }
    }

    /// What a container's method reads (see [`Read`]).
    #[inline]
    fn read(self) -> Result<Read<'a, 't>, Error> {
        match self.0 {
            Src::Tree(Tree(value, seen)) => Ok(Read::Tree(value, seen)),
            Src::Text(at) => at.read(),
        }
    }
}

/// The methods of numbers: any number, visited by its kind.
macro_rules! numbers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.tree()? {
                Value::Number(n) => visit_number(&n, visitor),
                other => Err(invalid_type(&other, &visitor)),
            }
        }
    )*};
}

/// One generic function a method and visitor: the source is decided first (not
/// generically), then the tree's rules read the value.
impl<'de> de::Deserializer<'de> for Args<'_, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let (value, seen) = match self.read()? {
            Read::Tree(value, seen) => (value, seen),
            Read::Entries(entries) => return visit_entries(entries, visitor),
            Read::Items(items) => return visit_items(items, visitor),
        };
        if let Some(seen) = seen {
            seen.set(Some(Seen::of(&value)));
        }
        match value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Number(n) => visit_number(&n, visitor),
            Value::String(s) => visitor.visit_string(s),
            Value::Array(a) => visit_items(tree_items(a), visitor),
            Value::Object(o) => visit_entries(tree_entries(o), visitor),
        }
    }

    numbers!(
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64
    );

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Src::Tree(Tree(Value::Null, _)) => visitor.visit_none(),
            Src::Tree(_) => visitor.visit_some(self),
            Src::Text(mut at) => {
                if at.null()? {
                    visitor.visit_none()
                } else {
                    visitor.visit_some(Args(Src::Text(at)))
                }
            }
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.tree()? {
            Value::String(variant) => visitor.visit_enum(Variant {
                variant,
                value: None,
            }),
            Value::Object(object) => {
                let mut entries = object.into_iter();
                match (entries.next(), entries.next()) {
                    (Some((variant, value)), None) => visitor.visit_enum(Variant {
                        variant,
                        value: Some(value),
                    }),
                    _ => Err(de::Error::invalid_value(
                        Unexpected::Map,
                        &"map with a single key",
                    )),
                }
            }
            other => Err(invalid_type(&other, &"string or map")),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.tree()? {
            Value::Bool(b) => visitor.visit_bool(b),
            other => Err(invalid_type(&other, &visitor)),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.tree()? {
            Value::String(s) => visitor.visit_string(s),
            other => Err(invalid_type(&other, &visitor)),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_byte_buf(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.read()? {
            Read::Tree(Value::String(s), _) => visitor.visit_string(s),
            Read::Tree(Value::Array(a), _) => visit_items(tree_items(a), visitor),
            Read::Tree(other, _) => Err(invalid_type(&other, &visitor)),
            Read::Items(items) => visit_items(items, visitor),
            Read::Entries(_) => Err(text::unread()),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.tree()? {
            Value::Null => visitor.visit_unit(),
            other => Err(invalid_type(&other, &visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.read()? {
            Read::Tree(value, _) => visit_items(tree_items(array(value, &visitor)?), visitor),
            Read::Items(items) => visit_items(items, visitor),
            Read::Entries(_) => Err(text::unread()),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // Objects only for a struct too: serde_json also reads a struct from an array of
        // its fields, but a struct's schema is an object, so no validated argument is
        // one, and never reading one keeps serde's `visit_seq` of every input struct out
        // of the build.
        match self.read()? {
            Read::Tree(value, _) => visit_entries(tree_entries(object(value, &visitor)?), visitor),
            Read::Entries(entries) => visit_entries(entries, visitor),
            Read::Items(_) => Err(text::unread()),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // A text's ignored member is still read (and so checked): valid or not read.
        match self.read()? {
            Read::Tree(value, _) => {
                drop(value);
                visitor.visit_unit()
            }
            Read::Entries(entries) => visit_entries(entries, visitor),
            Read::Items(items) => visit_items(items, visitor),
        }
    }
}

/// Whether a visitor read all `len` members of a container (`left` were not read).
fn all_read(left: usize, len: usize, expected: &'static str) -> Result<(), Error> {
    if left == 0 {
        Ok(())
    } else {
        Err(de::Error::invalid_length(len, &expected))
    }
}

/// The elements of an array, from either source (one type: every visitor's `visit_seq`
/// is instantiated once).
pub(crate) enum Seq<'a, 't> {
    Tree(TreeSeq),
    Text(text::Items<'a, 't>),
}

impl Seq<'_, '_> {
    /// After the visitor: every element read (and for a text, the array's end).
    #[inline]
    fn finish(&mut self) -> Result<(), Error> {
        match self {
            Seq::Tree(tree) => tree.finish(),
            Seq::Text(text) => text.finish(),
        }
    }
}

/// One generic function a seed: the source gives the element (not generically), then
/// the seed reads it.
impl<'de> SeqAccess<'de> for Seq<'_, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self {
            Seq::Tree(tree) => {
                let Some((value, index)) = tree.next() else {
                    return Ok(None);
                };
                seed.deserialize(Args::new(value))
                    .map(Some)
                    .map_err(|e| e.at(Segment::Index(index)))
            }
            Seq::Text(text) => match text.next()? {
                Some(element) => seed.deserialize(element).map(Some),
                None => Ok(None),
            },
        }
    }

    fn size_hint(&self) -> Option<usize> {
        match self {
            Seq::Tree(tree) => Some(tree.iter.len()),
            Seq::Text(_) => None,
        }
    }
}

/// The members of an object, from either source (one type, as [`Seq`]).
pub(crate) enum Entries<'a, 't> {
    Tree(TreeEntries),
    Text(text::Members<'a, 't>),
}

impl Entries<'_, '_> {
    /// After the visitor: every member read (and for a text, the object complete).
    #[inline]
    fn finish(&self) -> Result<(), Error> {
        match self {
            Entries::Tree(tree) => tree.finish(),
            Entries::Text(text) => text.finish(),
        }
    }

    /// A failure the visitor gave, put where it was (a text's failure is the tree path's
    /// to place).
    #[cold]
    fn locate(&self, e: Error) -> Error {
        match self {
            Entries::Tree(tree) => tree.locate(e),
            Entries::Text(_) => e,
        }
    }
}

/// One generic function a seed, as for [`Seq`].
impl<'de> MapAccess<'de> for Entries<'_, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self {
            Entries::Tree(tree) => {
                let Some(key) = tree.next_key() else {
                    return Ok(None);
                };
                match seed.deserialize(Key(key)) {
                    Ok(out) => Ok(Some(out)),
                    Err(e) if e.unparsed_key => Err(e),
                    Err(e) => Err(e.at(Segment::Key(key.to_owned()))),
                }
            }
            Entries::Text(text) => match text.next_key()? {
                Some(key) => seed.deserialize(Key(&key)).map(Some),
                None => Ok(None),
            },
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self {
            Entries::Tree(tree) => {
                let (key, value) = tree.take()?;
                let whole = Cell::new(None);
                match seed.deserialize(Args::from(Tree(value, Some(&whole)))) {
                    Ok(out) => {
                        if let Some(seen) = whole.get() {
                            tree.buffered.push((key, seen));
                        }
                        Ok(out)
                    }
                    Err(e) => Err(e.at(Segment::Key(key))),
                }
            }
            Entries::Text(text) => seed.deserialize(text.value()?),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        match self {
            Entries::Tree(tree) => Some(tree.iter.len()),
            Entries::Text(_) => None,
        }
    }
}

/// The elements of an array, each failure marked with its index.
pub(crate) struct TreeSeq {
    iter: std::vec::IntoIter<Value>,
    index: usize,
    len: usize,
}

impl TreeSeq {
    fn new(array: Vec<Value>) -> Self {
        TreeSeq {
            len: array.len(),
            iter: array.into_iter(),
            index: 0,
        }
    }

    /// After the visitor: every element read, or serde_json's error.
    fn finish(&self) -> Result<(), Error> {
        all_read(self.iter.len(), self.len, "fewer elements in array")
    }
}

impl TreeSeq {
    /// The next element and its index.
    #[inline]
    fn next(&mut self) -> Option<(Value, usize)> {
        let value = self.iter.next()?;
        let index = self.index;
        self.index += 1;
        Some((value, index))
    }
}

/// The entries of an object, each value's failure marked with its key.
pub(crate) struct TreeEntries {
    iter: serde_json::map::IntoIter,
    pending: Option<(String, Value)>,
    len: usize,
    /// The members serde took whole (to read later: `#[serde(flatten)]`), by key.
    buffered: Vec<(String, Seen)>,
}

impl TreeEntries {
    fn new(object: Map<String, Value>) -> Self {
        TreeEntries {
            len: object.len(),
            iter: object.into_iter(),
            pending: None,
            buffered: Vec::new(),
        }
    }

    /// After the visitor: every entry read, or serde_json's error.
    fn finish(&self) -> Result<(), Error> {
        all_read(self.iter.len(), self.len, "fewer elements in map")
    }

    /// A failure of the visitor that no member marked: one of a member serde had taken
    /// whole and read after the loop (a flattened field), put at the member whose value
    /// it names. A failure that names no value (a missing field) is the object's.
    #[cold]
    fn locate(&self, e: Error) -> Error {
        if !e.path.is_empty() || e.unparsed_key {
            return e;
        }
        let named = e
            .value
            .and_then(|value| self.buffered.iter().find(|(_, seen)| *seen == value));
        match named {
            Some((key, _)) => e.at(Segment::Key(key.clone())),
            None => e,
        }
    }
}

impl TreeEntries {
    /// The next member's key, its member kept for [`take`](Self::take).
    #[inline]
    fn next_key(&mut self) -> Option<&str> {
        let (key, value) = self.iter.next()?;
        Some(&self.pending.insert((key, value)).0)
    }

    /// The member whose key was read last.
    #[inline]
    fn take(&mut self) -> Result<(String, Value), Error> {
        self.pending
            .take()
            .ok_or_else(|| de::Error::custom("value is missing"))
    }
}

/// An enum's variant: a string, or the one key of an object with its content.
struct Variant {
    variant: String,
    value: Option<Value>,
}

impl<'de> EnumAccess<'de> for Variant {
    type Error = Error;
    type Variant = Content;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Content), Error> {
        let out = seed.deserialize(Key(&self.variant))?;
        Ok((
            out,
            Content {
                variant: self.variant,
                value: self.value,
            },
        ))
    }
}

/// The content of an enum's variant; a failure in it is marked with the variant's key.
struct Content {
    variant: String,
    value: Option<Value>,
}

impl Content {
    fn mark<T>(variant: String, result: Result<T, Error>) -> Result<T, Error> {
        result.map_err(|e| e.at(Segment::Key(variant)))
    }
}

impl<'de> VariantAccess<'de> for Content {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        let result = match self.value {
            None => Ok(()),
            Some(value) => de::Deserialize::deserialize(Args::new(value)),
        };
        Self::mark(self.variant, result)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        let result = match self.value {
            Some(value) => seed.deserialize(Args::new(value)),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"newtype variant",
            )),
        };
        Self::mark(self.variant, result)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        let result = match self.value {
            Some(Value::Array(a)) if a.is_empty() => visitor.visit_unit(),
            Some(Value::Array(a)) => visit_items(tree_items(a), visitor),
            Some(other) => Err(invalid_type(&other, &"tuple variant")),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"tuple variant",
            )),
        };
        Self::mark(self.variant, result)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let result = match self.value {
            Some(Value::Object(o)) => visit_entries(tree_entries(o), visitor),
            Some(other) => Err(invalid_type(&other, &"struct variant")),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"struct variant",
            )),
        };
        Self::mark(self.variant, result)
    }
}

/// An object's key (or an enum's variant name): a string, parsed for numeric and boolean
/// key types as `serde_json` does.
struct Key<'a>(&'a str);

impl Key<'_> {
    /// The key as a JSON number, visited by its kind (the visitor checks the range), as
    /// `serde_json` reads a numeric key.
    fn number<'de, V: Visitor<'de>>(self, visitor: V, wide: bool) -> Result<V::Value, Error> {
        let key = self.0;
        if matches!(key.as_bytes().first(), Some(b'0'..=b'9' | b'-')) {
            if wide {
                if let Ok(u) = key.parse::<u128>() {
                    return visitor.visit_u128(u);
                }
                if let Ok(i) = key.parse::<i128>() {
                    return visitor.visit_i128(i);
                }
            }
            if let Ok(u) = key.parse::<u64>() {
                return visitor.visit_u64(u);
            }
            if let Ok(i) = key.parse::<i64>() {
                return visitor.visit_i64(i);
            }
            if let Ok(f) = key.parse::<f64>()
                && f.is_finite()
            {
                return visitor.visit_f64(f);
            }
        }
        Err(
            <Error as de::Error>::custom("invalid value: expected key to be a number in quotes")
                .unparsed_key(),
        )
    }
}

macro_rules! numeric_keys {
    ($($method:ident $wide:literal)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.number(visitor, $wide)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Key<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_str(self.0)
    }

    numeric_keys! {
        deserialize_i8 false deserialize_i16 false deserialize_i32 false deserialize_i64 false
        deserialize_u8 false deserialize_u16 false deserialize_u32 false deserialize_u64 false
        deserialize_f32 false deserialize_f64 false deserialize_i128 true deserialize_u128 true
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            other => Err(
                <Error as de::Error>::invalid_type(Unexpected::Str(other), &visitor).unparsed_key(),
            ),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // A key is never null.
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let variant: de::value::StrDeserializer<'_, Error> = self.0.into_deserializer();
        de::Deserializer::deserialize_enum(variant, name, variants, visitor)
    }

    serde::forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct seq tuple tuple_struct
        map struct identifier ignored_any
    }
}
