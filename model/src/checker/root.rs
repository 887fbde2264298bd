//! Section 2 of the contract: the root schema, and the rules that look at every subschema.

use serde_json::{Map, Value};

use super::words::{did_you_mean, display_pointer, list, short};
use super::{DRAFT_07, Draft07, Violation};
use crate::contract::meta::{Holds, applicator};
use crate::contract::rules::{RESERVED_INPUT_KEYS, RuleId};
use crate::contract::{Diagnostic, Seg, push_pointer, ref_pointer, render};
use crate::validate::Validator;

// schema-draft: `$schema`, when present, is draft-07, and the document passes the draft-07
// meta-schema. Reason: the platform validates arguments with a draft-07 validator.
pub(super) fn check_schema_draft(
    schema: &Value,
    root: &Map<String, Value>,
    validator: Option<&dyn Draft07>,
    out: &mut Vec<Diagnostic>,
) {
    if let Some(declared) = root.get("$schema")
        && declared.as_str() != Some(DRAFT_07)
    {
        out.push(
            Diagnostic::new(RuleId::SchemaDraft, "/$schema")
                .with_message(format!("`$schema` is `{}`, not draft-07", short(declared)))
                .with_hint(format!("set `\"$schema\": \"{DRAFT_07}\"`")),
        );
    }
    let Some(validator) = validator else {
        return;
    };
    let mut seen: Vec<(String, String)> = Vec::new();
    for violation in validator.meta_violations(schema) {
        let pointer = violation.pointer.clone();
        let message = meta_message(&pointer, &violation);
        if seen.iter().any(|(p, m)| *p == pointer && *m == message) {
            continue;
        }
        seen.push((pointer.clone(), message.clone()));
        out.push(
            Diagnostic::new(RuleId::SchemaDraft, pointer.clone()).with_message(
                if pointer.is_empty() {
                    format!("the document is not a valid draft-07 schema: {message}")
                } else {
                    format!(
                        "`{}` is not a valid draft-07 schema: {message}",
                        display_pointer(&pointer)
                    )
                },
            ),
        );
    }
}

/// The JSON Schema type names (`type` keyword values).
const SIMPLE_TYPES: &[&str] = &[
    "array", "boolean", "integer", "null", "number", "object", "string",
];

/// A meta-schema error in words: the validator's own message without the (possibly huge)
/// instance, plus the value when it is a scalar, and a suggestion for a misspelt `type`.
fn meta_message(pointer: &str, violation: &Violation) -> String {
    if pointer.ends_with("/type")
        && let Some(Value::String(t)) = &violation.found
        && !SIMPLE_TYPES.contains(&t.as_str())
    {
        let suggestion = did_you_mean(t, SIMPLE_TYPES)
            .map(|close| format!("did you mean `{close}`? "))
            .unwrap_or_default();
        return format!(
            "`{t}` is not a JSON Schema type ({suggestion}types are {})",
            list(SIMPLE_TYPES)
        );
    }
    match &violation.found {
        Some(found) => format!("{} (found `{}`)", violation.message, short(found)),
        None => violation.message.clone(),
    }
}

// root-type: the root says `"type": "object"`.
// Reason: tool arguments are always one JSON object.
pub(super) fn check_root_type(root: &Map<String, Value>, out: &mut Vec<Diagnostic>) {
    match root.get("type") {
        Some(Value::String(t)) if t == "object" => {}
        Some(other) => out.push(
            Diagnostic::new(RuleId::RootType, "/type").with_message(format!(
                "the root `type` is `{}`; a tool's input must be `\"type\": \"object\"`",
                short(other)
            )),
        ),
        None => out.push(Diagnostic::new(RuleId::RootType, "").with_message(
            "the root schema has no `type`; a tool's input must be `\"type\": \"object\"`",
        )),
    }
}

// root-closed: the root says `"additionalProperties": false`.
// Reason: an open root lets the model send keys no check ever sees.
pub(super) fn check_root_closed(root: &Map<String, Value>, out: &mut Vec<Diagnostic>) {
    match root.get("additionalProperties") {
        Some(Value::Bool(false)) => {}
        Some(other) => out.push(
            Diagnostic::new(RuleId::RootClosed, "/additionalProperties").with_message(format!(
                "the root's `additionalProperties` is `{}`; the root must be closed with `false`",
                short(other)
            )),
        ),
        None => out.push(Diagnostic::new(RuleId::RootClosed, "").with_message(
            "the root schema has no `additionalProperties`; the root must be closed with `\"additionalProperties\": false`",
        )),
    }
}

