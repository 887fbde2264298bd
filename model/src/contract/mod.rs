//! The contract: rule table, diagnostics, and the checker for any `tools/*.json`.

mod check;
mod diag;
pub mod json;
pub mod meta;
pub mod rules;

pub use check::{
    CheckOptions, Compiled, DRAFT_07, Draft07, Profile, Report, Violation, check_bytes_using,
    check_value_using, did_you_mean,
};
pub use diag::{Diagnostic, Location, push_pointer};
pub(crate) use diag::{Seg, append_token, ref_pointer, render, unescape_token};
pub use rules::{RULES, Rule, RuleId, Severity};
