//! The `mcp-remote` dialect: a platform that consumes MCP servers and lowers each
//! `inputSchema` itself (seed 003) to the subset the model providers agree on, `type`,
//! `properties` (the first 48), `required`, `items`, `enum` (the first 32, as strings),
//! `description` (the first 500 characters) and `["T", "null"]`, dropping everything
//! else silently and following no deeper than 8 levels.
//!
//! It is one more table of the dialect walk ([`MCP_REMOTE`],
//! [`Provider::McpRemote`](super::Provider::McpRemote)): what it writes is a fixed point of that conversion, and
//! what the subset cannot hold is said in words with the provider dialects' wording
//! ([`words`]): a `$ref` inlined (a recursive type cut at the 8th level, in words); a
//! union of object shapes (a tagged enum, internally, adjacently or externally, or an
//! untagged one) as one object holding every shape's properties, each saying which
//! shape it belongs to and whether that shape requires it, the tag a string `enum`; the
//! scalars of a union in words; `const` as a one-value `enum`; an optional property as
//! `["T", "null"]`; enum values as strings ([`enum_strings`] reads a call's string back
//! as the declared value it spells). What the conversion would cut with no way to say
//! it is `dialect-refused`: more than 48 properties in one object, nesting deeper than 8
//! levels (other than a recursive type's), an enum of more than 32 values, an open map.

use serde_json::{Map, Value, json};

use super::provider::{Fate, KeywordRule, Lowering, rule, words};
use crate::contract::push_pointer;
use crate::remote::{ENUM_CAP, PROPERTIES_CAP, SCHEMA_DESCRIPTION_CAP, sanitize_description};
use crate::utf16::{utf16_len, utf16_truncate};

/// The depth at which the platform stops following `properties` and `items`.
pub(super) const DEPTH_CAP: usize = crate::remote::DEPTH_CAP;

const SEED: &str = "seed 003 (`003_97c5bdd98fd62c9a.txt`, \"inputSchema\"): the platform keeps `type`, `properties` (first 48), `required`, `items`, `enum` (first 32, as strings), `description` (first 500 characters), `[\"T\", \"null\"]` read as `T`, and drops the rest silently";
const CONTRACT: &str =
    "the contract's own (`root-closed`, `open-object-implicit`, section 3): the server enforces it";

/// A platform that consumes MCP servers and lowers `inputSchema` itself (seed 003).
pub const MCP_REMOTE: &[KeywordRule] = &[
    rule(
        "type",
        Fate::Rewritten,
        "one type; `[\"T\", \"null\"]` for an optional or nullable property; a union's other types in words",
        SEED,
    ),
    rule(
        "properties",
        Fate::Rewritten,
        "kept; more than 48 in one object is refused",
        SEED,
    ),
    rule("required", Fate::Kept, "", SEED),
    rule(
        "additionalProperties",
        Fate::Rewritten,
        "`false` left out (the server enforces it); a map (a schema or `true`) is refused",
        SEED,
    ),
    rule("items", Fate::Kept, "", SEED),
    rule(
        "enum",
        Fate::Rewritten,
        "values as strings (the server reads a string spelling a declared value back as it); more than 32 is refused",
        SEED,
    ),
    rule("const", Fate::Rewritten, "a one-value `enum`", SEED),
    rule(
        "anyOf",
        Fate::Rewritten,
        "one object holding every shape's properties, each saying which shape it belongs to; the scalars in words",
        SEED,
    ),
    rule(
        "oneOf",
        Fate::Rewritten,
        "as `anyOf`: a tagged enum as one object, its tag a string `enum`",
        SEED,
    ),
    rule("allOf", Fate::Rewritten, "merged into one object", SEED),
    rule(
        "$ref",
        Fate::Rewritten,
        "inlined; a recursive type cut at the 8th level, in words",
        SEED,
    ),
    rule(
        "definitions",
        Fate::Rewritten,
        "inlined where referenced",
        SEED,
    ),
    rule("description", Fate::Kept, "", SEED),
    rule("title", Fate::Dropped, "", SEED),
    rule("minimum", Fate::Described, "", SEED),
    rule("maximum", Fate::Described, "", SEED),
    rule("exclusiveMinimum", Fate::Described, "", SEED),
    rule("exclusiveMaximum", Fate::Described, "", SEED),
    rule("multipleOf", Fate::Described, "", SEED),
    rule("pattern", Fate::Described, "", SEED),
    rule("format", Fate::Described, "", SEED),
    rule("minLength", Fate::Described, "", SEED),
    rule("maxLength", Fate::Described, "", SEED),
    rule("minItems", Fate::Described, "", SEED),
    rule("maxItems", Fate::Described, "", SEED),
    rule("uniqueItems", Fate::Described, "", SEED),
    rule("default", Fate::Described, "", SEED),
    rule("examples", Fate::Described, "", SEED),
    rule("minProperties", Fate::Described, "", SEED),
    rule("maxProperties", Fate::Described, "", SEED),
    rule("deprecated", Fate::Described, "", SEED),
    rule("propertyNames", Fate::Dropped, "", CONTRACT),
    rule(
        "patternProperties",
        Fate::Refused,
        "an open object: the platform drops `patternProperties`",
        SEED,
    ),
    rule("not", Fate::Described, "", SEED),
    rule("dependencies", Fate::Described, "", SEED),
    rule("if", Fate::Described, "", SEED),
    rule("contains", Fate::Described, "", SEED),
    rule("additionalItems", Fate::Described, "", SEED),
];

