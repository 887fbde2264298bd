//! Section 4 of the contract: the `x-neuralis` block (and the root's `description`).

use serde_json::{Map, Value};

use super::words::{describe, did_you_mean, display_pointer, list, short};
use super::{CheckOptions, Compiled, Draft07};
use crate::contract::rules::{CATEGORIES, RuleId};
use crate::contract::{Diagnostic, push_pointer};
use crate::xn::verdict::{ASK_ON_KEYS_CATEGORIES, ASK_ON_KEYS_MAX, Posture, Scan};
use crate::xn::{self, Category, Key, Kind, Level, PRESENTATIONS, keys};

/// The levels of the `x-neuralis` block the rules look at (each only when an object),
/// found through the key table.
pub(super) struct Xn<'a> {
    /// By [`Level::ALL`]'s order: the block, then the objects it holds.
    levels: Vec<(Level, &'a Map<String, Value>)>,
}

impl<'a> Xn<'a> {
    pub(super) fn of(root: &'a Map<String, Value>) -> Self {
        let mut levels = Vec::with_capacity(Level::ALL.len());
        if let Some(block) = root.get(xn::BLOCK).and_then(Value::as_object) {
            levels.push((Level::Block, block));
            for key in Level::Block.keys() {
                if let (Kind::Level(level), Some(Value::Object(map))) =
                    (key.kind, block.get(key.name))
                {
                    levels.push((level, map));
                }
            }
        }
        Self { levels }
    }

    fn level(&self, level: Level) -> Option<&'a Map<String, Value>> {
        self.levels
            .iter()
            .find(|(l, _)| *l == level)
            .map(|(_, m)| *m)
    }

    fn block(&self) -> Option<&'a Map<String, Value>> {
        self.level(Level::Block)
    }

    /// The value of `key`, when its level is an object that holds it.
    fn get(&self, key: &Key) -> Option<&'a Value> {
        self.level(key.level)?.get(key.name)
    }

    fn flag(&self, key: &Key) -> bool {
        self.get(key) == Some(&Value::Bool(true))
    }

    fn ask_on_keys(&self) -> Option<&'a Vec<Value>> {
        self.get(&keys::ASK_ON_KEYS)?.as_array()
    }
}

