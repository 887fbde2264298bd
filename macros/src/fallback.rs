//! Error output: the errors, plus a stub impl so that one mistake does not cascade into
//! "`ToolInput` is not implemented" errors wherever the type is used.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

pub(crate) fn expand(input: &DeriveInput, error: &syn::Error) -> TokenStream {
    let errors = error.to_compile_error();
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        #errors
        const _: () = {
            #[automatically_derived]
            impl #impl_generics ::neuralis::__private::ToolInput for #ident #ty_generics #where_clause {
                fn schema_in(
                    _: &mut ::neuralis::__private::Composer,
                ) -> ::neuralis::__private::Value {
                    ::neuralis::__private::Value::Null
                }
            }
        };
    }
}
