//! Hostile traffic on an example package's MCP server (`neuralis-example-run --mcp
//! catalog`): garbage lines, a request and a notification before `initialize`, an 8 MiB
//! argument string, 5,000-deep nesting, bad `tools/call` params, 200 calls in flight and
//! 2,000 pipelined calls. The server stays up, answers every request that has an id (and
//! every line that is not JSON, with `id: null`), writes nothing but JSON-RPC on stdout,
//! and exits cleanly when stdin closes.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long the test waits for an answer before it gives up (a liveness bound, not a
/// speed target).
const PATIENCE: Duration = Duration::from_secs(120);

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    /// Every message read so far.
    seen: Vec<Value>,
}

impl Server {
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_neuralis-example-run"))
            .args(["--mcp", "catalog"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the example starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, message: &Value) {
        self.send_bytes(message.to_string().as_bytes());
    }

    /// Reads until `done` holds for the messages seen so far.
    fn read_until(&mut self, what: &str, done: impl Fn(&[Value]) -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !done(&self.seen) {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer in time: {what}"));
            let message: Value = serde_json::from_str(&line).unwrap_or_else(|e| {
                panic!("stdout carried a line that is not JSON ({e}): {line:.200}")
            });
            assert_eq!(message["jsonrpc"], "2.0", "not JSON-RPC: {line:.200}");
            self.seen.push(message);
        }
    }

    /// The answer to the request `id`.
    fn answer(&mut self, id: &Value) -> Value {
        self.read_until(&format!("the answer to {id}"), |seen| {
            seen.iter().any(|m| &m["id"] == id)
        });
        self.seen.iter().find(|m| &m["id"] == id).cloned().unwrap()
    }

    /// How many error answers with `id: null` and this code were read.
    fn null_id_errors(&self, code: i64) -> usize {
        self.seen
            .iter()
            .filter(|m| m.get("id") == Some(&Value::Null) && m["error"]["code"] == code)
            .count()
    }
}

fn call(id: impl Into<Value>, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id.into(), "method": "tools/call",
           "params": {"name": name, "arguments": arguments}})
}

#[test]
fn the_server_survives_hostile_traffic_and_answers_every_request() {
    let mut server = Server::start();

    // Before `initialize`: a notification (nothing to refer to: dropped) and a request
    // (answered with an error, the server waits for its handshake).
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    server.send(&json!({"jsonrpc": "2.0", "id": "early", "method": "tools/list"}));
    let early = server.answer(&json!("early"));
    assert!(early.get("error").is_some(), "{early}");

    // Lines that are not JSON: -32700 with `id: null`; JSON that is no message: -32600.
    for garbage in [
        &b"not json"[..],
        b"{",
        b"\xff\xfe\xfd",
        b"\0\0\0",
        b"\"half a string",
    ] {
        server.send_bytes(garbage);
    }
    // Broken after its id: answered with that id.
    server.send_bytes(b"{\"jsonrpc\": \"2.0\", \"id\": \"nul\", \"method\": \"tools/list\"\0}");
    assert_eq!(server.answer(&json!("nul"))["error"]["code"], -32700);
    for not_a_message in ["[]", "null", "{}", "5"] {
        server.send_bytes(not_a_message.as_bytes());
    }
    server.read_until("the parse errors", |seen| {
        let count = |code: i64| {
            seen.iter()
                .filter(|m| m.get("id") == Some(&Value::Null) && m["error"]["code"] == code)
                .count()
        };
        count(-32700) >= 5 && count(-32600) >= 4
    });
    assert_eq!(server.null_id_errors(-32700), 5);
    assert_eq!(server.null_id_errors(-32600), 4);

    server.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "hostile", "version": "0"}}}),
    );
    let init = server.answer(&json!(1));
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    // An 8 MiB argument string: read, validated, refused with its pointer.
    let big = "x".repeat(8 * 1024 * 1024);
    server.send(&call(
        2,
        "catalog_edit",
        json!({"id": "item-1", "name": big}),
    ));
    let answer = server.answer(&json!(2));
    assert_eq!(answer["result"]["isError"], true);
    // A typed tool's `isError` results carry no `structuredContent`: the pointer is in
    // the text.
    let text = answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or("");
    assert!(text.contains("- `/name`: "), "{text}");

    // 5,000-deep nesting: not parsed (serde_json stops at 128), answered -32700 with the
    // request's own id, read off the bytes.
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"catalog_list","arguments":{{"filter":{}{}}}}}}}"#,
        "[".repeat(5000),
        "]".repeat(5000)
    );
    server.send_bytes(deep.as_bytes());
    let answer = server.answer(&json!(3));
    assert_eq!(answer["error"]["code"], -32700, "{answer}");

    // `tools/call` params of the wrong shape: invalid params, not "method not found".
    server.send(&json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                        "params": {"name": 5}}));
    server.send(&json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                        "params": {"name": "catalog_list", "arguments": "text"}}));
    for id in [4, 5] {
        let answer = server.answer(&json!(id));
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
    }
    // An unknown method is still "method not found".
    server.send(&json!({"jsonrpc": "2.0", "id": 6, "method": "nope/nothing"}));
    assert_eq!(server.answer(&json!(6))["error"]["code"], -32601);

    // 200 calls in flight at once: each takes a while, all are sent before any answer.
    let mut batch = Vec::new();
    for i in 0..200 {
        batch.extend_from_slice(
            call(
                format!("slow-{i}"),
                "catalog_reindex",
                json!({"batches": 1, "batch_ms": 200}),
            )
            .to_string()
            .as_bytes(),
        );
        batch.push(b'\n');
    }
    server.stdin.as_mut().unwrap().write_all(&batch).unwrap();
    server.stdin.as_mut().unwrap().flush().unwrap();
    // 2,000 pipelined calls, written in one go without reading.
    let mut batch = Vec::new();
    for i in 0..2000 {
        batch.extend_from_slice(
            call(i + 100, "catalog_list", json!({"filter": "all"}))
                .to_string()
                .as_bytes(),
        );
        batch.push(b'\n');
    }
    server.stdin.as_mut().unwrap().write_all(&batch).unwrap();
    server.stdin.as_mut().unwrap().flush().unwrap();
    let wanted: Vec<Value> = (0..200)
        .map(|i| json!(format!("slow-{i}")))
        .chain((0..2000).map(|i| json!(i + 100)))
        .collect();
    server.read_until("2,200 answers", |seen| {
        let ids: std::collections::HashSet<String> =
            seen.iter().map(|m| m["id"].to_string()).collect();
        wanted.iter().all(|id| ids.contains(&id.to_string()))
    });
    let by_id: HashMap<String, &Value> = server
        .seen
        .iter()
        .map(|m| (m["id"].to_string(), m))
        .collect();
    for id in &wanted {
        let answer = by_id[&id.to_string()];
        assert_eq!(answer["result"]["isError"], false, "{answer}");
    }
    assert_eq!(
        by_id[&json!(100).to_string()]["result"]["structuredContent"]["items"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );

    // Closing stdin ends the server cleanly.
    drop(server.stdin.take());
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the server did not exit after stdin closed"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "exit status {status}");
    // Whatever it wrote last is JSON-RPC too.
    while let Ok(line) = server.lines.try_recv() {
        let message: Value = serde_json::from_str(&line).expect("JSON on stdout");
        assert_eq!(message["jsonrpc"], "2.0");
    }
}
