//! elicitation-form: a field of a struct type nests an object in the form.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
pub struct Address {
    pub city: String,
}

#[derive(ToolInput, serde::Deserialize)]
#[schema(elicitation)]
pub struct Shipping {
    pub name: String,
    pub address: Option<Address>,
}

fn main() {}
