//! The value-fitting engine behind bounding and the iframe budget.
//!
//! It reads a borrowed, already parsed value and decides a [`Plan`] of what is kept; the
//! plan is then materialized into a new value (memory grows with the output, not the
//! input) or applied in place to an owned one (nothing kept is copied). Sizes are
//! measured as `serde_json` would serialize them (compact form), with an early exit once
//! a limit is passed: measuring costs at most the bytes the caller could keep, never the
//! whole input, and what an early exit learned is kept in a memo so the decisions that
//! follow do not measure the same data again. Strings are scanned to state their
//! original length; array items past the length cap are never visited.

use std::borrow::Cow;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::io;

use neuralis_model::sort;
use serde_json::{Map, Value};

use super::clip::{Clip, escaped_len, plan_clip_of, scan, utf16_len};
use super::tally::MAX_LISTED_CUTS;
use crate::contract::push_pointer;

mod apply;

use super::tally::{CutKind, Tally};

/// Containers nested deeper than this (the top-level value is level 1) are dropped, so
/// the output stays within what `serde_json` reads back (127 levels).
pub(crate) const MAX_DEPTH: usize = 127;

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

enum MembersIter<'v> {
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

/// What bounding keeps of one value. The engine decides it reading a borrowed value;
/// [`Rules::materialize`] then copies what is kept, or [`Rules::apply`] cuts an owned
/// value in place, so both give the same output from one decision.
///
/// A plan lists only what differs from the value: its size follows the cuts, not the
/// data kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Plan {
    /// The value as it is.
    Whole,
    /// A string, clipped.
    Clip(Clip),
    /// An array's first `len` items, less the containers nested too deep to keep; each
    /// item whole but for the edits (original indices, ascending).
    Items {
        len: usize,
        edits: Vec<(usize, Plan)>,
    },
    /// An object's members the rules keep (all but keys over the key cap, the skipped
    /// top-level key and containers nested too deep), each whole but for the edits
    /// (original indices, ascending).
    Members { edits: Vec<(usize, Plan)> },
    /// Exactly these members of an object (original indices, ascending), with their plans.
    Pick(Vec<(usize, Plan)>),
}

impl Plan {
    pub(crate) fn is_whole(&self) -> bool {
        matches!(self, Self::Whole)
    }
}

/// What decides, beside a plan, which children a container keeps: the per-value caps
/// and the top-level key left out on purpose.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rules {
    limits: Limits,
    skip_top: Option<&'static str>,
}

/// Hashes a value's address (the only key [`Memo`] takes): a multiply and a fold, since
/// addresses are distinct and aligned.
#[derive(Default)]
struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }
}

/// What a measure that went past its limit learned about a container.
#[derive(Debug, Clone, Copy)]
struct Over {
    /// A lower bound of its serialized size.
    bound: usize,
    /// For an array: the index of the item where the measure went past its limit and
    /// the size of the items before it (brackets and commas included), when those items
    /// are all kept as they are (clean, none too deep).
    prefix: Option<(usize, usize)>,
}

/// What measures that went past their limit learned, by the container's address. The
/// engine reads one borrowed tree, so an address names one value for the engine's whole
/// life: a later measure of the same value against a limit below the bound is answered
/// without walking it again, and shrinking an array starts after the prefix already
/// known to fit. Only containers on the path of an early exit are recorded, so the memo
/// stays small.
type Memo = HashMap<usize, Over, BuildHasherDefault<AddrHasher>>;

fn addr(v: &Value) -> usize {
    std::ptr::from_ref(v).addr()
}

/// What a sketch (`sketch.rs`: a typed value serialized within the caps, never whole)
/// left out of the values it stands for, by their address in the sketch: an array's
/// length before its tail was left unwritten, a clipped string's length in UTF-16 units,
/// the children of a container nested too deep to keep (written empty). The engine reads
/// a sketch with it exactly as it reads the whole value: every decision it makes reads
/// only what the sketch holds, and every count it records reads this.
/// It also names the values the caps change (the sketch knows it as it writes them), so
/// the engine keeps any other whole without walking it.
#[derive(Debug, Default)]
pub(crate) struct Origins {
    lengths: HashMap<usize, usize, BuildHasherDefault<AddrHasher>>,
    unclean: HashSet<usize, BuildHasherDefault<AddrHasher>>,
}

