//! `#[schema(...)]`: JSON Schema keywords and the `root` marker.

use neuralis_model::RuleId;
use proc_macro2::Span;
use serde_json::{Number, Value};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Attribute, Expr, Lit, LitStr, Type, UnOp};

use super::{Scope, Spanned, did_you_mean};
use crate::report::Ctxt;

/// Every `#[schema]` key, with where it may be written.
pub const SCHEMA_KEYS: &[(&str, &[Scope])] = &[
    ("root", &[Scope::Container]),
    ("elicitation", &[Scope::Container]),
    ("crate", &[Scope::Container]),
    ("title", &[Scope::Container, Scope::Variant, Scope::Field]),
    (
        "description",
        &[Scope::Container, Scope::Variant, Scope::Field],
    ),
    (
        "deprecated",
        &[Scope::Container, Scope::Variant, Scope::Field],
    ),
    ("examples", &[Scope::Container, Scope::Field]),
    ("minimum", &[Scope::Field]),
    ("maximum", &[Scope::Field]),
    ("exclusive_minimum", &[Scope::Field]),
    ("exclusive_maximum", &[Scope::Field]),
    ("multiple_of", &[Scope::Field]),
    ("min_length", &[Scope::Field]),
    ("max_length", &[Scope::Field]),
    ("pattern", &[Scope::Field]),
    ("format", &[Scope::Field]),
    ("min_items", &[Scope::Field]),
    ("max_items", &[Scope::Field]),
    ("unique_items", &[Scope::Field]),
    ("default", &[Scope::Field]),
    ("with", &[Scope::Field]),
    ("allow_weakened", &[Scope::Field]),
    ("header", &[Scope::Field]),
];

/// The `#[schema]` keys of one item. Each value keeps the span of its key.
#[derive(Debug, Clone, Default)]
#[allow(missing_docs)] // each field is the key of the same name
pub struct SchemaAttrs {
    pub root: Option<Span>,
    /// A form a handler asks a person to fill in (MCP elicitation), or a unit enum such a
    /// form's field takes: rule `elicitation-form`.
    pub elicitation: Option<Span>,
    /// `crate = "path"`: where the `neuralis` crate is, when renamed.
    pub krate: Option<Spanned<syn::Path>>,
    pub title: Option<Spanned<String>>,
    pub description: Option<Spanned<String>>,
    pub deprecated: Option<Span>,
    pub examples: Option<Spanned<Vec<Spanned<Value>>>>,
    pub minimum: Option<Spanned<Number>>,
    pub maximum: Option<Spanned<Number>>,
    pub exclusive_minimum: Option<Spanned<Number>>,
    pub exclusive_maximum: Option<Spanned<Number>>,
    pub multiple_of: Option<Spanned<Number>>,
    pub min_length: Option<Spanned<u64>>,
    pub max_length: Option<Spanned<u64>>,
    pub pattern: Option<Spanned<String>>,
    pub format: Option<Spanned<String>>,
    pub min_items: Option<Spanned<u64>>,
    pub max_items: Option<Spanned<u64>>,
    pub unique_items: Option<Span>,
    pub default: Option<Spanned<Value>>,
    pub with: Option<Spanned<Type>>,
    /// The field's constraints that a provider's dialect moves into words are fine as
    /// words: the build script's `dialect-weakened` says nothing of them.
    pub allow_weakened: Option<Span>,
    /// `header = "Name"`: the property is mirrored in the HTTP header `Mcp-Param-Name`
    /// (MCP's SEP-2243; rule `header-attr`), at the name's literal.
    pub header: Option<Spanned<String>>,
}

