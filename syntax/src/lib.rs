//! neuralis-syntax: the one syn model of tool inputs, shared by `neuralis-macros` and the
//! build emitter so that the two can never disagree.
//!
//! The pipeline is parse → check → render, with every error of an item collected in a
//! [`Ctxt`] and reported at once:
//!
//! ```
//! use neuralis_syntax::{Ctxt, ast::Container, check::check, render::render};
//!
//! let input: syn::DeriveInput = syn::parse_quote! {
//!     #[serde(rename_all = "camelCase")]
//!     struct Forecast { city_name: String, days: Option<u8> }
//! };
//! let cx = Ctxt::new();
//! let cont = Container::from_ast(&cx, &input).expect("a struct");
//! check(&cx, &cont);
//! cx.check().expect("no errors");
//! let rendered = render(&cont);
//! assert!(rendered.root_keys.is_some());
//! ```

pub mod ast;
pub mod attr;
pub mod case;
pub mod check;
pub mod render;
pub mod report;
pub mod tool;
pub mod types;

pub use report::Ctxt;
