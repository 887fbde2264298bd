//! The bounding engine as it was before plans (issue 19): values built while deciding,
//! kept verbatim as the oracle the plan engine is tested against, byte for byte.

use std::collections::BinaryHeap;

use serde_json::{Map, Value};

use super::{
    CutKind, Limits, MAX_DEPTH, MAX_LISTED_CUTS, Members, Tally, is_container, number_len,
};
use crate::contract::push_pointer;
use crate::result::bound::{read_tally, write_tally};
use crate::result::utf16::{Clip, escaped_len, plan_clip, scan};
use crate::result::{
    Annotations, BOUND_META, BoundCaps, BoundStats, Content, ContentBlock, IFRAME_MAX_BYTES,
    IFRAME_MAX_STRING_CHARS, IframePayload, NEURALIS_META, ToolResult, utf16_len,
};

#[derive(Debug, Clone, Copy)]
enum Seg<'v> {
    Key(&'v str),
    Index(usize),
}

pub(super) struct Engine<'v> {
    limits: Limits,
    base: String,
    path: Vec<Seg<'v>>,
    skip_top: Option<&'static str>,
    pub tally: Tally,
}

impl<'v> Engine<'v> {
    pub(super) fn new(limits: Limits, base: impl Into<String>) -> Self {
        Self {
            limits,
            base: base.into(),
            path: Vec::new(),
            skip_top: None,
            tally: Tally::default(),
        }
    }

