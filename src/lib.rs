//! neuralis: typed, checked tools for LLM agents.
//!
//! This facade re-exports [`neuralis_core`], the run-time half of the toolkit: the tool
//! contract as data, the checker for any `tools/*.json`, normalization and the canonical
//! writer. The compile-time half comes with the `derive` feature (on by default):
//! [`macro@ToolInput`] derives a type's schema exactly as serde reads it (see
//! [`derive_reference`]); [`macro@tool`] declares a tool on its handler (see
//! [`tool_reference`]).
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

/// Derives [`ToolInput`]: the schema of a Rust type, exactly as serde reads it.
///
/// See [the attribute reference](crate::derive_reference).
#[cfg(feature = "derive")]
pub use neuralis_macros::ToolInput;

#[cfg(feature = "derive")]
#[doc = include_str!("../docs/derive.md")]
pub mod derive_reference {}

/// Declares a tool on its handler: the `x-neuralis` block in Rust form, checked when the
/// crate compiles.
///
/// See [the attribute reference](crate::tool_reference).
#[cfg(feature = "derive")]
pub use neuralis_macros::tool;

pub use neuralis_core::result::ToolResult;
pub use neuralis_core::tool::{AbortSignal, ToolContext};

#[cfg(feature = "derive")]
#[doc = include_str!("../docs/tool.md")]
pub mod tool_reference {}

// Not public API: the paths `#[derive(ToolInput)]` expands to.
#[doc(hidden)]
pub mod __private {
    pub use neuralis_core::input::private::*;
    pub use neuralis_core::tool::private::*;
    pub use std::borrow::Cow;
}

extern crate self as neuralis;

/// Brings in the package table that `neuralis-build` wrote to `OUT_DIR`: a module
/// `neuralis_package` with `FILES` (every tool's name, handler path and emitted
/// `tools/<name>.json`, embedded with `include_str!`), `TOOLS` (the handlers'
/// descriptors, in the same order), and a drift test per tool that compares the emitted
/// file with the run-time composition of the same tool.
///
/// Call it once, at the crate root, in a crate whose `build.rs` calls
/// `neuralis_build::emit()`:
///
/// ```ignore
/// neuralis::package!();
///
/// fn main() {
///     for (name, _handler, file) in neuralis_package::FILES {
///         println!("{name}: {} bytes", file.len());
///     }
/// }
/// ```
#[macro_export]
macro_rules! package {
    () => {
        ::core::include!(::core::concat!(
            ::core::env!("OUT_DIR"),
            "/neuralis_package.rs"
        ));
    };
}
