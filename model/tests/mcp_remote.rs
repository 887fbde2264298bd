//! The served dialect `mcp-remote` against seed 003's conversion, written here from the
//! seed's own words (independent of `remote::lower` and of the dialect walk): every tool
//! of every example package, served `mcp-remote`, is a fixed point of it (nothing
//! dropped), and every fact of the tool file (each type, enum value, property, bound,
//! pattern, format, default) is in the served schema as structure or as words (nothing
//! the model needs lost).

use std::collections::BTreeSet;
use std::path::Path;

use neuralis_model::dialect::{Served, served_schema, words};
use seed003::seed_conversion;
use serde_json::{Map, Value, json};

mod seed003;

fn example_tools() -> Vec<(String, Value)> {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut out = Vec::new();
    for package in std::fs::read_dir(&examples).expect("examples") {
        let tools = package.expect("entry").path().join("tools");
        let Ok(files) = std::fs::read_dir(&tools) else {
            continue;
        };
        for file in files {
            let path = file.expect("entry").path();
            if path.extension().is_some_and(|e| e == "json") {
                let text = std::fs::read_to_string(&path).expect("a tool file");
                let doc: Value = serde_json::from_str(&text).expect("JSON");
                out.push((path.display().to_string(), doc));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() > 30, "the example tools: {}", out.len());
    out
}

/// The tool file as a server hands it to the served dialect: no `$schema`, no block,
/// each default on its property (`ToolEntry::input_schema`).
fn projected(doc: &Value) -> Map<String, Value> {
    let mut map = doc.as_object().cloned().unwrap_or_default();
    map.remove("$schema");
    let block = map.remove("x-neuralis");
    let defaults = block
        .as_ref()
        .and_then(|b| b.get("defaults"))
        .and_then(Value::as_object);
    if let (Some(defaults), Some(Value::Object(properties))) = (defaults, map.get_mut("properties"))
    {
        for (key, value) in defaults {
            if let Some(Value::Object(p)) = properties.get_mut(key) {
                p.insert("default".into(), value.clone());
            }
        }
    }
    map
}

/// What the served schema says: its property names, its types, its enum values and
/// every description's text.
#[derive(Default)]
struct Said {
    names: BTreeSet<String>,
    types: BTreeSet<String>,
    values: BTreeSet<String>,
    text: String,
}

fn said(schema: &Value, out: &mut Said) {
    let Value::Object(node) = schema else { return };
    match node.get("type") {
        Some(Value::String(t)) => {
            out.types.insert(t.clone());
        }
        Some(Value::Array(ts)) => out
            .types
            .extend(ts.iter().filter_map(Value::as_str).map(str::to_owned)),
        _ => {}
    }
    for v in node
        .get("enum")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.values.insert(v.as_str().unwrap_or_default().to_owned());
    }
    if let Some(Value::String(d)) = node.get("description") {
        out.text.push_str(d);
        out.text.push('\n');
    }
    for (name, p) in node
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        out.names.insert(name.clone());
        said(p, out);
    }
    if let Some(items) = node.get("items") {
        said(items, out);
    }
}

/// One fact of the tool file the model needs.
#[derive(Debug)]
enum Fact {
    Name(String),
    Type(String),
    Value(Value),
    Words(String, Value),
}

const WORDED: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "default",
];

/// Every fact of the file's schema `schema`, following `$ref`s once each.
fn facts(root: &Value, schema: &Value, stack: &mut Vec<String>, out: &mut Vec<Fact>) {
    let Value::Object(node) = schema else { return };
    if let Some(r) = node.get("$ref").and_then(Value::as_str) {
        if stack.iter().any(|s| s == r) {
            return;
        }
        let target = match r {
            "#" => Some(root),
            r => r.strip_prefix('#').and_then(|p| root.pointer(p)),
        };
        if let Some(target) = target {
            stack.push(r.to_owned());
            facts(root, target, stack, out);
            stack.pop();
        }
        return;
    }
    match node.get("type") {
        Some(Value::String(t)) if t != "null" => out.push(Fact::Type(t.clone())),
        Some(Value::Array(ts)) => out.extend(
            ts.iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .map(|t| Fact::Type(t.to_owned())),
        ),
        _ => {}
    }
    for v in node
        .get("enum")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if !v.is_null() {
            out.push(Fact::Value(v.clone()));
        }
    }
    if let Some(c) = node.get("const") {
        out.push(Fact::Value(c.clone()));
    }
    for k in WORDED {
        if let Some(v) = node.get(*k) {
            if *k == "uniqueItems" && v != &json!(true) {
                continue;
            }
            out.push(Fact::Words((*k).to_owned(), v.clone()));
        }
    }
    for (name, p) in node
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        out.push(Fact::Name(name.clone()));
        facts(root, p, stack, out);
    }
    for key in ["items", "additionalProperties"] {
        if let Some(s) = node.get(key) {
            facts(root, s, stack, out);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for b in node
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            facts(root, b, stack, out);
        }
    }
}

