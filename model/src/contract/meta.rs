//! The draft-07 meta-schema, decided without a validator where it can be.
//!
//! The meta-schema (<http://json-schema.org/draft-07/schema#>) is small: the type of each
//! keyword's value, and which values are themselves schemas. [`surely_valid`] walks a
//! document with exactly those rules and answers `true` only when the document certainly
//! passes. It leaves three things to the validator: the string formats the meta-schema
//! asserts (`uri-reference` for `$id` and `$ref`, `uri` for `$schema`, `regex` for
//! `pattern` and the keys of `patternProperties`, each asked of the validator on a
//! one-keyword document), numbers it cannot compare exactly (a float where an integer is
//! due), and every refusal, whose messages are the validator's.

use serde_json::{Map, Number, Value};

use super::DRAFT_07;

/// How a keyword of a schema object holds schemas, as the draft-07 meta-schema says: the
/// one table every walk over a schema reads (this module's meta-schema check, the
/// checker's walk, `schema::for_each_subschema_mut` and the canonical writer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holds {
    /// One schema: `additionalProperties`, `additionalItems`, `contains`,
    /// `propertyNames`, `not`, `if`, `then`, `else`.
    One,
    /// One schema, or an array of schemas (a tuple): `items`.
    OneOrArray,
    /// An array of schemas: `allOf`, `anyOf`, `oneOf`.
    Array,
    /// Names to schemas: `properties`, `patternProperties`, `definitions`.
    Map,
    /// Names to a schema or to an array of names: `dependencies`.
    Dependencies,
}

/// A keyword that holds schemas: how it holds them, and whether they apply to the
/// instance itself (`allOf`, `anyOf`, `oneOf`, `not`, `if`, `then`, `else`,
/// `dependencies`) rather than to its members or items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Applicator {
    /// How the schemas sit under the keyword.
    pub holds: Holds,
    /// Whether they constrain the instance the holding schema describes.
    pub in_place: bool,
}

/// What `keyword` holds, if it holds schemas; `None` for every other keyword (`default`,
/// `enum`, `const`, `examples` and unknown keywords hold values, never schemas).
///
/// ```
/// use neuralis_model::contract::meta::{Holds, applicator};
/// assert_eq!(applicator("items").map(|a| a.holds), Some(Holds::OneOrArray));
/// assert!(applicator("not").is_some_and(|a| a.in_place));
/// assert!(applicator("contains").is_some_and(|a| !a.in_place));
/// assert_eq!(applicator("default"), None);
/// ```
#[must_use]
pub fn applicator(keyword: &str) -> Option<Applicator> {
    let (holds, in_place) = match keyword {
        "additionalProperties" | "additionalItems" | "contains" | "propertyNames" => {
            (Holds::One, false)
        }
        "not" | "if" | "then" | "else" => (Holds::One, true),
        "items" => (Holds::OneOrArray, false),
        "allOf" | "anyOf" | "oneOf" => (Holds::Array, true),
        "properties" | "patternProperties" | "definitions" => (Holds::Map, false),
        "dependencies" => (Holds::Dependencies, true),
        _ => return None,
    };
    Some(Applicator { holds, in_place })
}

/// The type names `type` accepts.
const SIMPLE_TYPES: &[&str] = &[
    "array", "boolean", "integer", "null", "number", "object", "string",
];

/// Whether `schema` certainly passes the draft-07 meta-schema; `false` when it does not,
/// or when this walk cannot tell (ask the validator then).
///
/// `format_ok` is asked about a one-keyword document (`{"pattern": ...}`, `{"$ref": ...}`,
/// `{"patternProperties": {key: true}}`, ...) holding a string whose format the
/// meta-schema asserts; it should answer with the real meta-schema validator.
///
/// ```
/// use neuralis_model::contract::meta::surely_valid;
/// let schema = serde_json::json!({
///     "type": "object",
///     "properties": { "n": { "type": "integer", "minimum": 0 } },
///     "required": ["n"]
/// });
/// assert!(surely_valid(&schema, &mut |_| true));
/// assert!(!surely_valid(&serde_json::json!({ "minLength": -1 }), &mut |_| true));
/// ```
pub fn surely_valid(schema: &Value, format_ok: &mut dyn FnMut(&Value) -> bool) -> bool {
    surely_valid_with(schema, &mut |asserted| format_ok(&asserted.document()))
}

