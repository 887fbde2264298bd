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

/// Parses every `#[serde(...)]` attribute of an item written at `scope`, for the half of
/// serde `direction` names (the other half's findings are dropped).
pub fn parse_for(cx: &Ctxt, attrs: &[Attribute], scope: Scope, direction: Direction) -> SerdeAttrs {
    let other = Ctxt::new();
    let both = match direction {
        Direction::Deserialize => parse_both(cx, &other, attrs, scope),
        Direction::Serialize => parse_both(&other, cx, attrs, scope),
    };
    // What the other half finds is not this model's.
    let _ = other.check();
    both.get(direction)
}

/// Both halves of serde's attributes of one item: what serde reads and what it writes.
#[derive(Debug, Clone, Default)]
pub struct Both {
    /// What serde reads ([`Direction::Deserialize`]).
    pub read: SerdeAttrs,
    /// What serde writes ([`Direction::Serialize`]).
    pub written: SerdeAttrs,
}

impl Both {
    /// The half `direction` names.
    #[must_use]
    pub fn get(self, direction: Direction) -> SerdeAttrs {
        match direction {
            Direction::Deserialize => self.read,
            Direction::Serialize => self.written,
        }
    }
}

/// Parses every `#[serde(...)]` attribute of an item written at `scope` once, for both
/// halves of serde: what it reads (its findings reported to `read_cx`) and what it writes
/// (to `written_cx`). A malformed attribute is reported to both.
pub fn parse_both(read_cx: &Ctxt, written_cx: &Ctxt, attrs: &[Attribute], scope: Scope) -> Both {
    let mut both = Both {
        read: SerdeAttrs {
            direction: Direction::Deserialize,
            ..SerdeAttrs::default()
        },
        written: SerdeAttrs {
            direction: Direction::Serialize,
            ..SerdeAttrs::default()
        },
    };
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let result = attr.parse_nested_meta(|meta| {
            let Some(ident) = meta.path.get_ident() else {
                skip_value(&meta)?;
                for cx in [read_cx, written_cx] {
                    cx.error(
                        RuleId::SerdeUnsupported,
                        &meta.path,
                        "this serde attribute is not modelled by the toolkit",
                    );
                }
                return Ok(());
            };
            let key = Key {
                ident,
                name: ident.to_string(),
                scope,
            };
            let given = Given::read(&meta, &key)?;
            read_key(read_cx, &key, &given, &mut both.read);
            written_key(written_cx, &meta.path, &key, &given, &mut both.written);
            Ok(())
        });
        if let Err(e) = result {
            for cx in [read_cx, written_cx] {
                cx.error_at(
                    RuleId::SerdeUnsupported,
                    e.span(),
                    format_args!("malformed `#[serde(...)]`: {e}"),
                    "fix the attribute as serde documents it",
                );
            }
        }
    }
    both
}

/// One key of a `#[serde(...)]` attribute, and where the attribute is.
struct Key<'a> {
    ident: &'a syn::Ident,
    name: String,
    scope: Scope,
}

impl Key<'_> {
    fn at(&self, scopes: &[Scope]) -> bool {
        scopes.contains(&self.scope)
    }

    fn span(&self) -> Span {
        self.ident.span()
    }
}

/// A key's value, read once for both halves.
enum Given {
    /// A flag, or a value that does not matter (consumed).
    Nothing,
    /// `key = "..."`.
    Str(Spanned<String>),
    /// `key = "x"` (both halves `x`) or `key(serialize = "a", deserialize = "b")`.
    Halves {
        serialize: Option<Spanned<String>>,
        deserialize: Option<Spanned<String>>,
    },
}

impl Given {
    /// The value of `key`, in the form the key takes where it is written.
    fn read(meta: &ParseNestedMeta, key: &Key) -> syn::Result<Given> {
        Ok(match key.name.as_str() {
            "rename" => halves(meta)?,
            "rename_all" if key.at(&[Scope::Container, Scope::Variant]) => halves(meta)?,
            "rename_all_fields" if key.at(&[Scope::Container]) => halves(meta)?,
            "alias" if key.at(&[Scope::Variant, Scope::Field]) => Given::Str(string(meta)?),
            "tag" | "content" if key.at(&[Scope::Container]) => Given::Str(string(meta)?),
            "skip_serializing_if" if key.at(&[Scope::Field]) => Given::Str(string(meta)?),
            _ => {
                skip_value(meta)?;
                Given::Nothing
            }
        })
    }

    fn half(&self, direction: Direction) -> Option<Spanned<String>> {
        match (self, direction) {
            (Given::Halves { deserialize, .. }, Direction::Deserialize) => deserialize.clone(),
            (Given::Halves { serialize, .. }, Direction::Serialize) => serialize.clone(),
            (Given::Str(s), _) => Some(s.clone()),
            (Given::Nothing, _) => None,
        }
    }
}

/// `key = "x"`.
fn string(meta: &ParseNestedMeta) -> syn::Result<Spanned<String>> {
    let s: LitStr = meta.value()?.parse()?;
    Ok(Spanned::new(s.value(), s.span()))
}

