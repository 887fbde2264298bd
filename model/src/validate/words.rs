//! The rule of a keyword in plain words, with its bound or its allowed values, as a model
//! reads it in a refusal ([`Validator::explain`](super::Validator::explain)): "at most
//! 50", "one of `stable`, `beta`", "an email address", "matches `^[a-z]+$`", "an
//! integer, not a string". Never a JSON Schema keyword's name: the model did not write
//! the schema.

use serde_json::Value;

use super::collect::plural;
use super::node::{Check, INTEGER, NULL, NUMBER, TYPE_NAMES};
use super::num::Num;
use crate::contract::rules::RESERVED_INPUT_KEYS;
use crate::suggest::did_you_mean;

/// How many allowed values a rule lists before "and N more".
const MAX_LISTED_VALUES: usize = 12;

/// How many declared keys an unknown key's fault lists (more, and only a suggestion is
/// given).
const MAX_LISTED_KEYS: usize = 8;

/// The rule a leaf keyword states, when it fails on `v`; `None` for the keywords that
/// hold subschemas (explained where they are walked).
pub(super) fn rule(check: &Check, v: &Value) -> Option<String> {
    Some(match check {
        Check::Type { set, .. } => format!("{}, not {}", type_words(*set), value_kind(*set, v)),
        Check::Enum(options) => exactly(options),
        Check::Const(c) => format!("exactly {}", shown(c)),
        Check::Minimum(_, l) => format!("at least {l}"),
        Check::Maximum(_, l) => format!("at most {l}"),
        Check::ExclusiveMinimum(_, l) => format!("greater than {l}"),
        Check::ExclusiveMaximum(_, l) => format!("less than {l}"),
        Check::MultipleOf(m) => format!("a multiple of {m}"),
        Check::MinLength(l) => format!("at least {}", plural(*l, "character", "characters")),
        Check::MaxLength(l) => format!("at most {}", plural(*l, "character", "characters")),
        Check::Pattern(_, p) => format!("matches `{p}`"),
        Check::Format(_, name) => format_words(name).to_owned(),
        Check::MinItems(l) => format!("at least {}", plural(*l, "item", "items")),
        Check::MaxItems(l) => format!("at most {}", plural(*l, "item", "items")),
        Check::UniqueItems => "no two items the same".to_owned(),
        Check::Not(..) => "not this value: the schema excludes it".to_owned(),
        _ => return None,
    })
}

/// `enum`: "one of `a`, `b`", or "exactly `a`" for one value.
pub(super) fn exactly(options: &[Value]) -> String {
    if options.len() == 1 {
        format!("exactly {}", shown(&options[0]))
    } else {
        one_of(options.iter())
    }
}

/// "one of `a`, `b`, `c`" (the first [`MAX_LISTED_VALUES`], then "and N more"), or "`a`"
/// for one value.
pub(super) fn one_of<'a>(values: impl ExactSizeIterator<Item = &'a Value>) -> String {
    let n = values.len();
    let listed = list(values.map(shown), n);
    if n == 1 {
        listed
    } else {
        format!("one of {listed}")
    }
}

/// Items joined with ", ", the first [`MAX_LISTED_VALUES`] of `n`, then "and N more".
pub(super) fn list(items: impl Iterator<Item = String>, n: usize) -> String {
    let mut text = items.take(MAX_LISTED_VALUES).collect::<Vec<_>>().join(", ");
    if n > MAX_LISTED_VALUES {
        text.push_str(&format!(" and {} more", n - MAX_LISTED_VALUES));
    }
    text
}

/// A value as a refusal shows it: a string's text in backticks, anything else as JSON.
pub(super) fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => format!("`{s}`"),
        other => format!("`{other}`"),
    }
}

/// The types of a `type` set: "a string", "an integer or null".
pub(super) fn type_words(set: u8) -> String {
    let mut names: Vec<&str> = TYPE_NAMES
        .iter()
        .filter(|(b, _)| set & b != 0 && *b != NULL)
        // `number` says `integer` too.
        .filter(|(b, _)| !(*b == INTEGER && set & NUMBER != 0))
        .map(|(_, n)| article(n))
        .collect();
    if set & NULL != 0 {
        names.push("null");
    }
    names.join(" or ")
}

