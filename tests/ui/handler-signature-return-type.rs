//! handler-signature: a return type that is neither a tool result nor `Serialize`.
use neuralis::{ToolInput, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

pub struct Opaque;

/// Does a thing.
#[tool(annotations(category = "read"))]
pub fn do_thing(input: Input) -> Opaque {
    let _ = input;
    Opaque
}

fn main() {}
