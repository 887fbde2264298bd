//! Bounding: every result is cut to configurable caps, keeping all the data it can.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::engine::{CutKind, Engine, Limits, MAX_LISTED_CUTS, Members, Plan, Rules, Tally};
use super::types::{Annotations, Content, ContentBlock, ToolResult};
use super::utf16::plan_clip;
use super::{BOUND_META, NEURALIS_META};
use crate::contract::{Diagnostic, RuleId};

/// What bounding cut: counts, and the first 16 places with their pointers. Written to
/// `_meta.neuralis.bound` of a bounded result.
pub type BoundStats = Tally;

/// The caps [`bound_result`] applies. Lengths are UTF-16 code units, as the platform
/// counts them; sizes are bytes of compact JSON.
///
/// The defaults are ours (the platform documents the behaviour, not the numbers):
///
/// | cap | default | applies to |
/// |---|---|---|
/// | `text_chars` | 32,000 | all text of `content` together (text blocks, string content, resource `text`) |
/// | `array_len` | 200 | every array (and the list of content blocks); items go from the tail |
/// | `string_chars` | 16,384 | every string in `structuredContent` and `_meta`, and URIs and mime types |
/// | `structured_bytes` | 262,144 | serialized `structuredContent`; `_meta` and each block `_meta` too |
/// | `blob_bytes` | 5,242,880 | base64 `data`/`blob` of one block; a larger block is dropped whole |
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoundCaps {
    /// UTF-16 units of text in `content`, all blocks together.
    pub text_chars: usize,
    /// Items per array, content blocks included.
    pub array_len: usize,
    /// UTF-16 units per string outside text content.
    pub string_chars: usize,
    /// Serialized bytes of `structuredContent` (and of `_meta`).
    pub structured_bytes: usize,
    /// Bytes of base64 per image, audio or resource blob.
    pub blob_bytes: usize,
}

impl Default for BoundCaps {
    fn default() -> Self {
        Self {
            text_chars: 32_000,
            array_len: 200,
            string_chars: 16_384,
            structured_bytes: 262_144,
            blob_bytes: 5_242_880,
        }
    }
}

impl BoundCaps {
    pub(super) fn limits(&self) -> Limits {
        Limits {
            string_chars: self.string_chars,
            array_len: self.array_len,
            key_chars: usize::MAX,
        }
    }
}

