//! A typed value serialized within the caps: the sketch that bounding reads in place of
//! the whole value (`bound_typed`).
//!
//! The sketch is the `serde_json::Value` that `serde_json::to_value` would give, less
//! what no cap could keep: an array holds at most `array_len` items, and stops once its
//! items pass the byte budget (the engine never reads further: every limit it measures
//! against is within the budget); a string over `string_chars` holds a prefix a little
//! longer than the cap (so the engine still sees that it must clip it); a container
//! nested deeper than the engine keeps is written empty. What was left out is counted,
//! never written: [`Origins`] holds each length by the sketch value's address, and the
//! engine reads it wherever it records a count, so a plan of the sketch is the plan of
//! the whole value, cut for cut.
//!
//! An array whose length is known before its items (`serialize_seq(Some(n))`, which
//! serde gives for every `Vec`, slice and map it knows the size of) stops its `Serialize`
//! at the first item past what is kept, by an error that the sketch's own caller
//! catches: the cost follows what is kept, not the array. The rest is written as
//! `serde_json::to_value` writes it: a map key by `serde_json` itself when it is not a
//! string or an integer, 128-bit integers as numbers when they fit 64 bits (else its
//! error), raw values parsed. A key written twice gives [`Error::Whole`]: the caller
//! writes the whole value ([`whole`]: the same serializer without caps, the last value
//! kept at the first place, as `to_value` keeps it), so no `to_value` is compiled in
//! beside it.

use std::borrow::Cow;
use std::fmt;

use serde::ser::{self, Serialize};
use serde_json::{Map, Value};

use super::clip::{escaped_len, plan_clip_of, scan, utf16_prefix_end};
use super::engine::{Limits, MAX_DEPTH, Origins, number_len};

mod key;

use key::{KeySer, serde_json_key};

/// A sketch of a value, with its serialized size as the engine measures it.
pub(crate) struct Sketch {
    /// The sketch.
    pub value: Value,
    /// The size `Rules::measure_clean` gives the whole value: exact when at most the
    /// budget, else some size above it.
    pub size: usize,
    /// Whether the caps leave the value as it is (meaningful when `size` is within the
    /// budget).
    pub clean: bool,
    /// What the sketch left out, by path: [`LeftOut::at`] puts it at the addresses of
    /// the sketch's values once the sketch sits where it is read.
    pub left_out: LeftOut,
    /// Whether the value is `null` (a result without `structuredContent`).
    pub null: bool,
}

