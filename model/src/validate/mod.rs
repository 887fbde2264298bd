//! One draft-07 validator for the schemas the toolkit writes.
//!
//! [`Validator::compile`] reads a schema once into checks (no schema walking is left for
//! a call); [`Validator::is_valid`] answers without allocating, and
//! [`Validator::errors`] lists every failure with the JSON pointer of the failing value
//! and the message `jsonschema` words for it (the instance masked as `value`).
//!
//! The keywords read are the ones the toolkit emits: `type`, `enum`, `const`, `minimum`,
//! `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (draft-07 numbers), `multipleOf`,
//! `minLength`, `maxLength` (in code points), `pattern` (ECMA-262, see `ecma`),
//! `format` (what draft-07 asserts, see `format`), `items` (one schema), `minItems`,
//! `maxItems`, `uniqueItems`, `properties`, `required`, `additionalProperties`,
//! `propertyNames`, `allOf`, `anyOf`, `oneOf`, `not`, `$ref` into the same document (`#`,
//! `#/definitions/...`; draft-07 ignores a `$ref`'s siblings), boolean schemas, and the
//! annotations (`default`, `examples`, `title`, `description`, `$comment`, `readOnly`,
//! `writeOnly`, `$schema`, `definitions`). A keyword draft-07 defines outside that set
//! (`patternProperties`, `dependencies`, `if`, `contains`, tuple `items`, `$id`,
//! `minProperties`...) makes the schema *not in the subset*: [`compile`](Validator::compile)
//! says so, naming the keyword and where it is, and the caller needs a general validator.
//! Other keys (`x-neuralis`, `deprecated`) are ignored, as draft-07 ignores unknown keys.
//!
//! ```
//! use neuralis_model::validate::Validator;
//! use serde_json::json;
//!
//! let v = Validator::compile(&json!({
//!     "type": "object",
//!     "properties": { "city": { "type": "string", "minLength": 1 } },
//!     "required": ["city"],
//!     "additionalProperties": false
//! })).expect("in the subset");
//! assert!(v.is_valid(&json!({"city": "Porto"})));
//! let errors = v.errors(&json!({"city": ""}));
//! assert_eq!(errors[0].pointer, "/city");
//! assert_eq!(errors[0].message, "value is shorter than 1 character");
//!
//! let outside = Validator::compile(&json!({"patternProperties": {"^a": {}}}));
//! assert_eq!(outside.err().map(|e| e.keyword), Some("patternProperties".to_owned()));
//! ```

mod draft07;
mod ecma;
mod format;
mod num;

use std::collections::HashMap;
use std::fmt;

use serde_json::{Map, Number, Value};

use crate::contract::push_pointer;
use crate::schema::{default_property_names, default_property_names_accepts};

pub use draft07::{META_SCHEMA, Subset, meta_errors};
use format::{Format, Known};
use num::Num;

/// Why a `pattern` cannot be used: not an ECMA-262 regular expression, or one the built-in
/// engine does not run (lookaround, backreferences, `\p{...}`, modifiers: a general
/// validator runs those).
///
/// ```
/// use neuralis_model::validate::{PatternProblem, check_pattern};
/// assert_eq!(check_pattern("^[a-z]+$"), Ok(()));
/// assert_eq!(check_pattern("(?P<n>a)"), Err(PatternProblem::Invalid));
/// assert_eq!(check_pattern("a(?=b)"), Err(PatternProblem::NotInSubset("lookaround")));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatternProblem {
    /// Not an ECMA-262 regular expression (under the `u` flag).
    Invalid,
    /// Valid, but using this construct, which the built-in engine does not run.
    NotInSubset(&'static str),
}

/// Whether `pattern` is an ECMA-262 regular expression the built-in validator runs (the
/// language of JSON Schema's `pattern`, as the platform's JavaScript engine reads it).
///
/// # Errors
///
/// The [`PatternProblem`].
pub fn check_pattern(pattern: &str) -> Result<(), PatternProblem> {
    match ecma::parse(pattern) {
        Err(ecma::Invalid) => Err(PatternProblem::Invalid),
        Ok(ecma::Translation::Unsupported(what)) => Err(PatternProblem::NotInSubset(what)),
        Ok(ecma::Translation::Runs(translated)) => regex_lite::Regex::new(&translated)
            .map(|_| ())
            .map_err(|_| {
                PatternProblem::NotInSubset("a pattern too large for the built-in engine")
            }),
    }
}

/// How deep validation follows subschemas (`$ref` cycles that consume no input stop here).
const MAX_DEPTH: usize = 1024;

/// A compiled schema (see the [module docs](self)).
#[derive(Debug)]
pub struct Validator {
    nodes: Vec<Node>,
}

/// Why a schema did not compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    /// The JSON pointer, in the schema, of the subschema holding the keyword.
    pub pointer: String,
    /// The keyword.
    pub keyword: String,
    /// What is wrong.
    pub kind: CompileErrorKind,
}

/// What a [`CompileError`] is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompileErrorKind {
    /// A valid draft-07 keyword (or value, such as a lookaround in a `pattern`) that this
    /// validator does not read: the schema needs a general draft-07 validator.
    NotInSubset(String),
    /// Not a valid draft-07 schema there (a `pattern` that is no regular expression, a
    /// `$ref` to nothing...).
    Invalid(String),
}

