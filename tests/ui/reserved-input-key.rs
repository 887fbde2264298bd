//! reserved-input-key: `user_id` becomes the reserved root key `userId` under `camelCase`.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[schema(root)]
pub struct Lookup {
    pub city: String,
    pub user_id: String,
}

fn main() {}
