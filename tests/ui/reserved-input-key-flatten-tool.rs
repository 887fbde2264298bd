//! reserved-input-key: a flattened struct brings `role` to the root of a tool's input;
//! one error, naming the key, however many places check it.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Member {
    pub role: String,
}

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Invite {
    pub email: String,
    #[serde(flatten)]
    pub member: Member,
}

/// Invites someone.
#[tool(annotations(category = "write"))]
pub fn invite(input: Invite) -> ToolResult {
    ToolResult::text(input.email)
}

fn main() {}
