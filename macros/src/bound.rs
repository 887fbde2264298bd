//! `#[tool(bound(...))]` in the expansion: the descriptor's `ToolBound`, and the `const`
//! assertion that `more` names a root property of the input (`bound-attr`), which needs
//! the input type's root keys as `askonkeys-undeclared` does.

use neuralis_syntax::tool::Tool;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

/// The descriptor's `bound`: the caps the attribute gives and its `more`, the rest
/// `ToolBound::NONE`.
pub(crate) fn descriptor_bound(p: &TokenStream, tool: &Tool) -> TokenStream {
    let caps = tool.bound.caps.iter().map(|(name, value)| {
        let field = format_ident!("{}", name);
        let n = proc_macro2::Literal::u64_unsuffixed(value.value);
        quote_spanned!(value.span=> #field: ::core::option::Option::Some(#n),)
    });
    let more = tool.bound.more.as_ref().map(|m| {
        let name = &m.value;
        quote!(more: ::core::option::Option::Some(#name),)
    });
    let offset = tool
        .bound
        .more_value
        .as_ref()
        .map(|v| quote_spanned!(v.span=> more_offset: true,));
    quote!(#p::ToolBound { #(#caps)* #more #offset ..#p::ToolBound::NONE })
}

/// `bound-attr` on `more`: it names a root property of `input` (after serde renaming and
/// flatten), at the name's token; with `more_value = "offset"`, an integer one, at the
/// value's token.
pub(crate) fn more_assert(
    p: &TokenStream,
    tool: &Tool,
    input: &syn::Type,
    ty_name: &str,
) -> Option<TokenStream> {
    let more = tool.bound.more.as_ref()?;
    let name = &more.value;
    let mut out = crate::private::const_check(
        p,
        more.span,
        quote!(root_key_message::<#input>(#p::Given::BoundMore, #name, #ty_name)),
    );
    if let Some(value) = &tool.bound.more_value {
        out.extend(crate::private::const_check(
            p,
            value.span,
            quote!(more_offset_message::<#input>(#name, #ty_name)),
        ));
    }
    Some(out)
}
