//! header-attr: a header name is an HTTP token.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Routed {
    #[schema(header = "My Region")]
    pub region: String,
}

fn main() {}
