//! No cascade: a `#[tool]` with an error still emits the handler and its descriptor, so
//! the code that calls the handler or names the descriptor reports nothing more.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub path: String,
}

/// Does a thing.
#[tool(annotations(category = "read", colour = "red"))]
pub fn do_thing(input: Input) -> ToolResult {
    ToolResult::text(input.path)
}

fn main() {
    let _ = do_thing(Input { path: String::new() });
    let _ = __neuralis_tool_do_thing.name;
}
