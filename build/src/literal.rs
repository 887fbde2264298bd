//! The build script's draft-07 subset: enough of a validator to check the literals an
//! author wrote (`#[tool(defaults(...))]`, `#[schema(default = ...)]`, `examples`) against
//! the schemas the toolkit composed, without compiling `jsonschema` into every package's
//! build (host units never share artifacts with target units, so it would be built twice).
//!
//! It is lenient by design: a keyword it does not read (`format`, `dependencies`, a
//! `$ref` it cannot resolve) passes, so it may miss a mistake but never invents one; the
//! full check (the meta-schema too) runs when the package is built at run time, in the
//! drift tests and in `neuralis check`.

use neuralis_model::contract::{Compiled, Draft07, Violation};
use serde_json::{Map, Value};

/// How deep `$ref`s and subschemas are followed before the subset gives up (passes).
const MAX_DEPTH: usize = 64;

/// The subset validator (see the module docs). It has no meta-schema check.
pub(crate) struct Subset;

impl Draft07 for Subset {
    fn meta_violations(&self, _: &Value) -> Vec<Violation> {
        Vec::new()
    }

    fn compile<'a>(&'a self, schema: &Value) -> Option<Box<dyn Compiled + 'a>> {
        Some(Box::new(Document(schema.clone())))
    }
}

struct Document(Value);

impl Compiled for Document {
    fn violations(&self, instance: &Value) -> Vec<Violation> {
        let mut out = Vec::new();
        validate(&self.0, &self.0, instance, "", 0, &mut out);
        out
    }
}

fn violation(out: &mut Vec<Violation>, pointer: &str, instance: &Value, message: String) {
    out.push(Violation {
        pointer: pointer.to_owned(),
        message,
        found: (!matches!(instance, Value::Object(_) | Value::Array(_))).then(|| instance.clone()),
    });
}

fn is_valid(root: &Value, schema: &Value, instance: &Value, depth: usize) -> bool {
    let mut out = Vec::new();
    validate(root, schema, instance, "", depth, &mut out);
    out.is_empty()
}

/// The subschema a same-document `$ref` (`#`, `#/definitions/...`, any JSON pointer
/// fragment, percent-encoded) points at.
fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
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
    root.pointer(&pointer)
}

fn type_matches(name: &str, instance: &Value) -> bool {
    match name {
        "null" => instance.is_null(),
        "boolean" => instance.is_boolean(),
        "string" => instance.is_string(),
        "array" => instance.is_array(),
        "object" => instance.is_object(),
        "number" => instance.is_number(),
        "integer" => {
            instance.is_i64()
                || instance.is_u64()
                || instance
                    .as_f64()
                    .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
        }
        // An unknown type name is the meta-schema's to report.
        _ => true,
    }
}

/// JSON equality, numbers compared by value (`1` equals `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn shown(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}

fn validate(
    root: &Value,
    schema: &Value,
    instance: &Value,
    at: &str,
    depth: usize,
    out: &mut Vec<Violation>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let s = match schema {
        Value::Bool(false) => {
            violation(out, at, instance, "value is not allowed here".into());
            return;
        }
        Value::Object(s) => s,
        _ => return,
    };
    if let Some(Value::String(reference)) = s.get("$ref") {
        // Draft-07 ignores every sibling of `$ref`.
        if let Some(target) = resolve(root, reference) {
            validate(root, target, instance, at, depth + 1, out);
        }
        return;
    }
    keywords_any(root, s, instance, at, depth, out);
    match instance {
        Value::Number(_) => keywords_number(s, instance, at, out),
        Value::String(text) => keywords_string(s, instance, text, at, out),
        Value::Array(items) => keywords_array(root, s, instance, items, at, depth, out),
        Value::Object(map) => keywords_object(root, s, instance, map, at, depth, out),
        _ => {}
    }
}

