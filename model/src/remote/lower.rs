//! Lowering an input schema to the provider subset (`remote-dropped`).
//!
//! The platform converts `inputSchema` to the shape the model providers agree on and
//! drops everything else silently. [`lower`] does the same conversion and reports what
//! it dropped, so the author learns what the model is never told.
//!
//! The rules are documented on [`lower`].

use serde::Serialize;
use serde_json::{Map, Value};

use crate::contract::push_pointer;

/// The `type` values of the subset.
pub const SUBSET_TYPES: &[&str] = &["object", "string", "integer", "number", "boolean", "array"];

/// The keywords of the subset.
pub const SUBSET_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "enum",
    "properties",
    "required",
    "items",
];

/// How many `properties` of one object are kept (the first, in document order).
pub const PROPERTIES_CAP: usize = 48;

/// How many `enum` values are kept.
pub const ENUM_CAP: usize = 32;

/// The longest schema `description` kept, in characters (UTF-16 code units).
pub const SCHEMA_DESCRIPTION_CAP: usize = 500;

/// The depth at which `properties` and `items` stop being followed.
pub const DEPTH_CAP: usize = 8;

/// Root keys that describe the tool rather than its arguments. They are not part of the
/// `inputSchema` the platform receives (the MCP projection removes `$schema` and
/// `x-neuralis`; `title` is the tool's own title), so they are dropped with
/// [`DropReason::Metadata`].
pub const METADATA_ROOT_KEYS: &[&str] = &["$schema", "title", crate::xn::BLOCK];

/// Why a construct did not make it into the lowered schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DropReason {
    /// A root key of [`METADATA_ROOT_KEYS`]: tool metadata, not argument shape.
    Metadata,
    /// A keyword the contract itself puts there: a boolean `additionalProperties`
    /// (`root-closed`, `open-object-implicit`) or the default `propertyNames` of an
    /// open bag (section 3). The author cannot remove it, and the handler enforces it.
    Contract,
    /// A keyword outside the subset (`oneOf`, `$ref`, `format`, `minimum`, `pattern`,
    /// a schema-valued `additionalProperties`, …).
    Unsupported,
    /// Past a cap: a property after the first 48, an `enum` value after the first 32,
    /// a description past 500 characters, or a required name whose property was cut.
    Truncated,
    /// `properties`, `items` or `required` of a node at depth [`DEPTH_CAP`].
    Depth,
    /// A value of a subset keyword that the subset cannot express: a `type` other than
    /// the six (or one of them with `null`), a tuple `items`, a `false` schema, an
    /// object or array `enum` value, a value repeated once coerced to a string, a
    /// required name with no property, or a keyword whose value has the wrong JSON type.
    Unrepresentable,
}

impl DropReason {
    /// Whether `remote-dropped` warns about it: everything but [`Self::Metadata`] and
    /// [`Self::Contract`], which no author action could avoid.
    #[must_use]
    pub const fn is_reported(self) -> bool {
        !matches!(self, Self::Metadata | Self::Contract)
    }

    /// The reason as a short lower-case phrase.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Metadata => "tool metadata, not part of the input schema",
            Self::Contract => "required by the contract, enforced by the handler",
            Self::Unsupported => "not in the provider subset",
            Self::Truncated => "past the subset's cap",
            Self::Depth => "nesting deeper than 8 levels is not followed",
            Self::Unrepresentable => "the subset cannot express this value",
        }
    }
}

/// One construct the lowering dropped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dropped {
    /// RFC 6901 pointer to the dropped value in the input schema.
    pub pointer: String,
    /// The keyword it belongs to: `format` for `/properties/a/format`, `properties` for a
    /// property past the cap (`/properties/p49`), `enum` for `/enum/40`.
    pub keyword: String,
    /// Why it was dropped.
    pub reason: DropReason,
}

