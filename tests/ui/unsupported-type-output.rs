//! unsupported-type: an output field whose type has no output schema.
use neuralis::ToolOutput;

#[derive(serde::Serialize)]
pub struct Untyped {
    pub ok: bool,
}

#[derive(ToolOutput, serde::Serialize)]
pub struct Forecast {
    pub detail: Untyped,
}

fn main() {}
