//! reserved-input-key, schema-attr, unsupported-type: every violation of an item is reported at once.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Everything {
    pub role: String,
    #[schema(maximum = 300)]
    pub days: u8,
    pub timeout: std::time::Duration,
}

fn main() {}