/// `key = "x"` or `key(serialize = "a", deserialize = "b")`.
fn halves(meta: &ParseNestedMeta) -> syn::Result<Given> {
    if meta.input.peek(Token![=]) {
        let s = string(meta)?;
        return Ok(Given::Halves {
            serialize: Some(s.clone()),
            deserialize: Some(s),
        });
    }
    let (mut serialize, mut deserialize) = (None, None);
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("serialize") {
            serialize = Some(string(&inner)?);
        } else if inner.path.is_ident("deserialize") {
            deserialize = Some(string(&inner)?);
        } else {
            return Err(inner.error("expected `serialize` or `deserialize`"));
        }
        Ok(())
    })?;
    Ok(Given::Halves {
        serialize,
        deserialize,
    })
}

/// A renaming rule's name as a rule, or its error reported.
fn rule(cx: &Ctxt, name: Option<Spanned<String>>) -> Option<Spanned<RenameRule>> {
    let s = name?;
    match RenameRule::parse(&s.value) {
        Some(rule) => Some(Spanned::new(rule, s.span)),
        None => {
            cx.error_at(
                RuleId::SerdeUnsupported,
                s.span,
                UnknownRule(&s.value),
                "use one of the styles serde offers",
            );
            None
        }
    }
}

/// One key, for what serde reads.
fn read_key(cx: &Ctxt, key: &Key, given: &Given, out: &mut SerdeAttrs) {
    let half = || given.half(Direction::Deserialize);
    let span = key.span();
    match key.name.as_str() {
        "rename" => out.rename = half().or(out.rename.take()),
        "alias" if key.at(&[Scope::Variant, Scope::Field]) => out.aliases.extend(half()),
        "rename_all" if key.at(&[Scope::Container, Scope::Variant]) => {
            out.rename_all = rule(cx, half()).or(out.rename_all.take());
        }
        "rename_all_fields" if key.at(&[Scope::Container]) => {
            out.rename_all_fields = rule(cx, half()).or(out.rename_all_fields.take());
        }
        "deny_unknown_fields" if key.at(&[Scope::Container]) => out.deny_unknown_fields = true,
        "default" if key.at(&[Scope::Container, Scope::Field]) => out.default = Some(span),
        "skip" | "skip_deserializing" if key.at(&[Scope::Variant, Scope::Field]) => {
            out.skip = Some(span);
        }
        "with" | "deserialize_with" if key.at(&[Scope::Variant, Scope::Field]) => {
            out.with = Some(span);
        }
        _ => shared_key(cx, key, given, out),
    }
}

/// One key, for what serde writes: the keys whose meaning differs from what serde reads,
/// then the shared ones.
fn written_key(cx: &Ctxt, path: &syn::Path, key: &Key, given: &Given, out: &mut SerdeAttrs) {
    let half = || given.half(Direction::Serialize);
    let span = key.span();
    match key.name.as_str() {
        "rename" => out.rename = half().or(out.rename.take()),
        "rename_all" if key.at(&[Scope::Container, Scope::Variant]) => {
            out.rename_all = rule(cx, half()).or(out.rename_all.take());
        }
        "rename_all_fields" if key.at(&[Scope::Container]) => {
            out.rename_all_fields = rule(cx, half()).or(out.rename_all_fields.take());
        }
        "skip" | "skip_serializing" if key.at(&[Scope::Variant, Scope::Field]) => {
            out.skip = Some(span);
        }
        "skip_serializing_if" if key.at(&[Scope::Field]) => {
            let path = half().map(|s| s.value.replace(' ', "")).unwrap_or_default();
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
        "with" | "serialize_with" if key.at(&[Scope::Variant, Scope::Field]) => {
            out.with = Some(span);
        }
        "into" if key.at(&[Scope::Container]) => {
            cx.error_with_help(
                RuleId::SerdeUnsupported,
                path,
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
        | "other" => {}
        _ => shared_key(cx, key, given, out),
    }
}

/// The keys that mean the same for both halves, the ones accepted with no effect, and the
/// refusal of any other.
fn shared_key(cx: &Ctxt, key: &Key, given: &Given, out: &mut SerdeAttrs) {
    let span = key.span();
    let name = key.name.as_str();
    match name {
        "tag" if key.at(&[Scope::Container]) => out.tag = given.half(out.direction),
        "content" if key.at(&[Scope::Container]) => out.content = given.half(out.direction),
        "untagged" if key.at(&[Scope::Container]) => out.untagged = Some(span),
        "transparent" if key.at(&[Scope::Container]) => out.transparent = Some(span),
        "flatten" if key.at(&[Scope::Field]) => out.flatten = Some(span),
        _ if IGNORED
            .iter()
            .any(|(k, s)| *k == name && s.contains(&key.scope)) => {}
        _ => cx.error_with_help(
            RuleId::SerdeUnsupported,
            key.ident,
            format_args!(
                "`#[serde({name})]` on a {} is not modelled by the toolkit",
                key.scope.as_str()
            ),
            unsupported_help(name),
        ),
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
