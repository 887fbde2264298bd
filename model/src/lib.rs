//! neuralis-model: what the compile-time and the run-time halves of neuralis both read.
//!
//! Not used directly: `neuralis-core` (and the `neuralis` facade) re-export every module
//! under the same path. The crate exists so that the host side (the proc macros and the
//! build script) never compiles `jsonschema`: cargo builds host units apart from target
//! units, so whatever the macros and `build.rs` depend on is compiled twice in a package's
//! build. The one validator both halves run is this crate's own ([`validate`], for the
//! keywords the toolkit writes).
//!
//! - [`contract`]: the rule table, [`Diagnostic`], byte-level JSON reading, and the
//!   checker, whose three validator-backed checks take a [`contract::Draft07`] from the
//!   caller (the build script passes [`validate::Subset`]; `neuralis-core` the same, with
//!   `jsonschema` for a schema outside the subset when its feature is on).
//! - [`input`]: the [`ToolInput`] trait, its impls for the standard types (the one type
//!   table: the run-time impls, the build script's static view and the derive's checks
//!   all read [`types`]), and the run-time composition.
//! - [`output`]: the [`ToolOutput`] trait: the schema of what serde writes for a type
//!   (a tool's MCP `outputSchema`), read from the same type table.
//! - [`shape`]: the `const` shapes that literals are checked against.
//! - [`const_checks`]: the compile-time checks `#[tool]` expands to, generic over its input.
//! - [`schema`]: open-bag normalization and the canonical writer.
//! - [`doc`]: doc comments as the model reads them (joined, links as plain text).
//! - [`name`]: the wire-safe tool name.
//! - [`suggest`]: the one "did you mean" rule, `const` for the macros' checks.
//! - [`remote`]: the `mcp-remote` profile.
//! - [`dialect`]: provider dialects: the `inputSchema` an MCP server serves, and a strict
//!   model's `null` read as a key not sent.
//! - [`xn`]: the `x-neuralis` block: the one table of its keys, the typed block
//!   (`ToolMeta` in `neuralis-core`'s catalog) and the section's predicates.
//! - [`task`]: how a tool's calls run as tasks (`#[tool(task = "...")]`).
//! - [`header`]: arguments mirrored in HTTP headers (`#[schema(header = "...")]`).
//! - [`sort`]: one sort for every element type (one copy of the sort's code in a WASM
//!   module).
//! - [`validate`]: the one draft-07 validator for the schemas the toolkit writes (and the
//!   checker's [`contract::Draft07`] without a general validator).

pub mod checker;
pub mod const_checks;
pub mod contract;
pub mod dialect;
pub mod doc;
pub mod header;
pub mod input;
pub mod name;
pub mod output;
pub mod remote;
pub mod schema;
pub mod shape;
pub mod skill;
pub mod sort;
pub mod suggest;
pub mod task;
pub mod types;
pub mod utf16;
pub mod validate;
pub mod xn;

/// The old name of [`const_checks`], kept for code written against it.
#[doc(hidden)]
pub use const_checks as checks;
pub use contract::{Diagnostic, RuleId, Severity};
pub use input::ToolInput;
pub use output::ToolOutput;
