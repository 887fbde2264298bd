//! Tool inputs as Rust types: the [`ToolInput`] trait and its run-time composition.
//!
//! `#[derive(ToolInput)]` (in the `neuralis` facade, feature `derive`) implements the trait
//! for structs and enums; this module implements it for the standard types a field may
//! have. A type's schema is composed through the trait, the way `schemars` composes, so a
//! `ToolInput` type from another crate nests like a local one.
//!
//! ```
//! use neuralis_model::input::ToolInput;
//! assert_eq!(<u8 as ToolInput>::schema_fragment(), serde_json::json!({
//!     "type": "integer", "minimum": 0, "maximum": 255
//! }));
//! ```

use std::any::type_name;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, LinkedList, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::output::{OutputComposer, Written};
use crate::shape::Shape;
use crate::types;

/// The JSON Schema dialect of every emitted document.
pub use crate::contract::DRAFT_07;

/// A type's root keys (names) and the `const` functions over them live with the shapes
/// they cut a cycle for ([`crate::shape`]); re-exported here, where they always were.
pub use crate::shape::{
    RootKey, has_root_key, reserved_key_message, reserved_root_key, root_key_names,
};

/// A type whose JSON Schema is exactly what serde accepts for it.
///
/// Derive it with `#[derive(ToolInput)]`; the trait is implemented here for `bool`, the
/// integers (with their natural `minimum`/`maximum`), the floats, `String`, `char`,
/// `Cow<str>`, `Option<T>`, the sequences and sets, string-keyed maps (open bags),
/// `serde_json::Value` and `Map`, and the smart pointers.
#[diagnostic::on_unimplemented(
    message = "unsupported-type: `{Self}` has no schema",
    label = "this type has no schema",
    note = "derive `ToolInput` on it, use `#[schema(with = ...)]` on the field, or enable the `neuralis` feature for its crate (`uuid`, `chrono`, `url`, `time`)"
)]
pub trait ToolInput {
    /// The property names of this type's object schema, after serde renaming and
    /// flatten; empty for a type whose schema is not an object with properties.
    const ROOT_KEYS: &'static [RootKey] = &[];

    /// Whether the schema is a closed object with `properties`, so that
    /// `#[serde(flatten)]` can merge it into another object.
    const IS_OBJECT: bool = false;

    /// The root keys with the kinds of their types, for `const` checks of
    /// `#[tool(defaults(...))]` literals (see [`crate::shape`]).
    const ROOT_SHAPES: &'static [crate::shape::KeyShape] = &[];

    /// What the schema accepts, as far as a literal can tell (see [`crate::shape`]): the
    /// variant names of a unit enum, `Object` for a struct. [`Shape::Any`] (the default)
    /// passes every literal.
    const SHAPE: Shape = Shape::Any;

    /// The root properties mirrored in HTTP headers (`#[schema(header = "...")]`, see
    /// [`crate::header`]); a wrapper's, a collection's and a map's are its item's, so that
    /// a field of such a type can be refused when they are not empty (`header-attr`).
    const HEADERS: &'static [crate::header::Header] = &[];

    /// Whether `#[derive(ToolInput)]` already refuses reserved root keys of this type
    /// (a `#[schema(root)]` type), so `#[tool]` does not report them a second time.
    #[doc(hidden)]
    const RESERVED_CHECKED: bool = false;

    /// Whether the type may nest itself, so [`Composer`] must track it for recursion.
    /// `false` for leaf types, which saves the bookkeeping.
    #[doc(hidden)]
    const COMPOSITE: bool = false;

    /// The name under `definitions` when the type is recursive: the type's name as written
    /// where it is defined, its generic arguments spelled out by their own names
    /// (`Page<Item>` for `a::Page<b::Item>`, see [`generic_name`]); a table type's name is
    /// the table's (`u8`, `Map`), a pointer's (`Box`, `Rc`, `Arc`, `&`, `Cow`) its type's.
    /// `#[derive(ToolInput)]` writes it, as schemars writes `schema_name`, and the build
    /// script's static view computes the same name from source. Two types of one name in one schema are told apart by [`Recursion`]
    /// (`Node`, `Node2`, in the order the composition meets them).
    fn schema_name() -> Cow<'static, str>;

