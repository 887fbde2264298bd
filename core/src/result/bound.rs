//! Bounding: every result is cut to configurable caps, keeping all the data it can.

use serde_json::Value;

use super::BOUND_META;
use super::engine::{Engine, Limits};
use super::parts;
use super::tally::Tally;
use super::tally::{read_tally, write_tally};
use super::types::ToolResult;
use crate::contract::Diagnostic;

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
    let mut out = parts::copy_kept(result, caps, &mut tally);
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
        let mut tally = Tally::default();
        parts::cut_in_place(self, caps, &mut tally);
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
    /// Whether the truncation marker says the value to send in [`more`](Self::more): the
    /// next offset, the call's own value of the argument (0 when it sent none) plus the
    /// items kept of the array that was cut (`#[tool(bound(more_value = "offset"))]`).
    pub more_offset: bool,
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
        more_offset: false,
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
