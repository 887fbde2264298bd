//! The model of a `#[derive(ToolInput)]` item: serde names, types, docs and `#[schema]`
//! keys, each node keeping its syntax for spans.

use neuralis_model::RuleId;
use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;
use syn::{DeriveInput, Fields, Ident, Member, Type};

use crate::attr::docs::Docs;
use crate::attr::schema::{self, SchemaAttrs};
use crate::attr::serde::{self, SerdeAttrs};
use crate::attr::{Direction, Scope, Spanned};
use crate::case::RenameRule;
use crate::report::Ctxt;
use crate::types::{Ty, TypeKind};

/// A struct or enum deriving `ToolInput`.
#[derive(Debug)]
pub struct Container<'a> {
    /// The item as written.
    pub original: &'a DeriveInput,
    /// Its name.
    pub ident: &'a Ident,
    /// `#[serde(...)]` on the item.
    pub serde: SerdeAttrs,
    /// `#[schema(...)]` on the item.
    pub schema: SchemaAttrs,
    /// The doc comment.
    pub docs: Docs,
    /// Fields or variants.
    pub data: Data<'a>,
}

/// The body of a container.
#[derive(Debug)]
pub enum Data<'a> {
    /// A struct.
    Struct(Style, Vec<Field<'a>>),
    /// An enum.
    Enum(Vec<Variant<'a>>),
}

/// How fields are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `{ a: T }`
    Named,
    /// `(T)`: one field, read as the field itself.
    Newtype,
    /// `(T, U)`
    Tuple,
    /// No fields.
    Unit,
}

/// A name as serde reads it, and how it came about.
#[derive(Debug, Clone)]
pub struct Name {
    /// The name in JSON.
    pub value: String,
    /// The token that decides it: the `rename` string, else the identifier.
    pub span: Span,
    /// How the name was derived.
    pub how: Renamed,
}

/// How a serde name was derived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Renamed {
    /// The Rust identifier as written.
    Ident,
    /// `#[serde(rename = "...")]`.
    Attr,
    /// A `rename_all` style.
    Rule(RenameRule),
}

/// An enum variant.
#[derive(Debug)]
pub struct Variant<'a> {
    /// The variant as written.
    pub original: &'a syn::Variant,
    /// Its serde name (the tag value).
    pub name: Name,
    /// `#[serde(...)]` on the variant.
    pub serde: SerdeAttrs,
    /// `#[schema(...)]` on the variant.
    pub schema: SchemaAttrs,
    /// The doc comment.
    pub docs: Docs,
    /// How its fields are written.
    pub style: Style,
    /// Its fields.
    pub fields: Vec<Field<'a>>,
}

/// A field of a struct or variant.
#[derive(Debug)]
pub struct Field<'a> {
    /// The field as written.
    pub original: &'a syn::Field,
    /// `a` or `0`.
    pub member: Member,
    /// Its serde name (unused for tuple fields).
    pub name: Name,
    /// The type whose schema the field has: `#[schema(with = T)]`, else its own type.
    pub ty: Type,
    /// What that type means as a schema.
    pub kind: TypeKind,
    /// `#[serde(...)]` on the field.
    pub serde: SerdeAttrs,
    /// `#[schema(...)]` on the field.
    pub schema: SchemaAttrs,
    /// The doc comment.
    pub docs: Docs,
}

impl Field<'_> {
    /// Whether serde never reads the field (`skip`, `skip_deserializing`).
    #[must_use]
    pub fn is_skipped(&self) -> bool {
        self.serde.skip.is_some()
    }

    /// Whether the key must be present. For an input: not `Option`, no serde `default`
    /// on the field or its container. For an output: no `skip_serializing_if` (serde
    /// writes an `Option` that is `None` as `null`).
    #[must_use]
    pub fn is_required(&self, container_default: bool) -> bool {
        match self.serde.direction {
            Direction::Deserialize => {
                !(container_default || self.serde.default.is_some() || self.kind.is_option())
            }
            Direction::Serialize => self.serde.skip_if.is_none(),
        }
    }
}

impl<'a> Container<'a> {
    /// Builds the model of an input; `None` when the item has no model at all (a union).
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Option<Self> {
        Self::from_ast_for(cx, input, Direction::Deserialize)
    }

    /// Builds the model of what serde reads or writes for the item (`direction`).
    pub fn from_ast_for(cx: &Ctxt, input: &'a DeriveInput, direction: Direction) -> Option<Self> {
        let serde = serde::parse_for(cx, &input.attrs, Scope::Container, direction);
        let schema = schema::parse(cx, &input.attrs, Scope::Container);
        let docs = Docs::from_attrs(&input.attrs);
        let data = match &input.data {
            syn::Data::Struct(s) => {
                let (style, fields) = fields_from_ast(
                    cx,
                    &s.fields,
                    serde.rename_all.as_ref().map(|r| r.value),
                    direction,
                );
                Data::Struct(style, fields)
            }
            syn::Data::Enum(e) => {
                let variants = e
                    .variants
                    .iter()
                    .map(|v| variant_from_ast(cx, v, &serde, direction))
                    .collect();
                Data::Enum(variants)
            }
            syn::Data::Union(u) => {
                cx.error(
                    RuleId::UnsupportedType,
                    u.union_token,
                    "a union has no schema: serde cannot derive its impls for it",
                );
                return None;
            }
        };
        Some(Self {
            original: input,
            ident: &input.ident,
            serde,
            schema,
            docs,
            data,
        })
    }