/// The tool definition: `{"name", "description", "inputSchema"}`, the description as
/// the platform stores it (within 400 characters, no newline, tab or backtick), the
/// root's description in `inputSchema` within 500.
pub(super) fn tool(name: &str, description: &str, mut input_schema: Value) -> Value {
    if let (Value::Object(map), false) = (&mut input_schema, description.is_empty()) {
        map.insert("description".into(), json!(capped(description)));
    }
    json!({"name": name, "description": sanitize_description(description).text,
        "inputSchema": input_schema})
}

/// A boolean schema: no type to give, said in words.
pub(super) fn any(accepts: bool) -> Value {
    if accepts {
        json!({"description": "Any JSON value."})
    } else {
        json!({"description": "No value is accepted."})
    }
}

/// Whether the node nests (its `properties`, `items` or shapes are below it).
pub(super) fn nests(map: &Map<String, Value>) -> bool {
    ["properties", "items", "anyOf", "oneOf", "allOf"]
        .iter()
        .any(|k| map.contains_key(*k))
        || map
            .get("additionalProperties")
            .is_some_and(Value::is_object)
}

/// `types` made one type (with `null` if it admits it), inferred from the literals
/// when the node states none; the other types of a union in words.
pub(super) fn one_type(
    map: &Map<String, Value>,
    types: &mut Vec<String>,
    described: &mut Vec<String>,
) {
    let literals: Vec<&Value> = match (map.get("enum"), map.get("const")) {
        (Some(Value::Array(values)), _) => values.iter().collect(),
        (_, Some(c)) => vec![c],
        _ => Vec::new(),
    };
    if types.is_empty() {
        if let Some(t) = literals.iter().find(|v| !v.is_null()).map(|v| type_of(v)) {
            types.push(t.to_owned());
        } else if !["anyOf", "oneOf", "allOf"]
            .iter()
            .any(|k| map.contains_key(*k))
            && !map.contains_key("properties")
        {
            described.push("Any JSON value.".into());
        }
    }
    if types.is_empty()
        && (map.contains_key("properties") || map.contains_key("additionalProperties"))
    {
        types.push("object".into());
    }
    let nullable = types.iter().any(|t| t == "null") || literals.iter().any(|v| v.is_null());
    let non_null: Vec<String> = types.iter().filter(|t| *t != "null").cloned().collect();
    if non_null.len() > 1 {
        let others: Vec<String> = non_null[1..].iter().map(|t| a_type(t)).collect();
        described.push(format!("Or {}.", others.join(", or ")));
    }
    types.clear();
    types.extend(non_null.into_iter().take(1));
    if nullable && !types.is_empty() {
        types.push("null".into());
    }
}

fn type_of(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "string",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
        Value::Null => "null",
    }
}

/// A type in words: "an integer", "a list".
fn a_type(t: &str) -> String {
    match t {
        "integer" | "object" => format!("an {t}"),
        "array" => "a list".into(),
        "null" => "null".into(),
        other => format!("a {other}"),
    }
}

/// An optional property as `["T", "null"]`.
pub(super) fn nullable(p: &mut Value) {
    if let Some(Value::String(t)) = p.get_mut("type") {
        let t = std::mem::take(t);
        p["type"] = json!([t, "null"]);
    }
}

/// `text` within the platform's 500 characters, cut with an ellipsis.
fn capped(text: &str) -> String {
    match utf16_truncate(text, SCHEMA_DESCRIPTION_CAP) {
        None => text.to_owned(),
        Some(_) => {
            let kept = utf16_truncate(text, SCHEMA_DESCRIPTION_CAP - 1).unwrap_or(text);
            format!("{kept}…")
        }
    }
}

/// The node's description: the author's text, then the words, within 500 characters
/// (the author's text is cut first, so the words stay whole).
pub(super) fn describe(node: &mut Map<String, Value>, author: &str, described: &[String]) {
    let words = described.join(" ");
    let text = match (author.is_empty(), words.is_empty()) {
        (true, true) => return,
        (false, true) => capped(author),
        (true, false) => capped(&words),
        (false, false) => {
            let room = SCHEMA_DESCRIPTION_CAP.saturating_sub(utf16_len(&words) + 3);
            if utf16_len(author) <= room {
                format!("{author}\n\n{words}")
            } else if room > 0 {
                let kept = utf16_truncate(author, room).unwrap_or(author);
                format!("{kept}…\n\n{words}")
            } else {
                capped(&words)
            }
        }
    };
    node.insert("description".into(), Value::String(text));
}

