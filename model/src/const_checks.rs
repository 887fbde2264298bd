//! The compile-time checks `#[tool]` expands to, as generic `const fn`s over the tool's
//! input.
//!
//! Each returns the rule's message, written here from the rule table, or an empty
//! [`Message`] when the rule holds; the expansion is one `const` per check that panics with
//! the message at the token the rule is about. The input's root keys and shapes are read
//! here, not spelled out in every expansion.
//!
//! ```
//! use neuralis_model::const_checks::{Given, root_key_message, tool_input_message};
//!
//! let m = tool_input_message::<String>("String");
//! assert!(m.as_str().starts_with("input-not-struct: `String` is a tool's input"));
//! let m = root_key_message::<std::collections::BTreeMap<String, u8>>(Given::AskOnKeys, "force", "Flags");
//! assert!(m.as_str().starts_with(
//!     "askonkeys-undeclared: `ask_on_keys` names `force`, which is not a root property of `Flags`"
//! ));
//! ```

use crate::contract::RuleId;
use crate::input::{ToolInput, has_root_key, reserved_root_key};
use crate::shape::{Lit, Message, Shape, default_message, undeclared_key_message};
use crate::xn::keys;

/// `input-not-struct`, then `reserved-input-key` on `T`'s root keys unless `T`'s own derive
/// refused them already (`ToolInput::RESERVED_CHECKED`), then `header-attr` on its headers
/// (no name twice, a flattened type's too). `ty` is the input type as written.
#[must_use]
pub const fn tool_input_message<T: ToolInput + ?Sized>(ty: &str) -> Message {
    if !T::IS_OBJECT {
        let rule = RuleId::InputNotStruct;
        return Message::new()
            .push(rule.as_str())
            .push(": `")
            .push(ty)
            .push("` is a tool's input, but its schema is not an object with named fields")
            .push(HELP)
            .push(rule.rule().hint);
    }
    if !T::RESERVED_CHECKED
        && let Some(key) = reserved_root_key(T::ROOT_KEYS)
    {
        let rule = RuleId::ReservedInputKey;
        return Message::new()
            .push(rule.as_str())
            .push(": root property `")
            .push(key)
            .push("` of `")
            .push(ty)
            .push("` uses a reserved session-context name")
            .push(HELP)
            .push(rule.rule().hint);
    }
    crate::header::repeated_header_message(T::HEADERS, ty)
}

/// The attribute that names a root property of a tool's input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Given {
    /// `ask_on_keys(...)` (`askonkeys-undeclared`).
    AskOnKeys,
    /// `defaults(...)` (`defaults-undeclared`).
    Defaults,
    /// `bound(more = ...)` (`bound-attr`).
    BoundMore,
}

/// `name`, given by `given`, is not a root property of `T` (after serde renaming and
/// flatten): the rule's message, saying where the key is when a root property's object has
/// it one level down. `ty` is the input type as written.
#[must_use]
pub const fn root_key_message<T: ToolInput + ?Sized>(
    given: Given,
    name: &str,
    ty: &str,
) -> Message {
    if has_root_key(T::ROOT_KEYS, name) {
        return Message::new();
    }
    let (rule, names, help) = match given {
        Given::AskOnKeys => (
            RuleId::AskonkeysUndeclared,
            "names",
            RuleId::AskonkeysUndeclared.rule().hint,
        ),
        Given::Defaults => (
            RuleId::DefaultsUndeclared,
            "gives",
            "default a root property by its serde name (after `rename`/`rename_all`)",
        ),
        Given::BoundMore => (
            RuleId::BoundAttr,
            "names",
            "name the input's argument that asks for more (a cursor, a page, an offset) by its serde name",
        ),
    };
    let attr = match given {
        Given::AskOnKeys => keys::ASK_ON_KEYS.attr,
        Given::Defaults => keys::DEFAULTS.attr,
        Given::BoundMore => "bound(more = ...)",
    };
    let head = Message::new()
        .push(rule.as_str())
        .push(": `")
        .push(attr)
        .push("` ")
        .push(names)
        .push(" `")
        .push(name)
        .push("`, which is not a root property of `")
        .push(ty)
        .push("`");
    let tail = Message::new().push(HELP).push(help);
    undeclared_key_message(T::ROOT_SHAPES, name, head.as_str(), tail.as_str())
}

/// A `defaults` literal for root key `name` of `T` that does not fit the key's type and
/// the field's bounds; empty when it fits or when `name` is no root key
/// ([`root_key_message`] says so). `written` is the default as the attribute wrote it
/// (`days = 3`).
#[must_use]
pub const fn default_value_message<T: ToolInput + ?Sized>(
    name: &str,
    lit: Lit,
    written: &str,
) -> Message {
    let head = Message::new()
        .push(RuleId::DefaultsUndeclared.as_str())
        .push(": the default `")
        .push(written)
        .push("` does not fit the property: ");
    default_message(
        T::ROOT_SHAPES,
        name,
        lit,
        head.as_str(),
        "\n= help: give a value the property's type and its `#[schema]` bounds accept",
    )
}

/// `bound-attr` on `more_value = "offset"`: the argument `name` that `more` names is an
/// integer (the marker tells the caller the next offset to send in it); empty when it is,
/// when its shape cannot be told (a hand-written impl), or when `name` is no root key
/// ([`root_key_message`] says so). `ty` is the input type as written.
///
/// ```
/// use neuralis_model::const_checks::more_offset_message;
/// use neuralis_model::input::ToolInput;
/// use neuralis_model::shape::{Bounds, KeyShape, Shape};
///
/// struct Page;
/// impl ToolInput for Page {
///     const ROOT_SHAPES: &'static [KeyShape] = &[
///         KeyShape::Key("offset", Shape::int(0, u32::MAX as u128), Bounds::NONE),
///         KeyShape::Key("query", Shape::Str, Bounds::NONE),
///     ];
///     fn schema_name() -> std::borrow::Cow<'static, str> { "Page".into() }
///     fn schema_in(_: &mut neuralis_model::input::Composer) -> serde_json::Value {
///         serde_json::json!({"type": "object"})
///     }
/// }
/// assert!(more_offset_message::<Page>("offset", "Page").is_empty());
/// assert!(more_offset_message::<Page>("query", "Page").as_str().starts_with(
///     "bound-attr: `bound(more_value = \"offset\")` sends the next offset in `query`, which is not an integer property of `Page`"
/// ));
/// ```
#[must_use]
pub const fn more_offset_message<T: ToolInput + ?Sized>(name: &str, ty: &str) -> Message {
    match crate::shape::key_shape(T::ROOT_SHAPES, name) {
        None | Some((Shape::Int { .. } | Shape::Any, _)) => Message::new(),
        Some(_) => Message::new()
            .push(RuleId::BoundAttr.as_str())
            .push(": `bound(more_value = \"offset\")` sends the next offset in `")
            .push(name)
            .push("`, which is not an integer property of `")
            .push(ty)
            .push("`")
            .push(HELP)
            .push("make the argument an integer (`Option<u32>`, 0 when not sent), or drop `more_value` to name the argument alone"),
    }
}

/// What separates a message from its hint.
const HELP: &str = "\n= help: ";
