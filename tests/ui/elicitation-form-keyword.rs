//! elicitation-form: `pattern` is no keyword of MCP's elicitation schema.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[schema(elicitation)]
pub struct Code {
    #[schema(pattern = "^[A-Z]{3}$")]
    pub code: String,
}

fn main() {}
