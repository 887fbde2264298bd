//! The seed's `catalog_list`, a destructive `catalog_edit` whose `delete` key asks for
//! approval (`askOnKeys`), and `catalog_reindex`, a long-running `cancellable` tool that
//! reports its progress. `cargo build` writes `tools/` (see `build.rs`).

pub mod edit;
pub mod list;
pub mod reindex;
mod store;

neuralis::package!();
neuralis::wasm_entry!();