impl CompileError {
    /// Whether the schema is valid draft-07 but outside the subset.
    #[must_use]
    pub fn is_not_in_subset(&self) -> bool {
        matches!(self.kind, CompileErrorKind::NotInSubset(_))
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        match &self.kind {
            CompileErrorKind::NotInSubset(what) => write!(
                f,
                "`{}` at `{at}` ({what}) is not in the subset of draft-07 the built-in validator reads",
                self.keyword
            ),
            CompileErrorKind::Invalid(what) => {
                write!(f, "`{}` at `{at}`: {what}", self.keyword)
            }
        }
    }
}

impl std::error::Error for CompileError {}

/// One failure of a value against a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// The JSON pointer of the failing value in the instance.
    pub pointer: String,
    /// What is wrong, as `jsonschema` words it with the instance masked as `value`.
    pub message: String,
    /// What failed.
    pub kind: ErrorKind,
}

/// What a [`ValidationError`] is about: the keyword, and for `required` and
/// `additionalProperties` the names involved.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `type`.
    Type,
    /// `enum`.
    Enum,
    /// `const`.
    Const,
    /// `minimum`.
    Minimum,
    /// `maximum`.
    Maximum,
    /// `exclusiveMinimum`.
    ExclusiveMinimum,
    /// `exclusiveMaximum`.
    ExclusiveMaximum,
    /// `multipleOf`.
    MultipleOf,
    /// `minLength`.
    MinLength,
    /// `maxLength`.
    MaxLength,
    /// `pattern`.
    Pattern,
    /// `format`.
    Format,
    /// `minItems`.
    MinItems,
    /// `maxItems`.
    MaxItems,
    /// `uniqueItems`.
    UniqueItems,
    /// `required`: the missing property.
    Required {
        /// The property.
        property: String,
    },
    /// `additionalProperties: false`: the properties it does not allow.
    AdditionalProperties {
        /// The properties, in the instance's order.
        unexpected: Vec<String>,
    },
    /// The schema `false` (or `additionalProperties: false` with no `properties`).
    FalseSchema,
    /// `propertyNames`.
    PropertyNames,
    /// `anyOf`.
    AnyOf,
    /// `oneOf`, no branch valid.
    OneOfNotValid,
    /// `oneOf`, more than one branch valid.
    OneOfMultipleValid,
    /// `not`.
    Not,
    /// A schema that refers to itself without end.
    Recursion,
}

#[derive(Debug)]
enum Node {
    True,
    False,
    /// A `$ref` (its siblings ignored, as draft-07 says); resolved after compiling.
    Ref(usize),
    Checks(Vec<Check>),
    /// Being compiled.
    Pending,
}

const NULL: u8 = 1;
const BOOLEAN: u8 = 2;
const INTEGER: u8 = 4;
const NUMBER: u8 = 8;
const STRING: u8 = 16;
const ARRAY: u8 = 32;
const OBJECT: u8 = 64;
const TYPE_NAMES: [(u8, &str); 7] = [
    (NULL, "null"),
    (BOOLEAN, "boolean"),
    (INTEGER, "integer"),
    (NUMBER, "number"),
    (STRING, "string"),
    (ARRAY, "array"),
    (OBJECT, "object"),
];

#[derive(Debug)]
enum Check {
    Type {
        set: u8,
        single: bool,
    },
    Enum(Vec<Value>),
    Const(Value),
    Minimum(Num, Number),
    Maximum(Num, Number),
    ExclusiveMinimum(Num, Number),
    ExclusiveMaximum(Num, Number),
    MultipleOf(f64),
    MinLength(u64),
    MaxLength(u64),
    Pattern(Box<regex_lite::Regex>, String),
    Format(Format, String),
    Items(usize),
    MinItems(u64),
    MaxItems(u64),
    UniqueItems,
    /// `properties` with `additionalProperties` absent or `true`.
    Properties(Vec<(Name, usize)>),
    /// `properties` (possibly none) with `additionalProperties`: `None` is `false`.
    Closed {
        properties: Vec<(Name, usize)>,
        additional: Option<usize>,
        /// Whether the schema has `properties` at all (without it, an extra key is the
        /// false schema's failure, as `jsonschema` words it).
        declared: bool,
        /// A `required` of one name beside `additionalProperties: false`: `jsonschema`
        /// checks it in the same pass and reports it after the members.
        required: Option<String>,
        /// The declared properties a sibling `required` names (bits by index), checked in
        /// the members' pass by `is_valid`; the `required` check then answers `true` there
        /// (and still reports, in its place, when errors are listed).
        required_mask: u64,
    },
    /// The names; `true` when the closed object's pass checks them (`is_valid` only).
    Required(Vec<String>, bool),
    PropertyNames(usize),
    /// The default `propertyNames` the normalizer writes, decided without a regex.
    DefaultPropertyNames(Box<Value>),
    AllOf(Vec<usize>),
    AnyOf(Vec<usize>),
    OneOf(Vec<usize>),
    Not(usize, Box<Value>),
}

/// A declared property name, with what a look-up compares first: its length and its
/// first eight bytes.
#[derive(Debug)]
struct Name {
    text: String,
    head: u64,
}

impl Name {
    fn new(text: &str) -> Name {
        Name {
            text: text.to_owned(),
            head: head(text),
        }
    }

    #[inline]
    fn matches(&self, key: &str, key_head: u64) -> bool {
        self.head == key_head
            && self.text.len() == key.len()
            && (key.len() <= 8 || self.text.as_bytes()[8..] == key.as_bytes()[8..])
    }
}