/// Bounds a result to `caps`: the one function the handler helper, the dispatch funnel
/// and external MCP results all go through.
///
/// - `content`: blocks past `array_len` go from the tail; text is clipped once the
///   blocks together pass `text_chars`, ending with a marker that states the original
///   and the kept counts (`… [truncated: 50000 → 8000 characters]`, the marker counted
///   within the cap); a text block with no room left at all is dropped; a blob over
///   `blob_bytes` drops its block.
/// - `structuredContent`: strings clipped to `string_chars` (with the marker), arrays cut
///   to `array_len`; if it is still over `structured_bytes`, primitive members are kept
///   first, then whole containers smallest first, then the remaining containers are
///   shrunk (arrays from the tail) in document order with what is left. Nothing is ever
///   replaced by a placeholder.
/// - `_meta` is bounded the same way; what was cut is recorded in
///   `_meta.neuralis.bound` (added to what an earlier bounding recorded).
///
/// Bounding is idempotent, never splits a code point, reads the input without copying
/// it, and does work proportional to what it keeps (plus one scan of each clipped string
/// to state its original length).
///
/// ```
/// use neuralis_core::result::{BoundCaps, ToolResult, bound_result};
/// use serde_json::json;
///
/// let caps = BoundCaps { text_chars: 60, array_len: 2, ..BoundCaps::default() };
/// let r = ToolResult::text("x".repeat(100))
///     .with_structured(json!({"count": 5, "items": [1, 2, 3, 4, 5]}));
/// let (bounded, stats) = bound_result(&r, &caps);
/// assert_eq!(bounded.structured_content, Some(json!({"count": 5, "items": [1, 2]})));
/// let text = bounded.for_model()["content"][0]["text"].as_str().unwrap().to_owned();
/// assert!(text.ends_with("… [truncated: 100 → 25 characters]"));
/// assert_eq!(stats.items_dropped, 3);
/// assert_eq!(bound_result(&bounded, &caps).0, bounded);
/// ```
#[must_use]
pub fn bound_result(result: &ToolResult, caps: &BoundCaps) -> (ToolResult, BoundStats) {
    let mut tally = Tally::default();
    let content = bound_content(&result.content, caps, &mut tally);
    let structured_content = result.structured_content.as_ref().and_then(|v| {
        let (plan, rules) = plan_structured(v, caps, &mut tally)?;
        Some(rules.materialize(v, plan, 1))
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
    record_bound(&mut out, &tally);
    (out, tally)
}

/// Adds this bounding's cuts to what `_meta.neuralis.bound` already recorded.
fn record_bound(out: &mut ToolResult, tally: &Tally) {
    let previous = out
        .neuralis_meta()
        .and_then(|n| n.get(BOUND_META))
        .map(read_tally);
    let Some(mut all) = previous else {
        if !tally.is_empty() {
            out.neuralis_meta_mut()
                .insert(BOUND_META.into(), write_tally(tally));
        }
        return;
    };
    all.merge(tally.clone());
    if !all.is_empty() {
        out.neuralis_meta_mut()
            .insert(BOUND_META.into(), write_tally(&all));
    }
}

/// Adds an engine's cuts to `tally` (an engine counts nothing it did not record as a
/// cut, so an engine without cuts adds nothing).
fn absorb(tally: &mut Tally, engine: Tally) {
    if !engine.is_empty() {
        tally.merge(engine);
    }
}

/// What bounding keeps of `structuredContent`; `None` (recorded as a cut) when not even
/// an emptied form fits.
fn plan_structured(v: &Value, caps: &BoundCaps, tally: &mut Tally) -> Option<(Plan, Rules)> {
    let mut engine = Engine::new(caps.limits(), "/structuredContent");
    let measured = engine.measure(v, 1, caps.structured_bytes);
    finish_structured(engine, v, measured, caps, tally)
}

/// [`plan_structured`] once the engine measured `v` (its memo holds what it learned).
fn finish_structured<'v>(
    mut engine: Engine<'v>,
    v: &'v Value,
    measured: (usize, bool),
    caps: &BoundCaps,
    tally: &mut Tally,
) -> Option<(Plan, Rules)> {
    let plan = engine
        .fit_measured(v, 1, caps.structured_bytes, measured)
        .map(|(plan, _)| plan);
    if plan.is_none() {
        engine.tally.members_dropped += 1;
        engine
            .tally
            .record("/structuredContent", CutKind::Object, 1, 0);
    }
    let rules = engine.rules();
    absorb(tally, engine.tally);
    plan.map(|plan| (plan, rules))
}

/// What bounding keeps of a map (`_meta`, a block's `_meta`), leaving `skip` out.
fn plan_map(
    m: &Map<String, Value>,
    caps: &BoundCaps,
    base: impl Into<Cow<'static, str>>,
    skip: Option<&'static str>,
    tally: &mut Tally,
) -> (Plan, Rules) {
    let mut engine = Engine::new(caps.limits(), base);
    if let Some(key) = skip {
        engine = engine.skipping(key);
    }
    let plan = engine.fit_map(m, caps.structured_bytes);
    let rules = engine.rules();
    absorb(tally, engine.tally);
    (plan, rules)
}

/// Like [`bound_result`], taking the result by value: the result is cut in place
/// ([`ToolResult::bound_in_place`]), so nothing it keeps is copied and what it cuts is
/// freed. A result already within the caps (one bounded at an earlier boundary, or a
/// small one) comes back as it is after one read-only pass. The output is always the
/// same as [`bound_result`]'s.
///
/// ```
/// use neuralis_core::result::{BoundCaps, ToolResult, bound_result, bound_result_owned};
/// use serde_json::json;
///
/// let caps = BoundCaps::default();
/// let r = ToolResult::json(json!({"ok": true, "rows": [1, 2, 3]}));
/// let (expected, _) = bound_result(&r, &caps);
/// let (owned, stats) = bound_result_owned(r, &caps);
/// assert_eq!(owned, expected);
/// assert!(stats.is_empty());
/// ```
#[must_use]
pub fn bound_result_owned(mut result: ToolResult, caps: &BoundCaps) -> (ToolResult, BoundStats) {
    let stats = result.bound_in_place(caps);
    (result, stats)
}

/// Whether the caps leave the map `m` (bounded as one object) as it is.
fn map_within_caps(m: Members<'_>, caps: &BoundCaps) -> bool {
    let (size, clean) = Engine::new(caps.limits(), "").measure_map(m, caps.structured_bytes);
    clean && size <= caps.structured_bytes
}

/// Whether bounding leaves `content` as it is (and records no cut in it): one read-only
/// pass, so a result that fits skips the cutting code.
fn content_within_caps(content: &Content, caps: &BoundCaps) -> bool {
    let str_ok = |s: &str| super::utf16_len(s) <= caps.string_chars;
    let map_ok = |m: &Option<Map<String, Value>>| {
        m.as_ref()
            .is_none_or(|m| map_within_caps(Members::Map(m), caps))
    };
    let annotations_ok = |a: &Option<Annotations>| {
        a.as_ref().is_none_or(|a| {
            a.audience
                .as_ref()
                .is_none_or(|l| l.len() <= caps.array_len && l.iter().all(|s| str_ok(s)))
                && a.last_modified.as_deref().is_none_or(str_ok)
        })
    };
    let mut text = 0usize;
    match content {
        Content::Text(t) => super::utf16_len(t) <= caps.text_chars,
        Content::Blocks(blocks) => {
            blocks.len() <= caps.array_len
                && blocks.iter().all(|b| match b {
                    ContentBlock::Text(t) => {
                        text += super::utf16_len(&t.text);
                        annotations_ok(&t.annotations) && map_ok(&t.meta)
                    }
                    ContentBlock::Image(x) | ContentBlock::Audio(x) => {
                        x.data.len() <= caps.blob_bytes
                            && str_ok(&x.mime_type)
                            && annotations_ok(&x.annotations)
                            && map_ok(&x.meta)
                    }
                    ContentBlock::Resource(e) => {
                        let res = &e.resource;
                        text += res.text.as_deref().map_or(0, super::utf16_len);
                        res.blob.as_ref().is_none_or(|b| b.len() <= caps.blob_bytes)
                            && str_ok(&res.uri)
                            && res.mime_type.as_deref().is_none_or(str_ok)
                            && annotations_ok(&e.annotations)
                            && map_ok(&e.meta)
                            && map_ok(&res.meta)
                    }
                })
                && text <= caps.text_chars
        }
    }
}

/// Whether [`bound_result`] would hand `r` back unchanged.
#[cfg(test)]
fn within_caps(r: &ToolResult, caps: &BoundCaps) -> bool {
    if !content_within_caps(&r.content, caps) {
        return false;
    }
    let structured_ok = r.structured_content.as_ref().is_none_or(|v| {
        let (size, clean) = Engine::new(caps.limits(), "").measure(v, 1, caps.structured_bytes);
        clean && size <= caps.structured_bytes
    });
    if !structured_ok {
        return false;
    }
    let Some(meta) = &r.meta else {
        return true;
    };
    // `_meta` and `_meta.neuralis` are bounded apart, each without its own subtree.
    let without = |m: &'_ Map<String, Value>, key: &str| -> bool {
        let list: Vec<(&str, &Value)> = m
            .iter()
            .filter(|(k, _)| k.as_str() != key)
            .map(|(k, v)| (k.as_str(), v))
            .collect();
        map_within_caps(Members::List(&list), caps)
    };
    match meta.get(NEURALIS_META).and_then(Value::as_object) {
        None => map_within_caps(Members::Map(meta), caps),
        Some(own) => {
            without(meta, NEURALIS_META)
                && without(own, BOUND_META)
                && own
                    .get(BOUND_META)
                    .is_none_or(|b| write_tally(&read_tally(b)) == *b)
        }
    }
}

