//! defaults-undeclared: a default outside the range of its field's integer type.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Forecast {
    pub city: String,
    #[serde(flatten)]
    pub paging: neuralis_test_support::Paging,
}

/// Forecasts.
#[tool(defaults(pageSize = 300), annotations(read_only, category = "network"))]
pub fn forecast(input: Forecast) -> ToolResult {
    ToolResult::text(input.city)
}

fn main() {}