/// The subschemas the keyword `key` (whose value is `value`, at `at`) holds that constrain
/// the same instance as the schema holding it ([`applicator`]'s in place: `if`, `then`,
/// `else`, `not`, each branch of `allOf`, `anyOf`, `oneOf`, each value of
/// `dependencies`), each with its pointer; none for another keyword.
fn branches<'a>(key: &str, value: &'a Value, at: &str) -> Vec<(String, &'a Value)> {
    let Some(applicator) = applicator(key).filter(|a| a.in_place) else {
        return Vec::new();
    };
    let here = push_pointer(at, key);
    match (applicator.holds, value) {
        (Holds::Array, Value::Array(items)) => (items.iter().enumerate())
            .map(|(i, branch)| (push_pointer(&here, &i.to_string()), branch))
            .collect(),
        (Holds::Dependencies, Value::Object(map)) => (map.iter())
            .map(|(name, branch)| (push_pointer(&here, name), branch))
            .collect(),
        (Holds::One, _) => vec![(here, value)],
        _ => Vec::new(),
    }
}

// root-composition: root keys come only from the root's own `properties`.
// Reason: `$ref`, `patternProperties` and property-declaring branches smuggle keys past the checks.
pub(super) fn check_root_composition(
    schema: &Value,
    root: &Map<String, Value>,
    out: &mut Vec<Diagnostic>,
) {
    for (key, value) in root {
        let key = key.as_str();
        match key {
            "patternProperties" | "$ref" => out.push(
                Diagnostic::new(RuleId::RootComposition, push_pointer("", key)).with_message(
                    if key == "$ref" {
                        "the root uses `$ref`: draft-07 ignores every sibling of `$ref`, so the root's own checks would not apply".to_owned()
                    } else {
                        "the root uses `patternProperties`: root keys must each be declared in `properties`".to_owned()
                    },
                ),
            ),
            _ => {
                for (pointer, branch) in branches(key, value, "") {
                    root_branch(schema, branch, &pointer, key, out);
                }
            }
        }
    }
}

fn root_branch(schema: &Value, branch: &Value, pointer: &str, kw: &str, out: &mut Vec<Diagnostic>) {
    let mut seen = Vec::new();
    if let Some(found) = declares_properties(schema, branch, pointer, &mut seen) {
        let via = if found.starts_with(pointer) {
            String::new()
        } else {
            format!(
                " (reached through `$ref` to `#{}`)",
                found.trim_end_matches("/properties")
            )
        };
        out.push(
            Diagnostic::new(RuleId::RootComposition, pointer).with_message(format!(
                "a root `{kw}` branch declares `properties` at `{found}`{via}; root keys must be declared only in the root's own `properties`"
            )),
        );
    }
}

/// Where `value` (at `pointer`) declares `properties`, itself, through nested composition
/// or through a local `$ref` (each target followed once).
fn declares_properties(
    schema: &Value,
    value: &Value,
    pointer: &str,
    seen: &mut Vec<String>,
) -> Option<String> {
    let obj = value.as_object()?;
    if obj.contains_key("properties") {
        return Some(push_pointer(pointer, "properties"));
    }
    if let Some(target) = obj
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(ref_pointer)
        && !seen.contains(&target)
    {
        seen.push(target.clone());
        if let Some(found) = schema
            .pointer(&target)
            .and_then(|t| declares_properties(schema, t, &target, seen))
        {
            return Some(found);
        }
    }
    for (key, sub) in obj {
        let found = branches(key, sub, pointer)
            .into_iter()
            .find_map(|(at, branch)| declares_properties(schema, branch, &at, seen));
        if found.is_some() {
            return found;
        }
    }
    None
}

/// How a subschema was reached from its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edge {
    /// The document itself.
    Root,
    /// A value-describing keyword: `properties`, `items`, `definitions`...
    Child,
    /// Composition (`allOf`/`anyOf`/`oneOf`/`if`/`then`/`else`/`not`) or `dependencies`:
    /// the branch constrains the same object as the schema that holds it.
    Branch,
}

