//! Model → tokens: the plan from `neuralis_syntax::render`, composed at run time through
//! `::neuralis::__private`.

use neuralis_model::RuleId;
use neuralis_syntax::Ctxt;
use neuralis_syntax::ast::{Container, Data, Field, Style};
use neuralis_syntax::attr::Spanned;
use neuralis_syntax::attr::schema::SchemaAttrs;
use neuralis_syntax::check::{check, check_output};
use neuralis_syntax::render::{IsObject, KeyPlan, Rendered, render};
use neuralis_syntax::types::{TypeKind, type_text};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::DeriveInput;
use syn::spanned::Spanned as _;

use crate::fallback;
use crate::lower::{bounded_generics, lower, name_fn};
use crate::private::private_path;

/// The input derive: the item read once, for what serde reads (the input's model, its
/// findings the derive's errors) and what it writes (the model behind `__written_in`,
/// when the output derive would accept it; its findings only say there is none).
pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let written_cx = Ctxt::new();
    let both = Container::from_ast_both(&cx, &written_cx, input);
    if let Some((read, written)) = &both {
        check(&cx, read);
        check_output(&written_cx, written);
    }
    let (cont, written) = match both {
        Some((read, written)) => (Some(read), written_cx.check().is_ok().then_some(written)),
        None => {
            let _ = written_cx.check();
            (None, None)
        }
    };
    match (cx.check(), cont) {
        (Ok(()), Some(cont)) => expand(&cont, written.as_ref()),
        (Err(e), cont) => fallback::expand(input, cont.as_ref(), &e),
        (Ok(()), None) => fallback::expand(
            input,
            None,
            &syn::Error::new(input.ident.span(), "bug in neuralis-macros, please report"),
        ),
    }
}