impl Dropped {
    /// A lower-case sentence saying what was dropped and why, for diagnostics.
    #[must_use]
    pub fn describe(&self) -> String {
        let last = self.pointer.rsplit('/').next().unwrap_or_default();
        let last = crate::contract::unescape_token(last);
        let k = &self.keyword;
        match (self.reason, k.as_str()) {
            (DropReason::Truncated, "properties") => {
                format!(
                    "property `{}` is past the first {PROPERTIES_CAP} and is dropped",
                    last.escape_debug()
                )
            }
            (DropReason::Truncated, "enum") => {
                format!(
                    "the `enum` value at index {last} is past the first {ENUM_CAP} and is dropped"
                )
            }
            (DropReason::Truncated, "description") => {
                format!("the `description` is cut to its first {SCHEMA_DESCRIPTION_CAP} characters")
            }
            (DropReason::Truncated, "required") => {
                format!(
                    "the `required` entry at index {last} names a property past the first {PROPERTIES_CAP} and is dropped"
                )
            }
            (DropReason::Depth, _) => {
                format!(
                    "`{k}` at depth {DEPTH_CAP} is dropped: nesting deeper than {DEPTH_CAP} levels is not followed"
                )
            }
            (DropReason::Unrepresentable, _) => {
                format!("this `{k}` cannot be expressed in the provider subset and is dropped")
            }
            (DropReason::Unsupported, _) => {
                format!("`{k}` is not in the provider subset: the model is never told this")
            }
            (reason, _) => format!("`{k}` is dropped: {}", reason.as_str()),
        }
    }
}

/// A schema lowered to the provider subset, with what was dropped on the way.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lowered {
    /// The schema as the model providers receive it.
    pub schema: Value,
    /// Every dropped construct, in document order.
    pub dropped: Vec<Dropped>,
}

/// Lowers `schema` to the provider subset, reporting what it drops.
///
/// The subset, per schema node:
///
/// | keyword | kept as |
/// |---|---|
/// | `type` | one of [`SUBSET_TYPES`]; `["T", "null"]` (either order) reads as `T`; `integer` stays `integer` |
/// | `description` | a string, its first [`SCHEMA_DESCRIPTION_CAP`] characters (UTF-16 code units, never splitting a code point) |
/// | `enum` | its first [`ENUM_CAP`] values as strings: strings as they are, numbers as their JSON text, `true`/`false`/`null` as those words |
/// | `properties` | its first [`PROPERTIES_CAP`] entries in document order, each lowered |
/// | `required` | the names it lists that are kept in the node's own `properties` **(ours)**: a provider may reject a required name it was never shown |
/// | `items` | a single schema, lowered |
///
/// Depth counts `properties` and `items` steps from the root (the root is depth 0). A
/// node at depth [`DEPTH_CAP`] keeps everything but its `properties`, `items` and
/// `required`, which are reported with [`DropReason::Depth`].
///
/// Everything else is dropped and reported with its JSON pointer, its keyword and a
/// [`DropReason`]. Entries inside a dropped construct are not visited. Keys of the
/// lowered nodes keep their document order. Lowering is idempotent: lowering a lowered
/// schema gives it back with nothing dropped.
///
/// Details **(ours)**: an `enum` value that is an object or an array, or that repeats an
/// earlier value once coerced (`1` after `"1"`), is dropped; an `enum` left with no value
/// is left out. A `required` name that is not a string, repeats, or has no kept property
/// is dropped; `required: []` is left out silently. A `true` schema lowers to `{}`; a
/// `false` schema or a non-schema value lowers to `{}` and is reported under the keyword
/// that holds it.
///
/// ```
/// use neuralis_model::remote::{DropReason, lower};
/// use serde_json::json;
///
/// let lowered = lower(&json!({
///     "type": "object",
///     "properties": {
///         "city": { "type": "string", "minLength": 1 },
///         "days": { "type": ["integer", "null"], "enum": [1, 2, 3] }
///     },
///     "required": ["city"],
///     "additionalProperties": false
/// }));
/// assert_eq!(lowered.schema, json!({
///     "type": "object",
///     "properties": {
///         "city": { "type": "string" },
///         "days": { "type": "integer", "enum": ["1", "2", "3"] }
///     },
///     "required": ["city"]
/// }));
/// assert_eq!(lowered.dropped[0].pointer, "/properties/city/minLength");
/// assert_eq!(lowered.dropped[0].reason, DropReason::Unsupported);
/// assert_eq!(lowered.dropped[1].keyword, "additionalProperties");
/// assert_eq!(lowered.dropped[1].reason, DropReason::Contract);
/// ```
#[must_use]
pub fn lower(schema: &Value) -> Lowered {
    let mut cx = Lowerer {
        dropped: Vec::new(),
        default_property_names: crate::schema::default_property_names(),
    };
    let schema = cx.node(schema, "", 0, "schema");
    Lowered {
        schema,
        dropped: cx.dropped,
    }
}

