//! Log messages from tools, read off the wire: `notifications/message` in the order the
//! handler made them, interleaved with its progress reports, before its result, from the
//! level the client asked for; over stdio-like line I/O in each era, and over stateless
//! streamable HTTP (feature `http`) on 2026-07-28, in the request's own event stream.

#![allow(clippy::unwrap_used, reason = "tests")]

use neuralis_core::dispatch::{Package, SessionContext, ToolContext, sync_fn_cx};
use neuralis_mcp::McpServer;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};

const WORK: &str = r#"{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object", "additionalProperties": false, "description": "Work in two steps.",
  "properties": {},
  "x-neuralis": { "annotations": { "category": "read", "readOnlyHint": true } }
}"#;

/// `work` reports progress and logs at five levels, interleaved.
fn package() -> Package {
    Package::builder()
        .tool(
            "work",
            WORK,
            sync_fn_cx(|_: Value, cx: &ToolContext| {
                cx.progress(1.0, Some(2.0), Some("first half"));
                cx.debug("d");
                cx.info("i");
                cx.notice(format_args!("{} of {}", 1, 2));
                cx.progress(2.0, Some(2.0), Some("second half"));
                cx.warning("w");
                cx.error("e");
                "done"
            }),
        )
        .build()
        .unwrap()
}

/// A client of an in-process server over line I/O (what `serve_stdio` does).
struct Lines {
    reader: BufReader<ReadHalf<DuplexStream>>,
    writer: WriteHalf<DuplexStream>,
}

impl Lines {
    fn start() -> Self {
        let (client, server) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(server);
        let server = McpServer::new(package(), SessionContext::builder("u").build());
        tokio::spawn(server.serve_io(read, write));
        let (reader, writer) = tokio::io::split(client);
        Self {
            reader: BufReader::new(reader),
            writer,
        }
    }

    async fn notify(&mut self, message: Value) {
        let line = format!("{message}\n");
        self.writer.write_all(line.as_bytes()).await.unwrap();
    }

    /// Sends `request`; what came before its answer (in wire order), and the answer.
    async fn send(&mut self, request: Value) -> (Vec<Value>, Value) {
        self.notify(request.clone()).await;
        let mut before = Vec::new();
        loop {
            let mut line = String::new();
            assert_ne!(self.reader.read_line(&mut line).await.unwrap(), 0);
            let message: Value = serde_json::from_str(&line).unwrap();
            if message.get("id") == request.get("id") && message.get("method").is_none() {
                return (before, message);
            }
            before.push(message);
        }
    }
}

/// Each message before a result, in short: `progress 1`, `notice: 1 of 2`...
fn summary(messages: &[Value]) -> Vec<String> {
    messages
        .iter()
        .map(|m| match m["method"].as_str() {
            Some("notifications/progress") => format!("progress {}", m["params"]["progress"]),
            Some("notifications/message") => {
                assert_eq!(m["params"]["logger"], "work", "{m}");
                format!(
                    "{}: {}",
                    m["params"]["level"].as_str().unwrap(),
                    m["params"]["data"].as_str().unwrap()
                )
            }
            _ => panic!("not a notification of the call: {m}"),
        })
        .collect()
}

fn call(id: u64, meta: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "work", "arguments": {}, "_meta": meta}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_log_messages_keep_their_order_with_progress() {
    let mut client = Lines::start();
    let (_, init) = client
        .send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}}}),
        )
        .await;
    assert_eq!(
        init["result"]["capabilities"]["logging"],
        json!({}),
        "{init}"
    );
    client
        .notify(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;

    let (before, result) = client.send(call(1, json!({"progressToken": "t1"}))).await;
    assert_eq!(result["result"]["content"][0]["text"], "done", "{result}");
    assert_eq!(summary(&before), ["progress 1.0", "progress 2.0"]);

    let (_, set) = client
        .send(
            json!({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel",
                     "params": {"level": "notice"}}),
        )
        .await;
    assert_eq!(set["result"], json!({}), "{set}");
    let (before, result) = client.send(call(3, json!({"progressToken": "t3"}))).await;
    assert_eq!(result["result"]["content"][0]["text"], "done", "{result}");
    assert_eq!(
        summary(&before),
        [
            "progress 1.0",
            "notice: 1 of 2",
            "progress 2.0",
            "warning: w",
            "error: e"
        ]
    );
    // Log messages without progress: the call asked for no progress.
    let (before, _) = client.send(call(4, json!({}))).await;
    assert_eq!(
        summary(&before),
        ["notice: 1 of 2", "warning: w", "error: e"]
    );
}

fn modern(log_level: Option<&str>) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    if let Some(level) = log_level {
        meta["io.modelcontextprotocol/logLevel"] = json!(level);
    }
    meta
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_log_messages_go_to_requests_that_ask() {
    let mut client = Lines::start();
    let (before, result) = client.send(call(1, modern(None))).await;
    assert_eq!(result["result"]["content"][0]["text"], "done", "{result}");
    assert!(before.is_empty(), "{before:?}");

    let (before, _) = client.send(call(2, modern(Some("info")))).await;
    assert_eq!(
        summary(&before),
        ["info: i", "notice: 1 of 2", "warning: w", "error: e"]
    );
    let (before, _) = client.send(call(3, modern(Some("emergency")))).await;
    assert!(before.is_empty(), "{before:?}");
    let (before, _) = client.send(call(4, modern(None))).await;
    assert!(before.is_empty(), "{before:?}");
}

#[cfg(feature = "http")]
mod over_http {
    use bytes::Bytes;
    use http_body_util::{BodyExt, Full};
    use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;

    use super::*;

    /// Every JSON-RPC message of a response: its JSON body, or the `data:` lines of its
    /// event stream.
    fn messages(body: &str) -> Vec<Value> {
        serde_json::from_str(body).map_or_else(
            |_| {
                body.lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
                    .collect()
            },
            |one| vec![one],
        )
    }

    /// Stateless streamable HTTP on 2026-07-28: a call whose request asks for log
    /// messages gets them in its own event stream, before its result; one that does not
    /// gets the result alone.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_modern_request_gets_its_log_messages_in_its_own_stream() {
        let config = StreamableHttpServerConfig::default()
            .with_legacy_session_mode(false)
            .with_sse_keep_alive(None);
        let service = McpServer::new(package(), SessionContext::builder("u").build())
            .http_service_with(config);
        let post = |id: u64, meta: Value| {
            ::http::Request::post("http://localhost/mcp")
                .header("Host", "localhost")
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "tools/call")
                .header("Mcp-Name", "work")
                .body(Full::new(Bytes::from(call(id, meta).to_string())))
                .unwrap()
        };
        let answer = |request| {
            let service = service.clone();
            async move {
                let response = service.handle(request).await;
                assert_eq!(response.status(), 200);
                let bytes = response.into_body().collect().await.unwrap().to_bytes();
                messages(&String::from_utf8_lossy(&bytes))
            }
        };

        let mut asked = answer(post(1, modern(Some("warning")))).await;
        let result = asked.pop().unwrap();
        assert_eq!(result["result"]["content"][0]["text"], "done", "{result}");
        assert_eq!(summary(&asked), ["warning: w", "error: e"]);

        let mut silent = answer(post(2, modern(None))).await;
        let result = silent.pop().unwrap();
        assert_eq!(result["result"]["content"][0]["text"], "done", "{result}");
        assert!(silent.is_empty(), "{silent:?}");
    }
}
