//! A `#[tool]` handler as the emitter needs it, read with the syntax crate's model.

use proc_macro2::TokenStream;
use serde_json::Value;
use syn::{FnArg, Meta, Pat, Type};

use crate::diag::Loc;
use crate::discover::ToolFn;

/// What the emitter needs of one handler.
#[derive(Debug)]
pub struct ToolDecl {
    /// The tool name.
    pub name: String,
    /// The handler's name.
    pub handler: syn::Ident,
    /// Where the name is decided.
    pub name_loc: Loc,
    /// The `#[tool(...)]` attribute, for diagnostics of `x-neuralis`.
    pub attr_loc: Loc,
    /// The input type as written.
    pub input: Option<Type>,
    /// The handler's doc comment, when literal.
    pub docs: neuralis_syntax::attr::docs::Docs,
    /// The `x-neuralis` block.
    pub x_neuralis: Value,
}

/// A handler the macro will reject: its name and the first error.
#[derive(Debug)]
pub struct Rejected {
    /// The tool name (the handler's name when the attribute did not parse).
    pub name: String,
    /// The first error, one line.
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

/// Reads a handler's `#[tool(...)]`.
pub fn read(tf: &ToolFn, file: usize) -> Result<ToolDecl, Rejected> {
    let loc = |span| Loc { file, span };
    let ident = &tf.func.sig.ident;
    let _ = args(tf);
    let input = tf.func.sig.inputs.iter().find_map(|a| match a {
        FnArg::Typed(t) if matches!(&*t.pat, Pat::Ident(_)) => Some((*t.ty).clone()),
        _ => None,
    });
    Ok(ToolDecl {
        name: ident.to_string(),
        handler: ident.clone(),
        name_loc: loc(ident.span()),
        attr_loc: loc(tf.attr.pound_token.span),
        input,
        docs: neuralis_syntax::attr::docs::Docs::from_attrs(&tf.func.attrs),
        x_neuralis: serde_json::json!({ "annotations": { "category": "read" } }),
    })
}
