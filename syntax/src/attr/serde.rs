//! `#[serde(...)]`: the attributes that change what serde accepts (for an input) or writes
//! (for an output, [`Direction::Serialize`]) are modelled; the ones that only change the
//! other half are accepted; anything else is `serde-unsupported`.

use neuralis_model::RuleId;
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Attribute, LitStr, Token};

use super::{Direction, Scope, Spanned};
use crate::case::{RenameRule, UnknownRule};
use crate::report::Ctxt;

/// The serde attributes of one container, variant or field.
#[derive(Debug, Clone, Default)]
pub struct SerdeAttrs {
    /// `rename = "..."` or `rename(deserialize = "...")`: the name serde reads.
    pub rename: Option<Spanned<String>>,
    /// `alias = "..."`: extra names serde reads (not in the closed schema).
    pub aliases: Vec<Spanned<String>>,
    /// `rename_all = "..."` (its `deserialize` half).
    pub rename_all: Option<Spanned<RenameRule>>,
    /// `rename_all_fields = "..."` (enums).
    pub rename_all_fields: Option<Spanned<RenameRule>>,
    /// `deny_unknown_fields`.
    pub deny_unknown_fields: bool,
    /// `tag = "..."`.
    pub tag: Option<Spanned<String>>,
    /// `content = "..."`.
    pub content: Option<Spanned<String>>,
    /// `untagged`.
    pub untagged: Option<Span>,
    /// `default` or `default = "path"`.
    pub default: Option<Span>,
    /// `transparent`.
    pub transparent: Option<Span>,
    /// `flatten`.
    pub flatten: Option<Span>,
    /// `skip` or `skip_deserializing`: serde never reads it.
    pub skip: Option<Span>,
    /// `with = "..."` or `deserialize_with = "..."` (`serialize_with` for an output): the
    /// shape is the module's.
    pub with: Option<Span>,
    /// `skip_serializing_if = "..."` (outputs): the key may be absent.
    pub skip_if: Option<Span>,
    /// Whether that predicate is `Option::is_none`: the key is absent exactly when the
    /// value is `None`, so it is never `null`.
    pub skip_if_none: bool,
    /// The half of serde these attributes were read for.
    pub direction: Direction,
}

// Accepted with no effect on what serde reads.
const IGNORED: &[(&str, &[Scope])] = &[
    ("bound", &[Scope::Container, Scope::Variant, Scope::Field]),
    ("crate", &[Scope::Container]),
    ("expecting", &[Scope::Container]),
    ("into", &[Scope::Container]),
    ("skip_serializing", &[Scope::Variant, Scope::Field]),
    ("skip_serializing_if", &[Scope::Field]),
    ("serialize_with", &[Scope::Variant, Scope::Field]),
    ("borrow", &[Scope::Variant, Scope::Field]),
];

fn unsupported_help(key: &str) -> &'static str {
    match key {
        "from" | "try_from" => {
            "the accepted shape is the other type's: derive `ToolInput` on that type and take it as the input"
        }
        "remote" | "getter" => "derive `ToolInput` on a local type with the same fields",
        "other" => "list every variant; a catch-all variant accepts tags the schema cannot state",
        "untagged" => {
            "`untagged` on a single variant is not modelled: make the whole enum `untagged` or tag every variant"
        }
        "field_identifier" | "variant_identifier" => "use a unit-only enum",
        _ => RuleId::SerdeUnsupported.rule().hint,
    }
}

/// Parses every `#[serde(...)]` attribute of an item written at `scope`, for an input.
pub fn parse(cx: &Ctxt, attrs: &[Attribute], scope: Scope) -> SerdeAttrs {
    parse_for(cx, attrs, scope, Direction::Deserialize)
}

