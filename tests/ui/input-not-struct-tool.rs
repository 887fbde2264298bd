//! input-not-struct: a tool's input is a struct with named fields, not a bare string.
use neuralis::{ToolResult, tool};

/// Echoes.
#[tool(annotations(read_only, category = "read"))]
pub fn echo(input: String) -> ToolResult {
    ToolResult::text(input)
}

fn main() {}
