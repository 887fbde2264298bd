//! elicitation-form: a form's field is a single value; a list is no field a client shows.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[schema(elicitation)]
pub struct Reviewers {
    pub names: Vec<String>,
}

fn main() {}
