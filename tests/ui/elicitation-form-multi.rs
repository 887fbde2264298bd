//! elicitation-form: a multi-select (SEP-1330) is a `Vec` of a unit enum marked
//! `#[schema(elicitation)]`; a list of objects is no choice a client shows.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
pub struct Person {
    pub name: String,
}

#[derive(ToolInput, serde::Deserialize)]
#[schema(elicitation)]
pub struct Reviewers {
    pub people: Vec<Person>,
}

fn main() {}
