//! elicitation-form near-misses: every field a form may have (strings with an elicitation
//! `format` and lengths, numbers and integers with bounds, booleans, a marked unit enum,
//! optional fields, defaults, titles and descriptions; SEP-1330's titled choices and
//! multi-selects, `Vec`s of a marked enum with `min_items` / `max_items`) compiles, and the
//! form's schema is one MCP's elicitation schema reads.
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

/// Which area it touches, each with the title a client shows.
#[derive(ToolInput, serde::Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
#[schema(elicitation)]
pub enum Area {
    #[schema(title = "Billing and invoices")]
    Billing,
    #[schema(title = "Sign-in")]
    Auth,
    Search,
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
    pub area: Area,
    /// Every area it touches.
    #[schema(min_items = 1, max_items = 2)]
    pub areas: Vec<Area>,
    pub also: Option<Vec<Urgency>>,
}

fn is_form<T: ElicitForm>() {}

fn main() {
    is_form::<Reviewer>();
    let form = Form::of::<Reviewer>("Who reviews?");
    assert_eq!(form.schema["type"], "object");
    assert!(form.schema.get("$schema").is_none());
    assert!(form.schema.get("additionalProperties").is_none());
    let p = &form.schema["properties"];
    assert_eq!(p["email"]["format"], "email");
    assert_eq!(p["seats"]["maximum"], 9);
    assert_eq!(p["urgency"]["enum"], json!(["low", "high"]));
    assert_eq!(p["notify"]["type"], "boolean");
    // SEP-1330: a titled single-select, a titled multi-select, an untitled multi-select.
    let titled = json!([
        {"const": "billing", "title": "Billing and invoices"},
        {"const": "auth", "title": "Sign-in"},
        {"const": "search", "title": "search"}
    ]);
    assert_eq!(p["area"]["type"], "string");
    assert_eq!(p["area"]["oneOf"], titled);
    assert!(p["area"].get("enum").is_none());
    assert_eq!(p["areas"]["type"], "array");
    assert_eq!(p["areas"]["items"], json!({"anyOf": titled}));
    assert_eq!((p["areas"]["minItems"].clone(), p["areas"]["maxItems"].clone()), (json!(1), json!(2)));
    assert_eq!(p["also"]["items"]["enum"], json!(["low", "high"]));
    assert_eq!(form.schema["required"], json!(["email", "notify", "urgency", "area", "areas"]));
}
