//! Log messages from tools over stdio, read off the wire: `notes_reindex` logs a `debug`,
//! an `info` and (the store being empty) a `warning`. A client gets the
//! `notifications/message` of the levels it asked for, all before the call's result, and
//! nothing when it did not ask: before 2026-07-28 with `logging/setLevel` on the
//! connection, on 2026-07-28 with `_meta["io.modelcontextprotocol/logLevel"]` on each
//! request. The last test does the same through rmcp's client.

#![allow(clippy::unwrap_used, reason = "tests")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The example served over stdio, spoken to one JSON line at a time.
struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_neuralis-example-serve"))
            .arg("--mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Self {
            child,
            stdin,
            stdout,
        }
    }

    /// A legacy-era server: `initialize` with `version`, then `notifications/initialized`.
    fn initialized(version: &str) -> (Self, Value) {
        let mut server = Self::start();
        let (_, init) = server.send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {},
                       "clientInfo": {"name": "test", "version": "0"}}}));
        assert_eq!(init["result"]["protocolVersion"], version, "{init}");
        server.notify(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        (server, init)
    }

    fn notify(&mut self, notification: Value) {
        writeln!(self.stdin, "{notification}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends `request` and reads until its answer: what came before it (in wire order),
    /// and the answer.
    fn send(&mut self, request: Value) -> (Vec<Value>, Value) {
        self.notify(request.clone());
        let mut before = Vec::new();
        loop {
            let mut line = String::new();
            assert_ne!(
                self.stdout.read_line(&mut line).unwrap(),
                0,
                "the server closed"
            );
            let message: Value = serde_json::from_str(&line).unwrap();
            if message.get("id") == request.get("id") && message.get("method").is_none() {
                return (before, message);
            }
            before.push(message);
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `tools/call` of a quick `notes_reindex`, with `meta` as its `_meta` (when an object).
fn reindex(id: u64, meta: Value) -> Value {
    let mut params = json!({"name": "notes_reindex", "arguments": {"seconds": 0}});
    if meta.is_object() {
        params["_meta"] = meta;
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

/// The `(level, data)` of each `notifications/message` in `messages`, checking that every
/// message before the result is one, from `notes_reindex`.
fn logged(messages: &[Value]) -> Vec<(String, String)> {
    messages
        .iter()
        .map(|m| {
            assert_eq!(m["method"], "notifications/message", "{m}");
            assert_eq!(m["params"]["logger"], "notes_reindex", "{m}");
            (
                m["params"]["level"].as_str().unwrap().to_owned(),
                m["params"]["data"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(l, d)| ((*l).to_owned(), (*d).to_owned()))
        .collect()
}

const DEBUG: (&str, &str) = ("debug", "rebuilding the index over 0 s");
const INFO: (&str, &str) = ("info", "indexed 0 notes in 0 s");
const WARNING: (&str, &str) = ("warning", "the store holds no notes: the index is empty");

#[test]
fn legacy_clients_get_log_messages_from_the_level_they_set() {
    for version in ["2025-03-26", "2025-06-18", "2025-11-25"] {
        let (mut server, init) = Server::initialized(version);
        assert_eq!(
            init["result"]["capabilities"]["logging"],
            json!({}),
            "{init}"
        );

        // Before any `logging/setLevel`: nothing.
        let (before, result) = server.send(reindex(1, Value::Null));
        assert_eq!(
            result["result"]["structuredContent"]["ok"], true,
            "{result}"
        );
        assert!(before.is_empty(), "{version}: {before:?}");

        let (before, set) = server.send(json!({"jsonrpc": "2.0", "id": 2,
            "method": "logging/setLevel", "params": {"level": "info"}}));
        assert!(before.is_empty(), "{before:?}");
        assert_eq!(set["result"], json!({}), "{set}");

        // `info` and worse, in order, before the result; not `debug`.
        let (before, result) = server.send(reindex(3, Value::Null));
        assert_eq!(
            result["result"]["structuredContent"]["ok"], true,
            "{result}"
        );
        assert_eq!(logged(&before), pairs(&[INFO, WARNING]), "{version}");

        // The level holds for the connection until it changes.
        let (before, _) = server.send(reindex(4, Value::Null));
        assert_eq!(logged(&before), pairs(&[INFO, WARNING]), "{version}");
        server.send(json!({"jsonrpc": "2.0", "id": 5,
            "method": "logging/setLevel", "params": {"level": "debug"}}));
        let (before, _) = server.send(reindex(6, Value::Null));
        assert_eq!(logged(&before), pairs(&[DEBUG, INFO, WARNING]), "{version}");
        server.send(json!({"jsonrpc": "2.0", "id": 7,
            "method": "logging/setLevel", "params": {"level": "error"}}));
        let (before, _) = server.send(reindex(8, Value::Null));
        assert!(before.is_empty(), "{version}: {before:?}");
    }
}

#[test]
fn legacy_set_level_refuses_a_level_that_is_not_one() {
    let (mut server, _) = Server::initialized("2025-06-18");
    let (_, refused) = server.send(json!({"jsonrpc": "2.0", "id": 1,
        "method": "logging/setLevel", "params": {"level": "loud"}}));
    assert!(refused.get("error").is_some(), "{refused}");
    let (before, _) = server.send(reindex(2, Value::Null));
    assert!(before.is_empty(), "{before:?}");
}

/// The `_meta` every 2026-07-28 request carries, with `logLevel` when given.
fn modern_meta(log_level: Option<&str>) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    if let Some(level) = log_level {
        meta["io.modelcontextprotocol/logLevel"] = json!(level);
    }
    meta
}

#[test]
fn modern_requests_ask_for_their_own_log_messages() {
    let mut server = Server::start();
    let (_, discovered) = server.send(json!({"jsonrpc": "2.0", "id": 0,
        "method": "server/discover", "params": {"_meta": modern_meta(None)}}));
    assert!(
        discovered.to_string().contains(r#""logging":{}"#),
        "{discovered}"
    );

    // Without the key: nothing.
    let (before, result) = server.send(reindex(1, modern_meta(None)));
    assert_eq!(
        result["result"]["structuredContent"]["ok"], true,
        "{result}"
    );
    assert_eq!(result["result"]["resultType"], "complete", "{result}");
    assert!(before.is_empty(), "{before:?}");

    // With it: that level and worse, before the result.
    let (before, result) = server.send(reindex(2, modern_meta(Some("info"))));
    assert_eq!(
        result["result"]["structuredContent"]["ok"], true,
        "{result}"
    );
    assert_eq!(logged(&before), pairs(&[INFO, WARNING]));
    let (before, _) = server.send(reindex(3, modern_meta(Some("debug"))));
    assert_eq!(logged(&before), pairs(&[DEBUG, INFO, WARNING]));
    let (before, _) = server.send(reindex(4, modern_meta(Some("warning"))));
    assert_eq!(logged(&before), pairs(&[WARNING]));

    // Each request for itself: a `logging/setLevel` does not stand in for the key, and
    // a value that is no level is no request.
    let mut set = json!({"jsonrpc": "2.0", "id": 5, "method": "logging/setLevel",
        "params": {"level": "debug"}});
    set["params"]["_meta"] = modern_meta(None);
    let (_, set) = server.send(set);
    assert!(set.get("result").is_some(), "{set}");
    let (before, _) = server.send(reindex(6, modern_meta(None)));
    assert!(before.is_empty(), "{before:?}");
    let (before, result) = server.send(reindex(7, modern_meta(Some("loud"))));
    assert!(before.is_empty(), "{before:?}");
    assert_eq!(
        result["result"]["structuredContent"]["ok"], true,
        "{result}"
    );
}

/// rmcp's client: `set_level` then a call; its `on_logging_message` sees what was sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[allow(
    deprecated,
    reason = "MCP logging is deprecated by SEP-2577, not removed"
)]
async fn rmcp_clients_receive_the_messages_of_their_level() {
    use rmcp::model::{
        CallToolRequestParams, LoggingLevel, LoggingMessageNotificationParam, SetLevelRequestParams,
    };
    use rmcp::service::NotificationContext;
    use rmcp::{ClientHandler, RoleClient, ServiceExt};

    #[derive(Clone, Default)]
    struct Seen(Arc<Mutex<Vec<LoggingMessageNotificationParam>>>);

    impl ClientHandler for Seen {
        async fn on_logging_message(
            &self,
            params: LoggingMessageNotificationParam,
            _context: NotificationContext<RoleClient>,
        ) {
            self.0.lock().unwrap().push(params);
        }
    }

    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_neuralis-example-serve"));
    command.arg("--mcp");
    let transport = rmcp::transport::TokioChildProcess::new(command).unwrap();
    let seen = Seen::default();
    let client = tokio::time::timeout(Duration::from_secs(20), seen.clone().serve(transport))
        .await
        .unwrap()
        .unwrap();
    let reindex = || {
        let arguments = json!({"seconds": 0}).as_object().cloned().unwrap();
        CallToolRequestParams::new("notes_reindex").with_arguments(arguments)
    };
    client.peer().call_tool(reindex()).await.unwrap();
    client
        .peer()
        .set_level(SetLevelRequestParams::new(LoggingLevel::Info))
        .await
        .unwrap();
    client.peer().call_tool(reindex()).await.unwrap();

    // rmcp's client hands each notification to its own task: wait for both.
    let deadline = Instant::now() + Duration::from_secs(20);
    while seen.0.lock().unwrap().len() < 2 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    // (and in the order their tasks ran: sorted by text here, the wire order is the
    // raw-line tests' business).
    let mut got: Vec<(LoggingLevel, Option<String>, Value)> = seen
        .0
        .lock()
        .unwrap()
        .iter()
        .map(|m| (m.level, m.logger.clone(), m.data.clone()))
        .collect();
    got.sort_by_key(|(_, _, data)| data.to_string());
    let logger = Some("notes_reindex".to_owned());
    assert_eq!(
        got,
        [
            (LoggingLevel::Info, logger.clone(), json!(INFO.1)),
            (LoggingLevel::Warning, logger, json!(WARNING.1)),
        ]
    );
    client.cancel().await.unwrap();
}