    /// The schema of this type in a nested position, composed through `cx`.
    fn schema_in(cx: &mut Composer) -> Value;

    /// [`Composer::subschema`] of this type, for generated code: named through the trait,
    /// so that a type without an impl is one error however often the derive names it.
    #[doc(hidden)]
    fn __subschema(cx: &mut Composer) -> Value {
        cx.subschema::<Self>()
    }

    /// The schema of what serde *writes* for this type, composed through `cx`: the output
    /// schema of a type that is read and also written inside a returned value, without a
    /// `ToolOutput` impl of its own (`#[derive(ToolInput)]` writes it from the same
    /// attributes, read for serde's writing half; see
    /// [`ToolOutput`](crate::output::ToolOutput)). The default, for an impl that does not
    /// say, is `{}`: any value.
    #[doc(hidden)]
    fn __written_in(cx: &mut crate::output::OutputComposer) -> Value {
        let _ = cx;
        Value::Object(Map::new())
    }

    /// [`OutputComposer::subschema_written`](crate::output::OutputComposer::subschema_written)
    /// of this type, for generated code.
    #[doc(hidden)]
    fn __written_subschema(cx: &mut crate::output::OutputComposer) -> Value {
        cx.subschema_written::<Self>()
    }

    /// The schema of this type in a nested position, with a fresh [`Composer`].
    fn schema_fragment() -> Value {
        Composer::new().subschema::<Self>()
    }

    /// The normalized, draft-07 root document for this type: `$schema`, `type: object`,
    /// `additionalProperties: false`, the doc comment as `description`, `properties` and
    /// `required`. Meaningful for structs with named fields, the only valid tool inputs.
    fn schema() -> Value {
        root_schema::<Self>()
    }
}

/// Composes nested schemas and notices recursion.
///
/// A type that reaches itself is written once: the root as `{"$ref": "#"}`, any other
/// type under the root's `definitions`. Every other subschema is inlined.
#[derive(Debug, Default)]
pub struct Composer {
    recursion: Recursion<&'static str>,
}

impl Composer {
    /// A composer for a nested fragment.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The schema of `T`, inlined, or a `$ref` when `T` is already being composed.
    pub fn subschema<T: ToolInput + ?Sized>(&mut self) -> Value {
        if !T::COMPOSITE {
            return T::schema_in(self);
        }
        let id = type_name::<T>();
        let name = T::schema_name();
        if let Some(reference) = self.recursion.enter(&id, &name) {
            return reference;
        }
        let schema = T::schema_in(self);
        self.recursion.leave(&id, &name, &schema);
        schema
    }
}

/// The recursion bookkeeping of a composition, keyed by a type's identity: the run-time
/// [`Composer`] keys by `std::any::type_name`, the build script's static view by the
/// resolved path it reads from source, and both write the same `$ref`s and `definitions`.
#[derive(Debug)]
pub struct Recursion<K> {
    stack: Vec<K>,
    root: Option<K>,
    recursive: BTreeSet<K>,
    /// The `definitions` name of each recursive type, in the order they were met: a name
    /// already taken by another type gets a number (`Node2`).
    names: BTreeMap<K, String>,
    definitions: Map<String, Value>,
}

impl<K> Default for Recursion<K> {
    fn default() -> Self {
        Self {
            stack: Vec::new(),
            root: None,
            recursive: BTreeSet::new(),
            names: BTreeMap::new(),
            definitions: Map::new(),
        }
    }
}

impl<K: Ord + Clone> Recursion<K> {
    /// Marks `id` as the root type: it refers to itself as `#`.
    pub fn set_root(&mut self, id: K) {
        self.root = Some(id);
    }

    /// Enters `id`, or, when `id` is already being composed, returns the `$ref` to write
    /// in its place (`#` for the root, else `#/definitions/<name>`). After an entered
    /// type's schema is composed, call [`Recursion::leave`].
    pub fn enter(&mut self, id: &K, name: &str) -> Option<Value> {
        if self.stack.contains(id) {
            self.recursive.insert(id.clone());
            return Some(if self.root.as_ref() == Some(id) {
                json!({ "$ref": "#" })
            } else {
                json!({ "$ref": definition_ref(self.name(id, name)) })
            });
        }
        self.stack.push(id.clone());
        None
    }

