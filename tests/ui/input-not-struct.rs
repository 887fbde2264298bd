//! input-not-struct: an enum cannot be a tool's root input.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub enum Mode {
    Fast,
    Slow,
}

fn main() {}
