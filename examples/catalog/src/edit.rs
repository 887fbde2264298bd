//! `catalog_edit`: a destructive tool. Sending `delete` (with any value) asks the user
//! for approval first (`askOnKeys`).

use neuralis::{ToolInput, ToolOutput, tool};
use serde::{Deserialize, Serialize};

use crate::store::Status;

/// The input of [`catalog_edit`].
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "Edit Catalog Item")]
pub struct CatalogEdit {
    /// The item's id.
    #[schema(min_length = 1)]
    pub id: String,
    /// A new name.
    #[schema(min_length = 1, max_length = 200)]
    pub name: Option<String>,
    /// A new [`Status`] (see [the store](crate::store)).
    pub status: Option<Status>,
    /// Delete the item instead of editing it.
    pub delete: Option<bool>,
}

/// What [`catalog_edit`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Edited {
    /// Always `true`.
    pub ok: bool,
    /// The item's id.
    pub id: String,
    /// Whether it was deleted.
    pub deleted: bool,
}

/// Edit or delete one catalog item by id.
#[tool(
    family = "catalog",
    operation = "catalog.edit",
    transport = "embedded",
    annotations(title = "Edit Catalog Item", destructive, category = "write"),
    ui(presentation = "inline", icon = "pencil"),
    ask_on_keys("delete")
)]
pub fn catalog_edit(input: CatalogEdit) -> Edited {
    Edited {
        ok: true,
        id: input.id,
        deleted: input.delete.unwrap_or(false),
    }
}
