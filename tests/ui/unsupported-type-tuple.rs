//! unsupported-type: a tuple has no draft-07 schema without tuple `items`.
use neuralis::ToolInput;

#[derive(ToolInput)]
pub struct Point {
    pub at: (f64, f64),
}

fn main() {}