/// A type's name with its article.
fn article(name: &str) -> &'static str {
    match name {
        "null" => "null",
        "boolean" => "a boolean",
        "integer" => "an integer",
        "number" => "a number",
        "string" => "a string",
        "array" => "an array",
        _ => "an object",
    }
}

/// What `v` is, for a `type` that refused it: its type with its article ("a fraction"
/// for a number that is not an integer where only integers are accepted).
pub(super) fn value_kind(set: u8, v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if set & INTEGER != 0 && !Num::of(n).is_integral() => "a fraction",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A `format` in words.
pub(super) fn format_words(name: &str) -> &'static str {
    match name {
        "date" => "a date, like `2026-12-07`",
        "time" => "a time with its offset, like `10:30:00Z`",
        "date-time" => "a date and time with its offset, like `2026-12-07T10:30:00Z`",
        "email" => "an email address",
        "hostname" => "a host name",
        "ipv4" => "an IPv4 address",
        "ipv6" => "an IPv6 address",
        "uri" => "an absolute URI, like `https://example.com/a`",
        "uri-reference" => "a URI or a relative reference",
        "json-pointer" => "a JSON pointer, like `/a/0`",
        "relative-json-pointer" => "a relative JSON pointer",
        "regex" => "a regular expression",
        _ => "a string of the declared format",
    }
}

/// A key the object does not accept: the closest declared key when there is one, else
/// the keys it accepts when they are few; at the root, a session field says where such
/// values come from.
pub(super) fn unknown_key(key: &str, declared: &[&str], root: bool) -> String {
    if root && RESERVED_INPUT_KEYS.contains(&key) {
        return format!(
            "`{key}` is not an argument here; caller identity and session fields come from \
             the verified session, never from arguments"
        );
    }
    if declared.is_empty() {
        return format!("`{key}` is not an argument here: this object takes no keys");
    }
    if let Some(close) = did_you_mean(key, declared) {
        return format!("`{key}` is not an argument here; did you mean `{close}`?");
    }
    if declared.len() <= MAX_LISTED_KEYS {
        let keys = declared.iter().map(|k| format!("`{k}`"));
        return format!(
            "`{key}` is not an argument here; accepted: {}",
            list(keys, declared.len())
        );
    }
    format!("`{key}` is not an argument here")
}

/// A required key, missing.
pub(super) fn missing(key: &str) -> String {
    format!("`{key}` is required")
}

/// Alternatives in one line: "X, or Y"; "one of: X; Y; Z" for more.
pub(super) fn alternatives(shapes: &[String]) -> String {
    match shapes {
        [one] => one.clone(),
        [a, b] => format!("{a}, or {b}"),
        more => format!("one of: {}", more.join("; ")),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn values_and_types_read_as_words() {
        assert_eq!(
            exactly(&[json!("stable"), json!("beta")]),
            "one of `stable`, `beta`"
        );
        assert_eq!(exactly(&[json!(3)]), "exactly `3`");
        let many: Vec<Value> = (0..15).map(|i| json!(i)).collect();
        assert!(exactly(&many).ends_with("`11` and 3 more"));
        assert_eq!(type_words(INTEGER | NULL), "an integer or null");
        assert_eq!(type_words(INTEGER | NUMBER), "a number");
        assert_eq!(value_kind(INTEGER, &json!(1.5)), "a fraction");
        assert_eq!(value_kind(NUMBER, &json!(1.5)), "a number");
    }

    #[test]
    fn an_unknown_key_gets_the_closest_or_the_list() {
        assert_eq!(
            unknown_key("dryrun", &["dry_run", "target"], false),
            "`dryrun` is not an argument here; did you mean `dry_run`?"
        );
        assert_eq!(
            unknown_key("zzz", &["a", "b"], false),
            "`zzz` is not an argument here; accepted: `a`, `b`"
        );
        assert!(unknown_key("userId", &["a"], true).contains("verified session"));
        assert!(!unknown_key("userId", &["a"], false).contains("verified session"));
    }
}