// xn-missing: the root has an `x-neuralis` block.
// Reason: a natively authored tool declares its family, posture and category there.
pub(super) fn check_xn_missing(root: &Map<String, Value>, out: &mut Vec<Diagnostic>) {
    if !root.contains_key(xn::BLOCK) {
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
    for (level, map) in &xn.levels {
        for key in map.keys().filter(|k| is_recovery_key(k)) {
            out.push(
                Diagnostic::new(RuleId::XnRecoveryField, push_pointer(&level.pointer(), key)).with_message(
                    format!("`{key}` declares recovery posture on the tool, which the platform never reads from a tool"),
                ),
            );
        }
    }
}

// xn-unknown-key: only known keys at every level of the block.
// Reason: a misspelt key silently does nothing.
pub(super) fn check_xn_unknown_key(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    for (level, map) in &xn.levels {
        let known = level.names();
        for key in map.keys() {
            if known.contains(&key.as_str()) || is_recovery_key(key) {
                continue;
            }
            let pointer = level.pointer();
            let level = display_pointer(&pointer);
            let mut d = Diagnostic::new(RuleId::XnUnknownKey, push_pointer(&pointer, key))
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
    let Some(value) = root.get(xn::BLOCK) else {
        return;
    };
    if xn.block().is_none() {
        out.push(type_error(xn::BLOCK_POINTER, "an object", value));
        return;
    }
    for (level, map) in &xn.levels {
        for (key, value) in *map {
            let Some(kind) = level.find(key).map(|k| k.kind) else {
                continue;
            };
            // The common case, a value of its kind, builds no pointer.
            let fits = match kind {
                Kind::Text => value.is_string(),
                Kind::Defaults | Kind::Level(_) => value.is_object(),
                Kind::Flag => value.is_boolean(),
                // `category-invalid` judges the category.
                Kind::Category => true,
                Kind::Keys | Kind::Entries | Kind::Count | Kind::Presentation => false,
            };
            if fits {
                continue;
            }
            let pointer = push_pointer(&level.pointer(), key);
            match kind {
                Kind::Text => expect_string(&pointer, value, out),
                Kind::Keys => match value {
                    Value::Array(items) => {
                        for (i, item) in items.iter().enumerate() {
                            expect_string(&push_pointer(&pointer, &i.to_string()), item, out);
                        }
                    }
                    _ => out.push(type_error(&pointer, "an array of strings", value)),
                },
                Kind::Entries => expect_distinct_strings(&pointer, value, out),
                Kind::Defaults | Kind::Level(_) if !value.is_object() => {
                    out.push(type_error(&pointer, "an object", value));
                }
                Kind::Flag if !value.is_boolean() => {
                    out.push(type_error(&pointer, "a boolean", value));
                }
                Kind::Count
                    if !(value.as_u64().is_some()
                        || value.as_f64().is_some_and(|f| f >= 0.0 && f.fract() == 0.0)) =>
                {
                    out.push(type_error(&pointer, "a non-negative integer", value));
                }
                Kind::Presentation
                    if !value.as_str().is_some_and(|p| PRESENTATIONS.contains(&p)) =>
                {
                    let expected = format!("one of {}", list(PRESENTATIONS));
                    out.push(type_error(&pointer, &expected, value));
                }
                Kind::Defaults
                | Kind::Level(_)
                | Kind::Flag
                | Kind::Count
                | Kind::Presentation
                | Kind::Category => {}
            }
        }
    }
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
    let repeats = Scan::of(items.iter().map(Value::as_str), usize::MAX).repeats;
    for (i, item) in items.iter().enumerate() {
        let at = || push_pointer(pointer, &i.to_string());
        match item.as_str() {
            None | Some("") => out.push(type_error(&at(), "a non-empty string", item)),
            Some(s) if repeats.binary_search(&i).is_ok() => out.push(
                Diagnostic::new(RuleId::XnType, at())
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
    let Some(block) = xn.block() else { return };
    let pointer = match block.get(keys::ANNOTATIONS.name) {
        None => Level::Block.pointer(),
        Some(Value::Object(a)) if !a.contains_key(keys::CATEGORY.name) => {
            Level::Annotations.pointer()
        }
        Some(_) => return,
    };
    out.push(Diagnostic::new(RuleId::CategoryMissing, pointer));
}

// category-invalid: `annotations.category` is one of the known categories.
// Reason: an unknown category cannot be mapped to an approval posture.
pub(super) fn check_category_invalid(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    let Some(value) = xn.get(&keys::CATEGORY) else {
        return;
    };
    if value.as_str().and_then(Category::from_wire).is_some() {
        return;
    }
    let mut d = Diagnostic::new(RuleId::CategoryInvalid, keys::CATEGORY.pointer()).with_message(
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
    let Some(Value::Object(defaults)) = xn.get(&keys::DEFAULTS) else {
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
                    push_pointer(&keys::DEFAULTS.pointer(), key),
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
            crate::contract::unescape_token(key),
            violation.message
        );
        if let Some(found) = &violation.found {
            message = format!("{message} (found `{}`)", short(found));
        }
        out.push(
            Diagnostic::new(
                RuleId::DefaultsUndeclared,
                format!("{}{path}", keys::DEFAULTS.pointer()),
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
        xn::BLOCK,
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
    if xn.get(&keys::ASK_ON_KEYS).is_none() {
        return;
    }
    let category = xn.get(&keys::CATEGORY).and_then(Value::as_str);
    let destructive = xn.flag(&keys::DESTRUCTIVE_HINT);
    if Posture::of(destructive, category.and_then(Category::from_wire)) == Posture::Gates {
        return;
    }
    let gating: Vec<&str> = ASK_ON_KEYS_CATEGORIES.iter().map(|c| c.as_str()).collect();
    let (ask, hint) = (keys::ASK_ON_KEYS.name, keys::DESTRUCTIVE_HINT.name);
    out.push(
        Diagnostic::new(RuleId::AskonkeysPosture, keys::ASK_ON_KEYS.pointer()).with_message(format!(
            "`{ask}` on a tool whose `{hint}` is {} and whose category is `{}`; it is only valid with `{hint}: true` and category {}",
            if destructive { "true" } else { "not true" },
            category.unwrap_or("(none)"),
            either(&gating),
        )),
    );
}

/// `a`, `b` or `c`.
fn either(items: &[&str]) -> String {
    match items.split_last() {
        Some((last, [])) => format!("`{last}`"),
        Some((last, rest)) => format!("{} or `{last}`", list(rest)),
        None => String::new(),
    }
}

/// The strings of `askOnKeys`, scanned once (anything else in the list is `xn-type`'s).
fn scan_ask_on_keys(keys: &[Value]) -> Scan {
    Scan::of(keys.iter().map(Value::as_str), ASK_ON_KEYS_MAX)
}

// askonkeys-too-many: at most 8 distinct keys.
// Reason: a tool that must ask about more keys should ask about every call.
pub(super) fn check_askonkeys_too_many(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    let Some(list) = xn.ask_on_keys() else { return };
    let scan = scan_ask_on_keys(list);
    if scan.beyond.is_some() {
        out.push(
            Diagnostic::new(RuleId::AskonkeysTooMany, keys::ASK_ON_KEYS.pointer()).with_message(
                format!(
                    "`{}` lists {} distinct keys, more than {ASK_ON_KEYS_MAX}",
                    keys::ASK_ON_KEYS.name,
                    scan.distinct
                ),
            ),
        );
    }
}

// askonkeys-duplicate: no key listed twice.
// Reason: a repeat is a typo or a leftover, never meaningful.
pub(super) fn check_askonkeys_duplicate(xn: &Xn<'_>, out: &mut Vec<Diagnostic>) {
    let Some(list) = xn.ask_on_keys() else { return };
    let pointer = keys::ASK_ON_KEYS.pointer();
    for i in scan_ask_on_keys(list).repeats {
        let key = list[i].as_str().unwrap_or_default();
        out.push(
            Diagnostic::new(
                RuleId::AskonkeysDuplicate,
                push_pointer(&pointer, &i.to_string()),
            )
            .with_message(format!("`{}` lists `{key}` twice", keys::ASK_ON_KEYS.name)),
        );
    }
}

// askonkeys-undeclared: each key is a root property of this tool's input.
// Reason: a call can never send an undeclared key, so it would gate nothing.
pub(super) fn check_askonkeys_undeclared(
    root: &Map<String, Value>,
    xn: &Xn<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let Some(list) = xn.ask_on_keys() else { return };
    let properties = root.get("properties").and_then(Value::as_object);
    let pointer = keys::ASK_ON_KEYS.pointer();
    for (i, key) in list.iter().enumerate() {
        let Some(key) = key.as_str() else { continue };
        if properties.is_some_and(|p| p.contains_key(key)) {
            continue;
        }
        let mut d = Diagnostic::new(
            RuleId::AskonkeysUndeclared,
            push_pointer(&pointer, &i.to_string()),
        )
        .with_message(format!(
            "`{}` names `{key}`, which is not a root property",
            keys::ASK_ON_KEYS.name
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
    if xn.flag(&keys::READ_ONLY_HINT) && xn.flag(&keys::DESTRUCTIVE_HINT) {
        out.push(Diagnostic::new(
            RuleId::HintsContradict,
            Level::Annotations.pointer(),
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
    if !xn.flag(&keys::READ_ONLY_HINT) {
        return;
    }
    let says = xn.get(&keys::CARD_TYPE).is_some() || xn.get(&keys::PRESENTATION).is_some();
    if !says {
        out.push(Diagnostic::new(
            RuleId::PresentationImplicit,
            keys::READ_ONLY_HINT.pointer(),
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
    let Some(card) = xn.get(&keys::CARD_TYPE).and_then(Value::as_str) else {
        return;
    };
    if cards.iter().any(|c| c == card) {
        return;
    }
    let names: Vec<&str> = cards.iter().map(String::as_str).collect();
    let mut d = Diagnostic::new(RuleId::CardTypeUnmatched, keys::CARD_TYPE.pointer()).with_message(
        format!(
            "`{}.{}` is `{card}`, which names no card the package declares",
            keys::UI.name,
            keys::CARD_TYPE.name
        ),
    );
    if let Some(close) = did_you_mean(card, &names) {
        d = d.with_hint(format!("did you mean `{close}`?"));
    }
    out.push(d);
}
