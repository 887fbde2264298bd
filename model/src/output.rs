//! Tool outputs as Rust types: the [`ToolOutput`] trait, the schema of what serde
//! *writes* for a type (MCP `outputSchema`).
//!
//! An input's schema says what serde reads; an output's says what it writes, and the two
//! differ: an `Option` field is written as `null` unless `skip_serializing_if` leaves it
//! out, a float that is not finite is written as `null`, `skip_serializing` fields are
//! never written, and `rename(serialize = ...)` is the name that counts.
//! `#[derive(ToolOutput)]` (in the `neuralis` facade) implements the trait for structs and
//! enums; this module implements it for the standard types, reading the same type table
//! as [`ToolInput`](crate::input::ToolInput) ([`crate::types`]).
//!
//! ```
//! use neuralis_model::output::ToolOutput;
//! use serde_json::json;
//!
//! assert_eq!(<Option<u8> as ToolOutput>::output_fragment(), json!({
//!     "anyOf": [{"type": "integer", "minimum": 0, "maximum": 255}, {"type": "null"}]
//! }));
//! // A tool's output schema is an object: a non-object output is wrapped as `result`.
//! assert_eq!(<Vec<String> as ToolOutput>::output_schema(), json!({
//!     "$schema": "http://json-schema.org/draft-07/schema#",
//!     "type": "object",
//!     "properties": {"result": {"type": "array", "items": {"type": "string"}}},
//!     "required": ["result"],
//!     "additionalProperties": false
//! }));
//! ```

use std::any::type_name;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, LinkedList, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::input::{Recursion, generic_name};
use crate::types::{self, Known};

/// A type whose JSON Schema is exactly what serde writes for it.
///
/// Derive it with `#[derive(ToolOutput)]`; the trait is implemented here for `bool`, the
/// integers, the floats (`null` included: serde writes a NaN or an infinity as `null`),
/// `String`, `str`, `char`, `()`, `Option<T>` (its schema or `null`), the sequences and
/// sets, fixed arrays and tuples, string-keyed maps, `serde_json::Value` and `Map`, the
/// smart pointers and references, and (behind the features of the same names) the
/// `uuid`, `chrono`, `url` and `time` types that are `ToolInput`, with the same formats.
///
/// A type that derives [`ToolInput`](crate::input::ToolInput) has an output schema without
/// this trait ([`Written`]): `#[tool]` and `#[derive(ToolOutput)]` reach it where the type
/// is returned or nested. Deriving both on one type is fine; this trait's schema is then
/// the one used, and it is the same.
#[diagnostic::on_unimplemented(
    message = "unsupported-type: `{Self}` has no output schema",
    label = "this type has no output schema",
    note = "derive `ToolOutput` on it, or return a type that does (a handler whose return type has no output schema declares none); a type that derives only `ToolInput` is returned and nested in a `ToolOutput` type as it is, but does not implement `ToolOutput` for a bound of your own: add `ToolOutput` to its derive"
)]
pub trait ToolOutput {
    /// Whether the type may nest itself, so [`OutputComposer`] must track it for
    /// recursion. `false` for leaf types.
    #[doc(hidden)]
    const COMPOSITE: bool = false;

    /// Whether the schema is an object with `properties`, so that `#[serde(flatten)]` can
    /// merge it into another object.
    const IS_OBJECT: bool = false;

    /// The name under `definitions` when the type is recursive, spelled as for inputs
    /// ([`ToolInput::schema_name`](crate::input::ToolInput::schema_name)).
    fn output_name() -> Cow<'static, str>;

    /// The schema of this type in a nested position, composed through `cx`.
    fn output_in(cx: &mut OutputComposer) -> Value;

    /// [`OutputComposer::subschema`] of this type, for generated code.
    #[doc(hidden)]
    fn __output_subschema(cx: &mut OutputComposer) -> Value {
        cx.subschema::<Self>()
    }

    /// The schema of this type in a nested position, with a fresh composer.
    fn output_fragment() -> Value {
        OutputComposer::default().subschema::<Self>()
    }

    /// The tool's output schema for a handler returning this type: a draft-07 document
    /// whose root is an object, the type's own schema when it is one, else
    /// `{"result": <schema>}` (the pipeline wraps such a value the same way), with the
    /// `definitions` recursion needs.
    fn output_schema() -> Value {
        output_root::<Self>().0
    }
}

