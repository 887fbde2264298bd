//! `neuralis::testing::descriptor!(path)` and `handlers!(path, ...)`: a handler's path to the
//! descriptor `#[tool]` (or `#[tools]`) wrote beside it, so that tests name handlers and
//! never the hidden statics.

use proc_macro2::TokenStream;
use quote::quote;
use syn::punctuated::Punctuated;
use syn::{Path, Token};

use crate::tool::descriptor_ident;

/// The path of the descriptor of the handler at `path`: `a::pick` is the function `pick`
/// of module `a` (descriptor `a::__neuralis_tool_pick`); `a::Notes::add` is the method
/// `add` of a `#[tools]` impl on `Notes` in module `a` (a segment before the last that
/// starts with an upper-case letter names a type, as Rust's naming convention has it).
fn descriptor_path(path: &Path) -> Path {
    let mut out = path.clone();
    let mut segments: Vec<_> = out.segments.into_iter().collect();
    let Some(handler) = segments.pop() else {
        return path.clone();
    };
    let service = match segments.last() {
        Some(s)
            if s.ident
                .to_string()
                .starts_with(|c: char| c.is_ascii_uppercase()) =>
        {
            segments.pop().map(|s| s.ident)
        }
        _ => None,
    };
    let mut last = handler;
    last.ident = descriptor_ident(&last.ident, service.as_ref());
    segments.push(last);
    out.segments = segments.into_iter().collect();
    out
}

/// `descriptor!(path)`: the handler's descriptor, `&'static ToolDescriptor`.
pub(crate) fn descriptor(input: TokenStream) -> TokenStream {
    match syn::parse2::<Path>(input) {
        Ok(path) => {
            let descriptor = descriptor_path(&path);
            quote!(&#descriptor)
        }
        Err(e) => e.to_compile_error(),
    }
}

/// `handlers!(path, ...)`: a package builder holding these handlers' tools.
pub(crate) fn handlers(input: TokenStream) -> TokenStream {
    let parser = Punctuated::<Path, Token![,]>::parse_terminated;
    match syn::parse::Parser::parse2(parser, input) {
        Ok(paths) => {
            let descriptors = paths.iter().map(descriptor_path);
            quote!(::neuralis::testing::package([#(&#descriptors),*]))
        }
        Err(e) => e.to_compile_error(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(path: &str) -> String {
        let path: Path = syn::parse_str(path).expect("a path");
        let out = descriptor_path(&path);
        quote!(#out).to_string().replace(' ', "")
    }

    #[test]
    fn functions_and_methods_name_their_descriptors() {
        assert_eq!(expand("pick"), "__neuralis_tool_pick");
        assert_eq!(expand("crate::a::pick"), "crate::a::__neuralis_tool_pick");
        assert_eq!(expand("r#loop"), "__neuralis_tool_loop");
        assert_eq!(expand("Notes::add"), "__neuralis_tool_Notes__add");
        assert_eq!(
            expand("super::store::Notes::add"),
            "super::store::__neuralis_tool_Notes__add"
        );
    }
}
