//! The served dialect `mcp-remote` over the wire, on a tool whose input is a tagged enum
//! (a deploy's `strategy`: `canary` with a `percent`, or `blue_green`) and an integer
//! enum: `tools/list` serves one object with the kind a string enum; a call that sends
//! the integer as the string it was shown runs; a call that mixes two kinds' fields is
//! refused naming the field and the kinds; the default dialect is left as it was.

use neuralis_core::dispatch::{Package, SessionContext, sync_fn};
use neuralis_mcp::{McpServer, Served};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

fn package() -> Package {
    let tool = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object", "additionalProperties": false,
        "description": "Deploy a build.",
        "properties": {
            "replicas": {"type": "integer", "enum": [1, 3, 5]},
            "strategy": {"description": "How the rollout proceeds.", "oneOf": [
                {"type": "object", "additionalProperties": false,
                 "properties": {"kind": {"type": "string", "enum": ["canary"]},
                                "percent": {"type": "integer", "minimum": 1, "maximum": 50}},
                 "required": ["kind", "percent"]},
                {"type": "object", "additionalProperties": false,
                 "properties": {"kind": {"type": "string", "enum": ["blue_green"]}},
                 "required": ["kind"]}]}},
        "required": ["replicas", "strategy"],
        "x-neuralis": {"annotations": {"category": "read"}}
    });
    Package::builder()
        .tool("deploy", tool.to_string(), sync_fn(|v: Value| v))
        .build()
        .expect("a package")
}

/// Sends `requests` to a server in `served` over newline-delimited JSON-RPC; the answers.
async fn exchange(served: Served, requests: &[Value]) -> Vec<Value> {
    let (client, server) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server);
    let server =
        McpServer::new(package(), SessionContext::builder("u").build()).with_served_dialect(served);
    tokio::spawn(server.serve_io(read, write));
    let (reader, mut writer) = tokio::io::split(client);
    let mut reader = BufReader::new(reader);
    let mut answers = Vec::new();
    let mut all = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    all.extend(requests.iter().cloned());
    for request in &all {
        writer
            .write_all(format!("{request}\n").as_bytes())
            .await
            .expect("write");
        if request.get("id").is_none() {
            continue;
        }
        loop {
            let mut line = String::new();
            assert_ne!(reader.read_line(&mut line).await.expect("read"), 0);
            let message: Value = serde_json::from_str(&line).expect("JSON");
            if message.get("id") == request.get("id") {
                answers.push(message);
                break;
            }
        }
    }
    answers
}

fn call(id: u64, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "deploy", "arguments": arguments}})
}

#[tokio::test]
async fn a_tagged_enum_is_served_as_one_object_and_calls_are_read_as_the_model_was_shown() {
    let answers = exchange(
        Served::McpRemote,
        &[
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            call(
                2,
                json!({"replicas": "3", "strategy": {"kind": "canary", "percent": 10}}),
            ),
            call(
                3,
                json!({"replicas": 3, "strategy": {"kind": "blue_green", "percent": 10}}),
            ),
            call(
                4,
                json!({"replicas": 3, "strategy": {"kind": "blue_green", "percent": null}}),
            ),
        ],
    )
    .await;
    let schema = &answers[1]["result"]["tools"][0]["inputSchema"];
    assert_eq!(
        schema["properties"]["replicas"]["enum"],
        json!(["1", "3", "5"])
    );
    let strategy = &schema["properties"]["strategy"];
    assert_eq!(
        strategy["properties"]["kind"],
        json!({"type": "string", "enum": ["canary", "blue_green"]})
    );
    assert_eq!(strategy["required"], json!(["kind"]));
    let percent = strategy["properties"]["percent"]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(
        percent.starts_with("Only for `kind` \"canary\" (required there).")
            && percent.contains("At most 50."),
        "{percent}"
    );
    // "3" as shown is 3; the handler echoes what it was given.
    let ran = &answers[2]["result"];
    assert_ne!(ran["isError"], true, "{ran}");
    assert_eq!(ran["structuredContent"]["replicas"], 3, "{ran}");
    // Two kinds mixed: the field and the kinds named.
    let mixed = answers[3]["result"].to_string();
    assert!(
        mixed.contains(
            "`/strategy/percent` belongs to `kind` \\\"canary\\\", not \\\"blue_green\\\""
        ),
        "{mixed}"
    );
    // A `null` for the other kind's field reads as not sent.
    assert_ne!(answers[4]["result"]["isError"], true, "{}", answers[4]);
}

#[tokio::test]
async fn the_default_dialect_is_left_as_it_was() {
    let answers = exchange(
        Served::Portable,
        &[
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            call(
                2,
                json!({"replicas": "3", "strategy": {"kind": "blue_green"}}),
            ),
        ],
    )
    .await;
    let schema = &answers[1]["result"]["tools"][0]["inputSchema"];
    assert_eq!(schema["properties"]["replicas"]["enum"], json!([1, 3, 5]));
    assert!(schema["properties"]["strategy"]["oneOf"].is_array());
    assert_eq!(answers[2]["result"]["isError"], true, "\"3\" is not 3 here");
}
