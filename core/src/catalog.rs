//! The typed catalog: the `x-neuralis` block of a tool, and its run-time meanings.
//!
//! A [`ToolEntry`] is one loaded tool: its name, its normalized schema and its [`ToolMeta`].
//! The meanings section 4 of the contract gives the block at run time live here:
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

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The `x-neuralis` block of a tool, typed.
///
/// Field order is the canonical order of the block, so serializing a `ToolMeta` writes the
/// keys as the canonical writer would. Absent optional keys stay absent when serialized.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolMeta {
    /// The tool family (`catalog`), grouping related tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// The operation id (`catalog.list`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// How the handler is reached (`embedded`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<String>,
    /// Default arguments, keyed by root property, in document order.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub defaults: Map<String, Value>,
    /// The annotations (MCP hints, risk category, duration, cancellation).
    #[serde(default)]
    pub annotations: Annotations,
    /// How results render.
    #[serde(default, skip_serializing_if = "Ui::is_empty")]
    pub ui: Ui,
    /// Feature gating.
    #[serde(default, skip_serializing_if = "Requires::is_empty")]
    pub requires: Requires,
    /// Root input keys whose presence in a call asks for approval.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ask_on_keys: Vec<String>,
}

/// `x-neuralis.annotations`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Annotations {
    /// A human title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not change its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may destroy or overwrite data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling twice with the same arguments has no further effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool reaches an open world (the internet) rather than a closed one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
    /// The risk category. Absent reads as [`Category::Unknown`] (the checker requires it on
    /// natively authored tools: `category-missing`).
    #[serde(default)]
    pub category: Category,
    /// The expected duration in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_duration_ms: Option<u64>,
    /// The handler honours an abort signal promptly (only then is it given one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancellable: Option<bool>,
}

/// The risk category of a tool (`annotations.category`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    /// Reads data.
    Read,
    /// Writes data.
    Write,
    /// Executes code.
    Execute,
    /// Reaches the network.
    Network,
    /// Acts on a machine.
    Machine,
    /// Touches credentials.
    Credential,
    /// Administers the platform.
    Admin,
    /// Not classified: every call asks for approval. Imported tools default to it.
    #[default]
    Unknown,
}

impl Category {
    /// Every category, in the contract's order.
    pub const ALL: &'static [Category] = &[
        Category::Read,
        Category::Write,
        Category::Execute,
        Category::Network,
        Category::Machine,
        Category::Credential,
        Category::Admin,
        Category::Unknown,
    ];

    /// The wire name (`read`, `write`, ...).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Category::Read => "read",
            Category::Write => "write",
            Category::Execute => "execute",
            Category::Network => "network",
            Category::Machine => "machine",
            Category::Credential => "credential",
            Category::Admin => "admin",
            Category::Unknown => "unknown",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `x-neuralis.ui`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Ui {
    /// The explicit presentation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub presentation: Option<Presentation>,
    /// The card type a result routes to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_type: Option<String>,
    /// An icon name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
}

impl Ui {
    /// Whether no key is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.presentation.is_none() && self.card_type.is_none() && self.icon.is_none()
    }
}

/// How a tool's result renders in chat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Presentation {
    /// In line with the conversation.
    Inline,
    /// The compact explored style.
    Explored,
    /// A card.
    Card,
}

impl Presentation {
    /// The wire name (`inline`, `explored`, `card`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Presentation::Inline => "inline",
            Presentation::Explored => "explored",
            Presentation::Card => "card",
        }
    }
}

impl fmt::Display for Presentation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `x-neuralis.requires`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Requires {
    /// Features a caller must be granted, every one, to see or call the tool.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
    /// Features a handler may demand depending on its input: catalog metadata only, no gate.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub escalations: Vec<String>,
}

impl Requires {
    /// Whether neither list has an entry.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.features.is_empty() && self.escalations.is_empty()
    }
}