/// Normalizes untrusted result JSON and bounds it: the path for results coming from
/// external MCP servers and from handlers returning raw JSON. The diagnostics are the
/// `result-shape` repairs followed by one `result-bound` warning per listed cut.
///
/// The input is taken by value, so normalization moves its strings instead of copying
/// them; the bounded result is a fresh copy of what is kept.
///
/// ```
/// use neuralis_core::result::{BoundCaps, normalize_and_bound};
/// use serde_json::json;
///
/// let caps = BoundCaps { array_len: 1, ..BoundCaps::default() };
/// let (r, diags) = normalize_and_bound(json!({"content": "hi", "structuredContent": {"rows": [1, 2]}}), &caps);
/// assert_eq!(r.structured_content, Some(json!({"rows": [1]})));
/// assert_eq!(diags[0].rule.as_str(), "result-bound");
/// assert_eq!(diags[0].pointer, "/structuredContent/rows");
/// ```
#[must_use]
pub fn normalize_and_bound(value: Value, caps: &BoundCaps) -> (ToolResult, Vec<Diagnostic>) {
    let (result, mut diags) = super::normalize_result(value);
    let (bounded, stats) = bound_result(&result, caps);
    diags.extend(stats.diagnostics());
    (bounded, diags)
}

impl ToolResult {
    /// This result bounded to `caps` (see [`bound_result`]), for a handler that bounds
    /// its own output.
    #[must_use]
    pub fn bounded(&self, caps: &BoundCaps) -> Self {
        bound_result(self, caps).0
    }

