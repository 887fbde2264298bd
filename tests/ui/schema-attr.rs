//! schema-attr: an unknown `#[schema]` key, with a suggestion.
use neuralis::ToolInput;

#[derive(ToolInput)]
pub struct Forecast {
    #[schema(minimun = 1)]
    pub days: u8,
}

fn main() {}
