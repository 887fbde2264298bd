//! handler-signature: `#[tools]` goes on an `impl` block.
use neuralis::{ToolInput, tool, tools};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub text: String,
}

/// Echoes.
#[tools]
#[tool(annotations(category = "read"))]
pub fn notes_echo(input: Input) -> String {
    input.text
}

fn main() {}