/// `note` before the description of the lowered property `p`, within 500 characters.
fn prefix(p: &mut Value, note: &str) {
    let Value::Object(map) = p else { return };
    let text = match map.get("description").and_then(Value::as_str) {
        Some(d) => format!("{note} {d}"),
        None => note.to_owned(),
    };
    map.insert("description".into(), Value::String(capped(&text)));
}

/// One shape of a union, lowered: its label and its members.
struct Shape {
    label: String,
    properties: Map<String, Value>,
    required: Vec<String>,
}

impl Lowering<'_> {
    /// A node at the 8th level that nests: its type and description, the rest in words.
    /// Refused unless a recursive type got it there.
    pub(super) fn cut(&mut self, map: &Map<String, Value>, pointer: &str) -> Map<String, Value> {
        let array = map.get("items").is_some() || map.get("type").is_some_and(|t| t == "array");
        let (t, what) = if array {
            ("array", "its items are")
        } else {
            ("object", "its fields are")
        };
        let mut node = Map::new();
        node.insert("type".into(), json!(t));
        let mut said = format!("Nested deeper than {DEPTH_CAP} levels: {what} not shown here.");
        if self.recursing > 0 {
            if let Some(name) = self.stack.last().and_then(|r| r.rsplit('/').next()) {
                let name = if name.is_empty() {
                    "the tool's input"
                } else {
                    name
                };
                said = format!(
                    "Nested deeper than {DEPTH_CAP} levels: {what} not shown here; the same shape as `{name}` above."
                );
            }
            self.lose(pointer, "$ref", Fate::Described, format!(
                "mcp-remote follows no deeper than {DEPTH_CAP} levels: this recursive type is cut here, and the model reads \"{said}\""
            ));
        } else {
            self.refuse(
                pointer,
                "properties",
                &format!("nesting deeper than {DEPTH_CAP} levels (after inlining) is not followed"),
            );
        }
        let author = map.get("description").and_then(Value::as_str).unwrap_or("");
        describe(&mut node, author, &[said]);
        node
    }

    /// A `$ref`, inlined: the reference's own description over the target's; a
    /// recursive one followed until the depth cuts it.
    pub(super) fn remote_reference(
        &mut self,
        map: &Map<String, Value>,
        target: &Map<String, Value>,
        r: &str,
        target_pointer: &str,
    ) -> Map<String, Value> {
        let again = self.stack.iter().any(|s| s == r);
        if again && self.stack.len() > 4 * DEPTH_CAP {
            // References with no `properties` or `items` step between them.
            self.recursing += 1;
            let node = self.cut(target, target_pointer);
            self.recursing -= 1;
            return node;
        }
        let mut target = target.clone();
        if let Some(d) = map.get("description") {
            target.insert("description".into(), d.clone());
        }
        self.stack.push(r.to_owned());
        self.recursing += usize::from(again);
        let node = self.object_node(&target, target_pointer, false);
        self.recursing -= usize::from(again);
        self.stack.pop();
        node
    }

    /// An `enum` (or a `const`) as strings; its values past 32 refused, then in words.
    pub(super) fn remote_enum(
        &mut self,
        value: &Value,
        pointer: &str,
        out: &mut Map<String, Value>,
        described: &mut Vec<String>,
    ) {
        let Some(values) = value.as_array() else {
            return;
        };
        let mut strings: Vec<Value> = Vec::new();
        for v in values {
            let s = match v {
                Value::Null => continue,
                Value::String(s) => s.clone(),
                Value::Number(_) | Value::Bool(_) => v.to_string(),
                other => {
                    described.push(words("const", other));
                    continue;
                }
            };
            if !strings.iter().any(|x| x.as_str() == Some(s.as_str())) {
                strings.push(Value::String(s));
            }
        }
        if strings.len() > ENUM_CAP {
            self.refuse(
                pointer,
                "enum",
                &format!("more than {ENUM_CAP} values: the platform keeps the first {ENUM_CAP}"),
            );
            let rest = strings.split_off(ENUM_CAP);
            described.push(words("enum", &Value::Array(rest)).replacen("One of", "Or one of", 1));
        }
        if !strings.is_empty() {
            out.insert("enum".into(), Value::Array(strings));
        }
    }

    /// An object's `additionalProperties` schema or `true`: an open map, refused, in words.
    pub(super) fn open_map(&mut self, value: &Value, pointer: &str, described: &mut Vec<String>) {
        if matches!(value, Value::Bool(false)) {
            return;
        }
        self.refuse(
            pointer,
            "additionalProperties",
            "a map (an object open to any key): the platform drops `additionalProperties`, so the model cannot be told its keys",
        );
        if value.is_object() {
            self.depth += 1;
            let each = self.schema(value, pointer);
            self.depth -= 1;
            if let Value::Object(each) = each {
                described.push(format!("Any keys, each value {}.", summary(&each)));
                return;
            }
        }
        described.push("Any keys.".into());
    }

    /// An object's lowered `properties` and its `required`, the first 48 (more refused).
    pub(super) fn remote_members(
        &mut self,
        mut lowered: Map<String, Value>,
        required: &[&str],
        props_ptr: &str,
        out: &mut Map<String, Value>,
    ) {
        if lowered.len() > PROPERTIES_CAP {
            if let Some(first_cut) = lowered.keys().nth(PROPERTIES_CAP) {
                let ptr = push_pointer(props_ptr, first_cut);
                self.refuse(
                    &ptr,
                    "properties",
                    &format!("more than {PROPERTIES_CAP} properties in one object: the platform keeps the first {PROPERTIES_CAP}"),
                );
            }
            lowered = lowered.into_iter().take(PROPERTIES_CAP).collect();
        }
        let r: Vec<Value> = required
            .iter()
            .filter(|k| lowered.contains_key(**k))
            .map(|k| json!(k))
            .collect();
        out.insert("properties".into(), Value::Object(lowered));
        if !r.is_empty() {
            out.insert("required".into(), Value::Array(r));
        }
    }

    /// The node's `allOf` and `anyOf` (lowered branches), merged into the node.
    pub(super) fn merge(&mut self, node: &mut Map<String, Value>, described: &mut Vec<String>) {
        if let Some(Value::Array(all)) = node.remove("allOf") {
            for branch in all {
                let Value::Object(b) = branch else { continue };
                merge_into(node, b);
            }
        }
        let Some(Value::Array(any)) = node.remove("anyOf") else {
            return;
        };
        let mut nullable = false;
        let (mut objects, mut scalars) = (Vec::new(), Vec::new());
        for branch in any {
            let Value::Object(b) = branch else { continue };
            let t = b.get("type").and_then(Value::as_str);
            if t == Some("null") {
                nullable = true;
            } else if t == Some("object") || b.contains_key("properties") {
                objects.push(b);
            } else {
                scalars.push(b);
            }
        }
        if objects.is_empty() {
            self.scalar_union(node, scalars, described);
        } else {
            self.object_union(node, objects, described);
            for s in &scalars {
                described.push(format!("Or, instead of an object, {}.", summary(s)));
            }
        }
        if nullable {
            match node.get("type") {
                Some(Value::String(_)) => nullable_map(node),
                None => described.push("Or null.".into()),
                _ => {}
            }
        }
    }

    /// A union of scalars (or lists): the first shape, the others in words; string enums
    /// of one type as one enum.
    fn scalar_union(
        &mut self,
        node: &mut Map<String, Value>,
        scalars: Vec<Map<String, Value>>,
        described: &mut Vec<String>,
    ) {
        let mut iter = scalars.into_iter();
        let Some(first) = iter.next() else { return };
        let t = first.get("type").cloned();
        let enum_of = |m: &Map<String, Value>| m.get("enum").and_then(Value::as_array).cloned();
        let mut rest = Vec::new();
        let mut values = enum_of(&first);
        merge_into(node, first);
        for s in iter {
            match (&mut values, enum_of(&s)) {
                (Some(v), Some(more)) if s.get("type") == t.as_ref() => v.extend(more),
                _ => rest.push(s),
            }
        }
        if let Some(v) = values {
            node.insert("enum".into(), Value::Array(v));
        }
        for s in rest {
            described.push(format!("Or {}.", summary(&s)));
        }
    }

    /// A union of object shapes as one object: every shape's properties, each saying
    /// which shape it belongs to, the tag (a property every shape states as one value) a
    /// string `enum`.
    fn object_union(
        &mut self,
        node: &mut Map<String, Value>,
        objects: Vec<Map<String, Value>>,
        described: &mut Vec<String>,
    ) {
        let tag = tag_of(&objects);
        let shapes: Vec<Shape> = objects
            .into_iter()
            .enumerate()
            .map(|(i, o)| shape(o, i, tag.as_deref()))
            .collect();
        let mut properties = node
            .remove("properties")
            .and_then(|p| match p {
                Value::Object(p) => Some(p),
                _ => None,
            })
            .unwrap_or_default();
        let mut required: Vec<Value> = match node.remove("required") {
            Some(Value::Array(r)) => r,
            _ => Vec::new(),
        };
        let mut names: Vec<String> = Vec::new();
        for s in &shapes {
            for k in s.properties.keys() {
                if !names.contains(k) {
                    names.push(k.clone());
                }
            }
        }
        for name in names {
            let holders: Vec<&Shape> = shapes
                .iter()
                .filter(|s| s.properties.contains_key(&name))
                .collect();
            let all_require =
                holders.len() == shapes.len() && holders.iter().all(|s| s.required.contains(&name));
            let mut p = if tag.as_deref() == Some(name.as_str()) {
                tag_property(&holders, &name)
            } else {
                self.shared_property(&holders, &name)
            };
            if all_require {
                required.push(json!(name));
            } else {
                nullable(&mut p);
                if holders.len() < shapes.len()
                    || holders.iter().any(|s| s.required.contains(&name))
                {
                    prefix(&mut p, &membership(&holders, &name));
                }
            }
            properties.insert(name, p);
        }
        node.insert("type".into(), json!("object"));
        node.insert("properties".into(), Value::Object(properties));
        if !required.is_empty() {
            node.insert("required".into(), Value::Array(required));
        }
        let labels: Vec<&str> = shapes.iter().map(|s| s.label.as_str()).collect();
        match &tag {
            Some(tag) => described.push(format!("Send `{tag}` and only the fields of that kind.")),
            None if shapes.len() > 1 => described.push(format!(
                "One of {} shapes ({}): send the fields of one only.",
                shapes.len(),
                labels.join(", ")
            )),
            None => {}
        }
    }

    /// A property several shapes hold: its one schema, or their union merged.
    fn shared_property(&mut self, holders: &[&Shape], name: &str) -> Value {
        let schemas: Vec<&Value> = holders
            .iter()
            .filter_map(|s| s.properties.get(name))
            .collect();
        let Some(first) = schemas.first() else {
            return json!({});
        };
        if schemas.iter().all(|s| same_shape(s, first)) {
            return (*first).clone();
        }
        let mut merged = Map::new();
        merged.insert(
            "anyOf".into(),
            Value::Array(schemas.iter().map(|s| strip_type_null(s)).collect()),
        );
        let mut words = Vec::new();
        self.merge(&mut merged, &mut words);
        describe(&mut merged, "", &words);
        Value::Object(merged)
    }
}

