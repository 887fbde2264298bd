//! The `inputSchema` an MCP server serves: what every provider SDK's MCP path reads as
//! the tool means it.
//!
//! The tool file is draft-07 exactly as the contract writes it, and the providers' own
//! client code reads it differently (measured, `docs/dialects.md`):
//!
//! - google-genai's MCP support (`_mcp_utils.mcp_to_gemini_tool`) treats every
//!   `additionalProperties` as a schema and fails on `false`, which closes every object
//!   the contract writes; it drops `definitions` (so a `$ref` into it fails) and cannot
//!   follow `$ref: "#"`;
//! - OpenAI's strict mode (`ensure_strict_json_schema`, the Agents SDK's MCP tools with
//!   `convert_schemas_to_strict`) makes every property required and admits no `null`,
//!   so the model must invent a value for each optional one;
//! - `types.Schema` holds `minimum`/`maximum` as floats, so an integer bound past 2^53
//!   is written as a float past the type's range.
//!
//! [`Served::Portable`] (the default) serves the same arguments in a shape all of them
//! read: every property its object does not require also admits `null`, as `{"anyOf":
//! [<schema>, {"type": "null"}]}` (read back as the key not sent:
//! [`absent_nulls`](super::absent_nulls)), boolean `additionalProperties` left out (the
//! server still refuses an undeclared key: it validates against the tool file),
//! `definitions` as `$defs` with `$ref: "#"` pointing at a copy of the root there, and
//! integer bounds within ±(2^53 − 1). [`Served::Contract`] serves the tool file's schema
//! as checked: what a platform that consumes MCP servers (`mcp-remote`) should be given,
//! since it lowers the file form itself and drops an `anyOf` whole.
//!
//! ```
//! use neuralis_model::dialect::{Served, served_schema};
//! use serde_json::json;
//!
//! let file = json!({"type": "object", "additionalProperties": false,
//!     "properties": {"city": {"type": "string"}, "days": {"type": "integer", "maximum": 14}},
//!     "required": ["city"]});
//! let Some(file) = file.as_object() else { unreachable!() };
//! assert_eq!(serde_json::Value::Object(served_schema(file, Served::Portable)), json!({
//!     "type": "object",
//!     "properties": {"city": {"type": "string"},
//!                    "days": {"anyOf": [{"type": "integer", "maximum": 14}, {"type": "null"}]}},
//!     "required": ["city"]}));
//! assert_eq!(&served_schema(file, Served::Contract), file);
//! ```

use serde_json::{Map, Value, json};

use super::nulls::admits_null;

/// The largest integer every dialect holds exactly (2^53 − 1, JavaScript's
/// `Number.MAX_SAFE_INTEGER`, a float's last exact integer).
pub const SAFE_INTEGER: u64 = (1 << 53) - 1;

/// How an MCP server writes each tool's `inputSchema`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Served {
    /// Read as meant by every provider SDK (the [module docs](crate::dialect)): an optional
    /// property admits `null` as `{"anyOf": [<schema>, {"type": "null"}]}`.
    #[default]
    Portable,
    /// The tool file's schema as the contract checks it (without `$schema` and
    /// `x-neuralis`, which the server never serves): for a platform that consumes MCP
    /// servers, which lowers the file form itself and drops an `anyOf` whole (served
    /// [`Served::McpRemote`] such a platform's model reads more).
    Contract,
    /// For a platform that consumes MCP servers and lowers each schema itself (seed
    /// 003): a fixed point of its conversion (`type`, `properties`, `required`, `items`,
    /// string `enum`s, `description`, `["T", "null"]`), everything else said in words
    /// (the dialect walk's `mcp-remote` table, [`MCP_REMOTE`](super::MCP_REMOTE)); a
    /// call's string that spells a declared non-string enum value is read back as it
    /// ([`enum_strings`](super::enum_strings)).
    McpRemote,
}

impl Served {
    /// Every dialect, in the order `--help` lists them.
    pub const ALL: [Self; 3] = [Self::Portable, Self::Contract, Self::McpRemote];

    /// The dialect's name in flags and settings.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Portable => "portable",
            Self::Contract => "contract",
            Self::McpRemote => "mcp-remote",
        }
    }

    /// The dialect named `name`, if there is one.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.as_str() == name)
    }
}