/// One subschema on the walk, with how it was reached.
struct Frame<'a> {
    properties: Option<&'a Map<String, Value>>,
    edge: Edge,
}

/// The keywords the per-subschema rules read, gathered in one pass over a schema's keys
/// (cheaper than one hashed lookup per rule).
#[derive(Default)]
struct Keywords<'a> {
    has_properties: bool,
    properties: Option<&'a Map<String, Value>>,
    required: Option<&'a Vec<Value>>,
    has_additional_properties: bool,
    object_type: bool,
    /// The `default`.
    default: Option<&'a Value>,
    /// The `examples`, when an array.
    examples: Option<&'a Vec<Value>>,
}

impl<'a> Keywords<'a> {
    fn of(schema: &'a Map<String, Value>) -> Self {
        let mut k = Self::default();
        for (key, value) in schema {
            match key.as_str() {
                "properties" => {
                    k.has_properties = true;
                    k.properties = value.as_object();
                }
                "required" => k.required = value.as_array(),
                "additionalProperties" => k.has_additional_properties = true,
                "default" => k.default = Some(value),
                "examples" => k.examples = value.as_array(),
                "type" => {
                    k.object_type = match value {
                        Value::String(t) => t == "object",
                        Value::Array(ts) => ts.iter().any(|t| t == "object"),
                        _ => false,
                    };
                }
                _ => {}
            }
        }
        k
    }
}

/// The subschemas holding a `default` or `examples` that `default-invalid` checks: every
/// one but a leaf that accepts its values (see [`leaf_accepts`]).
pub(super) type HeldValues<'a> = Vec<Held<'a>>;

/// One subschema holding a `default` or an `examples` array, as the walk found it.
pub(super) struct Held<'a> {
    /// The subschema's JSON pointer.
    pub(super) pointer: String,
    /// The subschema.
    pub(super) schema: &'a Value,
    /// Its `default`.
    pub(super) default: Option<&'a Value>,
    /// Its `examples`, when an array.
    pub(super) examples: Option<&'a Vec<Value>>,
}

/// Visits every subschema once (only schema keywords, never `default`, `enum`, `const`,
/// `examples`, unknown keywords or `x-neuralis`) and applies the per-subschema rules; with
/// `values`, also gathers what `default-invalid` checks (the same walk, so the document
/// is walked once for the three).
pub(super) fn walk_schemas<'a>(
    schema: &'a Value,
    values: Option<&mut HeldValues<'a>>,
    out: &mut Vec<Diagnostic>,
) {
    let mut walk = Walk {
        path: Vec::new(),
        stack: Vec::new(),
        values,
        out,
    };
    walk.schema(schema, Edge::Root);
}

/// The walk's state: where it is, the subschemas above, and what it gathers.
struct Walk<'a, 'o> {
    path: Vec<Seg<'a>>,
    stack: Vec<Frame<'a>>,
    values: Option<&'o mut HeldValues<'a>>,
    out: &'o mut Vec<Diagnostic>,
}

impl<'a> Walk<'a, '_> {
    fn schema(&mut self, value: &'a Value, edge: Edge) {
        let Some(schema) = value.as_object() else {
            return;
        };
        let keywords = Keywords::of(schema);
        check_required_undeclared(&keywords, edge, &self.stack, &self.path, self.out);
        check_open_object_implicit(&keywords, edge, &self.path, self.out);
        if (keywords.default.is_some() || keywords.examples.is_some())
            && let Some(values) = self.values.as_deref_mut()
            && !leaf_accepts(value, &keywords)
        {
            values.push(Held {
                pointer: render(&self.path),
                schema: value,
                default: keywords.default,
                examples: keywords.examples,
            });
        }
        self.stack.push(Frame {
            properties: keywords.properties,
            edge,
        });
        for (key, sub) in schema {
            let Some(applicator) = applicator(key) else {
                continue;
            };
            let edge = if applicator.in_place {
                Edge::Branch
            } else {
                Edge::Child
            };
            self.path.push(Seg::Key(key));
            match (applicator.holds, sub) {
                (Holds::Map | Holds::Dependencies, Value::Object(map)) => {
                    for (name, sub) in map {
                        self.path.push(Seg::Key(name));
                        self.schema(sub, edge);
                        self.path.pop();
                    }
                }
                (Holds::Array | Holds::OneOrArray, Value::Array(items)) => {
                    for (i, sub) in items.iter().enumerate() {
                        self.path.push(Seg::Index(i));
                        self.schema(sub, edge);
                        self.path.pop();
                    }
                }
                (Holds::One | Holds::OneOrArray, _) => self.schema(sub, edge),
                _ => {}
            }
            self.path.pop();
        }
        self.stack.pop();
    }
}

