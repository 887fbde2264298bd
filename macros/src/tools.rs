//! `#[neuralis::tools]` on an inherent impl: the impl as written with its `#[tool(...)]`
//! attributes taken off, and beside it one descriptor static per tool method, which calls
//! the method on the service the package holds.

use neuralis_model::RuleId;
use neuralis_syntax::Ctxt;
use neuralis_syntax::tool::{is_tool_attr, method_as_fn, parse_method, parse_service};
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Attribute, ImplItem, ItemImpl, Meta};

use crate::tool::{descriptor, stub};

fn error(tokens: impl quote::ToTokens, message: &str, help: &str) -> TokenStream {
    let text = format!("{}: {message}\n= help: {help}", RuleId::HandlerSignature);
    syn::Error::new_spanned(tokens.into_token_stream(), text).to_compile_error()
}

fn args_of(attr: &Attribute) -> TokenStream {
    match &attr.meta {
        Meta::List(l) => l.tokens.clone(),
        _ => TokenStream::new(),
    }
}

/// The `#[cfg]`s of a method: its descriptor exists exactly when the method does.
fn cfgs(attrs: &[Attribute]) -> Vec<Attribute> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .cloned()
        .collect()
}

pub(crate) fn tools(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut item: ItemImpl = match syn::parse2(item.clone()) {
        Ok(i) => i,
        Err(_) => {
            let text = format!(
                "{}: `#[tools]` goes on an `impl` block: the service whose `#[tool]` methods it collects\n= help: write `#[neuralis::tools] impl MyService {{ ... }}`, and `#[tool(...)]` on its methods",
                RuleId::HandlerSignature
            );
            let err = syn::Error::new(Span::call_site(), text).to_compile_error();
            return quote!(#err #item);
        }
    };
    let mut out = TokenStream::new();
    if !args.is_empty() {
        out.extend(error(
            &args,
            "`#[tools]` takes no arguments",
            "the keys of each tool go on its method's `#[tool(...)]`",
        ));
    }
    let cx = Ctxt::new();
    let service = parse_service(&cx, &item);
    if let Err(e) = cx.check() {
        out.extend(e.to_compile_error());
    }
    let mut descriptors = TokenStream::new();
    for impl_item in &mut item.items {
        let ImplItem::Fn(method) = impl_item else {
            continue;
        };
        let Some(pos) = method.attrs.iter().position(is_tool_attr) else {
            continue;
        };
        // The attribute stays, with its path as written (so the import that brings it is
        // used) and the one argument that makes it hand the method back untouched.
        let attr = method.attrs[pos].clone();
        let path = attr.path().clone();
        let read = quote::format_ident!("{}", crate::tool::METHOD_READ);
        method.attrs[pos] = syn::parse_quote!(#[#path(#read)]);
        if let Some(again) = method
            .attrs
            .iter()
            .skip(pos + 1)
            .position(is_tool_attr)
            .map(|i| i + pos + 1)
        {
            let extra = method.attrs.remove(again);
            out.extend(error(
                &extra,
                "a method takes one `#[tool(...)]`",
                "merge the two attributes into one",
            ));
        }
        let mut as_fn = method_as_fn(method);
        as_fn.attrs.remove(pos);
        let cfgs = cfgs(&method.attrs);
        let cx = Ctxt::new();
        let tool = parse_method(&cx, args_of(&attr), &as_fn, service.as_ref());
        let checked = cx.check();
        if let Err(e) = &checked {
            out.extend(e.to_compile_error());
        }
        // Without a service there is no type to call or to name a stub by: the impl's
        // error says why.
        let Some(service) = &service else {
            continue;
        };
        descriptors.extend(match checked {
            Ok(()) => descriptor(&tool, &method.sig, &cfgs),
            Err(_) => stub(
                &method.sig.ident,
                Some(&service.ident),
                &method.vis,
                Some(&tool),
                &cfgs,
            ),
        });
    }
    quote! {
        #out
        #item
        #descriptors
    }
}
