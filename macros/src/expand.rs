//! Model → tokens: the plan from `neuralis_syntax::render`, composed at run time through
//! `::neuralis::__private`.

use neuralis_core::RuleId;
use neuralis_syntax::Ctxt;
use neuralis_syntax::ast::Container;
use neuralis_syntax::attr::docs::DocPart;
use neuralis_syntax::check::{Front, check};
use neuralis_syntax::render::{IsObject, KeyPlan, Member, Plan, Rendered, render};
use proc_macro2::TokenStream;
use quote::{ToTokens as _, quote, quote_spanned};
use serde_json::{Map, Value};
use syn::spanned::Spanned as _;
use syn::{DeriveInput, GenericParam, parse_quote};

use crate::fallback;

pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, input);
    if let Some(cont) = &cont {
        check(&cx, cont, Front::Macro);
    }
    match (cx.check(), cont) {
        (Ok(()), Some(cont)) => expand(&cont),
        (Err(e), _) => fallback::expand(input, &e),
        (Ok(()), None) => fallback::expand(
            input,
            &syn::Error::new(input.ident.span(), "bug in neuralis-macros, please report"),
        ),
    }
}

fn json_text(map: &Map<String, Value>) -> String {
    serde_json::to_string(map).unwrap_or_default()
}

fn lower(p: &TokenStream, plan: &Plan) -> TokenStream {
    match plan {
        Plan::Fixed(v) => {
            let text = serde_json::to_string(v).unwrap_or_default();
            quote!(#p::json(#text))
        }
        Plan::Type { ty, keywords, docs } => {
            let call = quote_spanned!(ty.span()=> __cx.subschema::<#ty>());
            let mut out = if keywords.is_empty() {
                call
            } else {
                let text = json_text(keywords);
                quote!(#p::overlay(#call, #text))
            };
            if let Some(parts) = docs {
                out = describe(p, out, parts);
            }
            out
        }
        Plan::Object {
            keywords,
            docs,
            members,
        } => {
            let text = json_text(keywords);
            let members = members.iter().map(|m| match m {
                Member::Property {
                    name,
                    plan,
                    required,
                } => {
                    let plan = lower(p, plan);
                    quote!(#p::property(&mut __o, #name, #plan, #required);)
                }
                Member::Flatten { ty, required } => {
                    let call = quote_spanned!(ty.span()=> __cx.subschema::<#ty>());
                    quote!(#p::flatten(&mut __o, #call, #required);)
                }
            });
            let out = quote!({
                let mut __o = #p::object(#text);
                #(#members)*
                #p::close(__o)
            });
            match docs {
                Some(parts) => describe(p, out, parts),
                None => out,
            }
        }
        Plan::Described(inner, parts) => describe(p, lower(p, inner), parts),
        Plan::Choice {
            keyword,
            keywords,
            docs,
            branches,
        } => {
            let text = json_text(keywords);
            let branches = branches.iter().map(|b| lower(p, b));
            let out = quote!(#p::choice(#text, #keyword, [#(#branches),*]));
            match docs {
                Some(parts) => describe(p, out, parts),
                None => out,
            }
        }
    }
}

fn describe(p: &TokenStream, schema: TokenStream, parts: &[DocPart]) -> TokenStream {
    let parts = parts.iter().map(|part| match part {
        DocPart::Text(t) => quote!(#t),
        DocPart::Expr(e) => e.clone(),
    });
    quote!(#p::describe(#schema, &[#(#parts),*]))
}

fn expand(cont: &Container) -> TokenStream {
    let krate = cont
        .schema
        .krate
        .as_ref()
        .map_or_else(|| quote!(::neuralis), |k| k.value.to_token_stream());
    let p = quote!(#krate::__private);
    let Rendered {
        plan,
        root_keys,
        is_object,
        object_asserts,
    } = render(cont);
    let ident = cont.ident;
    let mut generics = cont.original.generics.clone();
    let params: Vec<syn::Ident> = generics
        .params
        .iter()
        .filter_map(|g| match g {
            GenericParam::Type(t) => Some(t.ident.clone()),
            _ => None,
        })
        .collect();
    let is_generic = !params.is_empty();
    {
        let where_clause = generics.make_where_clause();
        for param in &params {
            where_clause
                .predicates
                .push(parse_quote!(#param: #p::ToolInput));
        }
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let body = lower(&p, &plan);
    let root_keys = root_keys.map(|keys| {
        let keys = keys.iter().map(|k| match k {
            KeyPlan::Name(n) => quote!(#p::RootKey::Name(#n)),
            KeyPlan::Flatten(ty) => quote!(#p::RootKey::Flatten(<#ty as #p::ToolInput>::ROOT_KEYS)),
        });
        quote!(const ROOT_KEYS: &'static [#p::RootKey] = &[#(#keys),*];)
    });
    let root_shapes = root_shapes(&p, cont, root_keys.is_some());
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
    // `const` panics take literals only: the messages are written from the rule table here.
    let not_object = format!(
        "{}: `#[serde(flatten)]` and internally tagged newtype variants need a type whose schema is an object with named fields\n= help: flatten a struct with named fields that derives `ToolInput`",
        RuleId::SerdeUnsupported
    );
    let reserved = format!(
        "{}: a root property brought in by `#[serde(flatten)]` uses a reserved session-context name\n= help: {}",
        RuleId::ReservedInputKey,
        RuleId::ReservedInputKey.rule().hint.replacen(
            "rename the property",
            "rename the property in the flattened type",
            1
        )
    );
    let asserts = if is_generic {
        Vec::new()
    } else {
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
                    const _: () = ::core::assert!(
                        #p::reserved_root_key(<#ty as #p::ToolInput>::ROOT_KEYS).is_none(),
                        #reserved,
                    );
                }
            }));
        }
        asserts
    };
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #p::ToolInput for #ident #ty_generics #where_clause {
                #root_keys
                #root_shapes
                #root_keys_of_inner
                const IS_OBJECT: bool = #is_object;
                const COMPOSITE: bool = true;
                fn schema_in(__cx: &mut #p::Composer) -> #p::Value {
                    #body
                }
            }
            #(#asserts)*
        };
    }
}

/// `ROOT_SHAPES`: each root key with the kind of its type, for `#[tool(defaults(...))]`.
/// Kinds come from the type table, so a type without a `ToolInput` impl is reported once.
fn root_shapes(p: &TokenStream, cont: &Container, has_root_keys: bool) -> Option<TokenStream> {
    let neuralis_syntax::ast::Data::Struct(neuralis_syntax::ast::Style::Named, fields) = &cont.data
    else {
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
            let shape = shape(p, f.kind.unwrap_option());
            quote!(#p::KeyShape::Key(#name, #shape))
        }
    });
    Some(quote!(const ROOT_SHAPES: &'static [#p::KeyShape] = &[#(#shapes),*];))
}

fn shape(p: &TokenStream, kind: &neuralis_syntax::types::TypeKind) -> TokenStream {
    use neuralis_syntax::types::TypeKind as K;
    match kind {
        K::Bool => quote!(#p::Shape::Bool),
        K::Int { min, max, .. } => {
            let min = proc_macro2::Literal::i128_suffixed(*min);
            let max = proc_macro2::Literal::u128_suffixed(*max);
            quote!(#p::Shape::int(#min, #max))
        }
        K::Float => quote!(#p::Shape::Number),
        K::Str | K::Char | K::Format { .. } => quote!(#p::Shape::Str),
        K::Seq { .. } => quote!(#p::Shape::Array),
        K::Map(_) | K::JsonMap => quote!(#p::Shape::Object),
        K::Option(inner) => shape(p, inner),
        K::Value | K::Nested | K::Unsupported(_) => quote!(#p::Shape::Any),
    }
}
