//! The `#[tool(...)]` grammar. Every value is read whole before it is judged, so one bad
//! value is reported and the rest of the list is still read.

use neuralis_model::RuleId;
use proc_macro2::{Span, TokenStream};
use serde_json::Value;
use syn::ext::IdentExt as _;
use syn::meta::ParseNestedMeta;
use syn::parse::{ParseStream, Parser as _};
use syn::spanned::Spanned as _;
use syn::{Expr, Lit, LitStr, Token};

use super::{Annotations, DefaultValue, Requires, Tool, Ui, sig};
use crate::attr::docs::Docs;
use crate::attr::schema::to_json;
use crate::attr::{Spanned, did_you_mean};
use crate::report::Ctxt;

/// The keys of each level, in Rust form.
pub(super) const TOP_KEYS: &[&str] = &[
    "name",
    "family",
    "operation",
    "transport",
    "defaults",
    "annotations",
    "ui",
    "requires",
    "ask_on_keys",
    "crate",
];
pub(super) const ANNOTATION_KEYS: &[&str] = &[
    "title",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "category",
    "estimated_duration_ms",
    "cancellable",
];
pub(super) const UI_KEYS: &[&str] = &["presentation", "card_type", "icon"];
pub(super) const REQUIRES_KEYS: &[&str] = &["features", "escalations"];

/// JSON spellings (and near spellings) of keys, with their Rust form.
const ALIASES: &[(&str, &str)] = &[
    ("readOnlyHint", "read_only"),
    ("read_only_hint", "read_only"),
    ("readOnly", "read_only"),
    ("destructiveHint", "destructive"),
    ("destructive_hint", "destructive"),
    ("idempotentHint", "idempotent"),
    ("idempotent_hint", "idempotent"),
    ("openWorldHint", "open_world"),
    ("open_world_hint", "open_world"),
    ("openWorld", "open_world"),
    ("estimatedDurationMs", "estimated_duration_ms"),
    ("cardType", "card_type"),
    ("askOnKeys", "ask_on_keys"),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Top,
    Annotations,
    Ui,
    Requires,
}

impl Level {
    fn keys(self) -> &'static [&'static str] {
        match self {
            Level::Top => TOP_KEYS,
            Level::Annotations => ANNOTATION_KEYS,
            Level::Ui => UI_KEYS,
            Level::Requires => REQUIRES_KEYS,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Level::Top => "#[tool(...)]",
            Level::Annotations => "annotations(...)",
            Level::Ui => "ui(...)",
            Level::Requires => "requires(...)",
        }
    }
}

pub(super) fn parse(cx: &Ctxt, args: TokenStream, item: &syn::ItemFn, mode: sig::Mode) -> Tool {
    let ident = item.sig.ident.clone();
    let mut tool = Tool {
        name: Spanned::new(ident.unraw().to_string(), ident.span()),
        name_explicit: false,
        ident,
        service: None,
        vis: item.vis.clone(),
        input: None,
        params: Vec::new(),
        returns: sig::Returns::Missing,
        is_async: item.sig.asyncness.is_some(),
        docs: Docs::from_attrs(&item.attrs),
        krate: None,
        family: None,
        operation: None,
        transport: None,
        defaults: None,
        annotations: Annotations::default(),
        ui: Ui::default(),
        requires: Requires::default(),
        ask_on_keys: None,
    };
    let parser = syn::meta::parser(|meta| top(cx, &mut tool, &meta));
    if let Err(e) = parser.parse2(args) {
        cx.push(e);
    }
    sig::read(cx, &mut tool, &item.sig, mode);
    if let (sig::Mode::Method, Some(d)) = (mode, &item.modifiers.defaultness) {
        cx.error(
            RuleId::HandlerSignature,
            d,
            "a tool method cannot be `default`: the dispatch table calls this one method",
        );
    }
    tool
}

fn key_of(meta: &ParseNestedMeta) -> (String, Span) {
    let key = meta.path.get_ident().map_or_else(
        || {
            meta.path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect::<Vec<_>>()
                .join("::")
        },
        |i| i.unraw().to_string(),
    );
    (key, meta.path.span())
}

