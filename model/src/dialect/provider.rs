//! Each model provider's own tool definition of a tool, written so that the provider's
//! SDK leaves it as it is (a fixed point of the function the SDK runs on it).
//!
//! A dialect is data: one table per provider ([`OPENAI`], [`ANTHROPIC`], [`GEMINI`]),
//! a [`KeywordRule`] per keyword of the schemas the contract allows, each with its
//! [`Fate`] and the SDK source or documentation it comes from. [`tool_definition`]
//! walks a tool file with a provider's table: a kept keyword is copied, a rewritten one
//! written the way the provider reads it, a described one moved into the node's
//! `description` as words the model reads ([`words`]), a dropped one left out (the
//! contract's own closure and guards, and metadata), and a refused construct reported
//! `dialect-refused`. Whatever a dialect loses, the server still validates: a call is
//! checked against the tool file whatever the model was told.
//!
//! ```
//! use neuralis_model::dialect::{Fate, Provider, tool_definition};
//! use serde_json::json;
//!
//! let file = json!({"$schema": "http://json-schema.org/draft-07/schema#",
//!     "type": "object", "additionalProperties": false, "description": "Forecast.",
//!     "properties": {"city": {"type": "string", "maxLength": 120},
//!                    "days": {"type": "integer", "minimum": 1, "maximum": 14}},
//!     "required": ["city"],
//!     "x-neuralis": {"defaults": {"days": 3}, "annotations": {"category": "read"}}});
//! let openai = tool_definition(Provider::OpenAi, "weather_forecast", &file);
//! assert_eq!(openai.tool["strict"], true);
//! // Strict: every key required, the optional one nullable, its default in words.
//! assert_eq!(openai.tool["parameters"]["required"], json!(["city", "days"]));
//! assert_eq!(openai.tool["parameters"]["properties"]["days"],
//!     json!({"type": ["integer", "null"], "minimum": 1, "maximum": 14,
//!            "description": "Default: 3."}));
//! assert!(openai.losses.iter().any(|l| l.keyword == "maxLength" && l.fate == Fate::Described));
//!
//! let anthropic = tool_definition(Provider::Anthropic, "weather_forecast", &file);
//! assert_eq!(anthropic.tool["input_schema"]["properties"]["days"],
//!     json!({"type": "integer", "description": "At least 1. At most 14. Default: 3."}));
//! ```

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::served::SAFE_INTEGER;
use crate::contract::{RuleId, push_pointer};

/// A model provider whose tool definition [`tool_definition`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Provider {
    /// OpenAI function calling, strict (`{"type": "function", "name", "description",
    /// "parameters", "strict": true}`).
    OpenAi,
    /// Anthropic tool use, strict (`{"name", "description", "input_schema", "strict":
    /// true}`).
    Anthropic,
    /// Gemini function declarations (`{"name", "description", "parameters"}`, the
    /// OpenAPI subset of `types.Schema`).
    Gemini,
    /// A platform that consumes MCP servers and lowers each `inputSchema` itself to the
    /// subset the providers agree on (seed 003: `type`, `properties`, `required`,
    /// `items`, string `enum`s, `description`), `{"name", "description",
    /// "inputSchema"}`: everything else said in words ([`MCP_REMOTE`](super::MCP_REMOTE),
    /// the served dialect [`Served::McpRemote`](super::Served::McpRemote)).
    McpRemote,
}

impl Provider {
    /// Every provider, in the order `--help` lists them.
    pub const ALL: [Self; 4] = [Self::OpenAi, Self::Anthropic, Self::Gemini, Self::McpRemote];

    /// The provider's name in flags and settings.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::OpenAi => "openai",
            Self::Anthropic => "anthropic",
            Self::Gemini => "gemini",
            Self::McpRemote => "mcp-remote",
        }
    }

    /// The provider named `name`, if there is one.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// The provider's keyword table.
    #[must_use]
    pub const fn table(self) -> &'static [KeywordRule] {
        match self {
            Self::OpenAi => OPENAI,
            Self::Anthropic => ANTHROPIC,
            Self::Gemini => GEMINI,
            Self::McpRemote => super::remote::MCP_REMOTE,
        }
    }

    fn rule(self, keyword: &str) -> Option<&'static KeywordRule> {
        self.table().iter().find(|r| r.keyword == keyword)
    }
}

impl std::fmt::Display for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a dialect does with a keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    /// Copied as it is.
    Kept,
    /// Written the way the provider reads it, meaning the same (`oneOf` as `anyOf`, an
    /// optional property as a required nullable one, `definitions` as `$defs`...).
    Rewritten,
    /// Moved into the node's `description` as words: the model reads it, the
    /// provider's decoding does not enforce it.
    Described,
    /// Left out: the contract's own closure and guards (which the server enforces) and
    /// metadata.
    Dropped,
    /// The provider cannot carry it: the tool cannot be served to this provider as it
    /// is meant (`dialect-refused`).
    Refused,
}

/// One keyword of a dialect's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeywordRule {
    /// The draft-07 keyword.
    pub keyword: &'static str,
    /// What the dialect does with it.
    pub fate: Fate,
    /// How, for a rewritten or refused keyword; empty for the others.
    pub how: &'static str,
    /// The SDK source or documentation it comes from.
    pub source: &'static str,
}

/// One row of a dialect's keyword table (every dialect's, `remote`'s too).
pub(super) const fn rule(
    keyword: &'static str,
    fate: Fate,
    how: &'static str,
    source: &'static str,
) -> KeywordRule {
    KeywordRule {
        keyword,
        fate,
        how,
        source,
    }
}

