//! The typed catalog: the `x-neuralis` block of a tool, and its run-time meanings.
//!
//! A [`ToolEntry`] is one loaded tool: its name, its normalized schema and its [`ToolMeta`].
//! [`ToolMeta`] is the model's typed block (`neuralis_model::xn`, the one layout the
//! macros, the build script and the checker read too), with the meanings section 4 of the
//! contract gives it at run time:
//!
//! - [`ToolMeta::effective_presentation`]: how the tool's result renders in chat;
//! - [`ToolMeta::asks_for_approval`]: whether the declaration alone makes a call ask;
//! - [`ToolMeta::features_satisfied`]: the feature gate.
//!
//! ```
//! use neuralis_core::catalog::{Category, Presentation, ToolMeta};
//! use serde_json::json;
//!
//! let meta: ToolMeta = serde_json::from_value(json!({
//!     "family": "notes",
//!     "annotations": { "destructiveHint": true, "category": "write" },
//!     "requires": { "features": ["notes.write"] },
//!     "askOnKeys": ["delete"]
//! }))
//! .expect("a valid block");
//! assert_eq!(meta.annotations.category, Category::Write);
//! assert_eq!(meta.effective_presentation(), Presentation::Inline);
//! assert!(meta.asks_for_approval(&json!({ "delete": false })));
//! assert!(!meta.asks_for_approval(&json!({ "title": "x" })));
//! assert!(meta.features_satisfied(["notes.write", "notes.read"]));
//! assert!(!meta.features_satisfied(["notes.read"]));
//! ```

use serde::Serialize;
use serde_json::Value;

pub use neuralis_model::xn::{Annotations, Category, Presentation, Requires, Ui};

/// The `x-neuralis` block of a tool, typed: the model's [`XNeuralis`](neuralis_model::xn::XNeuralis),
/// whose fields follow the one key table (`neuralis_model::xn::keys`). Field order is the
/// canonical order of the block, so serializing a `ToolMeta` writes the keys as the
/// canonical writer would. Absent optional keys stay absent when serialized.
pub use neuralis_model::xn::XNeuralis as ToolMeta;

/// One loaded tool: its name, normalized schema, and typed `x-neuralis` block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolEntry {
    /// The tool name (the file stem).
    pub name: String,
    /// The input schema, checked and normalized (open bags carry `propertyNames`).
    pub schema: Value,
    /// The `x-neuralis` block.
    pub meta: ToolMeta,
}

impl ToolEntry {
    /// See [`ToolMeta::effective_presentation`].
    #[must_use]
    pub fn effective_presentation(&self) -> Presentation {
        self.meta.effective_presentation()
    }

    /// See [`ToolMeta::asks_for_approval`].
    #[must_use]
    pub fn asks_for_approval(&self, args: &Value) -> bool {
        self.meta.asks_for_approval(args)
    }

    /// See [`ToolMeta::features_satisfied`].
    #[must_use]
    pub fn features_satisfied<I, S>(&self, granted: I) -> bool
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.meta.features_satisfied(granted)
    }
}