fn keywords_any(
    root: &Value,
    s: &Map<String, Value>,
    instance: &Value,
    at: &str,
    depth: usize,
    out: &mut Vec<Violation>,
) {
    match s.get("type") {
        Some(Value::String(t)) if !type_matches(t, instance) => {
            violation(out, at, instance, format!("value is not of type \"{t}\""));
        }
        Some(Value::Array(ts))
            if !ts
                .iter()
                .any(|t| t.as_str().is_none_or(|t| type_matches(t, instance))) =>
        {
            violation(
                out,
                at,
                instance,
                format!("value is not of types {}", shown(&Value::Array(ts.clone()))),
            );
        }
        _ => {}
    }
    if let Some(Value::Array(members)) = s.get("enum")
        && !members.iter().any(|m| same(m, instance))
    {
        violation(
            out,
            at,
            instance,
            format!(
                "value is not one of {}",
                shown(&Value::Array(members.clone()))
            ),
        );
    }
    if let Some(c) = s.get("const")
        && !same(c, instance)
    {
        violation(out, at, instance, format!("{} was expected", shown(c)));
    }
    if let Some(Value::Array(all)) = s.get("allOf") {
        for sub in all {
            validate(root, sub, instance, at, depth + 1, out);
        }
    }
    if let Some(Value::Array(any)) = s.get("anyOf")
        && !any
            .iter()
            .any(|sub| is_valid(root, sub, instance, depth + 1))
    {
        violation(
            out,
            at,
            instance,
            "value is not valid under any of the schemas listed in the 'anyOf' keyword".into(),
        );
    }
    if let Some(Value::Array(one)) = s.get("oneOf") {
        let valid = one
            .iter()
            .filter(|sub| is_valid(root, sub, instance, depth + 1))
            .count();
        if valid == 0 {
            violation(
                out,
                at,
                instance,
                "value is not valid under any of the schemas listed in the 'oneOf' keyword".into(),
            );
        } else if valid > 1 {
            violation(
                out,
                at,
                instance,
                "value is valid under more than one of the schemas listed in the 'oneOf' keyword"
                    .into(),
            );
        }
    }
    if let Some(not) = s.get("not")
        && is_valid(root, not, instance, depth + 1)
    {
        violation(
            out,
            at,
            instance,
            format!("value should not be valid under {}", shown(not)),
        );
    }
    if let Some(cond) = s.get("if") {
        let branch = if is_valid(root, cond, instance, depth + 1) {
            s.get("then")
        } else {
            s.get("else")
        };
        if let Some(branch) = branch {
            validate(root, branch, instance, at, depth + 1, out);
        }
    }
}

fn keywords_number(s: &Map<String, Value>, instance: &Value, at: &str, out: &mut Vec<Violation>) {
    let Some(x) = instance.as_f64() else { return };
    let bound = |key: &str| s.get(key).and_then(Value::as_f64);
    if let Some(m) = bound("minimum")
        && x < m
    {
        violation(
            out,
            at,
            instance,
            format!("value is less than the minimum of {m}"),
        );
    }
    if let Some(m) = bound("maximum")
        && x > m
    {
        violation(
            out,
            at,
            instance,
            format!("value is greater than the maximum of {m}"),
        );
    }
    if let Some(m) = bound("exclusiveMinimum")
        && x <= m
    {
        violation(
            out,
            at,
            instance,
            format!("value is less than or equal to the minimum of {m}"),
        );
    }
    if let Some(m) = bound("exclusiveMaximum")
        && x >= m
    {
        violation(
            out,
            at,
            instance,
            format!("value is greater than or equal to the maximum of {m}"),
        );
    }
    if let Some(m) = bound("multipleOf")
        && m > 0.0
    {
        let q = x / m;
        // Only a clear miss: float division must not invent a violation.
        if q.is_finite() && (q - q.round()).abs() > 1e-9 {
            violation(out, at, instance, format!("value is not a multiple of {m}"));
        }
    }
}

fn keywords_string(
    s: &Map<String, Value>,
    instance: &Value,
    text: &str,
    at: &str,
    out: &mut Vec<Violation>,
) {
    let chars = text.chars().count() as u64;
    if let Some(m) = s.get("minLength").and_then(Value::as_u64)
        && chars < m
    {
        violation(
            out,
            at,
            instance,
            format!("value is shorter than {m} characters"),
        );
    }
    if let Some(m) = s.get("maxLength").and_then(Value::as_u64)
        && chars > m
    {
        violation(
            out,
            at,
            instance,
            format!("value is longer than {m} characters"),
        );
    }
    if let Some(Value::String(pattern)) = s.get("pattern")
        && let Ok(re) = regex::Regex::new(pattern)
        && !re.is_match(text)
    {
        violation(
            out,
            at,
            instance,
            format!("value does not match \"{pattern}\""),
        );
    }
}

fn keywords_array(
    root: &Value,
    s: &Map<String, Value>,
    instance: &Value,
    items: &[Value],
    at: &str,
    depth: usize,
    out: &mut Vec<Violation>,
) {
    let len = items.len() as u64;
    if let Some(m) = s.get("minItems").and_then(Value::as_u64)
        && len < m
    {
        violation(out, at, instance, format!("value has fewer than {m} items"));
    }
    if let Some(m) = s.get("maxItems").and_then(Value::as_u64)
        && len > m
    {
        violation(out, at, instance, format!("value has more than {m} items"));
    }
    if s.get("uniqueItems") == Some(&Value::Bool(true))
        && items
            .iter()
            .enumerate()
            .any(|(i, a)| items[i + 1..].iter().any(|b| same(a, b)))
    {
        violation(out, at, instance, "value has non-unique elements".into());
    }
    match s.get("items") {
        Some(Value::Array(positional)) => {
            for (i, (sub, item)) in positional.iter().zip(items).enumerate() {
                validate(root, sub, item, &format!("{at}/{i}"), depth + 1, out);
            }
        }
        Some(sub) => {
            for (i, item) in items.iter().enumerate() {
                validate(root, sub, item, &format!("{at}/{i}"), depth + 1, out);
            }
        }
        None => {}
    }
}

