//! The canonical writer: fixed key order, two-space indent, trailing newline.
//!
//! # Key order
//!
//! Every *schema object* (the root, and every value in a schema position: the values of
//! `properties`, `patternProperties`, `definitions` and object-valued `dependencies`;
//! `additionalProperties`, `items`, `additionalItems`, `contains`, `propertyNames`, `not`,
//! `if`, `then`, `else`, and the branches of `allOf`/`anyOf`/`oneOf`) writes its keys in the
//! order of [`KEYWORD_ORDER`], then any other key in byte order. The table starts with the
//! order of the platform's complete example at the root (`$schema`, `title`, `type`,
//! `additionalProperties`, `description`, `properties`, `required`, `x-neuralis`) and puts
//! `enum`, `const`, `default` between `type` and `additionalProperties`, so a nested property
//! reads `type`, `enum`, `default`, `description` as in the same example.
//!
//! The `x-neuralis` block follows the order of its key table ([`crate::xn::keys`]) at
//! each of its levels (the block itself, `annotations`, `ui`, `requires`: [`Level::names`]),
//! then other keys in byte order.
//!
//! Property-name maps (`properties`, `patternProperties`, `definitions`, `dependencies`, and
//! `x-neuralis.defaults`) keep document order, and the values of `default`, `const`, `enum`,
//! `examples`, of unknown keywords and of `defaults` are written exactly as they are.
//!
//! # Layout
//!
//! Two-space indent and a trailing newline. A non-empty array or object is written on one
//! line (`["a", "b"]`, `{ "icon": "list" }`) when that line, with its indent, key and
//! trailing comma, fits in [`LINE_WIDTH`] characters; otherwise one member per line. The
//! output depends only on the value, so writing the parse of the output gives the same bytes.

use serde_json::{Map, Value};

use crate::contract::meta::{Holds, applicator};
use crate::xn::{self, Kind, Level};

/// The key order of a schema object; other keys follow in byte order.
pub const KEYWORD_ORDER: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "title",
    "type",
    "enum",
    "const",
    "default",
    "format",
    "pattern",
    "minLength",
    "maxLength",
    "contentMediaType",
    "contentEncoding",
    "multipleOf",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "additionalProperties",
    "description",
    "properties",
    "required",
    xn::BLOCK,
    "$comment",
    "examples",
    "readOnly",
    "writeOnly",
    "propertyNames",
    "patternProperties",
    "dependencies",
    "items",
    "additionalItems",
    "contains",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "definitions",
];

/// The widest line that holds an array or object written on one line.
///
/// 100 is what the platform's documents show: their `x-neuralis` example keeps an 86-column
/// `ui` line on one line, and their complete example breaks a 115-column `annotations`.
pub const LINE_WIDTH: usize = 100;

const INDENT: usize = 2;

/// The canonical text of a tool document.
///
/// ```
/// use neuralis_model::schema::to_canonical_string;
/// use serde_json::json;
///
/// let doc = json!({
///     "properties": { "q": { "description": "query", "type": "string" } },
///     "type": "object",
///     "$schema": "http://json-schema.org/draft-07/schema#",
/// });
/// assert_eq!(
///     to_canonical_string(&doc),
///     r#"{
///   "$schema": "http://json-schema.org/draft-07/schema#",
///   "type": "object",
///   "properties": {
///     "q": {
///       "type": "string",
///       "description": "query"
///     }
///   }
/// }
/// "#
/// );
/// ```
#[must_use]
pub fn to_canonical_string(schema: &Value) -> String {
    let mut w = Writer {
        out: String::with_capacity(256),
    };
    w.value(schema, Ctx::Schema, 0, 0, 0);
    w.out.push('\n');
    w.out
}

/// The canonical bytes of a tool document (see [`to_canonical_string`]).
#[must_use]
pub fn to_canonical_vec(schema: &Value) -> Vec<u8> {
    to_canonical_string(schema).into_bytes()
}

