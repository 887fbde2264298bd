//! `#[tool(...)]`: the handler, kept as written, plus a hidden `ToolDescriptor` static
//! the dispatch table names, plus `const` assertions for the rules that need the input
//! type's root keys.

use neuralis_syntax::Ctxt;
use neuralis_syntax::attr::docs::DocPart;
use neuralis_syntax::tool::{Param, Tool, parse_tool};
use neuralis_syntax::types::type_text;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens as _, format_ident, quote, quote_spanned};
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;
use syn::{Attribute, Ident, ItemFn, Signature, Visibility};

use crate::private::{const_check, lit_tokens, private_path};

/// The name of the descriptor static beside a handler, or beside a method's impl.
pub(crate) fn descriptor_ident(handler: &Ident, service: Option<&Ident>) -> Ident {
    let name = neuralis_syntax::tool::descriptor_name(handler, service);
    format_ident!("{}", name, span = handler.span())
}

/// What `#[tools]` leaves on a method it has read: the method is handed back as is.
pub(crate) const METHOD_READ: &str = "__neuralis_method";

pub(crate) fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    if syn::parse2::<Ident>(args.clone()).is_ok_and(|a| a == METHOD_READ) {
        return item;
    }
    let item_fn: ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) => {
            let msg = format!(
                "{}: `#[tool]` goes on a function: the handler of the tool\n= help: {}",
                neuralis_model::RuleId::HandlerSignature,
                neuralis_model::RuleId::HandlerSignature.rule().hint
            );
            let err = syn::Error::new(Span::call_site(), msg).to_compile_error();
            return quote!(#err #item);
        }
    };
    let cx = Ctxt::new();
    let tool = parse_tool(&cx, args, &item_fn);
    match cx.check() {
        // A function with `self` sits in an impl without `#[tools]` (the error says so):
        // a descriptor `static` there would be a second error.
        Err(e) if item_fn.sig.receiver().is_some() => {
            let errors = e.to_compile_error();
            quote!(#errors #item_fn)
        }
        Ok(()) => {
            let descriptor = descriptor(&tool, &item_fn.sig, &[]);
            quote!(#item_fn #descriptor)
        }
        Err(e) => {
            let errors = e.to_compile_error();
            let stub = stub(&item_fn.sig.ident, None, &item_fn.vis, Some(&tool), &[]);
            quote!(#errors #item_fn #stub)
        }
    }
}

/// The descriptor's visibility: the handler's, at least `pub(crate)` so that the
/// package's dispatch table can name it.
fn descriptor_vis(vis: &Visibility) -> TokenStream {
    match vis {
        Visibility::Inherited => quote!(pub(crate)),
        other => other.to_token_stream(),
    }
}

/// A descriptor that calls nothing, beside a handler whose `#[tool]` has errors, so the
/// rest of the crate (and the dispatch table) still type-checks.
pub(crate) fn stub(
    handler: &Ident,
    service: Option<&Ident>,
    vis: &Visibility,
    tool: Option<&Tool>,
    cfgs: &[Attribute],
) -> TokenStream {
    let p = private_path(tool.and_then(|t| t.krate.as_ref()).map(|k| &k.value));
    let ident = descriptor_ident(handler, service);
    let vis = descriptor_vis(vis);
    let name = tool.map_or_else(|| handler.unraw().to_string(), |t| t.name.value.clone());
    let fields = quote! {
            name: #name,
            x_neuralis: "{}",
            description: &[],
            schema: #p::no_schema,
            root_keys: &[],
            cancellable: false,
            service: ::core::option::Option::None,
            output: #p::no_output,
            bound: #p::ToolBound::NONE,
            task: #p::TaskMode::FORBIDDEN,
            headers: &[],
            handler: #p::Adapter::Sync(#p::unavailable),
    };
    descriptor_static(&p, cfgs, &vis, &ident, &fields)
}

/// The hidden `static` descriptor of a handler, with its `#[cfg]`s and `fields`.
fn descriptor_static(
    p: &TokenStream,
    cfgs: &[Attribute],
    vis: &TokenStream,
    ident: &Ident,
    fields: &TokenStream,
) -> TokenStream {
    quote! {
        #(#cfgs)*
        #[doc(hidden)]
        #[allow(non_upper_case_globals, non_snake_case, dead_code)]
        #vis static #ident: #p::ToolDescriptor = #p::ToolDescriptor { #fields };
    }
}

/// The descriptor static of a checked tool and its `const` assertions. A method's
/// (`tool.service` set) reads its service from the call's state and calls the method on
/// it; `cfgs` are the method's `#[cfg]`s, which the static and the assertions share.
pub(crate) fn descriptor(tool: &Tool, sig: &Signature, cfgs: &[Attribute]) -> TokenStream {
    let p = private_path(tool.krate.as_ref().map(|k| &k.value));
    let service = tool.service.as_ref();
    let Some(input) = &tool.input else {
        // `parse_tool` reports a missing input; no error means there is one.
        let bug = syn::Error::new(Span::call_site(), "bug in neuralis-macros, please report")
            .to_compile_error();
        let stub = stub(
            &tool.ident,
            service.map(|s| &s.ident),
            &tool.vis,
            Some(tool),
            cfgs,
        );
        return quote!(#bug #stub);
    };
    let handler = &tool.ident;
    let ident = descriptor_ident(handler, service.map(|s| &s.ident));
    let vis = descriptor_vis(&tool.vis);
    let name = &tool.name.value;
    let x_neuralis = tool.x_neuralis().to_string();
    let docs = tool.docs.parts.iter().map(|part| match part {
        DocPart::Text(t) => quote!(#t),
        DocPart::Expr(e) => e.clone(),
    });
    let cancellable = tool.is_cancellable();
    let (adapter, service_type) = adapter(&p, tool, sig, input);
    let output_fn = output_fn(&p, &sig.output);
    let bound = crate::bound::descriptor_bound(&p, tool);
    let task = task_mode(&p, tool);
    let asserts = asserts(&p, tool, input, cfgs);
    let fields = quote! {
            name: #name,
            x_neuralis: #x_neuralis,
            description: &[#(#docs),*],
            schema: #p::root_schema::<#input>,
            root_keys: <#input as #p::ToolInput>::ROOT_KEYS,
            cancellable: #cancellable,
            service: #service_type,
            output: #output_fn,
            bound: #bound,
            task: #task,
            headers: <#input as #p::ToolInput>::HEADERS,
            handler: #adapter,
    };
    let descriptor = descriptor_static(&p, cfgs, &vis, &ident, &fields);
    quote!(#descriptor #asserts)
}

/// The descriptor's `handler` (the adapter that reads the input, finds a method's
/// service, calls the handler and converts what it returns) and its `service`.
fn adapter(
    p: &TokenStream,
    tool: &Tool,
    sig: &Signature,
    input: &syn::Type,
) -> (TokenStream, TokenStream) {
    let handler = &tool.ident;
    let service = tool.service.as_ref();
    let args = tool.params.iter().map(|param| match param {
        Param::Input { .. } => quote!(__input),
        Param::Context { .. } => quote!(__cx),
        Param::Abort { by_ref: false, .. } => quote!(#p::abort_signal(__cx)),
        Param::Abort { by_ref: true, .. } => quote!(&#p::abort_signal(__cx)),
    });
    let (receiver, call, service_type) = match service {
        Some(s) => {
            let ty = &s.path;
            let display = s.display();
            (
                quote!(let __svc: &#ty = #p::service::<#ty>(__cx, #display)?;),
                quote!(__svc.#handler(#(#args),*)),
                quote!(::core::option::Option::Some(#p::ServiceType::of::<#ty>(#display))),
            )
        }
        None => (
            TokenStream::new(),
            quote!(#handler(#(#args),*)),
            quote!(::core::option::Option::None),
        ),
    };
    let convert = convert(p, &sig.output, handler.span());
    let deserialize = quote_spanned!(input.span()=> #p::deserialize::<#input>(__args, __cx)?);
    let adapter = if tool.is_async {
        quote! {
            #p::Adapter::Async({
                fn __neuralis_call<'a>(
                    __args: #p::Arguments<'_>,
                    __cx: &'a #p::ToolContext,
                ) -> ::core::result::Result<
                    #p::BoxFuture<'a, ::core::result::Result<#p::ToolResult, #p::CallError>>,
                    #p::CallError,
                > {
                    let __input = #deserialize;
                    ::core::result::Result::Ok(#p::boxed(async move {
                        #receiver
                        let __out = #call.await;
                        ::core::result::Result::Ok(#convert)
                    }))
                }
                __neuralis_call
            })
        }
    } else {
        quote! {
            #p::Adapter::Sync({
                fn __neuralis_call(
                    __args: #p::Arguments<'_>,
                    __cx: &#p::ToolContext,
                ) -> ::core::result::Result<#p::ToolResult, #p::CallError> {
                    #receiver
                    let __input = #deserialize;
                    let __out = #call;
                    ::core::result::Result::Ok(#convert)
                }
                __neuralis_call
            })
        }
    };
    (adapter, service_type)
}

/// The descriptor's `task`: `TaskMode::FORBIDDEN` unless the attribute says otherwise.
fn task_mode(p: &TokenStream, tool: &Tool) -> TokenStream {
    use neuralis_model::task::{TaskStart, TaskSupport};
    let mode = tool.task.mode();
    let support = match mode.support {
        TaskSupport::Optional => quote!(Optional),
        TaskSupport::Required => quote!(Required),
        _ => return quote!(#p::TaskMode::FORBIDDEN),
    };
    let start = match mode.start {
        TaskStart::Handler => quote!(Handler),
        _ => quote!(Call),
    };
    quote!(#p::TaskMode::new(#p::TaskSupport::#support).starting(#p::TaskStart::#start))
}

/// The descriptor's `output`: what the return type declares, decided by the type system
/// like its conversion (`dispatch::returned::OutputProbe`). A type the static cannot name
/// (`impl Trait`, `Self` of a method) declares none.
fn output_fn(p: &TokenStream, output: &syn::ReturnType) -> TokenStream {
    let syn::ReturnType::Type(_, ty) = output else {
        return quote!(#p::no_output);
    };
    fn unnameable(tokens: TokenStream) -> bool {
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == "impl" || i == "Self",
            proc_macro2::TokenTree::Group(g) => unnameable(g.stream()),
            _ => false,
        })
    }
    if unnameable(ty.to_token_stream()) {
        return quote!(#p::no_output);
    }
    quote! {{
        fn __neuralis_output() -> ::core::option::Option<#p::Output> {
            #[allow(unused_imports)]
            use #p::{
                ViaIntoOutput as _, ViaNoOutput as _, ViaOutput as _, ViaResultOutput as _,
                ViaResultWritten as _, ViaWritten as _,
            };
            (&&&&&#p::OutputProbe::<#ty>::NEW).__neuralis_output()
        }
        __neuralis_output
    }}
}

/// `__out` as a `ToolResult`: the type system decides how (see
/// `neuralis_core::dispatch::returned`), so a `type` alias of `ToolResult` or of `Result`
/// converts as what it names. A refusal points at what it is about: the error type of a
/// `Result<T, E>` written as such, its `T`, else the return type (or the handler's name).
fn convert(p: &TokenStream, output: &syn::ReturnType, handler: Span) -> TokenStream {
    let (split, kind) = match output {
        syn::ReturnType::Type(_, ty) => match result_args(ty) {
            Some((ok, err)) => (err.span(), ok.span()),
            None => (ty.span(), ty.span()),
        },
        syn::ReturnType::Default => (handler, handler),
    };
    let split = quote_spanned! {split=>
        (&&#p::Returned(&__out)).__neuralis_split().split(__out)
    };
    let kind = quote_spanned! {kind=>
        (&&#p::Returned(&__v)).__neuralis_kind().convert(__v, __cx)
    };
    quote! {
        {
            #[allow(unused_imports)]
            use #p::{
                ViaIntoToolResult as _, ViaOutputKind as _, ViaPlain as _, ViaResult as _,
                ViaSerialize as _,
            };
            match #split {
                ::core::result::Result::Ok(__v) => #kind,
                ::core::result::Result::Err(__e) => *__e,
            }
        }
    }
}

/// `T` and `E` of a return type written `Result<T, E>` (any path ending in `Result`).
fn result_args(ty: &syn::Type) -> Option<(&syn::Type, &syn::Type)> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let mut types = args.args.iter().filter_map(|a| match a {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    });
    match (types.next(), types.next(), types.next()) {
        (Some(ok), Some(err), None) => Some((ok, err)),
        _ => None,
    }
}

/// `input-not-struct`, `reserved-input-key` on the input's root keys (unless the derive
/// of a `#[schema(root)]` type already refuses them), and `askonkeys-undeclared` and
/// `defaults-undeclared`: each key is a root property of the input (after serde renaming
/// and flatten) and each default literal fits its type and the field's bounds, even when
/// the input type is defined in another module or crate. Each is one `const` calling a
/// generic helper of `__private` (see [`const_check`]).
fn asserts(p: &TokenStream, tool: &Tool, input: &syn::Type, cfgs: &[Attribute]) -> TokenStream {
    let ty_name = type_text(input);
    // The input need not be marked `#[schema(root)]`: being a tool's input makes it one.
    let mut out = vec![const_check(
        p,
        input.span(),
        quote!(tool_input_message::<#input>(#ty_name)),
    )];
    let defaults = tool.defaults();
    for key in &tool.ask_on_keys() {
        let name = &key.value;
        out.push(const_check(
            p,
            key.span,
            quote!(root_key_message::<#input>(#p::Given::AskOnKeys, #name, #ty_name)),
        ));
    }
    for d in &defaults {
        let name = &d.key.value;
        out.push(const_check(
            p,
            d.key.span,
            quote!(root_key_message::<#input>(#p::Given::Defaults, #name, #ty_name)),
        ));
    }
    for d in &defaults {
        let Some(lit) = lit_tokens(p, &d.value.value) else {
            continue;
        };
        let name = &d.key.value;
        let written = format!("{} = {}", d.key.value, d.value.value);
        out.push(const_check(
            p,
            d.value.span,
            quote!(default_value_message::<#input>(#name, #lit, #written)),
        ));
    }
    out.extend(crate::bound::more_assert(p, tool, input, &ty_name));
    let asserts = out.into_iter().map(|a| quote!(#(#cfgs)* #a));
    quote!(#(#asserts)*)
}