/// A [`ToolInput`](crate::input::ToolInput) type whose output schema is known from its
/// input: `#[derive(ToolInput)]` also writes what serde writes for the type (the model
/// `#[derive(ToolOutput)]` builds, read for serde's writing half), composed through
/// `ToolInput::__written_in`. The derive implements it for every type whose writing half
/// it can model (not, for example, for a `serialize_with` field without
/// `#[schema(with = T)]`), and this module for the standard types whose parameters are
/// `Written`. A hand-written `ToolInput` impl is not `Written`: it says nothing of output.
///
/// Where a type is returned from a handler or nested in a `#[derive(ToolOutput)]` type,
/// its [`ToolOutput`] impl is used when it has one, else this; so a type read and
/// returned needs one derive, and may have both.
///
/// ```
/// use neuralis_model::output::{ToolOutput, output_root, output_root_written};
///
/// // The standard types are both, with the same schema.
/// assert_eq!(output_root::<Vec<Option<u8>>>(), output_root_written::<Vec<Option<u8>>>());
/// ```
#[diagnostic::on_unimplemented(
    message = "unsupported-type: `{Self}` has no output schema",
    label = "this type has no output schema",
    note = "derive `ToolOutput` on it (or `ToolInput`, for a type that is read as well), or return a type that does (a handler whose return type has no output schema declares none)"
)]
pub trait Written: crate::input::ToolInput {}

/// Composes nested output schemas and notices recursion (the bookkeeping is the inputs'
/// [`Recursion`]).
#[derive(Debug, Default)]
pub struct OutputComposer {
    recursion: Recursion<&'static str>,
}

impl OutputComposer {
    /// The schema of `T`, inlined, or a `$ref` when `T` is already being composed.
    pub fn subschema<T: ToolOutput + ?Sized>(&mut self) -> Value {
        self.tracked(T::COMPOSITE, type_name::<T>(), T::output_name, T::output_in)
    }

    /// The schema of what serde writes for `T`, through its `ToolInput` impl
    /// ([`ToolInput::__written_in`](crate::input::ToolInput)): how a type read and written
    /// alike composes its fields' output schemas, with the same recursion bookkeeping (a
    /// type is keyed and named as through [`subschema`](Self::subschema)).
    pub fn subschema_written<T: crate::input::ToolInput + ?Sized>(&mut self) -> Value {
        self.tracked(
            T::COMPOSITE,
            type_name::<T>(),
            T::schema_name,
            T::__written_in,
        )
    }

    /// `compose`'s schema of the type `id`, inlined, or a `$ref` when it is already being
    /// composed (a leaf, not `composite`, is never tracked).
    fn tracked(
        &mut self,
        composite: bool,
        id: &'static str,
        name: fn() -> Cow<'static, str>,
        compose: fn(&mut Self) -> Value,
    ) -> Value {
        if !composite {
            return compose(self);
        }
        let name = name();
        if let Some(reference) = self.recursion.enter(&id, &name) {
            return reference;
        }
        let schema = compose(self);
        self.recursion.leave(&id, &name, &schema);
        schema
    }
}

/// Whether `schema`'s root is an object schema, so the value needs no wrapping.
#[must_use]
pub fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// The root output document of `T` (see [`ToolOutput::output_schema`]), and whether it
/// wraps `T`'s schema as `result`.
pub fn output_root<T: ToolOutput + ?Sized>() -> (Value, bool) {
    root_with(type_name::<T>(), OutputComposer::subschema::<T>)
}

/// The root output document of a [`Written`] type, from what its input derive wrote (as
/// [`output_root`] for a `ToolOutput` type), and whether it wraps the schema as `result`.
pub fn output_root_written<T: Written + ?Sized>() -> (Value, bool) {
    root_with(type_name::<T>(), OutputComposer::subschema_written::<T>)
}

fn root_with(id: &'static str, compose: fn(&mut OutputComposer) -> Value) -> (Value, bool) {
    let mut cx = OutputComposer::default();
    cx.recursion.set_root(id);
    let fragment = compose(&mut cx);
    let definitions = cx.recursion.take_definitions();
    output_document(fragment, definitions)
}

/// The root output document around a fragment: `$schema`, the fragment itself when it is
/// an object schema (else wrapped as `result`, its `$ref: "#"`s then pointing at the
/// wrapper's `result`), and `definitions`; and whether it wrapped the fragment.
#[must_use]
pub fn output_document(fragment: Value, definitions: Map<String, Value>) -> (Value, bool) {
    let mut root = Map::new();
    root.insert(
        "$schema".into(),
        Value::String(crate::contract::DRAFT_07.into()),
    );
    let wrapped = !is_object_schema(&fragment);
    if !wrapped {
        if let Value::Object(map) = fragment {
            root.extend(map);
        }
    } else {
        let mut fragment = fragment;
        retarget_root_refs(&mut fragment);
        root.insert("type".into(), json!("object"));
        root.insert("properties".into(), json!({ "result": fragment }));
        root.insert("required".into(), json!(["result"]));
        root.insert("additionalProperties".into(), Value::Bool(false));
    }
    if !definitions.is_empty() {
        let mut definitions = Value::Object(definitions);
        if wrapped {
            retarget_root_refs(&mut definitions);
        }
        root.insert("definitions".into(), definitions);
    }
    (Value::Object(root), wrapped)
}

