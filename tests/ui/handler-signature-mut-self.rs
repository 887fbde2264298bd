//! handler-signature: a tool method takes `&self`, not `&mut self` (calls are concurrent).
use neuralis::{ToolInput, tool, tools};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub text: String,
}

pub struct Notes {
    pub lines: Vec<String>,
}

#[tools]
impl Notes {
    /// Appends a line.
    #[tool(annotations(category = "write"))]
    pub fn notes_add(&mut self, input: Input) -> usize {
        self.lines.push(input.text);
        self.lines.len()
    }
}

fn main() {}