    /// Leaves `id`, whose schema is `schema`: a recursive type other than the root is
    /// kept under `definitions`.
    pub fn leave(&mut self, id: &K, name: &str, schema: &Value) {
        self.stack.pop();
        if self.recursive.contains(id) && self.root.as_ref() != Some(id) {
            let name = self.name(id, name).to_owned();
            self.definitions.insert(name, schema.clone());
        }
    }

    /// The `definitions` name of `id`: `name`, or, when another type has it already,
    /// `name` with the first number from 2 that no type has.
    fn name<'a>(&'a mut self, id: &K, name: &'a str) -> &'a str {
        if !self.names.contains_key(id) {
            let taken = |n: &str| self.names.values().any(|t| t == n);
            let mut unique = name.to_owned();
            let mut n = 2;
            while taken(&unique) {
                unique = format!("{name}{n}");
                n += 1;
            }
            self.names.insert(id.clone(), unique);
        }
        self.names.get(id).map_or(name, String::as_str)
    }

    /// Leaves `id` whose schema could not be composed.
    pub fn abandon(&mut self) {
        self.stack.pop();
    }

    /// The `definitions` the composition needs, taken out.
    pub fn take_definitions(&mut self) -> Map<String, Value> {
        std::mem::take(&mut self.definitions)
    }
}