/// Whether the served schema says `fact`, as structure or as words.
fn says(s: &Said, fact: &Fact) -> bool {
    let a_type = |t: &str| match t {
        "integer" | "object" => format!("an {t}"),
        "array" => "a list".to_owned(),
        other => format!("a {other}"),
    };
    match fact {
        Fact::Name(n) => s.names.contains(n) || s.text.contains(&format!("`{n}`")),
        Fact::Type(t) => s.types.contains(t) || s.text.contains(&a_type(t)),
        Fact::Value(v) => {
            let text = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
            s.values.contains(&text) || s.text.contains(&v.to_string())
        }
        Fact::Words(k, v) => s.text.contains(&words(k, v)),
    }
}

#[test]
fn every_example_tool_served_mcp_remote_is_a_fixed_point_of_the_seed_s_conversion() {
    let (mut tools, mut counted) = (0, 0);
    for (path, doc) in example_tools() {
        let file = projected(&doc);
        let served = Value::Object(served_schema(&file, Served::McpRemote));
        assert_eq!(
            seed_conversion(&served, 0),
            served,
            "{path}: something is dropped"
        );
        let mut s = Said::default();
        said(&served, &mut s);
        let root = Value::Object(file);
        let mut all = Vec::new();
        facts(&root, &root, &mut Vec::new(), &mut all);
        let lost: Vec<&Fact> = all.iter().filter(|f| !says(&s, f)).collect();
        assert!(lost.is_empty(), "{path}: lost {lost:?}\nserved: {served:#}");
        tools += 1;
        counted += all.len();
    }
    println!("mcp-remote: {tools} example tools, {counted} facts, none dropped or lost");
}

/// A package written from `docs/` alone: tagged (internally, adjacently, externally) and
/// untagged enums, a list of structs, formats, patterns, a recursive type (the golden
/// schemas of `tests/snapshots/`, each type family and serde attribute).
#[test]
fn every_golden_schema_served_mcp_remote_is_a_fixed_point_and_says_every_fact() {
    let snapshots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/snapshots");
    let mut n = 0;
    for entry in std::fs::read_dir(&snapshots).expect("snapshots") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let doc: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("a file")).expect("JSON");
        let file = projected(&doc);
        let served = Value::Object(served_schema(&file, Served::McpRemote));
        assert_eq!(seed_conversion(&served, 0), served, "{}", path.display());
        let mut s = Said::default();
        said(&served, &mut s);
        let root = Value::Object(file);
        let mut all = Vec::new();
        facts(&root, &root, &mut Vec::new(), &mut all);
        let lost: Vec<&Fact> = all.iter().filter(|f| !says(&s, f)).collect();
        assert!(
            lost.is_empty(),
            "{}: lost {lost:?}\nserved: {served:#}",
            path.display()
        );
        n += 1;
    }
    assert!(n > 10, "{n} golden schemas");
}

/// `schema` without the contract's closure and key guards (`additionalProperties:
/// false`, `propertyNames`), which the server enforces and the platform may drop.
fn without_closure(schema: &Value) -> Value {
    match schema {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, v)| {
                    !(*k == "propertyNames"
                        || (*k == "additionalProperties" && **v == json!(false)))
                })
                .map(|(k, v)| {
                    let v = if matches!(k.as_str(), "enum" | "const" | "default" | "examples") {
                        v.clone()
                    } else {
                        without_closure(v)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_closure).collect()),
        other => other.clone(),
    }
}

/// The platform's column of docs/dialects.md: per served dialect, the example tools
/// seed 003's conversion leaves intact (nothing dropped but the contract's closure,
/// which the server enforces), and the served bytes.
#[test]
fn the_platform_s_reading_of_each_served_dialect() {
    let tools = example_tools();
    for served in Served::ALL {
        let (mut intact, mut bytes) = (0, 0);
        for (_, doc) in &tools {
            let schema = Value::Object(served_schema(&projected(doc), served));
            let schema_ = without_closure(&schema);
            intact += usize::from(seed_conversion(&schema_, 0) == schema_);
            bytes += schema.to_string().len();
        }
        println!(
            "{served}: {intact} / {} example tools intact under seed 003's conversion; {bytes} bytes of inputSchema",
            tools.len()
        );
        if served == Served::McpRemote {
            assert_eq!(intact, tools.len());
        }
    }
}