impl std::fmt::Display for Served {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The `inputSchema` served for a tool whose checked input schema (the tool file
/// without `$schema` and `x-neuralis`) is `schema`.
#[must_use]
pub fn served_schema(schema: &Map<String, Value>, served: Served) -> Map<String, Value> {
    match served {
        Served::Contract => schema.clone(),
        Served::Portable => portable(schema),
        Served::McpRemote => {
            let file = Value::Object(schema.clone());
            let mut tool = super::tool_definition(super::Provider::McpRemote, "", &file).tool;
            match tool.get_mut("inputSchema").map(Value::take) {
                Some(Value::Object(map)) => map,
                _ => Map::new(),
            }
        }
    }
}

fn portable(schema: &Map<String, Value>) -> Map<String, Value> {
    let original = Value::Object(schema.clone());
    let mut root = schema.clone();
    let mut defs = match root.remove("$defs") {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    if let Some(Value::Object(definitions)) = root.remove("definitions") {
        defs.extend(definitions);
    }
    // `$ref: "#"` becomes a reference to a copy of the root among the definitions.
    let root_name = refers_to_root(&original).then(|| {
        let mut name = String::from("Root");
        while defs.contains_key(&name) {
            name.push('_');
        }
        let mut copy = root.clone();
        copy.remove("title");
        defs.insert(name.clone(), Value::Object(copy));
        name
    });
    let cx = Cx {
        original: &original,
        root_name: root_name.as_deref(),
    };
    cx.node(&mut root);
    for def in defs.values_mut() {
        cx.schema(def);
    }
    if !defs.is_empty() {
        root.insert("$defs".into(), Value::Object(defs));
    }
    root
}

/// Whether some `$ref` of `schema` is `#`.
fn refers_to_root(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(k, v)| match k.as_str() {
            "$ref" => v.as_str() == Some("#"),
            "default" | "const" | "enum" | "examples" => false,
            _ => refers_to_root(v),
        }),
        Value::Array(items) => items.iter().any(refers_to_root),
        _ => false,
    }
}

struct Cx<'a> {
    original: &'a Value,
    root_name: Option<&'a str>,
}

impl Cx<'_> {
    fn schema(&self, schema: &mut Value) {
        if let Value::Object(map) = schema {
            self.node(map);
        }
    }

    /// One schema object, then every schema position below it.
    fn node(&self, map: &mut Map<String, Value>) {
        if matches!(map.get("additionalProperties"), Some(Value::Bool(_))) {
            map.remove("additionalProperties");
        }
        if let Some(Value::String(r)) = map.get_mut("$ref") {
            if r == "#" {
                if let Some(name) = self.root_name {
                    *r = format!("#/$defs/{name}");
                }
            } else if let Some(rest) = r.strip_prefix("#/definitions/") {
                *r = format!("#/$defs/{rest}");
            }
        }
        clamp_integer_bounds(map);
        let required = crate::schema::required_names(map);
        if let Some(Value::Object(properties)) = map.get_mut("properties") {
            for (key, property) in properties.iter_mut() {
                // Decided on the property as the tool file has it (its `$ref`s resolve
                // there), before its own children change.
                let optional =
                    !required.iter().any(|r| r == key) && !admits_null(self.original, property, 0);
                self.schema(property);
                if optional {
                    nullable(property);
                }
            }
        }
        crate::schema::for_each_subschema_mut(map, |keyword, child| {
            // `properties` above; `$defs` and `definitions` are the root's, walked there.
            if !matches!(keyword, "properties" | "definitions" | "$defs") {
                self.schema(child);
            }
        });
    }
}

/// `schema` admitting `null` as well: `{"anyOf": [<schema>, {"type": "null"}]}`, its
/// `default` outside, where google-genai reads it (a `type` array would be shorter, and
/// Anthropic's strict-grammar transform and google-genai's `types.Schema` refuse it).
fn nullable(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    let mut wrapper = Map::new();
    if let Some(default) = map.remove("default") {
        wrapper.insert("default".into(), default);
    }
    let inner = std::mem::take(map);
    wrapper.insert(
        "anyOf".into(),
        json!([Value::Object(inner), {"type": "null"}]),
    );
    *map = wrapper;
}

