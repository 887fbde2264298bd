//! reserved-input-key: `#[serde(flatten)]` brings the reserved key `session` to the root.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
pub struct Common {
    pub session: String,
}

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Search {
    pub query: String,
    #[serde(flatten)]
    pub common: Common,
}

fn main() {}