const OAI_STRICT: &str = "openai-agents `agents/strict_schema.py` `ensure_strict_json_schema` (adapted from openai `lib/_pydantic.py` `_ensure_strict_json_schema`)";
const OAI_DOCS: &str = "platform.openai.com/docs/guides/structured-outputs, \"Supported schemas\"";
const ANT: &str = "anthropic `lib/_parse/_transform.py` `transform_schema`";
const GEM: &str = "google-genai `types.py` `Schema` (the fields of `FunctionDeclaration.parameters`, `extra='forbid'`)";
const CONTRACT: &str =
    "the contract's own (`root-closed`, `open-object-implicit`, section 3): the server enforces it";

/// OpenAI strict function calling.
pub const OPENAI: &[KeywordRule] = &[
    rule(
        "type",
        Fate::Rewritten,
        "an optional property's type also admits `null` (`[\"T\", \"null\"]`)",
        OAI_STRICT,
    ),
    rule("properties", Fate::Kept, "", OAI_STRICT),
    rule(
        "required",
        Fate::Rewritten,
        "every property required, in `properties` order",
        OAI_STRICT,
    ),
    rule(
        "additionalProperties",
        Fate::Rewritten,
        "`false` on every object; a map (a schema or `true`) is refused",
        OAI_STRICT,
    ),
    rule("items", Fate::Kept, "", OAI_STRICT),
    rule("enum", Fate::Kept, "", OAI_DOCS),
    rule("const", Fate::Kept, "", OAI_DOCS),
    rule("anyOf", Fate::Kept, "", OAI_STRICT),
    rule("oneOf", Fate::Rewritten, "as `anyOf`", OAI_STRICT),
    rule("allOf", Fate::Kept, "", OAI_STRICT),
    rule(
        "$ref",
        Fate::Rewritten,
        "inlined (a `$ref` refuses the MCP tool with `_reject_open_objects`); recursion is refused",
        OAI_STRICT,
    ),
    rule(
        "definitions",
        Fate::Rewritten,
        "inlined where referenced",
        OAI_STRICT,
    ),
    rule("description", Fate::Kept, "", OAI_DOCS),
    rule("title", Fate::Kept, "", OAI_STRICT),
    rule("minimum", Fate::Kept, "", OAI_DOCS),
    rule("maximum", Fate::Kept, "", OAI_DOCS),
    rule("exclusiveMinimum", Fate::Kept, "", OAI_DOCS),
    rule("exclusiveMaximum", Fate::Kept, "", OAI_DOCS),
    rule("multipleOf", Fate::Kept, "", OAI_DOCS),
    rule("pattern", Fate::Kept, "", OAI_DOCS),
    rule(
        "format",
        Fate::Kept,
        "`date-time`, `time`, `date`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`, `uuid`; any other described",
        OAI_DOCS,
    ),
    rule("minItems", Fate::Kept, "", OAI_DOCS),
    rule("maxItems", Fate::Kept, "", OAI_DOCS),
    rule("minLength", Fate::Described, "", OAI_DOCS),
    rule("maxLength", Fate::Described, "", OAI_DOCS),
    rule("uniqueItems", Fate::Described, "", OAI_DOCS),
    rule("default", Fate::Described, "", OAI_STRICT),
    rule("examples", Fate::Described, "", OAI_DOCS),
    rule("minProperties", Fate::Described, "", OAI_DOCS),
    rule("maxProperties", Fate::Described, "", OAI_DOCS),
    rule("deprecated", Fate::Described, "", OAI_DOCS),
    rule("propertyNames", Fate::Dropped, "", CONTRACT),
    rule("not", Fate::Refused, "no negation in strict mode", OAI_DOCS),
    rule(
        "patternProperties",
        Fate::Refused,
        "an open object",
        OAI_STRICT,
    ),
    rule(
        "dependencies",
        Fate::Refused,
        "not in strict mode",
        OAI_DOCS,
    ),
    rule("if", Fate::Refused, "not in strict mode", OAI_DOCS),
    rule("contains", Fate::Refused, "not in strict mode", OAI_DOCS),
    rule(
        "additionalItems",
        Fate::Refused,
        "not in strict mode",
        OAI_DOCS,
    ),
];

/// Anthropic strict tool use.
pub const ANTHROPIC: &[KeywordRule] = &[
    rule(
        "type",
        Fate::Rewritten,
        "one type: a `[\"T\", \"null\"]` as `anyOf` of each (`transform_schema` has no type arrays); left out beside an `enum` or `const`",
        ANT,
    ),
    rule("properties", Fate::Kept, "", ANT),
    rule("required", Fate::Kept, "", ANT),
    rule(
        "additionalProperties",
        Fate::Rewritten,
        "`false` on every object; a map (a schema or `true`) is refused (the transform makes it `false`)",
        ANT,
    ),
    rule("items", Fate::Kept, "", ANT),
    rule("enum", Fate::Kept, "values of any primitive type", ANT),
    rule("const", Fate::Kept, "", ANT),
    rule("anyOf", Fate::Kept, "", ANT),
    rule("oneOf", Fate::Rewritten, "as `anyOf`", ANT),
    rule("allOf", Fate::Kept, "", ANT),
    rule(
        "$ref",
        Fate::Rewritten,
        "to `#/$defs/...`, alone (the transform keeps no sibling of `$ref`); `#` to a copy of the root",
        ANT,
    ),
    rule("definitions", Fate::Rewritten, "as `$defs`", ANT),
    rule("description", Fate::Kept, "", ANT),
    rule("title", Fate::Kept, "", ANT),
    rule(
        "format",
        Fate::Kept,
        "`date-time`, `time`, `date`, `duration`, `email`, `hostname`, `uri`, `ipv4`, `ipv6`, `uuid` on a string; any other described",
        ANT,
    ),
    rule("minItems", Fate::Kept, "0 or 1; any other described", ANT),
    rule("minimum", Fate::Described, "", ANT),
    rule("maximum", Fate::Described, "", ANT),
    rule("exclusiveMinimum", Fate::Described, "", ANT),
    rule("exclusiveMaximum", Fate::Described, "", ANT),
    rule("multipleOf", Fate::Described, "", ANT),
    rule("pattern", Fate::Described, "", ANT),
    rule("minLength", Fate::Described, "", ANT),
    rule("maxLength", Fate::Described, "", ANT),
    rule("maxItems", Fate::Described, "", ANT),
    rule("uniqueItems", Fate::Described, "", ANT),
    rule("default", Fate::Described, "", ANT),
    rule("examples", Fate::Described, "", ANT),
    rule("minProperties", Fate::Described, "", ANT),
    rule("maxProperties", Fate::Described, "", ANT),
    rule("deprecated", Fate::Described, "", ANT),
    rule("propertyNames", Fate::Dropped, "", CONTRACT),
    rule(
        "not",
        Fate::Refused,
        "the transform needs a type, `anyOf`, `allOf` or a literal",
        ANT,
    ),
    rule("patternProperties", Fate::Refused, "an open object", ANT),
    rule("dependencies", Fate::Refused, "no such keyword", ANT),
    rule("if", Fate::Refused, "no such keyword", ANT),
    rule("contains", Fate::Refused, "no such keyword", ANT),
    rule("additionalItems", Fate::Refused, "no such keyword", ANT),
];