/// The first eight bytes of a key (zero-padded), as one number.
#[inline]
fn head(key: &str) -> u64 {
    let b = key.as_bytes();
    if let Some(first) = b.first_chunk::<8>() {
        return u64::from_le_bytes(*first);
    }
    let mut h = 0u64;
    for (i, byte) in b.iter().enumerate() {
        h |= u64::from(*byte) << (8 * i);
    }
    h
}

/// Whether `v` is of a type in `set` (an integer is a number; `1.0` is an integer).
#[inline]
fn type_matches(set: u8, v: &Value) -> bool {
    match v {
        Value::Null => set & NULL != 0,
        Value::Bool(_) => set & BOOLEAN != 0,
        Value::Number(n) => set & NUMBER != 0 || (set & INTEGER != 0 && Num::of(n).is_integral()),
        Value::String(_) => set & STRING != 0,
        Value::Array(_) => set & ARRAY != 0,
        Value::Object(_) => set & OBJECT != 0,
    }
}

/// A numeric keyword: a number is checked, anything else passes.
#[inline]
fn number(v: &Value, ok: impl FnOnce(Num) -> bool) -> bool {
    match v {
        Value::Number(n) => ok(Num::of(n)),
        _ => true,
    }
}

/// A path segment of the instance, turned into a pointer only for an error.
#[derive(Clone, Copy)]
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

fn pointer(path: &[Seg<'_>]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => out = push_pointer(&out, k),
            Seg::Index(i) => {
                out.push('/');
                out.push_str(&i.to_string());
            }
        }
    }
    out
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

struct Compiler<'s> {
    root: &'s Value,
    nodes: Vec<Node>,
    by_pointer: HashMap<String, usize>,
    /// Subschemas to compile: (node, pointer).
    queue: Vec<(usize, String)>,
}

fn invalid(pointer: &str, keyword: &str, what: impl Into<String>) -> CompileError {
    CompileError {
        pointer: pointer.to_owned(),
        keyword: keyword.to_owned(),
        kind: CompileErrorKind::Invalid(what.into()),
    }
}

fn outside(pointer: &str, keyword: &str, what: impl Into<String>) -> CompileError {
    CompileError {
        pointer: pointer.to_owned(),
        keyword: keyword.to_owned(),
        kind: CompileErrorKind::NotInSubset(what.into()),
    }
}

/// A same-document reference (`#`, `#/definitions/A`, percent-encoded) as a JSON pointer.
fn ref_pointer(reference: &str) -> Option<String> {
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

fn non_negative(value: &Value) -> Option<u64> {
    match value {
        Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 1.8e19)
                .map(|f| {
                    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                    let n = f as u64;
                    n
                })
        }),
        _ => None,
    }
}

impl<'s> Compiler<'s> {
    /// The node for the subschema at `pointer`, compiled once.
    fn node_at(&mut self, pointer: String) -> usize {
        if let Some(&id) = self.by_pointer.get(&pointer) {
            return id;
        }
        let id = self.nodes.len();
        self.nodes.push(Node::Pending);
        self.by_pointer.insert(pointer.clone(), id);
        self.queue.push((id, pointer));
        id
    }

    fn sub(&mut self, base: &str, key: &str) -> usize {
        self.node_at(push_pointer(base, key))
    }

