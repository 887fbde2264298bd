//! Input types shared by two tool packages: `tracker` nests them (and depends on this
//! crate under another name), `triage` flattens them into its roots. Neither copies a
//! type: their build scripts read this crate's source through the type table its
//! `build.rs` publishes (`links` in `Cargo.toml`).

pub mod paging;
pub mod people;

pub use paging::Paging;
pub use people::Actor;

use neuralis::ToolInput;
use serde::Deserialize;

/// A label's color.
#[derive(ToolInput, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// Needs attention.
    Red,
    /// Waiting.
    Yellow,
    /// Fine.
    Green,
}

/// A label on an issue.
#[derive(ToolInput, Deserialize, Clone, Debug)]
pub struct Label {
    /// The label's name.
    #[schema(min_length = 1, max_length = 40)]
    pub name: String,
    /// Its color.
    pub color: Color,
}

/// What happens to an issue's history when it is closed.
#[derive(ToolInput, Deserialize, Debug)]
pub struct Retention {
    /// Delete the comments and attachments for good.
    pub purge: Option<bool>,
    /// Keep a copy for this many days (at most a year).
    #[schema(minimum = 1, maximum = 365)]
    pub keep_days: Option<u16>,
}
