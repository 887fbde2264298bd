//! Arguments mirrored in HTTP headers (MCP's SEP-2243): a root property marked
//! `#[schema(header = "Region")]` is served with `"x-mcp-header": "Region"`, so a client
//! sends its value in an `Mcp-Param-Region` header too, where a proxy or a load balancer
//! can route on it without reading the body; the server refuses a request whose header and
//! body disagree.
//!
//! The mark is the server's, not the contract's: the tool file does not carry it (as
//! `task = "..."` is not in it), the tool's descriptor does, read from the input type's
//! [`ToolInput::HEADERS`](crate::input::ToolInput::HEADERS), and the MCP server adds it to
//! the `inputSchema` it serves ([`annotate`]).
//!
//! What rule `header-attr` asks, in one place: a header name is an HTTP token
//! ([`is_header_name`]); a header carries a string, an integer or a boolean, so the
//! property's type is one of those (or a unit enum, which is a string), and required (a
//! strict model sends `null` for an optional key, and no header carries it);
//! the property is a root one, so a type that declares headers is not a field's type (nor
//! a list's item) anywhere but flattened into the root; no two header names of a tool are
//! equal ignoring ASCII case.
//!
//! ```
//! use neuralis_model::header::{Header, annotate, header_names, is_header_name};
//! use serde_json::json;
//!
//! const HEADERS: &[Header] = &[Header::Field("region", "Region")];
//! assert!(is_header_name("Region") && !is_header_name("My Region"));
//! assert_eq!(header_names(HEADERS), [("region", "Region")]);
//! let mut schema = json!({"type": "object", "properties": {
//!     "region": {"anyOf": [{"type": "string"}, {"type": "null"}]}, "query": {"type": "string"}}});
//! annotate(schema.as_object_mut().unwrap(), HEADERS);
//! assert_eq!(schema["properties"]["region"], json!({"type": "string", "x-mcp-header": "Region"}));
//! ```

use serde_json::{Map, Value};

use crate::contract::RuleId;
use crate::shape::{Message, Shape};

/// The annotation's keyword in a served property's schema.
pub const KEYWORD: &str = "x-mcp-header";

/// One entry of a type's headers ([`ToolInput::HEADERS`](crate::input::ToolInput::HEADERS)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Header {
    /// A root property (its serde name) and the header name it is mirrored in.
    Field(&'static str, &'static str),
    /// The headers of a flattened type: its properties are root ones.
    Flatten(&'static [Header]),
}

/// Whether `name` is a header name SEP-2243 accepts: a non-empty RFC 9110 token (ASCII
/// letters, digits and ``!#$%&'*+-.^_`|~``).
#[must_use]
pub const fn is_header_name(name: &str) -> bool {
    let b = name.as_bytes();
    if b.is_empty() {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let token = c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'!' | b'#'
                    | b'$'
                    | b'%'
                    | b'&'
                    | b'\''
                    | b'*'
                    | b'+'
                    | b'-'
                    | b'.'
                    | b'^'
                    | b'_'
                    | b'`'
                    | b'|'
                    | b'~'
            );
        if !token {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `list` marks any property, flattened ones included.
#[must_use]
pub const fn has_headers(list: &[Header]) -> bool {
    first_header(list).is_some()
}

/// The first header name of `list` (flattened ones included), if there is one.
const fn first_header(list: &[Header]) -> Option<(&'static str, &'static str)> {
    let mut i = 0;
    while i < list.len() {
        match list[i] {
            Header::Field(property, name) => return Some((property, name)),
            Header::Flatten(inner) => {
                if let Some(found) = first_header(inner) {
                    return Some(found);
                }
            }
        }
        i += 1;
    }
    None
}

/// How many header names of `list` equal `name` ignoring ASCII case.
const fn count_named(list: &[Header], name: &str) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < list.len() {
        match list[i] {
            Header::Field(_, other) => {
                if crate::suggest::eq_ignore_ascii_case(other, name) {
                    n += 1;
                }
            }
            Header::Flatten(inner) => n += count_named(inner, name),
        }
        i += 1;
    }
    n
}

/// A header name `all` has twice (ignoring ASCII case), searching `list` (a part of it).
const fn repeated_in(list: &[Header], all: &[Header]) -> Option<&'static str> {
    let mut i = 0;
    while i < list.len() {
        match list[i] {
            Header::Field(_, name) => {
                if count_named(all, name) > 1 {
                    return Some(name);
                }
            }
            Header::Flatten(inner) => {
                if let Some(name) = repeated_in(inner, all) {
                    return Some(name);
                }
            }
        }
        i += 1;
    }
    None
}

