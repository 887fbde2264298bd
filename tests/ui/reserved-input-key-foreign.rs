//! reserved-input-key: `#[serde(flatten)]` of a type from another crate brings `userId` to the root.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Lookup {
    pub query: String,
    #[serde(flatten)]
    pub caller: neuralis_test_support::CallerContext,
}

fn main() {}
