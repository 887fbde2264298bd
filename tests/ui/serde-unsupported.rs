//! serde-unsupported: `#[serde(from = ...)]` makes serde read another type's shape.
use neuralis::ToolInput;

#[derive(serde::Deserialize)]
pub struct Raw {
    pub value: String,
}

#[derive(ToolInput, serde::Deserialize)]
#[serde(from = "Raw")]
pub struct Parsed {
    pub value: String,
}

impl From<Raw> for Parsed {
    fn from(raw: Raw) -> Self {
        Self { value: raw.value }
    }
}

fn main() {}
