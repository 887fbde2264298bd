//! Message helpers: suggestions, value and pointer rendering.

use serde_json::Value;

pub use crate::suggest::did_you_mean;

pub(super) fn list(items: &[&str]) -> String {
    items
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A value for a message: strings bare, other values as JSON, long ones cut.
pub(super) fn short(value: &Value) -> String {
    let text = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}

pub(super) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "`null`".to_owned(),
        Value::Bool(b) => format!("the boolean `{b}`"),
        Value::Number(n) => format!("the number `{n}`"),
        Value::String(s) if s.is_empty() => "an empty string".to_owned(),
        Value::String(_) => format!("the string `{}`", short(value)),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// A pointer as a dotted path for messages (`/x-neuralis/ui` → `x-neuralis.ui`).
pub(super) fn display_pointer(pointer: &str) -> String {
    if pointer.is_empty() {
        return "the document".to_owned();
    }
    pointer
        .trim_start_matches('/')
        .split('/')
        .map(crate::contract::unescape_token)
        .collect::<Vec<_>>()
        .join(".")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xn::Level;

    #[test]
    fn did_you_mean_needs_a_close_name() {
        assert_eq!(did_you_mean("famly", Level::Block.names()), Some("family"));
        assert_eq!(
            did_you_mean("ASKONKEYS", Level::Block.names()),
            Some("askOnKeys")
        );
        assert_eq!(did_you_mean("q", &["n", "id"]), None);
        assert_eq!(did_you_mean("ID", &["n", "id"]), Some("id"));
        assert_eq!(did_you_mean("colour", Level::Ui.names()), None);
        let keys = ["minimum", "maximum", "min_length"];
        assert_eq!(did_you_mean("minimun", &keys), Some("minimum"));
        assert_eq!(did_you_mean("min_lenght", &keys), Some("min_length"));
        assert_eq!(did_you_mean("colour", &keys), None);
    }
}