/// The `$ref` to `#/definitions/<name>`: the name escaped as a JSON pointer token and
/// percent-encoded where a URI fragment cannot hold it (`Page<Item>` is
/// `#/definitions/Page%3CItem%3E`).
///
/// ```
/// use neuralis_model::input::definition_ref;
/// assert_eq!(definition_ref("Node"), "#/definitions/Node");
/// assert_eq!(definition_ref("Page<Item>"), "#/definitions/Page%3CItem%3E");
/// ```
#[must_use]
pub fn definition_ref(name: &str) -> String {
    let mut pointer = String::new();
    crate::contract::append_token(&mut pointer, name);
    let mut out = String::from("#/definitions/");
    // The token after its `/`, percent-encoded for a URI fragment.
    for b in pointer.bytes().skip(1) {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A generic type's `definitions` name: its own name, then its type arguments' names
/// (`Page<Item>`, `HashMap<String, Vec<u8>>`); the name alone without arguments. The
/// derive, the standard impls and the build script's static view all spell names with it.
///
/// ```
/// use neuralis_model::input::generic_name;
/// assert_eq!(generic_name("Node", &[]), "Node");
/// assert_eq!(generic_name("Page", &["Item".into(), "Vec<u8>".into()]), "Page<Item, Vec<u8>>");
/// ```
#[must_use]
pub fn generic_name(name: &str, args: &[Cow<'_, str>]) -> String {
    if args.is_empty() {
        return name.to_owned();
    }
    let mut out = format!("{name}<");
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(a);
    }
    out.push('>');
    out
}

/// The root document of `T`, normalized (see [`ToolInput::schema`]).
pub fn root_schema<T: ToolInput + ?Sized>() -> Value {
    let mut cx = Composer::new();
    cx.recursion.set_root(type_name::<T>());
    let fragment = cx.subschema::<T>();
    root_document(fragment, cx.recursion.take_definitions())
}

/// The root document around a root type's schema `fragment`: draft-07 `$schema`, its
/// title and description, a closed `type: object` root with `properties` and `required`,
/// the `definitions` recursion needed, normalized. The run-time composition
/// ([`root_schema`]) and the build emitter's static view both end here, so the two
/// cannot lay out a root differently.
#[must_use]
pub fn root_document(fragment: Value, definitions: Map<String, Value>) -> Value {
    let mut root = Map::new();
    root.insert("$schema".into(), Value::String(DRAFT_07.into()));
    match fragment {
        Value::Object(mut frag) => {
            let is_object = frag.get("type").and_then(Value::as_str) == Some("object");
            for key in ["title", "description"] {
                if let Some(v) = frag.remove(key) {
                    root.insert(key.into(), v);
                }
            }
            if let Some(v) = frag.remove("type") {
                root.insert("type".into(), v);
            }
            if is_object {
                root.insert("additionalProperties".into(), Value::Bool(false));
                frag.remove("additionalProperties");
                let props = frag
                    .remove("properties")
                    .unwrap_or_else(|| Value::Object(Map::new()));
                root.insert("properties".into(), props);
                let required = frag
                    .remove("required")
                    .unwrap_or_else(|| Value::Array(Vec::new()));
                root.insert("required".into(), required);
            }
            root.extend(frag);
        }
        other => {
            root.insert("allOf".into(), Value::Array(vec![other]));
        }
    }
    if !definitions.is_empty() {
        root.insert("definitions".into(), Value::Object(definitions));
    }
    let mut root = Value::Object(root);
    crate::schema::normalize(&mut root);
    root
}

/// A tool's document: the input's root document (see [`root_document`]) with the
/// handler's description, when it has one, and its `x-neuralis` block. The run-time
/// `ToolDescriptor::document` and the build script both end here.
///
/// ```
/// use neuralis_model::input::{root_schema, tool_document};
/// let doc = tool_document(
///     root_schema::<std::collections::BTreeMap<String, bool>>(),
///     Some("Store flags.".into()),
///     serde_json::json!({ "annotations": { "category": "write" } }),
/// );
/// assert_eq!(doc["description"], "Store flags.");
/// assert_eq!(doc["x-neuralis"]["annotations"]["category"], "write");
/// ```
#[must_use]
pub fn tool_document(root: Value, description: Option<String>, x_neuralis: Value) -> Value {
    let mut root = match root {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    if let Some(text) = description.filter(|t| !t.is_empty()) {
        root.insert("description".into(), Value::String(text));
    }
    root.insert(crate::xn::BLOCK.into(), x_neuralis);
    Value::Object(root)
}

/// The leaf types: schema and shape straight from the type table (the well-known crates'
/// types too, each behind its feature).
macro_rules! leaf {
    ($($(#[$cfg:meta])* [$($generics:tt)*] $ty:ty => $known:ident;)*) => {$(
        $(#[$cfg])*
        impl<$($generics)*> ToolInput for $ty {
            const SHAPE: Shape = types::$known.shape();
            fn schema_name() -> Cow<'static, str> {
                Cow::Borrowed(types::$known.name)
            }
            fn schema_in(_: &mut Composer) -> Value {
                types::$known.schema().unwrap_or(Value::Null)
            }
            fn __written_in(_: &mut OutputComposer) -> Value {
                crate::output::leaf(&types::$known)
            }
        }
        $(#[$cfg])*
        impl<$($generics)*> Written for $ty {}
    )*};
}

crate::types::leaf_types!(leaf);

/// The wrappers: `T`'s schema and every `const` of `T`. `Option<T>` is one of them: in a
/// struct, the field is simply not required (no `null` in a type array).
macro_rules! pointer {
    ($([$($generics:tt)*] $ty:ty => $inner:ty, $name:literal;)*) => {
        pointer! { @written ::core::convert::identity; $([$($generics)*] $ty => $inner, $name;)* }
    };
    (@written $written:path; $([$($generics:tt)*] $ty:ty => $inner:ty, $name:literal;)*) => {$(
        impl<$($generics)*> ToolInput for $ty {
            /// `Option<T>`; a pointer's (`Box`, `Rc`, `Arc`, `&`, `Cow`) is its type's.
            fn schema_name() -> Cow<'static, str> {
                match $name {
                    "" => <$inner>::schema_name(),
                    name => Cow::Owned(generic_name(name, &[<$inner>::schema_name()])),
                }
            }
            const ROOT_KEYS: &'static [RootKey] = <$inner>::ROOT_KEYS;
            const IS_OBJECT: bool = <$inner>::IS_OBJECT;
            const ROOT_SHAPES: &'static [crate::shape::KeyShape] = <$inner>::ROOT_SHAPES;
            const SHAPE: Shape = <$inner>::SHAPE;
            const RESERVED_CHECKED: bool = <$inner>::RESERVED_CHECKED;
            const HEADERS: &'static [crate::header::Header] = <$inner>::HEADERS;
            fn schema_in(cx: &mut Composer) -> Value {
                cx.subschema::<$inner>()
            }
            fn __written_in(cx: &mut OutputComposer) -> Value {
                $written(cx.subschema_written::<$inner>())
            }
        }
        impl<$($generics)*> Written for $ty where $inner: Written {}
    )*};
}

pointer! {
    [T: ToolInput + ?Sized] Box<T> => T, "";
    [T: ToolInput + ?Sized] Rc<T> => T, "";
    [T: ToolInput + ?Sized] Arc<T> => T, "";
    [T: ToolInput + ?Sized] &T => T, "";
    [T: ToolInput + ToOwned + ?Sized] Cow<'_, T> => T, "";
}

// Read, an `Option` field may be absent; written, it is `null` or the value.
pointer! {
    @written crate::output::nullable;
    [T: ToolInput] Option<T> => T, "Option";
}

macro_rules! seq {
    ($($ty:ident $(: $bound:path)? => $unique:expr),*) => {$(
        impl<T: ToolInput $(+ $bound)?> ToolInput for $ty<T> {
            const SHAPE: Shape = Shape::Array(&T::SHAPE);
            const HEADERS: &'static [crate::header::Header] = T::HEADERS;
            fn schema_name() -> Cow<'static, str> {
                Cow::Owned(generic_name(stringify!($ty), &[T::schema_name()]))
            }
            fn schema_in(cx: &mut Composer) -> Value {
                types::array(cx.subschema::<T>(), $unique)
            }
            fn __written_in(cx: &mut OutputComposer) -> Value {
                types::array(cx.subschema_written::<T>(), $unique)
            }
        }
        impl<T: Written $(+ $bound)?> Written for $ty<T> {}
    )*};
}

seq!(Vec => false, VecDeque => false, LinkedList => false, BTreeSet: Ord => true);

impl<T: Written, S> Written for HashSet<T, S> {}

impl<T: ToolInput, S> ToolInput for HashSet<T, S> {
    const SHAPE: Shape = Shape::Array(&T::SHAPE);
    const HEADERS: &'static [crate::header::Header] = T::HEADERS;
    fn schema_name() -> Cow<'static, str> {
        Cow::Owned(generic_name("HashSet", &[T::schema_name()]))
    }
    fn schema_in(cx: &mut Composer) -> Value {
        types::array(cx.subschema::<T>(), true)
    }
    fn __written_in(cx: &mut OutputComposer) -> Value {
        types::array(cx.subschema_written::<T>(), true)
    }
}

impl<T: Written> Written for [T] {}

impl<T: ToolInput> ToolInput for [T] {
    const SHAPE: Shape = Shape::Array(&T::SHAPE);
    const HEADERS: &'static [crate::header::Header] = T::HEADERS;
    fn schema_name() -> Cow<'static, str> {
        Cow::Owned(format!("[{}]", T::schema_name()))
    }
    fn schema_in(cx: &mut Composer) -> Value {
        types::array(cx.subschema::<T>(), false)
    }
    fn __written_in(cx: &mut OutputComposer) -> Value {
        types::array(cx.subschema_written::<T>(), false)
    }
}

impl<T: Written, const N: usize> Written for [T; N] {}

impl<T: ToolInput, const N: usize> ToolInput for [T; N] {
    const SHAPE: Shape = Shape::Array(&T::SHAPE);
    const HEADERS: &'static [crate::header::Header] = T::HEADERS;
    fn schema_name() -> Cow<'static, str> {
        Cow::Owned(format!("[{}; {N}]", T::schema_name()))
    }
    fn schema_in(cx: &mut Composer) -> Value {
        types::fixed_array(cx.subschema::<T>(), N)
    }
    fn __written_in(cx: &mut OutputComposer) -> Value {
        types::fixed_array(cx.subschema_written::<T>(), N)
    }
}

