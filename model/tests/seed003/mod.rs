//! Seed 003's conversion of an `inputSchema`, written from the seed's own words, for the
//! tests that hold the `mcp-remote` dialect to it (`model/tests/mcp_remote.rs`, and
//! `cli/tests/lower_cli.rs` by path).

use serde_json::{Map, Value, json};

/// The seed's `type` values.
const TYPES: &[&str] = &["object", "string", "integer", "number", "boolean", "array"];

/// Seed 003, "inputSchema": the platform "converts it to the shape the model providers
/// agree on. Supported: `type` (`object`, `string`, `integer`, `number`, `boolean`,
/// `array`); `properties`, first 48; `required`, passed through; `items`, for arrays;
/// `enum`, first 32 values, coerced to strings; `description`, first 500 characters;
/// `["string", "null"]`, union with null reads as the non-null type. Dropped: `oneOf`,
/// `anyOf`, `allOf`, `$ref`, `patternProperties`, `additionalProperties`, `format`,
/// `minimum`/`maximum`. Nesting deeper than 8 levels stops being followed." Anything not
/// supported is dropped. Depth as the contract reads it (section 6): the root is level 0,
/// and a node at level 8 keeps no `properties` or `items`.
pub fn seed_conversion(schema: &Value, level: usize) -> Value {
    let Value::Object(node) = schema else {
        return json!({});
    };
    let mut out = Map::new();
    for (key, value) in node {
        let kept = match key.as_str() {
            "type" => match value {
                Value::String(t) if TYPES.contains(&t.as_str()) => Some(value.clone()),
                Value::Array(ts)
                    if ts.len() == 2
                        && ts.contains(&json!("null"))
                        && ts
                            .iter()
                            .any(|t| t.as_str().is_some_and(|t| TYPES.contains(&t))) =>
                {
                    Some(value.clone())
                }
                _ => None,
            },
            "properties" if level < 8 => value.as_object().map(|p| {
                let first: Map<String, Value> = p
                    .iter()
                    .take(48)
                    .map(|(k, v)| (k.clone(), seed_conversion(v, level + 1)))
                    .collect();
                Value::Object(first)
            }),
            "required" => Some(value.clone()),
            "items" if level < 8 && value.is_object() => Some(seed_conversion(value, level + 1)),
            "enum" => value.as_array().map(|values| {
                Value::Array(
                    values
                        .iter()
                        .take(32)
                        .map(|v| match v {
                            Value::String(s) => json!(s),
                            other => json!(other.to_string()),
                        })
                        .collect(),
                )
            }),
            "description" => value
                .as_str()
                .map(|d| json!(d.chars().take(500).collect::<String>())),
            _ => None,
        };
        if let Some(kept) = kept {
            out.insert(key.clone(), kept);
        }
    }
    Value::Object(out)
}