/// Integer bounds past ±(2^53 − 1) become that: a float holds it exactly.
fn clamp_integer_bounds(map: &mut Map<String, Value>) {
    let integer = match map.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(ts)) => ts.iter().any(|t| t.as_str() == Some("integer")),
        _ => false,
    };
    if !integer {
        return;
    }
    for key in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
        if let Some(Value::Number(n)) = map.get_mut(key) {
            if n.as_u64().is_some_and(|v| v > SAFE_INTEGER) {
                *n = SAFE_INTEGER.into();
            } else if n.as_i64().is_some_and(|v| v < -(SAFE_INTEGER as i64)) {
                *n = (-(SAFE_INTEGER as i64)).into();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn served_as(v: Value, served: Served) -> Value {
        let Value::Object(map) = v else {
            panic!("an object")
        };
        Value::Object(served_schema(&map, served))
    }

    fn portable_of(v: Value) -> Value {
        served_as(v, Served::Portable)
    }

    #[test]
    fn recursion_moves_to_defs_and_the_root_is_copied_there() {
        let served = portable_of(json!({"type": "object", "additionalProperties": false,
            "properties": {"tree": {"$ref": "#/definitions/Tree"},
                           "children": {"type": "array", "items": {"$ref": "#"}}},
            "required": ["tree", "children"],
            "definitions": {"Tree": {"type": "object", "additionalProperties": false,
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/definitions/Tree"}}},
                "required": ["kids"]}}}));
        assert_eq!(
            served["properties"]["tree"],
            json!({"$ref": "#/$defs/Tree"})
        );
        assert_eq!(
            served["properties"]["children"]["items"],
            json!({"$ref": "#/$defs/Root"})
        );
        assert_eq!(
            served["$defs"]["Tree"]["properties"]["kids"]["items"],
            json!({"$ref": "#/$defs/Tree"})
        );
        assert_eq!(served["$defs"]["Root"]["properties"], served["properties"]);
        assert!(served.get("definitions").is_none());
        assert!(!served.to_string().contains("additionalProperties"));
    }

    #[test]
    fn optional_properties_admit_null_in_every_form() {
        let file = json!({"type": "object", "properties": {
            "s": {"type": "string", "enum": ["a", "b"]},
            "c": {"type": "string", "const": "x"},
            "r": {"$ref": "#/definitions/T", "description": "A thing."},
            "n": {"type": ["integer", "null"]},
            "v": {},
            "big": {"type": "integer", "minimum": 0, "maximum": 18_446_744_073_709_551_615_u64},
            "neg": {"type": "integer", "minimum": -9_223_372_036_854_775_808_i64}},
            "definitions": {"T": {"type": "integer"}}});
        let portable = portable_of(file.clone());
        let p = &portable["properties"];
        assert_eq!(
            p["s"],
            json!({"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}]})
        );
        assert_eq!(
            p["r"],
            json!({"anyOf": [{"$ref": "#/$defs/T", "description": "A thing."}, {"type": "null"}]})
        );
        assert_eq!(
            p["n"],
            json!({"type": ["integer", "null"]}),
            "admits null already"
        );
        assert_eq!(
            p["big"]["anyOf"][0]["maximum"],
            json!(SAFE_INTEGER),
            "clamped inside the branch"
        );
        assert_eq!(
            p["c"],
            json!({"anyOf": [{"type": "string", "const": "x"}, {"type": "null"}]})
        );
        assert_eq!(p["v"], json!({}), "any value already");
        assert_eq!(
            p["neg"]["anyOf"][0]["minimum"],
            json!(-(SAFE_INTEGER as i64))
        );
    }

    #[test]
    fn values_are_never_rewritten() {
        let served = portable_of(json!({"type": "object",
            "properties": {"m": {"type": "object", "properties": {}, "additionalProperties": false,
                "default": {"additionalProperties": false, "$ref": "#"}}},
            "required": ["m"]}));
        assert_eq!(
            served["properties"]["m"],
            json!({"type": "object", "properties": {},
                   "default": {"additionalProperties": false, "$ref": "#"}})
        );
    }
}
