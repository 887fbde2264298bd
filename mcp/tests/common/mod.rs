//! What the streamable HTTP tests share: a stateless server's configuration, a 2026-07-28
//! request (each carries its version and the client's capabilities in `_meta`, and the
//! headers the revision asks for), and the JSON-RPC message of an answer's body.

// Each test binary uses its own part of this module.
#![allow(dead_code)]

use bytes::Bytes;
use http_body_util::Full;
use neuralis_core::dispatch::{Package, sync_fn};
use neuralis_mcp::McpServer;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};

/// A stateless server (no legacy sessions) answering with plain JSON, no keep-alive.
#[cfg(feature = "http")]
pub fn stateless() -> rmcp::transport::streamable_http_server::StreamableHttpServerConfig {
    rmcp::transport::streamable_http_server::StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
}

/// The `_meta` of a 2026-07-28 request from a client with `capabilities`.
pub fn meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1.0"},
        "io.modelcontextprotocol/clientCapabilities": capabilities
    })
}

/// A 2026-07-28 JSON-RPC request: `params` with [`meta`] of `capabilities`.
pub fn rpc(id: u64, method: &str, mut params: Value, capabilities: Value) -> Value {
    params["_meta"] = meta(capabilities);
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// `body` POSTed to `/mcp` with the 2026-07-28 headers: `Mcp-Method` from its method,
/// `Mcp-Name` from its `params.name` (or `params.uri`), and a bearer `token` when given.
pub fn post(body: &Value, token: Option<&str>) -> http::Request<Full<Bytes>> {
    let mut builder = http::Request::post("http://localhost/mcp")
        .header("Host", "localhost")
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28");
    if let Some(method) = body["method"].as_str() {
        builder = builder.header("Mcp-Method", method);
    }
    let params = &body["params"];
    if let Some(name) = params["name"].as_str().or_else(|| params["uri"].as_str()) {
        builder = builder.header("Mcp-Name", name);
    }
    if let Some(token) = token {
        builder = builder.header("Authorization", format!("Bearer {token}"));
    }
    builder
        .body(Full::new(Bytes::from(body.to_string())))
        .expect("a valid request")
}

/// The JSON-RPC message of an answer's body: the body itself when it is JSON, else the
/// last `data:` line of its event stream that carries an id (the answer, not a
/// notification before it).
pub fn message(bytes: &[u8]) -> Value {
    let text = String::from_utf8_lossy(bytes);
    serde_json::from_str(&text).unwrap_or_else(|_| {
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .rfind(|m| m.get("id").is_some())
            .unwrap_or(Value::Null)
    })
}

/// A tool anyone may call: `greet` greets `name`.
pub const GREET: &str = r#"{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object", "additionalProperties": false, "description": "Greet someone.",
  "properties": { "name": { "type": "string", "minLength": 1 } },
  "required": ["name"],
  "x-neuralis": { "annotations": { "category": "read", "readOnlyHint": true },
                  "ui": { "presentation": "inline" } }
}"#;

/// A tool that needs the `admin.write` grant: `purge`.
pub const PURGE: &str = r#"{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object", "additionalProperties": false, "description": "Purge the cache.",
  "properties": {},
  "x-neuralis": { "annotations": { "category": "admin", "destructiveHint": true },
                  "requires": { "features": ["admin.write"] } }
}"#;

/// A package of [`GREET`] alone, answering `hello, <name>`.
pub fn greeter() -> Package {
    greeter_builder().build().expect("a valid package")
}

/// [`greeter`]'s builder, for more.
pub fn greeter_builder() -> neuralis_core::dispatch::PackageBuilder {
    Package::builder().tool("greet", GREET, greet())
}

/// A package of [`GREET`] and [`PURGE`] (answering `purged`).
pub fn greet_and_purge() -> Package {
    Package::builder()
        .tool("greet", GREET, greet())
        .tool("purge", PURGE, sync_fn(|_: Value| "purged"))
        .build()
        .expect("a valid package")
}

fn greet() -> impl neuralis_core::dispatch::Handler {
    sync_fn(|g: Value| format!("hello, {}", g["name"].as_str().unwrap_or_default()))
}

/// A client over stdio-like line I/O to a server run in this process: JSON-RPC lines
/// written and read as they go over the wire.
pub struct Lines {
    pub reader: BufReader<ReadHalf<DuplexStream>>,
    pub writer: WriteHalf<DuplexStream>,
    pub next: u64,
}

impl Lines {
    pub fn start(server: McpServer) -> Self {
        let (client, server_io) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(server_io);
        tokio::spawn(server.serve_io(read, write));
        let (reader, writer) = tokio::io::split(client);
        Self {
            reader: BufReader::new(reader),
            writer,
            next: 100,
        }
    }

    pub async fn write(&mut self, message: Value) {
        let line = format!("{message}\n");
        self.writer.write_all(line.as_bytes()).await.unwrap();
    }

    /// Sends `method` with `params`; answers every request of the server on the way with
    /// `answer` (it sees the request); the requests and the response.
    pub async fn send(
        &mut self,
        method: &str,
        params: Value,
        answer: &dyn Fn(&Value) -> Value,
    ) -> (Vec<Value>, Value) {
        self.next += 1;
        let id = self.next;
        self.write(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        let mut asked = Vec::new();
        loop {
            let mut line = String::new();
            assert_ne!(self.reader.read_line(&mut line).await.unwrap(), 0);
            let message: Value = serde_json::from_str(&line).unwrap();
            if message.get("method").is_some() && message.get("id").is_some() {
                let result = answer(&message);
                self.write(json!({"jsonrpc": "2.0", "id": message["id"], "result": result}))
                    .await;
                asked.push(message);
            } else if message["id"] == json!(id) {
                return (asked, message);
            }
        }
    }

    pub async fn legacy(server: McpServer, capabilities: Value) -> Self {
        let mut lines = Self::start(server);
        lines.initialize(capabilities).await;
        lines
    }

    /// `initialize` on 2025-11-25 with `capabilities`, then `notifications/initialized`:
    /// the server's answer.
    pub async fn initialize(&mut self, capabilities: Value) -> Value {
        let (_, init) = self
            .send(
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": capabilities,
                       "clientInfo": {"name": "test", "version": "0"}}),
                &|_| json!({}),
            )
            .await;
        assert!(init.get("result").is_some(), "{init}");
        self.write(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        init
    }
}