/// Why a value has no sketch.
#[derive(Debug)]
pub(crate) enum Error {
    /// An array stopped early (caught by the sketch's own caller, never returned).
    Stop,
    /// Something the sketch does not mirror exactly: serialize the whole value instead.
    Whole,
    /// The value's `Serialize` failed, with its message.
    Custom(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Stop => f.write_str("the sketch stopped an array early"),
            Error::Whole => f.write_str("the value needs to be serialized whole"),
            Error::Custom(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::Custom(msg.to_string())
    }
}

/// The sketch of `value` within `limits` and `budget` bytes, as `{"result": value}`
/// when `wrapped`.
pub(crate) fn sketch<T: Serialize + ?Sized>(
    value: &T,
    limits: Limits,
    budget: usize,
    wrapped: bool,
) -> Result<Sketch, Error> {
    if limits.key_chars != usize::MAX {
        // Bounding keeps every key; a key cap is the iframe's, never a sketch's.
        return Err(Error::Whole);
    }
    let mut state = State {
        limits,
        budget,
        max_depth: MAX_DEPTH,
        whole: false,
        path: Vec::new(),
        pending: Vec::new(),
        stash: None,
    };
    let node = if wrapped {
        state.path.push(Step::Key(Cow::Borrowed(RESULT)));
        let inner = state.child(value, 2)?;
        state.path.pop();
        let null = inner.value.is_null();
        let node = variant(1, RESULT, inner);
        state.mark(&node);
        (node, null)
    } else {
        let node = state.child(value, 1)?;
        let null = node.value.is_null();
        (node, null)
    };
    let (node, null) = node;
    Ok(Sketch {
        value: node.value,
        size: node.size,
        clean: node.clean,
        left_out: LeftOut(state.pending),
        null,
    })
}

/// The whole value, as `serde_json::to_value` writes it (under `result` when `wrapped`),
/// for what a sketch does not mirror (a key written twice); `None` for `null`.
pub(crate) fn whole<T: Serialize + ?Sized>(
    value: &T,
    wrapped: bool,
) -> Result<Option<Value>, Error> {
    let limits = Limits {
        string_chars: usize::MAX,
        array_len: usize::MAX,
        key_chars: usize::MAX,
    };
    let mut state = State {
        limits,
        budget: usize::MAX,
        max_depth: usize::MAX,
        whole: true,
        path: Vec::new(),
        pending: Vec::new(),
        stash: None,
    };
    let node = state.child(value, 1)?;
    if node.value.is_null() {
        return Ok(None);
    }
    if !wrapped {
        return Ok(Some(node.value));
    }
    let mut m = Map::new();
    m.insert(RESULT.to_owned(), node.value);
    Ok(Some(Value::Object(m)))
}

/// What a sketch left out, by the path of the value that stands for each: a length, or
/// only that the caps do not leave the value as it is.
pub(crate) struct LeftOut(Vec<(Vec<Step>, Option<usize>)>);

impl LeftOut {
    /// The lengths by the address of each value in `root` (the sketch, where it is read:
    /// it must not move while they are used), and the values the caps change.
    pub(crate) fn at(&self, root: &Value) -> Origins {
        let mut origins = Origins::default();
        for (path, n) in &self.0 {
            if let Some(v) = find(root, path) {
                origins.unclean(v);
                if let Some(n) = n {
                    origins.insert(v, *n);
                }
            }
        }
        origins
    }
}

/// `serde_json`'s message for a 128-bit integer no JSON number holds.
const OUT_OF_RANGE: &str = "number out of range";

/// The member a wrapped output's value is sent under.
pub(crate) const RESULT: &str = "result";

/// One step from a value to a child.
#[derive(Debug, Clone)]
pub(crate) enum Step {
    Index(usize),
    Key(Cow<'static, str>),
}

fn find<'v>(mut v: &'v Value, path: &[Step]) -> Option<&'v Value> {
    for step in path {
        v = match (step, v) {
            (Step::Index(i), Value::Array(a)) => a.get(*i)?,
            (Step::Key(k), Value::Object(m)) => m.get(k.as_ref())?,
            _ => return None,
        };
    }
    Some(v)
}

/// A value of the sketch, with its size and whether the caps leave it alone.
struct Node {
    value: Value,
    size: usize,
    clean: bool,
}

impl Node {
    fn leaf(value: Value, size: usize) -> Self {
        Self {
            value,
            size,
            clean: true,
        }
    }
}

struct State {
    limits: Limits,
    budget: usize,
    /// Containers nested deeper are written empty (`usize::MAX` for the whole value).
    max_depth: usize,
    /// Writing the whole value: a key given twice keeps its last value, as `to_value`.
    whole: bool,
    /// Where the value being written is.
    path: Vec<Step>,
    /// The lengths left out, and the values the caps change, by path, until the tree is
    /// built.
    pending: Vec<(Vec<Step>, Option<usize>)>,
    /// An array that stopped early, for the caller that catches the stop.
    stash: Option<Node>,
}

impl State {
    /// Writes a child value at nesting level `depth`, catching the stop of an array that
    /// ended early.
    fn child<T: Serialize + ?Sized>(&mut self, value: &T, depth: usize) -> Result<Node, Error> {
        match value.serialize(Ser { st: self, depth }) {
            Ok(node) => Ok(node),
            Err(Error::Stop) => self.stash.take().ok_or(Error::Whole),
            Err(e) => Err(e),
        }
    }

    /// The value written here stands for one of length `n`.
    fn left_out(&mut self, n: usize) {
        self.pending.push((self.path.clone(), Some(n)));
    }

    /// Records a value written here that the caps change (so the engine walks it; any
    /// other it keeps whole without a look).
    fn mark(&mut self, node: &Node) {
        if !node.clean {
            self.pending.push((self.path.clone(), None));
        }
    }

    /// A string, clipped to a little more than `string_chars` when longer.
    fn string(&mut self, s: &str) -> Node {
        let cap = self.limits.string_chars;
        let (units, escaped) = scan(s);
        if units <= cap {
            return Node::leaf(Value::String(s.to_owned()), escaped + 2);
        }
        // Two units past the cap, so the sketch's string is still over it whatever a
        // surrogate pair does at the cut.
        let end = utf16_prefix_end(s, cap.saturating_add(2));
        let held = &s[..end];
        let size =
            plan_clip_of(held, units, cap, usize::MAX).map_or(escaped, |clip| clip.escaped_len());
        if end < s.len() {
            self.left_out(units);
        } else {
            self.pending.push((self.path.clone(), None));
        }
        Node {
            value: Value::String(held.to_owned()),
            size: size + 2,
            clean: false,
        }
    }
}