/// A key type of a map that serializes as a JSON string.
pub trait StringKey {
    /// The key type's name, for [`ToolInput::schema_name`].
    const NAME: &'static str;
}
impl StringKey for String {
    const NAME: &'static str = "String";
}
impl StringKey for str {
    const NAME: &'static str = "str";
}
impl StringKey for Box<str> {
    const NAME: &'static str = "str";
}
impl StringKey for Rc<str> {
    const NAME: &'static str = "str";
}
impl StringKey for Arc<str> {
    const NAME: &'static str = "str";
}
impl StringKey for Cow<'_, str> {
    const NAME: &'static str = "str";
}

impl<K: StringKey, V: Written, S> Written for HashMap<K, V, S> {}

impl<K: StringKey, V: ToolInput, S> ToolInput for HashMap<K, V, S> {
    const SHAPE: Shape = Shape::Object;
    const HEADERS: &'static [crate::header::Header] = V::HEADERS;
    fn schema_name() -> Cow<'static, str> {
        Cow::Owned(generic_name("HashMap", &[K::NAME.into(), V::schema_name()]))
    }
    fn schema_in(cx: &mut Composer) -> Value {
        types::open_map(cx.subschema::<V>())
    }
    fn __written_in(cx: &mut OutputComposer) -> Value {
        types::open_map(cx.subschema_written::<V>())
    }
}

