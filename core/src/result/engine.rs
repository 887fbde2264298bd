//! The value-fitting engine behind bounding and the iframe budget.
//!
//! It reads a borrowed, already parsed value and writes a new one, so memory grows with
//! the output, not the input. Sizes are measured as `serde_json` would serialize them
//! (compact form), with an early exit once a limit is passed: measuring costs at most the
//! bytes the caller could keep, never the whole input. Strings are scanned to state their
//! original length; array items past the length cap are never visited.

use std::collections::BinaryHeap;
use std::io;

use serde::Serialize;
use serde_json::{Map, Value};

use super::utf16::{Clip, escaped_len, plan_clip, scan};
use crate::contract::push_pointer;

/// Containers nested deeper than this (the top-level value is level 1) are dropped, so
/// the output stays within what `serde_json` reads back (127 levels).
pub(crate) const MAX_DEPTH: usize = 127;

/// At most this many cuts are listed with their pointers; the counts cover all of them.
pub(crate) const MAX_LISTED_CUTS: usize = 16;

/// Pointers in the cut list are clipped to this many UTF-16 units.
const MAX_POINTER_CHARS: usize = 256;

/// What a cut removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum CutKind {
    /// A string was clipped (counts in UTF-16 units).
    String,
    /// An array lost items from its tail (counts in items).
    Array,
    /// An object lost members (counts in members).
    Object,
    /// A container nested deeper than 127 levels was dropped (counts in its children).
    Depth,
    /// Text content was clipped (counts in UTF-16 units).
    Text,
    /// Content blocks were dropped from the tail (counts in blocks).
    Blocks,
    /// An image, audio or resource blob over the byte cap was dropped (counts in bytes).
    Blob,
}

/// One place where a cap cut real data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cut {
    /// RFC 6901 pointer into the result (clipped to 256 characters).
    pub pointer: String,
    /// What was cut.
    pub kind: CutKind,
    /// The size before the cut.
    pub original: usize,
    /// The size kept.
    pub kept: usize,
}

/// Counts of what the caps cut, with the first few places.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Strings clipped.
    pub strings_clipped: usize,
    /// Arrays shortened.
    pub arrays_shrunk: usize,
    /// Array items dropped from tails.
    pub items_dropped: usize,
    /// Object members dropped.
    pub members_dropped: usize,
    /// Containers dropped for nesting deeper than 127 levels.
    pub depth_dropped: usize,
    /// Text blocks (or string content) clipped.
    pub text_clipped: usize,
    /// Content blocks dropped.
    pub blocks_dropped: usize,
    /// Binary blocks dropped for size.
    pub blobs_dropped: usize,
    /// The first cuts, in the order they were made.
    pub cuts: Vec<Cut>,
    /// Cuts made, listed or not.
    pub total_cuts: usize,
}

impl Tally {
    /// Whether nothing was cut.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.total_cuts == 0
    }

    pub(crate) fn record(&mut self, pointer: &str, kind: CutKind, original: usize, kept: usize) {
        self.total_cuts += 1;
        if self.cuts.len() < MAX_LISTED_CUTS {
            let pointer = match plan_clip(pointer, MAX_POINTER_CHARS, usize::MAX) {
                None => pointer.to_owned(),
                Some(clip) => clip.apply(pointer),
            };
            self.cuts.push(Cut {
                pointer,
                kind,
                original,
                kept,
            });
        }
    }

    pub(crate) fn merge(&mut self, other: Tally) {
        self.strings_clipped += other.strings_clipped;
        self.arrays_shrunk += other.arrays_shrunk;
        self.items_dropped += other.items_dropped;
        self.members_dropped += other.members_dropped;
        self.depth_dropped += other.depth_dropped;
        self.text_clipped += other.text_clipped;
        self.blocks_dropped += other.blocks_dropped;
        self.blobs_dropped += other.blobs_dropped;
        self.total_cuts += other.total_cuts;
        for cut in other.cuts {
            if self.cuts.len() < MAX_LISTED_CUTS {
                self.cuts.push(cut);
            }
        }
    }
}

/// Per-value caps the engine applies everywhere.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub string_chars: usize,
    pub array_len: usize,
    /// Members whose key is longer than this (UTF-16 units) are dropped.
    pub key_chars: usize,
}

