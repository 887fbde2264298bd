//! schema-attr: a `pattern` that is not a valid regular expression.
use neuralis::ToolInput;

#[derive(ToolInput)]
pub struct Search {
    #[schema(pattern = "^[a-z+$")]
    pub query: String,
}

fn main() {}