    /// Bounds this result to `caps` in place, with the output of [`bound_result`]: what
    /// is kept stays where it is (strings are truncated, arrays and maps lose their cut
    /// members), so the work is one measuring pass over what is kept plus freeing what is
    /// cut. Returns what was cut, as [`bound_result`] does.
    ///
    /// ```
    /// use neuralis_core::result::{BoundCaps, ToolResult, bound_result};
    /// use serde_json::json;
    ///
    /// let caps = BoundCaps { array_len: 2, ..BoundCaps::default() };
    /// let mut r = ToolResult::json(json!({"rows": [1, 2, 3]}));
    /// let (expected, _) = bound_result(&r, &caps);
    /// let stats = r.bound_in_place(&caps);
    /// assert_eq!(r, expected);
    /// assert_eq!(stats.items_dropped, 1);
    /// ```
    pub fn bound_in_place(&mut self, caps: &BoundCaps) -> BoundStats {
        let mut tally = Tally::default();
        if !content_within_caps(&self.content, caps) {
            bound_content_in_place(&mut self.content, caps, &mut tally);
        }
        if let Some(v) = &mut self.structured_content {
            // Measured first, so a value within the caps is left as it is at once.
            let mut engine = Engine::new(caps.limits(), "/structuredContent");
            let (size, clean) = engine.measure(v, 1, caps.structured_bytes);
            if !clean || size > caps.structured_bytes {
                match finish_structured(engine, v, (size, clean), caps, &mut tally) {
                    Some((plan, rules)) => rules.apply(v, plan, 1),
                    None => self.structured_content = None,
                }
            }
        }
        if let Some(meta) = &mut self.meta {
            bound_meta_in_place(meta, caps, &mut tally);
        }
        record_bound(self, &tally);
        tally
    }
}

/// Bounds one JSON value (for example a `structuredContent` built by hand) to the string,
/// array and byte caps.
///
/// ```
/// use neuralis_core::result::{BoundCaps, bound_value};
/// use serde_json::json;
///
/// let caps = BoundCaps { array_len: 3, ..BoundCaps::default() };
/// let (v, stats) = bound_value(&json!({"rows": [1, 2, 3, 4]}), &caps);
/// assert_eq!(v, json!({"rows": [1, 2, 3]}));
/// assert_eq!(stats.cuts[0].pointer, "/rows");
/// ```
#[must_use]
pub fn bound_value(value: &Value, caps: &BoundCaps) -> (Value, BoundStats) {
    let mut engine = Engine::new(caps.limits(), "");
    let plan = engine.fit(value, 1, caps.structured_bytes);
    let rules = engine.rules();
    let out = plan.map_or(Value::Null, |(plan, _)| rules.materialize(value, plan, 1));
    (out, engine.tally)
}

impl Tally {
    /// One `result-bound` warning per listed cut, pointing at it.
    #[must_use]
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = self
            .cuts
            .iter()
            .map(|c| {
                let what = match c.kind {
                    CutKind::String | CutKind::Text => "characters",
                    CutKind::Array => "items",
                    CutKind::Object => "members",
                    CutKind::Depth => "children nested deeper than 127 levels",
                    CutKind::Blocks => "content blocks",
                    CutKind::Blob => "bytes of base64",
                };
                Diagnostic::new(RuleId::ResultBound, &c.pointer)
                    .with_message(format!("cut from {} to {} {what}", c.original, c.kept))
            })
            .collect();
        if self.total_cuts > self.cuts.len() {
            out.push(
                Diagnostic::new(RuleId::ResultBound, "").with_message(format!(
                    "{} more cuts not listed",
                    self.total_cuts - self.cuts.len()
                )),
            );
        }
        out
    }
}