/// Writes one value at nesting level `depth`.
struct Ser<'a> {
    st: &'a mut State,
    depth: usize,
}

/// A one-member object `{variant: ...}` (an enum variant with data), around a value
/// at `depth + 1`.
fn variant(depth: usize, name: &'static str, inner: Node) -> Node {
    let mut map = Map::new();
    let nested = depth + 1 > MAX_DEPTH && is_container(&inner.value);
    let size = if nested {
        2
    } else {
        2 + escaped_len(name) + 3 + inner.size
    };
    let clean = inner.clean && !nested;
    map.insert(name.to_owned(), inner.value);
    Node {
        value: Value::Object(map),
        size,
        clean,
    }
}

fn node_len(node: &Node) -> usize {
    match &node.value {
        Value::Array(a) => a.len(),
        _ => 0,
    }
}

fn is_container(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Object(_))
}

impl<'a> Ser<'a> {
    fn number(n: serde_json::Number) -> Node {
        let size = number_len(&n);
        Node::leaf(Value::Number(n), size)
    }

    /// A float as `to_value` writes it: a number, or `null` (4 bytes) when it is not
    /// finite.
    fn float(v: Value) -> Node {
        match v {
            Value::Number(n) => Self::number(n),
            other => Node::leaf(other, 4),
        }
    }

    /// The writer of the variant's inner container one level down, the path stepped
    /// into the variant; `None` (one member counted) when the variant's object is nested
    /// too deep to keep.
    fn enter(self, name: &'static str) -> Option<Ser<'a>> {
        if self.depth > self.st.max_depth {
            self.st.left_out(1);
            return None;
        }
        self.st.path.push(Step::Key(Cow::Borrowed(name)));
        Some(Ser {
            st: self.st,
            depth: self.depth + 1,
        })
    }

    /// An array writer that never stops its caller's loop (a variant's fields: the stop
    /// would skip the variant's own object).
    fn seq_in_place(self, len: Option<usize>) -> SeqSer<'a> {
        let deep = self.depth > self.st.max_depth;
        // Room for what can be kept: the cap, or the budget's worth of the smallest items.
        let room = if deep {
            0
        } else {
            let st = &self.st;
            len.unwrap_or(0)
                .min(st.limits.array_len)
                .min(st.budget / 2 + 1)
        };
        SeqSer {
            deep,
            len,
            items: Vec::with_capacity(room),
            count: 0,
            size: 2,
            clean: true,
            done: false,
            stops: false,
            ser: self,
        }
    }

    fn map_in_place(self, len: Option<usize>) -> MapSer<'a> {
        let deep = self.depth > self.st.max_depth;
        let room = if deep { 0 } else { len.unwrap_or(0).min(1024) };
        MapSer {
            raw: None,
            deep,
            map: Map::with_capacity(room),
            count: 0,
            size: 2,
            clean: true,
            key: None,
            ser: self,
        }
    }

    /// A container of `len` children nested too deep: written empty (`empty`), its
    /// children counted, and its `Serialize` stopped, nothing of it read. `Ok` when it is
    /// not too deep, or its length is not known before its children.
    fn stop_deep(
        &mut self,
        len: Option<usize>,
        empty: impl FnOnce() -> Value,
    ) -> Result<(), Error> {
        let Some(n) = len.filter(|_| self.depth > self.st.max_depth) else {
            return Ok(());
        };
        if n > 0 {
            self.st.left_out(n);
        }
        self.st.stash = Some(Node {
            value: empty(),
            size: 2,
            clean: false,
        });
        Err(Error::Stop)
    }

    fn seq(mut self, len: Option<usize>) -> Result<SeqSer<'a>, Error> {
        self.stop_deep(len, || Value::Array(Vec::new()))?;
        let mut seq = self.seq_in_place(len);
        seq.stops = true;
        Ok(seq)
    }

    fn map(mut self, len: Option<usize>) -> Result<MapSer<'a>, Error> {
        self.stop_deep(len, || Value::Object(Map::new()))?;
        Ok(self.map_in_place(len))
    }

    /// `{variant: inner}` where `inner` is written by `f` one level down.
    fn wrap(
        self,
        name: &'static str,
        f: impl FnOnce(Ser<'_>) -> Result<Node, Error>,
    ) -> Result<Node, Error> {
        let depth = self.depth;
        if depth > self.st.max_depth {
            // Nested too deep: written empty with its one member counted.
            self.st.left_out(1);
            return Ok(Node {
                value: Value::Object(Map::new()),
                size: 2,
                clean: false,
            });
        }
        self.st.path.push(Step::Key(Cow::Borrowed(name)));
        let inner = match f(Ser {
            st: self.st,
            depth: depth + 1,
        }) {
            Ok(node) => Ok(node),
            Err(Error::Stop) => self.st.stash.take().ok_or(Error::Whole),
            Err(e) => Err(e),
        };
        self.st.path.pop();
        let node = variant(depth, name, inner?);
        self.st.mark(&node);
        Ok(node)
    }
}

