//! handler-signature: a handler returns its result.
use neuralis::{ToolInput, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Does a thing.
#[tool(annotations(category = "read"))]
pub fn do_thing(input: Input) {
    let _ = input;
}

fn main() {}
