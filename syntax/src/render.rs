//! Model → schema plan: the one renderer. The plan is static JSON wherever the source
//! decides the schema, and names a type wherever the schema comes from a `ToolInput`
//! impl. The macro lowers the plan to run-time composition; the build emitter resolves
//! the named types itself.

use serde_json::{Map, Value};
use syn::Type;

use crate::ast::{Container, Data, Field, Style, Variant};
use crate::attr::docs::{DocPart, Docs};
use crate::attr::schema::SchemaAttrs;

/// A schema to compose.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // built once per derive, never stored in bulk
pub enum Plan {
    /// `<ty as ToolInput>`'s schema with `keywords` set over it.
    Type {
        /// The type.
        ty: Type,
        /// Keywords set over the composed schema.
        keywords: Map<String, Value>,
        /// A doc comment known only when the user's crate compiles (`include_str!`).
        docs: Option<Vec<DocPart>>,
    },
    /// A schema the source fixes entirely.
    Fixed(Value),
    /// A closed object (`additionalProperties: false`).
    Object {
        /// `type: object`, `title`, `description`...
        keywords: Map<String, Value>,
        /// Run-time doc comment.
        docs: Option<Vec<DocPart>>,
        /// Properties and flattened types, in declaration order.
        members: Vec<Member>,
    },
    /// A plan with a doc comment known only when the user's crate compiles.
    Described(Box<Plan>, Vec<DocPart>),
    /// `oneOf` (tagged enums) or `anyOf` (untagged).
    Choice {
        /// `"oneOf"` or `"anyOf"`.
        keyword: &'static str,
        /// `description`...
        keywords: Map<String, Value>,
        /// Run-time doc comment.
        docs: Option<Vec<DocPart>>,
        /// One plan per accepted shape.
        branches: Vec<Plan>,
    },
}

/// A member of an object plan.
#[derive(Debug, Clone)]
pub enum Member {
    /// A property.
    Property {
        /// Its serde name.
        name: String,
        /// Its schema.
        plan: Plan,
        /// Whether it is required.
        required: bool,
    },
    /// The properties of a flattened type (`#[serde(flatten)]`).
    Flatten {
        /// The flattened type.
        ty: Type,
        /// `false` for `Option<T>`: none of its properties is required.
        required: bool,
    },
}

/// One entry of the container's `ROOT_KEYS`.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // built once per derive, never stored in bulk
pub enum KeyPlan {
    /// A property name.
    Name(String),
    /// The keys of a flattened type.
    Flatten(Type),
}

/// Everything the derive emits for one container.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The schema.
    pub plan: Plan,
    /// `ROOT_KEYS`, for structs with named fields.
    pub root_keys: Option<Vec<KeyPlan>>,
    /// `IS_OBJECT`: `Some(true)` for named structs, the inner type for transparent ones.
    pub is_object: IsObject,
    /// Types whose schemas must be objects (flatten, internally tagged newtypes).
    pub object_asserts: Vec<Type>,
}

/// How `IS_OBJECT` is decided.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // built once per derive, never stored in bulk
pub enum IsObject {
    /// A fixed answer.
    Fixed(bool),
    /// The answer of another type (transparent and newtype structs).
    Of(Type),
}

fn doc_keywords(docs: &Docs, schema: &SchemaAttrs) -> (Map<String, Value>, Option<Vec<DocPart>>) {
    let mut keywords = Map::new();
    let mut dynamic = None;
    if let Some(t) = &schema.title {
        keywords.insert("title".into(), Value::String(t.value.clone()));
    }
    if schema.description.is_none() {
        if docs.is_dynamic() {
            dynamic = Some(docs.parts.clone());
        } else if let Some(text) = docs.text() {
            keywords.insert("description".into(), Value::String(text));
        }
    }
    keywords.extend(schema.keywords());
    (keywords, dynamic)
}

fn field_plan(field: &Field) -> Plan {
    let (keywords, docs) = doc_keywords(&field.docs, &field.schema);
    Plan::Type {
        ty: field.ty.clone(),
        keywords,
        docs,
    }
}

fn object_members(fields: &[Field], container_default: bool) -> Vec<Member> {
    fields
        .iter()
        .filter(|f| !f.is_skipped())
        .map(|f| {
            if f.serde.flatten.is_some() {
                Member::Flatten {
                    ty: f.ty.clone(),
                    required: !f.kind.is_option(),
                }
            } else {
                Member::Property {
                    name: f.name.value.clone(),
                    plan: field_plan(f),
                    required: f.is_required(container_default),
                }
            }
        })
        .collect()
}

