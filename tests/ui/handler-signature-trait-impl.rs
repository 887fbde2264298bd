//! handler-signature: `#[tools]` goes on an inherent impl, not a trait impl.
use neuralis::{ToolInput, tool, tools};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub text: String,
}

pub trait Echo {
    fn notes_echo(&self, input: Input) -> String;
}

pub struct Notes;

#[tools]
impl Echo for Notes {
    /// Echoes.
    #[tool(annotations(category = "read"))]
    fn notes_echo(&self, input: Input) -> String {
        input.text
    }
}

fn main() {}
