//! handler-signature: a `#[tool]` method needs `#[neuralis::tools]` on its impl.
use neuralis::{ToolInput, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub text: String,
}

pub struct Notes;

impl Notes {
    /// Echoes.
    #[tool(annotations(category = "read"))]
    pub fn notes_echo(&self, input: Input) -> String {
        input.text
    }
}

fn main() {}
