//! The tools of the conformance suite that ask the client during the call, each as its
//! scenario describes it, written with `ToolContext`'s questions (`elicit_form`,
//! `sample`, `roots`): the same code asks with a request to the client before 2026-07-28
//! (`tools-call-sampling`, `tools-call-elicitation`, `elicitation-sep1034-defaults`,
//! `elicitation-sep1330-enums`) and with an `InputRequiredResult` round on 2026-07-28
//! (the `input-required-result-*` scenarios, `server-stateless`'s `-32021`).
//!
//! On 2026-07-28 a handler runs again from the start on every round, its earlier
//! questions answered from the sealed `requestState`: so each asks before it does
//! anything, and asks again, under the same key, what was not answered.

use neuralis::dispatch::{AskError, Capability, Elicited, Form, SamplingRequest};
use neuralis::{ToolContext, ToolInput, ToolResult, tool};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::tools::Nothing;

/// `test_sampling`'s argument.
#[derive(ToolInput, Deserialize)]
#[schema(root)]
pub struct Prompt {
    /// The prompt to send to the client's model.
    pub prompt: String,
}

/// `test_elicitation`'s argument.
#[derive(ToolInput, Deserialize)]
#[schema(root)]
pub struct Message {
    /// The message to show the user.
    pub message: String,
}

/// A form of string fields, every one required.
fn strings(message: &str, fields: &[(&str, Option<&str>)]) -> Form {
    let mut properties = serde_json::Map::new();
    for (name, description) in fields {
        let mut field = json!({"type": "string"});
        if let Some(description) = description {
            field["description"] = json!(description);
        }
        properties.insert((*name).to_owned(), field);
    }
    let required: Vec<&str> = fields.iter().map(|(name, _)| *name).collect();
    Form::new(
        message,
        json!({"type": "object", "properties": properties, "required": required}),
    )
}

/// `action=<accept/decline/cancel>, content={...}`.
fn outcome(answer: &Elicited) -> String {
    let content = match answer {
        Elicited::Accept(content) => Value::Object(content.clone()),
        Elicited::Decline | Elicited::Cancel => json!({}),
    };
    format!("action={}, content={content}", answer.action())
}

/// The text field `field` of an accepted form.
fn field(answer: &Elicited, field: &str) -> String {
    match answer {
        Elicited::Accept(content) => content
            .get(field)
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
            .unwrap_or_default(),
        Elicited::Decline | Elicited::Cancel => String::new(),
    }
}

/// Ask the client's model to complete `prompt` (at most 100 tokens) and return its
/// answer.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_sampling(input: Prompt, cx: &ToolContext) -> Result<ToolResult, AskError> {
    let sampled = cx
        .sample("completion", SamplingRequest::user(input.prompt, 100))
        .await?;
    Ok(ToolResult::text(format!("LLM response: {}", sampled.text)))
}

/// Ask the user for a username and an email, showing `message`, and return their answer.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_elicitation(input: Message, cx: &ToolContext) -> Result<ToolResult, AskError> {
    let form = strings(
        &input.message,
        &[
            ("username", Some("User's response")),
            ("email", Some("User's email address")),
        ],
    );
    let answer = cx.elicit_form("user_info", form).await?;
    Ok(ToolResult::text(format!(
        "User response: {}",
        outcome(&answer)
    )))
}

/// Ask the user for a form whose every field has a default (SEP-1034): a string, an
/// integer, a number, an enum and a boolean.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_elicitation_sep1034_defaults(
    input: Nothing,
    cx: &ToolContext,
) -> Result<ToolResult, AskError> {
    let Nothing {} = input;
    let form = Form::new(
        "Please review the defaults.",
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "default": "John Doe"},
                "age": {"type": "integer", "default": 30},
                "score": {"type": "number", "default": 95.5},
                "status": {"type": "string", "enum": ["active", "inactive", "pending"],
                           "default": "active"},
                "verified": {"type": "boolean", "default": true}
            },
            "required": []
        }),
    );
    let answer = cx.elicit_form("defaults", form).await?;
    Ok(ToolResult::text(format!(
        "Elicitation completed: {}",
        outcome(&answer)
    )))
}

/// Three options, untitled.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "lowercase")]
#[schema(elicitation)]
pub enum Untitled {
    Option1,
    Option2,
    Option3,
}

/// Three options, each with the title a client shows.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "lowercase")]
#[schema(elicitation)]
pub enum TitledOption {
    #[schema(title = "First Option")]
    Value1,
    #[schema(title = "Second Option")]
    Value2,
    #[schema(title = "Third Option")]
    Value3,
}

/// Three choices of a multi-select, each with its title.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "lowercase")]
#[schema(elicitation)]
pub enum TitledChoice {
    #[schema(title = "First Choice")]
    Value1,
    #[schema(title = "Second Choice")]
    Value2,
    #[schema(title = "Third Choice")]
    Value3,
}

/// SEP-1330's kinds of enum as a typed form: an untitled and a titled single-select, an
/// untitled and a titled multi-select.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "camelCase")]
#[schema(elicitation)]
#[expect(
    dead_code,
    reason = "the form asks for them; the answer, with the legacy field, is reported whole"
)]
pub struct Choices {
    pub untitled_single: Option<Untitled>,
    pub titled_single: Option<TitledOption>,
    pub untitled_multi: Option<Vec<Untitled>>,
    pub titled_multi: Option<Vec<TitledChoice>>,
}