    /// Leaves the top-level member `key` out of the output, without counting a cut.
    pub(super) fn skipping(mut self, key: &'static str) -> Self {
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
            && (self.limits.key_chars == usize::MAX || utf16_len(k) <= self.limits.key_chars)
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
            Value::String(s) => utf16_len(s) <= self.limits.string_chars,
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
    pub(super) fn measure_clean(&self, v: &Value, depth: usize, limit: usize) -> (usize, bool) {
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

    pub(super) fn measure_map(&self, m: Members<'_>, depth: usize, limit: usize) -> (usize, bool) {
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
    pub(super) fn copy(&mut self, v: &'v Value, depth: usize) -> Value {
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
    pub(super) fn fit_map(
        &mut self,
        m: &'v Map<String, Value>,
        budget: usize,
    ) -> Map<String, Value> {
        self.fit_members(Members::Map(m), budget)
    }

    /// Members bounded as one object of at most `budget` serialized bytes (at least `{}`).
    pub(super) fn fit_members(&mut self, m: Members<'v>, budget: usize) -> Map<String, Value> {
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
    pub(super) fn fit(
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

#[must_use]
pub(super) fn bound_result(result: &ToolResult, caps: &BoundCaps) -> (ToolResult, BoundStats) {
    let mut tally = Tally::default();
    let content = bound_content(&result.content, caps, &mut tally);

    let structured_content = result.structured_content.as_ref().and_then(|v| {
        let mut engine = Engine::new(caps.limits(), "/structuredContent");
        let out = engine.fit(v, 1, caps.structured_bytes).map(|(v, _)| v);
        if out.is_none() {
            engine.tally.members_dropped += 1;
            engine
                .tally
                .record("/structuredContent", CutKind::Object, 1, 0);
        }
        tally.merge(engine.tally);
        out
    });

    let meta = result
        .meta
        .as_ref()
        .map(|meta| bound_meta(meta, caps, &mut tally));

    let mut out = ToolResult {
        content,
        is_error: result.is_error,
        structured_content,
        meta,
    };
    let previous = out
        .neuralis_meta()
        .and_then(|n| n.get(BOUND_META))
        .map(read_tally)
        .unwrap_or_default();
    let mut all = previous.clone();
    all.merge(tally.clone());
    if !all.is_empty() {
        out.neuralis_meta_mut()
            .insert(BOUND_META.into(), write_tally(&all));
    }
    (out, tally)
}

#[must_use]
pub(super) fn bound_value(value: &Value, caps: &BoundCaps) -> (Value, BoundStats) {
    let mut engine = Engine::new(caps.limits(), "");
    let out = engine
        .fit(value, 1, caps.structured_bytes)
        .map_or(Value::Null, |(v, _)| v);
    (out, engine.tally)
}

fn clip_field(s: &str, caps: &BoundCaps, pointer: &str, tally: &mut Tally) -> String {
    match plan_clip(s, caps.string_chars, usize::MAX) {
        None => s.to_owned(),
        Some(clip) => {
            tally.strings_clipped += 1;
            tally.record(pointer, CutKind::String, clip.original, clip.kept);
            clip.apply(s)
        }
    }
}

/// Clips text against the remaining text budget; `None` when nothing is left to keep.
fn clip_text(s: &str, remaining: &mut usize, pointer: &str, tally: &mut Tally) -> Option<String> {
    match plan_clip(s, *remaining, usize::MAX) {
        None => {
            *remaining -= utf16_len(s);
            Some(s.to_owned())
        }
        Some(clip) => {
            tally.text_clipped += 1;
            tally.record(pointer, CutKind::Text, clip.original, clip.kept);
            *remaining = 0;
            (clip.kept > 0 || clip.marker).then(|| clip.apply(s))
        }
    }
}

fn bound_block_meta(
    meta: &Option<Map<String, Value>>,
    caps: &BoundCaps,
    pointer: String,
    tally: &mut Tally,
) -> Option<Map<String, Value>> {
    let meta = meta.as_ref()?;
    let mut engine = Engine::new(caps.limits(), pointer);
    let out = engine.fit_map(meta, caps.structured_bytes);
    tally.merge(engine.tally);
    Some(out)
}

fn bound_annotations(
    a: &Option<Annotations>,
    caps: &BoundCaps,
    pointer: &str,
    tally: &mut Tally,
) -> Option<Annotations> {
    let a = a.as_ref()?;
    Some(Annotations {
        audience: a.audience.as_ref().map(|list| {
            if list.len() > caps.array_len {
                tally.arrays_shrunk += 1;
                tally.items_dropped += list.len() - caps.array_len;
                tally.record(
                    &format!("{pointer}/audience"),
                    CutKind::Array,
                    list.len(),
                    caps.array_len,
                );
            }
            list.iter()
                .take(caps.array_len)
                .map(|s| clip_field(s, caps, &format!("{pointer}/audience"), tally))
                .collect()
        }),
        priority: a.priority,
        last_modified: a
            .last_modified
            .as_ref()
            .map(|s| clip_field(s, caps, &format!("{pointer}/lastModified"), tally)),
    })
}

fn blob_fits(data: &str, caps: &BoundCaps, pointer: &str, tally: &mut Tally) -> bool {
    if data.len() <= caps.blob_bytes {
        return true;
    }
    tally.blobs_dropped += 1;
    tally.blocks_dropped += 1;
    tally.record(pointer, CutKind::Blob, data.len(), 0);
    false
}

fn bound_content(content: &Content, caps: &BoundCaps, tally: &mut Tally) -> Content {
    let mut remaining = caps.text_chars;
    let blocks = match content {
        Content::Text(s) => {
            return Content::Text(
                clip_text(s, &mut remaining, "/content", tally).unwrap_or_default(),
            );
        }
        Content::Blocks(b) => b,
    };
    let n = blocks.len().min(caps.array_len);
    let mut out = Vec::with_capacity(n);
    for (i, block) in blocks[..n].iter().enumerate() {
        let at = format!("/content/{i}");
        let kept = match block {
            ContentBlock::Text(t) => {
                clip_text(&t.text, &mut remaining, &format!("{at}/text"), tally)
                    .or_else(|| {
                        tally.blocks_dropped += 1;
                        None
                    })
                    .map(|text| {
                        ContentBlock::Text(crate::result::TextContent {
                            text,
                            annotations: bound_annotations(
                                &t.annotations,
                                caps,
                                &format!("{at}/annotations"),
                                tally,
                            ),
                            meta: bound_block_meta(&t.meta, caps, format!("{at}/_meta"), tally),
                        })
                    })
            }
            ContentBlock::Image(x) | ContentBlock::Audio(x) => {
                blob_fits(&x.data, caps, &format!("{at}/data"), tally).then(|| {
                    let x = crate::result::BinaryContent {
                        data: x.data.clone(),
                        mime_type: clip_field(&x.mime_type, caps, &format!("{at}/mimeType"), tally),
                        annotations: bound_annotations(
                            &x.annotations,
                            caps,
                            &format!("{at}/annotations"),
                            tally,
                        ),
                        meta: bound_block_meta(&x.meta, caps, format!("{at}/_meta"), tally),
                    };
                    if matches!(block, ContentBlock::Image(_)) {
                        ContentBlock::Image(x)
                    } else {
                        ContentBlock::Audio(x)
                    }
                })
            }
            ContentBlock::Resource(r) => {
                let res = &r.resource;
                let blob_ok = res
                    .blob
                    .as_ref()
                    .is_none_or(|b| blob_fits(b, caps, &format!("{at}/resource/blob"), tally));
                if blob_ok {
                    let text = match &res.text {
                        None => Some(None),
                        Some(t) => {
                            clip_text(t, &mut remaining, &format!("{at}/resource/text"), tally)
                                .or_else(|| {
                                    tally.blocks_dropped += 1;
                                    None
                                })
                                .map(Some)
                        }
                    };
                    text.map(|text| {
                        ContentBlock::Resource(crate::result::EmbeddedResource {
                            resource: crate::result::ResourceContents {
                                uri: clip_field(
                                    &res.uri,
                                    caps,
                                    &format!("{at}/resource/uri"),
                                    tally,
                                ),
                                mime_type: res.mime_type.as_ref().map(|m| {
                                    clip_field(m, caps, &format!("{at}/resource/mimeType"), tally)
                                }),
                                text,
                                blob: res.blob.clone(),
                                meta: bound_block_meta(
                                    &res.meta,
                                    caps,
                                    format!("{at}/resource/_meta"),
                                    tally,
                                ),
                            },
                            annotations: bound_annotations(
                                &r.annotations,
                                caps,
                                &format!("{at}/annotations"),
                                tally,
                            ),
                            meta: bound_block_meta(&r.meta, caps, format!("{at}/_meta"), tally),
                        })
                    })
                } else {
                    None
                }
            }
        };
        if let Some(b) = kept {
            out.push(b);
        }
    }
    if n < blocks.len() {
        tally.blocks_dropped += blocks.len() - n;
        tally.record("/content", CutKind::Blocks, blocks.len(), n);
    }
    Content::Blocks(out)
}

fn bound_meta(
    meta: &Map<String, Value>,
    caps: &BoundCaps,
    tally: &mut Tally,
) -> Map<String, Value> {
    // The toolkit's own namespace is bounded apart, so the bound record it carries is
    // never itself cut.
    let own = meta.get(NEURALIS_META).and_then(Value::as_object);
    let mut engine = Engine::new(caps.limits(), "/_meta");
    if own.is_some() {
        engine = engine.skipping(NEURALIS_META);
    }
    let mut out = engine.fit_map(meta, caps.structured_bytes);
    tally.merge(engine.tally);
    if let Some(own) = own {
        let mut engine = Engine::new(caps.limits(), "/_meta/neuralis").skipping(BOUND_META);
        let mut n = engine.fit_map(own, caps.structured_bytes);
        tally.merge(engine.tally);
        if let Some(previous) = own.get(BOUND_META) {
            n.insert(BOUND_META.into(), write_tally(&read_tally(previous)));
        }
        out.insert(NEURALIS_META.into(), Value::Object(n));
    }
    out
}

#[must_use]
pub(super) fn iframe_payload(tool_name: &str, input: &Value, result: &ToolResult) -> IframePayload {
    let name = Value::String(tool_name.to_owned());
    let status = serde_json::to_value(result.status()).unwrap_or(Value::Null);
    let model = result.for_model();
    let structured = result.structured_content.as_ref().unwrap_or(&Value::Null);
    let members: [(&str, &Value); 5] = [
        ("toolName", &name),
        ("status", &status),
        ("structuredContent", structured),
        ("input", input),
        ("result", &model),
    ];
    let limits = Limits {
        string_chars: IFRAME_MAX_STRING_CHARS,
        array_len: usize::MAX,
        key_chars: IFRAME_MAX_STRING_CHARS,
    };
    let mut engine = Engine::new(limits, "");
    let mut payload = engine.fit_members(
        Members::List(&members),
        IFRAME_MAX_BYTES - crate::result::iframe::REPORT_RESERVE,
    );
    let cuts = engine.tally;
    if !cuts.is_empty() {
        payload.insert("truncated".into(), crate::result::iframe::report(&cuts));
    }
    let value = Value::Object(payload);
    let json = value.to_string();
    debug_assert!(json.len() <= IFRAME_MAX_BYTES, "iframe payload over budget");
    IframePayload { value, json, cuts }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Map, Value, json};

    use crate::result::{
        BoundCaps, Content, ContentBlock, ToolResult, bound_result, bound_result_owned,
        bound_value, iframe_payload, normalize_result,
    };

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z ]{0,40}",
            "[😀é\"\\\\\u{1}\n a]{0,60}",
            "(😀|𝄞|x){0,80}",
        ]
    }

    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            (-1e9f64..1e9).prop_map(Value::from),
            text().prop_map(Value::String),
        ]
    }

    fn json_value() -> impl Strategy<Value = Value> {
        leaf().prop_recursive(5, 96, 10, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..12).prop_map(Value::Array),
                prop::collection::vec(("[a-z_$😀~/]{0,6}", inner), 0..10)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    /// A value nested about 127 levels deep, where the engine drops containers.
    fn deep_value() -> impl Strategy<Value = Value> {
        (
            json_value(),
            118usize..132,
            prop::collection::vec(json_value(), 0..3),
        )
            .prop_map(|(leaf, depth, siblings)| {
                let mut v = leaf;
                for i in 0..depth {
                    v = if i % 3 == 0 {
                        let mut items = siblings.clone();
                        items.insert(0, v);
                        Value::Array(items)
                    } else {
                        let mut m = Map::new();
                        m.insert("a".into(), siblings.first().cloned().unwrap_or(Value::Null));
                        m.insert("d".into(), v);
                        Value::Object(m)
                    };
                }
                v
            })
    }

    fn any_value() -> impl Strategy<Value = Value> {
        prop_oneof![6 => json_value(), 1 => deep_value()]
    }

    fn block() -> impl Strategy<Value = Value> {
        prop_oneof![
            (text(), prop::option::of(json_value())).prop_map(|(t, meta)| {
                let mut b = json!({"type": "text", "text": t});
                if let Some(meta) = meta {
                    b["_meta"] = json!({"m": meta});
                }
                b
            }),
            ("[A-Za-z0-9+/]{0,120}", "image/(png|jpeg)")
                .prop_map(|(d, m)| json!({"type": "image", "data": d, "mimeType": m})),
            ("[A-Za-z0-9+/]{0,40}", prop::collection::vec(text(), 0..6)).prop_map(
                |(d, audience)| json!({"type": "audio", "data": d, "mimeType": "audio/wav",
                    "annotations": {"audience": audience, "lastModified": "2025-01-01T00:00:00Z"}})
            ),
            (text(), text(), prop::option::of(json_value())).prop_map(|(u, t, meta)| {
                let mut b = json!({"type": "resource", "resource": {"uri": u, "text": t, "mimeType": "text/plain"}});
                if let Some(meta) = meta {
                    b["resource"]["_meta"] = json!({"r": meta.clone()});
                    b["_meta"] = json!({"b": meta});
                }
                b
            }),
            (text(), "[A-Za-z0-9+/]{0,60}").prop_map(
                |(u, d)| json!({"type": "resource", "resource": {"uri": u, "blob": d}})
            ),
            text().prop_map(|u| json!({"type": "resource_link", "uri": u, "name": "n"})),
            Just(json!({"type": "hologram"})),
            leaf(),
        ]
    }

    /// `_meta`, sometimes with the toolkit's own namespace and an earlier bound record.
    fn meta() -> impl Strategy<Value = Value> {
        (
            json_value(),
            prop::option::of(json_value()),
            prop::option::of((0u64..40, 0u64..5)),
        )
            .prop_map(|(base, own, bound)| {
                let mut m = match base {
                    Value::Object(m) => m,
                    other => {
                        let mut m = Map::new();
                        m.insert("x".into(), other);
                        m
                    }
                };
                if own.is_some() || bound.is_some() {
                    let mut n = match own {
                        Some(Value::Object(n)) => n,
                        Some(other) => {
                            let mut n = Map::new();
                            n.insert("trace".into(), other);
                            n
                        }
                        None => Map::new(),
                    };
                    if let Some((cuts, items)) = bound {
                        n.insert(
                            "bound".into(),
                            json!({"itemsDropped": items, "cuts": cuts, "at": [
                                {"pointer": "/structuredContent/a", "kind": "array", "original": 9, "kept": 2}
                            ]}),
                        );
                    }
                    m.insert("neuralis".into(), Value::Object(n));
                }
                Value::Object(m)
            })
    }

    /// Untrusted result JSON: mostly result-shaped, sometimes anything.
    fn raw_result() -> impl Strategy<Value = Value> {
        let shaped = (
            prop_oneof![
                prop::collection::vec(block(), 0..8).prop_map(Value::Array),
                text().prop_map(Value::String),
                leaf(),
            ],
            prop::option::of(any::<bool>()),
            prop::option::of(any_value()),
            prop::option::of(meta()),
        )
            .prop_map(|(content, is_error, structured, meta)| {
                let mut m = Map::new();
                m.insert("content".into(), content);
                if let Some(e) = is_error {
                    m.insert("isError".into(), Value::Bool(e));
                }
                if let Some(s) = structured {
                    m.insert("structuredContent".into(), s);
                }
                if let Some(meta) = meta {
                    m.insert("_meta".into(), meta);
                }
                Value::Object(m)
            });
        prop_oneof![6 => shaped, 1 => json_value()]
    }

    fn cap(small: std::ops::Range<usize>) -> impl Strategy<Value = usize> {
        prop_oneof![4 => small, 1 => Just(usize::MAX)]
    }

    fn caps() -> impl Strategy<Value = BoundCaps> {
        (
            cap(0..200),
            cap(0..8),
            cap(0..80),
            cap(0..1500),
            cap(0..100),
        )
            .prop_map(
                |(text_chars, array_len, string_chars, structured_bytes, blob_bytes)| BoundCaps {
                    text_chars,
                    array_len,
                    string_chars,
                    structured_bytes,
                    blob_bytes,
                },
            )
    }

    /// Byte for byte: the wire form, in document order (`Map` equality ignores order).
    fn bytes(r: &impl serde::Serialize) -> Vec<u8> {
        serde_json::to_vec(r).expect("a result serializes")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]

        #[test]
        fn plans_bound_as_the_old_engine_did(raw in raw_result(), caps in caps()) {
            let (r, _) = normalize_result(raw);
            let (expected, expected_stats) = super::bound_result(&r, &caps);
            let (borrowed, stats) = bound_result(&r, &caps);
            prop_assert_eq!(bytes(&borrowed), bytes(&expected));
            prop_assert_eq!(&stats, &expected_stats);
            let (owned, stats) = bound_result_owned(r.clone(), &caps);
            prop_assert_eq!(bytes(&owned), bytes(&expected));
            prop_assert_eq!(&stats, &expected_stats);
            // and again over the bounded result (the idempotent path)
            let (again, stats) = bound_result_owned(owned, &caps);
            let (old_again, old_stats) = super::bound_result(&expected, &caps);
            prop_assert_eq!(bytes(&again), bytes(&old_again));
            prop_assert_eq!(stats, old_stats);
        }

        #[test]
        fn values_bound_as_the_old_engine_did(v in any_value(), caps in caps()) {
            let (expected, expected_stats) = super::bound_value(&v, &caps);
            let (out, stats) = bound_value(&v, &caps);
            prop_assert_eq!(bytes(&out), bytes(&expected));
            prop_assert_eq!(stats, expected_stats);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn iframe_payloads_match_the_old_engine(
            structured in any_value(),
            input in any_value(),
            big in 0usize..40_000,
            keys in 0usize..3_000,
            key_len in prop::sample::select(vec![1usize, 16_384, 16_385]),
        ) {
            let long = "😀\u{1}\"".repeat(big);
            let wide: Map<String, Value> = (0..keys).map(|i| (format!("k{i}"), json!(i))).collect();
            let mut structured = json!({"ok": true, "v": structured, "long": long, "wide": wide});
            structured["k".repeat(key_len)] = json!(1);
            let r = ToolResult::text(long.clone()).with_structured(structured);
            let input = json!({"q": input, "long": long});
            let expected = super::iframe_payload("t", &input, &r);
            let p = iframe_payload("t", &input, &r);
            prop_assert_eq!(&p.json, &expected.json);
            prop_assert_eq!(p.cuts, expected.cuts);
        }

        /// Results megabytes long, cut at a fraction of their size.
        #[test]
        fn large_results_bound_as_the_old_engine_did(
            items in prop::collection::vec(json_value(), 1..40),
            copies in 1usize..400,
            fraction in 1usize..12,
            array_len in cap(1..500),
            string_chars in cap(0..40),
        ) {
            let rows: Vec<Value> = items.iter().cycle().take(items.len() * copies).cloned().collect();
            let structured = json!({"ok": true, "count": rows.len(), "rows": rows,
                "nested": {"more": items, "note": "é😀".repeat(copies)}});
            let size = structured.to_string().len();
            let caps = BoundCaps {
                array_len,
                string_chars,
                structured_bytes: size * fraction / 12,
                ..BoundCaps::default()
            };
            let r = ToolResult::text("x").with_structured(structured);
            let (expected, expected_stats) = super::bound_result(&r, &caps);
            let (owned, stats) = bound_result_owned(r, &caps);
            prop_assert_eq!(bytes(&owned), bytes(&expected));
            prop_assert_eq!(stats, expected_stats);
        }
    }

    /// Every budget from nothing to past the size, so each boundary of each measure is
    /// crossed (a memo answer off by one byte shows here).
    #[test]
    fn every_budget_matches() {
        let values = [
            json!({"p": 1, "a": [1, 2, 3], "b": {"x": "yy"}}),
            json!({"a": [[1, 22], [333]], "b": [{"x": [4444]}], "c": "é😀x"}),
            json!([[["deep", 1], [2]], {"k": [3, 4]}, "s"]),
            json!({"z": {"y": {"x": [1, 2, 3, 4, 5, 6]}}, "w": [[], {}], "v": null}),
            json!({"a": [1, 2, 3, 4, 5, 6], "b": [1]}),
            json!({"s": "a string to clip", "b": [1, "xxxxxxxxxxxxxxxxxxxx"]}),
            json!({"s": "a string to clip", "t": "another one", "b": [1, [2, "xxxxxxxxxx"]]}),
            json!({"a": {"s": "a long string"}, "b": {"c": [1]}, "d": [[2], [3, 4]]}),
        ];
        for v in values {
            let size = v.to_string().len();
            for structured_bytes in 0..=size + 2 {
                for (array_len, string_chars) in [(usize::MAX, usize::MAX), (2, 1), (1, 0)] {
                    let caps = BoundCaps {
                        structured_bytes,
                        array_len,
                        string_chars,
                        ..BoundCaps::default()
                    };
                    let r = ToolResult::text("x").with_structured(v.clone());
                    let (expected, expected_stats) = super::bound_result(&r, &caps);
                    let (owned, stats) = bound_result_owned(r, &caps);
                    assert_eq!(bytes(&owned), bytes(&expected), "{v} {caps:?}");
                    assert_eq!(stats, expected_stats, "{v} {caps:?}");
                }
            }
        }
    }

    #[test]
    fn string_content_and_blocks_cut_to_nothing_match() {
        for caps in [
            BoundCaps {
                text_chars: 0,
                ..BoundCaps::default()
            },
            BoundCaps {
                text_chars: 3,
                array_len: 1,
                ..BoundCaps::default()
            },
        ] {
            for r in [
                ToolResult {
                    content: Content::Text("hello world".into()),
                    ..ToolResult::default()
                },
                ToolResult::from_blocks(vec![
                    ContentBlock::text("abcdef"),
                    ContentBlock::resource_text("u", None, "text"),
                    ContentBlock::text("x"),
                ]),
            ] {
                let (expected, _) = super::bound_result(&r, &caps);
                let (owned, _) = bound_result_owned(r, &caps);
                assert_eq!(bytes(&owned), bytes(&expected));
            }
        }
    }

    /// Records what the oracle produces for a fixed sample of the generated inputs above
    /// (a seeded generator), as the snapshots `core/tests/bound_snapshots.rs` pins once
    /// the oracle is gone: `cargo test -p neuralis-core record_bound_snapshots -- --ignored`.
    mod record {
        use std::collections::BTreeSet;
        use std::fmt::Write as _;

        use proptest::strategy::ValueTree;
        use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

        use super::*;
        use crate::result::Tally;
        use crate::result::bound::write_tally;

        fn sample<S: Strategy>(runner: &mut TestRunner, s: &S) -> S::Value {
            s.new_tree(runner).expect("a value").current()
        }

        fn caps_json(c: &BoundCaps) -> Value {
            let n = |v: usize| {
                if v == usize::MAX {
                    Value::Null
                } else {
                    json!(v)
                }
            };
            json!({"text_chars": n(c.text_chars), "array_len": n(c.array_len),
                "string_chars": n(c.string_chars), "structured_bytes": n(c.structured_bytes),
                "blob_bytes": n(c.blob_bytes)})
        }

        fn fnv(bytes: &[u8]) -> String {
            let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
            format!("{h:016x}")
        }

        /// What a case's cuts are about, to pick a sample that covers them.
        fn features(stats: &Tally, extra: &[&str]) -> BTreeSet<String> {
            let mut f: BTreeSet<String> = stats
                .cuts
                .iter()
                .map(|c| {
                    let area = c.pointer.split('/').nth(1).unwrap_or("");
                    format!("{:?}@{area}", c.kind)
                })
                .collect();
            if stats.is_empty() {
                f.insert("uncut".into());
            }
            if stats.total_cuts > stats.cuts.len() {
                f.insert("unlisted".into());
            }
            f.extend(extra.iter().map(|s| (*s).to_owned()));
            f
        }

        /// Picks up to `want` cases: each that adds a feature, then the first others.
        fn pick(cases: Vec<(BTreeSet<String>, Value)>, want: usize) -> Vec<Value> {
            let mut seen = BTreeSet::new();
            let mut picked = Vec::new();
            let mut rest = Vec::new();
            for (f, case) in cases {
                if f.iter().any(|x| !seen.contains(x)) && picked.len() < want {
                    seen.extend(f);
                    picked.push(case);
                } else {
                    rest.push(case);
                }
            }
            // then cases that cut something
            let more = want.saturating_sub(picked.len());
            picked.extend(
                rest.into_iter()
                    .filter(|c| c["stats"]["cuts"] != 0)
                    .take(more),
            );
            picked
        }

        /// `v` written and read back as the snapshot test reads it (no depth limit), so
        /// what is recorded is what the test recomputes.
        fn reread<T: serde::Serialize + serde::de::DeserializeOwned>(v: &T) -> T {
            let text = serde_json::to_string(v).expect("serializes");
            let mut de = serde_json::Deserializer::from_str(&text);
            de.disable_recursion_limit();
            let v = <Value as serde::Deserialize>::deserialize(&mut de).expect("reads back");
            serde_json::from_value(v).expect("the same type")
        }

        /// Small cases, or a deeper one whose cuts include a dropped nesting level.
        fn small(case: &Value, stats: &Tally) -> bool {
            let deep = stats
                .cuts
                .iter()
                .any(|c| c.kind == crate::result::CutKind::Depth);
            case.to_string().len() <= if deep { 12_000 } else { 3_000 }
        }

        fn write(name: &str, cases: &[Value]) {
            let dir =
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/bound");
            std::fs::create_dir_all(&dir).expect("dir");
            let mut text = String::from("[\n");
            for (i, c) in cases.iter().enumerate() {
                let sep = if i + 1 < cases.len() { "," } else { "" };
                let _ = writeln!(text, "{c}{sep}");
            }
            text.push_str("]\n");
            std::fs::write(dir.join(format!("{name}.json")), text).expect("written");
        }

        #[test]
        #[ignore = "writes core/tests/snapshots/bound"]
        fn record_bound_snapshots() {
            let mut runner = TestRunner::new_with_rng(
                Config::default(),
                TestRng::from_seed(RngAlgorithm::ChaCha, &[19; 32]),
            );

            // bound_result over untrusted results
            let mut cases = Vec::new();
            let strategy = (raw_result(), caps());
            for _ in 0..2000 {
                let (raw, caps) = sample(&mut runner, &strategy);
                let r = reread(&normalize_result(raw).0);
                let (out, stats) = super::super::bound_result(&r, &caps);
                let (plan, plan_stats) = bound_result(&r, &caps);
                assert_eq!(bytes(&plan), bytes(&out));
                assert_eq!(plan_stats, stats);
                let mut extra = Vec::new();
                if matches!(r.content, Content::Text(_)) {
                    extra.push("string-content");
                }
                if r.neuralis_meta().is_some_and(|n| n.contains_key("bound")) {
                    extra.push("earlier-record");
                }
                if r.structured_content.is_some() && out.structured_content.is_none() {
                    extra.push("structured-dropped");
                }
                let case = json!({"caps": caps_json(&caps), "input": r, "output": out,
                    "stats": write_tally(&stats)});
                if small(&case, &stats) {
                    cases.push((features(&stats, &extra), case));
                }
            }
            write("results", &pick(cases, 64));

            // bound_value
            let mut cases = Vec::new();
            let strategy = (any_value(), caps());
            for _ in 0..2000 {
                let (v, caps) = sample(&mut runner, &strategy);
                let v = reread(&v);
                let (out, stats) = super::super::bound_value(&v, &caps);
                let (plan, plan_stats) = bound_value(&v, &caps);
                assert_eq!(bytes(&plan), bytes(&out));
                assert_eq!(plan_stats, stats);
                let extra: &[&str] = if out.is_null() && !v.is_null() {
                    &["dropped"]
                } else {
                    &[]
                };
                let case = json!({"caps": caps_json(&caps), "input": v, "output": out,
                    "stats": write_tally(&stats)});
                if small(&case, &stats) {
                    cases.push((features(&stats, extra), case));
                }
            }
            write("values", &pick(cases, 48));

            // every budget of the hand-written values
            let values = [
                json!({"p": 1, "a": [1, 2, 3], "b": {"x": "yy"}}),
                json!({"a": [[1, 22], [333]], "b": [{"x": [4444]}], "c": "é😀x"}),
                json!([[["deep", 1], [2]], {"k": [3, 4]}, "s"]),
                json!({"z": {"y": {"x": [1, 2, 3, 4, 5, 6]}}, "w": [[], {}], "v": null}),
                json!({"a": [1, 2, 3, 4, 5, 6], "b": [1]}),
                json!({"s": "a string to clip", "b": [1, "xxxxxxxxxxxxxxxxxxxx"]}),
                json!({"s": "a string to clip", "t": "another one", "b": [1, [2, "xxxxxxxxxx"]]}),
                json!({"a": {"s": "a long string"}, "b": {"c": [1]}, "d": [[2], [3, 4]]}),
            ];
            let mut cases = Vec::new();
            for v in values {
                let size = v.to_string().len();
                for (array_len, string_chars) in [(usize::MAX, usize::MAX), (2, 1), (1, 0)] {
                    let mut runs: Vec<Value> = Vec::new();
                    for structured_bytes in 0..=size + 2 {
                        let caps = BoundCaps {
                            structured_bytes,
                            array_len,
                            string_chars,
                            ..BoundCaps::default()
                        };
                        let r = ToolResult::text("x").with_structured(v.clone());
                        let (out, stats) = super::super::bound_result(&r, &caps);
                        let run =
                            json!({"output": out.structured_content, "stats": write_tally(&stats)});
                        match runs.last_mut() {
                            Some(last)
                                if last["output"] == run["output"]
                                    && last["stats"] == run["stats"]
                                    && bytes(&last["output"]) == bytes(&run["output"]) =>
                            {
                                last["budgets"][1] = json!(structured_bytes);
                            }
                            _ => {
                                let mut run = run;
                                run["budgets"] = json!([structured_bytes, structured_bytes]);
                                runs.push(run);
                            }
                        }
                    }
                    let caps = BoundCaps {
                        array_len,
                        string_chars,
                        ..BoundCaps::default()
                    };
                    let mut caps = caps_json(&caps);
                    caps["structured_bytes"] = Value::Null;
                    cases.push(json!({"caps": caps, "input": v, "runs": runs}));
                }
            }
            write("budgets", &cases);

            // large results, cut at a fraction of their size
            let mut cases = Vec::new();
            let strategy = (
                prop::collection::vec(json_value(), 1..40),
                1usize..400,
                1usize..12,
                cap(1..500),
                cap(0..40),
            );
            while cases.len() < 6 {
                let (items, copies, fraction, array_len, string_chars) =
                    sample(&mut runner, &strategy);
                let items = reread(&items);
                if Value::Array(items.clone()).to_string().len() > 2500 {
                    continue;
                }
                let rows: Vec<Value> = items
                    .iter()
                    .cycle()
                    .take(items.len() * copies)
                    .cloned()
                    .collect();
                let structured = json!({"ok": true, "count": rows.len(), "rows": rows,
                    "nested": {"more": items, "note": "é😀".repeat(copies)}});
                let size = structured.to_string().len();
                let caps = BoundCaps {
                    array_len,
                    string_chars,
                    structured_bytes: size * fraction / 12,
                    ..BoundCaps::default()
                };
                let r = ToolResult::text("x").with_structured(structured);
                let (out, stats) = super::super::bound_result(&r, &caps);
                let wire = bytes(&out);
                cases.push(json!({"items": items, "copies": copies, "fraction": fraction,
                    "caps": caps_json(&caps), "output": {"bytes": wire.len(), "fnv1a64": fnv(&wire)},
                    "stats": write_tally(&stats)}));
            }
            write("large", &cases);

            // iframe payloads
            let mut cases = Vec::new();
            let strategy = (
                any_value(),
                any_value(),
                0usize..40_000,
                0usize..3_000,
                prop::sample::select(vec![1usize, 16_384, 16_385]),
            );
            for _ in 0..300 {
                let (structured, input, big, keys, key_len) = sample(&mut runner, &strategy);
                let (structured, input) = (reread(&structured), reread(&input));
                if json!([structured, input]).to_string().len() > 6000 {
                    continue;
                }
                let long = "😀\u{1}\"".repeat(big);
                let wide: Map<String, Value> =
                    (0..keys).map(|i| (format!("k{i}"), json!(i))).collect();
                let mut s = json!({"ok": true, "v": structured, "long": long, "wide": wide});
                s["k".repeat(key_len)] = json!(1);
                let r = ToolResult::text(long.clone()).with_structured(s);
                let i = json!({"q": input, "long": long});
                let p = super::super::iframe_payload("t", &i, &r);
                assert_eq!(iframe_payload("t", &i, &r).json, p.json);
                let sizes: Map<String, Value> = p
                    .value
                    .as_object()
                    .expect("an object")
                    .iter()
                    .filter(|(k, _)| k.as_str() != "truncated")
                    .map(|(k, v)| (k.clone(), json!(v.to_string().len())))
                    .collect();
                let case = json!({"structured": structured, "input": input, "big": big,
                    "keys": keys, "key_len": key_len,
                    "payload": {"bytes": p.json.len(), "fnv1a64": fnv(p.json.as_bytes()),
                        "members": sizes, "truncated": p.value.get("truncated")},
                    "stats": write_tally(&p.cuts)});
                let mut extra = Vec::new();
                if key_len > 16_384 {
                    extra.push("long-key");
                }
                if big < 5_462 {
                    extra.push("short-strings");
                }
                cases.push((features(&p.cuts, &extra), case));
            }
            write("iframe", &pick(cases, 10));
        }
    }
}
