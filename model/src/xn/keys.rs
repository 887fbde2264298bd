//! The keys of the `x-neuralis` block: the one table.
//!
//! Each key is written here once, with its level, its name on the wire, its name in the
//! `#[tool(...)]` attribute, its kind, and a sample value for the attribute's messages.
//! Everything that knows the layout reads this table: the checker (`xn-unknown-key`,
//! `xn-type`), the canonical writer's key order, the attribute's parser, the renderer's
//! pointers. [`XNeuralis`](super::XNeuralis) is the same layout as a Rust type; a test keeps
//! its serde names equal to this table, level by level and in order.

use crate::contract::push_pointer;

/// The block's name, written once: [`BLOCK`] and [`BLOCK_POINTER`] are made from it.
macro_rules! block_name {
    () => {
        "x-neuralis"
    };
}

/// The block's own key in a tool document's root.
pub const BLOCK: &str = block_name!();

/// The JSON pointer of the block in a tool document.
pub const BLOCK_POINTER: &str = concat!("/", block_name!());

/// A level of the block: the block itself, or one of the objects it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// The block itself.
    Block,
    /// `annotations`.
    Annotations,
    /// `ui`.
    Ui,
    /// `requires`.
    Requires,
}

/// What a key's value is (`xn-type`), and how the attribute writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A string: `key = "..."`.
    Text,
    /// A boolean: `key` (true) or `key = false`.
    Flag,
    /// A non-negative integer: `key = 2000`.
    Count,
    /// One of [`CATEGORIES`](super::CATEGORIES) (judged by `category-invalid`, not
    /// `xn-type`).
    Category,
    /// One of [`PRESENTATIONS`](super::PRESENTATIONS).
    Presentation,
    /// An object of default arguments, keyed by root property: `key(name = value, ...)`.
    Defaults,
    /// An array of strings, root input keys: `key(name, "name", ...)`.
    Keys,
    /// An array of distinct, non-empty strings: `key("a", "b")`.
    Entries,
    /// An object: the level of that name, `key(...)`.
    Level(Level),
}

impl Kind {
    /// Whether the attribute writes the value in parentheses (`key(...)`) rather than after
    /// `=`.
    #[must_use]
    pub const fn is_list(self) -> bool {
        matches!(
            self,
            Kind::Defaults | Kind::Keys | Kind::Entries | Kind::Level(_)
        )
    }
}

/// One key of the block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    /// The level that holds it.
    pub level: Level,
    /// Its name on the wire (in the tool file).
    pub name: &'static str,
    /// Its name in the `#[tool(...)]` attribute.
    pub attr: &'static str,
    /// What its value is.
    pub kind: Kind,
    /// A sample value as the attribute writes it (after `=`, or the parenthesized list),
    /// for messages; empty for a flag and a level.
    pub example: &'static str,
}

impl Key {
    /// The key's JSON pointer in a tool document.
    ///
    /// ```
    /// use neuralis_model::xn::keys;
    /// assert_eq!(keys::ASK_ON_KEYS.pointer(), "/x-neuralis/askOnKeys");
    /// assert_eq!(keys::CARD_TYPE.pointer(), "/x-neuralis/ui/cardType");
    /// ```
    #[must_use]
    pub fn pointer(&self) -> String {
        push_pointer(&self.level.pointer(), self.name)
    }

    /// The attribute's example: `key = value`, or `key(...)` for a list.
    ///
    /// ```
    /// use neuralis_model::xn::keys;
    /// assert_eq!(keys::FAMILY.attr_example(), r#"family = "weather""#);
    /// assert_eq!(keys::FEATURES.attr_example(), r#"features("weather.read")"#);
    /// ```
    #[must_use]
    pub fn attr_example(&self) -> String {
        if self.kind.is_list() {
            format!("{}{}", self.attr, self.example)
        } else {
            format!("{} = {}", self.attr, self.example)
        }
    }
}