impl Origins {
    /// Records that `v` stands for a value of length `n` (items, units or children).
    pub(crate) fn insert(&mut self, v: &Value, n: usize) {
        self.lengths.insert(addr(v), n);
    }

    /// Records that the caps change `v` (or something in it).
    pub(crate) fn unclean(&mut self, v: &Value) {
        self.unclean.insert(addr(v));
    }

    /// The length of what `v` stands for, when it is not what `v` holds.
    fn get(&self, v: &Value) -> Option<usize> {
        self.lengths.get(&addr(v)).copied()
    }

    /// Whether the caps leave `v` as it is.
    fn is_clean(&self, v: &Value) -> bool {
        !self.unclean.contains(&addr(v))
    }
}

/// The length of what `v` stands for: `held` (its items, units or children) unless
/// `origins` says otherwise.
fn full_len(origins: Option<&Origins>, v: &Value, held: usize) -> usize {
    origins.and_then(|o| o.get(v)).unwrap_or(held)
}

pub(crate) struct Engine<'v> {
    rules: Rules,
    /// When the value read is a sketch: what it left out.
    origins: Option<&'v Origins>,
    /// The pointer of the value the engine bounds (a literal, or built for a block).
    base: Cow<'static, str>,
    path: Vec<Seg<'v>>,
    memo: Memo,
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

