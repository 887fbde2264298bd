//! The settled-status convention.

use serde::Serialize;
use serde_json::Value;

use super::normalize::type_name;
use crate::contract::{Diagnostic, RuleId};

/// The tone a status icon draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tone {
    /// The green check.
    Success,
    /// The red X.
    Failure,
    /// The amber triangle.
    Partial,
    /// The in-flight spinner.
    InFlight,
    /// A named status with no tone of its own.
    Neutral,
}

/// A settled status: the icon's accessible name (the status word) and its tone.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Status {
    /// The icon's accessible name.
    pub name: String,
    /// The icon's tone.
    pub tone: Tone,
}

impl Status {
    /// A status with a name and a tone.
    #[must_use]
    pub fn new(name: impl Into<String>, tone: Tone) -> Self {
        Self {
            name: name.into(),
            tone,
        }
    }
}

/// The status words that settle as success.
pub const SUCCESS_WORDS: [&str; 3] = ["success", "completed", "pending_review"];

/// The status a result settles to, from its `structuredContent`:
///
/// 1. `ok: true`, or a `status` of `success`, `completed` or `pending_review`: success;
/// 2. `ok: false`: failure;
/// 3. any other string `status` names the icon, and its tone follows the word **(ours:
///    compared in ASCII lower case, by containment)**: containing `pending` in-flight,
///    containing `error` or `fail` failure, containing `partial` partial, otherwise
///    neutral;
/// 4. no marker at all: the platform floors a completed call to `committed` (success).
///
/// The name is the `status` string when there is one, else `success`, `failure` or
/// `committed`.
///
/// ```
/// use neuralis_core::result::{Tone, settled_status};
/// use serde_json::json;
///
/// assert_eq!(settled_status(&json!({"ok": true})).tone, Tone::Success);
/// assert_eq!(settled_status(&json!({"status": "partial"})).tone, Tone::Partial);
/// let s = settled_status(&json!({"status": "queued_pending"}));
/// assert_eq!((s.name.as_str(), s.tone), ("queued_pending", Tone::InFlight));
/// ```
#[must_use]
pub fn settled_status(structured: &Value) -> Status {
    let ok = structured.get("ok").and_then(Value::as_bool);
    let word = structured.get("status").and_then(Value::as_str);
    let lower = word.map(str::to_ascii_lowercase);
    let name = |fallback: &str| word.unwrap_or(fallback).to_owned();
    if ok == Some(true) || lower.as_deref().is_some_and(|w| SUCCESS_WORDS.contains(&w)) {
        return Status::new(name("success"), Tone::Success);
    }
    if ok == Some(false) {
        return Status::new(name("failure"), Tone::Failure);
    }
    match lower {
        Some(w) => Status::new(name(""), tone_of_word(&w)),
        None => Status::new("committed", Tone::Success),
    }
}

fn tone_of_word(w: &str) -> Tone {
    if w.contains("pending") {
        Tone::InFlight
    } else if w.contains("error") || w.contains("fail") {
        Tone::Failure
    } else if w.contains("partial") {
        Tone::Partial
    } else {
        Tone::Neutral
    }
}

/// Reports `status-convention` violations in a settled result's `structuredContent`
/// (pointers start at `/structuredContent`):
///
/// - a `status` that is not a string (an HTTP code belongs in `httpStatus`);
/// - a `status` string made of digits (a domain value, same fix);
/// - a `status` containing `pending` other than `pending_review` (a settled card would
///   spin forever);
/// - an `ok` that is not a boolean.
///
/// ```
/// use neuralis_core::result::check_status;
/// use serde_json::json;
///
/// let diags = check_status(&json!({"status": "pending"}));
/// assert_eq!(diags[0].rule.as_str(), "status-convention");
/// assert_eq!(diags[0].pointer, "/structuredContent/status");
/// assert!(check_status(&json!({"ok": true, "status": "pending_review"})).is_empty());
/// ```
#[must_use]
pub fn check_status(structured: &Value) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(m) = structured.as_object() else {
        return out;
    };
    let at = "/structuredContent/status";
    match m.get("status") {
        None | Some(Value::String(_)) => {}
        Some(other) => out.push(
            Diagnostic::new(RuleId::StatusConvention, at)
                .with_message(format!("`status` is {}, not a status word", type_name(other)))
                .with_hint("make `status` a word like `completed`; put domain values such as an HTTP code in `httpStatus`"),
        ),
    }
    if let Some(word) = m.get("status").and_then(Value::as_str) {
        let lower = word.to_ascii_lowercase();
        if lower.contains("pending") && lower != "pending_review" {
            out.push(
                Diagnostic::new(RuleId::StatusConvention, at)
                    .with_message(format!("settled `status` `{word}` contains `pending`: the card would spin forever"))
                    .with_hint("settle with `completed`, `partial`, `error`, or `pending_review` for work awaiting review"),
            );
        } else if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) {
            out.push(
                Diagnostic::new(RuleId::StatusConvention, at)
                    .with_message(format!(
                        "`status` `{word}` is a domain value, not a status word"
                    ))
                    .with_hint(
                        "put the code in a field like `httpStatus` and use `ok: true|false`",
                    ),
            );
        }
    }
    if let Some(ok) = m.get("ok")
        && !ok.is_boolean()
    {
        out.push(
            Diagnostic::new(RuleId::StatusConvention, "/structuredContent/ok")
                .with_message(format!("`ok` is {}, not a boolean", type_name(ok)))
                .with_hint("use `ok: true` or `ok: false`"),
        );
    }
    out
}
