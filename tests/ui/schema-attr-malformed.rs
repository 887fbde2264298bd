//! schema-attr: a key that needs a value, written without one.
use neuralis::ToolInput;

#[derive(ToolInput)]
pub struct Forecast {
    #[schema(minimum)]
    pub days: u8,
}

fn main() {}