/// Where in `content` a cut is. The pointer is written out only when a cut is recorded,
/// so bounding a result that fits formats nothing.
#[derive(Debug, Clone, Copy)]
struct Place {
    block: Option<usize>,
    parts: [&'static str; 2],
}

impl Place {
    /// `content` itself (string content, or the list of blocks).
    const CONTENT: Self = Self {
        block: None,
        parts: ["", ""],
    };

    fn block(i: usize) -> Self {
        Self {
            block: Some(i),
            parts: ["", ""],
        }
    }

    /// The place one step further (at most two steps below a block).
    fn at(mut self, part: &'static str) -> Self {
        let slot = usize::from(!self.parts[0].is_empty());
        self.parts[slot] = part;
        self
    }

    fn pointer(self) -> String {
        let mut p = match self.block {
            None => String::from("/content"),
            Some(i) => format!("/content/{i}"),
        };
        p.push_str(self.parts[0]);
        p.push_str(self.parts[1]);
        p
    }
}

fn clip_field(s: &str, caps: &BoundCaps, place: Place, tally: &mut Tally) -> String {
    match plan_clip(s, caps.string_chars, usize::MAX) {
        None => s.to_owned(),
        Some(clip) => {
            tally.strings_clipped += 1;
            tally.record(&place.pointer(), CutKind::String, clip.original, clip.kept);
            clip.apply(s)
        }
    }
}

/// Clips text against the remaining text budget; `None` when nothing is left to keep.
fn clip_text(s: &str, remaining: &mut usize, place: Place, tally: &mut Tally) -> Option<String> {
    match plan_clip(s, *remaining, usize::MAX) {
        None => {
            *remaining -= super::utf16_len(s);
            Some(s.to_owned())
        }
        Some(clip) => {
            tally.text_clipped += 1;
            tally.record(&place.pointer(), CutKind::Text, clip.original, clip.kept);
            *remaining = 0;
            (clip.kept > 0 || clip.marker).then(|| clip.apply(s))
        }
    }
}

fn bound_block_meta(
    meta: &Option<Map<String, Value>>,
    caps: &BoundCaps,
    place: Place,
    tally: &mut Tally,
) -> Option<Map<String, Value>> {
    let meta = meta.as_ref()?;
    let (plan, rules) = plan_map(meta, caps, place.pointer(), None, tally);
    Some(rules.materialize_members(Members::Map(meta), plan, 1))
}

fn bound_annotations(
    a: &Option<Annotations>,
    caps: &BoundCaps,
    place: Place,
    tally: &mut Tally,
) -> Option<Annotations> {
    let a = a.as_ref()?;
    Some(Annotations {
        audience: a.audience.as_ref().map(|list| {
            if list.len() > caps.array_len {
                tally.arrays_shrunk += 1;
                tally.items_dropped += list.len() - caps.array_len;
                tally.record(
                    &place.at("/audience").pointer(),
                    CutKind::Array,
                    list.len(),
                    caps.array_len,
                );
            }
            list.iter()
                .take(caps.array_len)
                .map(|s| clip_field(s, caps, place.at("/audience"), tally))
                .collect()
        }),
        priority: a.priority,
        last_modified: a
            .last_modified
            .as_ref()
            .map(|s| clip_field(s, caps, place.at("/lastModified"), tally)),
    })
}

fn blob_fits(data: &str, caps: &BoundCaps, place: Place, tally: &mut Tally) -> bool {
    if data.len() <= caps.blob_bytes {
        return true;
    }
    tally.blobs_dropped += 1;
    tally.blocks_dropped += 1;
    tally.record(&place.pointer(), CutKind::Blob, data.len(), 0);
    false
}

fn bound_content(content: &Content, caps: &BoundCaps, tally: &mut Tally) -> Content {
    let mut remaining = caps.text_chars;
    let blocks = match content {
        Content::Text(s) => {
            return Content::Text(
                clip_text(s, &mut remaining, Place::CONTENT, tally).unwrap_or_default(),
            );
        }
        Content::Blocks(b) => b,
    };
    let n = blocks.len().min(caps.array_len);
    let mut out = Vec::with_capacity(n);
    for (i, block) in blocks[..n].iter().enumerate() {
        let at = Place::block(i);
        let kept = match block {
            ContentBlock::Text(t) => clip_text(&t.text, &mut remaining, at.at("/text"), tally)
                .or_else(|| {
                    tally.blocks_dropped += 1;
                    None
                })
                .map(|text| {
                    ContentBlock::Text(super::types::TextContent {
                        text,
                        annotations: bound_annotations(
                            &t.annotations,
                            caps,
                            at.at("/annotations"),
                            tally,
                        ),
                        meta: bound_block_meta(&t.meta, caps, at.at("/_meta"), tally),
                    })
                }),
            ContentBlock::Image(x) | ContentBlock::Audio(x) => {
                blob_fits(&x.data, caps, at.at("/data"), tally).then(|| {
                    let x = super::types::BinaryContent {
                        data: x.data.clone(),
                        mime_type: clip_field(&x.mime_type, caps, at.at("/mimeType"), tally),
                        annotations: bound_annotations(
                            &x.annotations,
                            caps,
                            at.at("/annotations"),
                            tally,
                        ),
                        meta: bound_block_meta(&x.meta, caps, at.at("/_meta"), tally),
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
                    .is_none_or(|b| blob_fits(b, caps, at.at("/resource/blob"), tally));
                if blob_ok {
                    let text = match &res.text {
                        None => Some(None),
                        Some(t) => clip_text(t, &mut remaining, at.at("/resource/text"), tally)
                            .or_else(|| {
                                tally.blocks_dropped += 1;
                                None
                            })
                            .map(Some),
                    };
                    text.map(|text| {
                        ContentBlock::Resource(super::types::EmbeddedResource {
                            resource: super::types::ResourceContents {
                                uri: clip_field(&res.uri, caps, at.at("/resource/uri"), tally),
                                mime_type: res.mime_type.as_ref().map(|m| {
                                    clip_field(m, caps, at.at("/resource/mimeType"), tally)
                                }),
                                text,
                                blob: res.blob.clone(),
                                meta: bound_block_meta(
                                    &res.meta,
                                    caps,
                                    at.at("/resource/_meta"),
                                    tally,
                                ),
                            },
                            annotations: bound_annotations(
                                &r.annotations,
                                caps,
                                at.at("/annotations"),
                                tally,
                            ),
                            meta: bound_block_meta(&r.meta, caps, at.at("/_meta"), tally),
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
    let (plan, rules) = plan_map(meta, caps, "/_meta", own.map(|_| NEURALIS_META), tally);
    let mut out = rules.materialize_members(Members::Map(meta), plan, 1);
    if let Some(own) = own {
        let (plan, rules) = plan_map(own, caps, "/_meta/neuralis", Some(BOUND_META), tally);
        let mut n = rules.materialize_members(Members::Map(own), plan, 1);
        if let Some(previous) = own.get(BOUND_META) {
            n.insert(BOUND_META.into(), write_tally(&read_tally(previous)));
        }
        out.insert(NEURALIS_META.into(), Value::Object(n));
    }
    out
}

/// [`bound_meta`] in place. The plans leave the skipped keys out, so re-inserting them
/// appends them last, as the copy does.
fn bound_meta_in_place(meta: &mut Map<String, Value>, caps: &BoundCaps, tally: &mut Tally) {
    let has_own = meta.get(NEURALIS_META).is_some_and(Value::is_object);
    let (plan, rules) = plan_map(
        meta,
        caps,
        "/_meta",
        has_own.then_some(NEURALIS_META),
        tally,
    );
    let own = if has_own {
        meta.get_mut(NEURALIS_META).map(Value::take)
    } else {
        None
    };
    rules.apply_map(meta, plan, 1);
    if let Some(Value::Object(mut own)) = own {
        let (plan, rules) = plan_map(&own, caps, "/_meta/neuralis", Some(BOUND_META), tally);
        let previous = own.get(BOUND_META).map(read_tally);
        rules.apply_map(&mut own, plan, 1);
        if let Some(previous) = previous {
            own.insert(BOUND_META.into(), write_tally(&previous));
        }
        meta.insert(NEURALIS_META.into(), Value::Object(own));
    }
}

fn clip_field_in_place(s: &mut String, caps: &BoundCaps, place: Place, tally: &mut Tally) {
    if let Some(clip) = plan_clip(s, caps.string_chars, usize::MAX) {
        tally.strings_clipped += 1;
        tally.record(&place.pointer(), CutKind::String, clip.original, clip.kept);
        clip.apply_in_place(s);
    }
}

/// [`clip_text`] in place; `false` when nothing is left to keep.
fn clip_text_in_place(
    s: &mut String,
    remaining: &mut usize,
    place: Place,
    tally: &mut Tally,
) -> bool {
    let units = super::utf16_len(s);
    if units <= *remaining {
        *remaining -= units;
        return true;
    }
    match plan_clip(s, *remaining, usize::MAX) {
        None => true,
        Some(clip) => {
            tally.text_clipped += 1;
            tally.record(&place.pointer(), CutKind::Text, clip.original, clip.kept);
            *remaining = 0;
            let keep = clip.kept > 0 || clip.marker;
            if keep {
                clip.apply_in_place(s);
            }
            keep
        }
    }
}

fn bound_block_meta_in_place(
    meta: &mut Option<Map<String, Value>>,
    caps: &BoundCaps,
    place: Place,
    tally: &mut Tally,
) {
    if let Some(meta) = meta {
        let (plan, rules) = plan_map(meta, caps, place.pointer(), None, tally);
        rules.apply_map(meta, plan, 1);
    }
}

fn bound_annotations_in_place(
    a: &mut Option<Annotations>,
    caps: &BoundCaps,
    place: Place,
    tally: &mut Tally,
) {
    let Some(a) = a else {
        return;
    };
    if let Some(list) = &mut a.audience {
        let at = place.at("/audience");
        if list.len() > caps.array_len {
            tally.arrays_shrunk += 1;
            tally.items_dropped += list.len() - caps.array_len;
            tally.record(&at.pointer(), CutKind::Array, list.len(), caps.array_len);
            list.truncate(caps.array_len);
        }
        for s in list {
            clip_field_in_place(s, caps, at, tally);
        }
    }
    if let Some(s) = &mut a.last_modified {
        clip_field_in_place(s, caps, place.at("/lastModified"), tally);
    }
}

/// [`bound_content`] in place.
fn bound_content_in_place(content: &mut Content, caps: &BoundCaps, tally: &mut Tally) {
    let mut remaining = caps.text_chars;
    let blocks = match content {
        Content::Text(s) => {
            if !clip_text_in_place(s, &mut remaining, Place::CONTENT, tally) {
                s.clear();
            }
            return;
        }
        Content::Blocks(b) => b,
    };
    let len = blocks.len();
    let n = len.min(caps.array_len);
    blocks.truncate(n);
    let mut i = 0;
    blocks.retain_mut(|block| {
        let at = Place::block(i);
        i += 1;
        bound_block_in_place(block, caps, at, &mut remaining, tally)
    });
    if n < len {
        tally.blocks_dropped += len - n;
        tally.record("/content", CutKind::Blocks, len, n);
    }
}

/// One block bounded in place; `false` when it is dropped.
fn bound_block_in_place(
    block: &mut ContentBlock,
    caps: &BoundCaps,
    at: Place,
    remaining: &mut usize,
    tally: &mut Tally,
) -> bool {
    match block {
        ContentBlock::Text(t) => {
            if !clip_text_in_place(&mut t.text, remaining, at.at("/text"), tally) {
                tally.blocks_dropped += 1;
                return false;
            }
            bound_annotations_in_place(&mut t.annotations, caps, at.at("/annotations"), tally);
            bound_block_meta_in_place(&mut t.meta, caps, at.at("/_meta"), tally);
        }
        ContentBlock::Image(x) | ContentBlock::Audio(x) => {
            if !blob_fits(&x.data, caps, at.at("/data"), tally) {
                return false;
            }
            clip_field_in_place(&mut x.mime_type, caps, at.at("/mimeType"), tally);
            bound_annotations_in_place(&mut x.annotations, caps, at.at("/annotations"), tally);
            bound_block_meta_in_place(&mut x.meta, caps, at.at("/_meta"), tally);
        }
        ContentBlock::Resource(r) => {
            let res = &mut r.resource;
            let blob_ok = res
                .blob
                .as_ref()
                .is_none_or(|b| blob_fits(b, caps, at.at("/resource/blob"), tally));
            if !blob_ok {
                return false;
            }
            if let Some(t) = &mut res.text
                && !clip_text_in_place(t, remaining, at.at("/resource/text"), tally)
            {
                tally.blocks_dropped += 1;
                return false;
            }
            clip_field_in_place(&mut res.uri, caps, at.at("/resource/uri"), tally);
            if let Some(m) = &mut res.mime_type {
                clip_field_in_place(m, caps, at.at("/resource/mimeType"), tally);
            }
            bound_block_meta_in_place(&mut res.meta, caps, at.at("/resource/_meta"), tally);
            bound_annotations_in_place(&mut r.annotations, caps, at.at("/annotations"), tally);
            bound_block_meta_in_place(&mut r.meta, caps, at.at("/_meta"), tally);
        }
    }
    true
}

const COUNTS: [&str; 8] = [
    "stringsClipped",
    "arraysShrunk",
    "itemsDropped",
    "membersDropped",
    "depthDropped",
    "textClipped",
    "blocksDropped",
    "blobsDropped",
];

fn counts_mut(t: &mut Tally) -> [&mut usize; 8] {
    [
        &mut t.strings_clipped,
        &mut t.arrays_shrunk,
        &mut t.items_dropped,
        &mut t.members_dropped,
        &mut t.depth_dropped,
        &mut t.text_clipped,
        &mut t.blocks_dropped,
        &mut t.blobs_dropped,
    ]
}

/// `_meta.neuralis.bound`: non-zero counts, `cuts` (the total) and `at` (the first 16).
pub(super) fn write_tally(t: &Tally) -> Value {
    let mut t2 = t.clone();
    let mut m = Map::new();
    for (name, n) in COUNTS.iter().zip(counts_mut(&mut t2)) {
        if *n > 0 {
            m.insert((*name).into(), Value::from(*n));
        }
    }
    m.insert("cuts".into(), Value::from(t.total_cuts));
    m.insert(
        "at".into(),
        serde_json::to_value(&t.cuts).unwrap_or_else(|_| Value::Array(Vec::new())),
    );
    Value::Object(m)
}

/// Reads a bound record back leniently (it may come from an untrusted server).
pub(super) fn read_tally(v: &Value) -> Tally {
    let mut t = Tally::default();
    let Some(m) = v.as_object() else {
        return t;
    };
    let get = |k: &str| {
        m.get(k)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0)
    };
    let values: Vec<usize> = COUNTS.iter().map(|k| get(k)).collect();
    for (slot, n) in counts_mut(&mut t).into_iter().zip(values) {
        *slot = n;
    }
    if let Some(at) = m.get("at").and_then(Value::as_array) {
        for c in at.iter().take(MAX_LISTED_CUTS) {
            let kind = match c.get("kind").and_then(Value::as_str) {
                Some("string") => CutKind::String,
                Some("array") => CutKind::Array,
                Some("object") => CutKind::Object,
                Some("depth") => CutKind::Depth,
                Some("text") => CutKind::Text,
                Some("blocks") => CutKind::Blocks,
                Some("blob") => CutKind::Blob,
                _ => continue,
            };
            let num = |k: &str| {
                c.get(k)
                    .and_then(Value::as_u64)
                    .and_then(|n| usize::try_from(n).ok())
                    .unwrap_or(0)
            };
            let pointer = c.get("pointer").and_then(Value::as_str).unwrap_or("");
            t.record(pointer, kind, num("original"), num("kept"));
        }
    }
    t.total_cuts = get("cuts").max(t.cuts.len());
    t
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn samples() -> Vec<ToolResult> {
        vec![
            ToolResult::text("é😀".repeat(40)),
            ToolResult::json(json!({"rows": (0..50).collect::<Vec<_>>(), "s": "x".repeat(300)})),
            ToolResult::text("a")
                .with_meta("trace", json!({"spans": [1, 2, 3, 4, 5, 6]}))
                .with_neuralis_meta("droppedBlocks", json!(2)),
            ToolResult::from_blocks(vec![
                ContentBlock::image("A".repeat(64), "image/png"),
                ContentBlock::resource_text("file:///a", None, "t".repeat(90)),
            ]),
        ]
    }

    #[test]
    fn bounded_results_are_within_caps_and_oversized_ones_are_not() {
        let caps = BoundCaps {
            text_chars: 60,
            array_len: 4,
            string_chars: 50,
            structured_bytes: 120,
            blob_bytes: 32,
        };
        for r in samples() {
            assert!(!within_caps(&r, &caps), "{r:?}");
            let (b, stats) = bound_result(&r, &caps);
            assert!(!stats.is_empty());
            assert!(within_caps(&b, &caps), "{b:?}");
        }
        for r in samples() {
            assert!(within_caps(&r, &BoundCaps::default()), "{r:?}");
        }
    }
}