/// The `Serializer` methods of the integers that fit a `serde_json::Number` as they are.
macro_rules! integers {
    ($($method:ident: $t:ty),*) => {$(
        fn $method(self, v: $t) -> Result<Node, Error> {
            Ok(Self::number(v.into()))
        }
    )*};
}

impl<'a> ser::Serializer for Ser<'a> {
    type Ok = Node;
    type Error = Error;
    type SerializeSeq = SeqSer<'a>;
    type SerializeTuple = SeqSer<'a>;
    type SerializeTupleStruct = SeqSer<'a>;
    type SerializeTupleVariant = VariantSer<SeqSer<'a>>;
    type SerializeMap = MapSer<'a>;
    type SerializeStruct = MapSer<'a>;
    type SerializeStructVariant = VariantSer<MapSer<'a>>;

    fn serialize_bool(self, v: bool) -> Result<Node, Error> {
        Ok(Node::leaf(Value::Bool(v), if v { 4 } else { 5 }))
    }
    integers!(
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
        serialize_u64: u64
    );
    fn serialize_i128(self, v: i128) -> Result<Node, Error> {
        // As `to_value` writes it (without `arbitrary_precision`).
        if let Ok(u) = u64::try_from(v) {
            Ok(Self::number(u.into()))
        } else if let Ok(i) = i64::try_from(v) {
            Ok(Self::number(i.into()))
        } else {
            Err(Error::Custom(OUT_OF_RANGE.to_owned()))
        }
    }
    fn serialize_u128(self, v: u128) -> Result<Node, Error> {
        match u64::try_from(v) {
            Ok(u) => Ok(Self::number(u.into())),
            Err(_) => Err(Error::Custom(OUT_OF_RANGE.to_owned())),
        }
    }
    fn serialize_f32(self, v: f32) -> Result<Node, Error> {
        Ok(Self::float(Value::from(v)))
    }
    fn serialize_f64(self, v: f64) -> Result<Node, Error> {
        Ok(Self::float(Value::from(v)))
    }
    fn serialize_char(self, v: char) -> Result<Node, Error> {
        Ok(self.st.string(v.encode_utf8(&mut [0; 4])))
    }
    fn serialize_str(self, v: &str) -> Result<Node, Error> {
        Ok(self.st.string(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Node, Error> {
        use ser::SerializeSeq as _;
        let mut seq = self.seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }
    fn serialize_none(self) -> Result<Node, Error> {
        Ok(Node::leaf(Value::Null, 4))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Node, Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Node, Error> {
        Ok(Node::leaf(Value::Null, 4))
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Node, Error> {
        Ok(Node::leaf(Value::Null, 4))
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Node, Error> {
        Ok(self.st.string(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Node, Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Node, Error> {
        self.wrap(variant, |ser| value.serialize(ser))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSer<'a>, Error> {
        self.seq(len)
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSer<'a>, Error> {
        self.seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<SeqSer<'a>, Error> {
        self.seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSer<SeqSer<'a>>, Error> {
        let depth = self.depth;
        let Some(ser) = self.enter(variant) else {
            return Ok(VariantSer::deep(variant));
        };
        let inner = ser.seq_in_place(Some(len));
        Ok(VariantSer {
            name: variant,
            depth,
            inner: Some(inner),
        })
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapSer<'a>, Error> {
        self.map(len)
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<MapSer<'a>, Error> {
        // `serde_json`'s raw values and arbitrary-precision numbers travel as structs of
        // these names, their JSON text in their one field: `to_value` parses it.
        if name.starts_with("$serde_json::private::") {
            let mut raw = self.map_in_place(None);
            raw.raw = Some(None);
            return Ok(raw);
        }
        self.map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<VariantSer<MapSer<'a>>, Error> {
        let depth = self.depth;
        let Some(ser) = self.enter(variant) else {
            return Ok(VariantSer::deep(variant));
        };
        let inner = ser.map_in_place(None);
        Ok(VariantSer {
            name: variant,
            depth,
            inner: Some(inner),
        })
    }
}

/// A tuple or struct variant being written: `{variant: [...]}` or `{variant: {...}}`,
/// the inner container one level down; `inner` is `None` when the object itself is
/// nested too deep (written empty, its one member counted).
struct VariantSer<S> {
    name: &'static str,
    depth: usize,
    inner: Option<S>,
}

impl<S> VariantSer<S> {
    fn deep(name: &'static str) -> Self {
        Self {
            name,
            depth: 0,
            inner: None,
        }
    }
}

fn empty_object() -> Node {
    Node {
        value: Value::Object(Map::new()),
        size: 2,
        clean: false,
    }
}

/// The node of a variant `{name: inner}` once its inner container is finished (`None`:
/// nested too deep, written empty).
fn close_variant(
    (name, depth): (&'static str, usize),
    finished: Option<(Node, &mut State)>,
) -> Result<Node, Error> {
    let Some((node, st)) = finished else {
        return Ok(empty_object());
    };
    st.path.pop();
    let node = variant(depth, name, node);
    st.mark(&node);
    Ok(node)
}

impl ser::SerializeTupleVariant for VariantSer<SeqSer<'_>> {
    type Ok = Node;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        match &mut self.inner {
            Some(inner) => ser::SerializeSeq::serialize_element(inner, v),
            None => Ok(()),
        }
    }
    fn end(self) -> Result<Node, Error> {
        close_variant((self.name, self.depth), self.inner.map(SeqSer::finish))
    }
}

impl ser::SerializeStructVariant for VariantSer<MapSer<'_>> {
    type Ok = Node;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        k: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        match &mut self.inner {
            Some(inner) => inner.member(Cow::Borrowed(k), v),
            None => Ok(()),
        }
    }
    fn end(self) -> Result<Node, Error> {
        close_variant((self.name, self.depth), self.inner.map(MapSer::finish))
    }
}

/// An array being written: items up to the cap and the budget, the rest counted.
struct SeqSer<'a> {
    ser: Ser<'a>,
    /// Nested too deep: nothing is written, the items are counted.
    deep: bool,
    len: Option<usize>,
    items: Vec<Value>,
    count: usize,
    /// The size `measure_clean` gives the items held, separators and brackets included.
    size: usize,
    clean: bool,
    /// No further item is kept.
    done: bool,
    /// Whether a known length lets it stop its caller's loop once done.
    stops: bool,
}

impl<'a> SeqSer<'a> {
    fn finish(mut self) -> (Node, &'a mut State) {
        let node = self.node();
        (node, self.ser.st)
    }

    fn node(&mut self) -> Node {
        let full = self.len.unwrap_or(self.count).max(self.count);
        if self.deep {
            if full > 0 {
                self.ser.st.left_out(full);
            }
            return Node {
                value: Value::Array(Vec::new()),
                size: 2,
                clean: false,
            };
        }
        let clean = self.clean && full <= self.ser.st.limits.array_len;
        let node = Node {
            value: Value::Array(std::mem::take(&mut self.items)),
            size: self.size,
            clean,
        };
        if full > node_len(&node) {
            self.ser.st.left_out(full);
        } else {
            self.ser.st.mark(&node);
        }
        node
    }
}

impl ser::SerializeSeq for SeqSer<'_> {
    type Ok = Node;
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        if self.done || self.deep {
            if self.stops && !self.deep && self.len.is_some_and(|n| n > self.count) {
                // Known length: stop the array's own loop, the node kept for the caller.
                let node = self.node();
                self.ser.st.stash = Some(node);
                return Err(Error::Stop);
            }
            self.count += 1;
            return Ok(());
        }
        let i = self.count;
        self.count += 1;
        let depth = self.ser.depth + 1;
        self.ser.st.path.push(Step::Index(i));
        let node = self.ser.st.child(value, depth);
        self.ser.st.path.pop();
        let node = node?;
        if depth > MAX_DEPTH && is_container(&node.value) {
            // Kept in place so the indices stay; the engine drops it.
            self.clean = false;
        } else {
            self.size += usize::from(!self.items.is_empty()) + node.size;
            self.clean &= node.clean;
        }
        self.items.push(node.value);
        let st = &self.ser.st;
        self.done = self.items.len() >= st.limits.array_len || self.size > st.budget;
        Ok(())
    }

    fn end(mut self) -> Result<Node, Error> {
        Ok(self.node())
    }
}

impl ser::SerializeTuple for SeqSer<'_> {
    type Ok = Node;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<Node, Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for SeqSer<'_> {
    type Ok = Node;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<Node, Error> {
        ser::SerializeSeq::end(self)
    }
}

/// An object being written: every member (the engine weighs them all), each value
/// within the budget.
struct MapSer<'a> {
    ser: Ser<'a>,
    /// A `serde_json` raw value (or arbitrary-precision number): its JSON text, once read.
    raw: Option<Option<String>>,
    deep: bool,
    map: Map<String, Value>,
    count: usize,
    size: usize,
    clean: bool,
    key: Option<Cow<'static, str>>,
}

impl<'a> MapSer<'a> {
    fn finish(mut self) -> (Node, &'a mut State) {
        let node = self.node();
        (node, self.ser.st)
    }