    /// Whether the author marked the type as a tool's root input (`#[schema(root)]`).
    #[must_use]
    pub fn is_root(&self) -> bool {
        self.schema.root.is_some()
    }
}

fn variant_from_ast<'a>(
    cx: &Ctxt,
    variant: &'a syn::Variant,
    container: &SerdeAttrs,
    direction: Direction,
) -> Variant<'a> {
    let serde = serde::parse_for(cx, &variant.attrs, Scope::Variant, direction);
    let schema = schema::parse(cx, &variant.attrs, Scope::Variant);
    let ident = variant.ident.unraw().to_string();
    let name = match (&serde.rename, &container.rename_all) {
        (Some(r), _) => Name {
            value: r.value.clone(),
            span: r.span,
            how: Renamed::Attr,
        },
        (None, Some(rule)) => Name {
            value: rule.value.apply_to_variant(&ident),
            span: variant.ident.span(),
            how: Renamed::Rule(rule.value),
        },
        (None, None) => Name {
            value: ident,
            span: variant.ident.span(),
            how: Renamed::Ident,
        },
    };
    let field_rule = serde
        .rename_all
        .as_ref()
        .or(container.rename_all_fields.as_ref())
        .map(|r: &Spanned<RenameRule>| r.value);
    let (style, fields) = fields_from_ast(cx, &variant.fields, field_rule, direction);
    Variant {
        original: variant,
        name,
        docs: Docs::from_attrs(&variant.attrs),
        serde,
        schema,
        style,
        fields,
    }
}

fn fields_from_ast<'a>(
    cx: &Ctxt,
    fields: &'a Fields,
    rule: Option<RenameRule>,
    direction: Direction,
) -> (Style, Vec<Field<'a>>) {
    let style = match fields {
        Fields::Named(_) => Style::Named,
        Fields::Unnamed(f) if f.unnamed.len() == 1 => Style::Newtype,
        Fields::Unnamed(_) => Style::Tuple,
        Fields::Unit => Style::Unit,
    };
    let fields = fields
        .iter()
        .enumerate()
        .map(|(i, field)| field_from_ast(cx, i, field, rule, direction))
        .collect();
    (style, fields)
}

fn field_from_ast<'a>(
    cx: &Ctxt,
    index: usize,
    field: &'a syn::Field,
    rule: Option<RenameRule>,
    direction: Direction,
) -> Field<'a> {
    let serde = serde::parse_for(cx, &field.attrs, Scope::Field, direction);
    let schema = schema::parse(cx, &field.attrs, Scope::Field);
    let member = field.ident.clone().map_or_else(
        || {
            Member::Unnamed(syn::Index {
                index: u32::try_from(index).unwrap_or(u32::MAX),
                span: field.ty.span(),
            })
        },
        Member::Named,
    );
    let (ident, span) = field.ident.as_ref().map_or_else(
        || (index.to_string(), field.ty.span()),
        |i| (i.unraw().to_string(), i.span()),
    );
    let name = match (&serde.rename, rule) {
        (Some(r), _) => Name {
            value: r.value.clone(),
            span: r.span,
            how: Renamed::Attr,
        },
        (None, Some(rule)) => Name {
            value: rule.apply_to_field(&ident),
            span,
            how: Renamed::Rule(rule),
        },
        (None, None) => Name {
            value: ident,
            span,
            how: Renamed::Ident,
        },
    };
    let own = Ty::of(&field.ty);
    let (ty, kind) = match &schema.with {
        // `Option<T>` stays optional under `with`: serde's missing-field rule follows the
        // field's own type.
        Some(with) if own.kind.is_option() => (
            with.value.clone(),
            TypeKind::Option(Box::new(Ty::named(&with.value))),
        ),
        Some(with) => (with.value.clone(), Ty::named(&with.value).kind),
        None => (field.ty.clone(), own.kind),
    };
    // What serde writes for an `Option` it leaves out when `None` (or flattens, writing
    // nothing for `None`) is the inner type's, never `null`.
    // (The kind stays `Option`: a flattened `None` brings no key, so none is required.)
    let ty = match &kind {
        TypeKind::Option(inner)
            if direction == Direction::Serialize
                && (serde.skip_if_none || serde.flatten.is_some()) =>
        {
            inner.written.clone()
        }
        _ => ty,
    };
    Field {
        original: field,
        member,
        name,
        ty,
        kind,
        docs: Docs::from_attrs(&field.attrs),
        serde,
        schema,
    }
}