/// `{"$ref": "#"}` means the root type; once wrapped, the root type is `result`.
fn retarget_root_refs(v: &mut Value) {
    match v {
        Value::Object(map) => {
            if map.get("$ref").and_then(Value::as_str) == Some("#") {
                map.insert("$ref".into(), json!("#/properties/result"));
            }
            map.values_mut().for_each(retarget_root_refs);
        }
        Value::Array(items) => items.iter_mut().for_each(retarget_root_refs),
        _ => {}
    }
}

/// `T`'s schema or `null`: what serde writes for an `Option<T>` that is not skipped.
#[must_use]
pub fn nullable(schema: Value) -> Value {
    if schema.as_object().is_some_and(Map::is_empty) {
        return schema;
    }
    json!({ "anyOf": [schema, { "type": "null" }] })
}

/// The largest integer a JSON client's doubles hold exactly (2^53).
const EXACT_IN_DOUBLES: u128 = 1 << 53;

/// The output schema of a leaf type of the table: the input's, except that a float may be
/// written as `null` (NaN and the infinities), and that an integer type's own bound is
/// left out where it lies beyond 2^53 (`i64`, `u64`'s maximum, the 128-bit types): a
/// client that reads JSON numbers as doubles cannot hold it, and it says nothing the
/// serializer does not already ensure. (Inputs keep their bounds: there the validator
/// must refuse what the type cannot hold.)
///
/// ```
/// use neuralis_model::{output::leaf, types};
/// use serde_json::json;
/// assert_eq!(leaf(&types::U8), json!({"type": "integer", "minimum": 0, "maximum": 255}));
/// assert_eq!(leaf(&types::U64), json!({"type": "integer", "minimum": 0}));
/// assert_eq!(leaf(&types::I64), json!({"type": "integer"}));
/// ```
#[must_use]
pub fn leaf(known: &Known) -> Value {
    match known.meaning {
        types::Meaning::Float => json!({ "type": ["number", "null"] }),
        types::Meaning::Int { min, max } => {
            let mut schema = Map::new();
            schema.insert("type".into(), json!("integer"));
            if min.unsigned_abs() <= EXACT_IN_DOUBLES {
                schema.insert("minimum".into(), json!(min));
            }
            if max <= EXACT_IN_DOUBLES {
                schema.insert("maximum".into(), json!(max));
            }
            Value::Object(schema)
        }
        _ => known.schema().unwrap_or_else(|| json!({})),
    }
}

/// The leaf types: the table's schema as serde writes it (the well-known crates' types
/// too, each behind its feature).
macro_rules! leaf_outputs {
    ($($(#[$cfg:meta])* [$($generics:tt)*] $ty:ty => $known:ident;)*) => {$(
        $(#[$cfg])*
        impl<$($generics)*> ToolOutput for $ty {
            fn output_name() -> Cow<'static, str> {
                Cow::Borrowed(types::$known.name)
            }
            fn output_in(_: &mut OutputComposer) -> Value {
                leaf(&types::$known)
            }
        }
    )*};
}

crate::types::leaf_types!(leaf_outputs);

impl ToolOutput for () {
    fn output_name() -> Cow<'static, str> {
        Cow::Borrowed("()")
    }
    fn output_in(_: &mut OutputComposer) -> Value {
        json!({ "type": "null" })
    }
}

impl<T: ToolOutput> ToolOutput for Option<T> {
    const COMPOSITE: bool = T::COMPOSITE;
    fn output_name() -> Cow<'static, str> {
        Cow::Owned(generic_name("Option", &[T::output_name()]))
    }
    fn output_in(cx: &mut OutputComposer) -> Value {
        nullable(cx.subschema::<T>())
    }
}

macro_rules! pointer_outputs {
    ($($p:ident),*) => {$(
        impl<T: ToolOutput + ?Sized> ToolOutput for $p<T> {
            const COMPOSITE: bool = T::COMPOSITE;
            const IS_OBJECT: bool = T::IS_OBJECT;
            fn output_name() -> Cow<'static, str> { T::output_name() }
            fn output_in(cx: &mut OutputComposer) -> Value { cx.subschema::<T>() }
        }
    )*};
}

