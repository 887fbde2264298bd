//! serde's `rename_all` case styles, applied exactly as serde applies them.

use std::fmt;

/// A `rename_all` style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenameRule {
    /// `lowercase`
    Lower,
    /// `UPPERCASE`
    Upper,
    /// `PascalCase`
    Pascal,
    /// `camelCase`
    Camel,
    /// `snake_case`
    Snake,
    /// `SCREAMING_SNAKE_CASE`
    ScreamingSnake,
    /// `kebab-case`
    Kebab,
    /// `SCREAMING-KEBAB-CASE`
    ScreamingKebab,
}

/// Every style with the spelling serde accepts.
pub const RENAME_RULES: &[(&str, RenameRule)] = &[
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

impl RenameRule {
    /// Parses a style as written in `rename_all = "..."`.
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        RENAME_RULES.iter().find(|(n, _)| *n == s).map(|(_, r)| *r)
    }

    /// The style as written in `rename_all = "..."`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        RENAME_RULES
            .iter()
            .find(|(_, r)| *r == self)
            .map_or("", |(n, _)| n)
    }

    /// Renames a variant name, written in `PascalCase` in Rust.
    #[must_use]
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            Self::Pascal => variant.to_owned(),
            Self::Lower => variant.to_ascii_lowercase(),
            Self::Upper => variant.to_ascii_uppercase(),
            Self::Camel => {
                let mut chars = variant.chars();
                chars.next().map_or_else(String::new, |c| {
                    c.to_ascii_lowercase().to_string() + chars.as_str()
                })
            }
            Self::Snake => {
                let mut out = String::new();
                for (i, c) in variant.char_indices() {
                    if i > 0 && c.is_uppercase() {
                        out.push('_');
                    }
                    out.push(c.to_ascii_lowercase());
                }
                out
            }
            Self::ScreamingSnake => Self::Snake.apply_to_variant(variant).to_ascii_uppercase(),
            Self::Kebab => Self::Snake.apply_to_variant(variant).replace('_', "-"),
            Self::ScreamingKebab => Self::ScreamingSnake
                .apply_to_variant(variant)
                .replace('_', "-"),
        }
    }

    /// Renames a field name, written in `snake_case` in Rust.
    #[must_use]
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            Self::Lower | Self::Snake => field.to_owned(),
            Self::Upper | Self::ScreamingSnake => field.to_ascii_uppercase(),
            Self::Pascal => {
                let mut out = String::new();
                let mut capitalize = true;
                for c in field.chars() {
                    if c == '_' {
                        capitalize = true;
                    } else if capitalize {
                        out.push(c.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        out.push(c);
                    }
                }
                out
            }
            Self::Camel => {
                let pascal = Self::Pascal.apply_to_field(field);
                let mut chars = pascal.chars();
                chars.next().map_or_else(String::new, |c| {
                    c.to_ascii_lowercase().to_string() + chars.as_str()
                })
            }
            Self::Kebab => field.replace('_', "-"),
            Self::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

/// The error for an unknown style: lists every accepted one.
#[derive(Debug)]
pub struct UnknownRule<'a>(pub &'a str);

impl fmt::Display for UnknownRule<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rename rule `rename_all = {:?}`, expected one of ",
            self.0
        )?;
        for (i, (name, _)) in RENAME_RULES.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{name:?}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::RenameRule::*;
    use super::*;

    #[test]
    fn variants() {
        for (original, lower, upper, camel, snake, screaming, kebab, screaming_kebab) in [
            (
                "Outcome", "outcome", "OUTCOME", "outcome", "outcome", "OUTCOME", "outcome",
                "OUTCOME",
            ),
            (
                "VeryTasty",
                "verytasty",
                "VERYTASTY",
                "veryTasty",
                "very_tasty",
                "VERY_TASTY",
                "very-tasty",
                "VERY-TASTY",
            ),
            ("A", "a", "A", "a", "a", "A", "a", "A"),
            ("Z42", "z42", "Z42", "z42", "z42", "Z42", "z42", "Z42"),
        ] {
            assert_eq!(Pascal.apply_to_variant(original), original);
            assert_eq!(Lower.apply_to_variant(original), lower);
            assert_eq!(Upper.apply_to_variant(original), upper);
            assert_eq!(Camel.apply_to_variant(original), camel);
            assert_eq!(Snake.apply_to_variant(original), snake);
            assert_eq!(ScreamingSnake.apply_to_variant(original), screaming);
            assert_eq!(Kebab.apply_to_variant(original), kebab);
            assert_eq!(ScreamingKebab.apply_to_variant(original), screaming_kebab);
        }
    }

    #[test]
    fn fields() {
        for (original, upper, pascal, camel, screaming, kebab, screaming_kebab) in [
            (
                "outcome", "OUTCOME", "Outcome", "outcome", "OUTCOME", "outcome", "OUTCOME",
            ),
            (
                "very_tasty",
                "VERY_TASTY",
                "VeryTasty",
                "veryTasty",
                "VERY_TASTY",
                "very-tasty",
                "VERY-TASTY",
            ),
            ("a", "A", "A", "a", "A", "a", "A"),
            ("z42", "Z42", "Z42", "z42", "Z42", "z42", "Z42"),
            (
                "user_id", "USER_ID", "UserId", "userId", "USER_ID", "user-id", "USER-ID",
            ),
        ] {
            assert_eq!(Lower.apply_to_field(original), original);
            assert_eq!(Snake.apply_to_field(original), original);
            assert_eq!(Upper.apply_to_field(original), upper);
            assert_eq!(Pascal.apply_to_field(original), pascal);
            assert_eq!(Camel.apply_to_field(original), camel);
            assert_eq!(ScreamingSnake.apply_to_field(original), screaming);
            assert_eq!(Kebab.apply_to_field(original), kebab);
            assert_eq!(ScreamingKebab.apply_to_field(original), screaming_kebab);
        }
    }

    #[test]
    fn round_trips_names() {
        for (name, rule) in RENAME_RULES {
            assert_eq!(RenameRule::parse(name), Some(*rule));
            assert_eq!(rule.as_str(), *name);
        }
        assert_eq!(RenameRule::parse("camelcase"), None);
        assert!(
            UnknownRule("x")
                .to_string()
                .contains("\"SCREAMING-KEBAB-CASE\"")
        );
    }
}