/// What a value is, which decides the order of its keys and the context of its children.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// A schema object.
    Schema,
    /// An array of schemas (`allOf`, `anyOf`, `oneOf`, `items` as an array).
    SchemaList,
    /// A property-name map whose values are schemas.
    SchemaMap,
    /// `dependencies`: names to a schema or an array of names.
    Dependencies,
    /// A level of the `x-neuralis` block.
    Xn(Level),
    /// Anything written as it is, in document order.
    Literal,
}

impl Ctx {
    /// The context of the member `key` of an object in this context.
    fn member(self, key: &str, value: &Value) -> Ctx {
        match self {
            Ctx::Schema => match applicator(key).map(|a| a.holds) {
                Some(Holds::Map) => Ctx::SchemaMap,
                Some(Holds::Dependencies) => Ctx::Dependencies,
                Some(Holds::OneOrArray | Holds::Array) if value.is_array() => Ctx::SchemaList,
                Some(Holds::One | Holds::OneOrArray) => Ctx::Schema,
                None if key == xn::BLOCK => Ctx::Xn(Level::Block),
                _ => Ctx::Literal,
            },
            Ctx::SchemaMap => Ctx::Schema,
            Ctx::Dependencies if value.is_object() => Ctx::Schema,
            Ctx::Xn(Level::Block) => match Level::Block.find(key).map(|k| k.kind) {
                Some(Kind::Level(level)) => Ctx::Xn(level),
                _ => Ctx::Literal,
            },
            _ => Ctx::Literal,
        }
    }

    /// The context of the elements of an array in this context.
    fn element(self) -> Ctx {
        if self == Ctx::SchemaList {
            Ctx::Schema
        } else {
            Ctx::Literal
        }
    }

    /// The key order table of an object in this context, if it is reordered at all.
    fn order(self) -> Option<&'static [&'static str]> {
        match self {
            Ctx::Schema => Some(KEYWORD_ORDER),
            Ctx::Xn(level) => Some(level.names()),
            _ => None,
        }
    }
}

/// The members of `map` in the canonical order for `ctx`.
fn ordered(map: &Map<String, Value>, ctx: Ctx) -> Vec<(&String, &Value)> {
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    if let Some(order) = ctx.order() {
        // Known keys have distinct ranks; unknown keys share the last rank, in byte order.
        let rank = |k: &str| order.iter().position(|o| *o == k).unwrap_or(order.len());
        entries.sort_by(|(a, _), (b, _)| rank(a).cmp(&rank(b)).then_with(|| a.cmp(b)));
    }
    entries
}

struct Writer {
    out: String,
}

impl Writer {
    /// Writes `v` starting at column `col`, with `tail` characters to follow on its last line.
    fn value(&mut self, v: &Value, ctx: Ctx, indent: usize, col: usize, tail: usize) {
        match v {
            Value::Object(map) if !map.is_empty() => {
                let budget = LINE_WIDTH.saturating_sub(col + tail);
                if flat_width(v, ctx, budget).is_some() {
                    self.flat(v, ctx);
                    return;
                }
                let entries = ordered(map, ctx);
                let inner = indent + INDENT;
                self.out.push_str("{\n");
                let last = entries.len() - 1;
                for (i, (k, child)) in entries.into_iter().enumerate() {
                    push_indent(&mut self.out, inner);
                    let key_width = push_string(&mut self.out, k);
                    self.out.push_str(": ");
                    let comma = usize::from(i != last);
                    self.value(
                        child,
                        ctx.member(k, child),
                        inner,
                        inner + key_width + 2,
                        comma,
                    );
                    if comma == 1 {
                        self.out.push(',');
                    }
                    self.out.push('\n');
                }
                push_indent(&mut self.out, indent);
                self.out.push('}');
            }
            Value::Array(items) if !items.is_empty() => {
                let budget = LINE_WIDTH.saturating_sub(col + tail);
                if flat_width(v, ctx, budget).is_some() {
                    self.flat(v, ctx);
                    return;
                }
                let inner = indent + INDENT;
                let elem = ctx.element();
                self.out.push_str("[\n");
                let last = items.len() - 1;
                for (i, item) in items.iter().enumerate() {
                    push_indent(&mut self.out, inner);
                    let comma = usize::from(i != last);
                    self.value(item, elem, inner, inner, comma);
                    if comma == 1 {
                        self.out.push(',');
                    }
                    self.out.push('\n');
                }
                push_indent(&mut self.out, indent);
                self.out.push(']');
            }
            _ => self.flat(v, ctx),
        }
    }

