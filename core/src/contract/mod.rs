//! The contract: rule table, diagnostics, and the checker for any `tools/*.json`.

mod check;
mod diag;
pub mod json;
pub mod rules;

pub use check::{
    CheckOptions, DRAFT_07, Profile, Report, check_bytes, check_bytes_with, check_value,
};
pub use diag::{Diagnostic, Location, push_pointer};
pub use rules::{RULES, Rule, RuleId, Severity};
