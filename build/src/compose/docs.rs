//! Doc comments in the static view: `#[doc = include_str!(...)]` read relative to the
//! source file, as rustc reads it.

use std::path::PathBuf;

use neuralis_syntax::attr::docs::DocPart;
use serde_json::Value;
use syn::spanned::Spanned as _;

use super::{Here, Problem, StaticView};
use neuralis_model::input::private as rt;

impl StaticView<'_> {
    /// `#[doc = include_str!("...")]`, read relative to the source file as rustc does.
    pub(super) fn describe(
        &mut self,
        schema: Value,
        parts: &[DocPart],
        here: &Here,
    ) -> Result<Value, Problem> {
        let texts = self.doc_parts(parts, here)?;
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        Ok(rt::describe(schema, &refs))
    }

    pub(super) fn doc_parts(
        &mut self,
        parts: &[DocPart],
        here: &Here,
    ) -> Result<Vec<String>, Problem> {
        let mut texts = Vec::with_capacity(parts.len());
        for part in parts {
            match part {
                DocPart::Text(t) => texts.push(t.clone()),
                DocPart::Expr(e) => texts.push(self.doc_expr(e, here)?),
            }
        }
        Ok(texts)
    }

    /// A doc comment written in `module`, joined as rustdoc joins it; `None` when empty.
    ///
    /// # Errors
    ///
    /// A `#[doc = ...]` expression other than `include_str!` of a readable file.
    pub fn doc_text(
        &mut self,
        parts: &[DocPart],
        module: usize,
        owner: &str,
    ) -> Result<Option<String>, Problem> {
        let here = Here {
            owner: owner.to_owned(),
            module,
        };
        let texts = self.doc_parts(parts, &here)?;
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let text = neuralis_model::input::join_doc(&refs);
        Ok((!text.is_empty()).then_some(text))
    }

    pub(super) fn doc_expr(
        &mut self,
        tokens: &proc_macro2::TokenStream,
        here: &Here,
    ) -> Result<String, Problem> {
        let fail = |why: &str| Problem::Unresolved {
            loc: self.loc(here.module, tokens.span()),
            message: format!("cannot read the doc comment of `{}`: {why}", here.owner),
            help: "write the doc comment as `///` lines or `#[doc = include_str!(\"file\")]`"
                .into(),
        };
        let expr: syn::Expr = syn::parse2(tokens.clone()).map_err(|_| fail("not an expression"))?;
        let syn::Expr::Macro(m) = &expr else {
            return Err(fail("only `include_str!` is read at build time"));
        };
        if !m.mac.path.is_ident("include_str") {
            return Err(fail("only `include_str!` is read at build time"));
        }
        let lit: syn::LitStr = m
            .mac
            .parse_body()
            .map_err(|_| fail("`include_str!` takes one string literal here"))?;
        let file = &self.krate.sources[self.krate.modules[here.module].file].path;
        let path = file
            .parent()
            .map(|d| d.join(lit.value()))
            .unwrap_or_else(|| PathBuf::from(lit.value()));
        let text = std::fs::read_to_string(&path)
            .map_err(|e| fail(&format!("`{}`: {e}", path.display())))?;
        self.extra_files.push(path);
        Ok(text)
    }
}