    fn node(&mut self) -> Node {
        if self.deep {
            if self.count > 0 {
                self.ser.st.left_out(self.count);
            }
            return empty_object();
        }
        let node = Node {
            value: Value::Object(std::mem::take(&mut self.map)),
            size: self.size,
            clean: self.clean,
        };
        self.ser.st.mark(&node);
        node
    }

    fn member<T: Serialize + ?Sized>(
        &mut self,
        key: Cow<'static, str>,
        value: &T,
    ) -> Result<(), Error> {
        if let Some(text) = &mut self.raw {
            match value.serialize(serde_json::value::Serializer) {
                Ok(Value::String(s)) => *text = Some(s),
                Ok(_) => return Err(Error::Custom("a raw value that is not text".to_owned())),
                Err(e) => return Err(Error::Custom(e.to_string())),
            }
            return Ok(());
        }
        self.count += 1;
        if self.deep {
            return Ok(());
        }
        let depth = self.ser.depth + 1;
        self.ser.st.path.push(Step::Key(key));
        let node = self.ser.st.child(value, depth);
        let Some(Step::Key(key)) = self.ser.st.path.pop() else {
            return Err(Error::Whole);
        };
        let node = node?;
        if depth > MAX_DEPTH && is_container(&node.value) {
            self.clean = false;
        } else {
            self.size += usize::from(!self.map.is_empty()) + escaped_len(&key) + 3 + node.size;
            self.clean &= node.clean;
        }
        match self.map.entry(key.into_owned()) {
            serde_json::map::Entry::Vacant(slot) => {
                slot.insert(node.value);
                Ok(())
            }
            // A key given twice: `to_value` keeps the last value at the first place, which
            // only the whole value mirrors.
            serde_json::map::Entry::Occupied(mut slot) if self.ser.st.whole => {
                slot.insert(node.value);
                Ok(())
            }
            serde_json::map::Entry::Occupied(_) => Err(Error::Whole),
        }
    }
}

impl ser::SerializeMap for MapSer<'_> {
    type Ok = Node;
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        let key = match key.serialize(KeySer) {
            Ok(key) => key,
            // Any other key as `serde_json` writes it (its error, when it refuses it).
            Err(Error::Whole) => serde_json_key(key)?,
            Err(e) => return Err(e),
        };
        self.key = Some(Cow::Owned(key));
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self.key.take().ok_or(Error::Whole)?;
        self.member(key, value)
    }

    fn end(self) -> Result<Node, Error> {
        ser::SerializeStruct::end(self)
    }
}

impl ser::SerializeStruct for MapSer<'_> {
    type Ok = Node;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.member(Cow::Borrowed(key), value)
    }

    fn end(mut self) -> Result<Node, Error> {
        if let Some(text) = self.raw.take() {
            let value: Value = serde_json::from_str(text.as_deref().unwrap_or_default())
                .map_err(|e| Error::Custom(e.to_string()))?;
            return value.serialize(self.ser);
        }
        Ok(self.node())
    }
}
