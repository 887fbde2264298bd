//! reserved-input-key: `#[serde(rename = "role")]` puts a reserved name at the root.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Assign {
    #[serde(rename = "role")]
    pub as_role: String,
}

fn main() {}