/// Gemini function declarations.
pub const GEMINI: &[KeywordRule] = &[
    rule(
        "type",
        Fate::Rewritten,
        "upper case (`OBJECT`, `STRING`...); `[\"T\", \"null\"]` as `T` with `nullable: true`",
        GEM,
    ),
    rule(
        "properties",
        Fate::Rewritten,
        "kept, with `propertyOrdering` stating their order",
        GEM,
    ),
    rule("required", Fate::Kept, "", GEM),
    rule(
        "additionalProperties",
        Fate::Rewritten,
        "`false` left out (the OpenAPI subset has no closure); a map (a schema or `true`) is refused",
        GEM,
    ),
    rule("items", Fate::Kept, "", GEM),
    rule(
        "enum",
        Fate::Kept,
        "strings only (`list[str]`); any other enum described",
        GEM,
    ),
    rule(
        "const",
        Fate::Rewritten,
        "a string as a one-value `enum`; any other described",
        GEM,
    ),
    rule("anyOf", Fate::Kept, "", GEM),
    rule("oneOf", Fate::Rewritten, "as `anyOf`", GEM),
    rule("allOf", Fate::Refused, "no `allOf` in `types.Schema`", GEM),
    rule(
        "$ref",
        Fate::Rewritten,
        "inlined; recursion is refused",
        GEM,
    ),
    rule(
        "definitions",
        Fate::Rewritten,
        "inlined where referenced",
        GEM,
    ),
    rule("description", Fate::Kept, "", GEM),
    rule("title", Fate::Kept, "", GEM),
    rule(
        "minimum",
        Fate::Rewritten,
        "a float: past ±(2^53 − 1) clamped to it",
        GEM,
    ),
    rule(
        "maximum",
        Fate::Rewritten,
        "a float: past ±(2^53 − 1) clamped to it",
        GEM,
    ),
    rule("pattern", Fate::Kept, "", GEM),
    rule("minLength", Fate::Kept, "", GEM),
    rule("maxLength", Fate::Kept, "", GEM),
    rule("minItems", Fate::Kept, "", GEM),
    rule("maxItems", Fate::Kept, "", GEM),
    rule("minProperties", Fate::Kept, "", GEM),
    rule("maxProperties", Fate::Kept, "", GEM),
    rule("default", Fate::Kept, "", GEM),
    rule("format", Fate::Kept, "", GEM),
    rule("examples", Fate::Rewritten, "the first as `example`", GEM),
    rule("exclusiveMinimum", Fate::Described, "", GEM),
    rule("exclusiveMaximum", Fate::Described, "", GEM),
    rule("multipleOf", Fate::Described, "", GEM),
    rule("uniqueItems", Fate::Described, "", GEM),
    rule("deprecated", Fate::Described, "", GEM),
    rule("propertyNames", Fate::Dropped, "", CONTRACT),
    rule("not", Fate::Refused, "no `not` in `types.Schema`", GEM),
    rule("patternProperties", Fate::Refused, "an open object", GEM),
    rule("dependencies", Fate::Refused, "no such field", GEM),
    rule("if", Fate::Refused, "no such field", GEM),
    rule("contains", Fate::Refused, "no such field", GEM),
    rule("additionalItems", Fate::Refused, "no such field", GEM),
];

/// Keywords every dialect leaves out without a word: annotations for tools, not models.
const SILENT: &[&str] = &[
    "$comment",
    "readOnly",
    "writeOnly",
    "$id",
    "$schema",
    "contentMediaType",
    "contentEncoding",
];

/// One thing a dialect lost of a tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Loss {
    /// `dialect-refused` or `dialect-weakened`.
    pub rule: RuleId,
    /// RFC 6901 pointer into the tool file.
    pub pointer: String,
    /// The keyword (or construct) it is about.
    pub keyword: String,
    /// What became of it.
    pub fate: Fate,
    /// A sentence saying what the model will no longer see, or why it cannot be served.
    pub message: String,
}

/// A provider's tool definition and what it lost.
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    /// The provider's own tool definition, one JSON object.
    pub tool: Value,
    /// What the dialect lost (nothing is lost silently but the contract's closure and
    /// metadata).
    pub losses: Vec<Loss>,
}

impl Definition {
    /// Whether the provider cannot be given this tool as it is meant.
    #[must_use]
    pub fn is_refused(&self) -> bool {
        self.losses.iter().any(|l| l.fate == Fate::Refused)
    }
}

