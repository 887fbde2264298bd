//! From a [`Plan`] to tokens, for both compositions: the input derive's
//! (`ToolInput::__subschema`, and `__written_in` for what serde writes of an input) and
//! the output derive's (`ToolOutput::output_in`, through the field probe). Both derives
//! and nothing else lower a plan here, so neither imports the other.

use neuralis_syntax::ast::Container;
use neuralis_syntax::attr::docs::DocPart;
use neuralis_syntax::render::{Member, Plan, render};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use serde_json::{Map, Value};
use syn::spanned::Spanned as _;
use syn::{GenericParam, parse_quote};

pub(crate) fn json_text(map: &Map<String, Value>) -> String {
    serde_json::to_string(map).unwrap_or_default()
}

pub(crate) fn lower(p: &TokenStream, plan: &Plan) -> TokenStream {
    let target = Target::Trait {
        trait_path: quote!(#p::ToolInput),
        method: quote!(__subschema),
    };
    lower_as(p, plan, &target)
}

/// How a plan's named types are composed: through one trait (`ToolInput::__subschema`
/// for an input, `ToolInput::__written_subschema` for what an input's type writes), or,
/// for an output, through the field probe (`OutputField`: the type's `ToolOutput` impl,
/// else what its `ToolInput` derive wrote).
pub(crate) enum Target {
    Trait {
        trait_path: TokenStream,
        method: TokenStream,
    },
    OutputProbe,
}

impl Target {
    /// The schema of `ty`, composed through `__cx`, spanned on the type.
    fn call(&self, p: &TokenStream, ty: &syn::Type) -> TokenStream {
        match self {
            Self::Trait { trait_path, method } => {
                quote_spanned!(ty.span()=> <#ty as #trait_path>::#method(__cx))
            }
            Self::OutputProbe => quote_spanned! {ty.span()=> {
                #[allow(unused_imports)]
                use #p::{ViaFieldOutput as _, ViaFieldWritten as _};
                (&#p::OutputField::<#ty>::NEW).__neuralis_field(__cx)
            }},
        }
    }
}

pub(crate) fn lower_as(p: &TokenStream, plan: &Plan, t: &Target) -> TokenStream {
    match plan {
        Plan::Fixed(v) => {
            let text = serde_json::to_string(v).unwrap_or_default();
            quote!(#p::json(#text))
        }
        Plan::Type { ty, keywords, docs } => {
            let call = t.call(p, ty);
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
                    let plan = lower_as(p, plan, t);
                    quote!(#p::property(&mut __o, #name, #plan, #required);)
                }
                Member::Flatten { ty, required } => {
                    let call = t.call(p, ty);
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
        Plan::Described(inner, parts) => describe(p, lower_as(p, inner, t), parts),
        Plan::Choice {
            keyword,
            keywords,
            docs,
            branches,
        } => {
            let text = json_text(keywords);
            let branches = branches.iter().map(|b| lower_as(p, b, t));
            let out = quote!(#p::choice(#text, #keyword, [#(#branches),*]));
            match docs {
                Some(parts) => describe(p, out, parts),
                None => out,
            }
        }
    }
}

/// The impl's generics with `bound` required of every type parameter, and whether there
/// is one.
pub(crate) fn bounded_generics(
    generics: &syn::Generics,
    bound: &TokenStream,
) -> (syn::Generics, bool) {
    let mut generics = generics.clone();
    let params: Vec<syn::Ident> = generics
        .params
        .iter()
        .filter_map(|g| match g {
            GenericParam::Type(t) => Some(t.ident.clone()),
            _ => None,
        })
        .collect();
    let is_generic = !params.is_empty();
    let where_clause = generics.make_where_clause();
    for param in &params {
        where_clause.predicates.push(parse_quote!(#param: #bound));
    }
    (generics, is_generic)
}

/// The type's `definitions` name (`ToolInput::schema_name`, `ToolOutput::output_name`):
/// its name as written, its type parameters' names through `trait_path::method`
/// (`Page<Item>`), as the build script spells it from source.
pub(crate) fn name_fn(
    p: &TokenStream,
    generics: &syn::Generics,
    ident: &syn::Ident,
    trait_path: &TokenStream,
    method: &TokenStream,
) -> TokenStream {
    let name = syn::ext::IdentExt::unraw(ident).to_string();
    let params: Vec<&syn::Ident> = generics.type_params().map(|t| &t.ident).collect();
    let body = if params.is_empty() {
        quote!(#p::Cow::Borrowed(#name))
    } else {
        quote!(#p::Cow::Owned(#p::generic_name(#name, &[#(<#params as #trait_path>::#method()),*])))
    };
    quote! {
        fn #method() -> #p::Cow<'static, str> {
            #body
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

/// The body of `ToolInput::__written_in` for the model of what serde writes: the output
/// derive's plan, composed through the fields' own `__written_in` (every field type of an
/// input is `ToolInput`, so no bound on `ToolOutput` is needed, and a type without a
/// schema is the input's one error).
pub(crate) fn written_body(p: &TokenStream, written: &Container) -> TokenStream {
    let plan = object_choice(
        render(written).plan,
        written.serde.tag.is_some() && written.serde.untagged.is_none(),
    );
    let target = Target::Trait {
        trait_path: quote!(#p::ToolInput),
        method: quote!(__written_subschema),
    };
    lower_as(p, &plan, &target)
}

/// A tagged enum's branches are all objects: say so at the top, so that the output is
/// not wrapped as `result` (serde writes an object for every variant).
pub(crate) fn object_choice(plan: Plan, tagged: bool) -> Plan {
    match plan {
        Plan::Choice {
            keyword,
            mut keywords,
            docs,
            branches,
        } if tagged => {
            keywords.insert("type".into(), Value::String("object".into()));
            Plan::Choice {
                keyword,
                keywords,
                docs,
                branches,
            }
        }
        other => other,
    }
}
