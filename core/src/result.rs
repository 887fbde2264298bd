//! Tool results: their shape, normalization, bounding, status, card and iframe budget
//! (section 5 of `docs/contract.md`).
//!
//! Whatever a handler or an external MCP server returns, the model and the card get a
//! well-formed, bounded result, and nothing the author needs is thrown away when it could
//! be kept:
//!
//! 1. [`normalize_result`] reads untrusted JSON into a [`ToolResult`] (`result-shape`);
//! 2. [`bound_result`] cuts it to [`BoundCaps`] (`result-bound`), the one function for
//!    handlers, the dispatch funnel and external results;
//! 3. [`ToolResult::for_model`] is what the model reads (no `_meta`, `result-meta`);
//!    [`ToolResult::for_ui`] is what the UI gets;
//! 4. [`settled_status`] and [`check_status`] (`status-convention`), [`resolve_card`]
//!    (`card-resolution`) and [`iframe_payload`] (`iframe-budget`) serve the card.
//!
//! Lengths are UTF-16 code units, as the platform (JavaScript) counts them; a cut never
//! splits a code point.
//!
//! ```
//! use neuralis_core::result::{BoundCaps, bound_result, iframe_payload, normalize_result};
//! use serde_json::json;
//!
//! let (r, _diags) = normalize_result(json!({
//!     "content": [{"type": "text", "text": "3 items"}],
//!     "structuredContent": {"ok": true, "items": [1, 2, 3]}
//! }));
//! let (r, _stats) = bound_result(&r, &BoundCaps::default());
//! let card = iframe_payload("list_items", &json!({}), &r);
//! assert_eq!(card.value["status"]["tone"], "success");
//! ```

mod bound;
mod card;
mod clip;
mod engine;
mod iframe;
mod normalize;
mod parts;
mod sketch;
mod status;
mod tally;
mod typed;
mod types;

pub use bound::{
    BoundCaps, BoundStats, ToolBound, bound_result, bound_result_owned, bound_value,
    normalize_and_bound,
};
pub use card::{CARD_MARKER, CardMatch, CardSource, DEFAULT_CARD, check_card, resolve_card};
pub use clip::{truncation_marker, utf16_len, utf16_prefix_end};
pub use iframe::{IFRAME_MAX_BYTES, IFRAME_MAX_STRING_CHARS, IframePayload, iframe_payload};
pub use normalize::normalize_result;
pub use status::{SUCCESS_WORDS, Status, Tone, check_status, settled_status};
pub use tally::{Cut, CutKind, Tally};
pub use typed::{MARKER_RESERVE, TypedBound, bound_typed};
pub use types::{
    BinaryContent, Content, ContentAnnotations, ContentBlock, EmbeddedResource, ResourceContents,
    TextContent, ToolResult,
};

/// The member a wrapped output's value is sent under (`{"result": <value>}`).
pub(crate) use sketch::RESULT;

/// The toolkit's own namespace under `_meta`.
pub const NEURALIS_META: &str = "neuralis";

/// The key under `_meta.neuralis` where bounding records what it cut.
pub const BOUND_META: &str = "bound";