    fn run(&mut self) -> Result<(), CompileError> {
        while let Some((id, pointer)) = self.queue.pop() {
            let Some(schema) = self.root.pointer(&pointer) else {
                return Err(invalid(
                    &pointer,
                    "$ref",
                    "it points to nothing in the document",
                ));
            };
            self.nodes[id] = self.compile(schema, &pointer)?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_lines)]
    fn compile(&mut self, schema: &'s Value, at: &str) -> Result<Node, CompileError> {
        let map = match schema {
            Value::Bool(true) => return Ok(Node::True),
            Value::Bool(false) => return Ok(Node::False),
            Value::Object(map) => map,
            _ => return Err(invalid(at, "", "a schema must be an object or a boolean")),
        };
        if let Some(reference) = map.get("$ref") {
            let Value::String(reference) = reference else {
                return Err(invalid(at, "$ref", "`$ref` must be a string"));
            };
            let Some(target) = ref_pointer(reference) else {
                return Err(outside(
                    at,
                    "$ref",
                    format!("`{reference}` is not in this document"),
                ));
            };
            if self.root.pointer(&target).is_none() {
                return Err(invalid(
                    at,
                    "$ref",
                    format!("`{reference}` points to nothing"),
                ));
            }
            return Ok(Node::Ref(self.node_at(target)));
        }
        let mut checks = Vec::new();
        let additional = map.get("additionalProperties");
        let closed = matches!(additional, Some(Value::Bool(false) | Value::Object(_)));
        for (key, value) in map {
            let here = |what: &str| invalid(at, key, what);
            match key.as_str() {
                "type" => {
                    let (set, single) = match value {
                        Value::String(name) => {
                            (type_bit(name).ok_or_else(|| here("unknown type"))?, true)
                        }
                        Value::Array(names) => {
                            let mut set = 0;
                            for name in names {
                                set |= name
                                    .as_str()
                                    .and_then(type_bit)
                                    .ok_or_else(|| here("unknown type"))?;
                            }
                            (set, false)
                        }
                        _ => return Err(here("`type` must be a string or an array")),
                    };
                    checks.push(Check::Type { set, single });
                }
                "enum" => {
                    let Value::Array(options) = value else {
                        return Err(here("`enum` must be an array"));
                    };
                    checks.push(Check::Enum(options.clone()));
                }
                "const" => checks.push(Check::Const(value.clone())),
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
                    let Value::Number(n) = value else {
                        return Err(here("must be a number"));
                    };
                    let limit = Num::of(n);
                    checks.push(match key.as_str() {
                        "minimum" => Check::Minimum(limit, n.clone()),
                        "maximum" => Check::Maximum(limit, n.clone()),
                        "exclusiveMinimum" => Check::ExclusiveMinimum(limit, n.clone()),
                        _ => Check::ExclusiveMaximum(limit, n.clone()),
                    });
                }
                "multipleOf" => {
                    let m = value.as_f64().filter(|m| *m > 0.0);
                    let Some(m) = m else {
                        return Err(here("`multipleOf` must be a number above 0"));
                    };
                    checks.push(Check::MultipleOf(m));
                }
                "minLength" | "maxLength" | "minItems" | "maxItems" => {
                    let n = non_negative(value)
                        .ok_or_else(|| here("must be a non-negative integer"))?;
                    checks.push(match key.as_str() {
                        "minLength" => Check::MinLength(n),
                        "maxLength" => Check::MaxLength(n),
                        "minItems" => Check::MinItems(n),
                        _ => Check::MaxItems(n),
                    });
                }
                "uniqueItems" => match value {
                    Value::Bool(true) => checks.push(Check::UniqueItems),
                    Value::Bool(false) => {}
                    _ => return Err(here("`uniqueItems` must be a boolean")),
                },
                "pattern" => {
                    let Value::String(pattern) = value else {
                        return Err(here("`pattern` must be a string"));
                    };
                    match ecma::parse(pattern) {
                        Err(ecma::Invalid) => {
                            return Err(here(&format!(
                                "{pattern:?} is not an ECMA-262 regular expression"
                            )));
                        }
                        Ok(ecma::Translation::Unsupported(what)) => {
                            return Err(outside(at, key, format!("the pattern uses {what}")));
                        }
                        Ok(ecma::Translation::Runs(translated)) => {
                            let re = regex_lite::Regex::new(&translated).map_err(|_| {
                                outside(
                                    at,
                                    key,
                                    "the pattern is too large for the built-in regex engine",
                                )
                            })?;
                            checks.push(Check::Pattern(Box::new(re), pattern.clone()));
                        }
                    }
                }
                "format" => {
                    let Value::String(name) = value else {
                        return Err(here("`format` must be a string"));
                    };
                    match Format::of(name) {
                        Known::Asserted(f) => checks.push(Check::Format(f, name.clone())),
                        Known::NotInSubset => {
                            return Err(outside(at, key, format!("the format `{name}`")));
                        }
                        Known::Annotation => {}
                    }
                }
                "items" => match value {
                    Value::Array(_) => {
                        return Err(outside(at, key, "`items` as an array (tuple validation)"));
                    }
                    _ => {
                        let id = self.sub(at, "items");
                        checks.push(Check::Items(id));
                    }
                },
                "properties" => {
                    let Value::Object(props) = value else {
                        return Err(here("`properties` must be an object"));
                    };
                    if !closed {
                        let base = push_pointer(at, "properties");
                        let list = props
                            .keys()
                            .map(|k| (Name::new(k), self.sub(&base, k)))
                            .collect();
                        checks.push(Check::Properties(list));
                    }
                }
                "additionalProperties" => {
                    if closed {
                        let properties = match map.get("properties") {
                            Some(Value::Object(props)) => {
                                let base = push_pointer(at, "properties");
                                props
                                    .keys()
                                    .map(|k| (Name::new(k), self.sub(&base, k)))
                                    .collect()
                            }
                            Some(_) => {
                                return Err(invalid(
                                    at,
                                    "properties",
                                    "`properties` must be an object",
                                ));
                            }
                            None => Vec::new(),
                        };
                        let additional = match value {
                            Value::Bool(false) => None,
                            _ => Some(self.sub(at, "additionalProperties")),
                        };
                        checks.push(Check::Closed {
                            properties,
                            additional,
                            declared: map.contains_key("properties"),
                            required: None,
                            required_mask: 0,
                        });
                    } else if !value.is_boolean() {
                        return Err(here("`additionalProperties` must be a schema"));
                    }
                }
                "required" => {
                    let Value::Array(names) = value else {
                        return Err(here("`required` must be an array"));
                    };
                    let names: Option<Vec<String>> = names
                        .iter()
                        .map(|n| n.as_str().map(str::to_owned))
                        .collect();
                    let names = names.ok_or_else(|| here("`required` must list strings"))?;
                    if !names.is_empty() {
                        checks.push(Check::Required(names, false));
                    }
                }
                "propertyNames" => {
                    if *value == default_property_names() {
                        checks.push(Check::DefaultPropertyNames(Box::new(value.clone())));
                    } else {
                        let id = self.sub(at, "propertyNames");
                        checks.push(Check::PropertyNames(id));
                    }
                }
                "allOf" | "anyOf" | "oneOf" => {
                    let Value::Array(branches) = value else {
                        return Err(here("must be an array of schemas"));
                    };
                    let base = push_pointer(at, key);
                    let ids = (0..branches.len())
                        .map(|i| self.sub(&base, &i.to_string()))
                        .collect();
                    checks.push(match key.as_str() {
                        "allOf" => Check::AllOf(ids),
                        "anyOf" => Check::AnyOf(ids),
                        _ => Check::OneOf(ids),
                    });
                }
                "not" => {
                    let id = self.sub(at, "not");
                    checks.push(Check::Not(id, Box::new(value.clone())));
                }
                "$id" | "additionalItems" | "contains" | "minProperties" | "maxProperties"
                | "patternProperties" | "dependencies" | "if" | "then" | "else"
                | "contentMediaType" | "contentEncoding" => {
                    return Err(outside(
                        at,
                        key,
                        "a keyword the built-in validator does not read",
                    ));
                }
                // Annotations, `definitions` (compiled when referred to), unknown keys.
                _ => {}
            }
        }
        // `jsonschema` runs (and reports) a schema's keywords cheapest first; so do we,
        // so that the first failure is the same one.
        checks.sort_by_key(Check::priority);
        // One required name beside `additionalProperties: false` is checked by the closed
        // object's pass, and reported after it.
        let one_required = checks
            .iter()
            .position(|c| matches!(c, Check::Required(n, _) if n.len() == 1));
        let closed_false = checks.iter().any(|c| {
            matches!(
                c,
                Check::Closed {
                    declared: true,
                    additional: None,
                    ..
                }
            )
        });
        if let Some(i) = one_required.filter(|_| closed_false)
            && let Check::Required(mut names, _) = checks.remove(i)
            && let Some(Check::Closed { required, .. }) = checks
                .iter_mut()
                .find(|c| matches!(c, Check::Closed { .. }))
        {
            *required = names.pop();
        }
        // A `required` whose names the closed object declares is checked in its pass.
        let closed_names: Option<Vec<String>> = checks.iter().find_map(|c| match c {
            Check::Closed {
                properties,
                declared: true,
                ..
            } if properties.len() <= 64 => {
                Some(properties.iter().map(|(n, _)| n.text.clone()).collect())
            }
            _ => None,
        });
        if let Some(declared) = closed_names {
            let mut mask = 0u64;
            let mut covered = false;
            for c in &mut checks {
                if let Check::Required(names, cover) = c {
                    let bits: Option<u64> = names
                        .iter()
                        .map(|n| declared.iter().position(|d| d == n).map(|i| 1u64 << i))
                        .try_fold(0, |acc, bit| bit.map(|b| acc | b));
                    if let Some(bits) = bits {
                        mask |= bits;
                        *cover = true;
                        covered = true;
                    }
                }
            }
            if covered
                && let Some(Check::Closed { required_mask, .. }) = checks
                    .iter_mut()
                    .find(|c| matches!(c, Check::Closed { .. }))
            {
                *required_mask = mask;
            }
        }
        Ok(Node::Checks(checks))
    }
}