/// Reports a key this level does not know, and skips its value.
fn unknown(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    level: Level,
    key: &str,
    span: Span,
) -> syn::Result<()> {
    skip_value(meta)?;
    if key
        .get(..8)
        .is_some_and(|p| p.eq_ignore_ascii_case("recovery"))
    {
        cx.error_at(
            RuleId::XnRecoveryField,
            span,
            format_args!("`{key}` declares a recovery posture in `{}`", level.label()),
            RuleId::XnRecoveryField.rule().hint,
        );
        return Ok(());
    }
    let alias = ALIASES
        .iter()
        .find(|(a, _)| *a == key)
        .map(|(_, rust)| *rust)
        .filter(|rust| level.keys().contains(rust));
    let elsewhere = [Level::Top, Level::Annotations, Level::Ui, Level::Requires]
        .into_iter()
        .filter(|l| *l != level)
        .find(|l| l.keys().contains(&key) && *l != Level::Top);
    let alias_elsewhere = ALIASES
        .iter()
        .find(|(a, _)| *a == key)
        .map(|(_, rust)| *rust)
        .and_then(|rust| {
            [Level::Top, Level::Annotations, Level::Ui]
                .into_iter()
                .find(|l| *l != level && l.keys().contains(&rust))
                .map(|l| (rust, l))
        });
    let help = if let Some(rust) = alias {
        format!("did you mean `{rust}`? keys are written in snake_case in the attribute")
    } else if let Some((rust, l)) = alias_elsewhere {
        if l == Level::Top {
            format!("did you mean `{rust}`, directly in `#[tool(...)]`?")
        } else {
            let list = l.label().trim_end_matches("(...)");
            format!(
                "did you mean `{list}({rust})`? keys are written in snake_case in the attribute"
            )
        }
    } else if let Some(l) = elsewhere {
        format!("`{key}` belongs in `{}`", l.label())
    } else if let Some(k) = did_you_mean(key, level.keys()) {
        format!("did you mean `{k}`?")
    } else {
        format!("the keys accepted here are `{}`", level.keys().join("`, `"))
    };
    cx.error_at(
        RuleId::XnUnknownKey,
        span,
        format_args!("unknown key `{key}` in `{}`", level.label()),
        help,
    );
    Ok(())
}

fn duplicate(cx: &Ctxt, taken: bool, key: &str, span: Span) {
    if taken {
        cx.error_at(
            RuleId::XnUnknownKey,
            span,
            format_args!("duplicate key `{key}`"),
            "give each key once",
        );
    }
}

fn top(cx: &Ctxt, tool: &mut Tool, meta: &ParseNestedMeta) -> syn::Result<()> {
    let (key, span) = key_of(meta);
    match key.as_str() {
        "name" => {
            if let Some(v) = string(cx, meta, &key, "name = \"weather_forecast\"")? {
                duplicate(cx, tool.name_explicit, &key, span);
                tool.name = v;
                tool.name_explicit = true;
            }
        }
        "crate" => {
            if let Some(v) = string(cx, meta, &key, "crate = \"my_neuralis\"")? {
                match syn::parse_str::<syn::Path>(&v.value) {
                    Ok(path) => tool.krate = Some(Spanned::new(path, v.span)),
                    Err(_) => cx.error_at(
                        RuleId::XnType,
                        v.span,
                        "`crate` takes a path, for example `crate = \"my_neuralis\"`",
                        "name the `neuralis` crate as your crate sees it",
                    ),
                }
            }
        }
        "family" | "operation" | "transport" => {
            let example = match key.as_str() {
                "family" => "family = \"weather\"",
                "operation" => "operation = \"weather.forecast\"",
                _ => "transport = \"embedded\"",
            };
            let v = string(cx, meta, &key, example)?;
            let slot = match key.as_str() {
                "family" => &mut tool.family,
                "operation" => &mut tool.operation,
                _ => &mut tool.transport,
            };
            duplicate(cx, slot.is_some(), &key, span);
            if v.is_some() {
                *slot = v;
            }
        }
        "defaults" => {
            let entries = parens(cx, meta, &key, "defaults(days = 3)", |input| {
                defaults(cx, input)
            })?;
            duplicate(cx, tool.defaults.is_some(), &key, span);
            if let Some(entries) = entries {
                tool.defaults = Some(Spanned::new(entries, span));
            }
        }
        "annotations" | "ui" | "requires" => {
            let level = match key.as_str() {
                "annotations" => Level::Annotations,
                "ui" => Level::Ui,
                _ => Level::Requires,
            };
            let taken = match level {
                Level::Annotations => tool.annotations.span.replace(span),
                Level::Ui => tool.ui.span.replace(span),
                _ => tool.requires.span.replace(span),
            };
            duplicate(cx, taken.is_some(), &key, span);
            if meta.input.peek(syn::token::Paren) {
                meta.parse_nested_meta(|inner| match level {
                    Level::Annotations => annotation(cx, &mut tool.annotations, &inner),
                    Level::Ui => ui(cx, &mut tool.ui, &inner),
                    _ => requires(cx, &mut tool.requires, &inner),
                })?;
            } else {
                skip_value(meta)?;
                cx.error_at(
                    RuleId::XnType,
                    span,
                    format_args!("`{key}` takes a list: `{key}(...)`"),
                    RuleId::XnType.rule().hint,
                );
            }
        }
        "ask_on_keys" => {
            let keys = parens(cx, meta, &key, "ask_on_keys(\"delete\")", |input| {
                strings(cx, input, true)
            })?;
            duplicate(cx, tool.ask_on_keys.is_some(), &key, span);
            if let Some(keys) = keys {
                tool.ask_on_keys = Some(Spanned::new(keys, span));
            }
        }
        _ => unknown(cx, meta, Level::Top, &key, span)?,
    }
    Ok(())
}