impl ToolMeta {
    /// Reads the `x-neuralis` block of a tool document.
    ///
    /// # Errors
    ///
    /// When the document has no `x-neuralis`, or the block does not have the contract's shape
    /// (the checker reports the same as `xn-missing`, `xn-type`, `xn-unknown-key`,
    /// `category-invalid`).
    pub fn from_schema(schema: &Value) -> Result<Self, serde_json::Error> {
        match schema.get("x-neuralis") {
            Some(block) => Self::deserialize(block),
            None => Err(serde::de::Error::missing_field("x-neuralis")),
        }
    }

    /// The effective presentation: explicit `ui.presentation`, else [`Presentation::Card`]
    /// when `ui.cardType` is set, else [`Presentation::Explored`] when `readOnlyHint` is
    /// true, else [`Presentation::Inline`].
    ///
    /// ```
    /// use neuralis_core::catalog::{Presentation, ToolMeta};
    /// let mut meta = ToolMeta::default();
    /// assert_eq!(meta.effective_presentation(), Presentation::Inline);
    /// meta.annotations.read_only_hint = Some(true);
    /// assert_eq!(meta.effective_presentation(), Presentation::Explored);
    /// meta.ui.card_type = Some("weather.result".into());
    /// assert_eq!(meta.effective_presentation(), Presentation::Card);
    /// meta.ui.presentation = Some(Presentation::Inline);
    /// assert_eq!(meta.effective_presentation(), Presentation::Inline);
    /// ```
    #[must_use]
    pub fn effective_presentation(&self) -> Presentation {
        if let Some(p) = self.ui.presentation {
            p
        } else if self.ui.card_type.is_some() {
            Presentation::Card
        } else if self.annotations.read_only_hint == Some(true) {
            Presentation::Explored
        } else {
            Presentation::Inline
        }
    }

    /// Whether the tool's own declaration makes this call ask for approval.
    ///
    /// True when the category is [`Category::Unknown`] (unknown always asks), or when `args`
    /// *sends* a key listed in `askOnKeys`: presence is the signal, so `{"delete": false}`
    /// asks too, and values are never read. `args` that is not an object sends no key.
    ///
    /// False does not grant anything: it means the declaration adds no ask, and the guard
    /// profile's floor for the category decides. `askOnKeys` can only make a call ask.
    ///
    /// ```
    /// use neuralis_core::catalog::{Category, ToolMeta};
    /// use serde_json::json;
    /// let mut meta = ToolMeta::default();
    /// meta.annotations.category = Category::Write;
    /// meta.ask_on_keys = vec!["delete".into()];
    /// assert!(meta.asks_for_approval(&json!({ "delete": false })));
    /// assert!(meta.asks_for_approval(&json!({ "delete": null })));
    /// assert!(!meta.asks_for_approval(&json!({ "title": "x" })));
    /// meta.annotations.category = Category::Unknown;
    /// assert!(meta.asks_for_approval(&json!({})));
    /// ```
    #[must_use]
    pub fn asks_for_approval(&self, args: &Value) -> bool {
        if self.annotations.category == Category::Unknown {
            return true;
        }
        let Some(sent) = args.as_object() else {
            return false;
        };
        self.ask_on_keys.iter().any(|k| sent.contains_key(k))
    }

    /// The feature gate: whether `granted` includes every feature in `requires.features`.
    ///
    /// A caller for whom this is false never sees the tool (catalog, MCP listing, client
    /// snapshot), and a direct dispatch is refused as if the tool did not exist.
    /// `requires.escalations` is catalog metadata only and gates nothing.
    ///
    /// ```
    /// use neuralis_core::catalog::ToolMeta;
    /// let mut meta = ToolMeta::default();
    /// assert!(meta.features_satisfied(std::iter::empty::<&str>()));
    /// meta.requires.features = vec!["weather.read".into()];
    /// meta.requires.escalations = vec!["weather.admin".into()];
    /// assert!(meta.features_satisfied(["weather.read"]));
    /// assert!(!meta.features_satisfied(["weather.admin"]));
    /// ```
    #[must_use]
    pub fn features_satisfied<I, S>(&self, granted: I) -> bool
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        if self.requires.features.is_empty() {
            return true;
        }
        let granted: Vec<S> = granted.into_iter().collect();
        self.requires
            .features
            .iter()
            .all(|f| granted.iter().any(|g| g.as_ref() == f))
    }
}

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
