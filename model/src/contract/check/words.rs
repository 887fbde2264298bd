//! Message helpers: suggestions, value and pointer rendering.

use serde_json::Value;

/// The known name closest to `key`, when it is close enough to be a likely typo: the
/// same name in another case, or one within a third of its length in edits (at least one;
/// a name under three characters only in case). The one suggestion rule of the toolkit:
/// the checker's messages, the macros' attribute keys and values, the build script's
/// crate names.
///
/// ```
/// use neuralis_model::contract::did_you_mean;
/// assert_eq!(did_you_mean("minimun", &["minimum", "maximum"]), Some("minimum"));
/// assert_eq!(did_you_mean("ASKONKEYS", &["askOnKeys"]), Some("askOnKeys"));
/// assert_eq!(did_you_mean("ui", &["id"]), None);
/// ```
#[must_use]
pub fn did_you_mean<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    known
        .iter()
        .map(|k| {
            let d = if k.eq_ignore_ascii_case(key) {
                0
            } else {
                edit_distance(key, k)
            };
            (d, *k)
        })
        .filter(|(d, k)| {
            // Short names are too easily one edit apart: only a case difference counts.
            let len = k.chars().count();
            *d <= if len < 3 { 0 } else { (len / 3).max(1) }
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if ca == *cb {
                diag
            } else {
                1 + diag.min(up).min(row[j])
            };
            diag = up;
        }
    }
    row[b.len()]
}

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
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
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
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
