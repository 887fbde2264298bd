//! askonkeys-too-many near-miss: exactly 8 distinct keys, each a root property.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
pub struct Input {
    pub a: Option<bool>,
    pub b: Option<bool>,
    pub c: Option<bool>,
    pub d: Option<bool>,
    pub e: Option<bool>,
    pub f: Option<bool>,
    pub g: Option<bool>,
    pub h: Option<bool>,
}

/// Changes things.
#[tool(
    annotations(destructive, category = "write"),
    ask_on_keys(a, b, c, d, e, f, g, h),
)]
pub fn change(input: Input) -> ToolResult {
    ToolResult::text(format!("{:?}", input.a))
}

fn main() {
    assert_eq!(
        __neuralis_tool_change.x_neuralis()["askOnKeys"],
        serde_json::json!(["a", "b", "c", "d", "e", "f", "g", "h"])
    );
}
