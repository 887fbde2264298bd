//! header-attr: two properties in one header (names ignore case).
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Routed {
    #[schema(header = "Region")]
    pub region: String,
    #[schema(header = "region")]
    pub zone: String,
}

fn main() {}
