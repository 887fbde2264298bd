//! defaults-undeclared: a default of the wrong type for its field (`days` is a `u8`).
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Forecast {
    pub city: String,
    pub days_ahead: Option<u8>,
}

/// Forecasts.
#[tool(defaults(daysAhead = "three"), annotations(read_only, category = "network"))]
pub fn forecast(input: Forecast) -> ToolResult {
    ToolResult::text(input.city)
}

fn main() {}
