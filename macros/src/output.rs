//! `#[derive(ToolOutput)]`: the schema of what serde writes for a type, through the same
//! model, checks and renderer as inputs, built for `Direction::Serialize`.

use neuralis_syntax::Ctxt;
use neuralis_syntax::ast::Container;
use neuralis_syntax::attr::Direction;
use neuralis_syntax::check::check_output;
use neuralis_syntax::render::{IsObject, Rendered, render};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::DeriveInput;
use syn::spanned::Spanned as _;

use crate::lower::{Target, bounded_generics, lower_as, name_fn, object_choice};
use crate::private::private_path;

pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_ast_for(&cx, input, Direction::Serialize);
    if let Some(cont) = &cont {
        check_output(&cx, cont);
    }
    match (cx.check(), cont) {
        (Ok(()), Some(cont)) => expand(&cont),
        (Err(e), _) => {
            let errors = e.to_compile_error();
            let stub = stub(input);
            quote!(#errors #stub)
        }
        (Ok(()), None) => {
            let bug = syn::Error::new(input.ident.span(), "bug in neuralis-macros, please report")
                .to_compile_error();
            quote!(#bug)
        }
    }
}

/// The impl's generics, with `ToolOutput` required of every type parameter.
fn generics(p: &TokenStream, input: &DeriveInput) -> (syn::Generics, bool) {
    bounded_generics(&input.generics, &quote!(#p::ToolOutput))
}

/// An impl with no schema beside the errors, so uses of the type report nothing more;
/// under the path `#[schema(crate = "...")]` gives, as the derive's own output.
fn stub(input: &DeriveInput) -> TokenStream {
    let krate = crate::fallback::crate_path(input);
    let p = private_path(krate.as_ref());
    let ident = &input.ident;
    let (generics, _) = generics(&p, input);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #p::ToolOutput for #ident #ty_generics #where_clause {
                fn output_name() -> #p::Cow<'static, str> {
                    #p::Cow::Borrowed(::core::stringify!(#ident))
                }
                fn output_in(_: &mut #p::OutputComposer) -> #p::Value {
                    #p::Value::Null
                }
            }
        };
    }
}

/// Whether a nested type's output schema is an object's: its `ToolOutput` impl's
/// `IS_OBJECT`, else its `ToolInput`'s (the inherent const of `OutputField` wins over the
/// trait's where both apply).
fn output_is_object(p: &TokenStream, ty: &syn::Type) -> TokenStream {
    quote_spanned! {ty.span()=> {
        #[allow(unused_imports)]
        use #p::WrittenConsts as _;
        #p::OutputField::<#ty>::IS_OBJECT
    }}
}

fn expand(cont: &Container) -> TokenStream {
    let p = private_path(cont.schema.krate.as_ref().map(|k| &k.value));
    let Rendered {
        plan,
        is_object,
        object_asserts,
        ..
    } = render(cont);
    let plan = object_choice(
        plan,
        cont.serde.tag.is_some() && cont.serde.untagged.is_none(),
    );
    let body = lower_as(&p, &plan, &Target::OutputProbe);
    let ident = cont.ident;
    let (generics, is_generic) = generics(&p, cont.original);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let name = name_fn(
        &p,
        &cont.original.generics,
        ident,
        &quote!(#p::ToolOutput),
        &quote!(output_name),
    );
    let is_object = match is_object {
        IsObject::Fixed(b) => quote!(#b),
        IsObject::Of(ty) => output_is_object(&p, &ty),
    };
    let not_object = format!(
        "{}: `#[serde(flatten)]` and internally tagged newtype variants need a type whose schema is an object with named fields\n= help: flatten a struct with named fields that derives `ToolOutput`",
        neuralis_model::RuleId::SerdeUnsupported
    );
    // `const` assertions cannot name generic parameters.
    let asserts: Vec<TokenStream> = if is_generic {
        Vec::new()
    } else {
        object_asserts
            .iter()
            .map(|ty| {
                let is_object = output_is_object(&p, ty);
                quote_spanned! {ty.span()=>
                    const _: () = ::core::assert!(#is_object, #not_object);
                }
            })
            .collect()
    };
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #p::ToolOutput for #ident #ty_generics #where_clause {
                const IS_OBJECT: bool = #is_object;
                const COMPOSITE: bool = true;
                #name
                fn output_in(__cx: &mut #p::OutputComposer) -> #p::Value {
                    #body
                }
            }
            #(#asserts)*
        };
    }
}