impl<K: StringKey, V: Written> Written for BTreeMap<K, V> {}

impl<K: StringKey, V: ToolInput> ToolInput for BTreeMap<K, V> {
    const SHAPE: Shape = Shape::Object;
    const HEADERS: &'static [crate::header::Header] = V::HEADERS;
    fn schema_name() -> Cow<'static, str> {
        Cow::Owned(generic_name(
            "BTreeMap",
            &[K::NAME.into(), V::schema_name()],
        ))
    }
    fn schema_in(cx: &mut Composer) -> Value {
        types::open_map(cx.subschema::<V>())
    }
    fn __written_in(cx: &mut OutputComposer) -> Value {
        types::open_map(cx.subschema_written::<V>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_have_natural_bounds() {
        assert_eq!(
            i8::schema_fragment(),
            json!({"type": "integer", "minimum": -128, "maximum": 127})
        );
        assert_eq!(
            u64::schema_fragment(),
            json!({"type": "integer", "minimum": 0, "maximum": u64::MAX})
        );
        assert_eq!(
            Option::<bool>::schema_fragment(),
            json!({"type": "boolean"})
        );
        assert_eq!(
            <[u8; 2]>::schema_fragment()["minItems"],
            json!(2),
            "arrays have a fixed length"
        );
        assert_eq!(
            HashSet::<String>::schema_fragment(),
            json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true})
        );
        assert_eq!(
            BTreeMap::<String, u8>::schema_fragment()["additionalProperties"]["maximum"],
            json!(255)
        );
    }

    #[test]
    fn reserved_keys_are_found_through_flatten() {
        const INNER: &[RootKey] = &[RootKey::Name("role")];
        const OUTER: &[RootKey] = &[RootKey::Name("city"), RootKey::Flatten(INNER)];
        assert_eq!(reserved_root_key(OUTER), Some("role"));
        assert_eq!(reserved_root_key(&[RootKey::Name("roles")]), None);
        assert!(has_root_key(OUTER, "role"));
        assert!(!has_root_key(OUTER, "rol"));
    }

    #[test]
    fn names_are_spelled_from_the_types_as_written() {
        assert_eq!(<Vec<Option<u8>>>::schema_name(), "Vec<Option<u8>>");
        assert_eq!(<[Box<str>; 2]>::schema_name(), "[str; 2]");
        assert_eq!(<&[bool]>::schema_name(), "[bool]");
        assert_eq!(
            <BTreeMap<Cow<'_, str>, Map<String, Value>>>::schema_name(),
            "BTreeMap<str, Map>"
        );
        assert_eq!(<HashSet<Arc<String>>>::schema_name(), "HashSet<String>");
    }

    #[test]
    fn two_types_of_one_name_get_two_names() {
        let mut r = Recursion::default();
        for (id, name) in [
            ("a::Node", "Node"),
            ("b::Node", "Node"),
            ("c::Node2", "Node2"),
        ] {
            assert!(r.enter(&id, name).is_none());
            assert!(r.enter(&id, name).is_some(), "recursive");
            r.leave(&id, name, &json!({}));
        }
        let names: Vec<String> = r.take_definitions().keys().cloned().collect();
        assert_eq!(names, ["Node", "Node2", "Node22"]);
    }
}

