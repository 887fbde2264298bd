//! header-attr: a number is not a header's type (SEP-2243 mirrors integers only).
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Routed {
    #[schema(header = "Score")]
    pub score: f64,
}

fn main() {}
