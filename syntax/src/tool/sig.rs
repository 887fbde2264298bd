//! The handler's signature: which parameter is the input, the context, the abort signal.
//! Parameters are recognised by their last path segment (`ToolContext`, `AbortSignal`);
//! the return type is not classified here at all: the generated code lets the type system
//! decide how it becomes a result (`neuralis_core::dispatch::__private`).

use neuralis_model::RuleId;
use proc_macro2::Span;
use syn::spanned::Spanned as _;
use syn::{FnArg, ReturnType, Signature, Type};

use super::Tool;
use crate::report::Ctxt;

/// One handler parameter.
#[derive(Debug, Clone)]
pub enum Param {
    /// The input, by value.
    Input {
        /// Its type.
        ty: Box<Type>,
    },
    /// `&ToolContext`.
    Context {
        /// The parameter's span.
        span: Span,
    },
    /// `AbortSignal` (by value or by reference).
    Abort {
        /// The parameter's span.
        span: Span,
        /// Taken as `&AbortSignal`.
        by_ref: bool,
    },
}

/// What a handler returns.
#[derive(Debug, Clone)]
pub enum Returns {
    /// No return type (`()`): refused by `handler-signature`.
    Missing,
    /// A type; the compiler decides how it becomes a result (a `ToolResult` or another
    /// `IntoToolResult` type, a `Result` of a `Serialize` value, a `Serialize` value).
    Type(Box<Type>),
}

fn last_segment(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last(),
        Type::Group(g) => last_segment(&g.elem),
        Type::Paren(p) => last_segment(&p.elem),
        _ => None,
    }
}

fn is_named(ty: &Type, name: &str) -> bool {
    last_segment(ty).is_some_and(|s| s.ident == name)
}

fn returns_of(ty: &Type) -> Returns {
    match ty {
        Type::Tuple(t) if t.elems.is_empty() => Returns::Missing,
        Type::Paren(p) => returns_of(&p.elem),
        Type::Group(g) => returns_of(&g.elem),
        other => Returns::Type(Box::new(other.clone())),
    }
}

/// Where the handler is: a free function, or a method of a `#[neuralis::tools]` impl.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    Free,
    Method,
}

const SHARED_HELP: &str = "take `&self`, and keep what the tools change behind a `Mutex`, an `RwLock` or atomics inside the service";

// handler-signature: a method is called on the one service value the package holds,
// shared by every call at once: only `&self` can be handed to each.
fn receiver(cx: &Ctxt, r: &syn::Receiver, mode: Mode) -> bool {
    if mode == Mode::Free {
        cx.error_with_help(
            RuleId::HandlerSignature,
            r,
            "a `#[tool]` method needs `#[neuralis::tools]` on its impl",
            "add `#[neuralis::tools]` on the inherent `impl Type { ... }` block: it collects the block's tools, and the package is given the service value with `.service(...)`; in a trait impl (`impl Trait for Type`), move the tool methods to an inherent `impl Type` block of their own and mark that one",
        );
        return false;
    }
    let msg = match &r.kind {
        syn::ReceiverKind::Reference(_, _, None) => return true,
        syn::ReceiverKind::Reference(_, _, Some(_)) => {
            "a tool method takes `&self`, not `&mut self`: calls run concurrently on one shared service"
        }
        syn::ReceiverKind::Value => {
            "a tool method takes `&self`, not `self`: the package holds one service, shared by concurrent calls, and never moves it into one"
        }
        _ => {
            "a tool method takes `&self`: the package holds one service, shared by concurrent calls"
        }
    };
    cx.error_with_help(RuleId::HandlerSignature, r, msg, SHARED_HELP);
    false
}

