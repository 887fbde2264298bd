//! The `#[tool(...)]` grammar. Every value is read whole before it is judged, so one bad
//! value is reported and the rest of the list is still read.
//!
//! The keys of the `x-neuralis` block, their levels and kinds come from the model's one
//! table (`neuralis_model::xn::keys`): this module reads each key by its attribute name
//! into the block under its wire name, records where it was written, and types the block
//! as the model's `XNeuralis` at the end. Only `name` and `crate` are the attribute's own.

use neuralis_model::RuleId;
use neuralis_model::contract::push_pointer;
use neuralis_model::xn::verdict::Scan;
use neuralis_model::xn::{
    Category, KEYS, Key, Kind, Level, PRESENTATIONS, Presentation, XNeuralis,
};
use proc_macro2::{Span, TokenStream};
use serde_json::{Map, Value};
use syn::ext::IdentExt as _;
use syn::meta::ParseNestedMeta;
use syn::parse::{ParseStream, Parser as _};
use syn::spanned::Spanned as _;
use syn::{Expr, Lit, LitStr, Token};

use super::{DefaultValue, Place, Tool, Written, sig};
use crate::attr::docs::Docs;
use crate::attr::schema::to_json;
use crate::attr::{Spanned, did_you_mean};
use crate::report::Ctxt;

/// The attribute's own keys, before and after the block's in the list of accepted keys.
const NAME: &str = "name";
const CRATE: &str = "crate";

/// The keys accepted at `level`, as the attribute names them.
fn accepted(level: Level) -> Vec<&'static str> {
    let mut keys = level.attrs().to_vec();
    if level == Level::Block {
        keys.insert(0, NAME);
        keys.push(super::bound::BOUND);
        keys.push(super::task::TASK);
        keys.push(super::task::TASK_START);
        keys.push(CRATE);
    }
    keys
}

/// How messages name a level: `#[tool(...)]`, `annotations(...)`.
fn label(level: Level) -> String {
    match level.key() {
        Some(key) => format!("{}(...)", key.attr),
        None => "#[tool(...)]".to_owned(),
    }
}

/// The JSON spellings of a key, and the near ones, that the attribute writes otherwise:
/// the wire name, its snake_case, an MCP hint without `Hint` (`readOnly`).
fn is_spelling_of(key: &Key, written: &str) -> bool {
    let snake: String = key
        .name
        .chars()
        .flat_map(|c| {
            let lower = c.to_ascii_lowercase();
            (c.is_ascii_uppercase().then_some('_').into_iter()).chain([lower])
        })
        .collect();
    written != key.attr
        && (written == key.name
            || written == snake
            || key.name.strip_suffix("Hint") == Some(written))
}

/// The block as the attribute writes it: each level's keys under their wire names.
#[derive(Default)]
struct Block {
    levels: Vec<(Level, Map<String, Value>)>,
}

impl Block {
    fn level(&mut self, level: Level) -> &mut Map<String, Value> {
        let i = match self.levels.iter().position(|(l, _)| *l == level) {
            Some(i) => i,
            None => {
                self.levels.push((level, Map::new()));
                self.levels.len() - 1
            }
        };
        &mut self.levels[i].1
    }