struct Lowerer {
    dropped: Vec<Dropped>,
    default_property_names: Value,
}

impl Lowerer {
    fn drop(&mut self, pointer: String, keyword: &str, reason: DropReason) {
        self.dropped.push(Dropped {
            pointer,
            keyword: keyword.to_owned(),
            reason,
        });
    }

    /// Lowers one schema node at `ptr`, `depth` steps below the root; `slot` is the
    /// keyword that holds it, reported when the node is not an object schema.
    fn node(&mut self, value: &Value, ptr: &str, depth: usize, slot: &str) -> Value {
        let obj = match value {
            Value::Object(obj) => obj,
            Value::Bool(true) => return Value::Object(Map::new()),
            _ => {
                self.drop(ptr.to_owned(), slot, DropReason::Unrepresentable);
                return Value::Object(Map::new());
            }
        };
        let cut = depth >= DEPTH_CAP;
        let declared = obj.get("properties").and_then(Value::as_object);
        let kept: Option<Vec<&str>> = declared
            .filter(|_| !cut)
            .map(|p| p.keys().take(PROPERTIES_CAP).map(String::as_str).collect());

        let mut out = Map::new();
        for (key, v) in obj {
            let p = push_pointer(ptr, key);
            match key.as_str() {
                "type" => match lower_type(v) {
                    Some(t) => {
                        out.insert(key.clone(), t);
                    }
                    None => self.drop(p, key, DropReason::Unrepresentable),
                },
                "description" => match v {
                    Value::String(s) => {
                        let text = match crate::utf16::utf16_truncate(s, SCHEMA_DESCRIPTION_CAP) {
                            Some(kept) => {
                                self.drop(p, key, DropReason::Truncated);
                                kept
                            }
                            None => s,
                        };
                        out.insert(key.clone(), Value::String(text.to_owned()));
                    }
                    _ => self.drop(p, key, DropReason::Unrepresentable),
                },
                "enum" => {
                    if let Some(values) = self.lower_enum(v, &p) {
                        out.insert(key.clone(), values);
                    }
                }
                "properties" => {
                    if cut {
                        self.drop(p, key, DropReason::Depth);
                    } else if let Value::Object(props) = v {
                        let mut lowered = Map::new();
                        for (i, (name, sub)) in props.iter().enumerate() {
                            let sp = push_pointer(&p, name);
                            if i < PROPERTIES_CAP {
                                let sub = self.node(sub, &sp, depth + 1, "properties");
                                lowered.insert(name.clone(), sub);
                            } else {
                                self.drop(sp, key, DropReason::Truncated);
                            }
                        }
                        out.insert(key.clone(), Value::Object(lowered));
                    } else {
                        self.drop(p, key, DropReason::Unrepresentable);
                    }
                }
                "items" => {
                    if cut {
                        self.drop(p, key, DropReason::Depth);
                    } else if v.is_array() {
                        self.drop(p, key, DropReason::Unrepresentable);
                    } else {
                        let sub = self.node(v, &p, depth + 1, "items");
                        out.insert(key.clone(), sub);
                    }
                }
                "required" => {
                    let names = self.lower_required(v, &p, cut, kept.as_deref(), declared);
                    if let Some(names) = names {
                        out.insert(key.clone(), names);
                    }
                }
                _ => {
                    let reason = if ptr.is_empty() && METADATA_ROOT_KEYS.contains(&key.as_str()) {
                        DropReason::Metadata
                    } else if self.is_contract(key, v) {
                        DropReason::Contract
                    } else {
                        DropReason::Unsupported
                    };
                    self.drop(p, key, reason);
                }
            }
        }
        Value::Object(out)
    }