fn object(keywords: Map<String, Value>, docs: Option<Vec<DocPart>>, members: Vec<Member>) -> Plan {
    let mut all = Map::new();
    all.insert("type".into(), Value::String("object".into()));
    all.extend(keywords);
    Plan::Object {
        keywords: all,
        docs,
        members,
    }
}

fn with_keywords(plan: Plan, extra: Map<String, Value>, extra_docs: Option<Vec<DocPart>>) -> Plan {
    match plan {
        Plan::Type {
            ty,
            mut keywords,
            docs,
        } => {
            keywords.extend(extra);
            Plan::Type {
                ty,
                keywords,
                docs: extra_docs.or(docs),
            }
        }
        Plan::Fixed(Value::Object(mut m)) => {
            m.extend(extra);
            Plan::Fixed(Value::Object(m))
        }
        other => other,
    }
}

fn tag_plan(name: &str) -> Plan {
    Plan::Fixed(serde_json::json!({ "type": "string", "enum": [name] }))
}

/// Renders a container.
#[must_use]
pub fn render(cont: &Container) -> Rendered {
    let (keywords, docs) = doc_keywords(&cont.docs, &cont.schema);
    let container_default = cont.serde.default.is_some();
    let mut object_asserts = Vec::new();
    match &cont.data {
        Data::Struct(style, fields) => {
            let live: Vec<&Field> = fields.iter().filter(|f| !f.is_skipped()).collect();
            let transparent = cont.serde.transparent.is_some() || *style == Style::Newtype;
            if transparent && live.len() == 1 {
                let inner = live[0];
                let plan = with_keywords(field_plan(inner), keywords, docs);
                return Rendered {
                    plan,
                    root_keys: None,
                    is_object: IsObject::Of(inner.ty.clone()),
                    object_asserts,
                };
            }
            match style {
                Style::Named => {
                    let members = object_members(fields, container_default);
                    let mut keys = Vec::new();
                    for m in &members {
                        match m {
                            Member::Property { name, .. } => keys.push(KeyPlan::Name(name.clone())),
                            Member::Flatten { ty, .. } => {
                                keys.push(KeyPlan::Flatten(ty.clone()));
                                object_asserts.push(ty.clone());
                            }
                        }
                    }
                    Rendered {
                        plan: object(keywords, docs, members),
                        root_keys: Some(keys),
                        is_object: IsObject::Fixed(true),
                        object_asserts,
                    }
                }
                _ => {
                    let mut fixed = Map::new();
                    fixed.insert("type".into(), Value::String("null".into()));
                    fixed.extend(keywords);
                    Rendered {
                        plan: Plan::Fixed(Value::Object(fixed)),
                        root_keys: None,
                        is_object: IsObject::Fixed(false),
                        object_asserts,
                    }
                }
            }
        }
        Data::Enum(variants) => {
            let live: Vec<&Variant> = variants.iter().filter(|v| v.serde.skip.is_none()).collect();
            let plan = render_enum(cont, &live, keywords, docs, &mut object_asserts);
            Rendered {
                plan,
                root_keys: None,
                is_object: IsObject::Fixed(false),
                object_asserts,
            }
        }
    }
}

fn variant_body(v: &Variant) -> Plan {
    let (keywords, docs) = doc_keywords(&v.docs, &v.schema);
    match v.style {
        Style::Newtype => with_keywords(field_plan(&v.fields[0]), keywords, docs),
        Style::Named => object(keywords, docs, object_members(&v.fields, false)),
        _ => {
            let mut m = Map::new();
            m.insert("type".into(), Value::String("null".into()));
            m.extend(keywords);
            Plan::Fixed(Value::Object(m))
        }
    }
}

