//! schema-attr: a `default` of the wrong type.
use neuralis::ToolInput;

#[derive(ToolInput)]
pub struct Forecast {
    #[schema(default = "three")]
    pub days: Option<u8>,
}

fn main() {}