pointer_outputs!(Box, Rc, Arc);

impl<T: ToolOutput + ?Sized> ToolOutput for &T {
    const COMPOSITE: bool = T::COMPOSITE;
    const IS_OBJECT: bool = T::IS_OBJECT;
    fn output_name() -> Cow<'static, str> {
        T::output_name()
    }
    fn output_in(cx: &mut OutputComposer) -> Value {
        cx.subschema::<T>()
    }
}

impl<T: ToolOutput + ToOwned + ?Sized> ToolOutput for Cow<'_, T> {
    const COMPOSITE: bool = T::COMPOSITE;
    const IS_OBJECT: bool = T::IS_OBJECT;
    fn output_name() -> Cow<'static, str> {
        T::output_name()
    }
    fn output_in(cx: &mut OutputComposer) -> Value {
        cx.subschema::<T>()
    }
}

macro_rules! seq_outputs {
    ($($s:ident => $unique:expr),*) => {$(
        impl<T: ToolOutput> ToolOutput for $s<T> {
            const COMPOSITE: bool = T::COMPOSITE;
            fn output_name() -> Cow<'static, str> {
                Cow::Owned(generic_name(stringify!($s), &[T::output_name()]))
            }
            fn output_in(cx: &mut OutputComposer) -> Value {
                types::array(cx.subschema::<T>(), $unique)
            }
        }
    )*};
}

seq_outputs!(Vec => false, VecDeque => false, LinkedList => false, BTreeSet => true);

impl<T: ToolOutput> ToolOutput for [T] {
    const COMPOSITE: bool = T::COMPOSITE;
    fn output_name() -> Cow<'static, str> {
        Cow::Owned(format!("[{}]", T::output_name()))
    }
    fn output_in(cx: &mut OutputComposer) -> Value {
        types::array(cx.subschema::<T>(), false)
    }
}

impl<T: ToolOutput, S> ToolOutput for HashSet<T, S> {
    const COMPOSITE: bool = T::COMPOSITE;
    fn output_name() -> Cow<'static, str> {
        Cow::Owned(generic_name("HashSet", &[T::output_name()]))
    }
    fn output_in(cx: &mut OutputComposer) -> Value {
        types::array(cx.subschema::<T>(), true)
    }
}

impl<T: ToolOutput, const N: usize> ToolOutput for [T; N] {
    const COMPOSITE: bool = T::COMPOSITE;
    fn output_name() -> Cow<'static, str> {
        Cow::Owned(format!("[{}; {N}]", T::output_name()))
    }
    fn output_in(cx: &mut OutputComposer) -> Value {
        types::fixed_array(cx.subschema::<T>(), N)
    }
}

/// A string-keyed map: serde writes every key as a JSON string.
pub trait OutputKey {
    /// The key type's name, for [`ToolOutput::output_name`].
    const NAME: &'static str;
}
impl OutputKey for String {
    const NAME: &'static str = "String";
}
impl OutputKey for str {
    const NAME: &'static str = "str";
}
impl OutputKey for Cow<'_, str> {
    const NAME: &'static str = "str";
}
impl<K: OutputKey + ?Sized> OutputKey for &K {
    const NAME: &'static str = K::NAME;
}
impl<K: OutputKey + ?Sized> OutputKey for Box<K> {
    const NAME: &'static str = K::NAME;
}
impl<K: OutputKey + ?Sized> OutputKey for Arc<K> {
    const NAME: &'static str = K::NAME;
}
impl<K: OutputKey + ?Sized> OutputKey for Rc<K> {
    const NAME: &'static str = K::NAME;
}

impl<K: OutputKey, V: ToolOutput, S> ToolOutput for HashMap<K, V, S> {
    const COMPOSITE: bool = V::COMPOSITE;
    fn output_name() -> Cow<'static, str> {
        Cow::Owned(generic_name("HashMap", &[K::NAME.into(), V::output_name()]))
    }
    fn output_in(cx: &mut OutputComposer) -> Value {
        types::open_map(cx.subschema::<V>())
    }
}

impl<K: OutputKey, V: ToolOutput> ToolOutput for BTreeMap<K, V> {
    const COMPOSITE: bool = V::COMPOSITE;
    fn output_name() -> Cow<'static, str> {
        Cow::Owned(generic_name(
            "BTreeMap",
            &[K::NAME.into(), V::output_name()],
        ))
    }
    fn output_in(cx: &mut OutputComposer) -> Value {
        types::open_map(cx.subschema::<V>())
    }
}