/// `(property, header)` for every marked property of `list`, flattened ones in place.
#[must_use]
pub fn header_names(list: &[Header]) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    for entry in list {
        match *entry {
            Header::Field(property, name) => out.push((property, name)),
            Header::Flatten(inner) => out.extend(header_names(inner)),
        }
    }
    out
}

/// Marks each property of `list` in a served `inputSchema` (`schema`, its root): its
/// schema gains `"x-mcp-header"`, and a served dialect's `null` beside it
/// (`{"anyOf": [<schema>, {"type": "null"}]}`) is dropped, since a client reads the
/// header's type from the property's own `type`, and an absent argument sends no header.
pub fn annotate(schema: &mut Map<String, Value>, list: &[Header]) {
    let Some(Value::Object(properties)) = schema.get_mut("properties") else {
        return;
    };
    for (property, name) in header_names(list) {
        let Some(Value::Object(prop)) = properties.get_mut(property) else {
            continue;
        };
        let nullable = matches!(prop.get("anyOf"), Some(Value::Array(branches))
            if branches.len() == 2 && branches[1] == serde_json::json!({"type": "null"}));
        if nullable
            && let Some(Value::Array(mut branches)) = prop.remove("anyOf")
            && let Value::Object(inner) = branches.swap_remove(0)
        {
            for (k, v) in inner {
                prop.entry(k).or_insert(v);
            }
        }
        prop.insert(KEYWORD.into(), Value::String(name.into()));
    }
}

const HELP: &str = "\n= help: ";

/// `header-attr` for a marked field: its type's `shape` must be one a header carries (a
/// string, a character, an integer, a boolean, a unit enum). `field` is the property's
/// serde name, `ty` the field's type as written.
#[must_use]
pub const fn header_shape_message(shape: Shape, field: &str, ty: &str) -> Message {
    match shape {
        Shape::Str | Shape::Char | Shape::Int { .. } | Shape::Bool | Shape::Enum(_) => {
            Message::new()
        }
        _ => Message::new()
            .push(RuleId::HeaderAttr.as_str())
            .push(": `")
            .push(field)
            .push("` is mirrored in a header, but its type `")
            .push(ty)
            .push("` is not a string, an integer or a boolean")
            .push(HELP)
            .push("a header carries a string, an integer or a boolean (a unit enum is a string); leave `header` off this field"),
    }
}

/// `header-attr` for a field that is not flattened: its type (`headers`, that type's
/// [`ToolInput::HEADERS`](crate::input::ToolInput::HEADERS)) must mark no property, since
/// a header mirrors a root property only. `field` is the field's serde name, `ty` its type
/// as written.
#[must_use]
pub const fn nested_header_message(headers: &[Header], field: &str, ty: &str) -> Message {
    let Some((property, name)) = first_header(headers) else {
        return Message::new();
    };
    Message::new()
        .push(RuleId::HeaderAttr.as_str())
        .push(": `")
        .push(ty)
        .push("` mirrors `")
        .push(property)
        .push("` in the header `")
        .push(name)
        .push("`, but here it is nested in `")
        .push(field)
        .push("`, not at a tool's root")
        .push(HELP)
        .push("a header mirrors a root property of a tool's input: flatten the type into the root (`#[serde(flatten)]`), or leave `header` off its field")
}

/// `header-attr` for a tool's input `headers`: no two header names are equal ignoring
/// ASCII case (a flattened type's too). `ty` is the input type as written.
#[must_use]
pub const fn repeated_header_message(headers: &[Header], ty: &str) -> Message {
    let Some(name) = repeated_in(headers, headers) else {
        return Message::new();
    };
    Message::new()
        .push(RuleId::HeaderAttr.as_str())
        .push(": `")
        .push(ty)
        .push("` mirrors two properties in the header `")
        .push(name)
        .push("` (header names are the same whatever their case)")
        .push(HELP)
        .push("give each marked property its own header name")
}
