//! Diagnostics: one violation of one rule, at one place.

use std::fmt;

use serde::Serialize;

use super::rules::{RuleId, Severity};

/// A line and column in a file, both counted from 1 (columns in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Location {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
}

/// One violation of one rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// The rule broken.
    pub rule: RuleId,
    /// The rule's severity.
    pub severity: Severity,
    /// An RFC 6901 JSON pointer to the offending value (`""` is the whole document).
    pub pointer: String,
    /// What is wrong, led by nothing: renderers add the rule id.
    pub message: String,
    /// What to do about it.
    pub hint: String,
    /// Where in the file, when the diagnostic came from bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
}

impl Serialize for Severity {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl Diagnostic {
    /// A diagnostic with the rule's own message and hint.
    #[must_use]
    pub fn new(rule: RuleId, pointer: impl Into<String>) -> Self {
        let row = rule.rule();
        Self {
            rule,
            severity: row.severity,
            pointer: pointer.into(),
            message: row.message.to_owned(),
            hint: row.hint.to_owned(),
            location: None,
        }
    }

    /// Replaces the message with a more specific one.
    #[must_use]
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }

    /// Replaces the hint with a more specific one.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = hint.into();
        self
    }

    /// Sets the location in the file.
    #[must_use]
    pub fn at(mut self, location: Location) -> Self {
        self.location = Some(location);
        self
    }

    /// Whether this is an error (not a warning).
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]: {}", self.severity, self.rule, self.message)?;
        if !self.pointer.is_empty() {
            write!(f, " (at `{}`)", self.pointer)?;
        }
        Ok(())
    }
}

/// Appends one reference token to an RFC 6901 pointer, escaping `~` and `/`.
///
/// ```
/// use neuralis_model::contract::push_pointer;
/// assert_eq!(push_pointer("/properties", "a/b~c"), "/properties/a~1b~0c");
/// ```
#[must_use]
pub fn push_pointer(base: &str, token: &str) -> String {
    let mut out = String::with_capacity(base.len() + token.len() + 1);
    out.push_str(base);
    append_token(&mut out, token);
    out
}

/// Appends `/` and one reference token to the pointer `out`, escaping `~` and `/` (a token
/// without either is copied whole).
pub(crate) fn append_token(out: &mut String, token: &str) {
    out.push('/');
    if !token.bytes().any(|b| b == b'~' || b == b'/') {
        out.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// One reference token of a pointer as the key it names (`~1` is `/`, `~0` is `~`; RFC
/// 6901), borrowed when it has no escape: the one unescaping, which the checker's
/// messages, the validator's `$ref` resolution and the remote profile's all use.
pub(crate) fn unescape_token(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains('~') {
        std::borrow::Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        std::borrow::Cow::Borrowed(token)
    }
}

/// One reference token of a position in an instance, while a walk goes (the checker's,
/// the validator's errors): the pointer string is only built when something is reported.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Seg<'a> {
    /// A member's key.
    Key(&'a str),
    /// An array item's index.
    Index(usize),
}

/// The RFC 6901 pointer of a path.
pub(crate) fn render(path: &[Seg<'_>]) -> String {
    use std::fmt::Write as _;
    let length = path
        .iter()
        .map(|seg| match seg {
            Seg::Key(key) => key.len() + 1,
            Seg::Index(_) => 4,
        })
        .sum();
    let mut pointer = String::with_capacity(length);
    for seg in path {
        match seg {
            Seg::Key(key) => append_token(&mut pointer, key),
            // Writing to a `String` cannot fail.
            Seg::Index(i) => {
                let _ = write!(pointer, "/{i}");
            }
        }
    }
    pointer
}

/// A same-document reference (`#`, `#/definitions/A`, percent-encoded) as a JSON pointer.
pub(crate) fn ref_pointer(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    let bytes = fragment.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = fragment.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            decoded.push(b);
            i += 3;
        } else {
            decoded.push(bytes[i]);
            i += 1;
        }
    }
    let pointer = String::from_utf8(decoded).ok()?;
    (pointer.is_empty() || pointer.starts_with('/')).then_some(pointer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_document_refs_decode_percent_escapes() {
        assert_eq!(
            ref_pointer("#/definitions/a%20b").as_deref(),
            Some("/definitions/a b")
        );
        assert_eq!(ref_pointer("#").as_deref(), Some(""));
        assert_eq!(ref_pointer("other.json#/a"), None);
        assert_eq!(ref_pointer("#anchor"), None);
        // The fragment is read as a pointer once decoded.
        assert_eq!(
            ref_pointer("#%2Fdefinitions%2Fa").as_deref(),
            Some("/definitions/a")
        );
    }
}
