//! The `x-neuralis` block typed, and its run-time meanings (section 4 of the contract).

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::keys::BLOCK;

/// An enum of wire names: the type, its `ALL`, `as_str`, `from_wire`, `Display`, and the
/// list of names, from one list.
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident, names $names:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $wire:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $( $(#[$vmeta])* #[serde(rename = $wire)] $variant, )*
        }

        #[doc = concat!("The wire names of [`", stringify!($name), "`], in the contract's order.")]
        pub const $names: &[&str] = &[$($wire,)*];

        impl $name {
            /// Every value, in the contract's order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The wire name.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self { $($name::$variant => $wire,)* }
            }

            /// The value of a wire name; `None` for any other string.
            #[must_use]
            pub fn from_wire(name: &str) -> Option<Self> {
                match name { $($wire => Some($name::$variant),)* _ => None }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

wire_enum! {
    /// The risk category of a tool (`annotations.category`).
    ///
    /// ```
    /// use neuralis_model::xn::Category;
    /// assert_eq!(Category::from_wire("write"), Some(Category::Write));
    /// assert_eq!(Category::from_wire("Write"), None);
    /// assert_eq!(Category::Network.to_string(), "network");
    /// ```
    #[derive(Default)]
    pub enum Category, names CATEGORIES {
        /// Reads data.
        Read = "read",
        /// Writes data.
        Write = "write",
        /// Executes code.
        Execute = "execute",
        /// Reaches the network.
        Network = "network",
        /// Acts on a machine.
        Machine = "machine",
        /// Touches credentials.
        Credential = "credential",
        /// Administers the platform.
        Admin = "admin",
        /// Not classified: every call asks for approval. Imported tools default to it.
        #[default]
        Unknown = "unknown",
    }
}

wire_enum! {
    /// How a tool's result renders in chat (`ui.presentation`).
    ///
    /// ```
    /// use neuralis_model::xn::Presentation;
    /// assert_eq!(Presentation::from_wire("card"), Some(Presentation::Card));
    /// assert_eq!(Presentation::from_wire("modal"), None);
    /// ```
    pub enum Presentation, names PRESENTATIONS {
        /// In line with the conversation.
        Inline = "inline",
        /// The compact explored style.
        Explored = "explored",
        /// A card.
        Card = "card",
    }
}

/// The `x-neuralis` block of a tool, typed (`neuralis_core::catalog::ToolMeta`).
///
/// The fields are the keys of [`keys`](super::keys), level by level and in its order, so
/// serializing writes the keys as the canonical writer orders them. Absent optional keys
/// stay absent when serialized; `annotations` is always written (its `category` reads as
/// [`Category::Unknown`] when absent).
///
/// ```
/// use neuralis_model::xn::{Category, Presentation, XNeuralis};
/// use serde_json::json;
///
/// let meta: XNeuralis = serde_json::from_value(json!({
///     "family": "notes",
///     "annotations": { "destructiveHint": true, "category": "write" },
///     "requires": { "features": ["notes.write"] },
///     "askOnKeys": ["delete"]
/// }))
/// .expect("a valid block");
/// assert_eq!(meta.annotations.category, Category::Write);
/// assert_eq!(meta.effective_presentation(), Presentation::Inline);
/// assert!(meta.asks_for_approval(&json!({ "delete": false })));
/// assert!(!meta.asks_for_approval(&json!({ "title": "x" })));
/// assert!(meta.features_satisfied(["notes.write", "notes.read"]));
/// assert!(!meta.features_satisfied(["notes.read"]));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct XNeuralis {
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

impl XNeuralis {
    /// Reads the `x-neuralis` block of a tool document.
    ///
    /// # Errors
    ///
    /// When the document has no `x-neuralis`, or the block does not have the contract's shape
    /// (the checker reports the same as `xn-missing`, `xn-type`, `xn-unknown-key`,
    /// `category-invalid`).
    ///
    /// ```
    /// use neuralis_model::xn::XNeuralis;
    /// use serde_json::json;
    /// let doc = json!({ "x-neuralis": { "annotations": { "category": "read" } } });
    /// assert!(XNeuralis::from_schema(&doc).is_ok());
    /// assert!(XNeuralis::from_schema(&json!({})).is_err());
    /// ```
    pub fn from_schema(schema: &Value) -> Result<Self, serde_json::Error> {
        match schema.get(BLOCK) {
            Some(block) => Self::deserialize(block),
            None => Err(serde::de::Error::missing_field(BLOCK)),
        }
    }

    /// The block as JSON: the keys the value holds, in the canonical order.
    ///
    /// ```
    /// use neuralis_model::xn::XNeuralis;
    /// let mut meta = XNeuralis::default();
    /// meta.family = Some("weather".into());
    /// assert_eq!(
    ///     meta.to_value().to_string(),
    ///     r#"{"family":"weather","annotations":{"category":"unknown"}}"#
    /// );
    /// ```
    #[must_use]
    pub fn to_value(&self) -> Value {
        // Strings, booleans, integers and a map of JSON values: serializing cannot fail.
        serde_json::to_value(self).unwrap_or_else(|_| Value::Object(Map::new()))
    }

    /// The effective presentation: explicit `ui.presentation`, else [`Presentation::Card`]
    /// when `ui.cardType` is set, else [`Presentation::Explored`] when `readOnlyHint` is
    /// true, else [`Presentation::Inline`].
    ///
    /// ```
    /// use neuralis_model::xn::{Presentation, XNeuralis};
    /// let mut meta = XNeuralis::default();
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
    /// use neuralis_model::xn::{Category, XNeuralis};
    /// use serde_json::json;
    /// let mut meta = XNeuralis::default();
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
    /// use neuralis_model::xn::XNeuralis;
    /// let mut meta = XNeuralis::default();
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
        self.features_granted(|f| granted.iter().any(|g| g.as_ref() == f))
    }

    /// The feature gate asked feature by feature: whether `is_granted` holds for every
    /// feature in `requires.features`. [`features_satisfied`](Self::features_satisfied) is
    /// this over a list of grants; a host that already holds its caller's grants (a session)
    /// asks it directly, collecting nothing per call.
    ///
    /// ```
    /// use neuralis_model::xn::XNeuralis;
    /// let mut meta = XNeuralis::default();
    /// meta.requires.features = vec!["weather.read".into()];
    /// assert!(meta.features_granted(|f| f.starts_with("weather.")));
    /// assert!(!meta.features_granted(|f| f == "notes.read"));
    /// ```
    #[must_use]
    pub fn features_granted(&self, mut is_granted: impl FnMut(&str) -> bool) -> bool {
        self.requires.features.iter().all(|f| is_granted(f))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::xn::keys::{KEYS, Kind, Level};

    /// A value of each key's kind, for a block with every key.
    fn sample(kind: Kind) -> Value {
        match kind {
            Kind::Text => json!("x"),
            Kind::Flag => json!(true),
            Kind::Count => json!(1),
            Kind::Category => json!(CATEGORIES[0]),
            Kind::Presentation => json!(PRESENTATIONS[0]),
            Kind::Defaults => json!({ "days": 3 }),
            Kind::Keys | Kind::Entries => json!(["a"]),
            Kind::Level(level) => Value::Object(full(level)),
        }
    }

    fn full(level: Level) -> Map<String, Value> {
        KEYS.iter()
            .filter(|k| k.level == level)
            .map(|k| (k.name.to_owned(), sample(k.kind)))
            .collect()
    }

    fn names(value: &Value) -> Vec<&str> {
        value
            .as_object()
            .map(|m| m.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    /// The serde names are the table's, level by level and in its order: a block with every
    /// key of the table reads, and writes back key for key in the same order.
    #[test]
    fn the_type_is_the_table() {
        let block = Value::Object(full(Level::Block));
        let typed: XNeuralis = serde_json::from_value(block.clone()).expect("every key types");
        let back = typed.to_value();
        assert_eq!(back, block);
        assert_eq!(names(&back), Level::Block.names());
        for level in Level::ALL.iter().filter(|l| **l != Level::Block) {
            let key = level.key().expect("a level key");
            assert_eq!(names(&back[key.name]), level.names(), "{}", key.name);
        }
        // And a key the table does not know is refused at every level.
        for level in Level::ALL {
            let mut block = full(Level::Block);
            let at = match level.key() {
                Some(key) => block.get_mut(key.name).and_then(Value::as_object_mut),
                None => Some(&mut block),
            };
            at.expect("the level").insert("zeta".into(), json!(1));
            assert!(serde_json::from_value::<XNeuralis>(Value::Object(block)).is_err());
        }
    }

    #[test]
    fn every_category_and_presentation_has_its_wire_name() {
        for (c, name) in Category::ALL.iter().zip(CATEGORIES) {
            assert_eq!(c.as_str(), *name);
            assert_eq!(serde_json::to_value(c).ok(), Some(json!(name)));
            assert_eq!(Category::from_wire(name), Some(*c));
        }
        for (p, name) in Presentation::ALL.iter().zip(PRESENTATIONS) {
            assert_eq!(serde_json::to_value(p).ok(), Some(json!(name)));
            assert_eq!(Presentation::from_wire(name), Some(*p));
        }
        assert_eq!(Category::ALL.len(), CATEGORIES.len());
        assert_eq!(Presentation::ALL.len(), PRESENTATIONS.len());
    }
}
