//! Error output: the errors, plus a stub impl so that one mistake does not cascade into
//! "`ToolInput` is not implemented" errors wherever the type is used (nor `ElicitForm`,
//! for a form a handler asks for), nor into
//! `input-not-struct`, `askonkeys-undeclared` or `defaults-undeclared` at a `#[tool]`
//! that takes the type: the stub carries the root keys the source declares.

use neuralis_model::contract::rules::RESERVED_INPUT_KEYS;
use neuralis_syntax::ast::{Container, Data, Style};
use proc_macro2::TokenStream;
use quote::quote;

use syn::DeriveInput;

/// `#[schema(crate = "...")]`, read leniently: the attribute may be the error.
pub(crate) fn crate_path(input: &DeriveInput) -> Option<syn::Path> {
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
    found
}

/// `ROOT_KEYS` and `ROOT_SHAPES` of the stub: the property names the model could read
/// (the reserved ones left out: the derive reports those), flattened types by reference,
/// every shape `Any` (the literal checks wait for a type that compiles).
fn root_keys(p: &TokenStream, cont: Option<&Container>) -> TokenStream {
    let Some(Data::Struct(Style::Named, fields)) = cont.map(|c| &c.data) else {
        return TokenStream::new();
    };
    let mut keys = Vec::new();
    let mut shapes = Vec::new();
    for f in fields.iter().filter(|f| !f.is_skipped()) {
        let ty = &f.ty;
        if f.serde.flatten.is_some() {
            keys.push(quote!(#p::RootKey::Flatten(<#ty as #p::ToolInput>::ROOT_KEYS)));
            shapes.push(quote!(#p::KeyShape::Flatten(<#ty as #p::ToolInput>::ROOT_SHAPES)));
        } else if !RESERVED_INPUT_KEYS.contains(&f.name.value.as_str()) {
            let name = &f.name.value;
            keys.push(quote!(#p::RootKey::Name(#name)));
            shapes.push(quote!(#p::KeyShape::Key(#name, #p::Shape::Any, #p::Bounds::NONE)));
        }
    }
    quote! {
        const ROOT_KEYS: &'static [#p::RootKey] = &[#(#keys),*];
        const ROOT_SHAPES: &'static [#p::KeyShape] = &[#(#shapes),*];
    }
}

pub(crate) fn expand(
    input: &DeriveInput,
    cont: Option<&Container>,
    error: &syn::Error,
) -> TokenStream {
    let errors = error.to_compile_error();
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let krate = crate_path(input);
    let p = crate::private::private_path(krate.as_ref());
    // A generic stub has no bounds to name its parameters' keys with.
    let keys = if input.generics.type_params().next().is_some() {
        TokenStream::new()
    } else {
        root_keys(&p, cont)
    };
    // A form's mistake is reported on its field; the form stays one, so the handler that
    // asks for it (`cx.elicit::<T>()`) gets no second error.
    let form = match cont {
        Some(c) if c.schema.elicitation.is_some() => match c.data {
            Data::Enum(_) => quote! {
                #[automatically_derived]
                impl #impl_generics #p::ElicitChoice for #ident #ty_generics #where_clause {}
            },
            Data::Struct(..) => quote! {
                #[automatically_derived]
                impl #impl_generics #p::ElicitForm for #ident #ty_generics #where_clause {}
            },
        },
        _ => TokenStream::new(),
    };
    quote! {
        #errors
        const _: () = {
            #form
            #[automatically_derived]
            impl #impl_generics #p::ToolInput for #ident #ty_generics #where_clause {
                #keys
                const IS_OBJECT: bool = true;
                const RESERVED_CHECKED: bool = true;
                fn schema_name() -> #p::Cow<'static, str> {
                    #p::Cow::Borrowed(::core::stringify!(#ident))
                }
                fn schema_in(
                    _: &mut #p::Composer,
                ) -> #p::Value {
                    #p::Value::Null
                }
            }
        };
    }
}
