//! The contract's floor: the rule table, diagnostics and JSON pointers, the byte-level
//! reader, the meta-schema walk and the validator interface, which the checker
//! (`crate::checker`), the validator, `xn` and the remote profile all stand on.

mod diag;
mod draft07;
pub mod json;
pub mod meta;
pub mod rules;

pub use diag::{Diagnostic, Location, push_pointer};
pub(crate) use diag::{Seg, append_token, ref_pointer, render, unescape_token};
pub use draft07::{Compiled, DRAFT_07, Draft07, Violation};
pub use rules::{RULES, Rule, RuleId, Severity};
