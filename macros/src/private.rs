//! What the expansion writes to reach the facade: the path of `__private` (under
//! `::neuralis`, or the path `crate = "..."` gives), a compile-time check calling one of
//! its `const fn`s, and a JSON literal as its `Lit`.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use serde_json::Value;

/// `#krate::__private`: `krate` the path `crate = "..."` gave, `::neuralis` without one.
pub(crate) fn private_path(krate: Option<&syn::Path>) -> TokenStream {
    match krate {
        Some(krate) => quote!(#krate::__private),
        None => quote!(::neuralis::__private),
    }
}

/// One compile-time check: `const _` calling `message` (a generic `const fn` of
/// `__private` that returns the rule's message, empty when it holds) and panicking with it
/// at `span`, the token the rule is about.
pub(crate) fn const_check(p: &TokenStream, span: Span, message: TokenStream) -> TokenStream {
    quote_spanned! {span=>
        const _: () = {
            let __m = #p::#message;
            if !__m.is_empty() {
                ::core::panic!("{}", __m.as_str());
            }
        };
    }
}

/// A JSON literal as a `shape::Lit`; `None` for what no literal check reads (`null`,
/// objects), which the build emitter and the package loader check.
pub(crate) fn lit_tokens(p: &TokenStream, value: &Value) -> Option<TokenStream> {
    Some(match value {
        Value::Bool(_) => quote!(#p::Lit::Bool),
        Value::Number(n) => match n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)) {
            Some(i) => {
                let i = proc_macro2::Literal::i128_suffixed(i);
                quote!(#p::Lit::Int(#i))
            }
            None => {
                let f = proc_macro2::Literal::f64_suffixed(n.as_f64()?);
                quote!(#p::Lit::Float(#f))
            }
        },
        Value::String(s) => quote!(#p::Lit::Str(#s)),
        Value::Array(items) => {
            let items = items
                .iter()
                .map(|i| lit_tokens(p, i))
                .collect::<Option<Vec<_>>>()?;
            quote!(#p::Lit::Array(&[#(#items),*]))
        }
        _ => return None,
    })
}