/// Whether `schema` holds no subschema and no `$ref` and accepts its own `default` and
/// every `examples` entry: then `default-invalid` has nothing to say about it, and the
/// walk does not hand it on (nor writes its pointer). Decided by the validator's compiled
/// node, as `default-invalid` decides, so the two cannot disagree.
fn leaf_accepts(schema: &Value, keywords: &Keywords<'_>) -> bool {
    let Some(leaf) = Validator::compile_leaf(schema) else {
        return false;
    };
    keywords.default.is_none_or(|v| leaf.is_valid(v))
        && keywords
            .examples
            .is_none_or(|examples| examples.iter().all(|v| leaf.is_valid(v)))
}

// required-undeclared: each `required` name is declared in `properties` of the object it
// constrains. Reason: a required key nobody declares can never be sent correctly.
fn check_required_undeclared(
    keywords: &Keywords<'_>,
    edge: Edge,
    stack: &[Frame<'_>],
    path: &[Seg<'_>],
    out: &mut Vec<Diagnostic>,
) {
    let Some(required) = keywords.required else {
        return;
    };
    let declared = |name: &str| {
        if declares(keywords.properties, name) {
            return true;
        }
        // A branch constrains the object of the schema that holds it (and so on up).
        let mut edge = edge;
        for frame in stack.iter().rev() {
            if edge != Edge::Branch {
                break;
            }
            if declares(frame.properties, name) {
                return true;
            }
            edge = frame.edge;
        }
        false
    };
    for (i, name) in required.iter().enumerate() {
        let Some(name) = name.as_str() else { continue };
        if !declared(name) {
            let where_ = if path.is_empty() {
                "the root"
            } else {
                "this object"
            };
            let pointer = push_pointer(&push_pointer(&render(path), "required"), &i.to_string());
            out.push(
                Diagnostic::new(RuleId::RequiredUndeclared, pointer)
                    .with_message(format!(
                        "`required` names `{name}`, which {where_} does not declare in `properties`"
                    ))
                    .with_hint(format!(
                        "declare `{name}` in `properties`, or remove it from `required`"
                    )),
            );
        }
    }
}

fn declares(properties: Option<&Map<String, Value>>, name: &str) -> bool {
    properties.is_some_and(|p| p.contains_key(name))
}

// open-object-implicit (warning): a nested object schema says whether it accepts other keys.
// Reason: without `additionalProperties` it accepts any key and gets no `propertyNames` guard.
fn check_open_object_implicit(
    keywords: &Keywords<'_>,
    edge: Edge,
    path: &[Seg<'_>],
    out: &mut Vec<Diagnostic>,
) {
    // Composition branches constrain their holder's object, which says it for them.
    if edge != Edge::Child || keywords.has_additional_properties {
        return;
    }
    let is_object = keywords.has_properties || keywords.object_type;
    if is_object {
        let pointer = render(path);
        out.push(
            Diagnostic::new(RuleId::OpenObjectImplicit, pointer.clone()).with_message(format!(
                "the object schema at `{pointer}` does not say whether it accepts other keys"
            )),
        );
    }
}

// reserved-input-key: no root property takes a session-context name (exact, case-sensitive).
// Reason: caller identity comes from the verified session, never from arguments.
pub(super) fn check_reserved_input_key(root: &Map<String, Value>, out: &mut Vec<Diagnostic>) {
    let Some(Value::Object(properties)) = root.get("properties") else {
        return;
    };
    for name in properties.keys() {
        if RESERVED_INPUT_KEYS.contains(&name.as_str()) {
            out.push(
                Diagnostic::new(RuleId::ReservedInputKey, push_pointer("/properties", name))
                    .with_message(format!(
                        "root property `{name}` uses a reserved session-context name"
                    )),
            );
        }
    }
}
