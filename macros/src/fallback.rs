//! Error output: the errors, plus a stub impl so that one mistake does not cascade into
//! "`ToolInput` is not implemented" errors wherever the type is used.

use proc_macro2::TokenStream;
use quote::quote;

use syn::DeriveInput;

/// `#[schema(crate = "...")]`, read leniently: the attribute may be the error.
fn crate_path(input: &DeriveInput) -> TokenStream {
    let mut found = None;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("schema")) {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                let s: syn::LitStr = meta.value()?.parse()?;
                found = s.parse::<syn::Path>().ok();
            } else if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            }
            Ok(())
        });
    }
    found.map_or_else(|| quote!(::neuralis), |p| quote!(#p))
}

pub(crate) fn expand(input: &DeriveInput, error: &syn::Error) -> TokenStream {
    let errors = error.to_compile_error();
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let krate = crate_path(input);
    let p = quote!(#krate::__private);
    quote! {
        #errors
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #p::ToolInput for #ident #ty_generics #where_clause {
                fn schema_in(
                    _: &mut #p::Composer,
                ) -> #p::Value {
                    #p::Value::Null
                }
            }
        };
    }
}
