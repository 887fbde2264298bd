//! unsupported-type: a nested type that does not implement `ToolInput`.
use neuralis::ToolInput;

pub struct Opaque;

#[derive(ToolInput)]
pub struct Wrapper {
    pub inner: Opaque,
}

fn main() {}
