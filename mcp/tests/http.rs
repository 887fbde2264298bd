//! Streamable HTTP (feature `http`): the tower service answers `tools/list` and
//! `tools/call` for the host's session, statelessly, in JSON.

#![allow(clippy::unwrap_used, reason = "tests")]

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use neuralis_core::dispatch::{Package, SessionContext, sync_fn};
use neuralis_mcp::McpServer;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use serde_json::{Value, json};

const GREET: &str = r#"{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object", "additionalProperties": false, "description": "Greet someone.",
  "properties": { "name": { "type": "string", "minLength": 1 } },
  "required": ["name"],
  "x-neuralis": { "annotations": { "category": "read", "readOnlyHint": true },
                  "ui": { "presentation": "inline" } }
}"#;

fn request(id: u64, method: &str, name: Option<&str>, params: Value) -> http::Request<Full<Bytes>> {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1.0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let mut builder = http::Request::post("http://localhost/mcp")
        .header("Host", "localhost")
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", method);
    if let Some(name) = name {
        builder = builder.header("Mcp-Name", name);
    }
    builder
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_and_calls_over_http() {
    let package = Package::builder()
        .tool(
            "greet",
            GREET,
            sync_fn(|g: Value| format!("hello, {}", g["name"].as_str().unwrap_or_default())),
        )
        .build()
        .unwrap();
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None);
    let service =
        McpServer::new(package, SessionContext::builder("u-1").build()).http_service_with(config);

    let send = |req| {
        let service = service.clone();
        async move {
            let response = service.handle(req).await;
            assert_eq!(response.status(), 200);
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            serde_json::from_slice::<Value>(&bytes).unwrap()
        }
    };

    let listed = send(request(1, "tools/list", None, json!({}))).await;
    let tool = &listed["result"]["tools"][0];
    assert_eq!(tool["name"], "greet", "{listed}");
    assert_eq!(tool["annotations"]["readOnlyHint"], true);
    assert_eq!(tool["annotations"]["openWorldHint"], false);
    assert!(tool["inputSchema"].get("x-neuralis").is_none());

    let called = send(request(
        2,
        "tools/call",
        Some("greet"),
        json!({"name": "greet", "arguments": {"name": "Ada"}}),
    ))
    .await;
    assert_eq!(
        called["result"]["content"][0]["text"], "hello, Ada",
        "{called}"
    );

    let bad = send(request(
        3,
        "tools/call",
        Some("greet"),
        json!({"name": "greet", "arguments": {"name": ""}}),
    ))
    .await;
    assert_eq!(bad["result"]["isError"], true, "{bad}");
}
