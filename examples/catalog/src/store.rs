//! The catalog's items, shared by the tools.

use neuralis::{ToolInput, ToolOutput};
use serde::{Deserialize, Serialize};

/// The status of an item.
// Read by `catalog_edit` and returned in every `Item`: `ToolInput` gives its output
// schema too (no `ToolOutput` derive needed; deriving both is fine).
#[derive(ToolInput, Deserialize, Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Listed.
    Active,
    /// Kept, not listed.
    Archived,
}

/// One item.
#[derive(Serialize, ToolOutput, Clone, Debug)]
pub struct Item {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its status.
    pub status: Status,
}

/// The items of the example.
pub fn items() -> Vec<Item> {
    vec![
        Item {
            id: "1".into(),
            name: "Lamp".into(),
            status: Status::Active,
        },
        Item {
            id: "2".into(),
            name: "Chair".into(),
            status: Status::Archived,
        },
    ]
}
