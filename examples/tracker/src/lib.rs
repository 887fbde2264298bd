//! An issue tracker whose inputs nest the types of `examples/shared-types`, a dependency
//! renamed to `types` in `Cargo.toml`. `cargo build` writes `tools/` (see `build.rs`):
//! the build script reads those types from the other crate's source.

use neuralis::{ToolInput, ToolOutput, tool};
use serde::{Deserialize, Serialize};
use types::{Actor, Label};

/// The input of [`tracker_issue_create`].
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "Create Issue")]
pub struct IssueCreate {
    /// A one-line summary.
    #[schema(min_length = 1, max_length = 200)]
    pub title: String,
    /// Who reports it.
    pub reporter: Actor,
    /// Who should work on it.
    pub assignees: Option<Vec<Actor>>,
    /// Its labels.
    #[schema(max_items = 10)]
    pub labels: Vec<Label>,
}

/// The input of [`tracker_issue_search`].
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "Search Issues")]
pub struct IssueSearch {
    /// Words the issue's title contains.
    pub text: String,
    /// Only issues with this label.
    pub label: Option<types::Label>,
    /// Which page of the results.
    pub paging: Option<types::paging::Paging>,
}

/// What [`tracker_issue_create`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Created {
    /// Always `true`.
    pub ok: bool,
    /// The new issue's number.
    pub number: u32,
    /// The labels it carries, by name.
    pub labels: Vec<String>,
}

/// What [`tracker_issue_search`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Found {
    /// Always `true`.
    pub ok: bool,
    /// The page shown.
    pub page: u32,
    /// The titles found.
    pub titles: Vec<String>,
}

/// Open an issue with a reporter, assignees and labels.
#[tool(
    family = "tracker",
    operation = "tracker.issue.create",
    transport = "embedded",
    annotations(title = "Create Issue", category = "write"),
    ui(presentation = "inline", icon = "circle-dot")
)]
pub fn tracker_issue_create(input: IssueCreate) -> Created {
    Created {
        ok: true,
        number: 1,
        labels: input.labels.into_iter().map(|l| l.name).collect(),
    }
}

/// Search the tracker's issues by text and label.
#[tool(
    family = "tracker",
    operation = "tracker.issue.search",
    transport = "embedded",
    annotations(title = "Search Issues", read_only, category = "read"),
    ui(presentation = "explored", icon = "search")
)]
pub fn tracker_issue_search(input: IssueSearch) -> Found {
    let page = input.paging.and_then(|p| p.page).unwrap_or(1);
    Found {
        ok: true,
        page,
        titles: vec![format!("an issue about {}", input.text)],
    }
}

neuralis::package!();
