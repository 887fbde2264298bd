//! elicitation-form: a form's strings have format email, uri, date or date-time.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[schema(elicitation)]
pub struct Host {
    #[schema(format = "ipv4")]
    pub address: String,
}

fn main() {}
