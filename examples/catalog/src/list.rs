//! `catalog_list`, as in the seed.

use neuralis::{ToolInput, ToolOutput, tool};
use serde::{Deserialize, Serialize};

use crate::store::{self, Item, Status};

/// Which items to list.
///
/// The variants have no doc comments, so the tool file stays the seed's complete example
/// byte for byte (a documented variant's meaning is appended to the field's description:
/// see `Status`, which `catalog_edit` reads).
#[derive(ToolInput, Deserialize, Clone, Copy, Default, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Filter {
    // Active items.
    #[default]
    Active,
    // Archived items.
    Archived,
    // Every item.
    All,
}

/// The input of [`catalog_list`].
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "List Catalog")]
pub struct CatalogList {
    /// Optional filter by status.
    #[schema(default = "active")]
    pub filter: Option<Filter>,
}

/// What [`catalog_list`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Listing {
    /// Always `true`.
    pub ok: bool,
    /// The items that pass the filter.
    pub items: Vec<Item>,
}

/// List all items in the catalog. Returns an array of items with id, name, and status.
#[tool(
    family = "catalog",
    operation = "catalog.list",
    transport = "embedded",
    annotations(
        title = "List Catalog",
        read_only,
        destructive = false,
        category = "read"
    ),
    ui(presentation = "explored", icon = "list")
)]
pub fn catalog_list(input: CatalogList) -> Listing {
    let filter = input.filter.unwrap_or_default();
    let items = store::items()
        .into_iter()
        .filter(|i| match filter {
            Filter::All => true,
            Filter::Active => i.status == Status::Active,
            Filter::Archived => i.status == Status::Archived,
        })
        .collect();
    Listing { ok: true, items }
}
