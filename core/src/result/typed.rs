//! A typed result (what a handler returns, `Serialize`) bounded while it is serialized:
//! the sketch read by the engine, `structuredContent` cut as [`bound_result`](super::bound_result) cuts it, and
//! the text the model reads, the compact JSON of what was kept with a truncation marker.

use serde::Serialize;
use serde_json::Value;

use super::BOUND_META;
use super::bound::{BoundCaps, BoundStats};
use super::engine::Engine;
use super::sketch::{self, RESULT};
use super::tally::write_tally;
use super::tally::{Cut, CutKind, Tally};
use super::types::{Content, ContentBlock, ToolResult};

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
    /// The offset this call started from, when the marker says the next one to send in
    /// [`more`](Self::more): this plus the items kept of the outermost array that was cut
    /// (`#[tool(bound(more_value = "offset"))]`; the pipeline reads it from the call's
    /// arguments, 0 when the argument was not sent).
    pub more_from: Option<u64>,
}

/// At most this many UTF-16 units of the text budget go to a typed result's truncation
/// marker (the JSON gets the rest).
pub const MARKER_RESERVE: usize = 400;

/// The text of a `null` result.
const NULL: &str = "null";

/// At most this many places are named by a typed result's truncation marker.
const MARKER_PLACES: usize = 4;

/// Bounds a typed value (what a handler returns, `Serialize`) while serializing it: the
/// value is never serialized whole. Arrays stop at `array_len` and once past the
/// structured budget (their tails counted, not written: a `Vec` is not even walked past
/// that point), strings over `string_chars` keep a prefix and their length, containers
/// nested deeper than 127 levels are counted, and the engine decides what is kept from
/// that, reading the counts where it records a cut. The result is what
/// [`bound_result`](super::bound_result) gives for `ToolResult::json(value)`, with two differences, both in
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
/// `structuredContent` bounded as [`bound_result`](super::bound_result) bounds it, then the text.
fn typed_result(
    structured: Option<Value>,
    measured: Option<(usize, bool)>,
    left_out: Option<&sketch::LeftOut>,
    how: &TypedBound<'_>,
) -> (ToolResult, BoundStats) {
    let caps = &how.caps;
    let Some(mut root) = structured else {
        // `null`: no `structuredContent`, as `ToolResult::json` has it; the text `null`
        // when it fits, else none (a clipped `null` would not be JSON).
        if NULL.len() <= caps.text_chars {
            let mut r = ToolResult::text(NULL);
            let stats = r.bound_in_place(caps);
            return (r, stats);
        }
        let mut stats = Tally::default();
        stats.text_clipped += 1;
        stats.record("/content/0/text", CutKind::Text, NULL.len(), 0);
        let mut r = ToolResult {
            content: Content::Blocks(Vec::new()),
            is_error: false,
            structured_content: None,
            meta: None,
        };
        r.neuralis_meta_mut()
            .insert(BOUND_META.into(), write_tally(&stats));
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
    // The text was cut too when none of its JSON fit the room the marker leaves.
    let text_left_out = value.is_some() && blocks.is_empty();
    if !(tally.is_empty() && text_tally.is_empty()) || text_left_out {
        let marker = marker(
            tally,
            &text_tally,
            how,
            reserve,
            value.is_none(),
            text_left_out,
        );
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

/// Where the text's JSON and `structuredContent` were cut (arrays and objects), by pointer
/// into the value the handler returned: its kind, the original count (the structured
/// one, where the text cut further) and what was kept.
fn cut_places(
    structured: &Tally,
    text: &Tally,
    wrapped: bool,
) -> Vec<(String, CutKind, usize, usize)> {
    let prefix = if wrapped {
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
    places
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
    text_left_out: bool,
) -> String {
    let mut places = cut_places(structured, text, how.wrapped);
    // Outer places first: the counts the model most needs.
    neuralis_model::sort::sort_by_key(&mut places, |(at, ..)| at.matches('/').count());
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
    if text_left_out {
        tail.push("its JSON is too long for the text".to_owned());
    }
    // The outermost array cut (places are sorted outer first): where the next page starts.
    let next = how.more_from.and_then(|from| {
        let kept = places
            .iter()
            .find(|(_, kind, ..)| *kind == CutKind::Array)?
            .3;
        Some(from.saturating_add(kept as u64))
    });
    let more = match (how.more, next) {
        (Some(arg), Some(next)) => format!("; to get more, call again with `{arg}` set to {next}"),
        (Some(arg), None) => format!("; to get more, call again with `{arg}`"),
        (None, _) => String::new(),
    };
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
