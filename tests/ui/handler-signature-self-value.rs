//! handler-signature: a tool method takes `&self`, not `self` (the service is shared).
use neuralis::{ToolInput, tool, tools};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub text: String,
}

pub struct Notes;

#[tools]
impl Notes {
    /// Consumes the notes.
    #[tool(annotations(category = "write"))]
    pub fn notes_take(self, input: Input) -> String {
        input.text
    }
}

fn main() {}
