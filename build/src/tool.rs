//! A `#[tool]` handler as the emitter needs it, read with the syntax crate's model.

use neuralis_syntax::Ctxt;
use neuralis_syntax::tool::{parse_method, parse_service, parse_tool};
use proc_macro2::{Span, TokenStream};
use serde_json::Value;
use syn::spanned::Spanned as _;
use syn::{Meta, Type};

use crate::diag::Loc;
use crate::discover::ToolFn;

/// What the emitter needs of one handler.
#[derive(Debug)]
pub struct ToolDecl {
    /// The tool name.
    pub name: String,
    /// The handler's name.
    pub handler: syn::Ident,
    /// For a method, its service: the last segment of the impl's type, and the type as
    /// written (`Notes`, `store::Notes`).
    pub service: Option<(syn::Ident, String)>,
    /// Where the name is decided.
    pub name_loc: Loc,
    /// Where the keys of `x-neuralis` are written, by JSON pointer.
    pub locations: Vec<(String, Loc)>,
    /// The input type as written.
    pub input: Option<Type>,
    /// The handler's doc comment, when literal.
    pub docs: neuralis_syntax::attr::docs::Docs,
    /// The `x-neuralis` block.
    pub x_neuralis: Value,
    /// `crate = "..."`: the path of the `neuralis` crate, when renamed.
    pub krate: Option<String>,
}

/// A handler the macro will reject: its name and the first error.
#[derive(Debug)]
pub struct Rejected {
    /// The tool name (the handler's name when the attribute did not parse).
    pub name: String,
    /// The first error: `rule-id: message`, then `= help: ...`.
    pub reason: String,
    /// Where.
    pub loc: Loc,
}

fn args(tf: &ToolFn) -> TokenStream {
    match &tf.attr.meta {
        Meta::List(l) => l.tokens.clone(),
        _ => TokenStream::new(),
    }
}

impl ToolDecl {
    /// The handler as written: `list`, or `Notes::list` for a method.
    #[must_use]
    pub fn handler_display(&self) -> String {
        match &self.service {
            Some((ident, _)) => format!("{ident}::{}", self.handler),
            None => self.handler.to_string(),
        }
    }
}

/// Reads a handler's `#[tool(...)]` with the model the macro uses: `#[tool]` for a free
/// function or a method of an unmarked impl (which it refuses), `#[tools]` for a method of
/// a marked one.
pub fn read(tf: &ToolFn, file: usize) -> Result<ToolDecl, Rejected> {
    let loc = |span| Loc { file, span };
    let cx = Ctxt::new();
    let tool = match &tf.owner {
        Some(owner) if owner.marked => {
            let service = parse_service(&cx, &owner.item);
            parse_method(&cx, args(tf), &tf.func, service.as_ref())
        }
        _ => parse_tool(&cx, args(tf), &tf.func),
    };
    // A function without `self` in an unmarked impl: `#[tool]` cannot tell, the compiler
    // refuses its descriptor there.
    if tf.owner.as_ref().is_some_and(|o| !o.marked) && !cx.has_errors() {
        cx.error_with_help(
            neuralis_model::RuleId::HandlerSignature,
            &tf.func.sig.ident,
            "a `#[tool]` in an `impl` block needs `#[neuralis::tools]` on the impl",
            "add `#[neuralis::tools]` on the impl and take `&self`, or move the function out of the impl",
        );
    }
    if let Err(e) = cx.check() {
        let name = tool.name.value.clone();
        let first = e.into_iter().next();
        return Err(Rejected {
            name,
            reason: first.as_ref().map(ToString::to_string).unwrap_or_default(),
            loc: loc(first.map_or_else(|| tf.attr.span(), |e| e.span())),
        });
    }
    let mut locations = vec![("/x-neuralis".to_owned(), loc(tf.attr.path().span()))];
    let mut at = |pointer: &str, span: Option<Span>| {
        if let Some(span) = span {
            locations.push((pointer.to_owned(), loc(span)));
        }
    };
    let a = &tool.annotations;
    at("/x-neuralis/family", tool.family.as_ref().map(|v| v.span));
    at(
        "/x-neuralis/operation",
        tool.operation.as_ref().map(|v| v.span),
    );
    at(
        "/x-neuralis/transport",
        tool.transport.as_ref().map(|v| v.span),
    );
    at(
        "/x-neuralis/defaults",
        tool.defaults.as_ref().map(|v| v.span),
    );
    at(
        "/x-neuralis/askOnKeys",
        tool.ask_on_keys.as_ref().map(|v| v.span),
    );
    // Each default at its value, each `ask_on_keys` entry at its key: an error names the
    // token that decides it.
    for d in tool.defaults.iter().flat_map(|d| d.value.iter()) {
        at(
            &neuralis_model::contract::push_pointer("/x-neuralis/defaults", &d.key.value),
            Some(d.value.span),
        );
    }
    for (i, k) in tool
        .ask_on_keys
        .iter()
        .flat_map(|k| k.value.iter())
        .enumerate()
    {
        at(&format!("/x-neuralis/askOnKeys/{i}"), Some(k.span));
    }
    at("/x-neuralis/annotations", a.span);
    at(
        "/x-neuralis/annotations/title",
        a.title.as_ref().map(|v| v.span),
    );
    at(
        "/x-neuralis/annotations/readOnlyHint",
        a.read_only.as_ref().map(|v| v.span),
    );
    at(
        "/x-neuralis/annotations/destructiveHint",
        a.destructive.as_ref().map(|v| v.span),
    );
    at(
        "/x-neuralis/annotations/category",
        a.category.as_ref().map(|v| v.span),
    );
    at("/x-neuralis/ui", tool.ui.span);
    at(
        "/x-neuralis/ui/cardType",
        tool.ui.card_type.as_ref().map(|v| v.span),
    );
    at(
        "/x-neuralis/ui/presentation",
        tool.ui.presentation.as_ref().map(|v| v.span),
    );
    at("/x-neuralis/requires", tool.requires.span);
    Ok(ToolDecl {
        x_neuralis: tool.x_neuralis(),
        name: tool.name.value.clone(),
        name_loc: loc(tool.name.span),
        handler: tool.ident.clone(),
        service: tool
            .service
            .as_ref()
            .map(|s| (s.ident.clone(), s.display())),
        input: tool.input.clone(),
        docs: tool.docs.clone(),
        krate: tool.krate.as_ref().map(|k| {
            quote::ToTokens::to_token_stream(&k.value)
                .to_string()
                .replace(' ', "")
        }),
        locations,
    })
}
