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

/// Reports `handler-signature` with `msg` at `tokens`.
fn refuse(cx: &Ctxt, tokens: &dyn quote::ToTokens, msg: &str) {
    cx.error(RuleId::HandlerSignature, tokens, msg);
}

// handler-signature: the toolkit calls the handler with the deserialized input, and
// optionally the call context and the abort signal; anything else it cannot supply.
pub(super) fn read(cx: &Ctxt, tool: &mut Tool, sig: &Signature, mode: Mode) {
    check_qualifiers(cx, sig);
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
        if let Some(param) = param_of(cx, ty) {
            add_param(cx, tool, arg, param);
        }
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
    read_returns(cx, tool, sig);
}

/// Refuses what makes a function unfit for the dispatch table: `const`, `unsafe`, an
/// `extern` ABI, variadic arguments, generics.
fn check_qualifiers(cx: &Ctxt, sig: &Signature) {
    if let Some(c) = &sig.constness {
        refuse(cx, c, "a tool handler cannot be a `const fn`");
    }
    if let syn::Safety::Unsafe(u) = &sig.safety {
        refuse(
            cx,
            u,
            "a tool handler cannot be `unsafe`: the toolkit calls it from safe code",
        );
    }
    if let Some(abi) = &sig.abi {
        refuse(cx, abi, "a tool handler cannot have an `extern` ABI");
    }
    if let Some(v) = &sig.variadic {
        refuse(cx, v, "a tool handler cannot be variadic");
    }
    if !sig.generics.params.is_empty() {
        refuse(
            cx,
            &sig.generics.params,
            "a tool handler cannot be generic: the dispatch table needs one concrete function",
        );
    }
}

/// What a typed parameter is, by its type: the call context, the abort signal, or the
/// input. One taken the wrong way (`&mut`, the context by value, the input by reference)
/// is refused but still classified; `None` for an `impl Trait` input, refused too.
fn param_of(cx: &Ctxt, ty: &Type) -> Option<Param> {
    let param = match ty {
        Type::Reference(r) if is_named(&r.elem, "ToolContext") => {
            if let Some(m) = &r.mutability {
                refuse(
                    cx,
                    m,
                    "the call context is shared: take `&ToolContext`, not `&mut`",
                );
            }
            Param::Context { span: ty.span() }
        }
        t if is_named(t, "ToolContext") => {
            refuse(cx, t, "take the call context by reference: `&ToolContext`");
            Param::Context { span: ty.span() }
        }
        Type::Reference(r) if is_named(&r.elem, "AbortSignal") => {
            if let Some(m) = &r.mutability {
                refuse(
                    cx,
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
            refuse(
                cx,
                r,
                "take the input by value: the toolkit deserializes it for this call and hands it over",
            );
            Param::Input { ty: r.elem.clone() }
        }
        Type::ImplTrait(t) => {
            refuse(
                cx,
                t,
                "the input needs a concrete type that derives `ToolInput`",
            );
            return None;
        }
        t => Param::Input {
            ty: Box::new(t.clone()),
        },
    };
    Some(param)
}

/// Adds `param` (written as `arg`) to the tool's parameters, and the input to its
/// `input`; a second input, context or abort signal is refused instead.
fn add_param(cx: &Ctxt, tool: &mut Tool, arg: &FnArg, param: Param) {
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
        refuse(
            cx,
            arg,
            match &param {
                Param::Input { .. } => {
                    "a tool handler takes one input: put every argument in the input struct"
                }
                Param::Context { .. } => "the call context is taken twice",
                Param::Abort { .. } => "the abort signal is taken twice",
            },
        );
        return;
    }
    if let Param::Input { ty } = &param {
        tool.input = Some((**ty).clone());
    }
    tool.params.push(param);
}

/// Sets the tool's `returns` from the signature's return type, refusing none (`()`) and
/// an `impl Trait` one.
fn read_returns(cx: &Ctxt, tool: &mut Tool, sig: &Signature) {
    tool.returns = match &sig.output {
        ReturnType::Default => Returns::Missing,
        ReturnType::Type(_, ty) => returns_of(ty),
    };
    if let Returns::Missing = tool.returns {
        let tokens: &dyn quote::ToTokens = match &sig.output {
            ReturnType::Default => &sig.ident,
            ReturnType::Type(_, ty) => ty,
        };
        refuse(
            cx,
            tokens,
            "a tool handler returns its result: a type deriving `ToolOutput`, a `ToolResult`, or a `Result` of either",
        );
    }
    if let ReturnType::Type(_, ty) = &sig.output
        && let Type::ImplTrait(t) = &**ty
    {
        refuse(
            cx,
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