macro_rules! keys {
    ($(
        $level:ident {$(
            $(#[$doc:meta])*
            $konst:ident = $name:literal, $attr:literal, $kind:expr, $example:literal;
        )*}
    )*) => {
        $($(
            $(#[$doc])*
            pub const $konst: Key = Key {
                level: Level::$level,
                name: $name,
                attr: $attr,
                kind: $kind,
                example: $example,
            };
        )*)*

        /// Every key, level by level, each level in the contract's order (which is the
        /// canonical writer's).
        pub const KEYS: &[Key] = &[$($($konst,)*)*];

        impl Level {
            /// Every level, the block first.
            pub const ALL: &'static [Level] = &[$(Level::$level,)*];

            /// The keys of this level, in the contract's order.
            #[must_use]
            pub const fn keys(self) -> &'static [Key] {
                match self { $(Level::$level => &[$($konst,)*],)* }
            }

            /// The wire names of this level's keys, in the contract's order: what
            /// `xn-unknown-key` knows and the order the canonical writer keeps.
            #[must_use]
            pub const fn names(self) -> &'static [&'static str] {
                match self { $(Level::$level => &[$($name,)*],)* }
            }

            /// The attribute's names of this level's keys, in the same order.
            #[must_use]
            pub const fn attrs(self) -> &'static [&'static str] {
                match self { $(Level::$level => &[$($attr,)*],)* }
            }
        }
    };
}

keys! {
    Block {
        /// `family`: the tool family (`catalog`), grouping related tools.
        FAMILY = "family", "family", Kind::Text, "\"weather\"";
        /// `operation`: the operation id (`catalog.list`).
        OPERATION = "operation", "operation", Kind::Text, "\"weather.forecast\"";
        /// `transport`: how the handler is reached (`embedded`).
        TRANSPORT = "transport", "transport", Kind::Text, "\"embedded\"";
        /// `defaults`: default arguments, keyed by root property.
        DEFAULTS = "defaults", "defaults", Kind::Defaults, "(days = 3)";
        /// `annotations`: the MCP hints, the risk category, duration, cancellation.
        ANNOTATIONS = "annotations", "annotations", Kind::Level(Level::Annotations), "";
        /// `ui`: how results render.
        UI = "ui", "ui", Kind::Level(Level::Ui), "";
        /// `requires`: feature gating.
        REQUIRES = "requires", "requires", Kind::Level(Level::Requires), "";
        /// `askOnKeys`: root input keys whose presence in a call asks for approval.
        ASK_ON_KEYS = "askOnKeys", "ask_on_keys", Kind::Keys, "(\"delete\")";
    }
    Annotations {
        /// `annotations.title`: a human title.
        TITLE = "title", "title", Kind::Text, "\"Weather Forecast\"";
        /// `annotations.readOnlyHint`: the tool does not change its environment.
        READ_ONLY_HINT = "readOnlyHint", "read_only", Kind::Flag, "";
        /// `annotations.destructiveHint`: the tool may destroy or overwrite data.
        DESTRUCTIVE_HINT = "destructiveHint", "destructive", Kind::Flag, "";
        /// `annotations.idempotentHint`: a second identical call has no further effect.
        IDEMPOTENT_HINT = "idempotentHint", "idempotent", Kind::Flag, "";
        /// `annotations.openWorldHint`: the tool reaches an open world (the internet).
        OPEN_WORLD_HINT = "openWorldHint", "open_world", Kind::Flag, "";
        /// `annotations.category`: the risk category.
        CATEGORY = "category", "category", Kind::Category, "\"read\"";
        /// `annotations.estimatedDurationMs`: the expected duration in milliseconds.
        ESTIMATED_DURATION_MS = "estimatedDurationMs", "estimated_duration_ms", Kind::Count, "2000";
        /// `annotations.cancellable`: the handler honours an abort signal promptly.
        CANCELLABLE = "cancellable", "cancellable", Kind::Flag, "";
    }
    Ui {
        /// `ui.presentation`: the explicit presentation.
        PRESENTATION = "presentation", "presentation", Kind::Presentation, "\"card\"";
        /// `ui.cardType`: the card type a result routes to.
        CARD_TYPE = "cardType", "card_type", Kind::Text, "\"weather.result\"";
        /// `ui.icon`: an icon name.
        ICON = "icon", "icon", Kind::Text, "\"cloud-sun\"";
    }
    Requires {
        /// `requires.features`: features a caller must be granted, every one.
        FEATURES = "features", "features", Kind::Entries, "(\"weather.read\")";
        /// `requires.escalations`: features a handler may demand depending on its input.
        ESCALATIONS = "escalations", "escalations", Kind::Entries, "(\"weather.read\")";
    }
}

