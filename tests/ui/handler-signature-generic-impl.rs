//! handler-signature: a `#[tools]` impl is not generic (the package holds one service).
use neuralis::{ToolInput, tool, tools};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub text: String,
}

pub struct Notes<S> {
    pub store: S,
}

#[tools]
impl<S: Send + Sync + 'static> Notes<S> {
    /// Echoes.
    #[tool(annotations(category = "read"))]
    pub fn notes_echo(&self, input: Input) -> String {
        input.text
    }
}

fn main() {}