macro_rules! tuple_outputs {
    ($(($($t:ident),+)),*) => {$(
        impl<$($t: ToolOutput),+> ToolOutput for ($($t,)+) {
            const COMPOSITE: bool = $($t::COMPOSITE)||+;
            fn output_name() -> Cow<'static, str> {
                Cow::Owned(format!("({},)", [$($t::output_name()),+].join(", ")))
            }
            fn output_in(cx: &mut OutputComposer) -> Value {
                let items = vec![$(cx.subschema::<$t>()),+];
                let n = items.len();
                json!({ "type": "array", "items": items, "minItems": n, "maxItems": n })
            }
        }
    )*};
}

tuple_outputs!(
    (A),
    (A, B),
    (A, B, C),
    (A, B, C, D),
    (A, B, C, D, E),
    (A, B, C, D, E, F)
);

#[doc(hidden)]
pub mod private {
    //! What `#[derive(ToolOutput)]` expands to (beside `input::private`'s helpers): not
    //! public API.
    pub use super::{OutputComposer, ToolOutput, Written};
    use std::marker::PhantomData;

    use serde_json::Value;

    /// A field type of a `#[derive(ToolOutput)]` type, probed for where its schema comes
    /// from (autoref specialization, receiver `&OutputField` first): its own [`ToolOutput`]
    /// impl, else what its `ToolInput` derive wrote ([`Written`]). The consts are probed
    /// the same way: an inherent const (where `T: ToolOutput`) wins over the trait's.
    pub struct OutputField<T: ?Sized>(PhantomData<T>);

    impl<T: ?Sized> OutputField<T> {
        /// The probe.
        pub const NEW: Self = Self(PhantomData);
    }

    impl<T: ?Sized> Clone for OutputField<T> {
        fn clone(&self) -> Self {
            *self
        }
    }

    impl<T: ?Sized> Copy for OutputField<T> {}

    impl<T: ToolOutput + ?Sized> OutputField<T> {
        /// Whether the schema is an object's.
        pub const IS_OBJECT: bool = T::IS_OBJECT;
    }

    /// The consts of a field type that is only [`Written`].
    pub trait WrittenConsts {
        /// Whether the schema is an object's.
        const IS_OBJECT: bool;
    }

    impl<T: Written + ?Sized> WrittenConsts for OutputField<T> {
        const IS_OBJECT: bool = T::IS_OBJECT;
    }

    /// The first choice: the field type's own [`ToolOutput`].
    pub trait ViaFieldOutput {
        /// The field type's schema, composed through `cx`.
        fn __neuralis_field(self, cx: &mut super::OutputComposer) -> Value;
    }

    impl<T: ToolOutput + ?Sized> ViaFieldOutput for &OutputField<T> {
        fn __neuralis_field(self, cx: &mut super::OutputComposer) -> Value {
            cx.subschema::<T>()
        }
    }

    /// The last choice: what the field type's `ToolInput` derive wrote; a type that is
    /// neither is `unsupported-type` here (on [`Written`]).
    pub trait ViaFieldWritten<T: ?Sized> {
        /// The field type's schema, composed through `cx`.
        fn __neuralis_field(self, cx: &mut super::OutputComposer) -> Value
        where
            T: Written;
    }

    impl<T: ?Sized> ViaFieldWritten<T> for OutputField<T> {
        fn __neuralis_field(self, cx: &mut super::OutputComposer) -> Value
        where
            T: Written,
        {
            cx.subschema_written::<T>()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_may_be_null_and_units_are_null() {
        assert_eq!(f64::output_fragment(), json!({"type": ["number", "null"]}));
        assert_eq!(<()>::output_fragment(), json!({"type": "null"}));
    }

    #[test]
    fn tuples_and_maps() {
        assert_eq!(
            <(u8, String)>::output_fragment(),
            json!({"type": "array", "minItems": 2, "maxItems": 2, "items": [
                {"type": "integer", "minimum": 0, "maximum": 255}, {"type": "string"}]})
        );
        assert_eq!(
            <BTreeMap<String, bool>>::output_fragment(),
            json!({"type": "object", "additionalProperties": {"type": "boolean"}})
        );
    }

    #[test]
    fn an_object_root_is_not_wrapped() {
        let doc = <Map<String, Value>>::output_schema();
        assert_eq!(doc["type"], "object");
        assert!(doc.get("properties").is_none(), "{doc}");
    }
}
