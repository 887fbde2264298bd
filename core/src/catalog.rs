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
use serde_json::{Map, Value};

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
    /// The input schema as a client and its model are shown it (MCP `inputSchema`): the
    /// normalized schema without `$schema` (the dialect is draft-07 by the contract, and a
    /// client validating with another draft's meta-schema would refuse the URI) and
    /// without `x-neuralis` (the package's business), each root property named in
    /// `x-neuralis.defaults` carrying that value as its `default`, so the model knows
    /// what leaving the argument out means. Every host's listing of a tool is this one
    /// projection (`neuralis-mcp`'s `tools/list`); the `mcp-remote` platform's subset has
    /// no `default` and drops it (`neuralis_core::remote::lower`), while the handler
    /// still applies it.
    ///
    /// ```
    /// use neuralis_core::catalog::ToolEntry;
    /// use serde_json::json;
    ///
    /// let schema = json!({
    ///     "$schema": "http://json-schema.org/draft-07/schema#",
    ///     "type": "object", "additionalProperties": false, "description": "Forecast.",
    ///     "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    ///     "required": ["city"],
    ///     "x-neuralis": {"defaults": {"days": 3}, "annotations": {"category": "read"}}
    /// });
    /// let entry = ToolEntry {
    ///     name: "forecast".into(),
    ///     meta: serde_json::from_value(schema["x-neuralis"].clone()).expect("a valid block"),
    ///     schema,
    /// };
    /// assert_eq!(serde_json::Value::Object(entry.input_schema()), json!({
    ///     "type": "object", "additionalProperties": false, "description": "Forecast.",
    ///     "properties": {"city": {"type": "string"}, "days": {"type": "integer", "default": 3}},
    ///     "required": ["city"]
    /// }));
    /// ```
    #[must_use]
    pub fn input_schema(&self) -> Map<String, Value> {
        let mut schema = match &self.schema {
            Value::Object(map) => map.clone(),
            _ => Map::new(),
        };
        schema.remove("$schema");
        schema.remove(crate::xn::BLOCK);
        if let Some(Value::Object(properties)) = schema.get_mut("properties") {
            // `defaults-undeclared` holds each key to a root property whose schema
            // accepts the value; the value the handler fills in is the one to show, over
            // a `default` the property may state itself.
            for (key, value) in &self.meta.defaults {
                if let Some(Value::Object(property)) = properties.get_mut(key) {
                    property.insert("default".into(), value.clone());
                }
            }
        }
        schema
    }

    /// The tool's contract digest ([`contract_digest`] of its document). Feature
    /// `digest`.
    #[cfg(feature = "digest")]
    #[must_use]
    pub fn digest(&self) -> String {
        contract_digest(&self.schema)
    }

    /// See [`ToolMeta::effective_presentation`].
    #[must_use]
    pub fn effective_presentation(&self) -> Presentation {
        self.meta.effective_presentation()
    }

    /// See [`ToolMeta::asks_for_approval`]; a `null` for a key this tool's schema does
    /// not require (and whose schema refuses `null`) is a key not sent, as the call
    /// pipeline reads it ([`absent_nulls`](crate::dialect::absent_nulls)).
    #[must_use]
    pub fn asks_for_approval(&self, args: &Value) -> bool {
        if args.is_object() {
            let mut args = args.clone();
            if crate::dialect::absent_nulls(&self.schema, &mut args) > 0 {
                return self.meta.asks_for_approval(&args);
            }
        }
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

/// A tool's contract digest: `sha256:` and the hex SHA-256 of the document's canonical
/// text ([`to_canonical_string`](crate::schema::to_canonical_string), the bytes
/// `cargo build` writes into `tools/`, `x-neuralis` included), the same on every build and
/// platform. A client that pins it can tell that a tool changed under it: its arguments,
/// its description or who must approve it. `neuralis check --digests` prints it for each
/// file; `neuralis-mcp` serves it in each tool's `_meta` (`io.neuralis/digest`). Feature
/// `digest`.
///
/// ```
/// let doc = serde_json::json!({"type": "object", "additionalProperties": false,
///     "properties": {}, "x-neuralis": {"annotations": {"category": "read"}}});
/// let digest = neuralis_core::catalog::contract_digest(&doc);
/// assert!(digest.starts_with("sha256:") && digest.len() == 7 + 64);
/// // Key order is not the document's identity: the canonical text is.
/// let same = serde_json::json!({"x-neuralis": {"annotations": {"category": "read"}},
///     "properties": {}, "additionalProperties": false, "type": "object"});
/// assert_eq!(neuralis_core::catalog::contract_digest(&same), digest);
/// ```
#[cfg(feature = "digest")]
#[must_use]
pub fn contract_digest(document: &Value) -> String {
    use sha2::{Digest as _, Sha256};
    use std::fmt::Write as _;
    let text = crate::schema::to_canonical_string(document);
    let hash = Sha256::digest(text.as_bytes());
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for byte in hash {
        let _ = write!(out, "{byte:02x}");
    }
    out
}