/// A string whose format the meta-schema asserts, as the walk meets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asserted<'a> {
    /// The value of `$id` or `$ref` (the keyword), a `uri-reference`.
    Reference(&'a str, &'a str),
    /// The value of `$schema` when it is not draft-07's URI, a `uri`.
    Schema(&'a str),
    /// The value of `pattern`, a `regex`.
    Pattern(&'a str),
    /// A name of `patternProperties`, a `regex`.
    PatternName(&'a str),
}

impl Asserted<'_> {
    /// The one-keyword document holding the string (`{"pattern": ...}`,
    /// `{"patternProperties": {name: true}}`...), what [`surely_valid`] asks about.
    #[must_use]
    pub fn document(self) -> Value {
        match self {
            Asserted::Reference(key, text) => one(key, Value::String(text.to_owned())),
            Asserted::Schema(text) => one("$schema", Value::String(text.to_owned())),
            Asserted::Pattern(text) => one("pattern", Value::String(text.to_owned())),
            Asserted::PatternName(name) => pattern_key(name),
        }
    }
}

/// [`surely_valid`] with each asserted string handed to `format_ok` as it is found (no
/// document built for it): the loader's form.
///
/// ```
/// use neuralis_model::contract::meta::{Asserted, surely_valid_with};
/// let schema = serde_json::json!({ "pattern": "^a" });
/// let mut asked = Vec::new();
/// assert!(surely_valid_with(&schema, &mut |a| {
///     asked.push(a);
///     true
/// }));
/// assert_eq!(asked, [Asserted::Pattern("^a")]);
/// ```
pub fn surely_valid_with<'a>(
    schema: &'a Value,
    format_ok: &mut dyn FnMut(Asserted<'a>) -> bool,
) -> bool {
    is_schema(schema, format_ok)
}

/// The callback the walk asks about each asserted string.
type FormatOk<'f, 'a> = dyn FnMut(Asserted<'a>) -> bool + 'f;

/// `{"$ref": "#"}`: an object or a boolean, whose known keywords have their types.
fn is_schema<'a>(value: &'a Value, format_ok: &mut FormatOk<'_, 'a>) -> bool {
    match value {
        Value::Bool(_) => true,
        Value::Object(schema) => schema
            .iter()
            .all(|(key, value)| keyword_ok(key, value, format_ok)),
        _ => false,
    }
}

fn keyword_ok<'a>(key: &'a str, value: &'a Value, format_ok: &mut FormatOk<'_, 'a>) -> bool {
    if let Some(applicator) = applicator(key) {
        return schemas_ok(key, applicator.holds, value, format_ok);
    }
    match key {
        "$id" | "$ref" => value
            .as_str()
            .is_some_and(|text| format_ok(Asserted::Reference(key, text))),
        "$schema" => match value {
            Value::String(s) if s == DRAFT_07 => true,
            Value::String(s) => format_ok(Asserted::Schema(s)),
            _ => false,
        },
        "pattern" => value
            .as_str()
            .is_some_and(|text| format_ok(Asserted::Pattern(text))),
        "$comment" | "title" | "description" | "format" | "contentMediaType"
        | "contentEncoding" => value.is_string(),
        "readOnly" | "writeOnly" | "uniqueItems" => value.is_boolean(),
        "examples" | "enum" => value.is_array(),
        "multipleOf" => value.as_number().is_some_and(positive),
        "maximum" | "exclusiveMaximum" | "minimum" | "exclusiveMinimum" => value.is_number(),
        "maxLength" | "minLength" | "maxItems" | "minItems" | "maxProperties" | "minProperties" => {
            value.is_u64()
        }
        "required" => string_array(value),
        "type" => match value {
            Value::String(t) => SIMPLE_TYPES.contains(&t.as_str()),
            Value::Array(types) => {
                !types.is_empty()
                    && types
                        .iter()
                        .all(|t| t.as_str().is_some_and(|t| SIMPLE_TYPES.contains(&t)))
                    && distinct(types)
            }
            _ => false,
        },
        // `default`, `const`, and keywords the meta-schema does not name: anything.
        _ => true,
    }
}

