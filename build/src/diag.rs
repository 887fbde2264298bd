//! Build diagnostics: a span in a source file, printed `path:line:col` for
//! `cargo:warning=` lines (proc-macro2's `span-locations`, as cxx-build does).

use proc_macro2::Span;

use crate::discover::Crate;

/// A span in one of the crate's source files.
#[derive(Debug, Clone)]
pub struct Loc {
    /// Index into [`Crate::sources`].
    pub file: usize,
    /// The span.
    pub span: Span,
}

impl Loc {
    /// `src/tools.rs:12:5` (line and column from 1).
    #[must_use]
    pub fn display(&self, krate: &Crate) -> String {
        let start = self.span.start();
        let path = krate
            .sources
            .get(self.file)
            .map_or("?", |s| s.display.as_str());
        format!("{path}:{}:{}", start.line, start.column + 1)
    }
}
