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
        let other = Ctxt::new();
        let both = match direction {
            Direction::Deserialize => Self::both(cx, &other, cx, input),
            Direction::Serialize => Self::both(&other, cx, cx, input),
        };
        // What the other half finds is not this model's.
        let _ = other.check();
        both.map(|(read, written)| match direction {
            Direction::Deserialize => read,
            Direction::Serialize => written,
        })
    }

    /// Builds the models of what serde reads and of what it writes for the item, reading
    /// its attributes once: what is found about what serde reads, or about neither half
    /// (`#[schema(...)]`, a union), is reported to `cx`; what is found about what it
    /// writes only to `written_cx`.
    pub fn from_ast_both(
        cx: &Ctxt,
        written_cx: &Ctxt,
        input: &'a DeriveInput,
    ) -> Option<(Self, Self)> {
        Self::both(cx, written_cx, cx, input)
    }

    /// Both models, the findings about each half reported to its context, the others to
    /// `cx`.
    fn both(
        read_cx: &Ctxt,
        written_cx: &Ctxt,
        cx: &Ctxt,
        input: &'a DeriveInput,
    ) -> Option<(Self, Self)> {
        let walk = Walk {
            read_cx,
            written_cx,
            cx,
        };
        let serde = serde::parse_both(read_cx, written_cx, &input.attrs, Scope::Container);
        let schema = schema::parse(cx, &input.attrs, Scope::Container);
        let docs = Docs::from_attrs(&input.attrs);
        let (read, written) = match &input.data {
            syn::Data::Struct(s) => {
                let rules =
                    [&serde.read, &serde.written].map(|a| a.rename_all.as_ref().map(|r| r.value));
                let (style, read, written) = walk.fields(&s.fields, rules);
                (Data::Struct(style, read), Data::Struct(style, written))
            }
            syn::Data::Enum(e) => {
                let (read, written) = e.variants.iter().map(|v| walk.variant(v, &serde)).unzip();
                (Data::Enum(read), Data::Enum(written))
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
        let container = |serde, schema, docs, data| Self {
            original: input,
            ident: &input.ident,
            serde,
            schema,
            docs,
            data,
        };
        Some((
            container(serde.read, schema.clone(), docs.clone(), read),
            container(serde.written, schema, docs, written),
        ))
    }

    /// Whether the author marked the type as a tool's root input (`#[schema(root)]`).
    #[must_use]
    pub fn is_root(&self) -> bool {
        self.schema.root.is_some()
    }
}

/// The walk over an item's variants and fields that reads each attribute once, for both
/// halves of serde, reporting as [`Container::from_ast_both`] says.
struct Walk<'c> {
    read_cx: &'c Ctxt,
    written_cx: &'c Ctxt,
    cx: &'c Ctxt,
}

/// One value per half of serde: what it reads, then what it writes.
type Halves<T> = [T; 2];

impl Walk<'_> {
    fn variant<'a>(
        &self,
        variant: &'a syn::Variant,
        container: &serde::Both,
    ) -> (Variant<'a>, Variant<'a>) {
        let serde = serde::parse_both(
            self.read_cx,
            self.written_cx,
            &variant.attrs,
            Scope::Variant,
        );
        let schema = schema::parse(self.cx, &variant.attrs, Scope::Variant);
        let docs = Docs::from_attrs(&variant.attrs);
        let attrs = [serde.read, serde.written];
        let containers = [&container.read, &container.written];
        let rules = [0, 1].map(|i| {
            attrs[i]
                .rename_all
                .as_ref()
                .or(containers[i].rename_all_fields.as_ref())
                .map(|r: &Spanned<RenameRule>| r.value)
        });
        let (style, read, written) = self.fields(&variant.fields, rules);
        let [read_attrs, written_attrs] = attrs;
        let made = |serde: SerdeAttrs, container: &SerdeAttrs, fields| Variant {
            original: variant,
            name: variant_name(variant, &serde, container),
            docs: docs.clone(),
            serde,
            schema: schema.clone(),
            style,
            fields,
        };
        (
            made(read_attrs, &container.read, read),
            made(written_attrs, &container.written, written),
        )
    }

    fn fields<'a>(
        &self,
        fields: &'a Fields,
        rules: Halves<Option<RenameRule>>,
    ) -> (Style, Vec<Field<'a>>, Vec<Field<'a>>) {
        let style = match fields {
            Fields::Named(_) => Style::Named,
            Fields::Unnamed(f) if f.unnamed.len() == 1 => Style::Newtype,
            Fields::Unnamed(_) => Style::Tuple,
            Fields::Unit => Style::Unit,
        };
        let (read, written) = fields
            .iter()
            .enumerate()
            .map(|(i, field)| self.field(i, field, rules))
            .unzip();
        (style, read, written)
    }

    fn field<'a>(
        &self,
        index: usize,
        field: &'a syn::Field,
        rules: Halves<Option<RenameRule>>,
    ) -> (Field<'a>, Field<'a>) {
        let serde = serde::parse_both(self.read_cx, self.written_cx, &field.attrs, Scope::Field);
        let schema = schema::parse(self.cx, &field.attrs, Scope::Field);
        let docs = Docs::from_attrs(&field.attrs);
        let own = Ty::of(&field.ty);
        let [read, written] = [serde.read, serde.written];
        let [read_rule, written_rule] = rules;
        (
            field_half(
                index,
                field,
                read_rule,
                read,
                schema.clone(),
                docs.clone(),
                own.clone(),
            ),
            field_half(index, field, written_rule, written, schema, docs, own),
        )
    }
}

/// A variant's name for one half of serde: its `rename`, else its container's
/// `rename_all` applied, else its identifier.
fn variant_name(variant: &syn::Variant, serde: &SerdeAttrs, container: &SerdeAttrs) -> Name {
    let ident = variant.ident.unraw().to_string();
    match (&serde.rename, &container.rename_all) {
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
    }
}

/// A field for the half of serde its `serde` attributes were read for.
fn field_half<'a>(
    index: usize,
    field: &'a syn::Field,
    rule: Option<RenameRule>,
    serde: SerdeAttrs,
    schema: SchemaAttrs,
    docs: Docs,
    own: Ty,
) -> Field<'a> {
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
            if serde.direction == Direction::Serialize
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
        docs,
        serde,
        schema,
    }
}