    fn is_contract(&self, key: &str, value: &Value) -> bool {
        match key {
            "additionalProperties" => value.is_boolean(),
            "propertyNames" => value.is_object() && *value == self.default_property_names,
            _ => false,
        }
    }

    /// The lowered `enum`, or `None` when nothing of it is kept.
    fn lower_enum(&mut self, value: &Value, ptr: &str) -> Option<Value> {
        let values = match value.as_array() {
            Some(values) if !values.is_empty() => values,
            _ => {
                self.drop(ptr.to_owned(), "enum", DropReason::Unrepresentable);
                return None;
            }
        };
        let mut out: Vec<Value> = Vec::new();
        for (i, v) in values.iter().enumerate() {
            let vp = push_pointer(ptr, &i.to_string());
            if i >= ENUM_CAP {
                self.drop(vp, "enum", DropReason::Truncated);
                continue;
            }
            let s = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                Value::Null => "null".to_owned(),
                Value::Array(_) | Value::Object(_) => {
                    self.drop(vp, "enum", DropReason::Unrepresentable);
                    continue;
                }
            };
            if out.iter().any(|o| o.as_str() == Some(&s)) {
                self.drop(vp, "enum", DropReason::Unrepresentable);
            } else {
                out.push(Value::String(s));
            }
        }
        (!out.is_empty()).then_some(Value::Array(out))
    }

    /// The lowered `required`, or `None` when no name is kept.
    fn lower_required(
        &mut self,
        value: &Value,
        ptr: &str,
        cut: bool,
        kept: Option<&[&str]>,
        declared: Option<&Map<String, Value>>,
    ) -> Option<Value> {
        let Some(names) = value.as_array() else {
            self.drop(ptr.to_owned(), "required", DropReason::Unrepresentable);
            return None;
        };
        if names.is_empty() {
            // `[]` requires nothing: leaving it out changes nothing.
            return None;
        }
        let kept = match kept {
            Some(kept) => kept,
            None => {
                let reason = if cut {
                    DropReason::Depth
                } else {
                    DropReason::Unrepresentable
                };
                self.drop(ptr.to_owned(), "required", reason);
                return None;
            }
        };
        let mut out: Vec<Value> = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let np = push_pointer(ptr, &i.to_string());
            let reason = match name.as_str() {
                Some(n) if out.iter().any(|o| o.as_str() == Some(n)) => DropReason::Unrepresentable,
                Some(n) if kept.contains(&n) => {
                    out.push(name.clone());
                    continue;
                }
                Some(n) if declared.is_some_and(|d| d.contains_key(n)) => DropReason::Truncated,
                _ => DropReason::Unrepresentable,
            };
            self.drop(np, "required", reason);
        }
        (!out.is_empty()).then_some(Value::Array(out))
    }
}

/// The subset's reading of a `type` value, or `None` when it has none.
fn lower_type(value: &Value) -> Option<Value> {
    let one = match value {
        Value::String(t) => t.as_str(),
        Value::Array(types) => {
            let mut non_null = types.iter().filter(|t| t.as_str() != Some("null"));
            let first = non_null.next()?.as_str()?;
            // `["T", "null"]`, and its harmless variants `["T"]` and `["T", "T"]`.
            if non_null.any(|t| t.as_str() != Some(first)) {
                return None;
            }
            first
        }
        _ => return None,
    };
    SUBSET_TYPES
        .contains(&one)
        .then(|| Value::String(one.to_owned()))
}
