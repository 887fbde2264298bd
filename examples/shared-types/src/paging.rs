//! Paging through a long list.

use neuralis::ToolInput;
use serde::Deserialize;

/// Which page of a list.
#[derive(ToolInput, Deserialize, Debug, Default)]
pub struct Paging {
    /// The page, from 1.
    #[schema(minimum = 1)]
    pub page: Option<u32>,
    /// Items a page.
    #[schema(minimum = 1, maximum = 100)]
    pub page_size: Option<u8>,
}
