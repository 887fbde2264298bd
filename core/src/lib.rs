//! neuralis-core: the tool contract at run time.
//!
//! - [`contract`]: every rule id of the contract with its severity, message and hint, the
//!   [`Diagnostic`] type, and the checker for any `tools/*.json`.
//! - [`schema`]: open-bag normalization and the canonical writer.
//! - [`name`]: the wire-safe tool name, with no dependencies.
//! - [`remote`]: the `mcp-remote` profile: lowering to the provider subset, description
//!   rewriting, wire names.
//! - [`catalog`]: the typed `x-neuralis` block and its run-time meanings.
//! - [`load`]: loading a package's tool files (`load_package` behind the `fs` feature);
//!   the package a host serves is [`dispatch::Package`].
//! - [`result`]: tool results: content blocks, normalization, bounding, status, cards, the
//!   iframe payload.
//! - [`dispatch`]: the call pipeline: gate, defaults, validation, handler, bounded result.
//! - [`wasm`]: the single WASM entry of a package (`neuralis::wasm_entry!()`): request and
//!   response buffers, and the answer to a call a panic aborts.
//!
//! The crate works on bytes and values; reading directories sits behind the default
//! `fs` feature, so the checker builds for `wasm32-unknown-unknown`.

pub mod catalog;
pub mod contract;
pub mod dispatch;
pub mod load;
pub mod result;
pub mod tool;
pub mod wasm;

// The half that the macros and the build script share, the built-in draft-07 validator
// (`validate`) included (see `neuralis-model`): re-exported under the paths it always had.
pub use neuralis_model::{
    dialect, doc, header, input, name, output, remote, schema, shape, skill, validate, xn,
};

pub use contract::{Diagnostic, Report, RuleId, Severity, check_bytes, check_value};
pub use input::ToolInput;
pub use name::{TOOL_NAME_PATTERN, is_wire_safe_tool_name};
pub use output::ToolOutput;
