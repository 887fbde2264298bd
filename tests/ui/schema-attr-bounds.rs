//! schema-attr: `minimum` above `maximum` accepts no value.
use neuralis::ToolInput;

#[derive(ToolInput)]
pub struct Forecast {
    #[schema(minimum = 14, maximum = 1)]
    pub days: u8,
}

fn main() {}
