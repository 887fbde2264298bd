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

// What an author uses, by name (the rest of `neuralis_core` stays reachable under its
// path, hidden: the loader, the catalog and the WASM entry's state are the host's and the
// macros', the validator, `x-neuralis` keys and remote profile the checker's).
#[doc(inline)]
pub use neuralis_core::{
    Diagnostic, Report, RuleId, Severity, TOOL_NAME_PATTERN, ToolInput, ToolOutput, check_bytes,
    check_value, is_wire_safe_tool_name,
};
#[doc(hidden)]
pub use neuralis_core::{catalog, doc, load, remote, validate, wasm, xn};
#[doc(inline)]
pub use neuralis_core::{
    contract, dialect, dispatch, header, input, name, output, result, schema, shape, skill, tool,
};

/// Derives [`ToolInput`]: the schema of a Rust type, exactly as serde reads it.
///
/// See [the attribute reference](crate::derive_reference).
#[cfg(feature = "derive")]
pub use neuralis_macros::ToolInput;

#[cfg(feature = "derive")]
pub use neuralis_macros::ToolOutput;

#[cfg(feature = "derive")]
#[doc = include_str!("../docs/derive.md")]
pub mod derive_reference {}

/// Declares a tool on its handler: the `x-neuralis` block in Rust form, checked when the
/// crate compiles.
///
/// See [the attribute reference](crate::tool_reference).
#[cfg(feature = "derive")]
pub use neuralis_macros::tool;

/// Collects the `#[tool]` methods of an inherent `impl` block: tools that take `&self`,
/// called on one service value the package holds and shares across concurrent calls.
///
/// See [the attribute reference](crate::tool_reference#tools-as-methods).
#[cfg(feature = "derive")]
pub use neuralis_macros::tools;

pub use neuralis_core::dispatch::Json;
pub use neuralis_core::result::ToolResult;
pub use neuralis_core::tool::{AbortSignal, ToolContext};

#[cfg(feature = "derive")]
#[doc = include_str!("../docs/tool.md")]
pub mod tool_reference {}

pub mod testing;

// The Rust snippets of README.md, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

// Not public API: the paths `#[derive(ToolInput)]` expands to.
#[doc(hidden)]
pub mod __private {
    pub use neuralis_core::input::private::*;
    pub use neuralis_core::output::private::*;
    pub use neuralis_core::skill::{Skill, SkillFile};
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

/// Makes the crate the single WASM entry of its package: built as a `cdylib` for
/// `wasm32-unknown-unknown`, the module exports `memory` and five `u32` functions
/// (`neuralis_abi_version`, `neuralis_reserve`, `neuralis_call`, `neuralis_output`,
/// `neuralis_output_len`) that answer [`Package::call_json`](dispatch::Package::call_json)
/// requests, and imports nothing. The ABI and a JavaScript host are in `docs/wasm.md`;
/// the state behind the exports is [`wasm::Entry`].
///
/// With no argument it serves the package table of `neuralis::package!()` (call both at
/// the crate root; without it, the crate fails to compile on every target, naming
/// `neuralis_package`), for a package whose tools need no service (with services, the
/// no-argument form is a compile error saying to name your builder); with one, the
/// package a function `fn() -> Result<Package, BuildError>` builds (your `package()` that
/// gives the services, or a package registered by hand). On any other target the exports
/// are not generated, but the builder is still type-checked, so a mistake shows in a
/// native build.
///
/// ```ignore
/// neuralis::package!();
/// neuralis::wasm_entry!();
/// ```
///
/// ```sh
/// cargo rustc -p my-package --lib --release --target wasm32-unknown-unknown --crate-type cdylib
/// ```
///
/// A crate has at most one entry: a second one is a duplicate-symbol error.
// `crate::neuralis_package` is the calling crate's table, which `package!()` put there.
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! wasm_entry {
    () => {
        // Checked on every target, so that a mistake shows in a native build, not only in
        // the wasm32 one: the table exists (`neuralis::package!()` at the crate root), and
        // its `package()` can build without services.
        const _: () = ::core::assert!(
            crate::neuralis_package::SERVICES.is_empty(),
            "`neuralis::wasm_entry!()` serves the table's `package()`, which cannot build: \
             this package's tools are methods of services (`neuralis_package::SERVICES`). \
             Name the function that gives them, `neuralis::wasm_entry!(package)` with \
             `fn package() -> Result<Package, BuildError> {{ \
             neuralis_package::builder().service(...).build() }}`"
        );
        $crate::wasm_entry!(crate::neuralis_package::package);
    };
    ($build:path) => {
        // The builder is named on every target (a wrong path fails the native build too).
        const _: fn() -> ::core::result::Result<
            $crate::dispatch::Package,
            $crate::dispatch::BuildError,
        > = $build;
        // The exports' bodies are safe calls into `neuralis::wasm::Entry`; `no_mangle` is
        // what makes them the module's exports (names prefixed `neuralis_`).
        #[cfg(target_arch = "wasm32")]
        const _: () = {
            // A build without the host's entropy stops here, saying how to fix it.
            const _: () = $crate::wasm::HostEntropy::CHECK;
            static ENTRY: $crate::wasm::Entry = $crate::wasm::Entry::new($build);

            #[unsafe(no_mangle)]
            extern "C" fn neuralis_abi_version() -> u32 {
                $crate::wasm::ABI_VERSION
            }

            #[unsafe(no_mangle)]
            extern "C" fn neuralis_reserve(len: u32) -> u32 {
                ENTRY.abi_reserve(len)
            }

            #[unsafe(no_mangle)]
            extern "C" fn neuralis_call(len: u32) -> u32 {
                ENTRY.abi_call(len)
            }

            #[unsafe(no_mangle)]
            extern "C" fn neuralis_output() -> u32 {
                ENTRY.abi_output()
            }

            #[unsafe(no_mangle)]
            extern "C" fn neuralis_output_len() -> u32 {
                ENTRY.abi_output_len()
            }
        };
    };
}