/// Ask the user for a form with the five kinds of enum (SEP-1330): the typed form's four
/// (untitled and titled single-select, untitled and titled multi-select), and the legacy
/// `enumNames`, which no type writes (it is deprecated), added by hand.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_elicitation_sep1330_enums(
    input: Nothing,
    cx: &ToolContext,
) -> Result<ToolResult, AskError> {
    let Nothing {} = input;
    let mut form = Form::of::<Choices>("Please choose.");
    form.schema["properties"]["legacyEnum"] = json!({
        "type": "string", "enum": ["opt1", "opt2", "opt3"],
        "enumNames": ["Option One", "Option Two", "Option Three"]
    });
    let answer = cx.elicit_form("enums", form).await?;
    Ok(ToolResult::text(format!(
        "Elicitation completed: {}",
        outcome(&answer)
    )))
}

/// Ask the user's name, then greet them.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_input_required_result_elicitation(
    input: Nothing,
    cx: &ToolContext,
) -> Result<ToolResult, AskError> {
    let Nothing {} = input;
    let form = strings("What is your name?", &[("name", None)]);
    let answer = cx.elicit_form("user_name", form).await?;
    Ok(ToolResult::text(format!(
        "Hello, {}!",
        field(&answer, "name")
    )))
}

/// Ask the client's model what the capital of France is.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_input_required_result_sampling(
    input: Nothing,
    cx: &ToolContext,
) -> Result<ToolResult, AskError> {
    let Nothing {} = input;
    let question = SamplingRequest::user("What is the capital of France?", 100);
    let sampled = cx.sample("capital_question", question).await?;
    Ok(ToolResult::text(format!(
        "The model says: {}",
        sampled.text
    )))
}

/// List the client's roots.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_input_required_result_list_roots(
    input: Nothing,
    cx: &ToolContext,
) -> Result<ToolResult, AskError> {
    let Nothing {} = input;
    let roots = cx.roots("client_roots").await?;
    let uris: Vec<&str> = roots.iter().map(|r| r.uri.as_str()).collect();
    Ok(ToolResult::text(format!("Roots: {}", uris.join(", "))))
}

/// Ask for a confirmation; the answer comes back with the sealed `requestState`, which
/// the server opened before the tool ran again.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_input_required_result_request_state(
    input: Nothing,
    cx: &ToolContext,
) -> Result<ToolResult, AskError> {
    let Nothing {} = input;
    let form = Form::new(
        "Please confirm",
        json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}),
    );
    let answer = cx.elicit_form("confirm", form).await?;
    Ok(ToolResult::text(format!(
        "state-ok: the requestState opened, confirmed with {}",
        outcome(&answer)
    )))
}

/// Ask three things in one round: the user's name, a greeting from the model, the
/// client's roots.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_input_required_result_multiple_inputs(
    input: Nothing,
    cx: &ToolContext,
) -> Result<ToolResult, AskError> {
    let Nothing {} = input;
    let name = cx.elicit_form(
        "user_name",
        strings("What is your name?", &[("name", None)]),
    );
    let greeting = cx.sample("greeting", SamplingRequest::user("Generate a greeting", 50));
    let roots = cx.roots("client_roots");
    // All three asked at once: one round carries them all.
    let (name, greeting, roots) = tokio::join!(name, greeting, roots);
    let (name, greeting, roots) = (name?, greeting?, roots?);
    Ok(ToolResult::text(format!(
        "{} {}, with {} roots",
        greeting.text,
        field(&name, "name"),
        roots.len()
    )))
}

/// Ask in two rounds: the user's name, then their favourite colour.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_input_required_result_multi_round(
    input: Nothing,
    cx: &ToolContext,
) -> Result<ToolResult, AskError> {
    let Nothing {} = input;
    let name = cx
        .elicit_form(
            "step1",
            strings("Step 1: What is your name?", &[("name", None)]),
        )
        .await?;
    let color = cx
        .elicit_form(
            "step2",
            strings("Step 2: What is your favorite color?", &[("color", None)]),
        )
        .await?;
    Ok(ToolResult::text(format!(
        "{} likes {}",
        field(&name, "name"),
        field(&color, "color")
    )))
}

/// Ask for a confirmation under a `requestState` whose alteration the server refuses.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_input_required_result_tampered_state(
    input: Nothing,
    cx: &ToolContext,
) -> Result<ToolResult, AskError> {
    let Nothing {} = input;
    let form = Form::new(
        "Please confirm",
        json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}),
    );
    let answer = cx.elicit_form("confirm", form).await?;
    Ok(ToolResult::text(format!("confirmed: {}", outcome(&answer))))
}

/// Ask only what the client can answer: the model (when it declared `sampling`) and the
/// user (when it declared `elicitation`).
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_input_required_result_capabilities(
    input: Nothing,
    cx: &ToolContext,
) -> Result<ToolResult, AskError> {
    let Nothing {} = input;
    let mut parts = Vec::new();
    if cx.supports(Capability::Sampling) {
        let sampled = cx
            .sample("greeting", SamplingRequest::user("Generate a greeting", 50))
            .await?;
        parts.push(format!("model: {}", sampled.text));
    }
    if cx.supports(Capability::Elicitation) {
        let answer = cx
            .elicit_form(
                "user_name",
                strings("What is your name?", &[("name", None)]),
            )
            .await?;
        parts.push(format!("user: {}", field(&answer, "name")));
    }
    if parts.is_empty() {
        parts.push("the client can answer nothing".to_owned());
    }
    Ok(ToolResult::text(parts.join("; ")))
}

/// Needs the client's model: a client that did not declare `sampling` gets `-32021`
/// naming it on 2026-07-28 (an error result before).
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_missing_capability(
    input: Nothing,
    cx: &ToolContext,
) -> Result<ToolResult, AskError> {
    let Nothing {} = input;
    let sampled = cx
        .sample("completion", SamplingRequest::user("Say hello.", 20))
        .await?;
    Ok(ToolResult::text(format!(
        "The model says: {}",
        sampled.text
    )))
}