/// `provider`'s tool definition of the tool `name` whose file is `document` (see the
/// [module docs](crate::dialect)).
#[must_use]
pub fn tool_definition(provider: Provider, name: &str, document: &Value) -> Definition {
    let mut file = document.as_object().cloned().unwrap_or_default();
    let xn = file.remove(crate::xn::BLOCK);
    file.remove("$schema");
    file.remove("title");
    let description = match file.remove("description") {
        Some(Value::String(d)) => d,
        _ => String::new(),
    };
    // The values the handler fills in are the defaults the model is told.
    if let (Some(defaults), Some(Value::Object(properties))) = (
        xn.as_ref()
            .and_then(|x| x.get("defaults"))
            .and_then(Value::as_object),
        file.get_mut("properties"),
    ) {
        for (key, value) in defaults {
            if let Some(Value::Object(p)) = properties.get_mut(key) {
                p.insert("default".into(), value.clone());
            }
        }
    }
    let root = Value::Object(file);
    let mut cx = Lowering {
        provider,
        root: &root,
        losses: Vec::new(),
        stack: Vec::new(),
        defs: Map::new(),
        depth: 0,
        recursing: 0,
    };
    let Value::Object(map) = &root else {
        unreachable!("built as an object")
    };
    let mut parameters = cx.object_node(map, "", true);
    if provider == Provider::Anthropic && !cx.defs.is_empty() {
        parameters.insert("$defs".into(), Value::Object(std::mem::take(&mut cx.defs)));
    }
    let parameters = Value::Object(parameters);
    let tool = match provider {
        Provider::OpenAi => json!({"type": "function", "name": name, "description": description,
            "parameters": parameters, "strict": true}),
        Provider::Anthropic => json!({"name": name, "description": description,
            "input_schema": parameters, "strict": true}),
        Provider::Gemini => json!({"name": name, "description": description,
            "parameters": parameters}),
        Provider::McpRemote => super::remote::tool(name, &description, parameters),
    };
    Definition {
        tool,
        losses: cx.losses,
    }
}

/// What `provider`'s dialect loses of the tool `name` whose file is `schema`, as
/// diagnostics (`dialect-refused`, `dialect-weakened`), for `check --profile`.
#[must_use]
pub fn check_provider(provider: Provider, name: &str, schema: &Value) -> Vec<crate::Diagnostic> {
    tool_definition(provider, name, schema)
        .losses
        .into_iter()
        .map(|l| crate::Diagnostic::new(l.rule, l.pointer).with_message(l.message))
        .collect()
}

pub(super) struct Lowering<'a> {
    pub(super) provider: Provider,
    pub(super) root: &'a Value,
    pub(super) losses: Vec<Loss>,
    /// The `$ref`s being inlined, innermost last (recursion is a `$ref` met again).
    pub(super) stack: Vec<String>,
    /// Anthropic's `$defs`, by name.
    defs: Map<String, Value>,
    /// `properties` and `items` steps from the root to the node being lowered.
    pub(super) depth: usize,
    /// How many recursive `$ref`s (met again) the node being lowered is under.
    pub(super) recursing: usize,
}

