//! Bounding: every result is cut to configurable caps, keeping all the data it can.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{Map, Value};

use super::engine::{Cut, CutKind, Engine, Limits, MAX_LISTED_CUTS, Members, Plan, Rules, Tally};
use super::sketch::{self, RESULT};
use super::types::{
    BinaryContent, Content, ContentAnnotations, ContentBlock, EmbeddedResource, ResourceContents,
    TextContent, ToolResult,
};
use super::utf16::{Clip, plan_clip_of};
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
    // Each part decided, then copied, in the order its cuts are recorded.
    let mut tally = Tally::default();
    let (content, structured, meta) = (&result.content, &result.structured_content, &result.meta);
    let mut out = ToolResult {
        content: plan_content(content, caps, &mut tally).copy(content),
        is_error: result.is_error,
        structured_content: plan_structured(structured, caps, &mut tally).copy(structured),
        meta: meta
            .as_ref()
            .map(|m| plan_meta(m, caps, &mut tally).copy(m)),
    };
    record_bound(&mut out, &tally);
    (out, tally)
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
        // Each part decided, then cut, in the order its cuts are recorded.
        let mut tally = Tally::default();
        plan_content(&self.content, caps, &mut tally).cut(&mut self.content);
        plan_structured(&self.structured_content, caps, &mut tally)
            .cut(&mut self.structured_content);
        if let Some(meta) = &mut self.meta {
            plan_meta(meta, caps, &mut tally).cut(meta);
        }
        record_bound(self, &tally);
        tally
    }
}

/// A tool's own bounding, beside the package's [`BoundCaps`]: the caps it sets (each
/// `None` keeps the package's) and the input argument a caller sends to get what was left
/// out, which a typed result's truncation marker names. What `#[tool(bound(...))]`
/// declares; a hand-written [`Handler`](crate::dispatch::Handler) returns it from
/// `Handler::bound`. It is the toolkit's, not the platform's: it never enters the tool
/// file's `x-neuralis`.
///
/// ```
/// use neuralis_core::result::{BoundCaps, ToolBound};
///
/// let tool = ToolBound { array_len: Some(50), more: Some("cursor"), ..ToolBound::NONE };
/// let caps = tool.caps(&BoundCaps::default());
/// assert_eq!(caps.array_len, 50);
/// assert_eq!(caps.text_chars, BoundCaps::default().text_chars);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ToolBound {
    /// [`BoundCaps::text_chars`] for this tool.
    pub text_chars: Option<usize>,
    /// [`BoundCaps::array_len`] for this tool.
    pub array_len: Option<usize>,
    /// [`BoundCaps::string_chars`] for this tool.
    pub string_chars: Option<usize>,
    /// [`BoundCaps::structured_bytes`] for this tool.
    pub structured_bytes: Option<usize>,
    /// [`BoundCaps::blob_bytes`] for this tool.
    pub blob_bytes: Option<usize>,
    /// The input argument that asks for more (a root property of the tool's input).
    pub more: Option<&'static str>,
}

impl ToolBound {
    /// No caps of its own, no argument for more.
    pub const NONE: Self = Self {
        text_chars: None,
        array_len: None,
        string_chars: None,
        structured_bytes: None,
        blob_bytes: None,
        more: None,
    };

    /// The caps of the tool: the package's `caps` with this tool's own.
    #[must_use]
    pub fn caps(&self, package: &BoundCaps) -> BoundCaps {
        BoundCaps {
            text_chars: self.text_chars.unwrap_or(package.text_chars),
            array_len: self.array_len.unwrap_or(package.array_len),
            string_chars: self.string_chars.unwrap_or(package.string_chars),
            structured_bytes: self.structured_bytes.unwrap_or(package.structured_bytes),
            blob_bytes: self.blob_bytes.unwrap_or(package.blob_bytes),
        }
    }
}

/// How [`bound_typed`] sends a typed value: its caps, whether it goes under `result`,
/// and the argument a caller sends to get what was left out.
///
/// The dispatch pipeline fills it from the tool: the package's caps with the tool's own
/// (`#[tool(bound(...))]`), `wrapped` when the tool's output schema is not an object
/// (see [`Output`](crate::dispatch::Output)), `more` from `#[tool(bound(more = "..."))]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TypedBound<'a> {
    /// The caps.
    pub caps: BoundCaps,
    /// Whether the value is sent as `{"result": <value>}`.
    pub wrapped: bool,
    /// The input argument that asks for more (a cursor, a page, an offset), named by the
    /// truncation marker.
    pub more: Option<&'a str>,
}

/// At most this many UTF-16 units of the text budget go to a typed result's truncation
/// marker (the JSON gets the rest).
pub const MARKER_RESERVE: usize = 400;

/// At most this many places are named by a typed result's truncation marker.
const MARKER_PLACES: usize = 4;

