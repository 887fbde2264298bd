//! cancellable-signal: on a method as on a function, `cancellable` needs an `AbortSignal`.
use neuralis::{ToolInput, tool, tools};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub seconds: u64,
}

pub struct Notes;

#[tools]
impl Notes {
    /// Rebuilds the index.
    #[tool(annotations(category = "write", cancellable))]
    pub async fn notes_reindex(&self, input: Input) -> u64 {
        input.seconds
    }
}

fn main() {}