impl SchemaAttrs {
    /// The keywords this item adds to its schema, in a fixed order.
    #[must_use]
    pub fn keywords(&self) -> serde_json::Map<String, Value> {
        let mut m = serde_json::Map::new();
        let mut put = |k: &str, v: Value| {
            m.insert(k.to_owned(), v);
        };
        if let Some(v) = &self.title {
            put("title", Value::String(v.value.clone()));
        }
        if let Some(v) = &self.description {
            put("description", Value::String(v.value.clone()));
        }
        for (k, v) in [
            ("minimum", &self.minimum),
            ("maximum", &self.maximum),
            ("exclusiveMinimum", &self.exclusive_minimum),
            ("exclusiveMaximum", &self.exclusive_maximum),
            ("multipleOf", &self.multiple_of),
        ] {
            if let Some(v) = v {
                put(k, Value::Number(v.value.clone()));
            }
        }
        for (k, v) in [
            ("minLength", &self.min_length),
            ("maxLength", &self.max_length),
            ("minItems", &self.min_items),
            ("maxItems", &self.max_items),
        ] {
            if let Some(v) = v {
                put(k, Value::from(v.value));
            }
        }
        if let Some(v) = &self.pattern {
            put("pattern", Value::String(v.value.clone()));
        }
        if let Some(v) = &self.format {
            put("format", Value::String(v.value.clone()));
        }
        if self.unique_items.is_some() {
            put("uniqueItems", Value::Bool(true));
        }
        if let Some(v) = &self.default {
            put("default", v.value.clone());
        }
        if let Some(v) = &self.examples {
            put(
                "examples",
                Value::Array(v.value.iter().map(|e| e.value.clone()).collect()),
            );
        }
        if self.deprecated.is_some() {
            put("deprecated", Value::Bool(true));
        }
        m
    }
}

/// Parses every `#[schema(...)]` attribute of an item written at `scope`.
pub fn parse(cx: &Ctxt, attrs: &[Attribute], scope: Scope) -> SchemaAttrs {
    let mut out = SchemaAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("schema")) {
        let result = attr.parse_nested_meta(|meta| parse_key(cx, &mut out, &meta, scope));
        if let Err(e) = result {
            cx.error_at(
                RuleId::SchemaAttr,
                e.span(),
                format_args!("malformed `#[schema(...)]`: {e}"),
                "write `#[schema(key = value, flag)]`; see the `#[schema]` reference for the keys",
            );
        }
    }
    if let Some(path) = attrs
        .iter()
        .find(|a| a.path().is_ident("deprecated"))
        .map(|a| a.path().span())
    {
        out.deprecated.get_or_insert(path);
    }
    out
}

/// The key of `#[schema(...)]` being read: its name and span, for its diagnostics.
struct Key<'a> {
    cx: &'a Ctxt,
    name: &'a str,
    span: Span,
}

impl Key<'_> {
    /// `schema-attr` when the key was already given (`taken`).
    fn check_once(&self, taken: bool) {
        if taken {
            self.cx.error_at(
                RuleId::SchemaAttr,
                self.span,
                format_args!("duplicate key `{}` in `#[schema(...)]`", self.name),
                "give each key once",
            );
        }
    }
}

/// Reads one `key` or `key = value` of a `#[schema(...)]` attribute into `out`.
fn parse_key(
    cx: &Ctxt,
    out: &mut SchemaAttrs,
    meta: &ParseNestedMeta,
    scope: Scope,
) -> syn::Result<()> {
    let name = meta
        .path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default();
    let key = Key {
        cx,
        name: &name,
        span: meta.path.span(),
    };
    if !key_applies(&key, meta, scope)? {
        return Ok(());
    }
    match key.name {
        "root" | "elicitation" | "deprecated" | "unique_items" | "allow_weakened" => {
            parse_flag(&key, out);
        }
        "crate" => {
            let s: LitStr = meta.value()?.parse()?;
            key.check_once(out.krate.is_some());
            out.krate = Some(Spanned::new(s.parse()?, key.span));
        }
        "title" | "description" | "pattern" | "format" => parse_text(&key, out, meta)?,
        "minimum" | "maximum" | "exclusive_minimum" | "exclusive_maximum" | "multiple_of" => {
            parse_number(&key, out, meta)?;
        }
        "min_length" | "max_length" | "min_items" | "max_items" => {
            parse_count(&key, out, meta)?;
        }
        "default" => parse_default(&key, out, meta)?,
        "examples" => parse_examples(&key, out, meta)?,
        "header" => parse_header(&key, out, meta)?,
        "with" => parse_with(&key, out, meta)?,
        _ => skip_value(meta)?,
    }
    Ok(())
}

