//! Doc comments, as rustdoc joins them; `#[doc = include_str!(...)]` is kept as an
//! expression and joined at run time.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{Attribute, Expr, Lit, Meta};

/// One `#[doc]` attribute.
#[derive(Debug, Clone)]
pub enum DocPart {
    /// `/// text` or `#[doc = "text"]`.
    Text(String),
    /// `#[doc = include_str!("...")]`, or any other expression.
    Expr(TokenStream),
}

/// The doc comment of an item.
#[derive(Debug, Clone, Default)]
pub struct Docs {
    /// Every `#[doc]` attribute, in order.
    pub parts: Vec<DocPart>,
}

impl Docs {
    /// Collects the doc attributes of an item.
    #[must_use]
    pub fn from_attrs(attrs: &[Attribute]) -> Self {
        let mut parts = Vec::new();
        for attr in attrs {
            let Meta::NameValue(nv) = &attr.meta else {
                continue;
            };
            if !nv.path.is_ident("doc") {
                continue;
            }
            match &nv.value {
                Expr::Lit(lit) => {
                    if let Lit::Str(s) = &lit.lit {
                        parts.push(DocPart::Text(s.value()));
                    }
                }
                other => parts.push(DocPart::Expr(other.to_token_stream())),
            }
        }
        Self { parts }
    }

    /// The joined text when every part is literal and the text is not empty.
    #[must_use]
    pub fn text(&self) -> Option<String> {
        let mut lines = Vec::new();
        for part in &self.parts {
            match part {
                DocPart::Text(t) => lines.push(t.as_str()),
                DocPart::Expr(_) => return None,
            }
        }
        let text = neuralis_model::input::join_doc(&lines);
        (!text.is_empty()).then_some(text)
    }

    /// Whether some part is only known at compile time of the user's crate.
    #[must_use]
    pub fn is_dynamic(&self) -> bool {
        self.parts.iter().any(|p| matches!(p, DocPart::Expr(_)))
    }
}