/// The words a described keyword becomes, for the model to read.
#[must_use]
pub fn words(keyword: &str, value: &Value) -> String {
    let v = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match keyword {
        "minimum" => format!("At least {v}."),
        "maximum" => format!("At most {v}."),
        "exclusiveMinimum" => format!("More than {v}."),
        "exclusiveMaximum" => format!("Less than {v}."),
        "multipleOf" => format!("A multiple of {v}."),
        "minLength" => format!("At least {v} {}.", plural(value, "character")),
        "maxLength" => format!("At most {v} {}.", plural(value, "character")),
        "pattern" => format!("Matches the regular expression {v}."),
        "format" => format!("Format: {v}."),
        "minItems" => format!("At least {v} {}.", plural(value, "item")),
        "maxItems" => format!("At most {v} {}.", plural(value, "item")),
        "uniqueItems" if value == &Value::Bool(true) => "Items are distinct.".into(),
        "minProperties" => format!("At least {v} {}.", plural(value, "entry")),
        "maxProperties" => format!("At most {v} {}.", plural(value, "entry")),
        "default" => format!("Default: {}.", value),
        "const" => format!("Always {}.", value),
        "enum" => match value {
            Value::Array(values) => format!(
                "One of: {}.",
                values
                    .iter()
                    .map(Value::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            other => format!("One of: {other}."),
        },
        "examples" => match value {
            Value::Array(values) => format!(
                "For example: {}.",
                values
                    .iter()
                    .map(Value::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            other => format!("For example: {other}."),
        },
        "deprecated" if value == &Value::Bool(true) => "Deprecated.".into(),
        _ => String::new(),
    }
}

/// `noun`, or its plural unless `count` is 1.
fn plural(count: &Value, noun: &str) -> String {
    match (count.as_u64(), noun) {
        (Some(1), _) => noun.to_owned(),
        (_, "entry") => "entries".to_owned(),
        _ => format!("{noun}s"),
    }
}

const OPENAI_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];
const ANTHROPIC_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

impl Lowering<'_> {
    pub(super) fn lose(&mut self, pointer: &str, keyword: &str, fate: Fate, message: String) {
        let rule = if fate == Fate::Refused {
            RuleId::DialectRefused
        } else {
            RuleId::DialectWeakened
        };
        self.losses.push(Loss {
            rule,
            pointer: pointer.to_owned(),
            keyword: keyword.to_owned(),
            fate,
            message,
        });
    }

    pub(super) fn refuse(&mut self, pointer: &str, keyword: &str, why: &str) {
        let p = self.provider;
        self.lose(
            pointer,
            keyword,
            Fate::Refused,
            format!("{p} cannot carry `{keyword}` here: {why}"),
        );
    }

    /// A schema in a schema position.
    pub(super) fn schema(&mut self, schema: &Value, pointer: &str) -> Value {
        match schema {
            Value::Object(map) => Value::Object(self.object_node(map, pointer, false)),
            Value::Bool(b) if self.provider == Provider::McpRemote => super::remote::any(*b),
            Value::Bool(true) => {
                self.refuse(
                    pointer,
                    "true",
                    "a schema that accepts any value has no type",
                );
                json!({})
            }
            Value::Bool(false) => {
                self.refuse(pointer, "false", "a schema that accepts nothing");
                json!({})
            }
            _ => json!({}),
        }
    }

    /// The node `map` as the provider reads it.
    pub(super) fn object_node(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        root: bool,
    ) -> Map<String, Value> {
        if let Some(Value::String(r)) = map.get("$ref") {
            return self.reference(map, r, pointer);
        }
        let remote = self.provider == Provider::McpRemote;
        if remote && self.depth >= super::remote::DEPTH_CAP && super::remote::nests(map) {
            return self.cut(map, pointer);
        }
        let mut out = Map::new();
        let mut described: Vec<String> = Vec::new();
        let mut types: Vec<String> = match map.get("type") {
            Some(Value::String(t)) => vec![t.clone()],
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        let literal = map.contains_key("enum") || map.contains_key("const");
        let composed = ["anyOf", "oneOf", "allOf"]
            .iter()
            .any(|k| map.contains_key(*k));
        if remote {
            super::remote::one_type(map, &mut types, &mut described);
        } else if types.is_empty() && !literal && !composed {
            self.refuse(
                pointer,
                "type",
                "a value of any type (no `type`) is not a schema the provider decodes",
            );
        }
        let non_null: Vec<&String> = types.iter().filter(|t| *t != "null").collect();
        let is_object = non_null.iter().any(|t| *t == "object") || map.contains_key("properties");
        for (key, value) in map {
            let ptr = push_pointer(pointer, key);
            self.keyword(key, value, &ptr, &non_null, &mut out, &mut described);
        }
        if is_object {
            self.object_members(map, pointer, &mut out, root);
        }
        let mut node = self.typed(pointer, &types, literal, &mut out);
        node.extend(out);
        let mut text = match map.get("description") {
            Some(Value::String(d)) if !root => d.clone(),
            _ => String::new(),
        };
        if remote {
            self.merge(&mut node, &mut described);
            super::remote::describe(&mut node, &text, &described);
            return node;
        }
        if !described.is_empty() {
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            text.push_str(&described.join(" "));
        }
        if !text.is_empty() {
            node.insert("description".into(), Value::String(text));
        }
        node
    }

    /// One keyword of a node (its `type`, members and description aside): kept, rewritten,
    /// described in words, or refused, as the provider reads it.
    fn keyword(
        &mut self,
        key: &str,
        value: &Value,
        ptr: &str,
        non_null: &[&String],
        out: &mut Map<String, Value>,
        described: &mut Vec<String>,
    ) {
        let provider = self.provider;
        match key {
            "additionalProperties" if provider == Provider::McpRemote => {
                self.open_map(value, ptr, described);
            }
            "type"
            | "$ref"
            | "description"
            | "properties"
            | "required"
            | "additionalProperties"
            | "definitions"
            | "$defs" => {}
            "items" => match value {
                Value::Array(_) => {
                    self.refuse(ptr, "items", "a tuple (an `items` array) has no form here");
                }
                item => {
                    self.depth += 1;
                    let lowered = self.schema(item, ptr);
                    self.depth -= 1;
                    out.insert("items".into(), lowered);
                }
            },
            "anyOf" | "oneOf" => {
                // `oneOf` as `anyOf`: every provider's transform does so, and the
                // branches the toolkit writes (tagged variants) exclude each other.
                let branches = self.branches(value, ptr);
                match out.get_mut("anyOf") {
                    Some(Value::Array(existing)) => existing.extend(branches),
                    _ => {
                        out.insert("anyOf".into(), Value::Array(branches));
                    }
                }
            }
            "allOf" => {
                if provider == Provider::McpRemote {
                    let branches = self.branches(value, ptr);
                    out.insert("allOf".into(), Value::Array(branches));
                } else if provider == Provider::Gemini {
                    self.refuse(ptr, "allOf", "no `allOf` in `types.Schema`");
                } else {
                    let branches = self.branches(value, ptr);
                    out.insert("allOf".into(), Value::Array(branches));
                }
            }
            "enum" => self.enumeration(value, ptr, out, described),
            "const" => match (provider, value) {
                (Provider::McpRemote, _) => {
                    self.enumeration(&Value::Array(vec![value.clone()]), ptr, out, described);
                }
                (Provider::Gemini, Value::String(_)) => {
                    out.insert("enum".into(), Value::Array(vec![value.clone()]));
                }
                (Provider::Gemini, other) => self.describe(ptr, "const", other, described),
                _ => {
                    out.insert("const".into(), value.clone());
                }
            },
            "format" => {
                if keeps_format(provider, non_null, value) {
                    out.insert(key.to_owned(), value.clone());
                } else {
                    self.describe(ptr, key, value, described);
                }
            }
            "minItems" if provider == Provider::Anthropic => {
                if matches!(value.as_u64(), Some(0 | 1)) {
                    out.insert(key.to_owned(), value.clone());
                } else {
                    self.describe(ptr, key, value, described);
                }
            }
            "minimum" | "maximum" if provider == Provider::Gemini => {
                out.insert(key.to_owned(), clamp(value));
            }
            "examples" if provider == Provider::Gemini => {
                if let Some(first) = value.as_array().and_then(|v| v.first()) {
                    out.insert("example".into(), first.clone());
                }
            }
            "default" if provider == Provider::OpenAi && value.is_null() => {
                // `ensure_strict_json_schema` strips a `null` default: nothing to say.
            }
            k if SILENT.contains(&k) => {}
            _ => self.by_rule(key, value, ptr, out, described),
        }
    }

    /// A keyword the provider's rule table decides.
    fn by_rule(
        &mut self,
        key: &str,
        value: &Value,
        ptr: &str,
        out: &mut Map<String, Value>,
        described: &mut Vec<String>,
    ) {
        let provider = self.provider;
        let k = key;
        match provider.rule(k).map(|r| r.fate) {
            Some(Fate::Kept) => {
                out.insert(key.to_owned(), value.clone());
            }
            Some(Fate::Described) => self.describe(ptr, k, value, described),
            Some(Fate::Refused) => {
                let how = provider.rule(k).map_or("", |r| r.how);
                self.refuse(ptr, k, how);
            }
            // The contract's own guards: the server enforces them, and the
            // author cannot remove them, so nothing is said.
            Some(Fate::Dropped) => {}
            Some(Fate::Rewritten) | None => {
                self.lose(
                    ptr,
                    k,
                    Fate::Dropped,
                    format!(
                        "`{k}` is not a keyword {provider} reads: left out (the server enforces it)"
                    ),
                );
            }
        }
    }

    /// The node's type, decided last: literals and compositions take it out where the
    /// provider's transform does (Anthropic's nullable type becomes an `anyOf` in `out`).
    fn typed(
        &mut self,
        pointer: &str,
        types: &[String],
        literal: bool,
        out: &mut Map<String, Value>,
    ) -> Map<String, Value> {
        let provider = self.provider;
        let nullable = types.iter().any(|t| t == "null");
        let non_null: Vec<&String> = types.iter().filter(|t| *t != "null").collect();
        let mut node = Map::new();
        if non_null.len() > 1 && provider != Provider::OpenAi {
            self.refuse(
                pointer,
                "type",
                "one type per schema: a union of types has no form here",
            );
        }
        match provider {
            Provider::OpenAi => {
                if !types.is_empty() {
                    let t: Vec<Value> = types.iter().map(|t| json!(t)).collect();
                    let t = if t.len() == 1 {
                        t[0].clone()
                    } else {
                        Value::Array(t)
                    };
                    node.insert("type".into(), t);
                }
            }
            Provider::Anthropic => {
                let composed_out = out.contains_key("anyOf") || out.contains_key("allOf");
                if literal {
                    if nullable {
                        enum_with_null(out);
                    }
                } else if let (Some(t), false) = (non_null.first(), composed_out) {
                    node.insert("type".into(), json!(t));
                    if nullable {
                        // One type per schema: `["T", "null"]` is `anyOf` of each.
                        let mut inner = std::mem::take(&mut node);
                        inner.extend(std::mem::take(out));
                        let description = inner.remove("description");
                        out.insert(
                            "anyOf".into(),
                            json!([Value::Object(inner), {"type": "null"}]),
                        );
                        if let Some(d) = description {
                            out.insert("description".into(), d);
                        }
                    }
                }
            }
            Provider::McpRemote => {
                if let Some(t) = non_null.first() {
                    let t = if nullable {
                        json!([t, "null"])
                    } else {
                        json!(t)
                    };
                    node.insert("type".into(), t);
                }
            }
            Provider::Gemini => {
                if let Some(t) = non_null.first() {
                    node.insert("type".into(), json!(t.to_ascii_uppercase()));
                }
                if nullable {
                    node.insert("nullable".into(), Value::Bool(true));
                }
            }
        }
        node
    }

    pub(super) fn describe(
        &mut self,
        pointer: &str,
        keyword: &str,
        value: &Value,
        described: &mut Vec<String>,
    ) {
        let text = words(keyword, value);
        let provider = self.provider;
        if text.is_empty() {
            self.lose(
                pointer,
                keyword,
                Fate::Dropped,
                format!("`{keyword}` is not given to {provider} (the server enforces it)"),
            );
            return;
        }
        let message = match keyword {
            "default" => format!(
                "{provider} has no `default`: the model reads \"{text}\" in the description, and the server fills it in when the key is not sent"
            ),
            "examples" => format!(
                "{provider} has no `examples`: the model reads \"{text}\" in the description"
            ),
            _ => format!(
                "{provider} does not enforce `{keyword}`: the model reads \"{text}\" in the description, and the server still validates it"
            ),
        };
        self.lose(pointer, keyword, Fate::Described, message);
        described.push(text);
    }

    fn enumeration(
        &mut self,
        value: &Value,
        pointer: &str,
        out: &mut Map<String, Value>,
        described: &mut Vec<String>,
    ) {
        if self.provider == Provider::McpRemote {
            self.remote_enum(value, pointer, out, described);
            return;
        }
        if self.provider == Provider::Gemini {
            let strings = value
                .as_array()
                .is_some_and(|v| v.iter().all(|x| x.is_string() || x.is_null()));
            if strings {
                let values: Vec<Value> = value
                    .as_array()
                    .map(|v| v.iter().filter(|x| x.is_string()).cloned().collect())
                    .unwrap_or_default();
                out.insert("enum".into(), Value::Array(values));
            } else {
                self.describe(pointer, "enum", value, described);
            }
            return;
        }
        out.insert("enum".into(), value.clone());
    }

    fn branches(&mut self, value: &Value, pointer: &str) -> Vec<Value> {
        value
            .as_array()
            .map(|branches| {
                branches
                    .iter()
                    .enumerate()
                    .map(|(i, b)| self.schema(b, &push_pointer(pointer, &i.to_string())))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// `properties`, `required` and `additionalProperties` of an object node.
    fn object_members(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        out: &mut Map<String, Value>,
        root: bool,
    ) {
        let provider = self.provider;
        let empty = Map::new();
        let properties = map
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        match map.get("additionalProperties") {
            Some(Value::Bool(false)) | None => {}
            // Refused and said in words by `keyword`.
            Some(_) if provider == Provider::McpRemote => {}
            Some(_) => {
                let ptr = push_pointer(pointer, "additionalProperties");
                if provider == Provider::Gemini {
                    self.refuse(&ptr, "additionalProperties", "a map (an object open to any key) has no form in `types.Schema` as a function's parameter");
                } else {
                    self.refuse(
                        &ptr,
                        "additionalProperties",
                        "a map (an object open to any key): strict mode closes every object",
                    );
                }
            }
        }
        let props_ptr = push_pointer(pointer, "properties");
        let mut lowered = Map::new();
        for (key, schema) in properties {
            let ptr = push_pointer(&props_ptr, key);
            self.depth += 1;
            let mut p = self.schema(schema, &ptr);
            self.depth -= 1;
            let optional = !required.contains(&key.as_str())
                && !super::nulls::admits_null(self.root, schema, 0);
            match provider {
                Provider::OpenAi if optional => openai_nullable(&mut p),
                Provider::McpRemote if optional => super::remote::nullable(&mut p),
                _ => {}
            }
            lowered.insert(key.clone(), p);
        }
        match provider {
            Provider::OpenAi => {
                let names: Vec<Value> = lowered.keys().map(|k| json!(k)).collect();
                out.insert("properties".into(), Value::Object(lowered));
                out.insert("required".into(), Value::Array(names));
                out.insert("additionalProperties".into(), Value::Bool(false));
            }
            Provider::Anthropic => {
                out.insert("properties".into(), Value::Object(lowered));
                out.insert("additionalProperties".into(), Value::Bool(false));
                if map.contains_key("required") {
                    let r: Vec<Value> = required.iter().map(|k| json!(k)).collect();
                    out.insert("required".into(), Value::Array(r));
                }
            }
            Provider::McpRemote => self.remote_members(lowered, &required, &props_ptr, out),
            Provider::Gemini => {
                if lowered.len() > 1 {
                    let order: Vec<Value> = lowered.keys().map(|k| json!(k)).collect();
                    out.insert("propertyOrdering".into(), Value::Array(order));
                }
                if !lowered.is_empty() || root {
                    out.insert("properties".into(), Value::Object(lowered));
                }
                if !required.is_empty() {
                    let r: Vec<Value> = required.iter().map(|k| json!(k)).collect();
                    out.insert("required".into(), Value::Array(r));
                }
            }
        }
    }

    /// A `$ref` node: inlined (OpenAI, Gemini) or a bare reference into `$defs`
    /// (Anthropic).
    fn reference(
        &mut self,
        map: &Map<String, Value>,
        r: &str,
        pointer: &str,
    ) -> Map<String, Value> {
        let name = match r {
            "#" => "Root".to_owned(),
            other => other.rsplit('/').next().unwrap_or("Def").to_owned(),
        };
        let target = match r {
            "#" => Some(self.root),
            other => other.strip_prefix('#').and_then(|p| self.root.pointer(p)),
        };
        let Some(Value::Object(target)) = target else {
            self.refuse(pointer, "$ref", "it points at nothing in the document");
            return Map::new();
        };
        let target_pointer = r.strip_prefix('#').unwrap_or_default().to_owned();
        if self.provider == Provider::Anthropic {
            if !self.defs.contains_key(&name) && !self.stack.iter().any(|s| s == r) {
                self.stack.push(r.to_owned());
                let lowered = self.object_node(target, &target_pointer, false);
                self.stack.pop();
                self.defs.insert(name.clone(), Value::Object(lowered));
            }
            let mut out = Map::new();
            out.insert("$ref".into(), json!(format!("#/$defs/{name}")));
            if map.contains_key("description") {
                let provider = self.provider;
                self.lose(pointer, "description", Fate::Dropped, format!(
                    "{provider} keeps no sibling of `$ref`: this description is not read (the referenced schema's is)"
                ));
            }
            return out;
        }
        if self.provider == Provider::McpRemote {
            return self.remote_reference(map, target, r, &target_pointer);
        }
        if self.stack.iter().any(|s| s == r) {
            self.refuse(
                pointer,
                "$ref",
                "a recursive type: the provider's schema cannot refer to itself here",
            );
            return Map::new();
        }
        self.stack.push(r.to_owned());
        let mut out = self.object_node(target, &target_pointer, false);
        self.stack.pop();
        if let Some(Value::String(d)) = map.get("description") {
            out.insert("description".into(), json!(d));
        }
        out
    }
}

/// An optional property made strict: its type (or its `anyOf`) also admits `null`.
fn openai_nullable(p: &mut Value) {
    let Value::Object(map) = p else { return };
    match map.get_mut("type") {
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            map.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(ts)) => ts.push(json!("null")),
        _ => {
            if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
                branches.push(json!({"type": "null"}));
                return;
            }
            let inner = std::mem::take(map);
            let description = inner.get("description").cloned();
            let mut inner = inner;
            inner.remove("description");
            map.insert(
                "anyOf".into(),
                json!([Value::Object(inner), {"type": "null"}]),
            );
            if let Some(d) = description {
                map.insert("description".into(), d);
            }
            return;
        }
    }
    if let Some(c) = map.remove("const") {
        map.insert("enum".into(), Value::Array(vec![c]));
    }
    enum_with_null(map);
}

/// `null` added to the node's `enum`, if it has one without.
fn enum_with_null(map: &mut Map<String, Value>) {
    if let Some(Value::Array(values)) = map.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
}

/// Whether the provider keeps a `format`: OpenAI the formats its strict mode reads,
/// Anthropic those it reads on a string, Gemini all (its transform decides).
fn keeps_format(provider: Provider, non_null: &[&String], value: &Value) -> bool {
    match provider {
        Provider::OpenAi => value.as_str().is_some_and(|f| OPENAI_FORMATS.contains(&f)),
        Provider::Anthropic => {
            non_null.iter().any(|t| *t == "string")
                && value
                    .as_str()
                    .is_some_and(|f| ANTHROPIC_FORMATS.contains(&f))
        }
        Provider::Gemini => true,
        Provider::McpRemote => false,
    }
}

/// A bound a float holds exactly.
fn clamp(value: &Value) -> Value {
    match value {
        Value::Number(n) if n.as_u64().is_some_and(|v| v > SAFE_INTEGER) => json!(SAFE_INTEGER),
        Value::Number(n) if n.as_i64().is_some_and(|v| v < -(SAFE_INTEGER as i64)) => {
            json!(-(SAFE_INTEGER as i64))
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every keyword the canonical writer knows has one verdict in each table (or is an
    /// annotation every dialect leaves out, or rides on another's: `then`/`else` with
    /// `if`).
    #[test]
    fn each_table_decides_every_keyword_once() {
        for provider in Provider::ALL {
            let table = provider.table();
            for (i, r) in table.iter().enumerate() {
                assert!(
                    table[i + 1..].iter().all(|o| o.keyword != r.keyword),
                    "{provider}: `{}` twice",
                    r.keyword
                );
                assert!(
                    !r.source.is_empty(),
                    "{provider}: `{}` cites nothing",
                    r.keyword
                );
                if matches!(r.fate, Fate::Rewritten | Fate::Refused) {
                    assert!(
                        !r.how.is_empty(),
                        "{provider}: `{}` says not how",
                        r.keyword
                    );
                }
            }
            for k in crate::schema::KEYWORD_ORDER {
                let known = table.iter().any(|r| r.keyword == *k)
                    || SILENT.contains(k)
                    || matches!(*k, "then" | "else" | "x-neuralis");
                assert!(known, "{provider}: no verdict on `{k}`");
            }
        }
    }

    fn lower(provider: Provider, schema: Value) -> Definition {
        let mut doc = schema;
        doc["x-neuralis"] = json!({"annotations": {"category": "read"}});
        tool_definition(provider, "t", &doc)
    }

    #[test]
    fn a_tagged_enum_is_any_of_and_a_nullable_enum_keeps_null() {
        let schema = json!({"type": "object", "additionalProperties": false,
            "properties": {
                "shape": {"oneOf": [
                    {"type": "object", "additionalProperties": false,
                     "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}},
                     "required": ["kind", "r"]},
                    {"type": "object", "additionalProperties": false,
                     "properties": {"kind": {"const": "square"}}, "required": ["kind"]}]},
                "level": {"type": ["string", "null"], "enum": ["low", "high", null]}},
            "required": ["shape", "level"]});
        let openai = lower(Provider::OpenAi, schema.clone());
        let p = &openai.tool["parameters"]["properties"];
        assert!(p["shape"].get("oneOf").is_none() && p["shape"]["anyOf"].is_array());
        assert_eq!(p["level"]["enum"], json!(["low", "high", null]));
        let anthropic = lower(Provider::Anthropic, schema.clone());
        let p = &anthropic.tool["input_schema"]["properties"];
        assert_eq!(
            p["level"],
            json!({"enum": ["low", "high", null]}),
            "no type beside a literal"
        );
        let gemini = lower(Provider::Gemini, schema);
        let p = &gemini.tool["parameters"]["properties"];
        assert_eq!(
            p["level"],
            json!({"type": "STRING", "nullable": true, "enum": ["low", "high"]})
        );
        assert_eq!(
            p["shape"]["anyOf"][0]["properties"]["kind"],
            json!({"enum": ["circle"]})
        );
        assert!(!openai.is_refused() && !anthropic.is_refused() && !gemini.is_refused());
    }

    #[test]
    fn recursion_is_refused_where_the_provider_must_inline_and_kept_in_defs_for_anthropic() {
        let schema = json!({"type": "object", "additionalProperties": false,
            "properties": {"tree": {"$ref": "#/definitions/Tree"}}, "required": ["tree"],
            "definitions": {"Tree": {"type": "object", "additionalProperties": false,
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/definitions/Tree"}}},
                "required": ["kids"]}}});
        for provider in [Provider::OpenAi, Provider::Gemini] {
            let d = lower(provider, schema.clone());
            let refused: Vec<&Loss> = d
                .losses
                .iter()
                .filter(|l| l.fate == Fate::Refused)
                .collect();
            assert_eq!(refused.len(), 1, "{provider}: {refused:?}");
            assert_eq!(refused[0].rule, RuleId::DialectRefused);
            assert_eq!(refused[0].keyword, "$ref");
        }
        let anthropic = lower(Provider::Anthropic, schema);
        assert!(!anthropic.is_refused(), "{:?}", anthropic.losses);
        let input = &anthropic.tool["input_schema"];
        assert_eq!(input["properties"]["tree"], json!({"$ref": "#/$defs/Tree"}));
        assert_eq!(
            input["$defs"]["Tree"]["properties"]["kids"]["items"],
            json!({"$ref": "#/$defs/Tree"})
        );
    }

    #[test]
    fn what_a_dialect_moves_into_words_is_a_warning_naming_the_keyword() {
        let schema = json!({"type": "object", "additionalProperties": false,
            "properties": {"tags": {"type": "array", "items": {"type": "string"},
                "uniqueItems": true, "maxItems": 3}},
            "required": ["tags"]});
        let d = lower(Provider::Anthropic, schema);
        let tags = &d.tool["input_schema"]["properties"]["tags"];
        // In the order the file states them.
        assert_eq!(tags["description"], "Items are distinct. At most 3 items.");
        let described: Vec<&str> = d
            .losses
            .iter()
            .filter(|l| l.rule == RuleId::DialectWeakened)
            .map(|l| l.keyword.as_str())
            .collect();
        assert_eq!(described, ["uniqueItems", "maxItems"]);
    }

    #[test]
    fn integer_bounds_past_two_to_the_53_are_clamped_for_gemini() {
        let schema = json!({"type": "object", "additionalProperties": false,
            "properties": {"n": {"type": "integer", "minimum": 0,
                "maximum": 18_446_744_073_709_551_615_u64}},
            "required": ["n"]});
        let d = lower(Provider::Gemini, schema);
        assert_eq!(
            d.tool["parameters"]["properties"]["n"]["maximum"],
            json!(SAFE_INTEGER)
        );
    }
}
