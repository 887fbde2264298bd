//! header-attr: a header mirrors a root property, not one nested in another.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
pub struct Target {
    #[schema(header = "Region")]
    pub region: String,
}

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Deploy {
    pub targets: Vec<Target>,
}

fn main() {}