/// The name of a property every shape states as one string value, if there is one.
fn tag_of(objects: &[Map<String, Value>]) -> Option<String> {
    if objects.len() < 2 {
        return None;
    }
    let first = objects[0].get("properties")?.as_object()?;
    first
        .keys()
        .find(|k| {
            objects.iter().all(|o| {
                o.get("properties")
                    .and_then(|p| p.get(k.as_str()))
                    .and_then(|p| p.get("enum"))
                    .and_then(Value::as_array)
                    .is_some_and(|v| v.len() == 1)
            })
        })
        .cloned()
}

fn shape(o: Map<String, Value>, i: usize, tag: Option<&str>) -> Shape {
    let properties = match o.get("properties") {
        Some(Value::Object(p)) => p.clone(),
        _ => Map::new(),
    };
    let required: Vec<String> = o
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let tag_value = tag
        .and_then(|t| properties.get(t))
        .and_then(|p| p.get("enum"))
        .and_then(|v| v.get(0))
        .and_then(Value::as_str);
    let label = match (tag, tag_value) {
        (Some(t), Some(v)) => format!("`{t}` \"{v}\""),
        _ if properties.len() == 1 && required.len() == 1 => format!("variant `{}`", required[0]),
        _ => format!("shape {}", i + 1),
    };
    Shape {
        label,
        properties,
        required,
    }
}

