//! askonkeys-posture near-miss: a destructive `machine` tool may ask on keys.
use neuralis::{ToolInput, ToolResult, tool};

#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Input {
    pub command: String,
    pub as_root: Option<bool>,
}

/// Runs a command on the machine.
#[tool(annotations(destructive, category = "machine"), ask_on_keys(asRoot))]
pub fn run_command(input: Input) -> ToolResult {
    ToolResult::text(input.command)
}

fn main() {
    let meta = __neuralis_tool_run_command.meta().expect("a valid block");
    assert!(meta.asks_for_approval(&serde_json::json!({ "command": "ls", "asRoot": false })));
    assert!(!meta.asks_for_approval(&serde_json::json!({ "command": "ls" })));
}
