//! `#[neuralis::tools]` on an inherent `impl` block: the service its `#[tool]` methods are
//! called on, and what makes an impl unfit to be one.

use neuralis_model::RuleId;
use syn::ext::IdentExt as _;

use crate::report::Ctxt;

/// The `Self` type of a `#[neuralis::tools]` impl: the service value a package holds once
/// and shares across concurrent calls.
#[derive(Debug, Clone)]
pub struct Service {
    /// The type as written on the impl: a path without generic arguments.
    pub path: syn::Path,
    /// Its last segment (`r#` removed): names the descriptors and the messages.
    pub ident: syn::Ident,
}

impl Service {
    /// The type as written, for messages and generated code (`Tracker`, `store::Notes`).
    #[must_use]
    pub fn display(&self) -> String {
        self.path
            .segments
            .iter()
            .map(|s| s.ident.unraw().to_string())
            .collect::<Vec<_>>()
            .join("::")
    }
}

/// Whether `attr` is the marker, `#[tools]` or `#[neuralis::tools]`.
#[must_use]
pub fn is_tools_attr(attr: &syn::Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "tools")
}

/// Whether `attr` is `#[tool(...)]` or `#[neuralis::tool(...)]`.
#[must_use]
pub fn is_tool_attr(attr: &syn::Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "tool")
}

// handler-signature: the dispatch table names one concrete service type and calls its
// methods by their own names, so the impl is inherent, not generic, on a named type.
/// Reads the impl a `#[neuralis::tools]` marker is on. `None` (with the errors in `cx`)
/// when it cannot be a service.
pub fn parse_service(cx: &Ctxt, item: &syn::ItemImpl) -> Option<Service> {
    let mut fit = true;
    if let Some((path, _)) = &item.trait_ {
        cx.error_with_help(
            RuleId::HandlerSignature,
            path,
            "`#[tools]` goes on an inherent impl, not a trait impl: the dispatch table calls each tool method by its own name",
            "move the tool methods to an `impl Type { ... }` block of their own",
        );
        fit = false;
    }
    if !item.generics.params.is_empty() {
        cx.error_with_help(
            RuleId::HandlerSignature,
            &item.generics.params,
            "a `#[tools]` impl cannot be generic: the package holds one concrete service value",
            "implement the tools on a concrete type (a `struct` that holds the generic one, for example)",
        );
        fit = false;
    }
    let path = match &*item.self_ty {
        syn::Type::Path(p) if p.qself.is_none() => Some(&p.path),
        _ => None,
    };
    let Some(path) = path else {
        cx.error_with_help(
            RuleId::HandlerSignature,
            &item.self_ty,
            "a `#[tools]` impl is on a named type: the service the package holds",
            "implement the tools on a `struct` of your own",
        );
        return None;
    };
    // `impl<T> Notes<T>` is one mistake, reported above.
    let args = path.segments.iter().find_map(|s| match &s.arguments {
        syn::PathArguments::None => None,
        other => Some(other),
    });
    if let Some(args) = args.filter(|_| item.generics.params.is_empty()) {
        cx.error_with_help(
            RuleId::HandlerSignature,
            args,
            "a `#[tools]` impl names its type without generic arguments: the dispatch table names each service by its type's name",
            "implement the tools on a `struct` that holds this type",
        );
        return None;
    }
    let ident = path.segments.last()?.ident.clone();
    fit.then(|| Service {
        path: path.clone(),
        ident,
    })
}

/// The name of the descriptor `#[tool]` puts beside a handler, or `#[tools]` beside a
/// method's impl: `__neuralis_tool_<handler>` for a function,
/// `__neuralis_tool_<Type>__<method>` for a method (two services may have methods of one
/// name in one module).
#[must_use]
pub fn descriptor_name(handler: &syn::Ident, service: Option<&syn::Ident>) -> String {
    let handler = handler.unraw().to_string();
    match service {
        None => format!("__neuralis_tool_{handler}"),
        Some(s) => format!("__neuralis_tool_{}__{handler}", s.unraw()),
    }
}

/// A method of an impl as a function item, for [`parse_method`](super::parse_method).
#[must_use]
pub fn method_as_fn(method: &syn::ImplItemFn) -> syn::ItemFn {
    syn::ItemFn {
        attrs: method.attrs.clone(),
        vis: method.vis.clone(),
        modifiers: method.modifiers.clone(),
        sig: method.sig.clone(),
        block: Box::new(method.block.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(item: syn::ItemImpl) -> (Option<Service>, Vec<String>) {
        let cx = Ctxt::new();
        let service = parse_service(&cx, &item);
        let errors = cx
            .check()
            .err()
            .map(|e| e.into_iter().map(|e| e.to_string()).collect())
            .unwrap_or_default();
        (service, errors)
    }

    #[test]
    fn an_inherent_impl_on_a_named_type_is_a_service() {
        let (s, e) = errors(syn::parse_quote!(impl store::Notes {}));
        assert!(e.is_empty(), "{e:?}");
        let s = s.expect("a service");
        assert_eq!(s.ident, "Notes");
        assert_eq!(s.display(), "store::Notes");
        let r: syn::Ident = syn::parse_quote!(r#list);
        assert_eq!(
            descriptor_name(&r, Some(&s.ident)),
            "__neuralis_tool_Notes__list"
        );
        assert_eq!(descriptor_name(&r, None), "__neuralis_tool_list");
    }

    #[test]
    fn trait_generic_and_unnamed_impls_are_refused_once_each() {
        for (item, expect) in [
            (
                syn::parse_quote!(impl Clone for Notes {}),
                "not a trait impl",
            ),
            (
                syn::parse_quote!(
                    impl<T> Notes<T> {}
                ),
                "cannot be generic",
            ),
            (
                syn::parse_quote!(impl Notes<u8> {}),
                "without generic arguments",
            ),
            (syn::parse_quote!(impl [u8] {}), "on a named type"),
        ] {
            let (s, e) = errors(item);
            assert!(s.is_none());
            assert_eq!(e.len(), 1, "{e:?}");
            assert!(e[0].starts_with("handler-signature: "), "{e:?}");
            assert!(e[0].contains(expect), "{e:?}");
        }
    }
}
