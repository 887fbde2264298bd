//! unsupported-type: `Duration` has no schema that matches what serde reads.
use neuralis::ToolInput;

#[derive(ToolInput)]
pub struct Wait {
    pub timeout: std::time::Duration,
}

fn main() {}