/// Helpers for code generated by `#[derive(ToolInput)]`. Not public API.
#[doc(hidden)]
pub mod private {
    pub use super::{Composer, RootKey, ToolInput, generic_name, has_root_key, reserved_root_key};
    pub use serde_json::{Map, Value};

    /// Parses JSON text the derive wrote; the text is always an object or a schema.
    #[must_use]
    pub fn json(text: &str) -> Value {
        serde_json::from_str(text).unwrap_or(Value::Null)
    }

    /// Parses the derive's JSON text for an object's own keywords.
    #[must_use]
    pub fn object(text: &str) -> Map<String, Value> {
        match json(text) {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    /// Sets the field's own keywords (`description`, constraints) over a composed schema.
    /// A `$ref` ignores its siblings in draft-07, so there the keywords wrap it.
    #[must_use]
    pub fn overlay(schema: Value, text: &str) -> Value {
        let extra = object(text);
        overlay_map(schema, extra)
    }

    /// Sets a run-time description (a doc comment with `include_str!`) over a schema.
    #[must_use]
    pub fn describe(schema: Value, parts: &[&str]) -> Value {
        let mut extra = Map::new();
        extra.insert("description".into(), Value::String(super::join_doc(parts)));
        overlay_map(schema, extra)
    }

    /// [`overlay`] with the keywords as a map (the build script's static view, which
    /// has them as values, not as the derive's text). A `description` set over an enum
    /// whose own description ends with its values' meanings
    /// ([`variant_meanings`](crate::doc::variant_meanings)) keeps them as its last
    /// paragraph.
    #[must_use]
    pub fn overlay_map(schema: Value, mut extra: Map<String, Value>) -> Value {
        if extra.is_empty() {
            return schema;
        }
        match schema {
            Value::Object(mut map) if !map.contains_key("$ref") => {
                if let (
                    Some(Value::String(new)),
                    Some(Value::String(old)),
                    Some(Value::Array(values)),
                ) = (
                    extra.get_mut("description"),
                    map.get("description"),
                    map.get("enum"),
                ) && let Some(meanings) = crate::doc::meanings_in(old, values)
                    && !new.ends_with(meanings)
                {
                    let joined = crate::doc::with_meanings(Some(new.as_str()), meanings);
                    *new = joined;
                }
                map.extend(extra);
                Value::Object(map)
            }
            other => {
                let mut map = extra;
                map.insert("allOf".into(), Value::Array(vec![other]));
                Value::Object(map)
            }
        }
    }

    /// Adds one property to an object schema under construction.
    pub fn property(object: &mut Map<String, Value>, name: &str, schema: Value, required: bool) {
        if let Value::Object(props) = object
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()))
        {
            props.insert(name.to_owned(), schema);
        }
        if !required {
            return;
        }
        if let Value::Array(req) = object
            .entry("required")
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            req.push(Value::String(name.to_owned()));
        }
    }

    /// Merges the properties of a flattened object schema (`#[serde(flatten)]`).
    pub fn flatten(object: &mut Map<String, Value>, schema: Value, required: bool) {
        let Value::Object(mut inner) = schema else {
            return;
        };
        let names = crate::schema::required_names(&inner);
        if let Some(Value::Object(props)) = inner.remove("properties") {
            for (name, schema) in props {
                let req = required && names.contains(&name);
                property(object, &name, schema, req);
            }
        }
    }

    /// Closes an object schema under construction and returns it.
    #[must_use]
    pub fn close(mut object: Map<String, Value>) -> Value {
        object
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        object.insert("additionalProperties".into(), Value::Bool(false));
        Value::Object(object)
    }

    /// `oneOf` (tagged enums) or `anyOf` (untagged) over the branches, with the enum's
    /// own keywords.
    #[must_use]
    pub fn choice<const N: usize>(text: &str, keyword: &str, branches: [Value; N]) -> Value {
        let mut map = object(text);
        map.insert(keyword.into(), Value::Array(branches.into()));
        Value::Object(map)
    }
}

pub use crate::doc::join_doc;
