//! The checker: sections 1, 2 and 4 of the contract on one tool file.
//!
//! [`check_bytes_with`] reads the file ([`json::read`]: `depth-limit`,
//! `json-syntax`), then [`check_value`] runs one small function per rule id, each named
//! `check_<rule>`, in `CONTRACT.md` order. Rules that look at every subschema share one
//! walk of the schema ([`walk_schemas`]), so a file is traversed once for all of them.

use serde_json::{Map, Value};

use super::diag::{Diagnostic, push_pointer};
use super::json;
use super::rules::{
    ASK_ON_KEYS_CATEGORIES, ASK_ON_KEYS_MAX, CATEGORIES, RESERVED_INPUT_KEYS, RuleId, known_keys,
};
use crate::name::is_wire_safe_tool_name;

/// The only `$schema` a tool file may declare.
pub const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

/// What the checker knows beyond the file itself.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// The card types the package declares, when known (`card-type-unmatched`).
    pub cards: Option<Vec<String>>,
}

/// Everything the checker found in one file.
#[derive(Debug, Clone)]
pub struct Report {
    /// The tool name (the file stem).
    pub name: String,
    /// Every violation, errors and warnings, in document order.
    pub diagnostics: Vec<Diagnostic>,
    /// The parsed document, when it parsed.
    pub schema: Option<Value>,
}

impl Report {
    /// Whether any diagnostic is an error.
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Checks the bytes of `tools/<name>.json` with default options.
///
/// ```
/// use neuralis_core::{RuleId, check_bytes};
/// let report = check_bytes("find", br#"{"type": "object"}"#);
/// assert!(report.has_errors());
/// assert!(report.diagnostics.iter().any(|d| d.rule == RuleId::RootClosed));
/// ```
#[must_use]
pub fn check_bytes(name: &str, bytes: &[u8]) -> Report {
    check_bytes_with(name, bytes, &CheckOptions::default())
}

/// Checks the bytes of `tools/<name>.json`.
///
/// A file that cannot be read (`depth-limit`, `json-syntax`) gets that one diagnostic
/// (plus `tool-name` when the name is bad) and no schema. Otherwise every diagnostic of
/// [`check_value`] gets the line and column of its pointer, and they come in document
/// order.
#[must_use]
pub fn check_bytes_with(name: &str, bytes: &[u8], options: &CheckOptions) -> Report {
    match json::read(bytes) {
        Ok(schema) => {
            let mut diagnostics = check_value(name, &schema, options);
            for d in &mut diagnostics {
                if d.rule != RuleId::ToolName {
                    d.location = json::locate(bytes, &d.pointer);
                }
            }
            diagnostics.sort_by_key(|d| d.location);
            Report {
                name: name.to_owned(),
                diagnostics,
                schema: Some(schema),
            }
        }
        Err(diagnostic) => {
            let mut diagnostics = Vec::new();
            check_tool_name(name, &mut diagnostics);
            diagnostics.push(*diagnostic);
            Report {
                name: name.to_owned(),
                diagnostics,
                schema: None,
            }
        }
    }
}

/// Checks an already parsed tool document named `name`: every rule of sections 1, 2 and
/// 4 of `CONTRACT.md` except `duplicate-tool` (a build-time rule), all violations at once,
/// each with the RFC 6901 pointer of the offending key or value, in a fixed order.
///
/// ```
/// use neuralis_core::contract::{CheckOptions, RuleId, check_value};
/// let schema = serde_json::json!({
///     "$schema": "http://json-schema.org/draft-07/schema#",
///     "type": "object",
///     "additionalProperties": false,
///     "description": "Look a user up.",
///     "properties": { "userId": { "type": "string" } },
///     "x-neuralis": { "annotations": { "category": "read" } }
/// });
/// let found = check_value("find_user", &schema, &CheckOptions::default());
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].rule, RuleId::ReservedInputKey);
/// assert_eq!(found[0].pointer, "/properties/userId");
/// ```
#[must_use]
pub fn check_value(name: &str, schema: &Value, options: &CheckOptions) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    check_tool_name(name, &mut out);
    let Some(root) = schema.as_object() else {
        out.push(
            Diagnostic::new(RuleId::JsonSyntax, "")
                .with_message("the document is not a JSON object"),
        );
        return out;
    };
    // Section 2: the root schema.
    check_schema_draft(schema, root, &mut out);
    check_root_type(root, &mut out);
    check_root_closed(root, &mut out);
    check_root_composition(schema, root, &mut out);
    walk_schemas(schema, &mut out);
    check_reserved_input_key(root, &mut out);
    // Section 4: the x-neuralis block.
    let xn = Xn::of(root);
    check_xn_missing(root, &mut out);
    check_xn_recovery_field(&xn, &mut out);
    check_xn_unknown_key(&xn, &mut out);
    check_xn_type(root, &xn, &mut out);
    check_category_missing(&xn, &mut out);
    check_category_invalid(&xn, &mut out);
    check_defaults_undeclared(root, &xn, &mut out);
    check_askonkeys_posture(&xn, &mut out);
    check_askonkeys_too_many(&xn, &mut out);
    check_askonkeys_duplicate(&xn, &mut out);
    check_askonkeys_undeclared(root, &xn, &mut out);
    check_hints_contradict(&xn, &mut out);
    check_description_missing(root, &mut out);
    check_presentation_implicit(&xn, &mut out);
    check_card_type_unmatched(&xn, options, &mut out);
    out
}

