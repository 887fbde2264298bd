//! header-attr: a flattened field's properties are marked in the flattened type.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
pub struct Common {
    pub region: String,
}

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Routed {
    #[serde(flatten)]
    #[schema(header = "Region")]
    pub common: Common,
}

fn main() {}
