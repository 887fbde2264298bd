//! schema-attr: a `#[schema(default = ...)]` that is not a variant of the field's enum.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Urgency {
    Low,
    High,
}

#[derive(ToolInput, serde::Deserialize)]
pub struct Issue {
    #[schema(default = "medium")]
    pub urgency: Option<Urgency>,
}

fn main() {}