/// The tag: a string `enum` of every shape's value.
fn tag_property(holders: &[&Shape], name: &str) -> Value {
    let mut values: Vec<Value> = Vec::new();
    let mut description = None;
    for s in holders {
        if let Some(p) = s.properties.get(name) {
            for v in p
                .get("enum")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if !values.contains(v) {
                    values.push(v.clone());
                }
            }
            description = description.or_else(|| p.get("description").cloned());
        }
    }
    let mut p = json!({"type": "string", "enum": values});
    if let Some(d) = description {
        p["description"] = d;
    }
    p
}

/// Which shapes hold `name` and whether each requires it.
fn membership(holders: &[&Shape], name: &str) -> String {
    let (req, opt): (Vec<&&Shape>, Vec<&&Shape>) = holders
        .iter()
        .partition(|s| s.required.iter().any(|r| r == name));
    let labels = |v: &[&&Shape]| {
        v.iter()
            .map(|s| s.label.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (req.is_empty(), opt.is_empty()) {
        (false, true) => format!("Only for {} (required there).", labels(&req)),
        (true, false) => format!("Only for {} (optional there).", labels(&opt)),
        _ => format!(
            "Only for {}: required for {}, optional for {}.",
            labels(&holders.iter().collect::<Vec<_>>()),
            labels(&req),
            labels(&opt)
        ),
    }
}

/// Whether two lowered schemas say the same but for their description.
fn same_shape(a: &Value, b: &Value) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Value::Object(m) = &mut v {
            m.remove("description");
        }
        v
    };
    strip(a) == strip(b)
}

