//! Tool names on the wire (`remote-name`, `remote-reserved-name`) and property names that
//! look like entitlements (`remote-entitlement`).

use std::fmt;

use serde_json::Value;

use crate::contract::rules::RESERVED_INPUT_KEYS;
use crate::contract::{Diagnostic, RuleId, push_pointer};
use crate::name::is_wire_safe_tool_name;

/// The assistant's own tool names, which a remote server may not offer
/// (`remote-reserved-name`). Compared exactly, case-sensitively, as every tool name is.
pub const RESERVED_REMOTE_NAMES: [&str; 7] = [
    "finish_turn",
    "search_knowledge",
    "list_services",
    "check_availability",
    "create_booking",
    "tally_query",
    "tally_lookup",
];

/// Whether `name` is one of [`RESERVED_REMOTE_NAMES`].
///
/// ```
/// use neuralis_model::remote::is_reserved_remote_name;
/// assert!(is_reserved_remote_name("finish_turn"));
/// assert!(!is_reserved_remote_name("finish_turn_2"));
/// ```
#[must_use]
pub fn is_reserved_remote_name(name: &str) -> bool {
    RESERVED_REMOTE_NAMES.contains(&name)
}

/// The name a remote tool carries on the wire: `srv<id>__<name>`.
///
/// The server never sees the prefix; it receives the bare name it registered.
///
/// ```
/// use neuralis_model::remote::wire_name;
/// assert_eq!(wire_name(12, "add_to_cart"), "srv12__add_to_cart");
/// ```
#[must_use]
pub fn wire_name(server_id: impl fmt::Display, name: &str) -> String {
    format!("srv{server_id}__{name}")
}

/// Checks a remote tool's name: `remote-name` when it is not wire-safe (the tool would be
/// skipped at discovery), `remote-reserved-name` when it is one of the assistant's own.
///
/// For a tool file `tool-name` already covers `remote-name`; this is for imported tools
/// and `neuralis lower`. The pointer is `""`: the name is not inside the document.
///
/// ```
/// use neuralis_model::{RuleId, remote::check_name};
/// assert_eq!(check_name("add_to_cart"), None);
/// assert_eq!(check_name("add to cart").map(|d| d.rule), Some(RuleId::RemoteName));
/// assert_eq!(check_name("finish_turn").map(|d| d.rule), Some(RuleId::RemoteReservedName));
/// ```
#[must_use]
pub fn check_name(name: &str) -> Option<Diagnostic> {
    if !is_wire_safe_tool_name(name) {
        return Some(
            Diagnostic::new(RuleId::RemoteName, "").with_message(format!(
                "the remote tool name `{}` does not match `^[a-zA-Z0-9_-]{{1,48}}$`",
                name.escape_debug()
            )),
        );
    }
    check_reserved(name)
}

/// `remote-reserved-name` alone, for callers where `tool-name` covers the pattern.
pub(crate) fn check_reserved(name: &str) -> Option<Diagnostic> {
    is_reserved_remote_name(name).then(|| {
        Diagnostic::new(RuleId::RemoteReservedName, "").with_message(format!(
            "the remote tool name `{name}` is reserved for the assistant's own tool"
        ))
    })
}

/// Words that make a root property name look like an entitlement (`remote-entitlement`).
///
/// A property name is split into words at `_`, `-` and other non-alphanumeric
/// characters, at lower-to-upper case changes (`userTier`), before the last capital of
/// an acronym (`VIPLevel` is `vip`, `level`) and between letters and digits (`tier2`).
/// It matches when one of its words, lower-cased, is in this list. Whole words only:
/// `explanation`, `planet`, `frontier`, `controller` do not match. `credit` alone is left
/// out (a `creditCard` is an ordinary argument); `credits` is in.
pub const ENTITLEMENT_WORDS: &[&str] = &[
    "tier",
    "tiers",
    "plan",
    "plans",
    "price",
    "prices",
    "pricing",
    "discount",
    "discounts",
    "coupon",
    "coupons",
    "role",
    "roles",
    "permission",
    "permissions",
    "entitlement",
    "entitlements",
    "license",
    "licenses",
    "licence",
    "licences",
    "quota",
    "quotas",
    "credits",
    "subscription",
    "subscriptions",
    "privilege",
    "privileges",
    "premium",
    "vip",
    "admin",
];

/// The words of a property name, lower-cased (see [`ENTITLEMENT_WORDS`]).
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if let Some(&prev) = i.checked_sub(1).and_then(|j| chars.get(j))
            && !cur.is_empty()
        {
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let boundary = (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_alphabetic() != c.is_alphabetic())
                || (prev.is_uppercase() && c.is_uppercase() && next_lower);
            if boundary {
                out.push(std::mem::take(&mut cur));
            }
        }
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The word of [`ENTITLEMENT_WORDS`] that `property` contains, if any.
///
/// ```
/// use neuralis_model::remote::entitlement_word;
/// assert_eq!(entitlement_word("userTier"), Some("tier"));
/// assert_eq!(entitlement_word("price_plan"), Some("price"));
/// assert_eq!(entitlement_word("explanation"), None);
/// ```
#[must_use]
pub fn entitlement_word(property: &str) -> Option<&'static str> {
    words(property)
        .iter()
        .find_map(|w| ENTITLEMENT_WORDS.iter().find(|e| **e == w.as_str()))
        .copied()
}

/// `remote-entitlement` for every root property whose name suggests an entitlement.
///
/// A name that is exactly a reserved session key (`role`) is left to
/// `reserved-input-key`, which already refuses it.
#[must_use]
pub fn check_entitlements(schema: &Value) -> Vec<Diagnostic> {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    props
        .keys()
        .filter(|name| !RESERVED_INPUT_KEYS.contains(&name.as_str()))
        .filter_map(|name| {
            let word = entitlement_word(name)?;
            Some(
                Diagnostic::new(
                    RuleId::RemoteEntitlement,
                    push_pointer("/properties", name),
                )
                .with_message(format!(
                    "root property `{}` looks like an entitlement (`{word}`) chosen by the model",
                    name.escape_debug()
                )),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_words() {
        assert_eq!(words("userTier"), ["user", "tier"]);
        assert_eq!(words("price_plan"), ["price", "plan"]);
        assert_eq!(words("VIPLevel"), ["vip", "level"]);
        assert_eq!(words("tier2"), ["tier", "2"]);
        assert_eq!(words("x-quota-left"), ["x", "quota", "left"]);
        assert_eq!(words("__"), Vec::<String>::new());
        assert_eq!(words("ROLE"), ["role"]);
    }
}