impl Check {
    /// The order of a schema's keywords: `jsonschema`'s (cheap assertions first, then the
    /// applicators), document order between equals.
    fn priority(&self) -> u8 {
        match self {
            Check::Type { .. } => 1,
            Check::Const(_) => 5,
            Check::Enum(_) => 6,
            Check::Minimum(..) => 10,
            Check::Maximum(..) => 11,
            Check::ExclusiveMinimum(..) => 12,
            Check::ExclusiveMaximum(..) => 13,
            Check::MultipleOf(_) => 14,
            Check::MinLength(_) => 20,
            Check::MaxLength(_) => 21,
            Check::MinItems(_) => 22,
            Check::MaxItems(_) => 23,
            Check::Required(..) => 26,
            Check::Pattern(..) => 30,
            Check::Format(..) => 31,
            Check::UniqueItems => 35,
            Check::Properties(_) => 40,
            Check::Closed { .. } => 42,
            Check::PropertyNames(_) | Check::DefaultPropertyNames(_) => 43,
            Check::Items(_) => 44,
            Check::AllOf(_) => 50,
            Check::AnyOf(_) => 51,
            Check::OneOf(_) => 52,
            Check::Not(..) => 53,
        }
    }
}

fn type_bit(name: &str) -> Option<u8> {
    TYPE_NAMES.iter().find(|(_, n)| *n == name).map(|(b, _)| *b)
}

impl Validator {
    /// Compiles `schema`, or says why it cannot: outside the subset (a general validator is
    /// needed) or invalid.
    ///
    /// # Errors
    ///
    /// A [`CompileError`] naming the keyword and its place.
    pub fn compile(schema: &Value) -> Result<Validator, CompileError> {
        let mut c = Compiler {
            root: schema,
            nodes: Vec::new(),
            by_pointer: HashMap::new(),
            queue: Vec::new(),
        };
        c.node_at(String::new());
        c.run()?;
        let mut nodes = c.nodes;
        // A chain of `$ref`s that comes back to itself validates nothing: `true`, as
        // `jsonschema` reads it.
        for start in 0..nodes.len() {
            let mut at = start;
            let mut steps = 0;
            while let Node::Ref(next) = nodes[at] {
                at = next;
                steps += 1;
                if steps > nodes.len() {
                    nodes[start] = Node::True;
                    break;
                }
            }
        }
        Ok(Validator { nodes })
    }