/// A lowered schema without the `null` its optional property added.
fn strip_type_null(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(Value::Array(ts)) = v.get("type")
        && let Some(t) = ts.iter().find(|t| t.as_str() != Some("null")).cloned()
    {
        v["type"] = t;
    }
    v
}

fn nullable_map(node: &mut Map<String, Value>) {
    if let Some(Value::String(t)) = node.get_mut("type") {
        let t = std::mem::take(t);
        node.insert("type".into(), json!([t, "null"]));
    }
}

/// A lowered branch merged into `node`: its members added, its type where `node` has
/// none, its description in the node's.
fn merge_into(node: &mut Map<String, Value>, branch: Map<String, Value>) {
    for (k, v) in branch {
        match (k.as_str(), node.get_mut(&k)) {
            ("properties", Some(Value::Object(p))) => {
                if let Value::Object(more) = v {
                    for (name, s) in more {
                        p.entry(name).or_insert(s);
                    }
                }
            }
            ("required", Some(Value::Array(r))) => {
                for name in v.as_array().into_iter().flatten() {
                    if !r.contains(name) {
                        r.push(name.clone());
                    }
                }
            }
            ("description", Some(Value::String(d))) => {
                if let Value::String(more) = v {
                    d.push(' ');
                    d.push_str(&more);
                }
            }
            (_, Some(_)) => {}
            (_, None) => {
                node.insert(k, v);
            }
        }
    }
}

/// A lowered scalar shape in words: "a string, one of \"a\", \"b\"".
fn summary(s: &Map<String, Value>) -> String {
    let t = match s.get("type") {
        Some(Value::String(t)) => a_type(t),
        _ => "any value".into(),
    };
    let mut out = t;
    if let Some(values) = s.get("enum").and_then(Value::as_array) {
        let v: Vec<String> = values.iter().map(Value::to_string).collect();
        out.push_str(&format!(", one of {}", v.join(", ")));
    }
    if let Some(Value::String(d)) = s.get("description") {
        out.push_str(&format!(" ({d})"));
    }
    out
}

/// Reads back, in `args`, every string that spells a declared non-string `enum` or
/// `const` value of its schema (`"3"` for `3`, `"true"` for `true`) where the schema
/// does not take the string itself: what a model shown the `mcp-remote` dialect's
/// string enums sends. At every depth the schema describes (`properties`, `items`,
/// local `$ref`s, the shapes of `anyOf`/`oneOf`/`allOf`); and a `null` for a property
/// of a shape that does not take `null` read as the key not sent (the dialect serves a
/// property only some shapes hold as `["T", "null"]`, as
/// [`absent_nulls`](super::absent_nulls) reads the others). Returns how many it read
/// back.
///
/// ```
/// use neuralis_model::dialect::enum_strings;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {
///     "level": {"type": "integer", "enum": [1, 2, 3]}, "name": {"type": "string"}}});
/// let mut args = json!({"level": "3", "name": "3"});
/// assert_eq!(enum_strings(&schema, &mut args), 1);
/// assert_eq!(args, json!({"level": 3, "name": "3"}));
/// ```
pub fn enum_strings(schema: &Value, args: &mut Value) -> usize {
    read_back(schema, schema, args, 0)
}

fn read_back(root: &Value, schema: &Value, value: &mut Value, depth: usize) -> usize {
    if depth > 64 {
        return 0;
    }
    let shapes = alternatives(root, schema, 0);
    match value {
        Value::String(s) => {
            let values: Vec<&Value> = shapes
                .iter()
                .flat_map(|n| {
                    let e = n
                        .get("enum")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten();
                    e.chain(n.get("const"))
                })
                .collect();
            if values.iter().any(|v| v.as_str() == Some(s.as_str())) {
                return 0;
            }
            match values
                .into_iter()
                .find(|v| (v.is_number() || v.is_boolean()) && v.to_string() == *s)
            {
                Some(v) => {
                    *value = v.clone();
                    1
                }
                None => 0,
            }
        }
        Value::Object(map) => {
            // A `null` for a shape's property that does not take it: the served
            // `["T", "null"]` of a property only some shapes hold, read as not sent.
            let before = map.len();
            map.retain(|k, v| {
                let mut holders = shapes
                    .iter()
                    .filter_map(|n| n.get("properties").and_then(|p| p.get(k.as_str())))
                    .peekable();
                !(v.is_null()
                    && holders.peek().is_some()
                    && holders.all(|p| !super::nulls::admits_null(root, p, 0)))
            });
            before - map.len() + read_members(root, &shapes, map, depth)
        }
        Value::Array(items) => match shapes.iter().find_map(|n| n.get("items")) {
            Some(item) if item.is_object() => items
                .iter_mut()
                .map(|v| read_back(root, item, v, depth + 1))
                .sum(),
            _ => 0,
        },
        _ => 0,
    }
}