impl Level {
    /// The key of the block that holds this level (`None` for the block itself).
    ///
    /// ```
    /// use neuralis_model::xn::{Level, keys};
    /// assert_eq!(Level::Ui.key(), Some(&keys::UI));
    /// assert_eq!(Level::Block.key(), None);
    /// ```
    #[must_use]
    pub fn key(self) -> Option<&'static Key> {
        Level::Block
            .keys()
            .iter()
            .find(|k| k.kind == Kind::Level(self))
    }

    /// The level's JSON pointer in a tool document.
    ///
    /// ```
    /// use neuralis_model::xn::Level;
    /// assert_eq!(Level::Block.pointer(), "/x-neuralis");
    /// assert_eq!(Level::Annotations.pointer(), "/x-neuralis/annotations");
    /// ```
    #[must_use]
    pub fn pointer(self) -> String {
        match self.key() {
            Some(key) => push_pointer(BLOCK_POINTER, key.name),
            None => BLOCK_POINTER.to_owned(),
        }
    }

    /// The key of this level named `name` on the wire.
    ///
    /// ```
    /// use neuralis_model::xn::{Level, keys};
    /// assert_eq!(Level::Ui.find("cardType"), Some(&keys::CARD_TYPE));
    /// assert_eq!(Level::Ui.find("card_type"), None);
    /// ```
    #[must_use]
    pub fn find(self, name: &str) -> Option<&'static Key> {
        self.keys().iter().find(|k| k.name == name)
    }

    /// The key of this level named `attr` in the attribute.
    ///
    /// ```
    /// use neuralis_model::xn::{Level, keys};
    /// assert_eq!(Level::Ui.find_attr("card_type"), Some(&keys::CARD_TYPE));
    /// ```
    #[must_use]
    pub fn find_attr(self, attr: &str) -> Option<&'static Key> {
        self.keys().iter().find(|k| k.attr == attr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_per_level_and_levels_are_held_once() {
        for level in Level::ALL {
            let keys = level.keys();
            for (i, k) in keys.iter().enumerate() {
                assert_eq!(k.level, *level, "{}", k.name);
                assert!(
                    keys[..i]
                        .iter()
                        .all(|o| o.name != k.name && o.attr != k.attr)
                );
            }
            assert_eq!(level.names().len(), keys.len());
            assert_eq!(level.attrs().len(), keys.len());
            if *level != Level::Block {
                assert!(level.key().is_some(), "{level:?} is held by a key");
            }
        }
        assert_eq!(
            KEYS.len(),
            Level::ALL.iter().map(|l| l.keys().len()).sum::<usize>()
        );
    }

    #[test]
    fn examples_are_given_where_messages_use_them() {
        for key in KEYS {
            let needs = !matches!(key.kind, Kind::Flag | Kind::Level(_));
            assert_eq!(!key.example.is_empty(), needs, "{}", key.name);
        }
    }

    /// `docs/contract.md` lists the same keys per level, in the same order
    /// (`xn-unknown-key`'s row).
    #[test]
    fn the_contract_document_lists_the_table() {
        let contract = include_str!("../../../docs/contract.md");
        let row = contract
            .lines()
            .find(|l| l.starts_with("| `xn-unknown-key` |"))
            .expect("the xn-unknown-key row");
        let ticked = |text: &str| -> Vec<String> {
            text.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_owned)
                .collect()
        };
        let (_, rest) = row
            .split_once("no others, at every level:")
            .expect("the list");
        let mut parts = rest.split("; in ");
        let block = ticked(parts.next().unwrap_or_default());
        assert_eq!(block, Level::Block.names());
        for part in parts {
            let (level, keys) = part.split_once(':').expect("`level`: keys");
            let level = ticked(level);
            let key = Level::Block.find(&level[0]).expect("a level key");
            let Kind::Level(l) = key.kind else {
                panic!("{} is no level", key.name)
            };
            assert_eq!(ticked(keys), l.names(), "{}", key.name);
        }
    }
}
