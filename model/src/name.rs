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
