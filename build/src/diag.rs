//! Build diagnostics: a span in a source file, printed `path:line:col` for
//! `cargo:warning=` lines (proc-macro2's `span-locations`, as cxx-build does), and the
//! run's record of what it prints and what stops the build.

use neuralis_model::contract::{CheckOptions, check_value_using};
use neuralis_model::{Diagnostic, RuleId};
use proc_macro2::Span;
use serde_json::Value;

use crate::discover::Crate;
use crate::{Error, Summary, literal};

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

/// What a run prints and what stops the build.
#[derive(Default)]
pub(crate) struct Run {
    pub(crate) lines: Vec<String>,
    pub(crate) errors: Vec<String>,
    pub(crate) summary: Summary,
}

impl Run {
    pub(crate) fn check(
        &mut self,
        krate: &Crate,
        name: &str,
        doc: &Value,
        locations: &[(String, Loc)],
        fallback: &Loc,
        options: &CheckOptions,
    ) -> Result<(), ()> {
        let locate = |pointer: &str| -> Loc {
            locations
                .iter()
                .filter(|(p, _)| {
                    pointer == p
                        || (pointer.starts_with(p.as_str()) && pointer[p.len()..].starts_with('/'))
                })
                .max_by_key(|(p, _)| p.len())
                .map_or_else(|| fallback.clone(), |(_, l)| l.clone())
        };
        let (errors, warnings): (Vec<_>, Vec<_>) =
            check_value_using(name, doc, options, Some(&literal::Subset))
                .into_iter()
                .partition(Diagnostic::is_error);
        for x in &warnings {
            self.warn(format!(
                "{}: {}: {}{}",
                locate(&x.pointer).display(krate),
                x.rule,
                one_line(&x.message),
                pointer_note(&x.pointer)
            ));
        }
        for x in &errors {
            self.error(
                krate,
                &locate(&x.pointer),
                x.rule,
                &format!("{}{}", one_line(&x.message), pointer_note(&x.pointer)),
                &x.hint,
            );
        }
        if errors.is_empty() { Ok(()) } else { Err(()) }
    }

    pub(crate) fn warn(&mut self, text: String) {
        self.lines
            .push(format!("cargo:warning={}", one_line(&text)));
    }

    pub(crate) fn skip(&mut self, name: &str, reason: &str) {
        let text = format!("skipped {name}: {}", one_line(reason));
        self.summary.skipped.push(text.clone());
        self.warn(text);
    }

    pub(crate) fn error(
        &mut self,
        krate: &Crate,
        loc: &Loc,
        rule: RuleId,
        message: &str,
        help: &str,
    ) {
        self.errors.push(format!(
            "{}: {rule}: {message}\n  = help: {help}",
            loc.display(krate)
        ));
    }

    pub(crate) fn finish(mut self) -> Result<Summary, Error> {
        self.summary.cargo_lines = self.lines;
        if self.errors.is_empty() {
            Ok(self.summary)
        } else {
            Err(Error {
                messages: self.errors,
                summary: Box::new(self.summary),
            })
        }
    }
}

pub(crate) fn one_line(s: &str) -> String {
    s.split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

fn pointer_note(pointer: &str) -> String {
    if pointer.is_empty() {
        String::new()
    } else {
        format!(" (at `{pointer}`)")
    }
}
