//! handler-signature: a tool method is not generic.
use neuralis::{ToolInput, tool, tools};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub text: String,
}

pub struct Notes;

#[tools]
impl Notes {
    /// Echoes.
    #[tool(annotations(category = "read"))]
    pub fn notes_echo<T: Default>(&self, input: Input) -> String {
        let _ = T::default();
        input.text
    }
}

fn main() {}
