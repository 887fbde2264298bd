//! A truncated typed result's marker says the value to send for the next page
//! (`ToolBound::more_offset`, `#[tool(bound(more_value = "offset"))]`), and that value,
//! sent back, returns it: read on the wire, in both eras, until a page is not cut.

#![allow(clippy::unwrap_used, reason = "tests")]

use neuralis_core::dispatch::{
    Call, Handler, IntoToolResult, Json, Package, SessionContext, ToolContext,
};
use neuralis_core::result::ToolBound;
use neuralis_mcp::McpServer;
use serde_json::{Value, json};

mod common;

const PAGE: &str = r#"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
  "additionalProperties": false, "description": "The audit log from an offset.",
  "properties": {"offset": {"type": "integer", "minimum": 0}},
  "x-neuralis": {"annotations": {"category": "read", "readOnlyHint": true}}}"#;

/// 120 entries from the call's offset; 50 at most are kept.
struct Audit;

impl Handler for Audit {
    fn call<'a>(&'a self, args: Value, cx: &'a ToolContext) -> Call<'a> {
        let from = args["offset"].as_u64().unwrap_or(0);
        let entries: Vec<u64> = (from..120).collect();
        Call::Ready(Json(json!({ "entries": entries })).into_tool_result_in(cx))
    }

    fn bound(&self) -> ToolBound {
        ToolBound {
            array_len: Some(50),
            more: Some("offset"),
            more_offset: true,
            ..ToolBound::NONE
        }
    }
}

fn package() -> Package {
    Package::builder()
        .tool("audit", PAGE, Audit)
        .build()
        .unwrap()
}

/// The pages of `audit`, following each marker's value: each page's first entry, and the
/// marker (if any).
async fn follow(lines: &mut common::Lines, params: &dyn Fn(Value) -> Value) -> Vec<(u64, String)> {
    let mut pages = Vec::new();
    let mut arguments = json!({});
    loop {
        let (_, answer) = lines
            .send(
                "tools/call",
                params(json!({"name": "audit", "arguments": arguments})),
                &|_| json!({}),
            )
            .await;
        let result = &answer["result"];
        let first = result["structuredContent"]["entries"][0].as_u64().unwrap();
        let marker = result["content"][1]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        pages.push((first, marker.clone()));
        let Some(next) = marker
            .rsplit_once("set to ")
            .map(|(_, n)| n.trim_end_matches(']'))
        else {
            return pages;
        };
        arguments = json!({"offset": next.parse::<u64>().unwrap()});
        assert!(pages.len() < 5, "{pages:?}");
    }
}

fn expected() -> Vec<(u64, String)> {
    vec![
        (
            0,
            "… [truncated: 70 of 120 items left out at /entries; to get more, call again with `offset` set to 50]".to_owned(),
        ),
        (
            50,
            "… [truncated: 20 of 70 items left out at /entries; to get more, call again with `offset` set to 100]".to_owned(),
        ),
        (100, String::new()),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_markers_offset_returns_the_next_page_before_2026_07_28() {
    let server = McpServer::new(package(), SessionContext::builder("u").build());
    let mut lines = common::Lines::legacy(server, json!({})).await;
    assert_eq!(follow(&mut lines, &|p| p).await, expected());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_markers_offset_returns_the_next_page_on_2026_07_28() {
    let server = McpServer::new(package(), SessionContext::builder("u").build());
    let mut lines = common::Lines::start(server);
    let modern = |mut p: Value| {
        p["_meta"] = common::meta(json!({}));
        p
    };
    assert_eq!(follow(&mut lines, &modern).await, expected());
}
