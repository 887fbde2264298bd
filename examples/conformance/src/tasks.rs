//! The tools of the conformance suite's `tasks-*` scenarios (MCP's tasks extension,
//! SEP-2663), each as the scenarios describe it. A tool declared `task = "optional"`
//! runs as a task when the client opted in, within its request otherwise; one declared
//! `task = "required"` only as a task (a client that did not opt in gets `-32021`).
//!
//! Inside a task a handler asks as anywhere else (`cx.confirm`, `cx.elicit_form`): the
//! task is `input_required` until the client answers with `tasks/update`, and the handler
//! goes on where it waited.

use std::time::Duration;

use neuralis::dispatch::{AskError, Elicited, Form};
use neuralis::{AbortSignal, ToolContext, ToolInput, ToolResult, tool};
use serde::Deserialize;
use serde_json::json;

use crate::tools::Nothing;

/// `greet`'s argument.
#[derive(ToolInput, Deserialize)]
#[schema(root)]
pub struct Name {
    /// Who to greet.
    pub name: String,
}

/// Greets someone, within the request: never a task.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub fn greet(input: Name) -> String {
    format!("Hello, {}!", input.name)
}

/// `slow_compute`'s arguments.
#[derive(ToolInput, Deserialize)]
#[schema(root)]
pub struct Compute {
    /// How long the computation takes, in seconds.
    #[schema(minimum = 0, maximum = 600)]
    pub seconds: u64,
    /// A label the result repeats.
    pub label: String,
}

/// Computes for `seconds` seconds, as a task when the client opted in; a cancelled task
/// stops at once.
#[tool(
    annotations(read_only, destructive = false, category = "read", cancellable),
    ui(presentation = "inline"),
    task = "optional"
)]
pub async fn slow_compute(input: Compute, cx: &ToolContext, abort: AbortSignal) -> ToolResult {
    cx.progress(0.0, Some(1.0), Some("computing"));
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs(input.seconds)) => {}
        _ = abort.cancelled() => return ToolResult::error("cancelled"),
    }
    ToolResult::text(format!(
        "computed `{}` in {} seconds",
        input.label, input.seconds
    ))
}

/// `confirm_delete`'s argument.
#[derive(ToolInput, Deserialize)]
#[schema(root)]
pub struct Filename {
    /// The file to delete.
    pub filename: String,
}

/// Asks the person to confirm deleting a file (the task waits, `input_required`), then
/// says what it did.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline"),
    task = "optional"
)]
pub async fn confirm_delete(input: Filename, cx: &ToolContext) -> Result<ToolResult, AskError> {
    let yes = cx
        .confirm("confirm", format!("Delete {}?", input.filename))
        .await?;
    Ok(ToolResult::text(if yes {
        format!("deleted {}", input.filename)
    } else {
        format!("kept {}", input.filename)
    }))
}

/// Fails after a second with a tool error: its task completes with `isError`. Runs only
/// as a task.
#[tool(
    annotations(read_only, destructive = false, category = "read", cancellable),
    ui(presentation = "inline"),
    task = "required"
)]
pub async fn failing_job(input: Nothing, abort: AbortSignal) -> Result<ToolResult, String> {
    let Nothing {} = input;
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs(1)) => {}
        _ = abort.cancelled() => return Ok(ToolResult::error("cancelled")),
    }
    Err("the job failed: the input it needed was not there".to_owned())
}

/// Panics: its task fails with a JSON-RPC error, not a tool result.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline"),
    task = "optional"
)]
pub async fn protocol_error_job(input: Nothing) -> ToolResult {
    let Nothing {} = input;
    tokio::time::sleep(Duration::from_millis(100)).await;
    panic!("protocol_error_job always fails outside the tool's own result");
}

/// A form of a name and a yes or no.
fn name_and_confirm(message: &str) -> Form {
    Form::new(
        message,
        json!({
            "type": "object",
            "properties": {"name": {"type": "string"}, "confirm": {"type": "boolean"}},
            "required": ["name"],
        }),
    )
}

/// The `name` an accepted form gave.
fn name_of(answer: &Elicited) -> String {
    match answer {
        Elicited::Accept(content) => content
            .get("name")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("nobody")
            .to_owned(),
        _ => "nobody".to_owned(),
    }
}

/// Asks two questions at once: the task waits for both, answered together or one at a
/// time.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline"),
    task = "optional"
)]
pub async fn multi_input(input: Nothing, cx: &ToolContext) -> Result<ToolResult, AskError> {
    let Nothing {} = input;
    let first = cx.elicit_form("first", name_and_confirm("Who goes first?"));
    let second = cx.elicit_form("second", name_and_confirm("Who goes second?"));
    let (first, second) = tokio::join!(first, second);
    let (first, second) = (first?, second?);
    Ok(ToolResult::text(format!(
        "{} then {}",
        name_of(&first),
        name_of(&second)
    )))
}

/// Asks the person's name within the request (an `InputRequiredResult` round on
/// 2026-07-28), then runs as a task that greets them. Runs only as a task.
#[tool(
    annotations(read_only, destructive = false, category = "read", cancellable),
    ui(presentation = "inline"),
    task = "required",
    task_start = "handler"
)]
pub async fn test_tool_with_task(
    input: Nothing,
    cx: &ToolContext,
    abort: AbortSignal,
) -> Result<ToolResult, AskError> {
    let Nothing {} = input;
    let name = cx
        .elicit_form(
            "user_name",
            Form::new(
                "What is your name?",
                json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
            ),
        )
        .await?;
    cx.begin_task().await;
    if abort.is_aborted() {
        return Ok(ToolResult::error("cancelled"));
    }
    Ok(ToolResult::text(format!(
        "Hello, {}! The task ran with the name given before it began.",
        name_of(&name)
    )))
}