/// Whether `key` is a `#[schema]` key that applies at `scope`. When it is not, its value
/// is skipped and `schema-attr` names the keys accepted here, or where the key applies.
fn key_applies(key: &Key, meta: &ParseNestedMeta, scope: Scope) -> syn::Result<bool> {
    let Key { cx, name, span } = *key;
    let Some((_, scopes)) = SCHEMA_KEYS.iter().find(|(k, _)| *k == name) else {
        skip_value(meta)?;
        let keys: Vec<&str> = SCHEMA_KEYS
            .iter()
            .filter(|(_, s)| s.contains(&scope))
            .map(|(k, _)| *k)
            .collect();
        let help = did_you_mean(name, &keys).map_or_else(
            || format!("the keys accepted here are `{}`", keys.join("`, `")),
            |k| format!("did you mean `{k}`?"),
        );
        cx.error_at(
            RuleId::SchemaAttr,
            span,
            format_args!("unknown key `{name}` in `#[schema(...)]`"),
            help,
        );
        return Ok(false);
    };
    if !scopes.contains(&scope) {
        skip_value(meta)?;
        let places: Vec<&str> = scopes.iter().map(|s| s.as_str()).collect();
        cx.error_at(
            RuleId::SchemaAttr,
            span,
            format_args!(
                "`{name}` does not apply to a {}, only to a {}",
                scope.as_str(),
                places.join(" or ")
            ),
            "move the key to where it applies",
        );
        return Ok(false);
    }
    Ok(true)
}

/// A key written alone: `root`, `elicitation`, `deprecated`, `unique_items`,
/// `allow_weakened`.
fn parse_flag(key: &Key, out: &mut SchemaAttrs) {
    let slot = match key.name {
        "root" => &mut out.root,
        "elicitation" => &mut out.elicitation,
        "deprecated" => &mut out.deprecated,
        "unique_items" => &mut out.unique_items,
        _ => &mut out.allow_weakened,
    };
    key.check_once(slot.is_some());
    *slot = Some(key.span);
}

/// A string key: `title`, `description`, `pattern` (which must be a regex), `format`.
fn parse_text(key: &Key, out: &mut SchemaAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    let s: LitStr = meta.value()?.parse()?;
    let slot = match key.name {
        "title" => &mut out.title,
        "description" => &mut out.description,
        "pattern" => &mut out.pattern,
        _ => &mut out.format,
    };
    key.check_once(slot.is_some());
    if key.name == "pattern"
        && let Err(e) = regex::Regex::new(&s.value())
    {
        let first = e.to_string();
        let last = first.lines().last().unwrap_or_default().trim();
        let detail = last.strip_prefix("error: ").unwrap_or(last);
        key.cx.error_at(
            RuleId::SchemaAttr,
            s.span(),
            format_args!("`pattern` is not a valid regex: {detail}"),
            "fix the regular expression (the Rust `regex` syntax, which the platform's ECMA-262 engine also reads)",
        );
    }
    *slot = Some(Spanned::new(s.value(), key.span));
    Ok(())
}

/// A numeric bound: `minimum`, `maximum`, `exclusive_minimum`, `exclusive_maximum`,
/// `multiple_of`.
fn parse_number(key: &Key, out: &mut SchemaAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    let expr: Expr = meta.value()?.parse()?;
    let slot = match key.name {
        "minimum" => &mut out.minimum,
        "maximum" => &mut out.maximum,
        "exclusive_minimum" => &mut out.exclusive_minimum,
        "exclusive_maximum" => &mut out.exclusive_maximum,
        _ => &mut out.multiple_of,
    };
    key.check_once(slot.is_some());
    match to_json(&expr) {
        Ok(Value::Number(n)) => *slot = Some(Spanned::new(n, key.span)),
        _ => key.cx.error(
            RuleId::SchemaAttr,
            &expr,
            format_args!("`{k}` takes a number, for example `{k} = 1`", k = key.name),
        ),
    }
    Ok(())
}

/// A length or item count: `min_length`, `max_length`, `min_items`, `max_items`.
fn parse_count(key: &Key, out: &mut SchemaAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    let expr: Expr = meta.value()?.parse()?;
    let slot = match key.name {
        "min_length" => &mut out.min_length,
        "max_length" => &mut out.max_length,
        "min_items" => &mut out.min_items,
        _ => &mut out.max_items,
    };
    key.check_once(slot.is_some());
    match to_json(&expr).ok().as_ref().and_then(Value::as_u64) {
        Some(n) => *slot = Some(Spanned::new(n, key.span)),
        None => key.cx.error(
            RuleId::SchemaAttr,
            &expr,
            format_args!("`{}` takes a non-negative integer", key.name),
        ),
    }
    Ok(())
}

