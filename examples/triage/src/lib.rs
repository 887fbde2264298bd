//! Triage tools whose roots flatten the types of `examples/shared-types`
//! (`#[serde(flatten)]`): their keys sit at the root, where `defaults`, `ask_on_keys` and
//! the reserved-key rule see them, checked at compile time across the crates by `const`
//! assertions and written by the build script from the other crate's source.

use neuralis::{ToolInput, ToolOutput, tool};
use neuralis_example_shared_types::{Color, Paging, Retention};
use serde::{Deserialize, Serialize};

/// The input of [`triage_queue`].
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "Triage Queue")]
pub struct TriageQueue {
    /// Only issues with a label of this color.
    pub color: Option<Color>,
    #[serde(flatten)]
    pub paging: Paging,
}

/// The input of [`triage_close`].
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "Close Issue")]
pub struct TriageClose {
    /// The number.
    #[schema(minimum = 1)]
    pub number: u32,
    #[serde(flatten)]
    pub retention: Retention,
}

/// What [`triage_queue`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Queue {
    /// Always `true`.
    pub ok: bool,
    /// The page shown.
    pub page: u32,
    /// Items a page.
    pub page_size: u8,
}

/// What [`triage_close`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Closed {
    /// Always `true`.
    pub ok: bool,
    /// The issue closed.
    pub number: u32,
    /// Whether its history was deleted.
    pub purged: bool,
}

/// List the issues waiting for triage, a page at a time.
#[tool(
    family = "triage",
    operation = "triage.queue",
    transport = "embedded",
    defaults(page_size = 20),
    annotations(title = "Triage Queue", read_only, category = "read"),
    ui(presentation = "explored", icon = "inbox")
)]
pub fn triage_queue(input: TriageQueue) -> Queue {
    Queue {
        ok: true,
        page: input.paging.page.unwrap_or(1),
        page_size: input.paging.page_size.unwrap_or(20),
    }
}

/// Close an issue; purging its history asks a person first.
#[tool(
    family = "triage",
    operation = "triage.close",
    transport = "embedded",
    annotations(title = "Close Issue", destructive, category = "write"),
    ui(presentation = "inline", icon = "archive"),
    ask_on_keys("purge")
)]
pub fn triage_close(input: TriageClose) -> Closed {
    Closed {
        ok: true,
        number: input.number,
        purged: input.retention.purge.unwrap_or(false),
    }
}

neuralis::package!();