/// The value of a keyword that holds schemas, as [`applicator`] says it holds them (and
/// `patternProperties`' keys regular expressions).
fn schemas_ok<'a>(
    key: &str,
    holds: Holds,
    value: &'a Value,
    format_ok: &mut FormatOk<'_, 'a>,
) -> bool {
    match (holds, value) {
        (Holds::One, _) | (Holds::OneOrArray, Value::Object(_) | Value::Bool(_)) => {
            is_schema(value, format_ok)
        }
        (Holds::OneOrArray | Holds::Array, Value::Array(items)) => schema_array(items, format_ok),
        (Holds::Map, Value::Object(map)) => map.iter().all(|(name, v)| {
            is_schema(v, format_ok)
                && (key != "patternProperties" || format_ok(Asserted::PatternName(name)))
        }),
        (Holds::Dependencies, Value::Object(map)) => map.values().all(|v| match v {
            Value::Array(_) => string_array(v),
            other => is_schema(other, format_ok),
        }),
        _ => false,
    }
}

/// `schemaArray`: at least one item, each a schema.
fn schema_array<'a>(items: &'a [Value], format_ok: &mut FormatOk<'_, 'a>) -> bool {
    !items.is_empty() && items.iter().all(|v| is_schema(v, format_ok))
}

/// `stringArray`: distinct strings.
fn string_array(value: &Value) -> bool {
    value
        .as_array()
        .is_some_and(|items| items.iter().all(Value::is_string) && distinct(items))
}

/// Whether strings are pairwise distinct (callers checked they are strings).
fn distinct(items: &[Value]) -> bool {
    items
        .iter()
        .enumerate()
        .all(|(i, a)| items[..i].iter().all(|b| a != b))
}

/// `exclusiveMinimum: 0`, for the numbers that compare exactly.
fn positive(n: &Number) -> bool {
    if let Some(u) = n.as_u64() {
        u > 0
    } else if n.as_i64().is_some() {
        false
    } else {
        n.as_f64().is_some_and(|f| f > 0.0)
    }
}

fn one(key: &str, value: Value) -> Value {
    let mut map = Map::new();
    map.insert(key.to_owned(), value);
    Value::Object(map)
}

fn pattern_key(pattern: &str) -> Value {
    let mut keys = Map::new();
    keys.insert(pattern.to_owned(), Value::Bool(true));
    one("patternProperties", Value::Object(keys))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sure(schema: Value) -> bool {
        surely_valid(&schema, &mut |_| true)
    }

    #[test]
    fn well_typed_keywords_pass() {
        assert!(sure(json!(true)));
        assert!(sure(json!({
            "$schema": DRAFT_07,
            "type": ["string", "null"],
            "items": [{}, true],
            "dependencies": { "a": ["b"], "c": { "required": ["a"] } },
            "multipleOf": 0.5,
            "minLength": 0,
            "x-anything": [1, {"type": 3}],
            "default": {"type": 3},
            "enum": [],
        })));
    }

    #[test]
    fn wrong_types_are_not_vouched_for() {
        for schema in [
            json!(1),
            json!({ "type": "strng" }),
            json!({ "type": [] }),
            json!({ "type": ["string", "string"] }),
            json!({ "required": ["a", "a"] }),
            json!({ "required": [1] }),
            json!({ "items": [] }),
            json!({ "allOf": [] }),
            json!({ "minLength": -1 }),
            json!({ "minLength": 1.0 }),
            json!({ "multipleOf": 0 }),
            json!({ "multipleOf": -1 }),
            json!({ "properties": { "a": 1 } }),
            json!({ "dependencies": { "a": 1 } }),
            json!({ "readOnly": "yes" }),
            json!({ "$ref": 1 }),
            json!({ "not": { "not": { "type": 1 } } }),
        ] {
            assert!(!sure(schema.clone()), "{schema}");
        }
    }

    #[test]
    fn formats_are_asked_of_the_validator() {
        let mut asked = Vec::new();
        let schema = json!({
            "$schema": DRAFT_07,
            "$id": "x",
            "properties": { "a": { "$ref": "#/definitions/b", "pattern": "^a" } },
            "patternProperties": { "^b": {} },
        });
        assert!(!surely_valid(&schema, &mut |doc| {
            asked.push(doc.clone());
            doc.get("pattern").is_none()
        }));
        assert!(asked.contains(&json!({ "$id": "x" })));
        assert!(asked.contains(&json!({ "$ref": "#/definitions/b" })));
        assert!(asked.contains(&json!({ "pattern": "^a" })));
        assert!(!asked.contains(&json!({ "$schema": DRAFT_07 })));
    }
}