fn keywords_object(
    root: &Value,
    s: &Map<String, Value>,
    instance: &Value,
    map: &Map<String, Value>,
    at: &str,
    depth: usize,
    out: &mut Vec<Violation>,
) {
    let properties = s.get("properties").and_then(Value::as_object);
    for name in s
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if !map.contains_key(name) {
            violation(
                out,
                at,
                instance,
                format!("\"{name}\" is a required property"),
            );
        }
    }
    for (key, value) in map {
        let here = neuralis_model::contract::push_pointer(at, key);
        match properties.and_then(|p| p.get(key)) {
            Some(sub) => validate(root, sub, value, &here, depth + 1, out),
            // With `patternProperties` the subset cannot tell which keys are extra.
            None if !s.contains_key("patternProperties") => {
                if let Some(extra) = s.get("additionalProperties") {
                    if extra == &Value::Bool(false) {
                        violation(
                            out,
                            at,
                            instance,
                            format!("additional property \"{key}\" is not allowed"),
                        );
                    } else {
                        validate(root, extra, value, &here, depth + 1, out);
                    }
                }
            }
            None => {}
        }
        if let Some(names) = s.get("propertyNames") {
            validate(root, names, &Value::String(key.clone()), at, depth + 1, out);
        }
    }
    let count = map.len() as u64;
    if let Some(m) = s.get("minProperties").and_then(Value::as_u64)
        && count < m
    {
        violation(
            out,
            at,
            instance,
            format!("value has fewer than {m} properties"),
        );
    }
    if let Some(m) = s.get("maxProperties").and_then(Value::as_u64)
        && count > m
    {
        violation(
            out,
            at,
            instance,
            format!("value has more than {m} properties"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errors(schema: Value, instance: Value) -> Vec<String> {
        Subset
            .compile(&schema)
            .map(|c| c.violations(&instance))
            .unwrap_or_default()
            .into_iter()
            .map(|v| format!("{}: {}", v.pointer, v.message))
            .collect()
    }

    #[test]
    fn the_keywords_the_toolkit_writes() {
        let schema = json!({
            "definitions": { "Urgency": { "type": "string", "enum": ["low", "high"] } },
            "properties": {
                "days": { "type": "integer", "minimum": 1, "maximum": 14 },
                "code": { "type": "string", "pattern": "^[0-9]+$", "maxLength": 4 },
                "urgency": { "$ref": "#/definitions/Urgency" },
                "tags": { "type": "array", "items": { "type": "string" }, "uniqueItems": true },
                "place": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": { "city": { "type": "string" } },
                    "required": ["city"]
                }
            }
        });
        let good = json!({
            "days": 3, "code": "12", "urgency": "low", "tags": ["a", "b"],
            "place": { "city": "Lisbon" }
        });
        assert_eq!(errors(schema.clone(), good), Vec::<String>::new());
        let bad = json!({
            "days": 30, "code": "12a45", "urgency": "medium", "tags": ["a", "a"],
            "place": { "town": "Lisbon" }
        });
        let found = errors(schema, bad);
        for pointer in ["/days", "/code", "/urgency", "/tags", "/place"] {
            assert!(
                found.iter().any(|e| e.starts_with(&format!("{pointer}: "))),
                "{pointer} in {found:?}"
            );
        }
        assert_eq!(found.len(), 7, "{found:?}");
    }

    #[test]
    fn what_it_does_not_read_passes() {
        assert!(errors(json!({ "format": "date-time" }), json!("yesterday")).is_empty());
        assert!(errors(json!({ "$ref": "#/nowhere" }), json!(1)).is_empty());
        assert!(errors(json!({ "pattern": "(?<=a)b" }), json!("b")).is_empty());
        assert!(errors(json!({ "type": "integer" }), json!(2.0)).is_empty());
        assert!(errors(json!({ "multipleOf": 0.1 }), json!(0.3)).is_empty());
    }

    #[test]
    fn a_reference_into_the_root_resolves_percent_encoded() {
        let schema = json!({
            "definitions": { "Page<Item>": { "type": "integer" } },
            "$ref": "#/definitions/Page%3CItem%3E"
        });
        assert_eq!(errors(schema, json!("x")).len(), 1);
    }

    #[test]
    fn a_recursive_reference_stops() {
        let schema = json!({ "definitions": { "A": { "$ref": "#/definitions/A" } }, "$ref": "#/definitions/A" });
        assert!(errors(schema, json!(1)).is_empty());
    }
}
