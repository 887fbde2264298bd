//! defaults-undeclared: a default outside the field's own `#[schema]` bounds.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Forecast {
    pub city: String,
    #[schema(minimum = 1, maximum = 14)]
    pub days: Option<u8>,
}

/// Forecasts.
#[tool(defaults(days = 30), annotations(read_only, category = "network"))]
pub fn forecast(input: Forecast) -> ToolResult {
    ToolResult::text(input.city)
}

fn main() {}