fn read_members(
    root: &Value,
    shapes: &[&Value],
    map: &mut Map<String, Value>,
    depth: usize,
) -> usize {
    map.iter_mut()
        .map(|(k, v)| {
            shapes
                .iter()
                .find_map(|n| n.get("properties").and_then(|p| p.get(k.as_str())))
                .map_or(0, |p| read_back(root, p, v, depth + 1))
        })
        .sum()
}

/// The first member a call sends, in a union of tagged object shapes, that belongs to
/// another kind than the one its tag names and that the named kind (a closed object)
/// does not take: a sentence naming the member and both kinds. The `mcp-remote` dialect
/// serves such a union as one object, so a model may mix two kinds' fields; the tool
/// file refuses the call all the same, and this says why in the model's terms.
///
/// ```
/// use neuralis_model::dialect::mixed_shapes;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"s": {"oneOf": [
///     {"type": "object", "additionalProperties": false, "required": ["kind", "percent"],
///      "properties": {"kind": {"enum": ["canary"]}, "percent": {"type": "integer"}}},
///     {"type": "object", "additionalProperties": false, "required": ["kind"],
///      "properties": {"kind": {"enum": ["blue_green"]}}}]}}});
/// let mixed = json!({"s": {"kind": "blue_green", "percent": 5}});
/// assert_eq!(mixed_shapes(&schema, &mixed).as_deref(), Some(
///     "`/s/percent` belongs to `kind` \"canary\", not \"blue_green\": send only the fields of `kind` \"blue_green\""));
/// assert_eq!(mixed_shapes(&schema, &json!({"s": {"kind": "canary", "percent": 5}})), None);
/// ```
#[must_use]
pub fn mixed_shapes(schema: &Value, args: &Value) -> Option<String> {
    mixed(schema, schema, args, "", 0)
}

fn mixed(root: &Value, schema: &Value, value: &Value, at: &str, depth: usize) -> Option<String> {
    if depth > 64 {
        return None;
    }
    let shapes = alternatives(root, schema, 0);
    match value {
        Value::Object(map) => {
            for node in &shapes {
                for key in ["oneOf", "anyOf"] {
                    let branches: Vec<&Value> = (node.get(key).and_then(Value::as_array))
                        .into_iter()
                        .flatten()
                        .filter_map(|b| super::nulls::resolve(root, b))
                        .collect();
                    if let Some(m) = mixed_here(&branches, map, at) {
                        return Some(m);
                    }
                }
            }
            map.iter().find_map(|(k, v)| {
                let p = shapes
                    .iter()
                    .find_map(|n| n.get("properties").and_then(|p| p.get(k.as_str())))?;
                mixed(root, p, v, &push_pointer(at, k), depth + 1)
            })
        }
        Value::Array(items) => {
            let item = shapes.iter().find_map(|n| n.get("items"))?;
            items.iter().enumerate().find_map(|(i, v)| {
                mixed(root, item, v, &push_pointer(at, &i.to_string()), depth + 1)
            })
        }
        _ => None,
    }
}

/// The one value shape `b` states for its property `key` (a one-value `enum` or a
/// `const`).
fn one_value<'a>(b: &'a Value, key: &str) -> Option<&'a Value> {
    let p = b.get("properties")?.get(key)?;
    match (p.get("enum").and_then(Value::as_array), p.get("const")) {
        (Some(values), _) if values.len() == 1 => values.first(),
        (_, Some(c)) => Some(c),
        _ => None,
    }
}

fn mixed_here(branches: &[&Value], map: &Map<String, Value>, at: &str) -> Option<String> {
    let first = branches.first()?.get("properties")?.as_object()?;
    let tag = first
        .keys()
        .find(|k| branches.len() > 1 && branches.iter().all(|b| one_value(b, k).is_some()))?;
    let sent = map.get(tag)?;
    let chosen = branches.iter().find(|b| one_value(b, tag) == Some(sent))?;
    if chosen.get("additionalProperties") != Some(&Value::Bool(false)) {
        return None;
    }
    let holds = |b: &Value, key: &str| b.get("properties").and_then(|p| p.get(key)).is_some();
    map.keys().filter(|k| !holds(chosen, k)).find_map(|key| {
        let other = branches.iter().find(|b| holds(b, key))?;
        let kind = one_value(other, tag)?;
        Some(format!(
            "`{}` belongs to `{tag}` {kind}, not {sent}: send only the fields of `{tag}` {sent}",
            push_pointer(at, key)
        ))
    })
}

