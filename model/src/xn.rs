//! The `x-neuralis` block (section 4 of `docs/contract.md`): one table of its keys and
//! one typed value.
//!
//! - [`keys`]: every key of the block, once: its [`Level`], its name on the wire, its name
//!   in the `#[tool(...)]` attribute and its [`Kind`]. The checker's `xn-unknown-key` and
//!   `xn-type` walk it, the canonical writer orders the block by it, the attribute's
//!   parser reads its keys through it, and the renderer's pointers come from it.
//! - [`XNeuralis`]: the block typed (`neuralis_core::catalog::ToolMeta`), with its run-time
//!   meanings. The attribute's parser builds one, the renderer writes the tool file's block
//!   from it, the catalog reads it. A test keeps its serde names equal to the table.
//! - [`verdict`]: the section's predicates on values, which the attribute's checks and the
//!   JSON checks both call and each word in their own terms.
//!
//! ```
//! use neuralis_model::xn::{Kind, Level, XNeuralis, keys};
//!
//! assert_eq!(keys::ESTIMATED_DURATION_MS.attr, "estimated_duration_ms");
//! assert_eq!(keys::ESTIMATED_DURATION_MS.kind, Kind::Count);
//! assert_eq!(keys::ESTIMATED_DURATION_MS.pointer(), "/x-neuralis/annotations/estimatedDurationMs");
//! assert_eq!(Level::Ui.names(), ["presentation", "cardType", "icon"]);
//! assert_eq!(Level::Annotations.find_attr("read_only"), Some(&keys::READ_ONLY_HINT));
//!
//! let block: XNeuralis = serde_json::from_value(serde_json::json!({
//!     "annotations": { "category": "read", "idempotentHint": true }
//! }))
//! .expect("a block");
//! assert_eq!(block.annotations.idempotent_hint, Some(true));
//! ```

mod block;
pub mod keys;
pub mod verdict;

pub use block::{
    Annotations, CATEGORIES, Category, PRESENTATIONS, Presentation, Requires, Ui, XNeuralis,
};
pub use keys::{BLOCK, BLOCK_POINTER, KEYS, Key, Kind, Level};