/// Bounds a typed value (what a handler returns, `Serialize`) while serializing it: the
/// value is never serialized whole. Arrays stop at `array_len` and once past the
/// structured budget (their tails counted, not written: a `Vec` is not even walked past
/// that point), strings over `string_chars` keep a prefix and their length, containers
/// nested deeper than 127 levels are counted, and the engine decides what is kept from
/// that, reading the counts where it records a cut. The result is what
/// [`bound_result`] gives for `ToolResult::json(value)`, with two differences, both in
/// the text the model reads:
///
/// - `structuredContent` and the cuts recorded under `_meta.neuralis.bound` are the
///   same, cut for cut; so are the counts of what was left out;
/// - the text is the compact JSON of the bounded `structuredContent` (of its `result`
///   when `wrapped`), bounded again when it does not fit the text budget, so it is
///   always valid JSON and never holds more than `structuredContent`; when anything was
///   left out, a last text block says what and how much, and which argument asks for
///   more (`… [truncated: 19800 of 20000 items left out at /items; to get more, call
///   again with `cursor`]`). The marker takes at most [`MARKER_RESERVE`] units of the text
///   budget.
///
/// A value whose `Serialize` fails, or that `serde_json` refuses (a 128-bit integer past
/// 64 bits, a map key that is no string), gives the `isError` result that
/// [`Json`](crate::dispatch::Json) gives, with the same words. A map that writes a key
/// twice is serialized whole first (the last value kept, as `serde_json` keeps it) and
/// bounded the same way.
///
/// ```
/// use neuralis_core::result::{BoundCaps, ToolResult, TypedBound, bound_result, bound_typed};
/// use serde_json::json;
///
/// #[derive(serde::Serialize)]
/// struct Audit { ok: bool, entries: Vec<u32> }
/// let audit = Audit { ok: true, entries: (0..20_000).collect() };
///
/// let how = TypedBound { more: Some("cursor"), ..TypedBound::default() };
/// let (r, stats) = bound_typed(&audit, &how);
/// let whole = ToolResult::json(serde_json::to_value(&audit).unwrap());
/// assert_eq!(r.structured_content, bound_result(&whole, &how.caps).0.structured_content);
/// assert_eq!(stats.items_dropped, 19_800);
///
/// let text = |i: usize| r.for_model()["content"][i]["text"].as_str().unwrap().to_owned();
/// let shown: serde_json::Value = serde_json::from_str(&text(0)).unwrap();
/// assert_eq!(shown["entries"].as_array().unwrap().len(), 200);
/// assert_eq!(
///     text(1),
///     "… [truncated: 19800 of 20000 items left out at /entries; to get more, call again with `cursor`]"
/// );
/// ```
#[must_use]
pub fn bound_typed<T: Serialize + ?Sized>(
    value: &T,
    how: &TypedBound<'_>,
) -> (ToolResult, BoundStats) {
    let caps = &how.caps;
    match sketch::sketch(value, caps.limits(), caps.structured_bytes, how.wrapped) {
        Ok(sketch) => {
            let measured = (
                sketch.size,
                sketch.clean && sketch.size <= caps.structured_bytes,
            );
            let structured = (!sketch.null).then_some(sketch.value);
            typed_result(structured, Some(measured), Some(&sketch.left_out), how)
        }
        Err(sketch::Error::Custom(message)) => (serialize_failed(&message), Tally::default()),
        Err(_) => match sketch::whole(value, how.wrapped) {
            Ok(v) => typed_result(v, None, None, how),
            Err(e) => (serialize_failed(&e.to_string()), Tally::default()),
        },
    }
}

fn serialize_failed(message: &str) -> ToolResult {
    ToolResult::error(format!(
        "the tool's result could not be serialized: {message}"
    ))
}