/// `schema` resolved, and the shapes of its compositions, resolved.
fn alternatives<'a>(root: &'a Value, schema: &'a Value, hops: usize) -> Vec<&'a Value> {
    if hops > 16 {
        return Vec::new();
    }
    let Some(node) = super::nulls::resolve(root, schema) else {
        return Vec::new();
    };
    let mut out = vec![node];
    for key in ["anyOf", "oneOf", "allOf"] {
        for b in node
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            out.extend(alternatives(root, b, hops + 1));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::{Provider, tool_definition};

    fn served(schema: Value) -> Value {
        let mut doc = schema;
        doc["x-neuralis"] = json!({"annotations": {"category": "read"}});
        tool_definition(Provider::McpRemote, "t", &doc).tool["inputSchema"].clone()
    }

    #[test]
    fn an_internally_tagged_enum_is_one_object_with_the_kind_as_a_string_enum() {
        let s = served(json!({"type": "object", "additionalProperties": false,
            "properties": {"strategy": {"description": "How.", "oneOf": [
                {"type": "object", "additionalProperties": false,
                 "properties": {"kind": {"type": "string", "enum": ["canary"]},
                                "percent": {"type": "integer", "minimum": 1, "maximum": 50}},
                 "required": ["kind", "percent"]},
                {"type": "object", "additionalProperties": false,
                 "properties": {"kind": {"type": "string", "enum": ["blue_green"]}},
                 "required": ["kind"]}]}},
            "required": ["strategy"]}));
        let st = &s["properties"]["strategy"];
        assert_eq!(st["type"], "object");
        assert_eq!(st["required"], json!(["kind"]));
        assert_eq!(
            st["properties"]["kind"],
            json!({"type": "string", "enum": ["canary", "blue_green"]})
        );
        assert_eq!(
            st["properties"]["percent"]["type"],
            json!(["integer", "null"])
        );
        let d = st["properties"]["percent"]["description"]
            .as_str()
            .unwrap_or_default();
        assert!(
            d.starts_with("Only for `kind` \"canary\" (required there)."),
            "{d}"
        );
        assert!(
            d.contains("At least 1.") && d.contains("At most 50."),
            "{d}"
        );
    }

    #[test]
    fn enum_values_are_strings_and_read_back() {
        let s = served(json!({"type": "object", "properties": {
            "n": {"type": "integer", "enum": [1, 2]}, "c": {"const": true}}}));
        assert_eq!(
            s["properties"]["n"],
            json!({"type": ["integer", "null"], "enum": ["1", "2"]})
        );
        assert_eq!(
            s["properties"]["c"],
            json!({"type": ["boolean", "null"], "enum": ["true"]})
        );
    }

    fn refused(schema: Value) -> Vec<String> {
        let mut doc = schema;
        doc["x-neuralis"] = json!({"annotations": {"category": "read"}});
        tool_definition(Provider::McpRemote, "t", &doc)
            .losses
            .into_iter()
            .filter(|l| l.fate == Fate::Refused)
            .map(|l| l.pointer)
            .collect()
    }

    fn object(properties: Map<String, Value>) -> Value {
        json!({"type": "object", "additionalProperties": false, "properties": properties})
    }

    /// An object `levels` deep under the root, its innermost holding a string.
    fn nested(levels: usize) -> Value {
        let mut schema = json!({"type": "string"});
        for _ in 0..levels {
            let mut p = Map::new();
            p.insert("a".into(), schema);
            schema = object(p);
        }
        schema
    }

    #[test]
    fn what_the_conversion_would_cut_unsaid_is_refused_and_its_near_miss_is_not() {
        let props = |n: usize| {
            (0..n)
                .map(|i| (format!("p{i}"), json!({"type": "string"})))
                .collect()
        };
        assert_eq!(refused(object(props(49))), ["/properties/p48"]);
        assert!(refused(object(props(48))).is_empty());
        let values = |n: usize| {
            json!({"type": "object", "properties": {"e": {"type": "string",
            "enum": (0..n).map(|i| format!("v{i}")).collect::<Vec<_>>()}}})
        };
        assert_eq!(refused(values(33)), ["/properties/e/enum"]);
        assert!(refused(values(32)).is_empty());
        let map = json!({"type": "object", "properties": {"m": {"type": "object",
            "additionalProperties": {"type": "string"}}}});
        assert_eq!(refused(map), ["/properties/m/additionalProperties"]);
        // The root is level 0: a node at level 8 with properties is cut.
        assert_eq!(refused(nested(9)).len(), 1);
        assert!(refused(nested(8)).is_empty(), "{:?}", refused(nested(8)));
    }

    #[test]
    fn recursion_is_cut_at_the_eighth_level_in_words() {
        let s = served(json!({"type": "object", "additionalProperties": false,
            "properties": {"tree": {"$ref": "#/definitions/Tree"}}, "required": ["tree"],
            "definitions": {"Tree": {"type": "object", "additionalProperties": false,
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/definitions/Tree"}}},
                "required": ["kids"]}}}));
        let text = s.to_string();
        assert!(text.contains("the same shape as `Tree` above"), "{text}");
        assert!(!text.contains("$ref"));
    }
}
