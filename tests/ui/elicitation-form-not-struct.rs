//! elicitation-form: a form is an object, so a tuple struct is none.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[serde(transparent)]
#[schema(elicitation)]
pub struct Name(String);

fn main() {}