/// The typed result of `structured` (a sketch read with `origins`, or the whole value):
/// `structuredContent` bounded as [`plan_structured`] bounds it, then the text.
fn typed_result(
    structured: Option<Value>,
    measured: Option<(usize, bool)>,
    left_out: Option<&sketch::LeftOut>,
    how: &TypedBound<'_>,
) -> (ToolResult, BoundStats) {
    let caps = &how.caps;
    let Some(mut root) = structured else {
        // `null`: no `structuredContent`, as `ToolResult::json` has it.
        let mut r = ToolResult::text("null");
        let stats = r.bound_in_place(caps);
        return (r, stats);
    };
    // `root` stays where it is until the plan is made.
    let origins = left_out.map(|l| l.at(&root));
    let mut engine = Engine::new(caps.limits(), "/structuredContent");
    if let Some(origins) = &origins {
        engine = engine.reading_sketch(origins);
    }
    let measured = measured.unwrap_or_else(|| engine.measure(&root, 1, caps.structured_bytes));
    let plan = engine.fit_measured(&root, 1, caps.structured_bytes, measured);
    let rules = engine.rules();
    let mut tally = std::mem::take(&mut engine.tally);
    drop(engine);
    drop(origins);
    let structured = match plan {
        Some((plan, size)) => {
            if !plan.is_whole() {
                rules.apply(&mut root, plan, 1);
            }
            Some((root, size))
        }
        None => {
            tally.members_dropped += 1;
            tally.record("/structuredContent", CutKind::Object, 1, 0);
            None
        }
    };
    let (content, text_cut) = typed_text(structured.as_ref(), &tally, how);
    let mut stats = Tally::default();
    if let Some((original, kept)) = text_cut {
        stats.text_clipped += 1;
        stats.record("/content/0/text", CutKind::Text, original, kept);
    }
    stats.merge(tally);
    let mut result = ToolResult {
        content: Content::Blocks(content),
        is_error: false,
        structured_content: structured.map(|(v, _)| v),
        meta: None,
    };
    if !stats.is_empty() {
        result
            .neuralis_meta_mut()
            .insert(BOUND_META.into(), write_tally(&stats));
    }
    if let Content::Blocks(b) = &result.content
        && b.len() > caps.array_len
    {
        // Caps that leave no room for the marker's block: bounded as any result is.
        let more = result.bound_in_place(caps);
        stats.merge(more);
    }
    (result, stats)
}

/// The text blocks of a typed result: the JSON of the bounded value (within what the
/// text budget leaves the marker), and the marker when anything was left out; with the
/// text's own cut (its UTF-16 units before and after) when the JSON had to be bounded
/// again to fit.
fn typed_text(
    structured: Option<&(Value, usize)>,
    tally: &Tally,
    how: &TypedBound<'_>,
) -> (Vec<ContentBlock>, Option<(usize, usize)>) {
    let caps = &how.caps;
    // The value the handler returned, as it is kept, and its size: under `result` when
    // wrapped (`{"result":` and `}` are 11 bytes).
    let value = structured.and_then(|(v, size)| {
        if how.wrapped {
            let inner = v.get(RESULT)?;
            Some((inner, size - (RESULT.len() + 5)))
        } else {
            Some((v, *size))
        }
    });
    if tally.is_empty()
        && let Some((v, size)) = value
        && size <= caps.text_chars
    {
        // Kept whole, and its text fits (a UTF-16 unit is at most one byte of JSON).
        return (vec![ContentBlock::text(json_text(v, size))], None);
    }
    let reserve = MARKER_RESERVE.min(caps.text_chars);
    let room = caps.text_chars - reserve;
    let mut text_tally = Tally::default();
    let mut blocks = Vec::with_capacity(2);
    let mut text_cut = None;
    if let Some((v, size)) = value {
        if size <= room {
            blocks.push(ContentBlock::text(json_text(v, size)));
        } else {
            let mut engine = Engine::new(caps.limits(), "");
            let whole = json_text(v, size);
            let original = super::utf16_len(&whole);
            let text = if original <= room {
                whole
            } else {
                let plan = engine.fit(v, 1, room);
                let rules = engine.rules();
                text_tally = std::mem::take(&mut engine.tally);
                plan.map(|(plan, size)| json_text(&rules.materialize(v, plan, 1), size))
                    .unwrap_or_default()
            };
            let kept = super::utf16_len(&text);
            if kept < original {
                text_cut = Some((original, kept));
            }
            if !text.is_empty() {
                blocks.push(ContentBlock::text(text));
            }
        }
    }
    if !(tally.is_empty() && text_tally.is_empty()) {
        let marker = marker(tally, &text_tally, how, reserve, value.is_none());
        if !marker.is_empty() {
            blocks.push(ContentBlock::text(marker));
        }
    }
    (blocks, text_cut)
}

