//! handler-signature: a tool in a `#[tools]` impl takes `&self`; one without the service
//! is a free function.
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
    pub fn notes_echo(input: Input) -> String {
        input.text
    }
}

fn main() {}
