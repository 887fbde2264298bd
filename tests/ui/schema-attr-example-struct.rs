//! schema-attr: an example for a field whose type is a struct: no literal is an object.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
pub struct Paging {
    pub size: u8,
}

#[derive(ToolInput, serde::Deserialize)]
pub struct Search {
    #[schema(examples = ["first page"])]
    pub paging: Paging,
}

fn main() {}