/// The compact JSON of `v`, about `size` bytes, written straight into its buffer.
fn json_text(v: &Value, size: usize) -> String {
    let mut buf = Vec::with_capacity(size);
    if serde_json::to_writer(&mut buf, v).is_err() {
        return v.to_string();
    }
    String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// What a typed result's marker says, within `room` UTF-16 units: the entries left out
/// and where (the places the text's JSON and `structuredContent` were cut, by pointer
/// into the value the handler returned), the strings clipped, and the argument that asks
/// for more. Places are named while they fit; empty when not even `… [truncated]` does.
fn marker(
    structured: &Tally,
    text: &Tally,
    how: &TypedBound<'_>,
    room: usize,
    dropped: bool,
) -> String {
    let prefix = if how.wrapped {
        "/structuredContent/result"
    } else {
        "/structuredContent"
    };
    // Structured cuts by their pointer into the value.
    let inner = |c: &Cut| -> Option<String> {
        let rest = c.pointer.strip_prefix(prefix)?;
        (rest.is_empty() || rest.starts_with('/')).then(|| rest.to_owned())
    };
    let mut places: Vec<(String, CutKind, usize, usize)> = Vec::new();
    for c in &text.cuts {
        if !matches!(c.kind, CutKind::Array | CutKind::Object) {
            continue;
        }
        // What the text cut further had already been cut in `structuredContent`.
        let original = structured
            .cuts
            .iter()
            .find(|s| s.kind == c.kind && inner(s).as_deref() == Some(c.pointer.as_str()))
            .map_or(c.original, |s| s.original);
        places.push((c.pointer.clone(), c.kind, original, c.kept));
    }
    for c in &structured.cuts {
        if !matches!(c.kind, CutKind::Array | CutKind::Object) {
            continue;
        }
        let Some(at) = inner(c) else { continue };
        if !places.iter().any(|(p, k, ..)| *p == at && *k == c.kind) {
            places.push((at, c.kind, c.original, c.kept));
        }
    }
    // Outer places first: the counts the model most needs.
    places.sort_by_key(|(at, ..)| at.matches('/').count());
    let mut tail: Vec<String> = Vec::new();
    let strings = structured.strings_clipped + text.strings_clipped;
    if strings > 0 {
        let s = if strings == 1 { "" } else { "s" };
        tail.push(format!(
            "{strings} string{s} clipped (each ends with its own marker)"
        ));
    }
    let deep = structured.depth_dropped + text.depth_dropped;
    if deep > 0 {
        tail.push(format!(
            "{deep} values nested deeper than 127 levels left out"
        ));
    }
    if dropped {
        tail.push("the value is too large to send".to_owned());
    }
    let more = how
        .more
        .map(|arg| format!("; to get more, call again with `{arg}`"))
        .unwrap_or_default();
    for named in (0..=places.len().min(MARKER_PLACES)).rev() {
        let mut parts: Vec<String> = places[..named]
            .iter()
            .map(|(at, kind, original, kept)| {
                let what = if *kind == CutKind::Array {
                    "items"
                } else {
                    "members"
                };
                let at = if at.is_empty() { "the top level" } else { at };
                format!("{} of {original} {what} left out at {at}", original - kept)
            })
            .collect();
        if places.len() > named {
            let n = places.len() - named;
            let s = if n == 1 { "" } else { "s" };
            parts.push(format!(
                "{n}{} place{s} cut",
                if named > 0 { " more" } else { "" }
            ));
        }
        parts.extend(tail.iter().cloned());
        if parts.is_empty() {
            parts.push("the JSON is cut to fit".to_owned());
        }
        let out = format!("… [truncated: {}{more}]", parts.join("; "));
        if super::utf16_len(&out) <= room {
            return out;
        }
    }
    let out = String::from("… [truncated]");
    if super::utf16_len(&out) <= room {
        out
    } else {
        String::new()
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

/// A cut decided reading a `T` (a plan of what is kept), made either in place or on a
/// copy of what is kept, with the same result. What is kept is decided once, by
/// `plan_content`, `plan_structured` and `plan_meta`; nothing here looks at a cap.
trait Edit<T> {
    /// Cuts `v` in place: what is kept stays where it is, what is cut is freed.
    fn cut(self, v: &mut T);
    /// A copy of what is kept of `v`.
    fn copy(self, v: &T) -> T;
}

/// The edit of a `T`, of an optional one.
macro_rules! optional {
    ($($plan:ty => $t:ty),*) => {$(
        impl Edit<Option<$t>> for $plan {
            fn cut(self, v: &mut Option<$t>) {
                if let Some(v) = v {
                    self.cut(v);
                }
            }

            fn copy(self, v: &Option<$t>) -> Option<$t> {
                v.as_ref().map(|v| self.copy(v))
            }
        }
    )*};
}

optional!(
    Option<Clip> => String,
    MapPlan => Map<String, Value>,
    AnnotationsPlan => ContentAnnotations
);

/// A string clipped, or kept whole.
impl Edit<String> for Option<Clip> {
    fn cut(self, s: &mut String) {
        if let Some(clip) = self {
            clip.apply_in_place(s);
        }
    }

    fn copy(self, s: &String) -> String {
        self.map_or_else(|| s.clone(), |clip| clip.apply(s))
    }
}

/// What bounding keeps of a map (`_meta`, a block's `_meta`): the engine's plan, with
/// the rules it is applied with; `None` keeps the map whole.
type MapPlan = Option<(Plan, Rules)>;

impl Edit<Map<String, Value>> for MapPlan {
    fn cut(self, m: &mut Map<String, Value>) {
        if let Some((plan, rules)) = self {
            rules.apply_map(m, plan, 1);
        }
    }

    fn copy(self, m: &Map<String, Value>) -> Map<String, Value> {
        match self {
            Some((plan, rules)) => rules.materialize_members(Members::Map(m), plan, 1),
            None => m.clone(),
        }
    }
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

/// What bounding keeps of `structuredContent`: the engine's plan, with the rules it is
/// applied with; `None` when there is none, or not even an emptied form of it fits.
struct StructuredPlan(Option<(Plan, Rules)>);

/// What bounding keeps of `structuredContent`; dropping it is recorded as a cut.
#[inline]
fn plan_structured(v: &Option<Value>, caps: &BoundCaps, tally: &mut Tally) -> StructuredPlan {
    StructuredPlan(v.as_ref().and_then(|v| fit_structured(v, caps, tally)))
}

fn fit_structured(v: &Value, caps: &BoundCaps, tally: &mut Tally) -> Option<(Plan, Rules)> {
    let mut engine = Engine::new(caps.limits(), "/structuredContent");
    let plan = engine
        .fit(v, 1, caps.structured_bytes)
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

impl Edit<Option<Value>> for StructuredPlan {
    #[inline]
    fn cut(self, v: &mut Option<Value>) {
        match (self.0, v) {
            (Some((plan, rules)), Some(v)) if !plan.is_whole() => rules.apply(v, plan, 1),
            (None, v @ Some(_)) => *v = None,
            _ => {}
        }
    }

    fn copy(self, v: &Option<Value>) -> Option<Value> {
        let (plan, rules) = self.0?;
        v.as_ref().map(|v| rules.materialize(v, plan, 1))
    }
}

/// What bounding keeps of a map (`_meta`, a block's `_meta`), leaving the top-level key
/// `skip` out; `None` when it keeps the map as it is. The map is measured first, so the
/// pointer `base` is written out only when there is something to cut.
fn plan_map(
    m: &Map<String, Value>,
    caps: &BoundCaps,
    base: impl FnOnce() -> Cow<'static, str>,
    skip: Option<&'static str>,
    tally: &mut Tally,
) -> MapPlan {
    let mut engine = Engine::new(caps.limits(), "");
    if let Some(key) = skip {
        engine = engine.skipping(key);
    }
    let (size, clean) = engine.measure_map(Members::Map(m), caps.structured_bytes);
    if clean && size <= caps.structured_bytes {
        return None;
    }
    engine.name(base());
    let plan = engine.fit_members_measured(Members::Map(m), caps.structured_bytes, (size, clean));
    let rules = engine.rules();
    absorb(tally, engine.tally);
    Some((plan, rules))
}

/// What bounding keeps of `_meta`. The toolkit's own namespace is bounded apart, without
/// its bound record, so that record is never itself cut; the record is read back (it
/// may come from an untrusted server) and written again.
struct MetaPlan {
    /// `_meta`, less `neuralis` when that is an object.
    top: MapPlan,
    /// `_meta.neuralis` less `bound`.
    own: Option<MapPlan>,
}

fn plan_meta(meta: &Map<String, Value>, caps: &BoundCaps, tally: &mut Tally) -> MetaPlan {
    let own = meta.get(NEURALIS_META).and_then(Value::as_object);
    let skip = own.map(|_| NEURALIS_META);
    let top = plan_map(meta, caps, || "/_meta".into(), skip, tally);
    let own = own.map(|own| {
        plan_map(
            own,
            caps,
            || "/_meta/neuralis".into(),
            Some(BOUND_META),
            tally,
        )
    });
    MetaPlan { top, own }
}

/// `_meta.neuralis` with its earlier bound record (read from `previous`) written again.
/// The plan of `_meta` leaves the namespace out, so inserting it appends it last, in
/// place as in the copy.
fn with_record(mut own: Map<String, Value>, previous: Option<Tally>) -> Value {
    if let Some(previous) = previous {
        own.insert(BOUND_META.into(), write_tally(&previous));
    }
    Value::Object(own)
}

impl Edit<Map<String, Value>> for MetaPlan {
    fn cut(self, meta: &mut Map<String, Value>) {
        let own = self
            .own
            .map(|plan| (plan, meta.get_mut(NEURALIS_META).map(Value::take)));
        self.top.cut(meta);
        if let Some((plan, Some(Value::Object(mut own)))) = own {
            let previous = own.get(BOUND_META).map(read_tally);
            plan.cut(&mut own);
            meta.insert(NEURALIS_META.into(), with_record(own, previous));
        }
    }

    fn copy(self, meta: &Map<String, Value>) -> Map<String, Value> {
        let mut out = self.top.copy(meta);
        if let (Some(plan), Some(Value::Object(own))) = (self.own, meta.get(NEURALIS_META)) {
            let previous = own.get(BOUND_META).map(read_tally);
            out.insert(NEURALIS_META.into(), with_record(plan.copy(own), previous));
        }
        out
    }
}

/// What bounding keeps of `content`: string content clipped, or the blocks within the
/// array cap, each kept whole but for the cuts listed (original indices, ascending).
enum ContentPlan {
    Text(Option<Clip>),
    Blocks {
        len: usize,
        cuts: Vec<(usize, BlockCut)>,
    },
}

/// What bounding does to one block.
enum BlockCut {
    /// Keeps it as it is.
    Whole,
    /// Drops it: a blob over `blob_bytes`, or text with nothing left of the budget.
    Drop,
    /// Keeps what the plan keeps (boxed: a block that fits costs no more than a word).
    Edit(Box<BlockPlan>),
}

/// The one walk over content blocks: what bounding keeps of `content`, decided reading
/// it. Text counts against one budget for all blocks together (`text_chars`); blocks past
/// `array_len` go from the tail, after the cuts inside the blocks kept are recorded.
fn plan_content(content: &Content, caps: &BoundCaps, tally: &mut Tally) -> ContentPlan {
    let mut budget = TextBudget {
        remaining: caps.text_chars,
        last: true,
    };
    let blocks = match content {
        Content::Text(s) => {
            return ContentPlan::Text(plan_text(s, &mut budget, Place::CONTENT, tally));
        }
        Content::Blocks(b) => b,
    };
    let len = blocks.len().min(caps.array_len);
    let last = blocks[..len].iter().rposition(|b| match b {
        ContentBlock::Text(_) => true,
        ContentBlock::Resource(r) => r.resource.text.is_some(),
        ContentBlock::Image(_) | ContentBlock::Audio(_) => false,
    });
    let mut cuts = Vec::new();
    for (i, block) in blocks[..len].iter().enumerate() {
        budget.last = last == Some(i);
        match plan_block(block, caps, Place::block(i), &mut budget, tally) {
            BlockCut::Whole => {}
            cut => {
                if cuts.is_empty() {
                    cuts.reserve_exact(len - i);
                }
                cuts.push((i, cut));
            }
        }
    }
    if len < blocks.len() {
        tally.blocks_dropped += blocks.len() - len;
        tally.record("/content", CutKind::Blocks, blocks.len(), len);
    }
    ContentPlan::Blocks { len, cuts }
}

impl Edit<Content> for ContentPlan {
    #[inline]
    fn cut(self, content: &mut Content) {
        match (self, content) {
            (Self::Text(clip), Content::Text(s)) => clip.cut(s),
            (Self::Blocks { len, cuts }, Content::Blocks(blocks)) => {
                blocks.truncate(len);
                if cuts.is_empty() {
                    return;
                }
                let mut cuts = cuts.into_iter().peekable();
                let mut i = 0;
                blocks.retain_mut(|block| {
                    let at = i;
                    i += 1;
                    match cuts.next_if(|(j, _)| *j == at).map(|(_, cut)| cut) {
                        Some(BlockCut::Drop) => false,
                        Some(BlockCut::Edit(plan)) => {
                            plan.cut(block);
                            true
                        }
                        Some(BlockCut::Whole) | None => true,
                    }
                });
            }
            _ => {}
        }
    }

    fn copy(self, content: &Content) -> Content {
        match (self, content) {
            (Self::Text(clip), Content::Text(s)) => Content::Text(clip.copy(s)),
            (Self::Blocks { len, cuts }, Content::Blocks(blocks)) => {
                let mut cuts = cuts.into_iter().peekable();
                let mut out = Vec::with_capacity(len);
                for (i, block) in blocks[..len].iter().enumerate() {
                    match cuts.next_if(|(j, _)| *j == i).map(|(_, cut)| cut) {
                        Some(BlockCut::Drop) => {}
                        Some(BlockCut::Edit(plan)) => out.push(plan.copy(block)),
                        Some(BlockCut::Whole) | None => out.push(block.clone()),
                    }
                }
                Content::Blocks(out)
            }
            (_, content) => content.clone(),
        }
    }
}

/// What bounding does to one block it keeps (image and audio data and resource blobs
/// are kept whole or the block is dropped).
#[derive(Default)]
struct BlockPlan {
    /// A text block's text, or a resource's.
    text: Option<Clip>,
    /// An image's or audio's `mimeType`, or a resource's.
    mime_type: Option<Clip>,
    uri: Option<Clip>,
    resource_meta: MapPlan,
    annotations: AnnotationsPlan,
    meta: MapPlan,
}

/// The plan of a block, made at its first cut.
fn edit(plan: &mut Option<Box<BlockPlan>>) -> &mut BlockPlan {
    plan.get_or_insert_default()
}

/// What bounding does to one block.
fn plan_block(
    block: &ContentBlock,
    caps: &BoundCaps,
    at: Place,
    budget: &mut TextBudget,
    tally: &mut Tally,
) -> BlockCut {
    // The plan is made at the first cut, so a block that fits costs only its reading.
    let mut plan: Option<Box<BlockPlan>> = None;
    // Text clipped against the budget; `None` drops the block when none is left.
    let mut text = |s: &str, place: Place, tally: &mut Tally| {
        let clip = plan_text(s, budget, place, tally);
        if clip.is_some_and(|c| c.kept == 0 && !c.marker) {
            tally.blocks_dropped += 1;
            return None;
        }
        Some(clip)
    };
    let (annotations, meta) = match block {
        ContentBlock::Text(t) => {
            match text(&t.text, at.at("/text"), tally) {
                None => return BlockCut::Drop,
                Some(None) => {}
                clip @ Some(Some(_)) => edit(&mut plan).text = clip.flatten(),
            }
            (&t.annotations, &t.meta)
        }
        ContentBlock::Image(x) | ContentBlock::Audio(x) => {
            if !blob_fits(&x.data, caps, at.at("/data"), tally) {
                return BlockCut::Drop;
            }
            if let clip @ Some(_) = plan_field(&x.mime_type, caps, at.at("/mimeType"), tally) {
                edit(&mut plan).mime_type = clip;
            }
            (&x.annotations, &x.meta)
        }
        ContentBlock::Resource(r) => {
            let res = &r.resource;
            if let Some(blob) = &res.blob
                && !blob_fits(blob, caps, at.at("/resource/blob"), tally)
            {
                return BlockCut::Drop;
            }
            if let Some(t) = &res.text {
                match text(t, at.at("/resource/text"), tally) {
                    None => return BlockCut::Drop,
                    Some(None) => {}
                    clip @ Some(Some(_)) => edit(&mut plan).text = clip.flatten(),
                }
            }
            if let clip @ Some(_) = plan_field(&res.uri, caps, at.at("/resource/uri"), tally) {
                edit(&mut plan).uri = clip;
            }
            if let Some(m) = &res.mime_type
                && let clip @ Some(_) = plan_field(m, caps, at.at("/resource/mimeType"), tally)
            {
                edit(&mut plan).mime_type = clip;
            }
            if let Some(m) = &res.meta
                && let cut @ Some(_) = plan_map(
                    m,
                    caps,
                    || at.at("/resource/_meta").pointer().into(),
                    None,
                    tally,
                )
            {
                edit(&mut plan).resource_meta = cut;
            }
            (&r.annotations, &r.meta)
        }
    };
    if let Some(a) = annotations
        && let Some(cut) = plan_annotations(a, caps, at.at("/annotations"), tally)
    {
        edit(&mut plan).annotations = cut;
    }
    if let Some(m) = meta
        && let cut @ Some(_) = plan_map(m, caps, || at.at("/_meta").pointer().into(), None, tally)
    {
        edit(&mut plan).meta = cut;
    }
    plan.map_or(BlockCut::Whole, BlockCut::Edit)
}

impl BlockPlan {
    fn binary(self, x: &BinaryContent) -> BinaryContent {
        BinaryContent {
            data: x.data.clone(),
            mime_type: self.mime_type.copy(&x.mime_type),
            annotations: self.annotations.copy(&x.annotations),
            meta: self.meta.copy(&x.meta),
        }
    }
}

impl Edit<ContentBlock> for BlockPlan {
    fn cut(self, block: &mut ContentBlock) {
        let (annotations, meta) = match block {
            ContentBlock::Text(t) => {
                self.text.cut(&mut t.text);
                (&mut t.annotations, &mut t.meta)
            }
            ContentBlock::Image(x) | ContentBlock::Audio(x) => {
                self.mime_type.cut(&mut x.mime_type);
                (&mut x.annotations, &mut x.meta)
            }
            ContentBlock::Resource(r) => {
                let res = &mut r.resource;
                self.text.cut(&mut res.text);
                self.uri.cut(&mut res.uri);
                self.mime_type.cut(&mut res.mime_type);
                self.resource_meta.cut(&mut res.meta);
                (&mut r.annotations, &mut r.meta)
            }
        };
        self.annotations.cut(annotations);
        self.meta.cut(meta);
    }

    fn copy(self, block: &ContentBlock) -> ContentBlock {
        match block {
            ContentBlock::Text(t) => ContentBlock::Text(TextContent {
                text: self.text.copy(&t.text),
                annotations: self.annotations.copy(&t.annotations),
                meta: self.meta.copy(&t.meta),
            }),
            ContentBlock::Image(x) => ContentBlock::Image(self.binary(x)),
            ContentBlock::Audio(x) => ContentBlock::Audio(self.binary(x)),
            ContentBlock::Resource(r) => {
                let res = &r.resource;
                ContentBlock::Resource(EmbeddedResource {
                    resource: ResourceContents {
                        uri: self.uri.copy(&res.uri),
                        mime_type: self.mime_type.copy(&res.mime_type),
                        text: self.text.copy(&res.text),
                        blob: res.blob.clone(),
                        meta: self.resource_meta.copy(&res.meta),
                    },
                    annotations: self.annotations.copy(&r.annotations),
                    meta: self.meta.copy(&r.meta),
                })
            }
        }
    }
}

/// What bounding keeps of a block's annotations: the audience list within `array_len`
/// (`len`), its strings and `lastModified` clipped.
#[derive(Default)]
struct AnnotationsPlan {
    len: Option<usize>,
    audience: Vec<(usize, Clip)>,
    last_modified: Option<Clip>,
}

impl AnnotationsPlan {
    fn is_whole(&self) -> bool {
        self.len.is_none() && self.audience.is_empty() && self.last_modified.is_none()
    }
}

/// What bounding keeps of a block's annotations; `None` when it keeps them whole.
fn plan_annotations(
    a: &ContentAnnotations,
    caps: &BoundCaps,
    place: Place,
    tally: &mut Tally,
) -> Option<AnnotationsPlan> {
    let mut plan = AnnotationsPlan::default();
    if let Some(list) = &a.audience {
        let at = place.at("/audience");
        if list.len() > caps.array_len {
            tally.arrays_shrunk += 1;
            tally.items_dropped += list.len() - caps.array_len;
            tally.record(&at.pointer(), CutKind::Array, list.len(), caps.array_len);
            plan.len = Some(caps.array_len);
        }
        for (i, s) in list.iter().take(caps.array_len).enumerate() {
            if let Some(clip) = plan_field(s, caps, at, tally) {
                plan.audience.push((i, clip));
            }
        }
    }
    plan.last_modified = a
        .last_modified
        .as_ref()
        .and_then(|s| plan_field(s, caps, place.at("/lastModified"), tally));
    (!plan.is_whole()).then_some(plan)
}

impl Edit<ContentAnnotations> for AnnotationsPlan {
    fn cut(self, a: &mut ContentAnnotations) {
        if let Some(list) = &mut a.audience {
            list.truncate(self.len.unwrap_or(usize::MAX));
            for (i, clip) in self.audience {
                clip.apply_in_place(&mut list[i]);
            }
        }
        self.last_modified.cut(&mut a.last_modified);
    }

    fn copy(self, a: &ContentAnnotations) -> ContentAnnotations {
        let mut clips = self.audience.into_iter().peekable();
        ContentAnnotations {
            audience: a.audience.as_ref().map(|list| {
                let len = self.len.unwrap_or(usize::MAX);
                let kept = list.iter().take(len).enumerate();
                kept.map(|(i, s)| clips.next_if(|(j, _)| *j == i).map(|(_, c)| c).copy(s))
                    .collect()
            }),
            priority: a.priority,
            last_modified: self.last_modified.copy(&a.last_modified),
        }
    }
}

/// A string outside text content (a URI, a mime type, an annotation) clipped to
/// `string_chars`. No character takes more UTF-16 units than UTF-8 bytes, so a string
/// with no more bytes than the cap fits without being scanned.
#[inline]
fn plan_field(s: &str, caps: &BoundCaps, place: Place, tally: &mut Tally) -> Option<Clip> {
    if s.len() <= caps.string_chars {
        return None;
    }
    let units = super::utf16_len(s);
    if units <= caps.string_chars {
        return None;
    }
    clip(s, units, caps.string_chars, place, CutKind::String, tally)
}

/// What is left of the text budget, which all blocks share.
struct TextBudget {
    remaining: usize,
    /// Whether the text planned is the last: then no later text reads what is left, and
    /// a text with no more bytes than that fits without being counted (no character takes
    /// more UTF-16 units than UTF-8 bytes).
    last: bool,
}

/// Text clipped against what is left of the text budget; a clip that keeps nothing when
/// nothing is left.
#[inline]
fn plan_text(s: &str, budget: &mut TextBudget, place: Place, tally: &mut Tally) -> Option<Clip> {
    if budget.last && s.len() <= budget.remaining {
        return None;
    }
    let units = super::utf16_len(s);
    if units <= budget.remaining {
        budget.remaining -= units;
        return None;
    }
    let cap = std::mem::take(&mut budget.remaining);
    clip(s, units, cap, place, CutKind::Text, tally)
}

/// Clips `s` (`units` long) to `cap` units, the cut recorded.
fn clip(
    s: &str,
    units: usize,
    cap: usize,
    place: Place,
    kind: CutKind,
    tally: &mut Tally,
) -> Option<Clip> {
    let clip = plan_clip_of(s, units, cap, usize::MAX)?;
    match kind {
        CutKind::Text => tally.text_clipped += 1,
        _ => tally.strings_clipped += 1,
    }
    tally.record(&place.pointer(), kind, clip.original, clip.kept);
    Some(clip)
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
fn write_tally(t: &Tally) -> Value {
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
fn read_tally(v: &Value) -> Tally {
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