    /// Whether `instance` is valid.
    #[must_use]
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.valid(0, instance, 0)
    }

    /// Every failure of `instance`, in the order `jsonschema` reports them.
    #[must_use]
    pub fn errors(&self, instance: &Value) -> Vec<ValidationError> {
        let mut out = Vec::new();
        if !self.is_valid(instance) {
            let mut path = Vec::new();
            self.collect(0, instance, &mut path, &mut out, 0);
        }
        out
    }

    /// The first failure of `instance`, if any.
    #[must_use]
    pub fn first_error(&self, instance: &Value) -> Option<ValidationError> {
        self.errors(instance).into_iter().next()
    }

    #[inline]
    fn valid(&self, id: usize, v: &Value, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        match &self.nodes[id] {
            Node::True | Node::Pending => true,
            Node::False => false,
            Node::Ref(target) => self.valid(*target, v, depth + 1),
            Node::Checks(checks) => checks.iter().all(|c| self.check_valid(c, v, depth)),
        }
    }

    /// One keyword: the assertions in line, the applicators (which recurse) in
    /// [`nested_valid`](Self::nested_valid), so that a leaf costs no call.
    #[inline]
    fn check_valid(&self, check: &Check, v: &Value, depth: usize) -> bool {
        // On the keyword first (one jump), then on the instance.
        match check {
            Check::Type { set, .. } => type_matches(*set, v),
            Check::Enum(options) => options.iter().any(|o| num::equal(o, v)),
            Check::Const(c) => num::equal(c, v),
            Check::Minimum(l, _) => number(v, |n| num::compare(n, *l).is_some_and(|o| o.is_ge())),
            Check::Maximum(l, _) => number(v, |n| num::compare(n, *l).is_some_and(|o| o.is_le())),
            Check::ExclusiveMinimum(l, _) => {
                number(v, |n| num::compare(n, *l).is_some_and(|o| o.is_gt()))
            }
            Check::ExclusiveMaximum(l, _) => {
                number(v, |n| num::compare(n, *l).is_some_and(|o| o.is_lt()))
            }
            Check::MultipleOf(m) => number(v, |n| num::is_multiple_of(n, *m)),
            Check::MinLength(l) => v.as_str().is_none_or(|s| length_at_least(s, *l)),
            Check::MaxLength(l) => v.as_str().is_none_or(|s| length_at_most(s, *l)),
            Check::Pattern(re, _) => v.as_str().is_none_or(|s| re.is_match(s)),
            Check::Format(f, _) => v.as_str().is_none_or(|s| f.accepts(s)),
            Check::MinItems(l) => v.as_array().is_none_or(|items| items.len() as u64 >= *l),
            Check::MaxItems(l) => v.as_array().is_none_or(|items| items.len() as u64 <= *l),
            Check::Required(names, covered) => {
                *covered
                    || v.as_object()
                        .is_none_or(|map| names.iter().all(|n| has_key(map, n)))
            }
            _ => self.nested_valid(check, v, depth),
        }
    }

    /// The keywords that hold subschemas (see [`check_valid`](Self::check_valid)).
    #[inline(never)]
    fn nested_valid(&self, check: &Check, v: &Value, depth: usize) -> bool {
        match check {
            Check::Items(id) => v
                .as_array()
                .is_none_or(|items| items.iter().all(|i| self.valid(*id, i, depth + 1))),
            Check::UniqueItems => v.as_array().is_none_or(|items| unique(items)),
            Check::Properties(props) => {
                let Value::Object(map) = v else {
                    return true;
                };
                if map.len() > props.len() * 4 {
                    props.iter().all(|(k, id)| {
                        map.get(&k.text)
                            .is_none_or(|value| self.valid(*id, value, depth + 1))
                    })
                } else {
                    map.iter().all(|(k, value)| {
                        props
                            .iter()
                            .find(|(name, _)| name.matches(k, head(k)))
                            .is_none_or(|(_, id)| self.valid(*id, value, depth + 1))
                    })
                }
            }
            Check::Closed {
                properties,
                additional,
                required,
                required_mask,
                ..
            } => {
                let Value::Object(map) = v else {
                    return true;
                };
                if !required.as_ref().is_none_or(|n| has_key(map, n)) {
                    return false;
                }
                let mut seen = 0u64;
                for (k, value) in map {
                    let h = head(k);
                    let ok = match properties.iter().position(|(name, _)| name.matches(k, h)) {
                        Some(i) => {
                            if i < 64 {
                                seen |= 1 << i;
                            }
                            self.valid(properties[i].1, value, depth + 1)
                        }
                        None => additional.is_some_and(|id| self.valid(id, value, depth + 1)),
                    };
                    if !ok {
                        return false;
                    }
                }
                seen & required_mask == *required_mask
            }
            Check::Required(names, covered) => {
                *covered
                    || v.as_object()
                        .is_none_or(|map| names.iter().all(|n| has_key(map, n)))
            }
            Check::PropertyNames(id) => v.as_object().is_none_or(|map| {
                map.keys()
                    .all(|k| self.valid(*id, &Value::String(k.clone()), depth + 1))
            }),
            Check::DefaultPropertyNames(_) => v
                .as_object()
                .is_none_or(|map| map.keys().all(|k| default_property_names_accepts(k))),
            Check::AllOf(ids) => ids.iter().all(|id| self.valid(*id, v, depth + 1)),
            Check::AnyOf(ids) => ids.iter().any(|id| self.valid(*id, v, depth + 1)),
            Check::OneOf(ids) => {
                ids.iter()
                    .filter(|id| self.valid(**id, v, depth + 1))
                    .take(2)
                    .count()
                    == 1
            }
            Check::Not(id, _) => !self.valid(*id, v, depth + 1),
            // The assertions are decided in line.
            _ => true,
        }
    }

    fn collect<'v>(
        &self,
        id: usize,
        v: &'v Value,
        path: &mut Vec<Seg<'v>>,
        out: &mut Vec<ValidationError>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            out.push(ValidationError {
                pointer: pointer(path),
                message: "the schema refers to itself without end".to_owned(),
                kind: ErrorKind::Recursion,
            });
            return;
        }
        match &self.nodes[id] {
            Node::True | Node::Pending => {}
            Node::False => out.push(ValidationError {
                pointer: pointer(path),
                message: "False schema does not allow value".to_owned(),
                kind: ErrorKind::FalseSchema,
            }),
            Node::Ref(target) => self.collect(*target, v, path, out, depth + 1),
            Node::Checks(checks) => {
                for check in checks {
                    self.check_collect(check, v, path, out, depth);
                }
            }
        }
    }

    #[allow(clippy::too_many_lines)]
    fn check_collect<'v>(
        &self,
        check: &Check,
        v: &'v Value,
        path: &mut Vec<Seg<'v>>,
        out: &mut Vec<ValidationError>,
        depth: usize,
    ) {
        // Containers report their members' failures themselves.
        match (check, v) {
            (Check::Items(id), Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    path.push(Seg::Index(i));
                    self.collect(*id, item, path, out, depth + 1);
                    path.pop();
                }
                return;
            }
            (Check::Properties(props), Value::Object(map)) => {
                // `jsonschema`'s order: the instance's members, or (for an object of more
                // than four members per declared property, with under 15 declared) the
                // declared properties.
                if props.len() < 15 && map.len() > props.len().saturating_mul(4) {
                    for (k, id) in props {
                        if let Some((key, value)) = map.get_key_value(&k.text) {
                            path.push(Seg::Key(key));
                            self.collect(*id, value, path, out, depth + 1);
                            path.pop();
                        }
                    }
                } else {
                    for (key, value) in map {
                        if let Some((_, id)) = props.iter().find(|(name, _)| name.text == *key) {
                            path.push(Seg::Key(key));
                            self.collect(*id, value, path, out, depth + 1);
                            path.pop();
                        }
                    }
                }
                return;
            }
            (
                Check::Closed {
                    properties,
                    additional,
                    declared,
                    required,
                    ..
                },
                Value::Object(map),
            ) => {
                let mut unexpected = Vec::new();
                for (k, value) in map {
                    let target = match properties.iter().find(|(name, _)| name.text == *k) {
                        Some((_, id)) => Some(*id),
                        None => *additional,
                    };
                    match target {
                        Some(id) => {
                            path.push(Seg::Key(k));
                            self.collect(id, value, path, out, depth + 1);
                            path.pop();
                        }
                        None => unexpected.push(k.clone()),
                    }
                }
                if !unexpected.is_empty() {
                    if !declared {
                        out.push(ValidationError {
                            pointer: pointer(path),
                            message: "False schema does not allow value".to_owned(),
                            kind: ErrorKind::FalseSchema,
                        });
                    } else {
                        let listed: Vec<String> =
                            unexpected.iter().map(|k| format!("'{k}'")).collect();
                        out.push(ValidationError {
                            pointer: pointer(path),
                            message: format!(
                                "Additional properties are not allowed ({} {} unexpected)",
                                listed.join(", "),
                                if unexpected.len() == 1 { "was" } else { "were" }
                            ),
                            kind: ErrorKind::AdditionalProperties { unexpected },
                        });
                    }
                }
                if let Some(n) = required
                    && !has_key(map, n)
                {
                    out.push(required_error(path, n));
                }
                return;
            }
            (Check::Required(names, _), Value::Object(map)) => {
                for n in names {
                    if !has_key(map, n) {
                        out.push(required_error(path, n));
                    }
                }
                return;
            }
            (Check::PropertyNames(id), Value::Object(map)) => {
                for k in map.keys() {
                    let name = Value::String(k.clone());
                    let mut inner = Vec::new();
                    let mut inner_path = Vec::new();
                    self.collect(*id, &name, &mut inner_path, &mut inner, depth + 1);
                    let shown = name.to_string();
                    for e in inner {
                        out.push(ValidationError {
                            pointer: pointer(path),
                            message: unmask(&e.message, &shown),
                            kind: ErrorKind::PropertyNames,
                        });
                    }
                }
                return;
            }
            (Check::DefaultPropertyNames(schema), Value::Object(map)) => {
                for k in map.keys().filter(|k| !default_property_names_accepts(k)) {
                    out.push(ValidationError {
                        pointer: pointer(path),
                        message: format!(
                            "{} is not allowed for {}",
                            schema.get("not").map_or_else(String::new, Value::to_string),
                            Value::String(k.clone())
                        ),
                        kind: ErrorKind::PropertyNames,
                    });
                }
                return;
            }
            (Check::AllOf(ids), _) => {
                for id in ids {
                    self.collect(*id, v, path, out, depth + 1);
                }
                return;
            }
            _ => {}
        }
        if self.check_valid(check, v, depth) {
            return;
        }
        let (kind, message) = match check {
            Check::Type { set, single } => {
                let names: Vec<&str> = TYPE_NAMES
                    .iter()
                    .filter(|(b, _)| set & b != 0)
                    .map(|(_, n)| *n)
                    .collect();
                let message = if *single {
                    format!(
                        "value is not of type \"{}\"",
                        names.first().copied().unwrap_or("")
                    )
                } else {
                    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
                    format!("value is not of types {}", quoted.join(", "))
                };
                (ErrorKind::Type, message)
            }
            Check::Enum(options) => (ErrorKind::Enum, enum_message(options)),
            Check::Const(c) => (ErrorKind::Const, format!("{c} was expected")),
            Check::Minimum(_, l) => (
                ErrorKind::Minimum,
                format!("value is less than the minimum of {l}"),
            ),
            Check::Maximum(_, l) => (
                ErrorKind::Maximum,
                format!("value is greater than the maximum of {l}"),
            ),
            Check::ExclusiveMinimum(_, l) => (
                ErrorKind::ExclusiveMinimum,
                format!("value is less than or equal to the minimum of {l}"),
            ),
            Check::ExclusiveMaximum(_, l) => (
                ErrorKind::ExclusiveMaximum,
                format!("value is greater than or equal to the maximum of {l}"),
            ),
            Check::MultipleOf(m) => (
                ErrorKind::MultipleOf,
                format!("value is not a multiple of {m}"),
            ),
            Check::MinLength(l) => (
                ErrorKind::MinLength,
                format!(
                    "value is shorter than {}",
                    plural(*l, "character", "characters")
                ),
            ),
            Check::MaxLength(l) => (
                ErrorKind::MaxLength,
                format!(
                    "value is longer than {}",
                    plural(*l, "character", "characters")
                ),
            ),
            Check::Pattern(_, p) => (ErrorKind::Pattern, format!("value does not match \"{p}\"")),
            Check::Format(_, name) => (ErrorKind::Format, format!("value is not a \"{name}\"")),
            Check::MinItems(l) => (
                ErrorKind::MinItems,
                format!("value has less than {}", plural(*l, "item", "items")),
            ),
            Check::MaxItems(l) => (
                ErrorKind::MaxItems,
                format!("value has more than {}", plural(*l, "item", "items")),
            ),
            Check::UniqueItems => (
                ErrorKind::UniqueItems,
                "value has non-unique elements".to_owned(),
            ),
            Check::AnyOf(_) => (
                ErrorKind::AnyOf,
                "value is not valid under any of the schemas listed in the 'anyOf' keyword"
                    .to_owned(),
            ),
            Check::OneOf(ids) => {
                if ids.iter().any(|id| self.valid(*id, v, depth + 1)) {
                    (
                        ErrorKind::OneOfMultipleValid,
                        "value is valid under more than one of the schemas listed in the 'oneOf' keyword"
                            .to_owned(),
                    )
                } else {
                    (
                        ErrorKind::OneOfNotValid,
                        "value is not valid under any of the schemas listed in the 'oneOf' keyword"
                            .to_owned(),
                    )
                }
            }
            Check::Not(_, schema) => (ErrorKind::Not, format!("{schema} is not allowed for value")),
            // Reported above, or never failing on their own.
            _ => return,
        };
        out.push(ValidationError {
            pointer: pointer(path),
            message,
            kind,
        });
    }
}