    /// The model's value of the block: the levels nested under their keys, typed.
    fn into_model(mut self, cx: &Ctxt) -> XNeuralis {
        let mut block = std::mem::take(self.level(Level::Block));
        for (level, map) in self.levels {
            if let Some(key) = level.key() {
                block.insert(key.name.to_owned(), Value::Object(map));
            }
        }
        // Every value was read by its kind, so the block types; should it not, say so
        // rather than emit a block the model refuses.
        match serde_json::from_value::<XNeuralis>(Value::Object(block)) {
            Ok(xn) => xn,
            Err(e) => {
                cx.error_at(
                    RuleId::XnType,
                    Span::call_site(),
                    format_args!("the `x-neuralis` block does not type: {e}"),
                    "this is a bug in neuralis-syntax, please report it",
                );
                XNeuralis::default()
            }
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
        xn: XNeuralis::default(),
        written: Written::default(),
        bound: super::bound::Bound::default(),
        task: super::task::Task::default(),
    };
    let mut block = Block::default();
    let parser = syn::meta::parser(|meta| top(cx, &mut tool, &mut block, &meta));
    if let Err(e) = parser.parse2(args) {
        cx.push(e);
    }
    tool.xn = block.into_model(cx);
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
            format_args!("`{key}` declares a recovery posture in `{}`", label(level)),
            RuleId::XnRecoveryField.rule().hint,
        );
        return Ok(());
    }
    // A JSON spelling of a key, here or at another level.
    let spelled = KEYS.iter().find(|k| is_spelling_of(k, key));
    // The attribute's name of a key of another list.
    let elsewhere = KEYS
        .iter()
        .find(|k| k.attr == key && k.level != level && k.level != Level::Block);
    let keys = accepted(level);
    let help = if let Some(k) = spelled {
        if k.level == level {
            format!(
                "did you mean `{}`? keys are written in snake_case in the attribute",
                k.attr
            )
        } else if let Some(list) = k.level.key() {
            format!(
                "did you mean `{}({})`? keys are written in snake_case in the attribute",
                list.attr, k.attr
            )
        } else {
            format!("did you mean `{}`, directly in `#[tool(...)]`?", k.attr)
        }
    } else if let Some(k) = elsewhere {
        format!("`{key}` belongs in `{}`", label(k.level))
    } else if let Some(k) = did_you_mean(key, &keys) {
        format!("did you mean `{k}`?")
    } else {
        format!("the keys accepted here are `{}`", keys.join("`, `"))
    };
    cx.error_at(
        RuleId::XnUnknownKey,
        span,
        format_args!("unknown key `{key}` in `{}`", label(level)),
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

fn top(cx: &Ctxt, tool: &mut Tool, block: &mut Block, meta: &ParseNestedMeta) -> syn::Result<()> {
    let (key, span) = key_of(meta);
    match key.as_str() {
        NAME => {
            if let Some(v) = string(cx, meta, &key, "name = \"weather_forecast\"")? {
                duplicate(cx, tool.name_explicit, &key, span);
                tool.name = v;
                tool.name_explicit = true;
            }
        }
        CRATE => {
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
        super::bound::BOUND => super::bound::parse(cx, meta, &mut tool.bound)?,
        super::task::TASK | super::task::TASK_START => {
            super::task::parse(cx, meta, &key, &mut tool.task)?;
        }
        _ => entry(cx, &mut tool.written, block, Level::Block, meta)?,
    }
    Ok(())
}

/// One key of `level`, read by its kind into `block`, with where it was written.
fn entry(
    cx: &Ctxt,
    written: &mut Written,
    block: &mut Block,
    level: Level,
    meta: &ParseNestedMeta,
) -> syn::Result<()> {
    let (name, span) = key_of(meta);
    let Some(key) = level.find_attr(&name) else {
        return unknown(cx, meta, level, &name, span);
    };
    let pointer = key.pointer();
    let taken = written.place(&pointer).is_some();
    let mut place = Place {
        pointer,
        key: span,
        value: None,
        accepted: false,
    };
    let value = match key.kind {
        Kind::Level(inner) => {
            // The list's own key is written before what it holds.
            duplicate(cx, taken, key.attr, span);
            place.accepted = meta.input.peek(syn::token::Paren);
            written.push(place);
            if meta.input.peek(syn::token::Paren) {
                block.level(inner);
                meta.parse_nested_meta(|inner_meta| entry(cx, written, block, inner, &inner_meta))?;
            } else {
                skip_value(meta)?;
                cx.error_at(
                    RuleId::XnType,
                    span,
                    format_args!("`{0}` takes a list: `{0}(...)`", key.attr),
                    RuleId::XnType.rule().hint,
                );
            }
            return Ok(());
        }
        // A string: its literal is the value's token.
        Kind::Text => string(cx, meta, key.attr, &key.attr_example())?
            .map(|s| (Value::String(s.value), Some(s.span))),
        Kind::Category => string(cx, meta, key.attr, &key.attr_example())?
            .filter(|s| category(cx, s))
            .map(|s| (Value::String(s.value), Some(s.span))),
        Kind::Presentation => string(cx, meta, key.attr, &key.attr_example())?
            .filter(|s| presentation(cx, key, s))
            .map(|s| (Value::String(s.value), Some(s.span))),
        // A flag and a count are placed at their key, as their own errors are.
        Kind::Flag => boolean(cx, meta, key.attr)?.map(|b| (Value::Bool(b.value), None)),
        Kind::Count => count(cx, meta, key)?.map(|n| (n, None)),
        Kind::Defaults => {
            let entries = parens(cx, meta, key, |input| defaults(cx, key, input))?;
            entries.map(|entries| {
                let mut map = Map::new();
                for d in entries {
                    written.push(Place {
                        pointer: push_pointer(&place.pointer, &d.key.value),
                        key: d.key.span,
                        value: Some(d.value.span),
                        accepted: true,
                    });
                    map.insert(d.key.value, d.value.value);
                }
                (Value::Object(map), None)
            })
        }
        Kind::Keys | Kind::Entries => {
            let idents = key.kind == Kind::Keys;
            let list = parens(cx, meta, key, |input| strings(cx, input, idents))?;
            list.map(|list| {
                if key.kind == Kind::Entries {
                    entries(cx, key, &list);
                }
                for (i, item) in list.iter().enumerate() {
                    written.push(Place {
                        pointer: push_pointer(&place.pointer, &i.to_string()),
                        key: item.span,
                        value: None,
                        accepted: true,
                    });
                }
                let items = list.into_iter().map(|s| Value::String(s.value)).collect();
                (Value::Array(items), None)
            })
        }
    };
    duplicate(cx, taken, key.attr, span);
    if let Some((value, at)) = value {
        place.accepted = true;
        place.value = at;
        block.level(level).insert(key.name.to_owned(), value);
    }
    written.push(place);
    Ok(())
}

/// `category-invalid`: whether `c` names a category; reports it when not.
fn category(cx: &Ctxt, c: &Spanned<String>) -> bool {
    if Category::from_wire(&c.value).is_some() {
        return true;
    }
    let names: Vec<&str> = Category::ALL.iter().map(|c| c.as_str()).collect();
    let help = did_you_mean(&c.value, &names).map_or_else(
        || RuleId::CategoryInvalid.rule().hint.to_owned(),
        |k| format!("did you mean `{k}`?"),
    );
    cx.error_at(
        RuleId::CategoryInvalid,
        c.span,
        format_args!("`{}` is not a category", c.value),
        help,
    );
    false
}

/// `xn-type` on `presentation`: whether `p` names a presentation; reports it when not.
fn presentation(cx: &Ctxt, key: &Key, p: &Spanned<String>) -> bool {
    if Presentation::from_wire(&p.value).is_some() {
        return true;
    }
    let help = did_you_mean(&p.value, PRESENTATIONS).map_or_else(
        || format!("use one of `{}`", PRESENTATIONS.join("`, `")),
        |k| format!("did you mean `{k}`?"),
    );
    cx.error_at(
        RuleId::XnType,
        p.span,
        format_args!("`{} = \"{}\"` is not a presentation", key.attr, p.value),
        help,
    );
    false
}

/// `key = 2000`: a non-negative integer, at the key's token.
fn count(cx: &Ctxt, meta: &ParseNestedMeta, key: &Key) -> syn::Result<Option<Value>> {
    let Some(expr) = value_expr(cx, meta, key.attr)? else {
        return Ok(None);
    };
    match to_json(&expr) {
        Ok(Value::Number(n)) if n.as_u64().is_some() => Ok(Some(Value::Number(n))),
        _ => {
            cx.error(
                RuleId::XnType,
                &expr,
                format_args!(
                    "`{}` takes a non-negative integer, for example `{}`",
                    key.attr,
                    key.attr_example()
                ),
            );
            Ok(None)
        }
    }
}

/// `xn-type` on a list of distinct, non-empty strings (`requires(features(...))`).
fn entries(cx: &Ctxt, key: &Key, list: &[Spanned<String>]) {
    let repeats = Scan::of(list.iter().map(|s| Some(s.value.as_str())), usize::MAX).repeats;
    for (i, item) in list.iter().enumerate() {
        if item.value.is_empty() {
            cx.error_at(
                RuleId::XnType,
                item.span,
                format_args!("`{}` lists an empty string", key.attr),
                "name the feature, or remove the entry",
            );
        } else if repeats.binary_search(&i).is_ok() {
            cx.error_at(
                RuleId::XnType,
                item.span,
                format_args!("`{}` lists `{}` twice", key.attr, item.value),
                "list each entry once",
            );
        }
    }
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
    key: &Key,
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
        format_args!(
            "`{}` takes a list, for example `{}`",
            key.attr,
            key.attr_example()
        ),
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
fn defaults(cx: &Ctxt, list: &Key, input: ParseStream) -> syn::Result<Vec<DefaultValue>> {
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
                format_args!("`{}` gives `{}` twice", list.attr, key.value),
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

pub(super) fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
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
    fn the_json_spellings_of_keys_are_recognized() {
        let spelled = |written: &str| {
            KEYS.iter()
                .find(|k| is_spelling_of(k, written))
                .map(|k| k.attr)
        };
        // Every wire name the attribute spells otherwise.
        for key in KEYS.iter().filter(|k| k.name != k.attr) {
            assert_eq!(spelled(key.name), Some(key.attr));
        }
        // And the near spellings.
        assert_eq!(spelled("read_only_hint"), Some("read_only"));
        assert_eq!(spelled("readOnly"), Some("read_only"));
        assert_eq!(spelled("openWorld"), Some("open_world"));
        // The attribute's own names are no misspelling.
        assert_eq!(spelled("destructive"), None);
        assert_eq!(spelled("title"), None);
    }
}