    /// Writes `v` on one line.
    fn flat(&mut self, v: &Value, ctx: Ctx) {
        match v {
            Value::Null => self.out.push_str("null"),
            Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => self.out.push_str(&number_text(n)),
            Value::String(s) => {
                push_string(&mut self.out, s);
            }
            Value::Array(items) => {
                self.out.push('[');
                let elem = ctx.element();
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.flat(item, elem);
                }
                self.out.push(']');
            }
            Value::Object(map) if map.is_empty() => self.out.push_str("{}"),
            Value::Object(map) => {
                self.out.push_str("{ ");
                for (i, (k, child)) in ordered(map, ctx).into_iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    push_string(&mut self.out, k);
                    self.out.push_str(": ");
                    self.flat(child, ctx.member(k, child));
                }
                self.out.push_str(" }");
            }
        }
    }
}

/// The one-line width of `v` in characters, or `None` when it exceeds `budget`.
///
/// Stops as soon as the budget is spent, so a large value costs no more than a small one.
fn flat_width(v: &Value, ctx: Ctx, budget: usize) -> Option<usize> {
    let w = match v {
        Value::Null => 4,
        Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) => number_text(n).len(),
        Value::String(s) => string_width(s, budget)?,
        Value::Array(items) => {
            let mut w = 2 + items.len().saturating_sub(1) * 2;
            let elem = ctx.element();
            for item in items {
                if w > budget {
                    return None;
                }
                w += flat_width(item, elem, budget - w)?;
            }
            w
        }
        Value::Object(map) if map.is_empty() => 2,
        // A schema object and the `x-neuralis` block are never written on one line.
        Value::Object(_) if matches!(ctx, Ctx::Schema | Ctx::Xn(Level::Block)) => return None,
        Value::Object(map) => {
            // `{ ` + ` }` + `, ` between members + `: ` per member.
            let mut w = 4 + (map.len() - 1) * 2 + map.len() * 2;
            for (k, child) in map {
                if w > budget {
                    return None;
                }
                w += string_width(k, budget - w)?;
                if w > budget {
                    return None;
                }
                w += flat_width(child, ctx.member(k, child), budget - w)?;
            }
            w
        }
    };
    (w <= budget).then_some(w)
}

/// The width of `s` written as a JSON string, or `None` when it exceeds `budget`.
fn string_width(s: &str, budget: usize) -> Option<usize> {
    let mut w = 2;
    for c in s.chars() {
        w += match c {
            '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
            c if c < ' ' => 6,
            _ => 1,
        };
        if w > budget {
            return None;
        }
    }
    Some(w)
}

/// Appends `s` as a JSON string (escaped as serde_json does); returns its width in characters.
fn push_string(out: &mut String, s: &str) -> usize {
    let start = out.len();
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c < ' ' => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let b = c as usize;
                out.push_str("\\u00");
                out.push(char::from(HEX[b >> 4]));
                out.push(char::from(HEX[b & 0xf]));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out[start..].chars().count()
}

/// A number as serde_json's serializer writes it (shortest round-trip form for floats).
fn number_text(n: &serde_json::Number) -> String {
    serde_json::to_string(n).unwrap_or_else(|_| n.to_string())
}

fn push_indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}