pub(crate) fn number_len(n: &serde_json::Number) -> usize {
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

/// Whether `e`, sitting at nesting level `depth`, is a container too deep to keep.
fn too_deep(e: &Value, depth: usize) -> bool {
    depth > MAX_DEPTH && is_container(e)
}

/// Shrinks a buffer that a cut left mostly empty, so the output holds about its own size.
fn release<T>(v: &mut Vec<T>) {
    if v.capacity() / 2 > v.len() {
        v.shrink_to_fit();
    }
}

impl Rules {
    /// Whether the member is left out on purpose (not a cut): the top-level key the
    /// caller bounds separately.
    fn skipped(&self, k: &str, depth: usize) -> bool {
        depth == 1 && self.skip_top == Some(k)
    }

    /// Whether a member is kept at all: not skipped, and its key within the key cap.
    fn key_ok(&self, k: &str, depth: usize) -> bool {
        !self.skipped(k, depth)
            && (self.limits.key_chars == usize::MAX
                || super::clip::utf16_len(k) <= self.limits.key_chars)
    }

    /// Whether a member of an object at `depth` survives the rules (whatever the budget).
    fn keeps(&self, k: &str, e: &Value, depth: usize) -> bool {
        self.key_ok(k, depth) && !too_deep(e, depth + 1)
    }

    /// Members of `m` that count: all but a skipped top-level key.
    fn counted_len(&self, m: Members<'_>, depth: usize) -> usize {
        if depth == 1 && self.skip_top.is_some_and(|k| m.contains(k)) {
            m.len() - 1
        } else {
            m.len()
        }
    }

    /// The clip of the string `s` (the value `v`, `units` long in what it stands for).
    fn string_clip(&self, s: &str, units: usize) -> Option<Clip> {
        plan_clip_of(s, units, self.limits.string_chars, usize::MAX)
    }

    /// Serialized size of a string after the character cap, quotes included, and
    /// whether the cap left it alone.
    fn string_len(&self, v: &Value, s: &str, origins: Option<&Origins>) -> (usize, bool) {
        let (units, escaped) = scan(s);
        if units <= self.limits.string_chars {
            return (escaped + 2, true);
        }
        let size = self
            .string_clip(s, full_len(origins, v, units))
            .map_or(escaped, |clip| clip.escaped_len());
        (size + 2, false)
    }

    /// Serialized size of `v` after the per-value caps, and whether the caps leave `v`
    /// as it is. The size is exact when at most `limit`; once past `limit` it returns
    /// early with some size above it (and `false`), a lower bound of the real size that
    /// is written to `memo` for every container on the way out.
    fn measure_clean(
        &self,
        v: &Value,
        depth: usize,
        limit: usize,
        memo: &mut Memo,
        origins: Option<&Origins>,
    ) -> (usize, bool) {
        match v {
            Value::Null | Value::Bool(true) => (4, true),
            Value::Bool(false) => (5, true),
            Value::Number(n) => (number_len(n), true),
            Value::String(s) => self.string_len(v, s, origins),
            Value::Array(a) => {
                let mut n = 2;
                // A sketch holds at most `array_len` items: one that holds fewer has
                // none left out, or passes every limit (it was cut past the budget).
                let held = a.len();
                let full = if held == self.limits.array_len {
                    full_len(origins, v, held)
                } else {
                    held
                };
                let mut clean = full <= self.limits.array_len;
                let mut first = true;
                let mut prefix_clean = true;
                for (i, e) in a.iter().take(self.limits.array_len).enumerate() {
                    if too_deep(e, depth + 1) {
                        clean = false;
                        prefix_clean = false;
                        continue;
                    }
                    let before = n;
                    n += usize::from(!first);
                    first = false;
                    let (m, c) =
                        self.measure_clean(e, depth + 1, limit.saturating_sub(n), memo, origins);
                    n += m;
                    clean &= c;
                    if n > limit {
                        remember(memo, v, n, prefix_clean.then_some((i, before)));
                        return (n, false);
                    }
                    prefix_clean &= c;
                }
                (n, clean)
            }
            Value::Object(m) => {
                let (n, clean) = self.measure_map(Members::Map(m), depth, limit, memo, origins);
                if n > limit {
                    remember(memo, v, n, None);
                }
                (n, clean)
            }
        }
    }

    fn measure_map(
        &self,
        m: Members<'_>,
        depth: usize,
        limit: usize,
        memo: &mut Memo,
        origins: Option<&Origins>,
    ) -> (usize, bool) {
        let mut n = 2;
        let mut clean = true;
        let mut first = true;
        for (k, e) in m.iter() {
            if !self.keeps(k, e, depth) {
                clean = false;
                continue;
            }
            n += usize::from(!first) + escaped_len(k) + 3;
            first = false;
            let (size, c) =
                self.measure_clean(e, depth + 1, limit.saturating_sub(n), memo, origins);
            n += size;
            clean &= c;
            if n > limit {
                return (n, false);
            }
        }
        (n, clean)
    }
}

/// Records that the container `v` measures at least `bound` bytes (and, for an array,
/// the clean prefix measured on the way).
fn remember(memo: &mut Memo, v: &Value, bound: usize, prefix: Option<(usize, usize)>) {
    let new = Over { bound, prefix };
    memo.entry(addr(v))
        .and_modify(|old| {
            if bound > old.bound {
                *old = new;
            }
        })
        .or_insert(new);
}

impl<'v> Engine<'v> {
    pub(crate) fn new(limits: Limits, base: impl Into<Cow<'static, str>>) -> Self {
        Self {
            rules: Rules {
                limits,
                skip_top: None,
            },
            origins: None,
            base: base.into(),
            path: Vec::new(),
            memo: Memo::default(),
            tally: Tally::default(),
        }
    }

    /// Names the value this engine bounds (the pointer its cuts are recorded under), once
    /// a measure found there is something to cut.
    pub(crate) fn name(&mut self, base: impl Into<Cow<'static, str>>) {
        self.base = base.into();
    }

    /// Reads a sketch: `origins` says what it left out.
    pub(crate) fn reading_sketch(mut self, origins: &'v Origins) -> Self {
        self.origins = Some(origins);
        self
    }

    /// The length of what `v` stands for (`held` is what it holds).
    fn len_of(&self, v: &Value, held: usize) -> usize {
        full_len(self.origins, v, held)
    }

    /// The clip of the string `s` (the value `v`) to `string_chars`.
    fn string_clip(&self, v: &Value, s: &str) -> Option<Clip> {
        let units = self.origins.and_then(|o| o.get(v));
        self.rules
            .string_clip(s, units.unwrap_or_else(|| utf16_len(s)))
    }

    /// Leaves the top-level member `key` out of the output, without counting a cut.
    pub(crate) fn skipping(mut self, key: &'static str) -> Self {
        self.rules.skip_top = Some(key);
        self
    }

    /// The rules a plan of this engine is applied with.
    pub(crate) fn rules(&self) -> Rules {
        self.rules
    }

    fn pointer(&self) -> String {
        let mut p = self.base.clone().into_owned();
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

    fn record_deep(&mut self, e: &Value) {
        let children = match e {
            Value::Array(a) => a.len(),
            Value::Object(m) => m.len(),
            _ => 0,
        };
        let children = self.len_of(e, children);
        self.tally.depth_dropped += 1;
        self.record(CutKind::Depth, children, 0);
    }

    /// [`Rules::measure_clean`], answered from the memo when an earlier measure of the
    /// same container already went past `limit`.
    pub(crate) fn measure(&mut self, v: &'v Value, depth: usize, limit: usize) -> (usize, bool) {
        if is_container(v)
            && let Some(over) = self.memo.get(&addr(v))
            && over.bound > limit
        {
            return (over.bound, false);
        }
        self.rules
            .measure_clean(v, depth, limit, &mut self.memo, self.origins)
    }

    /// [`Rules::measure_map`] for the members of a top-level object.
    pub(crate) fn measure_map(&mut self, m: Members<'v>, limit: usize) -> (usize, bool) {
        self.rules
            .measure_map(m, 1, limit, &mut self.memo, self.origins)
    }

    /// What the per-value caps keep of `v`, cuts recorded.
    fn copy(&mut self, v: &'v Value, depth: usize) -> Plan {
        if self.origins.is_some_and(|o| o.is_clean(v)) {
            return Plan::Whole;
        }
        match v {
            Value::String(s) => match self.string_clip(v, s) {
                None => Plan::Whole,
                Some(clip) => {
                    self.tally.strings_clipped += 1;
                    self.record(CutKind::String, clip.original, clip.kept);
                    Plan::Clip(clip)
                }
            },
            Value::Array(a) => {
                let full = self.len_of(v, a.len());
                let n = full.min(self.rules.limits.array_len);
                if n < full {
                    self.tally.arrays_shrunk += 1;
                    self.tally.items_dropped += full - n;
                    self.record(CutKind::Array, full, n);
                }
                let mut edits = Vec::new();
                let mut deep = false;
                for (i, e) in a[..n.min(a.len())].iter().enumerate() {
                    self.path.push(Seg::Index(i));
                    if too_deep(e, depth + 1) {
                        self.record_deep(e);
                        deep = true;
                    } else {
                        let plan = self.copy(e, depth + 1);
                        if !plan.is_whole() {
                            edits.push((i, plan));
                        }
                    }
                    self.path.pop();
                }
                if n == full && !deep && edits.is_empty() {
                    Plan::Whole
                } else {
                    Plan::Items { len: n, edits }
                }
            }
            Value::Object(m) => self.copy_map(Members::Map(m), depth),
            _ => Plan::Whole,
        }
    }

    fn copy_map(&mut self, m: Members<'v>, depth: usize) -> Plan {
        let mut len = self.rules.counted_len(m, depth);
        let mut kept = 0;
        let mut edits = Vec::new();
        for (i, (k, e)) in m.iter().enumerate() {
            if !self.rules.key_ok(k, depth) {
                continue;
            }
            self.path.push(Seg::Key(k));
            if too_deep(e, depth + 1) {
                self.record_deep(e);
                len -= 1;
            } else {
                let plan = self.copy(e, depth + 1);
                if !plan.is_whole() {
                    edits.push((i, plan));
                }
                kept += 1;
            }
            self.path.pop();
        }
        if kept < len {
            self.tally.members_dropped += len - kept;
            self.record(CutKind::Object, len, kept);
        }
        if kept == m.len() && edits.is_empty() {
            Plan::Whole
        } else {
            Plan::Members { edits }
        }
    }

    /// Members bounded as one object of at most `budget` serialized bytes (at least `{}`).
    pub(crate) fn fit_members(&mut self, m: Members<'v>, budget: usize) -> Plan {
        let measured = self.measure_map(m, budget);
        self.fit_members_measured(m, budget, measured)
    }

    /// [`fit_members`](Self::fit_members), given what [`measure_map`](Self::measure_map)
    /// said of `m` against `budget`.
    pub(crate) fn fit_members_measured(
        &mut self,
        m: Members<'v>,
        budget: usize,
        (size, clean): (usize, bool),
    ) -> Plan {
        if size <= budget {
            return if clean {
                Plan::Whole
            } else {
                self.copy_map(m, 1)
            };
        }
        self.shrink_object(m, 1, budget.max(2)).0
    }

    /// `v` bounded to at most `budget` serialized bytes, with its size; `None` when not
    /// even a clipped or emptied form fits.
    pub(crate) fn fit(
        &mut self,
        v: &'v Value,
        depth: usize,
        budget: usize,
    ) -> Option<(Plan, usize)> {
        let measured = self.measure(v, depth, budget);
        self.fit_measured(v, depth, budget, measured)
    }

    /// [`fit`](Self::fit), given what [`measure`](Self::measure) said of `v` against
    /// `budget`.
    pub(crate) fn fit_measured(
        &mut self,
        v: &'v Value,
        depth: usize,
        budget: usize,
        (size, clean): (usize, bool),
    ) -> Option<(Plan, usize)> {
        if size <= budget {
            let plan = if clean {
                Plan::Whole
            } else {
                self.copy(v, depth)
            };
            return Some((plan, size));
        }
        self.shrink(v, depth, budget)
    }

    /// Like [`fit`](Self::fit) for a value known not to fit whole.
    fn shrink(&mut self, v: &'v Value, depth: usize, budget: usize) -> Option<(Plan, usize)> {
        match v {
            Value::String(s) => {
                let units = self.origins.and_then(|o| o.get(v));
                let units = units.unwrap_or_else(|| utf16_len(s));
                let clip = plan_clip_of(
                    s,
                    units,
                    self.rules.limits.string_chars,
                    budget.checked_sub(2)?,
                )?;
                self.tally.strings_clipped += 1;
                self.record(CutKind::String, clip.original, clip.kept);
                let size = clip.escaped_len() + 2;
                Some((Plan::Clip(clip), size))
            }
            Value::Array(a) if budget >= 2 => Some(self.shrink_array(v, a, depth, budget)),
            Value::Object(m) if budget >= 2 => {
                Some(self.shrink_object(Members::Map(m), depth, budget))
            }
            _ => None,
        }
    }

    fn shrink_array(
        &mut self,
        v: &'v Value,
        a: &'v [Value],
        depth: usize,
        budget: usize,
    ) -> (Plan, usize) {
        // Items a measure already found clean, whose total fits, are kept whole as the
        // loop below would keep them: it starts after them.
        let start = match self.memo.get(&addr(v)).and_then(|over| over.prefix) {
            Some((items, size)) if size <= budget => (items, size),
            _ => (0, 2),
        };
        let mut used = start.1;
        let mut edits = Vec::new();
        let mut len = start.0;
        let mut count = start.0;
        let mut deep = 0;
        for (i, e) in a
            .iter()
            .enumerate()
            .take(self.rules.limits.array_len)
            .skip(start.0)
        {
            self.path.push(Seg::Index(i));
            if too_deep(e, depth + 1) {
                self.record_deep(e);
                self.path.pop();
                deep += 1;
                len = i + 1;
                continue;
            }
            let sep = usize::from(count > 0);
            let Some(room) = budget.checked_sub(used + sep) else {
                self.path.pop();
                break;
            };
            let (size, clean) = self.measure(e, depth + 1, room);
            let kept = if size <= room {
                Some((
                    if clean {
                        Plan::Whole
                    } else {
                        self.copy(e, depth + 1)
                    },
                    size,
                ))
            } else {
                self.shrink(e, depth + 1, room)
            };
            self.path.pop();
            if let Some((plan, size)) = kept {
                if !plan.is_whole() {
                    edits.push((i, plan));
                }
                count += 1;
                len = i + 1;
                used += sep + size;
            }
            if size > room {
                break;
            }
        }
        let kept = count + deep;
        let full = self.len_of(v, a.len());
        if kept < full {
            self.tally.arrays_shrunk += 1;
            self.tally.items_dropped += full - kept;
            self.record(CutKind::Array, full, count);
        }
        (Plan::Items { len, edits }, used)
    }

    /// Primitive members first (in document order), then whole containers smallest
    /// first, then what is left of the budget to the remaining containers in document
    /// order, each bounded in turn. Members keep their document order in the output.
    fn shrink_object(&mut self, m: Members<'v>, depth: usize, budget: usize) -> (Plan, usize) {
        let mut used = 2;
        let mut kept: Vec<(usize, Plan)> = Vec::new();

        // 1. primitives, in document order
        for (i, (k, e)) in m.iter().enumerate() {
            if !is_container(e) && self.rules.key_ok(k, depth) {
                self.fit_member((i, k, e), depth, budget, &mut used, &mut kept);
            }
        }

        // 2. containers that fit whole, smallest first. The heap keeps the smallest set
        // whose total fits, so it holds no more entries than the budget has bytes.
        let start = budget.saturating_sub(used);
        let mut heap: BinaryHeap<(usize, usize, usize, bool)> = BinaryHeap::new();
        let mut heap_total = 0usize;
        let mut deep = 0;
        for (i, (k, e)) in m.iter().enumerate() {
            if !is_container(e) || !self.rules.key_ok(k, depth) {
                continue;
            }
            if too_deep(e, depth + 1) {
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
            let (size, clean) = self.measure(e, depth + 1, room);
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
        sort::sort(&mut whole);
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
            let plan = if clean {
                Plan::Whole
            } else {
                self.copy(e, depth + 1)
            };
            self.path.pop();
            used += over + size;
            kept.push((i, plan));
        }

        // 3. the rest of the budget to the other containers, in document order
        for (i, (k, e)) in m.iter().enumerate() {
            if is_container(e)
                && self.rules.key_ok(k, depth)
                && !too_deep(e, depth + 1)
                && whole.binary_search_by_key(&i, |&(j, ..)| j).is_err()
            {
                self.fit_member((i, k, e), depth, budget, &mut used, &mut kept);
            }
        }

        sort::sort_by_key(&mut kept, |(i, _)| *i);
        let count = kept.len();
        let len = self.rules.counted_len(m, depth) - deep;
        if count < len {
            self.tally.members_dropped += len - count;
            self.record(CutKind::Object, len, count);
        }
        (Plan::Pick(kept), used)
    }

    /// Keeps the member `k` (the `i`th) of an object being shrunk, in whatever form fits
    /// what is left of `budget` after the `used` bytes of the members `kept` so far.
    fn fit_member(
        &mut self,
        (i, k, e): (usize, &'v str, &'v Value),
        depth: usize,
        budget: usize,
        used: &mut usize,
        kept: &mut Vec<(usize, Plan)>,
    ) {
        let over = member_cost(k, kept.len());
        let Some(room) = budget.checked_sub(*used + over) else {
            return;
        };
        self.path.push(Seg::Key(k));
        if let Some((plan, size)) = self.fit(e, depth + 1, room) {
            kept.push((i, plan));
            *used += over + size;
        }
        self.path.pop();
    }
}

/// The bytes a member adds to an object beside its value: its key, quotes and colon,
/// and a comma after the first.
fn member_cost(k: &str, kept_so_far: usize) -> usize {
    escaped_len(k) + 3 + usize::from(kept_so_far > 0)
}