fn required_error(path: &[Seg<'_>], name: &str) -> ValidationError {
    ValidationError {
        pointer: pointer(path),
        message: format!("{} is a required property", Value::String(name.to_owned())),
        kind: ErrorKind::Required {
            property: name.to_owned(),
        },
    }
}

/// A masked message about a property name, with the name shown instead.
fn unmask(message: &str, shown: &str) -> String {
    if let Some(rest) = message.strip_prefix("value ") {
        format!("{shown} {rest}")
    } else if let Some(head) = message.strip_suffix(" for value") {
        format!("{head} for {shown}")
    } else if let Some(rest) = message.strip_prefix("False schema does not allow value") {
        format!("False schema does not allow {shown}{rest}")
    } else {
        message.to_owned()
    }
}

fn enum_message(options: &[Value]) -> String {
    let mut text = String::from("value is not one of ");
    if options.len() <= 3 {
        for (i, o) in options.iter().enumerate() {
            if i == 0 {
                text.push_str(&o.to_string());
            } else if i == options.len() - 1 {
                text.push_str(&format!(" or {o}"));
            } else {
                text.push_str(&format!(", {o}"));
            }
        }
    } else {
        for (i, o) in options.iter().take(2).enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            text.push_str(&o.to_string());
        }
        text.push_str(&format!(" or {} other candidates", options.len() - 2));
    }
    text
}

fn has_key(map: &Map<String, Value>, key: &str) -> bool {
    if map.len() <= 8 {
        map.keys().any(|k| key_eq(k, key))
    } else {
        map.contains_key(key)
    }
}

/// String equality for short keys, compared in line (no call for the usual mismatch).
#[inline]
fn key_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

fn length_at_least(s: &str, min: u64) -> bool {
    if s.len() as u64 >= min.saturating_mul(4) {
        return true;
    }
    s.chars().count() as u64 >= min
}

fn length_at_most(s: &str, max: u64) -> bool {
    if s.len() as u64 <= max {
        return true;
    }
    s.chars().count() as u64 <= max
}

fn unique(items: &[Value]) -> bool {
    items
        .iter()
        .enumerate()
        .all(|(i, a)| items[..i].iter().all(|b| !num::equal(a, b)))
}
