//! header-attr: a tool's input and a type flattened into it use one header name twice.
use neuralis::{ToolInput, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Common {
    #[schema(header = "Region")]
    pub zone: String,
}

#[derive(ToolInput, serde::Deserialize)]
pub struct Routed {
    #[schema(header = "REGION")]
    pub region: String,
    #[serde(flatten)]
    pub common: Common,
}

/// Routes a query.
#[tool(annotations(category = "read"))]
pub fn route(input: Routed) -> String {
    input.region
}

fn main() {}
