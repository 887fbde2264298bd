//! handler-signature: a returned struct derives `Serialize` but not `ToolOutput`, so the
//! tool would declare no output schema without a word.
use neuralis::{ToolInput, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub sku: String,
}

#[derive(serde::Serialize)]
pub struct Stock {
    pub count: u32,
}

/// Get the stock of one item.
#[tool(annotations(category = "read"))]
pub fn stock_get(input: Input) -> Stock {
    let _ = input;
    Stock { count: 1 }
}

fn main() {}
