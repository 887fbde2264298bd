//! [`compile`]: a schema read once into [`Node`]s (a subschema compiled once, however
//! many `$ref`s lead to it), or the [`CompileError`] that says why it cannot be.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::ecma;
use super::format::{Format, Known};
use super::node::{Check, Name, Node, get_key, type_bit};
use super::num::Num;
use super::{CompileError, CompileErrorKind};
use crate::contract::{push_pointer, ref_pointer};
use crate::schema::default_property_names;

/// The nodes of `schema`, the root first; a chain of `$ref`s that comes back to itself
/// validates nothing (`true`), as `jsonschema` reads it.
pub(super) fn compile(schema: &Value) -> Result<Vec<Node>, CompileError> {
    let mut c = Compiler {
        root: schema,
        nodes: Vec::new(),
        by_pointer: HashMap::new(),
        queue: Vec::new(),
    };
    c.node_at(String::new());
    c.run()?;
    Ok(settle(c.nodes))
}

/// The nodes of `start`, the subschema of `root` at `pointer` (first), its `$ref`s
/// resolved in `root`.
pub(super) fn compile_at<'s>(
    root: &'s Value,
    pointer: &str,
    start: &'s Value,
) -> Result<Vec<Node>, CompileError> {
    let mut c = Compiler {
        root,
        nodes: Vec::new(),
        by_pointer: HashMap::new(),
        queue: Vec::new(),
    };
    // The start is compiled from the value given; its pointer is known only when a
    // `$ref` leads back to it (then compiled again as its own node, to the same checks),
    // so a subschema without references allocates no index.
    c.nodes.push(Node::Pending);
    c.nodes[0] = c.compile(start, pointer)?;
    c.run()?;
    Ok(settle(c.nodes))
}

/// The one node of `schema` when it holds no subschema and no `$ref` (every keyword decided
/// on the value itself, so the node means the same wherever it stands); `None` when it
/// holds one, or does not compile.
pub(super) fn compile_leaf(schema: &Value) -> Option<Vec<Node>> {
    let mut c = Compiler {
        root: schema,
        nodes: Vec::new(),
        by_pointer: HashMap::new(),
        queue: Vec::new(),
    };
    // Its pointer is only written into a compile error, which gives up anyway.
    let node = c.compile(schema, "").ok()?;
    // A subschema (or a `$ref`'s target) would have been given a node.
    c.nodes.is_empty().then(|| vec![node])
}

/// The nodes with every chain of `$ref`s that comes back to itself made `true`.
fn settle(mut nodes: Vec<Node>) -> Vec<Node> {
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
    nodes
}

/// One keyword where it stands: the schema holding it, the schema's pointer, its name
/// and its value.
#[derive(Clone, Copy)]
struct Keyword<'s, 'k> {
    map: &'s Map<String, Value>,
    at: &'k str,
    key: &'k str,
    value: &'s Value,
}

pub(super) struct Compiler<'s> {
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

fn non_negative(value: &Value) -> Option<u64> {
    match value {
        Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 1.8e19)
                // Checked: non-negative, whole, and below 2^64.
                .map(|f| f as u64)
        }),
        _ => None,
    }
}

