//! Who did something.

use neuralis::ToolInput;
use serde::Deserialize;

/// A person or a bot acting on an issue.
#[derive(ToolInput, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Actor {
    /// The actor's id.
    #[schema(min_length = 1, max_length = 64)]
    pub actor_id: String,
    /// How the tracker shows the actor.
    pub display_name: Option<String>,
}
