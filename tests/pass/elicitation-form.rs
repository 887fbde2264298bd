//! elicitation-form near-misses: every field a form may have (strings with an elicitation
//! `format` and lengths, numbers and integers with bounds, booleans, a marked unit enum,
//! optional fields, defaults, titles and descriptions) compiles, and the form's schema is
//! one MCP's elicitation schema reads.
use neuralis::ToolInput;
use neuralis::dispatch::{ElicitForm, Form};
use serde_json::json;

/// How urgent it is.
#[derive(ToolInput, serde::Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
#[schema(elicitation)]
pub enum Urgency {
    Low,
    High,
}

/// Who reviews the change.
#[derive(ToolInput, serde::Deserialize, Debug)]
#[schema(elicitation)]
pub struct Reviewer {
    /// Their address.
    #[schema(format = "email", min_length = 3, max_length = 120)]
    pub email: String,
    /// Their site.
    #[schema(format = "uri")]
    pub site: Option<String>,
    /// When they start.
    #[schema(format = "date")]
    pub from: Option<String>,
    #[schema(title = "Seats", minimum = 1, maximum = 9, default = 1)]
    pub seats: Option<u8>,
    pub share: Option<f64>,
    pub notify: bool,
    pub urgency: Urgency,
    pub fallback: Option<Urgency>,
    pub initial: Option<char>,
}

fn is_form<T: ElicitForm>() {}

fn main() {
    is_form::<Reviewer>();
    let form = Form::of::<Reviewer>("Who reviews?");
    assert_eq!(form.schema["type"], "object");
    assert!(form.schema.get("$schema").is_none());
    assert!(form.schema.get("additionalProperties").is_none());
    assert_eq!(form.schema["required"], json!(["email", "notify", "urgency"]));
    let p = &form.schema["properties"];
    assert_eq!(p["email"]["format"], "email");
    assert_eq!(p["seats"]["maximum"], 9);
    assert_eq!(p["urgency"]["enum"], json!(["low", "high"]));
    assert_eq!(p["notify"]["type"], "boolean");
}
