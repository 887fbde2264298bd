//! neuralis: typed, checked tools for LLM agents.
//!
//! This facade re-exports [`neuralis_core`], the run-time half of the toolkit: the tool
//! contract as data, the checker for any `tools/*.json`, normalization and the canonical
//! writer. The compile-time half (`#[derive(ToolInput)]`, `#[tool]`) arrives with the
//! `derive` feature.
//!
//! ```
//! let bytes = br#"{
//!   "$schema": "http://json-schema.org/draft-07/schema#",
//!   "type": "object",
//!   "additionalProperties": false,
//!   "description": "Say hello.",
//!   "properties": { "name": { "type": "string" } },
//!   "required": [],
//!   "x-neuralis": { "annotations": { "category": "read" } }
//! }"#;
//! let report = neuralis::check_bytes("hello", bytes);
//! assert!(!report.has_errors(), "{:?}", report.diagnostics);
//! ```

pub use neuralis_core::*;