/// The members of an object: a map, or a list of borrowed pairs (for an object built
/// from parts, like the iframe payload).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Members<'v> {
    Map(&'v Map<String, Value>),
    List(&'v [(&'v str, &'v Value)]),
}

impl<'v> Members<'v> {
    fn len(self) -> usize {
        match self {
            Self::Map(m) => m.len(),
            Self::List(l) => l.len(),
        }
    }

    fn contains(self, key: &str) -> bool {
        match self {
            Self::Map(m) => m.contains_key(key),
            Self::List(l) => l.iter().any(|(k, _)| *k == key),
        }
    }

    fn iter(self) -> MembersIter<'v> {
        match self {
            Self::Map(m) => MembersIter::Map(m.iter()),
            Self::List(l) => MembersIter::List(l.iter()),
        }
    }
}

pub(crate) enum MembersIter<'v> {
    Map(serde_json::map::Iter<'v>),
    List(std::slice::Iter<'v, (&'v str, &'v Value)>),
}

impl<'v> Iterator for MembersIter<'v> {
    type Item = (&'v str, &'v Value);
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Self::Map(i) => i.next().map(|(k, v)| (k.as_str(), v)),
            Self::List(i) => i.next().map(|(k, v)| (*k, *v)),
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Seg<'v> {
    Key(&'v str),
    Index(usize),
}

pub(crate) struct Engine<'v> {
    limits: Limits,
    base: String,
    path: Vec<Seg<'v>>,
    skip_top: Option<&'static str>,
    pub tally: Tally,
}

/// Counts bytes written, failing once past a limit.
struct Counter(usize);

impl io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn number_len(n: &serde_json::Number) -> usize {
    fn digits(mut u: u64) -> usize {
        let mut d = 1;
        while u >= 10 {
            u /= 10;
            d += 1;
        }
        d
    }
    if let Some(u) = n.as_u64() {
        return digits(u);
    }
    if let Some(i) = n.as_i64() {
        return 1 + digits(i.unsigned_abs());
    }
    let mut c = Counter(0);
    // Writing a number into a counter cannot fail.
    let _ = serde_json::to_writer(&mut c, n);
    c.0
}

fn is_container(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Object(_))
}

impl<'v> Engine<'v> {
    pub(crate) fn new(limits: Limits, base: impl Into<String>) -> Self {
        Self {
            limits,
            base: base.into(),
            path: Vec::new(),
            skip_top: None,
            tally: Tally::default(),
        }
    }

    /// Leaves the top-level member `key` out of the output, without counting a cut.
    pub(crate) fn skipping(mut self, key: &'static str) -> Self {
        self.skip_top = Some(key);
        self
    }

    fn pointer(&self) -> String {
        let mut p = self.base.clone();
        for seg in &self.path {
            p = match seg {
                Seg::Key(k) => push_pointer(&p, k),
                Seg::Index(i) => format!("{p}/{i}"),
            };
        }
        p
    }

    fn record(&mut self, kind: CutKind, original: usize, kept: usize) {
        if self.tally.cuts.len() < MAX_LISTED_CUTS {
            let p = self.pointer();
            self.tally.record(&p, kind, original, kept);
        } else {
            self.tally.total_cuts += 1;
        }
    }

    /// Whether the member is left out on purpose (not a cut): the top-level key the
    /// caller bounds separately.
    fn skipped(&self, k: &str, depth: usize) -> bool {
        depth == 1 && self.skip_top == Some(k)
    }

    /// Whether a member is kept at all: not skipped, and its key within the key cap.
    fn key_ok(&self, k: &str, depth: usize) -> bool {
        !self.skipped(k, depth)
            && (self.limits.key_chars == usize::MAX
                || super::utf16::utf16_len(k) <= self.limits.key_chars)
    }

    /// Members of `m` that count: all but a skipped top-level key.
    fn counted_len(&self, m: Members<'_>, depth: usize) -> usize {
        if depth == 1 && self.skip_top.is_some_and(|k| m.contains(k)) {
            m.len() - 1
        } else {
            m.len()
        }
    }

    fn string_clip(&self, s: &str) -> Option<Clip> {
        plan_clip(s, self.limits.string_chars, usize::MAX)
    }

