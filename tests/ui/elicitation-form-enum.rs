//! elicitation-form: a choice in a form is one of the enum's names; a variant that
//! carries data has no name alone.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[schema(elicitation)]
pub enum Size {
    Small,
    Custom { width: u32 },
}

fn main() {}
