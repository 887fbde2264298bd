//! elicitation-form: a form with a list field, asked by a handler: one error, on the field.
use neuralis::{ToolContext, ToolInput, tool};

#[derive(ToolInput, serde::Deserialize)]
#[schema(elicitation)]
pub struct Invite {
    pub names: Vec<String>,
}

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub team: String,
}

/// Invites people.
#[tool(annotations(category = "read"))]
pub async fn invite(input: Input, cx: &ToolContext) -> String {
    match cx.elicit::<Invite>("who", "Who to invite?").await {
        Ok(_) => input.team,
        Err(e) => e.to_string(),
    }
}

fn main() {}