    /// Serialized size of a string after the character cap, quotes included, and
    /// whether the cap left it alone.
    fn string_len(&self, s: &str) -> (usize, bool) {
        let (units, escaped) = scan(s);
        if units <= self.limits.string_chars {
            return (escaped + 2, true);
        }
        let size = self
            .string_clip(s)
            .map_or(escaped, |clip| clip.escaped_len());
        (size + 2, false)
    }

    /// Whether `e`, sitting at nesting level `depth`, is a container too deep to keep.
    fn too_deep(e: &Value, depth: usize) -> bool {
        depth > MAX_DEPTH && is_container(e)
    }

    fn record_deep(&mut self, e: &Value) {
        let children = match e {
            Value::Array(a) => a.len(),
            Value::Object(m) => m.len(),
            _ => 0,
        };
        self.tally.depth_dropped += 1;
        self.record(CutKind::Depth, children, 0);
    }

    /// Whether the per-value caps leave `v` exactly as it is (so a plain clone will do).
    /// Stops at the first thing a cap would change.
    fn is_clean(&self, v: &Value, depth: usize) -> bool {
        match v {
            Value::String(s) => super::utf16::utf16_len(s) <= self.limits.string_chars,
            Value::Array(a) => {
                a.len() <= self.limits.array_len
                    && a.iter()
                        .all(|e| !Self::too_deep(e, depth + 1) && self.is_clean(e, depth + 1))
            }
            Value::Object(m) => m.iter().all(|(k, e)| {
                self.key_ok(k, depth)
                    && !Self::too_deep(e, depth + 1)
                    && self.is_clean(e, depth + 1)
            }),
            _ => true,
        }
    }

    /// Serialized size of `v` after the per-value caps, and whether the caps leave `v`
    /// as it is. The size is exact when at most `limit`; once past `limit` it returns
    /// early with some size above it (and `false`).
    pub(crate) fn measure_clean(&self, v: &Value, depth: usize, limit: usize) -> (usize, bool) {
        match v {
            Value::Null | Value::Bool(true) => (4, true),
            Value::Bool(false) => (5, true),
            Value::Number(n) => (number_len(n), true),
            Value::String(s) => self.string_len(s),
            Value::Array(a) => {
                let mut n = 2;
                let mut clean = a.len() <= self.limits.array_len;
                let mut first = true;
                for e in a.iter().take(self.limits.array_len) {
                    if Self::too_deep(e, depth + 1) {
                        clean = false;
                        continue;
                    }
                    n += usize::from(!first);
                    first = false;
                    let (m, c) = self.measure_clean(e, depth + 1, limit.saturating_sub(n));
                    n += m;
                    clean &= c;
                    if n > limit {
                        return (n, false);
                    }
                }
                (n, clean)
            }
            Value::Object(m) => self.measure_map(Members::Map(m), depth, limit),
        }
    }

    pub(crate) fn measure_map(&self, m: Members<'_>, depth: usize, limit: usize) -> (usize, bool) {
        let mut n = 2;
        let mut clean = true;
        let mut first = true;
        for (k, e) in m.iter() {
            if !self.key_ok(k, depth) || Self::too_deep(e, depth + 1) {
                clean = false;
                continue;
            }
            n += usize::from(!first) + escaped_len(k) + 3;
            first = false;
            let (size, c) = self.measure_clean(e, depth + 1, limit.saturating_sub(n));
            n += size;
            clean &= c;
            if n > limit {
                return (n, false);
            }
        }
        (n, clean)
    }

    /// `v` with the per-value caps applied, cuts recorded.
    pub(crate) fn copy(&mut self, v: &'v Value, depth: usize) -> Value {
        if self.is_clean(v, depth) {
            return v.clone();
        }
        match v {
            Value::String(s) => match self.string_clip(s) {
                None => Value::String(s.clone()),
                Some(clip) => {
                    self.tally.strings_clipped += 1;
                    self.record(CutKind::String, clip.original, clip.kept);
                    Value::String(clip.apply(s))
                }
            },
            Value::Array(a) => {
                let n = a.len().min(self.limits.array_len);
                if n < a.len() {
                    self.tally.arrays_shrunk += 1;
                    self.tally.items_dropped += a.len() - n;
                    self.record(CutKind::Array, a.len(), n);
                }
                let mut out = Vec::with_capacity(n);
                for (i, e) in a[..n].iter().enumerate() {
                    self.path.push(Seg::Index(i));
                    if Self::too_deep(e, depth + 1) {
                        self.record_deep(e);
                    } else {
                        out.push(self.copy(e, depth + 1));
                    }
                    self.path.pop();
                }
                Value::Array(out)
            }
            Value::Object(m) => Value::Object(self.copy_map(Members::Map(m), depth)),
            other => other.clone(),
        }
    }

