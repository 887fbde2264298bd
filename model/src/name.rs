//! The wire-safe tool name, with no dependencies.
//!
//! The platform keeps its tool-name check free of filesystem and UI code so that both
//! servers and browsers can import it; this module is the same: no allocation, no regex
//! engine, usable from `const` contexts.

/// The pattern every tool name matches, as the platform writes it.
pub const TOOL_NAME_PATTERN: &str = "^[a-zA-Z0-9_-]{1,48}$";

/// The longest tool name, in bytes (every accepted character is ASCII).
pub const TOOL_NAME_MAX_LEN: usize = 48;

/// Whether `name` matches [`TOOL_NAME_PATTERN`].
///
/// ```
/// use neuralis_model::name::is_wire_safe_tool_name;
/// assert!(is_wire_safe_tool_name("weather_forecast"));
/// assert!(is_wire_safe_tool_name("catalog-list-2"));
/// assert!(!is_wire_safe_tool_name(""));
/// assert!(!is_wire_safe_tool_name("weather.forecast"));
/// assert!(!is_wire_safe_tool_name(&"a".repeat(49)));
/// ```
#[must_use]
pub const fn is_wire_safe_tool_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes.len() > TOOL_NAME_MAX_LEN {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
            return false;
        }
        i += 1;
    }
    true
}

/// Why a name is not wire-safe: the one reading of `tool-name`, which the JSON check and
/// the `#[tool]` attribute both word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameProblem {
    /// The name is empty.
    Empty,
    /// The name is longer than [`TOOL_NAME_MAX_LEN`]: this many characters.
    TooLong(usize),
    /// The name has a character other than ASCII letters, digits, `_` and `-`.
    Characters,
}

impl NameProblem {
    /// What is wrong with `name`; `None` when it is wire-safe.
    ///
    /// ```
    /// use neuralis_model::name::NameProblem;
    /// assert_eq!(NameProblem::of("weather_forecast"), None);
    /// assert_eq!(NameProblem::of(""), Some(NameProblem::Empty));
    /// assert_eq!(NameProblem::of(&"a".repeat(49)), Some(NameProblem::TooLong(49)));
    /// assert_eq!(NameProblem::of("a b"), Some(NameProblem::Characters));
    /// assert_eq!(NameProblem::of("a b").map(|p| p.to_string()).as_deref(),
    ///     Some("has characters other than ASCII letters, digits, `_` and `-`"));
    /// ```
    #[must_use]
    pub fn of(name: &str) -> Option<Self> {
        if is_wire_safe_tool_name(name) {
            return None;
        }
        let chars = name.chars().count();
        Some(if name.is_empty() {
            NameProblem::Empty
        } else if chars > TOOL_NAME_MAX_LEN {
            NameProblem::TooLong(chars)
        } else {
            NameProblem::Characters
        })
    }
}

impl std::fmt::Display for NameProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NameProblem::Empty => f.write_str("is empty"),
            NameProblem::TooLong(n) => {
                write!(f, "is {n} characters long, above {TOOL_NAME_MAX_LEN}")
            }
            NameProblem::Characters => {
                f.write_str("has characters other than ASCII letters, digits, `_` and `-`")
            }
        }
    }
}

/// The one file a tools directory holds beside the tool files: every tool's output
/// schema, as `neuralis outputs` prints it (`{"<tool>": <outputSchema or null>}`), for
/// `neuralis diff` to compare outputs too. It is not a tool: loading, checking and the
/// build's stale-file sweep pass it by ([`is_outputs_file`]).
pub const OUTPUTS_FILE: &str = "outputs.json";

/// Whether the file `file_name` of a tools directory, holding `bytes`, is its outputs
/// file ([`OUTPUTS_FILE`]) rather than a tool's: named so, and a JSON object with neither
/// `$schema` nor the `x-neuralis` block, which every tool file has (a tool named
/// `outputs` is still a tool).
///
/// ```
/// use neuralis_model::name::is_outputs_file;
/// assert!(is_outputs_file("outputs.json", br#"{"weather_forecast": null}"#));
/// assert!(!is_outputs_file("outputs.json", br#"{"$schema": "http://json-schema.org/draft-07/schema#", "x-neuralis": {}}"#));
/// assert!(!is_outputs_file("weather_forecast.json", br#"{"weather_forecast": null}"#));
/// ```
#[must_use]
pub fn is_outputs_file(file_name: &str, bytes: &[u8]) -> bool {
    file_name == OUTPUTS_FILE
        && serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(bytes)
            .is_ok_and(|doc| !doc.contains_key("$schema") && !doc.contains_key(crate::xn::BLOCK))
}

/// [`is_outputs_file`] of the file at `path`, read (a file that cannot be read is not one).
#[must_use]
pub fn is_outputs_path(path: &std::path::Path) -> bool {
    let file = path
        .file_name()
        .and_then(|f| f.to_str())
        .unwrap_or_default();
    file == OUTPUTS_FILE && std::fs::read(path).is_ok_and(|bytes| is_outputs_file(file, &bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_pattern() {
        let re = regex::Regex::new(TOOL_NAME_PATTERN).expect("pattern compiles");
        for name in [
            "a",
            "A_b-9",
            "",
            " a",
            "a b",
            "é",
            "a.b",
            "a/b",
            "x__y",
            "-",
            "_",
            "012345678901234567890123456789012345678901234567",
            "0123456789012345678901234567890123456789012345678",
        ] {
            assert_eq!(is_wire_safe_tool_name(name), re.is_match(name), "{name:?}");
        }
    }
}
