//! The tools the conformance suite's server scenarios call, each as the scenario
//! describes it (`tools-call-*` in `@modelcontextprotocol/conformance`): the content blocks
//! of a `ToolResult`, an error, and a run that reports progress or logs as it goes.

use std::time::Duration;

use neuralis::result::ContentBlock;
use neuralis::{ToolContext, ToolInput, ToolResult, tool};
use serde::Deserialize;

/// No arguments.
#[derive(ToolInput, Deserialize)]
#[schema(root)]
pub struct Nothing {}

/// A 1x1 red pixel, PNG.
pub const RED_PIXEL_PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC";

/// Eight samples of silence: WAV, 8 kHz, mono, 8-bit PCM.
pub const SILENCE_WAV: &str =
    "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";

/// The pause between the reports of the progress and logging tools.
const STEP: Duration = Duration::from_millis(50);

/// Return a simple text response.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub fn test_simple_text(input: Nothing) -> ToolResult {
    let Nothing {} = input;
    ToolResult::text("This is a simple text response for testing.")
}

/// Return an image: a 1x1 red pixel (PNG).
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub fn test_image_content(input: Nothing) -> ToolResult {
    let Nothing {} = input;
    ToolResult::from_blocks(vec![ContentBlock::image(RED_PIXEL_PNG, "image/png")])
}

/// Return audio: a short silence (WAV).
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub fn test_audio_content(input: Nothing) -> ToolResult {
    let Nothing {} = input;
    ToolResult::from_blocks(vec![ContentBlock::audio(SILENCE_WAV, "audio/wav")])
}

/// Return an embedded text resource.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub fn test_embedded_resource(input: Nothing) -> ToolResult {
    let Nothing {} = input;
    ToolResult::from_blocks(vec![ContentBlock::resource_text(
        "test://embedded-resource",
        Some("text/plain".to_owned()),
        "This is an embedded resource content.",
    )])
}

/// Return a text, an image and an embedded resource in one result.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub fn test_multiple_content_types(input: Nothing) -> ToolResult {
    let Nothing {} = input;
    ToolResult::from_blocks(vec![
        ContentBlock::text("Multiple content types test:"),
        ContentBlock::image(RED_PIXEL_PNG, "image/png"),
        ContentBlock::resource_text(
            "test://mixed-content-resource",
            Some("application/json".to_owned()),
            r#"{"test":"data","value":123}"#,
        ),
    ])
}

/// Always fail: an error result, never a protocol error.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub fn test_error_handling(input: Nothing) -> Result<ToolResult, String> {
    let Nothing {} = input;
    Err("This tool intentionally returns an error for testing".to_owned())
}

/// Report progress 0, 50 and 100 of 100, 50 ms apart, then return.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_tool_with_progress(input: Nothing, cx: &ToolContext) -> ToolResult {
    let Nothing {} = input;
    for (i, done) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(STEP).await;
        }
        cx.progress(done, Some(100.0), Some(&format!("{done} of 100")));
    }
    ToolResult::text("Progress test completed")
}

/// Log three messages at `info`, 50 ms apart, then return.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_tool_with_logging(input: Nothing, cx: &ToolContext) -> ToolResult {
    let Nothing {} = input;
    cx.info("Tool execution started");
    tokio::time::sleep(STEP).await;
    cx.info("Tool processing data");
    tokio::time::sleep(STEP).await;
    cx.info("Tool execution completed");
    ToolResult::text("Logging test completed")
}

/// Close the call's event stream mid-call; the client resumes it and gets the result (SEP-1699).
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub async fn test_reconnection(input: Nothing) -> ToolResult {
    let Nothing {} = input;
    // `false` where there is no stream to close (stdio, stateless): the call just returns.
    let _closed = neuralis_mcp::http::close_call_stream(Some(RECONNECT_AFTER)).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    ToolResult::text("Reconnection test completed successfully")
}

/// How long `test_reconnection`'s client is told to wait before it resumes.
const RECONNECT_AFTER: Duration = Duration::from_millis(500);