// handler-signature: the toolkit calls the handler with the deserialized input, and
// optionally the call context and the abort signal; anything else it cannot supply.
pub(super) fn read(cx: &Ctxt, tool: &mut Tool, sig: &Signature, mode: Mode) {
    let bad = |tokens: &dyn quote::ToTokens, msg: &str| {
        cx.error(RuleId::HandlerSignature, tokens, msg);
    };
    if let Some(c) = &sig.constness {
        bad(c, "a tool handler cannot be a `const fn`");
    }
    if let syn::Safety::Unsafe(u) = &sig.safety {
        bad(
            u,
            "a tool handler cannot be `unsafe`: the toolkit calls it from safe code",
        );
    }
    if let Some(abi) = &sig.abi {
        bad(abi, "a tool handler cannot have an `extern` ABI");
    }
    if let Some(v) = &sig.variadic {
        bad(v, "a tool handler cannot be variadic");
    }
    if !sig.generics.params.is_empty() {
        bad(
            &sig.generics.params,
            "a tool handler cannot be generic: the dispatch table needs one concrete function",
        );
    }
    let mut has_receiver = false;
    for arg in &sig.inputs {
        let ty = match arg {
            FnArg::Receiver(r) => {
                has_receiver = true;
                receiver(cx, r, mode);
                continue;
            }
            FnArg::Typed(t) => &*t.ty,
        };
        let param = match ty {
            Type::Reference(r) if is_named(&r.elem, "ToolContext") => {
                if let Some(m) = &r.mutability {
                    bad(
                        m,
                        "the call context is shared: take `&ToolContext`, not `&mut`",
                    );
                }
                Param::Context { span: ty.span() }
            }
            t if is_named(t, "ToolContext") => {
                bad(t, "take the call context by reference: `&ToolContext`");
                Param::Context { span: ty.span() }
            }
            Type::Reference(r) if is_named(&r.elem, "AbortSignal") => {
                if let Some(m) = &r.mutability {
                    bad(
                        m,
                        "take the abort signal as `AbortSignal` or `&AbortSignal`",
                    );
                }
                Param::Abort {
                    span: ty.span(),
                    by_ref: true,
                }
            }
            t if is_named(t, "AbortSignal") => Param::Abort {
                span: ty.span(),
                by_ref: false,
            },
            Type::Reference(r) => {
                bad(
                    r,
                    "take the input by value: the toolkit deserializes it for this call and hands it over",
                );
                Param::Input { ty: r.elem.clone() }
            }
            Type::ImplTrait(t) => {
                bad(
                    t,
                    "the input needs a concrete type that derives `ToolInput`",
                );
                continue;
            }
            t => Param::Input {
                ty: Box::new(t.clone()),
            },
        };
        let dup = |what: &str| {
            tool.params.iter().any(|p| match (p, &param) {
                (Param::Context { .. }, Param::Context { .. })
                | (Param::Abort { .. }, Param::Abort { .. }) => true,
                (Param::Input { .. }, Param::Input { .. }) => what == "input",
                _ => false,
            })
        };
        let taken = match &param {
            Param::Input { .. } => dup("input"),
            _ => dup(""),
        };
        if taken {
            bad(
                arg,
                match &param {
                    Param::Input { .. } => {
                        "a tool handler takes one input: put every argument in the input struct"
                    }
                    Param::Context { .. } => "the call context is taken twice",
                    Param::Abort { .. } => "the abort signal is taken twice",
                },
            );
            continue;
        }
        if let Param::Input { ty } = &param {
            tool.input = Some((**ty).clone());
        }
        tool.params.push(param);
    }
    if mode == Mode::Method && !has_receiver {
        cx.error_with_help(
            RuleId::HandlerSignature,
            &sig.ident,
            "a tool in a `#[tools]` impl is a method: it takes `&self`",
            "take `&self`, or move the function out of the impl: a tool without the service is a free function",
        );
    }
    if tool.input.is_none() {
        cx.error(
            RuleId::HandlerSignature,
            &sig.ident,
            "a tool handler takes its input by value: add a parameter whose type derives `ToolInput`",
        );
    }
    tool.returns = match &sig.output {
        ReturnType::Default => Returns::Missing,
        ReturnType::Type(_, ty) => returns_of(ty),
    };
    if let Returns::Missing = tool.returns {
        let tokens: &dyn quote::ToTokens = match &sig.output {
            ReturnType::Default => &sig.ident,
            ReturnType::Type(_, ty) => ty,
        };
        bad(
            tokens,
            "a tool handler returns its result: a type deriving `ToolOutput`, a `ToolResult`, or a `Result` of either",
        );
    }
    if let ReturnType::Type(_, ty) = &sig.output
        && let Type::ImplTrait(t) = &**ty
    {
        bad(
            t,
            "name the return type: the toolkit decides from it how the value becomes a result",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ret(ty: Type) -> Returns {
        returns_of(&ty)
    }

    #[test]
    fn return_types_are_not_classified_by_name() {
        assert!(matches!(ret(syn::parse_quote!(())), Returns::Missing));
        for ty in [
            syn::parse_quote!(ToolResult),
            syn::parse_quote!(Reply),
            syn::parse_quote!(Result<Forecast, String>),
        ] {
            let Returns::Type(t) = ret(ty) else {
                panic!("a type");
            };
            let _ = t;
        }
    }
}
