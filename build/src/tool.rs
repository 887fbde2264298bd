//! A `#[tool]` handler as the emitter needs it, read with the syntax crate's model.

use neuralis_model::xn::BLOCK_POINTER;
use neuralis_syntax::Ctxt;
use neuralis_syntax::tool::{parse_method, parse_service, parse_tool};
use proc_macro2::TokenStream;
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
    // The block at the attribute; each key, list entry and default at the token the
    // renderer says decides it, so an error names that token.
    let rendered = tool.render();
    let mut locations = vec![(BLOCK_POINTER.to_owned(), loc(tf.attr.path().span()))];
    locations.extend(
        rendered
            .spans
            .into_iter()
            .map(|(pointer, span)| (pointer, loc(span))),
    );
    Ok(ToolDecl {
        x_neuralis: rendered.block,
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

#[cfg(test)]
mod tests {
    use neuralis_model::checker::CheckOptions;
    use neuralis_model::input::{DRAFT_07, tool_document};
    use neuralis_model::xn::keys;
    use serde_json::json;

    use super::*;
    use crate::cfg::Cfg;
    use crate::diag::Run;
    use crate::discover::Crate;

    /// A handler that writes the seven keys the build script once left without a place.
    const SOURCE: &str = r#"/// Look.
#[tool(
    annotations(category = "read", idempotent, open_world = false,
                estimated_duration_ms = 20, cancellable),
    ui(presentation = "inline", icon = "list"),
    requires(features("notes.read"), escalations("notes.admin")),
)]
fn look(input: In, abort: AbortSignal) -> String { String::new() }
"#;

    /// `line:column` (from 1) of the first `token` in [`SOURCE`].
    fn at(token: &str) -> String {
        let start = SOURCE
            .find(token)
            .unwrap_or_else(|| panic!("{token} in SOURCE"));
        let before = &SOURCE[..start];
        let line = before.matches('\n').count() + 1;
        let column = before
            .rsplit('\n')
            .next()
            .unwrap_or_default()
            .chars()
            .count()
            + 1;
        format!("{line}:{column}")
    }

    fn read_source() -> (tempfile::TempDir, Crate, ToolDecl) {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("lib.rs");
        std::fs::write(&root, SOURCE).expect("write");
        let krate = Crate::read(&root, &Cfg::default());
        let tf = &krate.tools[0];
        let decl = read(tf, krate.modules[tf.module].file).expect("a valid tool");
        (dir, krate, decl)
    }

    fn shown(krate: &Crate, decl: &ToolDecl, pointer: &str) -> Option<String> {
        decl.locations
            .iter()
            .find(|(p, _)| p == pointer)
            .map(|(_, loc)| loc.display(krate))
    }

    #[test]
    fn every_key_of_the_block_is_placed_at_its_token() {
        let (_dir, krate, decl) = read_source();
        for (key, token) in [
            (&keys::IDEMPOTENT_HINT, "idempotent"),
            (&keys::OPEN_WORLD_HINT, "open_world"),
            (&keys::ESTIMATED_DURATION_MS, "estimated_duration_ms"),
            (&keys::CANCELLABLE, "cancellable"),
            (&keys::ICON, "\"list\""),
            (&keys::FEATURES, "features"),
            (&keys::ESCALATIONS, "escalations"),
        ] {
            let pointer = &key.pointer();
            let shown = shown(&krate, &decl, pointer).unwrap_or_default();
            assert!(
                shown.ends_with(&format!("lib.rs:{}", at(token))),
                "{pointer}: {shown}"
            );
        }
        // Each entry of a list at its own token.
        for (key, token) in [
            (&keys::FEATURES, "\"notes.read\""),
            (&keys::ESCALATIONS, "\"notes.admin\""),
        ] {
            let pointer = format!("{}/0", key.pointer());
            let shown = shown(&krate, &decl, &pointer).unwrap_or_default();
            assert!(
                shown.ends_with(&format!("lib.rs:{}", at(token))),
                "{pointer}: {shown}"
            );
        }
        // That every key the block holds has a place is the renderer's own test
        // (`neuralis-syntax`'s `the_renderer_places_every_key_it_writes`).
    }

    #[test]
    fn an_error_about_one_of_the_seven_keys_points_at_its_token() {
        let (_dir, krate, decl) = read_source();
        // A block the checker refuses at `estimatedDurationMs` (the attribute cannot write
        // one, so the block is edited after rendering).
        let mut block = decl.x_neuralis.clone();
        let key = &keys::ESTIMATED_DURATION_MS;
        block[keys::ANNOTATIONS.name][key.name] = json!(-20);
        let root = json!({
            "$schema": DRAFT_07,
            "type": "object",
            "additionalProperties": false,
            "properties": {},
        });
        let doc = tool_document(root, Some("Look.".into()), block);
        let mut run = Run::default();
        let failed = run.check(
            &krate,
            "look",
            &doc,
            &crate::diag::Sites {
                locations: &decl.locations,
                quiet: &[],
                bounds: &[],
                fallback: &decl.name_loc,
            },
            &CheckOptions::default(),
        );
        assert!(failed.is_err());
        let errors: Vec<String> = run.diags.iter().map(|d| d.block()).collect();
        assert_eq!(errors.len(), 1, "{errors:#?}");
        let error = &errors[0];
        assert!(error.starts_with("error: xn-type: "), "{error}");
        let arrow = error.lines().nth(1).unwrap_or_default();
        assert!(
            arrow.ends_with(&format!("lib.rs:{}", at(key.attr))),
            "{error}"
        );
    }
}