/// `default = value`: a literal, kept at the value's span.
fn parse_default(key: &Key, out: &mut SchemaAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    let expr: Expr = meta.value()?.parse()?;
    key.check_once(out.default.is_some());
    match to_json(&expr) {
        Ok(v) => out.default = Some(Spanned::new(v, expr.span())),
        Err(e) => key.cx.push(e),
    }
    Ok(())
}

/// `examples = [...]`: an array of literals, each kept at its own span.
fn parse_examples(key: &Key, out: &mut SchemaAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    let expr: Expr = meta.value()?.parse()?;
    key.check_once(out.examples.is_some());
    if let Expr::Array(array) = &expr {
        let mut items = Vec::new();
        for elem in &array.elems {
            match to_json(elem) {
                Ok(v) => items.push(Spanned::new(v, elem.span())),
                Err(e) => key.cx.push(e),
            }
        }
        out.examples = Some(Spanned::new(items, key.span));
    } else {
        key.cx.error(
            RuleId::SchemaAttr,
            &expr,
            "`examples` takes an array, for example `examples = [\"Lisbon\"]`",
        );
    }
    Ok(())
}

/// `header = "Name"`: an HTTP header name, given once (rule `header-attr`).
fn parse_header(key: &Key, out: &mut SchemaAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    let s: LitStr = meta.value()?.parse()?;
    let name = s.value();
    if out.header.is_some() {
        key.cx.error_at(
            RuleId::HeaderAttr,
            key.span,
            "duplicate key `header` in `#[schema(...)]`",
            "mirror a property in one header",
        );
    } else if !neuralis_model::header::is_header_name(&name) {
        key.cx.error_at(
            RuleId::HeaderAttr,
            s.span(),
            format_args!(
                "`{name}` is not an HTTP header name (a token of ASCII letters, digits and ``!#$%&'*+-.^_`|~``)"
            ),
            "name the header with a token, for example `header = \"Region\"`: the client sends the value in `Mcp-Param-Region`",
        );
    } else {
        out.header = Some(Spanned::new(name, s.span()));
    }
    Ok(())
}

/// `with = Type` or `with = "Type"`: the type whose schema the field takes.
fn parse_with(key: &Key, out: &mut SchemaAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    let value = meta.value()?;
    let ty: Type = if value.peek(LitStr) {
        let s: LitStr = value.parse()?;
        s.parse()?
    } else {
        value.parse()?
    };
    key.check_once(out.with.is_some());
    out.with = Some(Spanned::new(ty, key.span));
    Ok(())
}

fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// A Rust literal expression as JSON: strings, numbers (negative too), booleans,
/// characters and arrays of those.
///
/// # Errors
///
/// `schema-attr` for anything else.
pub fn to_json(expr: &Expr) -> syn::Result<Value> {
    let bad = || {
        syn::Error::new(
            expr.span(),
            format!(
                "{}: a `#[schema]` value is a literal (string, number, `true`/`false`) or an array of literals\n= help: {}",
                RuleId::SchemaAttr,
                RuleId::SchemaAttr.rule().hint
            ),
        )
    };
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Str(s) => Ok(Value::String(s.value())),
            Lit::Char(c) => Ok(Value::String(c.value().to_string())),
            Lit::Bool(b) => Ok(Value::Bool(b.value)),
            Lit::Int(i) => {
                let digits = i.base10_digits();
                digits
                    .parse::<u64>()
                    .map(Value::from)
                    .or_else(|_| digits.parse::<f64>().map(Value::from))
                    .map_err(|_| bad())
            }
            Lit::Float(f) => f
                .base10_digits()
                .parse::<f64>()
                .ok()
                .and_then(Number::from_f64)
                .map(Value::Number)
                .ok_or_else(bad),
            _ => Err(bad()),
        },
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => match to_json(&u.expr)? {
            Value::Number(n) => {
                if let Some(i) = n.as_u64().and_then(|u| i64::try_from(u).ok()) {
                    Ok(Value::from(-i))
                } else {
                    n.as_f64()
                        .and_then(|f| Number::from_f64(-f))
                        .map(Value::Number)
                        .ok_or_else(bad)
                }
            }
            _ => Err(bad()),
        },
        Expr::Array(a) => a
            .elems
            .iter()
            .map(to_json)
            .collect::<syn::Result<_>>()
            .map(Value::Array),
        Expr::Group(g) => to_json(&g.expr),
        Expr::Paren(p) => to_json(&p.expr),
        _ => Err(bad()),
    }
}
