//! serde-unsupported: `#[serde(flatten)]` of a type whose schema is not an object.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
pub enum Mode {
    Fast,
    Slow,
}

#[derive(ToolInput, serde::Deserialize)]
pub struct Run {
    #[serde(flatten)]
    pub mode: Mode,
}

fn main() {}
