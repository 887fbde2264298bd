//! `Ctxt`: every error of an item, collected, then reported at once.

use std::cell::RefCell;
use std::fmt::Display;

use neuralis_model::RuleId;
use proc_macro2::Span;
use quote::ToTokens;

/// Collects errors while an item is parsed and checked.
///
/// Parsing and checking go on after an error, so the author sees every violation of the
/// item in one build. [`Ctxt::check`] must be called before the context is dropped.
#[derive(Debug)]
pub struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    /// An empty context.
    #[must_use]
    pub fn new() -> Self {
        Self {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Reports a violation of `rule` at `tokens`, with a specific message and the rule's
    /// own hint.
    pub fn error(&self, rule: RuleId, tokens: impl ToTokens, message: impl Display) {
        self.error_with_help(rule, tokens, message, rule.rule().hint);
    }

    /// Reports a violation of `rule` at `tokens`, with a specific message and hint.
    pub fn error_with_help(
        &self,
        rule: RuleId,
        tokens: impl ToTokens,
        message: impl Display,
        help: impl Display,
    ) {
        let text = format!("{rule}: {message}\n= help: {help}");
        self.push(syn::Error::new_spanned(tokens.into_token_stream(), text));
    }

    /// Reports a violation of `rule` at `span`.
    pub fn error_at(&self, rule: RuleId, span: Span, message: impl Display, help: impl Display) {
        let text = format!("{rule}: {message}\n= help: {help}");
        self.push(syn::Error::new(span, text));
    }

    /// Adds an error that already carries its message (a syn parse error).
    pub fn push(&self, error: syn::Error) {
        if let Some(errors) = self.errors.borrow_mut().as_mut() {
            errors.push(error);
        }
    }

    /// Whether any error was reported so far.
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.errors.borrow().as_ref().is_some_and(|e| !e.is_empty())
    }

    /// Ends collection: every error, combined into one, or `Ok`.
    ///
    /// # Errors
    ///
    /// All errors reported, in report order.
    pub fn check(self) -> Result<(), syn::Error> {
        let errors = self.errors.borrow_mut().take().unwrap_or_default();
        let mut iter = errors.into_iter();
        let Some(mut first) = iter.next() else {
            return Ok(());
        };
        for e in iter {
            first.combine(e);
        }
        Err(first)
    }
}

impl Default for Ctxt {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collects_every_error() {
        let cx = Ctxt::new();
        let ident = syn::Ident::new("a", Span::call_site());
        cx.error(RuleId::SchemaAttr, &ident, "one");
        cx.error(RuleId::UnsupportedType, &ident, "two");
        let err = cx.check().expect_err("two errors");
        let messages: Vec<String> = err.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(messages.len(), 2);
        assert!(messages[0].starts_with("schema-attr: one"));
        assert!(messages[1].starts_with("unsupported-type: two"));
    }
}