    fn copy_map(&mut self, m: Members<'v>, depth: usize) -> Map<String, Value> {
        let mut len = self.counted_len(m, depth);
        let mut out = Map::new();
        for (k, e) in m.iter() {
            if !self.key_ok(k, depth) {
                continue;
            }
            self.path.push(Seg::Key(k));
            if Self::too_deep(e, depth + 1) {
                self.record_deep(e);
                len -= 1;
            } else {
                let e = self.copy(e, depth + 1);
                out.insert(k.to_owned(), e);
            }
            self.path.pop();
        }
        if out.len() < len {
            self.tally.members_dropped += len - out.len();
            self.record(CutKind::Object, len, out.len());
        }
        out
    }

    /// A map bounded to at most `budget` serialized bytes (at least `{}`).
    pub(crate) fn fit_map(
        &mut self,
        m: &'v Map<String, Value>,
        budget: usize,
    ) -> Map<String, Value> {
        self.fit_members(Members::Map(m), budget)
    }

    /// Members bounded as one object of at most `budget` serialized bytes (at least `{}`).
    pub(crate) fn fit_members(&mut self, m: Members<'v>, budget: usize) -> Map<String, Value> {
        let (size, clean) = self.measure_map(m, 1, budget);
        if size <= budget {
            return match m {
                Members::Map(map) if clean => map.clone(),
                _ => self.copy_map(m, 1),
            };
        }
        match self.shrink_object(m, 1, budget.max(2)).0 {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    /// `v` bounded to at most `budget` serialized bytes, with its size; `None` when not
    /// even a clipped or emptied form fits.
    pub(crate) fn fit(
        &mut self,
        v: &'v Value,
        depth: usize,
        budget: usize,
    ) -> Option<(Value, usize)> {
        let (size, clean) = self.measure_clean(v, depth, budget);
        if size <= budget {
            let out = if clean {
                v.clone()
            } else {
                self.copy(v, depth)
            };
            return Some((out, size));
        }
        self.shrink(v, depth, budget)
    }

    /// Like [`fit`](Self::fit) for a value known not to fit whole.
    fn shrink(&mut self, v: &'v Value, depth: usize, budget: usize) -> Option<(Value, usize)> {
        match v {
            Value::String(s) => {
                let clip = plan_clip(s, self.limits.string_chars, budget.checked_sub(2)?)?;
                self.tally.strings_clipped += 1;
                self.record(CutKind::String, clip.original, clip.kept);
                let size = clip.escaped_len() + 2;
                Some((Value::String(clip.apply(s)), size))
            }
            Value::Array(a) if budget >= 2 => Some(self.shrink_array(a, depth, budget)),
            Value::Object(m) if budget >= 2 => {
                Some(self.shrink_object(Members::Map(m), depth, budget))
            }
            _ => None,
        }
    }

    fn shrink_array(&mut self, a: &'v [Value], depth: usize, budget: usize) -> (Value, usize) {
        let mut used = 2;
        let mut out = Vec::new();
        let mut deep = 0;
        for (i, e) in a.iter().take(self.limits.array_len).enumerate() {
            self.path.push(Seg::Index(i));
            if Self::too_deep(e, depth + 1) {
                self.record_deep(e);
                self.path.pop();
                deep += 1;
                continue;
            }
            let sep = usize::from(!out.is_empty());
            let Some(room) = budget.checked_sub(used + sep) else {
                self.path.pop();
                break;
            };
            let (size, clean) = self.measure_clean(e, depth + 1, room);
            let kept = if size <= room {
                Some((
                    if clean {
                        e.clone()
                    } else {
                        self.copy(e, depth + 1)
                    },
                    size,
                ))
            } else {
                self.shrink(e, depth + 1, room)
            };
            self.path.pop();
            if let Some((e, size)) = kept {
                out.push(e);
                used += sep + size;
            }
            if size > room {
                break;
            }
        }
        let kept = out.len() + deep;
        if kept < a.len() {
            self.tally.arrays_shrunk += 1;
            self.tally.items_dropped += a.len() - kept;
            self.record(CutKind::Array, a.len(), out.len());
        }
        (Value::Array(out), used)
    }

    /// Primitive members first (in document order), then whole containers smallest
    /// first, then what is left of the budget to the remaining containers in document
    /// order, each bounded in turn. Members keep their document order in the output.
    fn shrink_object(&mut self, m: Members<'v>, depth: usize, budget: usize) -> (Value, usize) {
        let mut used = 2;
        let mut kept: Vec<(usize, &'v str, Value)> = Vec::new();
        let member_cost =
            |k: &str, kept_so_far: usize| escaped_len(k) + 3 + usize::from(kept_so_far > 0);

        // 1. primitives, in document order
        for (i, (k, e)) in m.iter().enumerate() {
            if is_container(e) || !self.key_ok(k, depth) {
                continue;
            }
            let over = member_cost(k, kept.len());
            let Some(room) = budget.checked_sub(used + over) else {
                continue;
            };
            self.path.push(Seg::Key(k));
            if let Some((e, size)) = self.fit(e, depth + 1, room) {
                kept.push((i, k, e));
                used += over + size;
            }
            self.path.pop();
        }

        // 2. containers that fit whole, smallest first. The heap keeps the smallest set
        // whose total fits, so it holds no more entries than the budget has bytes.
        let start = budget.saturating_sub(used);
        let mut heap: BinaryHeap<(usize, usize, usize, bool)> = BinaryHeap::new();
        let mut heap_total = 0usize;
        let mut deep = 0;
        for (i, (k, e)) in m.iter().enumerate() {
            if !is_container(e) || !self.key_ok(k, depth) {
                continue;
            }
            if Self::too_deep(e, depth + 1) {
                self.path.push(Seg::Key(k));
                self.record_deep(e);
                self.path.pop();
                deep += 1;
                continue;
            }
            let over = escaped_len(k) + 4;
            let Some(room) = start.checked_sub(over) else {
                continue;
            };
            let (size, clean) = self.measure_clean(e, depth + 1, room);
            if size > room {
                continue;
            }
            heap.push((size + over, i, size, clean));
            heap_total += size + over;
            while heap_total > start {
                if let Some((s, ..)) = heap.pop() {
                    heap_total -= s;
                }
            }
        }
        let mut whole: Vec<(usize, usize, bool)> = heap
            .into_iter()
            .map(|(_, i, size, clean)| (i, size, clean))
            .collect();
        whole.sort_unstable();
        let mut next = whole.iter().copied().peekable();
        for (i, (k, e)) in m.iter().enumerate() {
            let Some(&(j, size, clean)) = next.peek() else {
                break;
            };
            if j != i {
                continue;
            }
            next.next();
            let over = member_cost(k, kept.len());
            self.path.push(Seg::Key(k));
            let e = if clean {
                e.clone()
            } else {
                self.copy(e, depth + 1)
            };
            self.path.pop();
            used += over + size;
            kept.push((i, k, e));
        }

        // 3. the rest of the budget to the other containers, in document order
        for (i, (k, e)) in m.iter().enumerate() {
            if !is_container(e)
                || !self.key_ok(k, depth)
                || Self::too_deep(e, depth + 1)
                || whole.binary_search_by_key(&i, |&(j, ..)| j).is_ok()
            {
                continue;
            }
            let over = member_cost(k, kept.len());
            let Some(room) = budget.checked_sub(used + over) else {
                continue;
            };
            self.path.push(Seg::Key(k));
            if let Some((e, size)) = self.fit(e, depth + 1, room) {
                kept.push((i, k, e));
                used += over + size;
            }
            self.path.pop();
        }

        kept.sort_unstable_by_key(|(i, _, _)| *i);
        let count = kept.len();
        let len = self.counted_len(m, depth) - deep;
        let mut out = Map::with_capacity(count);
        for (_, k, e) in kept {
            out.insert(k.to_owned(), e);
        }
        if count < len {
            self.tally.members_dropped += len - count;
            self.record(CutKind::Object, len, count);
        }
        (Value::Object(out), used)
    }
}
