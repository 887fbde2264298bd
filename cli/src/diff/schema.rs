//! Two revisions of one tool, compared the way a caller lives with them: every finding
//! with its rule id, class, JSON pointer and what a caller will see.
//!
//! The input schema is read as the contract reads it (local `$ref`s followed, nested
//! objects and arrays, compositions branch by branch); a change that cannot be decided
//! (a composition whose branches are not the same number) is said so and counted
//! `breaking`. An input narrowed breaks calls that worked; an output widened breaks
//! clients that read it: one walk, told which side it is on.

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::{Map, Value};

/// How a change affects those who call the tool, most severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// A call that worked can now be refused or mean something else (for an output: a
    /// client's reading of a result can now fail).
    Breaking,
    /// Who must approve or may call the tool changed.
    Posture,
    /// New things a caller may do; nothing it did stops working.
    Additive,
    /// What only people and models read: descriptions, titles, examples, `ui`.
    Cosmetic,
    /// No change.
    None,
}

impl Class {
    /// The class's name in every output.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Breaking => "breaking",
            Self::Posture => "posture",
            Self::Additive => "additive",
            Self::Cosmetic => "cosmetic",
            Self::None => "none",
        }
    }
}

/// One change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The rule id (`docs/changing.md`).
    pub rule: &'static str,
    /// Its class.
    pub class: Class,
    /// RFC 6901 pointer into the tool file (`/x-neuralis/...` for the block), or into
    /// the output schema prefixed with `/outputSchema`.
    pub pointer: String,
    /// What a caller will see.
    pub message: String,
}

/// Which side of a call a schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Arguments: narrowing breaks calls.
    Input,
    /// `structuredContent`: widening breaks clients.
    Output,
}

/// The direction a keyword moved in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Moved {
    /// Accepts less than before.
    Narrower,
    /// Accepts more than before.
    Wider,
    /// Accepts something else: neither contains the other.
    Other,
}

/// Compares the schemas `old` and `new` of one side, the documents they sit in
/// (`old_root`, `new_root`) resolving their `$ref`s, pushing every finding.
pub struct Walk<'a> {
    side: Side,
    old_root: &'a Value,
    new_root: &'a Value,
    prefix: &'a str,
    seen: BTreeSet<(String, String)>,
    /// Whether the schema about to be compared is a property the old side required: a
    /// default it gains then changes no call that was valid (none left it out).
    was_required: bool,
    /// What was found.
    pub findings: Vec<Finding>,
}

const REF_HOPS: usize = 32;

fn resolve<'v>(root: &'v Value, mut schema: &'v Value) -> &'v Value {
    for _ in 0..REF_HOPS {
        let Some(r) = schema.get("$ref").and_then(Value::as_str) else {
            return schema;
        };
        let target = match r {
            "#" => Some(root),
            r => r.strip_prefix('#').and_then(|p| root.pointer(p)),
        };
        match target {
            Some(t) => schema = t,
            None => return schema,
        }
    }
    schema
}

/// Whether `schema` holds a `$ref` at any depth (two equal schemas that do may still
/// differ, through what their references point at in each document).
fn has_ref(schema: &Value) -> bool {
    match schema {
        Value::Object(m) => m.iter().any(|(k, v)| k == "$ref" || has_ref(v)),
        Value::Array(items) => items.iter().any(has_ref),
        _ => false,
    }
}

fn push(pointer: &str, token: &str) -> String {
    neuralis_core::contract::push_pointer(pointer, token)
}

fn types(schema: &Value) -> Option<BTreeSet<String>> {
    let mut set: BTreeSet<String> = match schema.get("type")? {
        Value::String(t) => [t.clone()].into(),
        Value::Array(ts) => ts
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => return None,
    };
    if set.contains("number") {
        set.insert("integer".into());
    }
    Some(set)
}

fn shown(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}

/// The message of a default a property gained when the old side required it.
pub(super) fn default_added(default: &Value) -> String {
    format!(
        "a default {} is new where the key was required: no valid call left it out, so none means something else",
        shown(default)
    )
}

impl<'a> Walk<'a> {
    /// A walk of one side; `prefix` is put before every pointer.
    #[must_use]
    pub fn new(side: Side, old_root: &'a Value, new_root: &'a Value, prefix: &'a str) -> Self {
        Self {
            side,
            old_root,
            new_root,
            prefix,
            seen: BTreeSet::new(),
            was_required: false,
            findings: Vec::new(),
        }
    }

