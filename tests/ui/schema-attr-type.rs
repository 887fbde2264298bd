//! schema-attr: a string keyword on an integer field.
use neuralis::ToolInput;

#[derive(ToolInput)]
pub struct Forecast {
    #[schema(max_length = 3)]
    pub days: u8,
}

fn main() {}