/// The meanings of the documented unit variants (their doc comments, or
/// `#[schema(description = "...")]`) as the last paragraph of the `enum` schema's
/// description ([`variant_meanings`](neuralis_model::doc::variant_meanings)): the values
/// stay a portable list of strings, and a field's own description keeps the paragraph
/// (`overlay`). A doc comment known only when the crate compiles (`include_str!`) gives
/// no meaning.
fn describe_values(schema: &mut Map<String, Value>, units: &[&Variant]) {
    let docs: Vec<(&str, String)> = units
        .iter()
        .map(|v| {
            let text = v
                .schema
                .description
                .as_ref()
                .map(|d| d.value.clone())
                .or_else(|| v.docs.text())
                .unwrap_or_default();
            (v.name.value.as_str(), text)
        })
        .collect();
    let Some(meanings) =
        neuralis_model::doc::variant_meanings(docs.iter().map(|(n, d)| (*n, d.as_str())))
    else {
        return;
    };
    let text = neuralis_model::doc::with_meanings(
        schema.get("description").and_then(Value::as_str),
        &meanings,
    );
    schema.insert("description".into(), Value::String(text));
}

fn render_enum(
    cont: &Container,
    variants: &[&Variant],
    keywords: Map<String, Value>,
    docs: Option<Vec<DocPart>>,
    object_asserts: &mut Vec<Type>,
) -> Plan {
    let s = &cont.serde;
    let unit_only = variants.iter().all(|v| v.style == Style::Unit);
    let names = |vs: &[&Variant]| -> Vec<Value> {
        vs.iter()
            .map(|v| Value::String(v.name.value.clone()))
            .collect()
    };
    if s.untagged.is_some() {
        let branches = variants.iter().map(|v| variant_body(v)).collect();
        return Plan::Choice {
            keyword: "anyOf",
            keywords,
            docs,
            branches,
        };
    }
    if let Some(tag) = &s.tag {
        let content = s.content.as_ref().map(|c| c.value.as_str());
        let branches = variants
            .iter()
            .map(|v| tagged_branch(v, &tag.value, content, object_asserts))
            .collect();
        return Plan::Choice {
            keyword: "oneOf",
            keywords,
            docs,
            branches,
        };
    }
    let mut fixed = Map::new();
    fixed.insert("type".into(), Value::String("string".into()));
    if unit_only {
        fixed.insert("enum".into(), Value::Array(names(variants)));
        fixed.extend(keywords);
        describe_values(&mut fixed, variants);
        let plan = Plan::Fixed(Value::Object(fixed));
        return match docs {
            Some(d) => Plan::Described(Box::new(plan), d),
            None => plan,
        };
    }
    let units: Vec<&Variant> = variants
        .iter()
        .copied()
        .filter(|v| v.style == Style::Unit)
        .collect();
    let mut branches = Vec::new();
    if !units.is_empty() {
        fixed.insert("enum".into(), Value::Array(names(&units)));
        describe_values(&mut fixed, &units);
        branches.push(Plan::Fixed(Value::Object(fixed)));
    }
    for v in variants.iter().filter(|v| v.style != Style::Unit) {
        branches.push(object(
            Map::new(),
            None,
            vec![Member::Property {
                name: v.name.value.clone(),
                plan: variant_body(v),
                required: true,
            }],
        ));
    }
    Plan::Choice {
        keyword: "oneOf",
        keywords,
        docs,
        branches,
    }
}

/// One branch of an internally tagged enum (`#[serde(tag = "...")]`): an object with
/// the tag naming the variant, and the variant's fields beside it, or, when adjacently
/// tagged (`content = "..."`), under the content key. An internally tagged newtype's
/// type is flattened in, so it must be an object (`object_asserts`).
fn tagged_branch(
    v: &Variant,
    tag: &str,
    content: Option<&str>,
    object_asserts: &mut Vec<Type>,
) -> Plan {
    let (vk, vd) = doc_keywords(&v.docs, &v.schema);
    let mut members = vec![Member::Property {
        name: tag.to_owned(),
        plan: tag_plan(&v.name.value),
        required: true,
    }];
    match content {
        Some(content) => {
            if v.style != Style::Unit {
                let body = match v.style {
                    Style::Newtype => field_plan(&v.fields[0]),
                    _ => object(Map::new(), None, object_members(&v.fields, false)),
                };
                members.push(Member::Property {
                    name: content.to_owned(),
                    plan: body,
                    required: true,
                });
            }
        }
        None => match v.style {
            Style::Named => members.extend(object_members(&v.fields, false)),
            Style::Newtype => {
                let f = &v.fields[0];
                object_asserts.push(f.ty.clone());
                members.push(Member::Flatten {
                    ty: f.ty.clone(),
                    required: true,
                });
            }
            _ => {}
        },
    }
    object(vk, vd, members)
}
