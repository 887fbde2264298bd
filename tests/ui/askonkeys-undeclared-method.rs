//! askonkeys-undeclared: on a method as on a function, each key is a root property of the
//! input.
use neuralis::{ToolInput, tool, tools};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub key: String,
    pub delete: Option<bool>,
}

pub struct Notes;

#[tools]
impl Notes {
    /// Writes or deletes a note.
    #[tool(annotations(destructive, category = "write"), ask_on_keys(remove))]
    pub fn notes_write(&self, input: Input) -> String {
        input.key
    }
}

fn main() {}