fn annotation(cx: &Ctxt, a: &mut Annotations, meta: &ParseNestedMeta) -> syn::Result<()> {
    let (key, span) = key_of(meta);
    match key.as_str() {
        "title" | "category" => {
            let example = if key == "title" {
                "title = \"Weather Forecast\""
            } else {
                "category = \"read\""
            };
            let v = string(cx, meta, &key, example)?;
            let slot = if key == "title" {
                &mut a.title
            } else {
                &mut a.category
            };
            duplicate(cx, slot.is_some(), &key, span);
            if v.is_some() {
                *slot = v;
            }
        }
        "read_only" | "destructive" | "idempotent" | "open_world" | "cancellable" => {
            let v = boolean(cx, meta, &key)?;
            let slot = match key.as_str() {
                "read_only" => &mut a.read_only,
                "destructive" => &mut a.destructive,
                "idempotent" => &mut a.idempotent,
                "open_world" => &mut a.open_world,
                _ => &mut a.cancellable,
            };
            duplicate(cx, slot.is_some(), &key, span);
            if v.is_some() {
                *slot = v;
            }
        }
        "estimated_duration_ms" => {
            let expr = value_expr(cx, meta, &key)?;
            duplicate(cx, a.estimated_duration_ms.is_some(), &key, span);
            match expr.as_ref().map(|e| (e, to_json(e).ok())) {
                Some((_, Some(Value::Number(n)))) if n.as_u64().is_some() => {
                    a.estimated_duration_ms = n.as_u64().map(|n| Spanned::new(n, span));
                }
                Some((e, _)) => cx.error(
                    RuleId::XnType,
                    e,
                    "`estimated_duration_ms` takes a non-negative integer, for example `estimated_duration_ms = 2000`",
                ),
                None => {}
            }
        }
        _ => unknown(cx, meta, Level::Annotations, &key, span)?,
    }
    Ok(())
}

fn ui(cx: &Ctxt, u: &mut Ui, meta: &ParseNestedMeta) -> syn::Result<()> {
    let (key, span) = key_of(meta);
    let (slot, example) = match key.as_str() {
        "presentation" => (&mut u.presentation, "presentation = \"card\""),
        "card_type" => (&mut u.card_type, "card_type = \"weather.result\""),
        "icon" => (&mut u.icon, "icon = \"cloud-sun\""),
        _ => return unknown(cx, meta, Level::Ui, &key, span),
    };
    let v = string(cx, meta, &key, example)?;
    duplicate(cx, slot.is_some(), &key, span);
    if let Some(v) = v {
        if key == "presentation" {
            let known = neuralis_model::contract::rules::known_keys::PRESENTATIONS;
            if !known.contains(&v.value.as_str()) {
                let help = did_you_mean(&v.value, known).map_or_else(
                    || format!("use one of `{}`", known.join("`, `")),
                    |k| format!("did you mean `{k}`?"),
                );
                cx.error_at(
                    RuleId::XnType,
                    v.span,
                    format_args!("`presentation = \"{}\"` is not a presentation", v.value),
                    help,
                );
            }
        }
        *slot = Some(v);
    }
    Ok(())
}

fn requires(cx: &Ctxt, r: &mut Requires, meta: &ParseNestedMeta) -> syn::Result<()> {
    let (key, span) = key_of(meta);
    let slot = match key.as_str() {
        "features" => &mut r.features,
        "escalations" => &mut r.escalations,
        _ => return unknown(cx, meta, Level::Requires, &key, span),
    };
    let example = format!("{key}(\"weather.read\")");
    let list = parens(cx, meta, &key, &example, |input| strings(cx, input, false))?;
    duplicate(cx, slot.is_some(), &key, span);
    if let Some(list) = list {
        for (i, item) in list.iter().enumerate() {
            if item.value.is_empty() {
                cx.error_at(
                    RuleId::XnType,
                    item.span,
                    format_args!("`{key}` lists an empty string"),
                    "name the feature, or remove the entry",
                );
            } else if list[..i].iter().any(|o| o.value == item.value) {
                cx.error_at(
                    RuleId::XnType,
                    item.span,
                    format_args!("`{key}` lists `{}` twice", item.value),
                    "list each entry once",
                );
            }
        }
        *slot = Some(Spanned::new(list, span));
    }
    Ok(())
}

