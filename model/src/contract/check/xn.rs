//! Section 4 of the contract: the `x-neuralis` block (and the root's `description`).

use serde_json::{Map, Value};

use super::words::{describe, did_you_mean, display_pointer, list, short};
use super::{CheckOptions, Compiled, Draft07};
use crate::contract::diag::{Diagnostic, push_pointer};
use crate::contract::rules::{
    ASK_ON_KEYS_CATEGORIES, ASK_ON_KEYS_MAX, CATEGORIES, RuleId, known_keys,
};

/// The parts of the `x-neuralis` block the rules look at (each only when an object).
pub(super) struct Xn<'a> {
    block: Option<&'a Map<String, Value>>,
    annotations: Option<&'a Map<String, Value>>,
    ui: Option<&'a Map<String, Value>>,
    requires: Option<&'a Map<String, Value>>,
}

impl<'a> Xn<'a> {
    pub(super) fn of(root: &'a Map<String, Value>) -> Self {
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
pub(super) fn check_xn_missing(root: &Map<String, Value>, out: &mut Vec<Diagnostic>) {
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
pub(super) fn check_xn_recovery_field(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
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
pub(super) fn check_xn_unknown_key(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
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
pub(super) fn check_xn_type(root: &Map<String, Value>, xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
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
            // The common case, a value of its shape, builds no pointer.
            let fits = match shape {
                Shape::String => value.is_string(),
                Shape::Object => value.is_object(),
                Shape::Boolean => value.is_boolean(),
                Shape::Strings | Shape::DistinctStrings | Shape::Count | Shape::Presentation => {
                    false
                }
            };
            if fits {
                continue;
            }
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
pub(super) fn check_category_missing(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
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
pub(super) fn check_category_invalid(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
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
pub(super) fn check_defaults_undeclared(
    root: &Map<String, Value>,
    xn: &Xn<'_>,
    validator: Option<&dyn Draft07>,
    out: &mut Vec<Diagnostic>,
) {
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
    let Some(validator) = validator.filter(|_| !declared.is_empty()) else {
        return;
    };
    let Some(compiled) = defaults_validator(validator, root, declared) else {
        return;
    };
    let instance = Value::Object(defaults.clone());
    for violation in compiled.violations(&instance) {
        let path = violation.pointer.as_str();
        let key = path.split('/').nth(1).unwrap_or_default();
        let mut message = format!(
            "the default for `{}` does not fit its schema: {}",
            key.replace("~1", "/").replace("~0", "~"),
            violation.message
        );
        if let Some(found) = &violation.found {
            message = format!("{message} (found `{}`)", short(found));
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
fn defaults_validator<'a>(
    validator: &'a dyn Draft07,
    root: &Map<String, Value>,
    declared: Map<String, Value>,
) -> Option<Box<dyn Compiled + 'a>> {
    let mut small = Map::new();
    if let Some(definitions) = root.get("definitions") {
        small.insert("definitions".to_owned(), definitions.clone());
    }
    small.insert("properties".to_owned(), Value::Object(declared));
    if let Some(compiled) = validator.compile(&Value::Object(small)) {
        return Some(compiled);
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
    validator.compile(&Value::Object(whole))
}

// askonkeys-posture: `askOnKeys` only on a destructive tool of an asking-capable category.
// Reason: elsewhere every call asks anyway, so the list would gate nothing.
pub(super) fn check_askonkeys_posture(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
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
pub(super) fn check_askonkeys_too_many(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
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
pub(super) fn check_askonkeys_duplicate(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
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
pub(super) fn check_askonkeys_undeclared(
    root: &Map<String, Value>,
    xn: &Xn<'_>,
    out: &mut Vec<Diagnostic>,
) {
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
        // A key one level down: the author probably meant to flatten that property.
        let nested = properties.into_iter().flatten().find(|(_, schema)| {
            schema
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| p.contains_key(key))
        });
        if let Some((field, _)) = nested {
            d = d.with_hint(format!(
                "it is a property of `{field}`, one level down: flatten `{field}` into the root (`#[serde(flatten)]`) to make its properties root properties"
            ));
        } else if let Some(close) = did_you_mean(key, &names) {
            d = d.with_hint(format!("did you mean `{close}`?"));
        }
        out.push(d);
    }
}

// hints-contradict (warning): not both `readOnlyHint` and `destructiveHint` true.
// Reason: a tool that only reads destroys nothing; one of the hints is wrong.
pub(super) fn check_hints_contradict(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    if xn.flag("readOnlyHint") && xn.flag("destructiveHint") {
        out.push(Diagnostic::new(
            RuleId::HintsContradict,
            "/x-neuralis/annotations",
        ));
    }
}

// description-missing (warning): the root has a non-empty `description`.
// Reason: the model decides from it whether to call the tool.
pub(super) fn check_description_missing(root: &Map<String, Value>, out: &mut Vec<Diagnostic>) {
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
pub(super) fn check_presentation_implicit(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
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
pub(super) fn check_card_type_unmatched(
    xn: &Xn<'_>,
    options: &CheckOptions,
    out: &mut Vec<Diagnostic>,
) {
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