/// The keys whose meaning for an output differs from an input's; `Ok(true)` when `key`
/// was one of them (and is now read).
fn serialize_key(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
    scope: Scope,
    out: &mut SerdeAttrs,
) -> syn::Result<bool> {
    let span = meta.path.span();
    let at = |scopes: &[Scope]| scopes.contains(&scope);
    match key {
        "rename" => out.rename = half_str(meta, "serialize")?.or(out.rename.take()),
        "rename_all" if at(&[Scope::Container, Scope::Variant]) => {
            out.rename_all = half_rule(cx, meta, "serialize")?.or(out.rename_all.take());
        }
        "rename_all_fields" if at(&[Scope::Container]) => {
            out.rename_all_fields =
                half_rule(cx, meta, "serialize")?.or(out.rename_all_fields.take());
        }
        "skip" | "skip_serializing" if at(&[Scope::Variant, Scope::Field]) => {
            skip_value(meta)?;
            out.skip = Some(span);
        }
        "skip_serializing_if" if at(&[Scope::Field]) => {
            let s: LitStr = meta.value()?.parse()?;
            let path = s.value().replace(' ', "");
            out.skip_if_none = matches!(
                path.as_str(),
                "Option::is_none"
                    | "std::option::Option::is_none"
                    | "core::option::Option::is_none"
                    | "::std::option::Option::is_none"
                    | "::core::option::Option::is_none"
            );
            out.skip_if = Some(span);
        }
        "with" | "serialize_with" if at(&[Scope::Variant, Scope::Field]) => {
            skip_value(meta)?;
            out.with = Some(span);
        }
        "into" if at(&[Scope::Container]) => {
            skip_value(meta)?;
            cx.error_with_help(
                RuleId::SerdeUnsupported,
                &meta.path,
                "`#[serde(into = ...)]` makes serde write another type",
                "derive `ToolOutput` on that type and return it from the handler",
            );
        }
        // Only what serde reads: no effect on what it writes.
        "alias"
        | "default"
        | "skip_deserializing"
        | "deserialize_with"
        | "from"
        | "try_from"
        | "deny_unknown_fields"
        | "other" => skip_value(meta)?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// Parses every `#[serde(...)]` attribute of an item written at `scope`, for the half of
/// serde `direction` names.
pub fn parse_for(cx: &Ctxt, attrs: &[Attribute], scope: Scope, direction: Direction) -> SerdeAttrs {
    let mut out = SerdeAttrs {
        direction,
        ..SerdeAttrs::default()
    };
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let result = attr.parse_nested_meta(|meta| {
            let Some(ident) = meta.path.get_ident() else {
                skip_value(&meta)?;
                cx.error(
                    RuleId::SerdeUnsupported,
                    &meta.path,
                    "this serde attribute is not modelled by the toolkit",
                );
                return Ok(());
            };
            let key = ident.to_string();
            let span = ident.span();
            if direction == Direction::Serialize && serialize_key(cx, &meta, &key, scope, &mut out)?
            {
                return Ok(());
            }
            let at = |scopes: &[Scope]| scopes.contains(&scope);
            match key.as_str() {
                "rename" => out.rename = de_str(&meta)?.or(out.rename.take()),
                "alias" if at(&[Scope::Variant, Scope::Field]) => {
                    let s: LitStr = meta.value()?.parse()?;
                    out.aliases.push(Spanned::new(s.value(), s.span()));
                }
                "rename_all" if at(&[Scope::Container, Scope::Variant]) => {
                    out.rename_all = de_rule(cx, &meta)?.or(out.rename_all.take());
                }
                "rename_all_fields" if at(&[Scope::Container]) => {
                    out.rename_all_fields = de_rule(cx, &meta)?.or(out.rename_all_fields.take());
                }
                "deny_unknown_fields" if at(&[Scope::Container]) => out.deny_unknown_fields = true,
                "tag" if at(&[Scope::Container]) => {
                    let s: LitStr = meta.value()?.parse()?;
                    out.tag = Some(Spanned::new(s.value(), s.span()));
                }
                "content" if at(&[Scope::Container]) => {
                    let s: LitStr = meta.value()?.parse()?;
                    out.content = Some(Spanned::new(s.value(), s.span()));
                }
                "untagged" if at(&[Scope::Container]) => out.untagged = Some(span),
                "transparent" if at(&[Scope::Container]) => out.transparent = Some(span),
                "default" if at(&[Scope::Container, Scope::Field]) => {
                    skip_value(&meta)?;
                    out.default = Some(span);
                }
                "flatten" if at(&[Scope::Field]) => out.flatten = Some(span),
                "skip" | "skip_deserializing" if at(&[Scope::Variant, Scope::Field]) => {
                    out.skip = Some(span);
                }
                "with" | "deserialize_with" if at(&[Scope::Variant, Scope::Field]) => {
                    skip_value(&meta)?;
                    out.with = Some(span);
                }
                _ if IGNORED.iter().any(|(k, s)| *k == key && s.contains(&scope)) => {
                    skip_value(&meta)?;
                }
                _ => {
                    skip_value(&meta)?;
                    cx.error_with_help(
                        RuleId::SerdeUnsupported,
                        ident,
                        format_args!(
                            "`#[serde({key})]` on a {} is not modelled by the toolkit",
                            scope.as_str()
                        ),
                        unsupported_help(&key),
                    );
                }
            }
            Ok(())
        });
        if let Err(e) = result {
            cx.error_at(
                RuleId::SerdeUnsupported,
                e.span(),
                format_args!("malformed `#[serde(...)]`: {e}"),
                "fix the attribute as serde documents it",
            );
        }
    }
    out
}

/// `key = "x"` or `key(serialize = "a", deserialize = "b")`: the deserialize half.
fn de_str(meta: &ParseNestedMeta) -> syn::Result<Option<Spanned<String>>> {
    half_str(meta, "deserialize")
}

/// `key = "x"` or `key(serialize = "a", deserialize = "b")`: the half named `half`.
fn half_str(meta: &ParseNestedMeta, half: &str) -> syn::Result<Option<Spanned<String>>> {
    if meta.input.peek(Token![=]) {
        let s: LitStr = meta.value()?.parse()?;
        return Ok(Some(Spanned::new(s.value(), s.span())));
    }
    let mut found = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident(half) {
            let s: LitStr = inner.value()?.parse()?;
            found = Some(Spanned::new(s.value(), s.span()));
        } else if inner.path.is_ident("serialize") || inner.path.is_ident("deserialize") {
            let _: LitStr = inner.value()?.parse()?;
        } else {
            return Err(inner.error("expected `serialize` or `deserialize`"));
        }
        Ok(())
    })?;
    Ok(found)
}

fn de_rule(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Spanned<RenameRule>>> {
    half_rule(cx, meta, "deserialize")
}

fn half_rule(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    half: &str,
) -> syn::Result<Option<Spanned<RenameRule>>> {
    let Some(s) = half_str(meta, half)? else {
        return Ok(None);
    };
    match RenameRule::parse(&s.value) {
        Some(rule) => Ok(Some(Spanned::new(rule, s.span))),
        None => {
            cx.error_at(
                RuleId::SerdeUnsupported,
                s.span,
                UnknownRule(&s.value),
                "use one of the styles serde offers",
            );
            Ok(None)
        }
    }
}

/// Consumes `= value` or `(...)` after a key whose value does not matter.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let _: syn::Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// The span of a whole `#[serde(...)]` attribute, for errors about it as a whole.
#[must_use]
pub fn attr_span(attrs: &[Attribute]) -> Option<Span> {
    attrs
        .iter()
        .find(|a| a.path().is_ident("serde"))
        .map(|a| a.span())
}
