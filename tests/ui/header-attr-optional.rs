//! header-attr: a header mirrors a required property (a strict model sends `null` for
//! an optional one, and a header carries no `null`).
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Routed {
    #[schema(header = "Urgency")]
    pub urgency: Option<u8>,
}

fn main() {}