/// `key = "string"`.
fn string(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
    example: &str,
) -> syn::Result<Option<Spanned<String>>> {
    let Some(expr) = value_expr(cx, meta, key)? else {
        return Ok(None);
    };
    if let Expr::Lit(syn::ExprLit {
        lit: Lit::Str(s), ..
    }) = &expr
    {
        return Ok(Some(Spanned::new(s.value(), s.span())));
    }
    cx.error(
        RuleId::XnType,
        &expr,
        format_args!("`{key}` takes a string, for example `{example}`"),
    );
    Ok(None)
}

/// `key` (true) or `key = true|false`.
fn boolean(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<Spanned<bool>>> {
    let span = meta.path.span();
    if !meta.input.peek(Token![=]) {
        if meta.input.peek(syn::token::Paren) {
            skip_value(meta)?;
            cx.error_at(
                RuleId::XnType,
                span,
                format_args!("`{key}` is a flag: write `{key}` or `{key} = false`"),
                RuleId::XnType.rule().hint,
            );
            return Ok(None);
        }
        return Ok(Some(Spanned::new(true, span)));
    }
    let expr: Expr = meta.value()?.parse()?;
    if let Expr::Lit(syn::ExprLit {
        lit: Lit::Bool(b), ..
    }) = &expr
    {
        return Ok(Some(Spanned::new(b.value, span)));
    }
    cx.error(
        RuleId::XnType,
        &expr,
        format_args!("`{key}` takes `true` or `false` (or write `{key}` alone for `true`)"),
    );
    Ok(None)
}

/// The expression after `=`, or an `xn-type` error when the key has no value.
fn value_expr(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<Expr>> {
    if meta.input.peek(Token![=]) {
        return Ok(Some(meta.value()?.parse()?));
    }
    skip_value(meta)?;
    cx.error_at(
        RuleId::XnType,
        meta.path.span(),
        format_args!("`{key}` takes a value: `{key} = ...`"),
        RuleId::XnType.rule().hint,
    );
    Ok(None)
}

/// `key(...)` read by `f`, or an `xn-type` error for another form.
fn parens<T>(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
    example: &str,
    f: impl FnOnce(ParseStream) -> syn::Result<T>,
) -> syn::Result<Option<T>> {
    if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        return f(&content).map(Some);
    }
    skip_value(meta)?;
    cx.error_at(
        RuleId::XnType,
        meta.path.span(),
        format_args!("`{key}` takes a list, for example `{example}`"),
        RuleId::XnType.rule().hint,
    );
    Ok(None)
}

/// `"a", "b"` (and bare identifiers when `idents`, for keys). Reads to the end.
fn strings(cx: &Ctxt, input: ParseStream, idents: bool) -> syn::Result<Vec<Spanned<String>>> {
    let mut out = Vec::new();
    while !input.is_empty() {
        if input.peek(LitStr) {
            let s: LitStr = input.parse()?;
            out.push(Spanned::new(s.value(), s.span()));
        } else if idents && input.peek(syn::Ident::peek_any) {
            let i = syn::Ident::parse_any(input)?;
            out.push(Spanned::new(i.unraw().to_string(), i.span()));
        } else {
            let expr: Expr = input.parse()?;
            cx.error(
                RuleId::XnType,
                &expr,
                if idents {
                    "a key is a string or an identifier, for example `\"delete\"`"
                } else {
                    "an entry is a string, for example `\"weather.read\"`"
                },
            );
        }
        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    Ok(out)
}

/// `key = value, "key-with-dash" = value`.
fn defaults(cx: &Ctxt, input: ParseStream) -> syn::Result<Vec<DefaultValue>> {
    let mut out: Vec<DefaultValue> = Vec::new();
    while !input.is_empty() {
        let key = if input.peek(LitStr) {
            let s: LitStr = input.parse()?;
            Spanned::new(s.value(), s.span())
        } else {
            let i = syn::Ident::parse_any(input)?;
            Spanned::new(i.unraw().to_string(), i.span())
        };
        input.parse::<Token![=]>()?;
        let expr: Expr = input.parse()?;
        if out.iter().any(|d| d.key.value == key.value) {
            cx.error_at(
                RuleId::DefaultsUndeclared,
                key.span,
                format_args!("`defaults` gives `{}` twice", key.value),
                "give each default once",
            );
        }
        match to_json(&expr) {
            Ok(v) => out.push(DefaultValue {
                key,
                value: Spanned::new(v, expr.span()),
            }),
            Err(_) => cx.error(
                RuleId::XnType,
                &expr,
                "a default is a literal: a string, a number, `true`/`false`, or an array of those",
            ),
        }
        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    Ok(out)
}

fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        let _: TokenStream = content.parse()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_name_known_keys() {
        for (_, rust) in ALIASES {
            assert!(
                ANNOTATION_KEYS.contains(rust) || UI_KEYS.contains(rust) || TOP_KEYS.contains(rust),
                "{rust}"
            );
        }
    }
}
