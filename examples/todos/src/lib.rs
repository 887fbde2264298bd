//! A todo board whose items carry a `priority` and whose members carry a `userId`: both
//! are reserved session-context names at the root of an input, and legitimate nested
//! (`todos[].priority`, `members[].userId`). `cargo build` writes `tools/` (see
//! `build.rs`).

pub mod board;

neuralis::package!();
