//! header-attr: a header carries a string, an integer or a boolean.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Routed {
    #[schema(header = "Tags")]
    pub tags: Vec<String>,
}

fn main() {}
