//! The seed's `catalog_list`, and a destructive `catalog_edit` whose `delete` key asks for
//! approval (`askOnKeys`). `cargo build` writes `tools/` (see `build.rs`).

pub mod edit;
pub mod list;
mod store;

neuralis::package!();
neuralis::wasm_entry!();