    fn find(&mut self, rule: &'static str, class: Class, pointer: &str, message: String) {
        self.findings.push(Finding {
            rule,
            class,
            pointer: format!("{}{pointer}", self.prefix),
            message,
        });
    }

    /// The class of a move, on this side.
    fn class_of(&self, moved: Moved) -> Class {
        match (self.side, moved) {
            (_, Moved::Other) => Class::Breaking,
            (Side::Input, Moved::Narrower) | (Side::Output, Moved::Wider) => Class::Breaking,
            (Side::Input, Moved::Wider) | (Side::Output, Moved::Narrower) => Class::Additive,
        }
    }

    /// What a move means to a caller, on this side.
    fn consequence(&self, moved: Moved) -> &'static str {
        match (self.side, moved) {
            (Side::Input, Moved::Narrower) => {
                "a call that sent what it no longer accepts is refused"
            }
            (Side::Input, Moved::Wider) => "calls may send more than before",
            (Side::Output, Moved::Wider) => "a client may get what it never got before",
            (Side::Output, Moved::Narrower) => "results are narrower than before",
            (_, Moved::Other) => "what it accepts changed: neither contains the other",
        }
    }

    fn moved(&mut self, rule: &'static str, moved: Moved, pointer: &str, what: String) {
        let class = self.class_of(moved);
        let message = format!("{what}: {}", self.consequence(moved));
        self.find(rule, class, pointer, message);
    }

    /// Compares two schemas at `pointer`.
    pub fn schema(&mut self, old: &Value, new: &Value, pointer: &str) {
        let was_required = std::mem::take(&mut self.was_required);
        let old_resolved = resolve(self.old_root, old);
        let new_resolved = resolve(self.new_root, new);
        // A recursive type: the same pair of nodes again compares the same.
        let key = (
            format!("{:p}", old_resolved as *const Value),
            format!("{:p}", new_resolved as *const Value),
        );
        if (old.get("$ref").is_some() || new.get("$ref").is_some()) && !self.seen.insert(key) {
            return;
        }
        let (old, new) = (old_resolved, new_resolved);
        if old == new && !has_ref(old) {
            return;
        }
        match (old, new) {
            (Value::Bool(a), Value::Bool(b)) => {
                if a != b {
                    let moved = if *b { Moved::Wider } else { Moved::Narrower };
                    self.moved(
                        "schema-changed",
                        moved,
                        pointer,
                        format!("the schema `{a}` became `{b}`"),
                    );
                }
                return;
            }
            (Value::Object(_), Value::Object(_)) => {}
            _ => {
                if old != new {
                    self.find("schema-changed", Class::Breaking, pointer, "the schema changed form (a boolean schema against an object): cannot be decided".into());
                }
                return;
            }
        }
        let empty = Map::new();
        let o = old.as_object().unwrap_or(&empty);
        let n = new.as_object().unwrap_or(&empty);
        self.type_keyword(old, new, pointer);
        self.literals(o, n, pointer);
        self.bounds(o, n, pointer);
        self.assertions(o, n, pointer, was_required);
        self.annotations(o, n, pointer);
        self.objects(o, n, pointer);
        self.arrays(o, n, pointer);
        self.compositions(o, n, pointer);
    }

    fn type_keyword(&mut self, old: &Value, new: &Value, pointer: &str) {
        let at = push(pointer, "type");
        match (types(old), types(new)) {
            (None, None) => {}
            (Some(a), Some(b)) if a == b => {}
            (Some(_), None) => self.moved(
                "type-changed",
                Moved::Wider,
                &at,
                format!("`type` {} is gone", shown(&old["type"])),
            ),
            (None, Some(_)) => self.moved(
                "type-changed",
                Moved::Narrower,
                &at,
                format!("`type` {} is new", shown(&new["type"])),
            ),
            (Some(a), Some(b)) => {
                let moved = if b.is_subset(&a) {
                    Moved::Narrower
                } else if a.is_subset(&b) {
                    Moved::Wider
                } else {
                    Moved::Other
                };
                self.moved(
                    "type-changed",
                    moved,
                    &at,
                    format!(
                        "`type` {} became {}",
                        shown(&old["type"]),
                        shown(&new["type"])
                    ),
                );
            }
        }
    }

    fn literals(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, pointer: &str) {
        let values = |m: &Map<String, Value>| -> Option<Vec<Value>> {
            if let Some(Value::Array(e)) = m.get("enum") {
                return Some(e.clone());
            }
            m.get("const").map(|c| vec![c.clone()])
        };
        let keyword = if n.contains_key("enum") || o.contains_key("enum") {
            "enum"
        } else {
            "const"
        };
        let at = push(pointer, keyword);
        match (values(o), values(n)) {
            (None, None) => {}
            (Some(_), None) => self.moved(
                "enum-removed",
                Moved::Wider,
                &at,
                format!("`{keyword}` is gone"),
            ),
            (None, Some(_)) => self.moved(
                "enum-added",
                Moved::Narrower,
                &at,
                format!("`{keyword}` is new"),
            ),
            (Some(a), Some(b)) => {
                let gone: Vec<&Value> = a.iter().filter(|v| !b.contains(v)).collect();
                let added: Vec<&Value> = b.iter().filter(|v| !a.contains(v)).collect();
                if !gone.is_empty() {
                    let list: Vec<String> = gone.iter().map(|v| shown(v)).collect();
                    let rule = match self.side {
                        Side::Input => "enum-value-removed",
                        Side::Output => "output-enum-value-removed",
                    };
                    self.moved(
                        rule,
                        Moved::Narrower,
                        &at,
                        format!("no longer {}", list.join(", ")),
                    );
                }
                if !added.is_empty() {
                    let list: Vec<String> = added.iter().map(|v| shown(v)).collect();
                    let rule = match self.side {
                        Side::Input => "enum-value-added",
                        Side::Output => "output-enum-value-added",
                    };
                    self.moved(
                        rule,
                        Moved::Wider,
                        &at,
                        format!("now also {}", list.join(", ")),
                    );
                }
            }
        }
    }

    fn bounds(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, pointer: &str) {
        // (keyword, a larger value is narrower)
        const BOUNDS: &[(&str, bool)] = &[
            ("minimum", true),
            ("exclusiveMinimum", true),
            ("minLength", true),
            ("minItems", true),
            ("minProperties", true),
            ("maximum", false),
            ("exclusiveMaximum", false),
            ("maxLength", false),
            ("maxItems", false),
            ("maxProperties", false),
        ];
        for (keyword, larger_narrows) in BOUNDS {
            let at = push(pointer, keyword);
            let (a, b) = (o.get(*keyword), n.get(*keyword));
            let moved = match (a.and_then(Value::as_f64), b.and_then(Value::as_f64)) {
                (None, None) => continue,
                (Some(_), None) => Moved::Wider,
                (None, Some(_)) => Moved::Narrower,
                (Some(x), Some(y)) if x == y => continue,
                (Some(x), Some(y)) => {
                    if (y > x) == *larger_narrows {
                        Moved::Narrower
                    } else {
                        Moved::Wider
                    }
                }
            };
            let what = match (a, b) {
                (Some(a), Some(b)) => format!("`{keyword}` {a} became {b}"),
                (Some(a), None) => format!("`{keyword}` {a} is gone"),
                (None, Some(b)) => format!("`{keyword}` {b} is new"),
                (None, None) => continue,
            };
            let rule = if moved == Moved::Narrower {
                "bound-tightened"
            } else {
                "bound-loosened"
            };
            self.moved(rule, moved, &at, what);
        }
        let at = push(pointer, "multipleOf");
        match (o.get("multipleOf"), n.get("multipleOf")) {
            (a, b) if a == b => {}
            (Some(a), None) => self.moved(
                "bound-loosened",
                Moved::Wider,
                &at,
                format!("`multipleOf` {a} is gone"),
            ),
            (None, Some(b)) => self.moved(
                "bound-tightened",
                Moved::Narrower,
                &at,
                format!("`multipleOf` {b} is new"),
            ),
            (Some(a), Some(b)) => self.moved(
                "bound-tightened",
                Moved::Other,
                &at,
                format!("`multipleOf` {a} became {b}"),
            ),
            (None, None) => {}
        }
        let at = push(pointer, "uniqueItems");
        let unique = |m: &Map<String, Value>| m.get("uniqueItems") == Some(&Value::Bool(true));
        match (unique(o), unique(n)) {
            (false, true) => self.moved(
                "bound-tightened",
                Moved::Narrower,
                &at,
                "items must now be distinct".into(),
            ),
            (true, false) => self.moved(
                "bound-loosened",
                Moved::Wider,
                &at,
                "items may now repeat".into(),
            ),
            _ => {}
        }
    }

    fn assertions(
        &mut self,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        pointer: &str,
        was_required: bool,
    ) {
        for keyword in ["pattern", "format"] {
            let at = push(pointer, keyword);
            match (o.get(keyword), n.get(keyword)) {
                (a, b) if a == b => {}
                (Some(a), None) => self.moved(
                    "pattern-removed",
                    Moved::Wider,
                    &at,
                    format!("`{keyword}` {} is gone", shown(a)),
                ),
                (None, Some(b)) => self.moved(
                    "pattern-changed",
                    Moved::Narrower,
                    &at,
                    format!("`{keyword}` {} is new", shown(b)),
                ),
                (Some(a), Some(b)) => self.moved(
                    "pattern-changed",
                    Moved::Other,
                    &at,
                    format!("`{keyword}` {} became {}", shown(a), shown(b)),
                ),
                (None, None) => {}
            }
        }
        let at = push(pointer, "default");
        match (o.get("default"), n.get("default")) {
            (a, b) if a == b => {}
            (None, Some(b)) if was_required && self.side == Side::Input => {
                self.find("default-added", Class::Additive, &at, default_added(b));
            }
            (a, b) => match self.side {
                Side::Input => {
                    let what = match (a, b) {
                        (Some(a), Some(b)) => {
                            format!("the default {} became {}", shown(a), shown(b))
                        }
                        (Some(a), None) => format!("the default {} is gone", shown(a)),
                        (None, Some(b)) => format!("a default {} is new", shown(b)),
                        (None, None) => String::new(),
                    };
                    self.find(
                        "default-changed",
                        Class::Breaking,
                        &at,
                        format!("{what}: a call that leaves the key out now means something else"),
                    );
                }
                Side::Output => self.find(
                    "annotation-changed",
                    Class::Cosmetic,
                    &at,
                    "the output's `default` changed".into(),
                ),
            },
        }
    }

    fn annotations(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, pointer: &str) {
        for keyword in ["description", "title", "examples", "deprecated", "$comment"] {
            if o.get(keyword) != n.get(keyword) {
                let at = push(pointer, keyword);
                self.find(
                    "annotation-changed",
                    Class::Cosmetic,
                    &at,
                    format!("`{keyword}` changed: what the model reads, not what it may send"),
                );
            }
        }
    }

    fn objects(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, pointer: &str) {
        let empty = Map::new();
        let op = o
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let np = n
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required = |m: &Map<String, Value>| -> BTreeSet<String> {
            neuralis_core::schema::required_names(m)
                .into_iter()
                .collect()
        };
        let (or, nr) = (required(o), required(n));
        let props = push(pointer, "properties");
        for (key, old) in op {
            let at = push(&props, key);
            match np.get(key) {
                None => self.property_removed(key, or.contains(key), &at),
                Some(new) => {
                    self.requiredness(key, or.contains(key), nr.contains(key), &at);
                    self.was_required = or.contains(key);
                    self.schema(old, new, &at);
                }
            }
        }
        for (key, _) in np.iter().filter(|(k, _)| !op.contains_key(*k)) {
            let at = push(&props, key);
            self.property_added(key, nr.contains(key), &at);
        }
        self.additional_properties(o, n, pointer);
    }

    /// A property that is gone; `required` whether the old side required it.
    fn property_removed(&mut self, key: &str, required: bool, at: &str) {
        match self.side {
            Side::Input => self.find(
                "property-removed",
                Class::Breaking,
                at,
                format!("`{key}` is gone: a call that sends it is refused"),
            ),
            Side::Output if required => self.find(
                "output-property-removed",
                Class::Breaking,
                at,
                format!("`{key}` is no longer in results: a client reading it gets nothing"),
            ),
            Side::Output => self.find(
                "output-property-removed",
                Class::Additive,
                at,
                format!("`{key}`, never guaranteed, is no longer in results"),
            ),
        }
    }

    /// A property on both sides that became required or optional.
    fn requiredness(&mut self, key: &str, was: bool, is: bool, at: &str) {
        match (was, is, self.side) {
            (false, true, Side::Input) => self.find(
                "property-required",
                Class::Breaking,
                at,
                format!("`{key}` is now required: a call without it is refused"),
            ),
            (true, false, Side::Input) => self.find(
                "property-optional",
                Class::Additive,
                at,
                format!("`{key}` is now optional"),
            ),
            (true, false, Side::Output) => self.find(
                "output-property-optional",
                Class::Breaking,
                at,
                format!("`{key}` is no longer guaranteed in results"),
            ),
            (false, true, Side::Output) => self.find(
                "output-property-required",
                Class::Additive,
                at,
                format!("`{key}` is now always in results"),
            ),
            _ => {}
        }
    }

    /// A property only the new side has; `required` whether the new side requires it.
    fn property_added(&mut self, key: &str, required: bool, at: &str) {
        match (self.side, required) {
            (Side::Input, true) => self.find(
                "property-required",
                Class::Breaking,
                at,
                format!("`{key}` is new and required: a call without it is refused"),
            ),
            (Side::Input, false) => self.find(
                "property-added",
                Class::Additive,
                at,
                format!("`{key}` is new and optional"),
            ),
            (Side::Output, _) => self.find(
                "output-property-added",
                Class::Additive,
                at,
                format!("`{key}` is new in results"),
            ),
        }
    }

    /// `additionalProperties`: two schemas are walked, otherwise the object opened or
    /// closed.
    fn additional_properties(
        &mut self,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        pointer: &str,
    ) {
        let at = push(pointer, "additionalProperties");
        match (o.get("additionalProperties"), n.get("additionalProperties")) {
            (a, b) if a == b => {}
            (Some(a @ Value::Object(_)), Some(b @ Value::Object(_))) => self.schema(a, b, &at),
            (a, b) => {
                let open = |v: Option<&Value>| !matches!(v, Some(Value::Bool(false)));
                let moved = match (open(a), open(b)) {
                    (true, false) => Moved::Narrower,
                    (false, true) => Moved::Wider,
                    _ => Moved::Other,
                };
                let rule = if moved == Moved::Narrower {
                    "object-closed"
                } else {
                    "object-opened"
                };
                self.moved(
                    rule,
                    moved,
                    &at,
                    format!(
                        "`additionalProperties` {} became {}",
                        a.map_or("absent".into(), shown),
                        b.map_or("absent".into(), shown)
                    ),
                );
            }
        }
    }

    fn arrays(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, pointer: &str) {
        let at = push(pointer, "items");
        match (o.get("items"), n.get("items")) {
            (None, None) => {}
            (Some(a), Some(b)) if a.is_array() || b.is_array() => {
                if a != b {
                    self.find(
                        "composition-changed",
                        Class::Breaking,
                        &at,
                        "a tuple `items` changed: cannot be decided, counted breaking".into(),
                    );
                }
            }
            (Some(a), Some(b)) => self.schema(a, b, &at),
            (None, Some(_)) => self.moved(
                "items-changed",
                Moved::Narrower,
                &at,
                "`items` is new".into(),
            ),
            (Some(_), None) => {
                self.moved("items-changed", Moved::Wider, &at, "`items` is gone".into())
            }
        }
    }

    fn compositions(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, pointer: &str) {
        for keyword in ["anyOf", "oneOf", "allOf"] {
            let at = push(pointer, keyword);
            match (
                o.get(keyword).and_then(Value::as_array),
                n.get(keyword).and_then(Value::as_array),
            ) {
                (None, None) => {}
                (Some(a), Some(b)) if a.len() == b.len() => {
                    for (i, (x, y)) in a.iter().zip(b).enumerate() {
                        self.schema(x, y, &push(&at, &i.to_string()));
                    }
                }
                (a, b) => {
                    let count = |v: Option<&Vec<Value>>| v.map_or(0, Vec::len);
                    self.find("composition-changed", Class::Breaking, &at, format!(
                        "`{keyword}` has {} branches, had {}: cannot be decided, counted breaking",
                        count(b),
                        count(a)
                    ));
                }
            }
        }
        for keyword in [
            "not",
            "if",
            "then",
            "else",
            "dependencies",
            "patternProperties",
            "propertyNames",
            "contains",
        ] {
            if o.get(keyword) != n.get(keyword) {
                let at = push(pointer, keyword);
                self.find(
                    "composition-changed",
                    Class::Breaking,
                    &at,
                    format!("`{keyword}` changed: cannot be decided, counted breaking"),
                );
            }
        }
    }
}
