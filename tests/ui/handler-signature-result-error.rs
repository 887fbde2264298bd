//! handler-signature: the error type of a handler's `Result` is not `Display` (deriving
//! `Serialize` does not make it a result's value: `Err` is always the `isError` result).
use neuralis::{ToolInput, ToolOutput, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub sku: String,
}

#[derive(ToolOutput, serde::Serialize)]
pub struct Stock {
    pub count: u32,
}

#[derive(serde::Serialize, Debug)]
pub enum LookupError {
    NotFound,
}

/// Get the stock of one item.
#[tool(annotations(category = "read"))]
pub fn stock_get(input: Input) -> Result<Stock, LookupError> {
    let _ = input;
    Err(LookupError::NotFound)
}

fn main() {}