/// The input's impls: `ToolInput`, with `__written_in` from `written` (the model of what
/// serde writes for the same item), and the marker `Written` when there is such a model,
/// so a type both read and returned needs one derive: `#[tool]` and
/// `#[derive(ToolOutput)]` reach its output schema through `Written` when it has no
/// `ToolOutput` impl. The input derive never implements `ToolOutput` itself, so
/// `#[derive(ToolInput, ToolOutput)]` is two impls of two traits, never a conflict. The
/// generated function is `#[inline]`, so a type never written costs no machine code.
fn expand(cont: &Container, written: Option<&Container>) -> TokenStream {
    let p = private_path(cont.schema.krate.as_ref().map(|k| &k.value));
    let Rendered {
        plan,
        root_keys,
        is_object,
        object_asserts,
    } = render(cont);
    let ident = cont.ident;
    let (generics, is_generic) = bounded_generics(&cont.original.generics, &quote!(#p::ToolInput));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let body = lower(&p, &plan);
    let name = name_fn(
        &p,
        &cont.original.generics,
        ident,
        &quote!(#p::ToolInput),
        &quote!(schema_name),
    );
    let root_keys = root_keys.map(|keys| {
        let keys = keys.iter().map(|k| match k {
            KeyPlan::Name(n) => quote!(#p::RootKey::Name(#n)),
            KeyPlan::Flatten(ty) => quote!(#p::RootKey::Flatten(<#ty as #p::ToolInput>::ROOT_KEYS)),
        });
        quote!(const ROOT_KEYS: &'static [#p::RootKey] = &[#(#keys),*];)
    });
    let root_shapes = root_shapes(&p, cont, root_keys.is_some());
    let headers = headers(&p, cont);
    let shape = container_shape(&p, cont);
    let reserved_checked = cont.is_root() && !is_generic;
    let inner_ty = match &is_object {
        IsObject::Of(ty) => Some(ty.clone()),
        IsObject::Fixed(_) => None,
    };
    let is_object = match is_object {
        IsObject::Fixed(b) => quote!(#b),
        IsObject::Of(ty) => quote!(<#ty as #p::ToolInput>::IS_OBJECT),
    };
    let root_keys_of_inner = match (&root_keys, &inner_ty) {
        (None, Some(ty)) => Some(
            quote!(const ROOT_KEYS: &'static [#p::RootKey] = <#ty as #p::ToolInput>::ROOT_KEYS;),
        ),
        _ => None,
    };
    // `const` assertions cannot name generic parameters, so generic containers leave the
    // checks to their instances' users.
    let asserts = if is_generic {
        Vec::new()
    } else {
        container_asserts(&p, cont, &object_asserts)
    };
    let elicitation = elicitation(&p, cont, &generics);
    let written_in = written.map(|w| {
        let body = crate::lower::written_body(&p, w);
        quote! {
            #[inline]
            fn __written_in(__cx: &mut #p::OutputComposer) -> #p::Value {
                #body
            }
        }
    });
    // What serde writes is known: the type has an output schema where it is returned or
    // nested in an output (`Written`), and `#[derive(ToolOutput)]` may still be derived
    // beside this one (its impl is then the one used; the two agree).
    let shared = written.map(|_| {
        let (generics, _) = bounded_generics(&cont.original.generics, &quote!(#p::Written));
        let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
        quote! {
            #[automatically_derived]
            impl #impl_generics #p::Written for #ident #ty_generics #where_clause {}
        }
    });
    quote! {
        const _: () = {
            #elicitation
            #[automatically_derived]
            impl #impl_generics #p::ToolInput for #ident #ty_generics #where_clause {
                #root_keys
                #root_shapes
                #root_keys_of_inner
                #headers
                const SHAPE: #p::Shape = #shape;
                const RESERVED_CHECKED: bool = #reserved_checked;
                const IS_OBJECT: bool = #is_object;
                const COMPOSITE: bool = true;
                #name
                fn schema_in(__cx: &mut #p::Composer) -> #p::Value {
                    #body
                }
                #written_in
            }
            #shared
            #(#asserts)*
        };
    }
}

/// The `const` assertions of a non-generic container: each flattened (or internally tagged
/// newtype) type is an object, a root's flattened types bring no reserved key, and its
/// literals and headers fit.
fn container_asserts(
    p: &TokenStream,
    cont: &Container,
    object_asserts: &[syn::Type],
) -> Vec<TokenStream> {
    // `const` panics take literals only: the messages are written from the rule table here.
    let not_object = format!(
        "{}: `#[serde(flatten)]` and internally tagged newtype variants need a type whose schema is an object with named fields\n= help: flatten a struct with named fields that derives `ToolInput`",
        RuleId::SerdeUnsupported
    );
    let reserved_head = format!("{}: root property `", RuleId::ReservedInputKey);
    let reserved_tail = format!(
        "`, brought in by `#[serde(flatten)]`, uses a reserved session-context name\n= help: in the flattened type, {}",
        RuleId::ReservedInputKey.rule().hint
    );
    let mut asserts: Vec<TokenStream> = object_asserts
        .iter()
        .map(|ty| {
            quote_spanned! {ty.span()=>
                const _: () = ::core::assert!(
                    <#ty as #p::ToolInput>::IS_OBJECT,
                    #not_object,
                );
            }
        })
        .collect();
    if cont.is_root() {
        asserts.extend(object_asserts.iter().map(|ty| {
            quote_spanned! {ty.span()=>
                const _: () = {
                    let __m = #p::reserved_key_message(
                        <#ty as #p::ToolInput>::ROOT_KEYS,
                        #reserved_head,
                        #reserved_tail,
                    );
                    if !__m.is_empty() {
                        ::core::panic!("{}", __m.as_str());
                    }
                };
            }
        }));
    }
    asserts.extend(literal_asserts(p, cont));
    asserts.extend(header_asserts(p, cont));
    asserts
}

/// `#[schema(elicitation)]`: a struct is an `ElicitForm` whose `CHOICES` are its fields of
/// a choice (one, or a `Vec` of them: a multi-select), each field of a type the syntax
/// check cannot see required to be an `ElicitChoice` by reading its titles (the error on
/// the field's type); an
/// enum is an `ElicitChoice` whose `TITLES` are its variants' `#[schema(title = "...")]`.
fn elicitation(p: &TokenStream, cont: &Container, generics: &syn::Generics) -> TokenStream {
    if cont.schema.elicitation.is_none() {
        return TokenStream::new();
    }
    let ident = cont.ident;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    match &cont.data {
        Data::Enum(variants) => {
            let titled = variants.iter().any(|v| v.schema.title.is_some());
            let titles = variants
                .iter()
                .filter(|v| titled && v.serde.skip.is_none())
                .map(|v| {
                    let name = &v.name.value;
                    let title = v.schema.title.as_ref().map_or(name, |t| &t.value);
                    quote!((#name, #title))
                });
            quote! {
                #[automatically_derived]
                impl #impl_generics #p::ElicitChoice for #ident #ty_generics #where_clause {
                    const TITLES: &'static [(&'static str, &'static str)] = &[#(#titles),*];
                }
            }
        }
        Data::Struct(_, fields) => {
            // Each field of a choice: its serde name and the choice's type.
            let choices: Vec<(&str, syn::Type)> = fields
                .iter()
                .filter(|f| !f.is_skipped())
                .filter_map(|f| {
                    let tree = neuralis_syntax::types::Ty::of(&f.ty);
                    let under = tree.under_options();
                    let ty = match &under.kind {
                        TypeKind::Named { .. } => under.written.clone(),
                        TypeKind::Seq { item, .. }
                            if matches!(item.kind, TypeKind::Named { .. }) =>
                        {
                            item.written.clone()
                        }
                        _ => return None,
                    };
                    Some((f.name.value.as_str(), ty))
                })
                .collect();
            // The one check of each choice's type: its titles, at the type's token.
            let entries = choices.iter().map(
                |(name, ty)| quote_spanned!(ty.span()=> (#name, <#ty as #p::ElicitChoice>::TITLES)),
            );
            quote! {
                #[automatically_derived]
                impl #impl_generics #p::ElicitForm for #ident #ty_generics #where_clause {
                    const CHOICES: &'static [(&'static str, &'static [(&'static str, &'static str)])] =
                        &[#(#entries),*];
                }
            }
        }
    }
}

/// `ROOT_SHAPES`: each root key with the shape of its type and the field's `#[schema]`
/// bounds, for `#[tool(defaults(...))]`. The shape of a type the table knows comes from
/// the table (so a type without a `ToolInput` impl is reported once); any other type
/// states its own (`ToolInput::SHAPE`: an enum's variant names, `Object` for a struct).
fn root_shapes(p: &TokenStream, cont: &Container, has_root_keys: bool) -> Option<TokenStream> {
    let Data::Struct(Style::Named, fields) = &cont.data else {
        return None;
    };
    if !has_root_keys {
        return None;
    }
    let shapes = fields.iter().filter(|f| !f.is_skipped()).map(|f| {
        let ty = &f.ty;
        if f.serde.flatten.is_some() {
            quote!(#p::KeyShape::Flatten(<#ty as #p::ToolInput>::ROOT_SHAPES))
        } else {
            let name = &f.name.value;
            let shape = field_shape(p, f);
            let bounds = bounds(p, &f.schema);
            quote!(#p::KeyShape::Key(#name, #shape, #bounds))
        }
    });
    Some(quote!(const ROOT_SHAPES: &'static [#p::KeyShape] = &[#(#shapes),*];))
}

/// A field's shape: from the table, or from the type's `ToolInput::SHAPE`.
fn field_shape(p: &TokenStream, f: &Field) -> TokenStream {
    if f.kind.has_named() {
        let ty = &f.ty;
        quote_spanned!(ty.span()=> <#ty as #p::ToolInput>::SHAPE)
    } else {
        shape(p, f.kind.unwrap_option())
    }
}

fn bounds(p: &TokenStream, s: &SchemaAttrs) -> TokenStream {
    let float =
        |v: &Option<Spanned<serde_json::Number>>| match v.as_ref().and_then(|n| n.value.as_f64()) {
            Some(f) => {
                let f = proc_macro2::Literal::f64_suffixed(f);
                quote!(::core::option::Option::Some(#f))
            }
            None => quote!(::core::option::Option::None),
        };
    let int = |v: &Option<Spanned<u64>>| match v {
        Some(n) => {
            let n = proc_macro2::Literal::u64_suffixed(n.value);
            quote!(::core::option::Option::Some(#n))
        }
        None => quote!(::core::option::Option::None),
    };
    let (minimum, maximum) = (float(&s.minimum), float(&s.maximum));
    let (exclusive_minimum, exclusive_maximum) =
        (float(&s.exclusive_minimum), float(&s.exclusive_maximum));
    let (min_length, max_length) = (int(&s.min_length), int(&s.max_length));
    let (min_items, max_items) = (int(&s.min_items), int(&s.max_items));
    quote!(#p::Bounds {
        minimum: #minimum,
        maximum: #maximum,
        exclusive_minimum: #exclusive_minimum,
        exclusive_maximum: #exclusive_maximum,
        min_length: #min_length,
        max_length: #max_length,
        min_items: #min_items,
        max_items: #max_items,
    })
}

/// `SHAPE`: what the container's schema accepts, as far as a literal can tell.
fn container_shape(p: &TokenStream, cont: &Container) -> TokenStream {
    match &cont.data {
        Data::Struct(style, fields) => {
            let live: Vec<&Field> = fields.iter().filter(|f| !f.is_skipped()).collect();
            let transparent = cont.serde.transparent.is_some() || *style == Style::Newtype;
            if transparent && live.len() == 1 {
                field_shape(p, live[0])
            } else if *style == Style::Named {
                quote!(#p::Shape::Fields(<Self as #p::ToolInput>::ROOT_KEYS))
            } else {
                quote!(#p::Shape::Any)
            }
        }
        Data::Enum(variants) => {
            let s = &cont.serde;
            if s.untagged.is_some() {
                return quote!(#p::Shape::Any);
            }
            if s.tag.is_some() {
                return quote!(#p::Shape::Object);
            }
            let units: Vec<&String> = variants
                .iter()
                .filter(|v| v.serde.skip.is_none() && v.style == Style::Unit)
                .map(|v| &v.name.value)
                .collect();
            if units.is_empty() {
                quote!(#p::Shape::Object)
            } else {
                quote!(#p::Shape::Enum(&[#(#units),*]))
            }
        }
    }
}

/// `schema-attr` for a `default` or an example of a field whose type the table does not
/// know (an enum, a nested struct): checked against the type's `ToolInput::SHAPE` when the
/// crate compiles, on the literal.
fn literal_asserts(p: &TokenStream, cont: &Container) -> Vec<TokenStream> {
    let mut out = Vec::new();
    for f in neuralis_syntax::check::all_fields(cont) {
        if f.is_skipped() || f.serde.flatten.is_some() || !f.kind.has_named() {
            continue;
        }
        let ty = &f.ty;
        let label = type_text(ty);
        let mut literals: Vec<(&str, &Spanned<serde_json::Value>)> = Vec::new();
        if let Some(d) = &f.schema.default {
            literals.push(("`default`", d));
        }
        for e in f.schema.examples.iter().flat_map(|e| e.value.iter()) {
            literals.push(("this example", e));
        }
        for (what, lit) in literals {
            let Some(tokens) = crate::private::lit_tokens(p, &lit.value) else {
                continue;
            };
            let head = format!("{}: {what} does not fit `{label}`: ", RuleId::SchemaAttr);
            let tail = format!(
                ", found `{}`\n= help: give a value the field's schema accepts",
                lit.value
            );
            out.push(quote_spanned! {lit.span=>
                const _: () = {
                    let __m = #p::misfit_message(
                        <#ty as #p::ToolInput>::SHAPE,
                        #p::Bounds::NONE,
                        #tokens,
                        #head,
                        #tail,
                    );
                    if !__m.is_empty() {
                        ::core::panic!("{}", __m.as_str());
                    }
                };
            });
        }
    }
    out
}

/// `HEADERS`: the struct's fields marked `#[schema(header = "...")]` and its flattened
/// types' (none for a type without either, which keeps the trait's empty default).
fn headers(p: &TokenStream, cont: &Container) -> Option<TokenStream> {
    let Data::Struct(Style::Named, fields) = &cont.data else {
        return None;
    };
    let entries: Vec<TokenStream> = fields
        .iter()
        .filter(|f| !f.is_skipped())
        .filter_map(|f| {
            let ty = &f.ty;
            if f.serde.flatten.is_some() {
                Some(quote!(#p::Header::Flatten(<#ty as #p::ToolInput>::HEADERS)))
            } else {
                let header = f.schema.header.as_ref()?;
                let (name, header) = (&f.name.value, &header.value);
                Some(quote!(#p::Header::Field(#name, #header)))
            }
        })
        .collect();
    let marks = fields.iter().any(|f| f.schema.header.is_some());
    (marks || !entries.is_empty())
        .then(|| quote!(const HEADERS: &'static [#p::Header] = &[#(#entries),*];))
}

/// `header-attr`'s checks on types (the name and the field were checked when parsed): a
/// marked field's type is one a header carries, and a field's type (a list's item, a
/// map's value) marks no property of its own, since a header mirrors a root one.
fn header_asserts(p: &TokenStream, cont: &Container) -> Vec<TokenStream> {
    use crate::private::const_check;
    let mut out = Vec::new();
    for f in neuralis_syntax::check::all_fields(cont) {
        if f.is_skipped() || f.serde.flatten.is_some() {
            continue;
        }
        let ty = &f.ty;
        let label = type_text(ty);
        let name = &f.name.value;
        if let Some(header) = &f.schema.header {
            let shape = field_shape(p, f);
            out.push(const_check(
                p,
                header.span,
                quote!(header_shape_message(#shape, #name, #label)),
            ));
        }
        if f.kind.has_named() {
            out.push(const_check(
                p,
                ty.span(),
                quote!(nested_header_message(<#ty as #p::ToolInput>::HEADERS, #name, #label)),
            ));
        }
    }
    out
}

fn shape(p: &TokenStream, kind: &TypeKind) -> TokenStream {
    use neuralis_syntax::types::TypeKind as K;
    match kind {
        K::Bool => quote!(#p::Shape::Bool),
        K::Int { min, max, .. } => {
            let min = proc_macro2::Literal::i128_suffixed(*min);
            let max = proc_macro2::Literal::u128_suffixed(*max);
            quote!(#p::Shape::int(#min, #max))
        }
        K::Float => quote!(#p::Shape::Number),
        K::Str | K::Format { .. } => quote!(#p::Shape::Str),
        K::Char => quote!(#p::Shape::Char),
        K::Seq { item, .. } => {
            let item = shape(p, &item.kind);
            quote!(#p::Shape::Array(&#item))
        }
        K::Map(_) | K::JsonMap => quote!(#p::Shape::Object),
        K::Option(inner) | K::Pointer(inner) => shape(p, &inner.kind),
        K::Value | K::Named { .. } | K::Unsupported(_) => quote!(#p::Shape::Any),
    }
}