/// The value at the JSON pointer `pointer` in `root`, as `Value::pointer` finds it, without
/// allocating for tokens that need no unescaping (the compiler looks up every subschema it
/// compiles by pointer).
fn resolve<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    if pointer.is_empty() {
        return Some(root);
    }
    let mut at = root;
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = crate::contract::unescape_token(token);
        let token = token.as_ref();
        at = match at {
            Value::Object(map) => map.get(token)?,
            Value::Array(items) => {
                // As `Value::pointer`: digits only, no leading zero (but `0`).
                if token.is_empty()
                    || !token.bytes().all(|b| b.is_ascii_digit())
                    || (token.len() > 1 && token.starts_with('0'))
                {
                    return None;
                }
                items.get(token.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(at)
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
            let Some(schema) = resolve(self.root, &pointer) else {
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

    fn compile(&mut self, schema: &'s Value, at: &str) -> Result<Node, CompileError> {
        let map = match schema {
            Value::Bool(true) => return Ok(Node::True),
            Value::Bool(false) => return Ok(Node::False),
            Value::Object(map) => map,
            _ => return Err(invalid(at, "", "a schema must be an object or a boolean")),
        };
        if let Some(reference) = get_key(map, "$ref") {
            return self.reference(reference, at).map(Node::Ref);
        }
        let mut checks = Vec::with_capacity(map.len());
        for (key, value) in map {
            if let Some(check) = self.keyword(Keyword {
                map,
                at,
                key,
                value,
            })? {
                checks.push(check);
            }
        }
        // `jsonschema` runs (and reports) a schema's keywords cheapest first; so do we,
        // so that the first failure is the same one.
        crate::sort::sort_by_key(&mut checks, Check::priority);
        fold_required(&mut checks);
        Ok(Node::Checks(checks))
    }

    /// A `$ref` into the same document: the node of its target (draft-07 ignores its
    /// siblings).
    fn reference(&mut self, reference: &Value, at: &str) -> Result<usize, CompileError> {
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
        if resolve(self.root, &target).is_none() {
            return Err(invalid(
                at,
                "$ref",
                format!("`{reference}` points to nothing"),
            ));
        }
        Ok(self.node_at(target))
    }

    /// One keyword of the schema `map` at `at`: its check, `None` for an annotation (or a
    /// keyword another one compiles), or why it cannot be compiled.
    fn keyword(&mut self, k: Keyword<'s, '_>) -> Result<Option<Check>, CompileError> {
        let Keyword { at, key, value, .. } = k;
        let here = |what: &str| invalid(at, key, what);
        match key {
            "type" => type_check(value, here).map(Some),
            "enum" => match value {
                Value::Array(options) => Ok(Some(Check::Enum(options.clone()))),
                _ => Err(here("`enum` must be an array")),
            },
            "const" => Ok(Some(Check::Const(value.clone()))),
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
                number_check(key, value, here).map(Some)
            }
            "minLength" | "maxLength" | "minItems" | "maxItems" | "uniqueItems" => {
                count_check(key, value, here)
            }
            "pattern" => pattern_check(at, key, value).map(Some),
            "format" => format_check(at, key, value),
            "properties" | "additionalProperties" | "required" | "propertyNames" => {
                self.object_check(k)
            }
            "items" | "allOf" | "anyOf" | "oneOf" | "not" => {
                self.applicator(at, key, value).map(Some)
            }
            "$id" | "additionalItems" | "contains" | "minProperties" | "maxProperties"
            | "patternProperties" | "dependencies" | "if" | "then" | "else"
            | "contentMediaType" | "contentEncoding" => Err(outside(
                at,
                key,
                "a keyword the built-in validator does not read",
            )),
            // Annotations, `definitions` (compiled when referred to), unknown keys.
            _ => Ok(None),
        }
    }

    /// `properties`, `additionalProperties`, `required`, `propertyNames`. `properties`
    /// beside an `additionalProperties` that is `false` or a schema is compiled with it,
    /// as one [`Check::Closed`].
    fn object_check(&mut self, k: Keyword<'s, '_>) -> Result<Option<Check>, CompileError> {
        let Keyword {
            map,
            at,
            key,
            value,
        } = k;
        let here = |what: &str| invalid(at, key, what);
        let closed = matches!(
            get_key(map, "additionalProperties"),
            Some(Value::Bool(false) | Value::Object(_))
        );
        match key {
            "properties" => {
                let Value::Object(props) = value else {
                    return Err(here("`properties` must be an object"));
                };
                Ok((!closed).then(|| Check::Properties(self.properties(at, props))))
            }
            "additionalProperties" if closed => {
                let properties = match get_key(map, "properties") {
                    Some(Value::Object(props)) => self.properties(at, props),
                    Some(_) => {
                        return Err(invalid(at, "properties", "`properties` must be an object"));
                    }
                    None => Vec::new(),
                };
                let additional = match value {
                    Value::Bool(false) => None,
                    _ => Some(self.sub(at, "additionalProperties")),
                };
                Ok(Some(Check::Closed {
                    properties,
                    additional,
                    declared: get_key(map, "properties").is_some(),
                    required: None,
                    required_mask: 0,
                }))
            }
            "additionalProperties" if !value.is_boolean() => {
                Err(here("`additionalProperties` must be a schema"))
            }
            "additionalProperties" => Ok(None),
            "required" => {
                let Value::Array(names) = value else {
                    return Err(here("`required` must be an array"));
                };
                let names: Option<Vec<String>> = names
                    .iter()
                    .map(|n| n.as_str().map(str::to_owned))
                    .collect();
                let names = names.ok_or_else(|| here("`required` must list strings"))?;
                Ok((!names.is_empty()).then_some(Check::Required(names, false)))
            }
            _ if *value == default_property_names() => {
                Ok(Some(Check::DefaultPropertyNames(Box::new(value.clone()))))
            }
            _ => Ok(Some(Check::PropertyNames(self.sub(at, "propertyNames")))),
        }
    }

    /// The declared properties of the schema at `at`, each with its node.
    fn properties(&mut self, at: &str, props: &Map<String, Value>) -> Vec<(Name, usize)> {
        let base = push_pointer(at, "properties");
        props
            .keys()
            .map(|k| (Name::new(k), self.sub(&base, k)))
            .collect()
    }

    /// The keywords that hold subschemas apart from the object ones: `items`, `allOf`,
    /// `anyOf`, `oneOf`, `not`.
    fn applicator(&mut self, at: &str, key: &str, value: &'s Value) -> Result<Check, CompileError> {
        match key {
            "items" if value.is_array() => {
                Err(outside(at, key, "`items` as an array (tuple validation)"))
            }
            "items" => Ok(Check::Items(self.sub(at, "items"))),
            "not" => Ok(Check::Not(self.sub(at, "not"), Box::new(value.clone()))),
            _ => {
                let Value::Array(branches) = value else {
                    return Err(invalid(at, key, "must be an array of schemas"));
                };
                let base = push_pointer(at, key);
                let ids = (0..branches.len())
                    .map(|i| self.sub(&base, &i.to_string()))
                    .collect();
                Ok(match key {
                    "allOf" => Check::AllOf(ids),
                    "anyOf" => Check::AnyOf(ids),
                    _ => Check::OneOf(ids),
                })
            }
        }
    }
}

/// `type`: one name or a list of names, as a set of type bits.
fn type_check(value: &Value, here: impl Fn(&str) -> CompileError) -> Result<Check, CompileError> {
    let (set, single) = match value {
        Value::String(name) => (type_bit(name).ok_or_else(|| here("unknown type"))?, true),
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
    Ok(Check::Type { set, single })
}

/// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`.
fn number_check(
    key: &str,
    value: &Value,
    here: impl Fn(&str) -> CompileError,
) -> Result<Check, CompileError> {
    if key == "multipleOf" {
        return match value.as_f64().filter(|m| *m > 0.0) {
            Some(m) => Ok(Check::MultipleOf(m)),
            None => Err(here("`multipleOf` must be a number above 0")),
        };
    }
    let Value::Number(n) = value else {
        return Err(here("must be a number"));
    };
    let limit = Num::of(n);
    Ok(match key {
        "minimum" => Check::Minimum(limit, n.clone()),
        "maximum" => Check::Maximum(limit, n.clone()),
        "exclusiveMinimum" => Check::ExclusiveMinimum(limit, n.clone()),
        _ => Check::ExclusiveMaximum(limit, n.clone()),
    })
}

/// `minLength`, `maxLength`, `minItems`, `maxItems`, `uniqueItems` (`false` asserts
/// nothing).
fn count_check(
    key: &str,
    value: &Value,
    here: impl Fn(&str) -> CompileError,
) -> Result<Option<Check>, CompileError> {
    if key == "uniqueItems" {
        return match value {
            Value::Bool(true) => Ok(Some(Check::UniqueItems)),
            Value::Bool(false) => Ok(None),
            _ => Err(here("`uniqueItems` must be a boolean")),
        };
    }
    let n = non_negative(value).ok_or_else(|| here("must be a non-negative integer"))?;
    Ok(Some(match key {
        "minLength" => Check::MinLength(n),
        "maxLength" => Check::MaxLength(n),
        "minItems" => Check::MinItems(n),
        _ => Check::MaxItems(n),
    }))
}

/// `pattern`: an ECMA-262 regular expression, translated for the built-in engine.
fn pattern_check(at: &str, key: &str, value: &Value) -> Result<Check, CompileError> {
    let Value::String(pattern) = value else {
        return Err(invalid(at, key, "`pattern` must be a string"));
    };
    match ecma::parse(pattern) {
        Err(ecma::Invalid) => Err(invalid(
            at,
            key,
            format!("{pattern:?} is not an ECMA-262 regular expression"),
        )),
        Ok(ecma::Translation::Unsupported(what)) => {
            Err(outside(at, key, format!("the pattern uses {what}")))
        }
        Ok(ecma::Translation::Runs(translated)) => {
            let re = regex_lite::Regex::new(&translated).map_err(|_| {
                outside(
                    at,
                    key,
                    "the pattern is too large for the built-in regex engine",
                )
            })?;
            Ok(Check::Pattern(Box::new(re), pattern.clone()))
        }
    }
}

/// `format`: asserted for the formats draft-07 asserts, an annotation for the others.
fn format_check(at: &str, key: &str, value: &Value) -> Result<Option<Check>, CompileError> {
    let Value::String(name) = value else {
        return Err(invalid(at, key, "`format` must be a string"));
    };
    match Format::of(name) {
        Known::Asserted(f) => Ok(Some(Check::Format(f, name.clone()))),
        Known::NotInSubset => Err(outside(at, key, format!("the format `{name}`"))),
        Known::Annotation => Ok(None),
    }
}

/// The `required` names a closed object's pass checks: one required name beside
/// `additionalProperties: false` is checked by the closed object's pass, and reported
/// after it; a `required` whose names the closed object declares is checked in its pass
/// (by the mask of their indices).
fn fold_required(checks: &mut Vec<Check>) {
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
        for c in checks.iter_mut() {
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
}