// ---------------------------------------------------------------------------------------
// Section 1: files and names

// tool-name: the file stem matches `^[a-zA-Z0-9_-]{1,48}$`.
// Reason: the platform skips a tool whose name is not wire-safe.
fn check_tool_name(name: &str, out: &mut Vec<Diagnostic>) {
    if !is_wire_safe_tool_name(name) {
        out.push(Diagnostic::new(RuleId::ToolName, "").with_message(format!(
            "tool name `{name}` does not match `^[a-zA-Z0-9_-]{{1,48}}$`"
        )));
    }
}

// ---------------------------------------------------------------------------------------
// Section 2: the root schema

// schema-draft: `$schema`, when present, is draft-07, and the document passes the draft-07
// meta-schema. Reason: the platform validates arguments with a draft-07 validator.
fn check_schema_draft(schema: &Value, root: &Map<String, Value>, out: &mut Vec<Diagnostic>) {
    if let Some(declared) = root.get("$schema")
        && declared.as_str() != Some(DRAFT_07)
    {
        out.push(
            Diagnostic::new(RuleId::SchemaDraft, "/$schema")
                .with_message(format!("`$schema` is `{}`, not draft-07", short(declared)))
                .with_hint(format!("set `\"$schema\": \"{DRAFT_07}\"`")),
        );
    }
    with_meta_validator(|meta| {
        if meta.is_valid(schema) {
            return;
        }
        let mut seen: Vec<(String, String)> = Vec::new();
        for error in meta.iter_errors(schema) {
            let pointer = error.instance_path().as_str().to_owned();
            let message = meta_message(&pointer, &error);
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
    });
}

/// The JSON Schema type names (`type` keyword values).
const SIMPLE_TYPES: &[&str] = &[
    "array", "boolean", "integer", "null", "number", "object", "string",
];

/// A meta-schema error in words: the validator's own message without the (possibly huge)
/// instance, plus the value when it is a scalar, and a suggestion for a misspelt `type`.
fn meta_message(pointer: &str, error: &jsonschema::ValidationError<'_>) -> String {
    let instance = error.instance();
    if pointer.ends_with("/type")
        && let Value::String(t) = instance.as_ref()
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
    let message = error.masked().to_string();
    if matches!(instance.as_ref(), Value::Object(_) | Value::Array(_)) {
        message
    } else {
        format!("{message} (found `{}`)", short(instance))
    }
}

/// Runs `f` with the draft-07 meta-schema validator, obtained once per process.
#[cfg(not(target_family = "wasm"))]
fn with_meta_validator<R>(f: impl FnOnce(&jsonschema::Validator) -> R) -> R {
    use std::sync::OnceLock;
    static META: OnceLock<jsonschema::meta::MetaValidator<'static>> = OnceLock::new();
    f(META
        .get_or_init(jsonschema::draft7::meta::validator)
        .as_ref())
}

/// Runs `f` with the draft-07 meta-schema validator, obtained once per thread (on wasm
/// the validator is not `Sync`, and there is one thread).
#[cfg(target_family = "wasm")]
fn with_meta_validator<R>(f: impl FnOnce(&jsonschema::Validator) -> R) -> R {
    thread_local! {
        static META: jsonschema::meta::MetaValidator<'static> = jsonschema::draft7::meta::validator();
    }
    META.with(|meta| f(meta.as_ref()))
}

// root-type: the root says `"type": "object"`.
// Reason: tool arguments are always one JSON object.
fn check_root_type(root: &Map<String, Value>, out: &mut Vec<Diagnostic>) {
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
fn check_root_closed(root: &Map<String, Value>, out: &mut Vec<Diagnostic>) {
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

/// Keywords whose value is one subschema reached through composition.
const BRANCH_ONE: &[&str] = &["if", "then", "else", "not"];
/// Keywords whose value is an array of subschemas reached through composition.
const BRANCH_MANY: &[&str] = &["allOf", "anyOf", "oneOf"];

// root-composition: root keys come only from the root's own `properties`.
// Reason: `$ref`, `patternProperties` and property-declaring branches smuggle keys past the checks.
fn check_root_composition(schema: &Value, root: &Map<String, Value>, out: &mut Vec<Diagnostic>) {
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
            _ if BRANCH_ONE.contains(&key) => {
                let pointer = push_pointer("", key);
                root_branch(schema, value, &pointer, key, out);
            }
            _ if BRANCH_MANY.contains(&key) => {
                for (i, branch) in value.as_array().into_iter().flatten().enumerate() {
                    let pointer = push_pointer(&push_pointer("", key), &i.to_string());
                    root_branch(schema, branch, &pointer, key, out);
                }
            }
            "dependencies" => {
                for (name, dep) in value.as_object().into_iter().flatten() {
                    if dep.is_object() {
                        let pointer = push_pointer("/dependencies", name);
                        root_branch(schema, dep, &pointer, key, out);
                    }
                }
            }
            _ => {}
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
    if let Some(target) = obj.get("$ref").and_then(Value::as_str).and_then(local_ref)
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
        let key = key.as_str();
        let found = if BRANCH_ONE.contains(&key) {
            declares_properties(schema, sub, &push_pointer(pointer, key), seen)
        } else if BRANCH_MANY.contains(&key) {
            let base = push_pointer(pointer, key);
            sub.as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .find_map(|(i, b)| {
                    declares_properties(schema, b, &push_pointer(&base, &i.to_string()), seen)
                })
        } else if key == "dependencies" {
            let base = push_pointer(pointer, key);
            sub.as_object().into_iter().flatten().find_map(|(name, d)| {
                declares_properties(schema, d, &push_pointer(&base, name), seen)
            })
        } else {
            None
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The JSON pointer of a same-document `$ref` (`#/definitions/x` → `/definitions/x`).
fn local_ref(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    if !(fragment.is_empty() || fragment.starts_with('/')) {
        return None;
    }
    // URI fragments may percent-encode characters of the pointer.
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = fragment.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok()
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

/// What a schema keyword holds.
#[derive(Debug, Clone, Copy)]
enum Nest {
    /// One subschema.
    One,
    /// An array of subschemas.
    Many,
    /// One subschema or an array of them (`items`).
    OneOrMany,
    /// An object whose values are subschemas.
    Map,
}

/// One subschema on the walk, with how it was reached.
struct Frame<'a> {
    schema: &'a Map<String, Value>,
    edge: Edge,
}

/// Visits every subschema once (only schema keywords, never `default`, `enum`, `const`,
/// `examples`, unknown keywords or `x-neuralis`) and applies the per-subschema rules.
fn walk_schemas(schema: &Value, out: &mut Vec<Diagnostic>) {
    let mut pointer = String::new();
    let mut stack = Vec::new();
    walk(schema, Edge::Root, &mut pointer, &mut stack, out);
}

fn walk<'a>(
    value: &'a Value,
    edge: Edge,
    pointer: &mut String,
    stack: &mut Vec<Frame<'a>>,
    out: &mut Vec<Diagnostic>,
) {
    let Some(schema) = value.as_object() else {
        return;
    };
    check_required_undeclared(schema, edge, stack, pointer, out);
    check_open_object_implicit(schema, edge, pointer, out);
    stack.push(Frame { schema, edge });
    for (key, sub) in schema {
        let (edge, how) = match key.as_str() {
            "properties" | "patternProperties" | "definitions" => (Edge::Child, Nest::Map),
            "dependencies" => (Edge::Branch, Nest::Map),
            "additionalProperties" | "additionalItems" | "contains" | "propertyNames" => {
                (Edge::Child, Nest::One)
            }
            "items" => (Edge::Child, Nest::OneOrMany),
            "allOf" | "anyOf" | "oneOf" => (Edge::Branch, Nest::Many),
            "if" | "then" | "else" | "not" => (Edge::Branch, Nest::One),
            _ => continue,
        };
        if !(sub.is_object() || sub.is_array()) {
            continue;
        }
        let len = pointer.len();
        push_token(pointer, key);
        match (how, sub) {
            (Nest::Map, _) => walk_map(sub, edge, pointer, stack, out),
            (Nest::Many | Nest::OneOrMany, Value::Array(items)) => {
                walk_array(items, edge, pointer, stack, out);
            }
            (Nest::One | Nest::OneOrMany, _) => walk(sub, edge, pointer, stack, out),
            (Nest::Many, _) => {}
        }
        pointer.truncate(len);
    }
    stack.pop();
}

fn walk_map<'a>(
    value: &'a Value,
    edge: Edge,
    pointer: &mut String,
    stack: &mut Vec<Frame<'a>>,
    out: &mut Vec<Diagnostic>,
) {
    for (name, sub) in value.as_object().into_iter().flatten() {
        let len = pointer.len();
        push_token(pointer, name);
        walk(sub, edge, pointer, stack, out);
        pointer.truncate(len);
    }
}

fn walk_array<'a>(
    items: &'a [Value],
    edge: Edge,
    pointer: &mut String,
    stack: &mut Vec<Frame<'a>>,
    out: &mut Vec<Diagnostic>,
) {
    for (i, sub) in items.iter().enumerate() {
        let len = pointer.len();
        pointer.push('/');
        pointer.push_str(&i.to_string());
        walk(sub, edge, pointer, stack, out);
        pointer.truncate(len);
    }
}

/// Appends one escaped reference token to `pointer` in place.
fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    if !token.contains(['~', '/']) {
        pointer.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

// required-undeclared: each `required` name is declared in `properties` of the object it
// constrains. Reason: a required key nobody declares can never be sent correctly.
fn check_required_undeclared(
    schema: &Map<String, Value>,
    edge: Edge,
    stack: &[Frame<'_>],
    pointer: &str,
    out: &mut Vec<Diagnostic>,
) {
    let Some(Value::Array(required)) = schema.get("required") else {
        return;
    };
    let declared = |name: &str| {
        if declares(schema, name) {
            return true;
        }
        // A branch constrains the object of the schema that holds it (and so on up).
        let mut edge = edge;
        for frame in stack.iter().rev() {
            if edge != Edge::Branch {
                break;
            }
            if declares(frame.schema, name) {
                return true;
            }
            edge = frame.edge;
        }
        false
    };
    let base = push_pointer(pointer, "required");
    for (i, name) in required.iter().enumerate() {
        let Some(name) = name.as_str() else { continue };
        if !declared(name) {
            let where_ = if pointer.is_empty() {
                "the root"
            } else {
                "this object"
            };
            out.push(
                Diagnostic::new(
                    RuleId::RequiredUndeclared,
                    push_pointer(&base, &i.to_string()),
                )
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

fn declares(schema: &Map<String, Value>, name: &str) -> bool {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| p.contains_key(name))
}

// open-object-implicit (warning): a nested object schema says whether it accepts other keys.
// Reason: without `additionalProperties` it accepts any key and gets no `propertyNames` guard.
fn check_open_object_implicit(
    schema: &Map<String, Value>,
    edge: Edge,
    pointer: &str,
    out: &mut Vec<Diagnostic>,
) {
    // Composition branches constrain their holder's object, which says it for them.
    if edge != Edge::Child || schema.contains_key("additionalProperties") {
        return;
    }
    let is_object = schema.contains_key("properties")
        || match schema.get("type") {
            Some(Value::String(t)) => t == "object",
            Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
            _ => false,
        };
    if is_object {
        out.push(
            Diagnostic::new(RuleId::OpenObjectImplicit, pointer).with_message(format!(
                "the object schema at `{pointer}` does not say whether it accepts other keys"
            )),
        );
    }
}

// reserved-input-key: no root property takes a session-context name (exact, case-sensitive).
// Reason: caller identity comes from the verified session, never from arguments.
fn check_reserved_input_key(root: &Map<String, Value>, out: &mut Vec<Diagnostic>) {
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

// ---------------------------------------------------------------------------------------
// Section 4: the x-neuralis block

/// The parts of the `x-neuralis` block the rules look at (each only when an object).
struct Xn<'a> {
    block: Option<&'a Map<String, Value>>,
    annotations: Option<&'a Map<String, Value>>,
    ui: Option<&'a Map<String, Value>>,
    requires: Option<&'a Map<String, Value>>,
}

impl<'a> Xn<'a> {
    fn of(root: &'a Map<String, Value>) -> Self {
        let block = root.get("x-neuralis").and_then(Value::as_object);
        let part = |key| block.and_then(|b| b.get(key)).and_then(Value::as_object);
        Self {
            block,
            annotations: part("annotations"),
            ui: part("ui"),
            requires: part("requires"),
        }
    }

    /// The levels of the block's own structure, with their pointers and known keys.
    fn levels(
        &self,
    ) -> impl Iterator<
        Item = (
            &'static str,
            &'a Map<String, Value>,
            &'static [&'static str],
        ),
    > {
        [
            ("/x-neuralis", self.block, known_keys::XN),
            (
                "/x-neuralis/annotations",
                self.annotations,
                known_keys::ANNOTATIONS,
            ),
            ("/x-neuralis/ui", self.ui, known_keys::UI),
            ("/x-neuralis/requires", self.requires, known_keys::REQUIRES),
        ]
        .into_iter()
        .filter_map(|(pointer, map, known)| map.map(|m| (pointer, m, known)))
    }

    fn annotation(&self, key: &str) -> Option<&'a Value> {
        self.annotations.and_then(|a| a.get(key))
    }

    fn flag(&self, key: &str) -> bool {
        self.annotation(key) == Some(&Value::Bool(true))
    }

    fn ask_on_keys(&self) -> Option<&'a Vec<Value>> {
        self.block?.get("askOnKeys")?.as_array()
    }
}

// xn-missing: the root has an `x-neuralis` block.
// Reason: a natively authored tool declares its family, posture and category there.
fn check_xn_missing(root: &Map<String, Value>, out: &mut Vec<Diagnostic>) {
    if !root.contains_key("x-neuralis") {
        out.push(Diagnostic::new(RuleId::XnMissing, ""));
    }
}

fn is_recovery_key(key: &str) -> bool {
    key.get(..8)
        .is_some_and(|p| p.eq_ignore_ascii_case("recovery"))
}

// xn-recovery-field: no `recovery*` key in the block's own structure (not inside `defaults`).
// Reason: recovery posture comes from the platform's mutation-safety policy at run time.
fn check_xn_recovery_field(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    for (pointer, map, _) in xn.levels() {
        for key in map.keys().filter(|k| is_recovery_key(k)) {
            out.push(
                Diagnostic::new(RuleId::XnRecoveryField, push_pointer(pointer, key)).with_message(
                    format!("`{key}` declares recovery posture on the tool, which the platform never reads from a tool"),
                ),
            );
        }
    }
}

// xn-unknown-key: only known keys at every level of the block.
// Reason: a misspelt key silently does nothing.
fn check_xn_unknown_key(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    for (pointer, map, known) in xn.levels() {
        for key in map.keys() {
            if known.contains(&key.as_str()) || is_recovery_key(key) {
                continue;
            }
            let level = pointer.trim_start_matches('/').replace('/', ".");
            let mut d = Diagnostic::new(RuleId::XnUnknownKey, push_pointer(pointer, key))
                .with_message(format!("unknown key `{key}` in `{level}`"));
            d = match did_you_mean(key, known) {
                Some(close) => d.with_hint(format!("did you mean `{close}`?")),
                None => d.with_hint(format!("remove the key; known keys are {}", list(known))),
            };
            out.push(d);
        }
    }
}

// xn-type: each known key of the block has its type.
// Reason: the platform reads these with fixed types and ignores or rejects others.
fn check_xn_type(root: &Map<String, Value>, xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    let Some(value) = root.get("x-neuralis") else {
        return;
    };
    if xn.block.is_none() {
        out.push(type_error("/x-neuralis", "an object", value));
        return;
    }
    for (level, map, _) in xn.levels() {
        for (key, value) in map {
            let Some(shape) = shape_of(level, key) else {
                continue;
            };
            let pointer = push_pointer(level, key);
            match shape {
                Shape::String => expect_string(&pointer, value, out),
                Shape::Strings => match value {
                    Value::Array(items) => {
                        for (i, item) in items.iter().enumerate() {
                            expect_string(&push_pointer(&pointer, &i.to_string()), item, out);
                        }
                    }
                    _ => out.push(type_error(&pointer, "an array of strings", value)),
                },
                Shape::DistinctStrings => expect_distinct_strings(&pointer, value, out),
                Shape::Object if !value.is_object() => {
                    out.push(type_error(&pointer, "an object", value));
                }
                Shape::Boolean if !value.is_boolean() => {
                    out.push(type_error(&pointer, "a boolean", value));
                }
                Shape::Count
                    if !(value.as_u64().is_some()
                        || value.as_f64().is_some_and(|f| f >= 0.0 && f.fract() == 0.0)) =>
                {
                    out.push(type_error(&pointer, "a non-negative integer", value));
                }
                Shape::Presentation
                    if !value
                        .as_str()
                        .is_some_and(|p| known_keys::PRESENTATIONS.contains(&p)) =>
                {
                    out.push(type_error(
                        &pointer,
                        "one of `inline`, `explored`, `card`",
                        value,
                    ));
                }
                Shape::Object | Shape::Boolean | Shape::Count | Shape::Presentation => {}
            }
        }
    }
}

/// The type a known key of the block must have.
#[derive(Debug, Clone, Copy)]
enum Shape {
    String,
    Boolean,
    Count,
    Object,
    Strings,
    DistinctStrings,
    Presentation,
}

/// The shape of `key` at the level `level` (a pointer), when the contract gives one.
/// `category` has none here: `category-invalid` covers it.
fn shape_of(level: &str, key: &str) -> Option<Shape> {
    Some(match (level, key) {
        ("/x-neuralis", "family" | "operation" | "transport")
        | ("/x-neuralis/annotations", "title")
        | ("/x-neuralis/ui", "cardType" | "icon") => Shape::String,
        ("/x-neuralis", "defaults" | "annotations" | "ui" | "requires") => Shape::Object,
        ("/x-neuralis", "askOnKeys") => Shape::Strings,
        (
            "/x-neuralis/annotations",
            "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint" | "cancellable",
        ) => Shape::Boolean,
        ("/x-neuralis/annotations", "estimatedDurationMs") => Shape::Count,
        ("/x-neuralis/ui", "presentation") => Shape::Presentation,
        ("/x-neuralis/requires", "features" | "escalations") => Shape::DistinctStrings,
        _ => return None,
    })
}

fn expect_string(pointer: &str, value: &Value, out: &mut Vec<Diagnostic>) {
    if !value.is_string() {
        out.push(type_error(pointer, "a string", value));
    }
}

fn expect_distinct_strings(pointer: &str, value: &Value, out: &mut Vec<Diagnostic>) {
    let Value::Array(items) = value else {
        out.push(type_error(
            pointer,
            "an array of non-empty, distinct strings",
            value,
        ));
        return;
    };
    for (i, item) in items.iter().enumerate() {
        let at = push_pointer(pointer, &i.to_string());
        match item.as_str() {
            None => out.push(type_error(&at, "a non-empty string", item)),
            Some("") => out.push(type_error(&at, "a non-empty string", item)),
            Some(s) if items[..i].iter().any(|v| v.as_str() == Some(s)) => out.push(
                Diagnostic::new(RuleId::XnType, at.clone())
                    .with_message(format!("`{}` lists `{s}` twice", display_pointer(pointer)))
                    .with_hint("list each entry once"),
            ),
            Some(_) => {}
        }
    }
}

fn type_error(pointer: &str, expected: &str, found: &Value) -> Diagnostic {
    Diagnostic::new(RuleId::XnType, pointer)
        .with_message(format!(
            "`{}` must be {expected}, found {}",
            display_pointer(pointer),
            describe(found)
        ))
        .with_hint(format!("make `{}` {expected}", display_pointer(pointer)))
}

// category-missing: `annotations.category` is present.
// Reason: the category decides when a call asks for approval.
fn check_category_missing(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    let Some(block) = xn.block else { return };
    let pointer = match block.get("annotations") {
        None => "/x-neuralis",
        Some(Value::Object(a)) if !a.contains_key("category") => "/x-neuralis/annotations",
        Some(_) => return,
    };
    out.push(Diagnostic::new(RuleId::CategoryMissing, pointer));
}

// category-invalid: `annotations.category` is one of the known categories.
// Reason: an unknown category cannot be mapped to an approval posture.
fn check_category_invalid(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    let Some(value) = xn.annotation("category") else {
        return;
    };
    if value.as_str().is_some_and(|c| CATEGORIES.contains(&c)) {
        return;
    }
    let mut d =
        Diagnostic::new(RuleId::CategoryInvalid, "/x-neuralis/annotations/category").with_message(
            format!("category `{}` is not a known category", short(value)),
        );
    if let Some(close) = value.as_str().and_then(|c| did_you_mean(c, CATEGORIES)) {
        d = d.with_hint(format!(
            "did you mean `{close}`? known: {}",
            list(CATEGORIES)
        ));
    }
    out.push(d);
}

// defaults-undeclared: each key of `defaults` is a root property and its value fits that
// property's schema. Reason: a default the input schema refuses would fail every call using it.
fn check_defaults_undeclared(root: &Map<String, Value>, xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    let Some(Value::Object(defaults)) = xn.block.and_then(|b| b.get("defaults")) else {
        return;
    };
    if defaults.is_empty() {
        return;
    }
    let properties = root.get("properties").and_then(Value::as_object);
    let mut declared = Map::new();
    for (key, _) in defaults {
        match properties.and_then(|p| p.get(key)) {
            Some(schema) => {
                declared.insert(key.clone(), schema.clone());
            }
            None => out.push(
                Diagnostic::new(
                    RuleId::DefaultsUndeclared,
                    push_pointer("/x-neuralis/defaults", key),
                )
                .with_message(format!(
                    "`defaults` names `{key}`, which is not a root property"
                ))
                .with_hint(format!(
                    "declare `{key}` in the root's `properties`, or drop its default"
                )),
            ),
        }
    }
    if declared.is_empty() {
        return;
    }
    let Some(validator) = defaults_validator(root, declared) else {
        return;
    };
    let instance = Value::Object(defaults.clone());
    for error in validator.iter_errors(&instance) {
        let path = error.instance_path().as_str();
        let key = path.split('/').nth(1).unwrap_or_default();
        let mut message = format!(
            "the default for `{}` does not fit its schema: {}",
            key.replace("~1", "/").replace("~0", "~"),
            error.masked()
        );
        if !matches!(
            error.instance().as_ref(),
            Value::Object(_) | Value::Array(_)
        ) {
            message = format!("{message} (found `{}`)", short(error.instance()));
        }
        out.push(
            Diagnostic::new(
                RuleId::DefaultsUndeclared,
                format!("/x-neuralis/defaults{path}"),
            )
            .with_message(message)
            .with_hint("give a default the property's schema accepts"),
        );
    }
}

/// One validator for the defaulted root properties, compiled once per file.
///
/// First from a small document (those properties' schemas and the root's `definitions`, so
/// `#/definitions/...` references resolve); when that does not compile (a reference to
/// elsewhere in the root), from the whole root minus its own object-level assertions.
/// A schema that compiles neither way is left to `schema-draft`.
fn defaults_validator(
    root: &Map<String, Value>,
    declared: Map<String, Value>,
) -> Option<jsonschema::Validator> {
    let mut small = Map::new();
    if let Some(definitions) = root.get("definitions") {
        small.insert("definitions".to_owned(), definitions.clone());
    }
    small.insert("properties".to_owned(), Value::Object(declared));
    if let Ok(validator) = jsonschema::draft7::new(&Value::Object(small)) {
        return Some(validator);
    }
    const ROOT_ONLY: &[&str] = &[
        "$ref",
        "type",
        "required",
        "additionalProperties",
        "patternProperties",
        "propertyNames",
        "minProperties",
        "maxProperties",
        "dependencies",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "enum",
        "const",
        "x-neuralis",
    ];
    let whole: Map<String, Value> = root
        .iter()
        .filter(|(k, _)| !ROOT_ONLY.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    jsonschema::draft7::new(&Value::Object(whole)).ok()
}

// askonkeys-posture: `askOnKeys` only on a destructive tool of an asking-capable category.
// Reason: elsewhere every call asks anyway, so the list would gate nothing.
fn check_askonkeys_posture(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    if xn.block.and_then(|b| b.get("askOnKeys")).is_none() {
        return;
    }
    let category = xn.annotation("category").and_then(Value::as_str);
    let fits =
        xn.flag("destructiveHint") && category.is_some_and(|c| ASK_ON_KEYS_CATEGORIES.contains(&c));
    if !fits {
        let destructive = if xn.flag("destructiveHint") {
            "true"
        } else {
            "not true"
        };
        out.push(
            Diagnostic::new(RuleId::AskonkeysPosture, "/x-neuralis/askOnKeys").with_message(format!(
                "`askOnKeys` on a tool whose `destructiveHint` is {destructive} and whose category is `{}`; it is only valid with `destructiveHint: true` and category `write`, `execute`, `network` or `machine`",
                category.unwrap_or("(none)")
            )),
        );
    }
}

// askonkeys-too-many: at most 8 distinct keys.
// Reason: a tool that must ask about more keys should ask about every call.
fn check_askonkeys_too_many(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    let Some(keys) = xn.ask_on_keys() else { return };
    let mut distinct: Vec<&str> = keys.iter().filter_map(Value::as_str).collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() > ASK_ON_KEYS_MAX {
        out.push(
            Diagnostic::new(RuleId::AskonkeysTooMany, "/x-neuralis/askOnKeys").with_message(
                format!(
                    "`askOnKeys` lists {} distinct keys, more than {ASK_ON_KEYS_MAX}",
                    distinct.len()
                ),
            ),
        );
    }
}

// askonkeys-duplicate: no key listed twice.
// Reason: a repeat is a typo or a leftover, never meaningful.
fn check_askonkeys_duplicate(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    let Some(keys) = xn.ask_on_keys() else { return };
    for (i, key) in keys.iter().enumerate() {
        let Some(key) = key.as_str() else { continue };
        if keys[..i].iter().any(|k| k.as_str() == Some(key)) {
            out.push(
                Diagnostic::new(
                    RuleId::AskonkeysDuplicate,
                    format!("/x-neuralis/askOnKeys/{i}"),
                )
                .with_message(format!("`askOnKeys` lists `{key}` twice")),
            );
        }
    }
}

// askonkeys-undeclared: each key is a root property of this tool's input.
// Reason: a call can never send an undeclared key, so it would gate nothing.
fn check_askonkeys_undeclared(root: &Map<String, Value>, xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    let Some(keys) = xn.ask_on_keys() else { return };
    let properties = root.get("properties").and_then(Value::as_object);
    for (i, key) in keys.iter().enumerate() {
        let Some(key) = key.as_str() else { continue };
        if properties.is_some_and(|p| p.contains_key(key)) {
            continue;
        }
        let mut d = Diagnostic::new(
            RuleId::AskonkeysUndeclared,
            format!("/x-neuralis/askOnKeys/{i}"),
        )
        .with_message(format!(
            "`askOnKeys` names `{key}`, which is not a root property"
        ));
        let names: Vec<&str> = properties
            .into_iter()
            .flatten()
            .map(|(k, _)| k.as_str())
            .collect();
        if let Some(close) = did_you_mean(key, &names) {
            d = d.with_hint(format!("did you mean `{close}`?"));
        }
        out.push(d);
    }
}

// hints-contradict (warning): not both `readOnlyHint` and `destructiveHint` true.
// Reason: a tool that only reads destroys nothing; one of the hints is wrong.
fn check_hints_contradict(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    if xn.flag("readOnlyHint") && xn.flag("destructiveHint") {
        out.push(Diagnostic::new(
            RuleId::HintsContradict,
            "/x-neuralis/annotations",
        ));
    }
}

// description-missing (warning): the root has a non-empty `description`.
// Reason: the model decides from it whether to call the tool.
fn check_description_missing(root: &Map<String, Value>, out: &mut Vec<Diagnostic>) {
    match root.get("description") {
        None => out.push(Diagnostic::new(RuleId::DescriptionMissing, "")),
        Some(Value::String(s)) if s.trim().is_empty() => out.push(
            Diagnostic::new(RuleId::DescriptionMissing, "/description")
                .with_message("the root schema's `description` is empty"),
        ),
        Some(_) => {}
    }
}

// presentation-implicit (warning): a read-only tool says how it renders.
// Reason: otherwise it silently renders in the compact explored style.
fn check_presentation_implicit(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    if !xn.flag("readOnlyHint") {
        return;
    }
    let says = xn
        .ui
        .is_some_and(|ui| ui.contains_key("cardType") || ui.contains_key("presentation"));
    if !says {
        out.push(Diagnostic::new(
            RuleId::PresentationImplicit,
            "/x-neuralis/annotations/readOnlyHint",
        ));
    }
}

// card-type-unmatched (warning): `ui.cardType` names a declared card (when cards are known).
// Reason: otherwise the result silently falls back to the default card.
fn check_card_type_unmatched(xn: &Xn<'_>, options: &CheckOptions, out: &mut Vec<Diagnostic>) {
    let Some(cards) = &options.cards else { return };
    let Some(card) = xn
        .ui
        .and_then(|ui| ui.get("cardType"))
        .and_then(Value::as_str)
    else {
        return;
    };
    if cards.iter().any(|c| c == card) {
        return;
    }
    let names: Vec<&str> = cards.iter().map(String::as_str).collect();
    let mut d = Diagnostic::new(RuleId::CardTypeUnmatched, "/x-neuralis/ui/cardType").with_message(
        format!("`ui.cardType` is `{card}`, which names no card the package declares"),
    );
    if let Some(close) = did_you_mean(card, &names) {
        d = d.with_hint(format!("did you mean `{close}`?"));
    }
    out.push(d);
}

// ---------------------------------------------------------------------------------------
// Message helpers

/// The known name closest to `key`, when it is close enough to be a likely typo.
fn did_you_mean<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    known
        .iter()
        .map(|k| {
            let d = if k.eq_ignore_ascii_case(key) {
                0
            } else {
                edit_distance(key, k)
            };
            (d, *k)
        })
        .filter(|(d, k)| {
            // Short names are too easily one edit apart: only a case difference counts.
            let len = k.chars().count();
            *d <= if len < 3 { 0 } else { (len / 3).max(1) }
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if ca == *cb {
                diag
            } else {
                1 + diag.min(up).min(row[j])
            };
            diag = up;
        }
    }
    row[b.len()]
}

fn list(items: &[&str]) -> String {
    items
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A value for a message: strings bare, other values as JSON, long ones cut.
fn short(value: &Value) -> String {
    let text = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}

fn describe(value: &Value) -> String {
    match value {
        Value::Null => "`null`".to_owned(),
        Value::Bool(b) => format!("the boolean `{b}`"),
        Value::Number(n) => format!("the number `{n}`"),
        Value::String(s) if s.is_empty() => "an empty string".to_owned(),
        Value::String(_) => format!("the string `{}`", short(value)),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// A pointer as a dotted path for messages (`/x-neuralis/ui` → `x-neuralis.ui`).
fn display_pointer(pointer: &str) -> String {
    if pointer.is_empty() {
        return "the document".to_owned();
    }
    pointer
        .trim_start_matches('/')
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect::<Vec<_>>()
        .join(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_you_mean_needs_a_close_name() {
        assert_eq!(did_you_mean("famly", known_keys::XN), Some("family"));
        assert_eq!(did_you_mean("ASKONKEYS", known_keys::XN), Some("askOnKeys"));
        assert_eq!(did_you_mean("q", &["n", "id"]), None);
        assert_eq!(did_you_mean("ID", &["n", "id"]), Some("id"));
        assert_eq!(did_you_mean("colour", known_keys::UI), None);
    }

    #[test]
    fn local_refs_decode_percent_escapes() {
        assert_eq!(
            local_ref("#/definitions/a%20b").as_deref(),
            Some("/definitions/a b")
        );
        assert_eq!(local_ref("#").as_deref(), Some(""));
        assert_eq!(local_ref("other.json#/a"), None);
        assert_eq!(local_ref("#anchor"), None);
    }
}
