//! `notes_write` declares `askOnKeys(delete)`: served over stdio, a call that sends
//! `delete` asks a person first (the default `--approval ask`), read off the raw wire in
//! both eras: an `elicitation/create` request during the call before 2026-07-28, an
//! `InputRequiredResult` round on 2026-07-28. The note is gone only after a confirm, and a
//! confirm lets one call run: sent again, to the same process or to another sharing its
//! `--request-state-key-file` and `--consumed-states-dir`, it is refused.

#![allow(clippy::unwrap_used, reason = "tests")]

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// How long a step may take before the test gives up (a liveness bound, not a speed test).
const PATIENCE: Duration = Duration::from_secs(20);

struct Server {
    _child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    next: u64,
}

impl Server {
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_neuralis-example-serve"))
            .arg("--mcp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("the example starts");
        let stdin = child.stdin.take().unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Self {
            _child: child,
            stdin,
            lines,
            next: 0,
        }
    }

    async fn write(&mut self, message: Value) {
        let line = format!("{message}\n");
        self.stdin.write_all(line.as_bytes()).await.unwrap();
    }

    /// Sends a request; answers each request of the server with `answer`; the server's
    /// requests and the response.
    async fn send(
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
            let line = tokio::time::timeout(PATIENCE, self.lines.next_line())
                .await
                .expect("an answer in time")
                .unwrap()
                .expect("the server is still there");
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

    async fn legacy(args: &[&str], capabilities: Value) -> Self {
        let mut server = Self::start(args);
        let (_, init) = server
            .send(
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": capabilities,
                       "clientInfo": {"name": "test", "version": "0"}}),
                &|_| json!({}),
            )
            .await;
        assert!(init.get("result").is_some(), "{init}");
        server
            .write(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        server
    }

    /// The keys of the notes, as `notes_list` gives them (on `meta`'s era).
    async fn notes(&mut self, meta: &Value) -> Vec<String> {
        let (_, listed) = self
            .send(
                "tools/call",
                json!({"name": "notes_list", "arguments": {}, "_meta": meta}),
                &|_| json!({}),
            )
            .await;
        listed["result"]["structuredContent"]["notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["key"].as_str().unwrap().to_owned())
            .collect()
    }
}

fn write(meta: &Value) -> Value {
    json!({"name": "notes_write", "arguments": {"key": "plan", "text": "ship it"}, "_meta": meta})
}

fn delete(meta: &Value) -> Value {
    json!({"name": "notes_write", "arguments": {"key": "plan", "delete": true}, "_meta": meta})
}

fn text(response: &Value) -> &str {
    response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_delete_runs_only_after_a_confirm() {
    let mut server = Server::legacy(&[], json!({"elicitation": {}})).await;
    let none = json!({});
    let (asked, written) = server
        .send("tools/call", write(&none), &|_| json!({}))
        .await;
    assert!(asked.is_empty(), "writing asks nobody: {asked:?}");
    assert_eq!(written["result"]["isError"], false, "{written}");

    let (asked, declined) = server
        .send(
            "tools/call",
            delete(&none),
            &|_| json!({"action": "decline"}),
        )
        .await;
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0]["method"], "elicitation/create");
    assert_eq!(
        asked[0]["params"]["message"],
        "Allow the tool `notes_write` to run? The call sends `delete`, which asks for approval."
    );
    assert_eq!(declined["result"]["isError"], true, "{declined}");
    assert!(
        text(&declined).contains("was not run: the person declined"),
        "{declined}"
    );
    assert_eq!(server.notes(&none).await, ["plan"]);

    let (asked, confirmed) = server
        .send(
            "tools/call",
            delete(&none),
            &|_| json!({"action": "accept", "content": {}}),
        )
        .await;
    assert_eq!(asked.len(), 1);
    assert_eq!(confirmed["result"]["structuredContent"]["deleted"], true);
    assert!(server.notes(&none).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_without_elicitation_or_with_refuse_nothing_is_deleted() {
    for (args, capabilities) in [
        (&[][..], json!({})),
        (&["--approval", "refuse"][..], json!({"elicitation": {}})),
    ] {
        let mut server = Server::legacy(args, capabilities).await;
        let none = json!({});
        server
            .send("tools/call", write(&none), &|_| json!({}))
            .await;
        let (asked, refused) = server
            .send(
                "tools/call",
                delete(&none),
                &|_| json!({"action": "accept"}),
            )
            .await;
        assert!(asked.is_empty(), "{args:?}: {asked:?}");
        assert_eq!(refused["result"]["isError"], true, "{refused}");
        assert!(
            text(&refused).starts_with("the call of `notes_write` needs approval"),
            "{refused}"
        );
        assert_eq!(server.notes(&none).await, ["plan"]);
    }
    // `trust`: the platform in front guards; the call runs unasked.
    let mut server = Server::legacy(&["--approval", "trust"], json!({})).await;
    let none = json!({});
    server
        .send("tools/call", write(&none), &|_| json!({}))
        .await;
    let (_, deleted) = server
        .send("tools/call", delete(&none), &|_| json!({}))
        .await;
    assert_eq!(deleted["result"]["structuredContent"]["deleted"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_delete_is_a_round_and_runs_on_the_confirmed_retry() {
    let mut server = Server::start(&[]);
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"}
    });
    let no_requests = |r: &Value| -> Value { panic!("a 2026-07-28 server sends no requests: {r}") };
    server.send("tools/call", write(&meta), &no_requests).await;
    let (_, round) = server.send("tools/call", delete(&meta), &no_requests).await;
    let result = &round["result"];
    assert_eq!(result["resultType"], "input_required", "{round}");
    assert_eq!(
        result["inputRequests"]["neuralis.approval"]["method"],
        "elicitation/create"
    );
    assert_eq!(server.notes(&meta).await, ["plan"]);

    let mut retry = delete(&meta);
    retry["requestState"] = result["requestState"].clone();
    retry["inputResponses"] = json!({"neuralis.approval": {"action": "decline"}});
    let (_, declined) = server.send("tools/call", retry.clone(), &no_requests).await;
    assert_eq!(declined["result"]["isError"], true, "{declined}");
    assert_eq!(server.notes(&meta).await, ["plan"]);

    retry["inputResponses"] = json!({"neuralis.approval": {"action": "accept"}});
    let (_, confirmed) = server.send("tools/call", retry, &no_requests).await;
    assert_eq!(confirmed["result"]["resultType"], "complete", "{confirmed}");
    assert_eq!(confirmed["result"]["structuredContent"]["deleted"], true);
    assert!(server.notes(&meta).await.is_empty());
}

/// Two processes given the same `--request-state-key-file` and `--consumed-states-dir`
/// (replicas): the round asked on one, confirmed on the other, runs there; the same
/// confirmed retry sent again to either is refused (`-32602`, `replayed`) and deletes
/// nothing. The directory holds one file, the used confirm's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_a_confirmed_retry_runs_once_across_processes_sharing_the_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let key = tmp.path().join("state.key");
    std::fs::write(&key, "k".repeat(32)).unwrap();
    let used = tmp.path().join("used");
    let args = [
        "--request-state-key-file",
        key.to_str().unwrap(),
        "--consumed-states-dir",
        used.to_str().unwrap(),
    ];
    let (mut a, mut b) = (Server::start(&args), Server::start(&args));
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"}
    });
    let no_requests = |r: &Value| -> Value { panic!("a 2026-07-28 server sends no requests: {r}") };
    for server in [&mut a, &mut b] {
        server.send("tools/call", write(&meta), &no_requests).await;
    }
    let (_, round) = a.send("tools/call", delete(&meta), &no_requests).await;
    let mut retry = delete(&meta);
    retry["requestState"] = round["result"]["requestState"].clone();
    retry["inputResponses"] = json!({"neuralis.approval": {"action": "accept"}});
    let (_, confirmed) = b.send("tools/call", retry.clone(), &no_requests).await;
    assert_eq!(
        confirmed["result"]["structuredContent"]["deleted"], true,
        "{confirmed}"
    );
    assert!(b.notes(&meta).await.is_empty());
    for server in [&mut a, &mut b] {
        let (_, replayed) = server.send("tools/call", retry.clone(), &no_requests).await;
        assert_eq!(replayed["error"]["code"], -32602, "{replayed}");
        assert_eq!(
            replayed["error"]["data"]["reason"], "replayed",
            "{replayed}"
        );
    }
    assert_eq!(a.notes(&meta).await, ["plan"], "the replay deleted nothing");
    assert_eq!(std::fs::read_dir(&used).unwrap().count(), 1);
}

/// A strict model's habits (every key sent, `null` for nothing), read off the wire in
/// both eras: `{"delete": null}` is the key not sent, so the write runs quietly; `{"days":
/// null}` takes the default (3 days); `{"delete": false}` still asks; a required key's
/// `null` is refused. The legacy client declares `elicitation`, so a call that asked
/// would show an `elicitation/create` request; the 2026-07-28 one would get a round.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_strict_model_s_nulls_mean_not_sent_in_both_eras() {
    let modern = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"}
    });
    for era in ["legacy", "modern"] {
        let (mut server, meta) = if era == "legacy" {
            let server =
                Server::legacy(&["--grant", "weather.read"], json!({"elicitation": {}})).await;
            (server, json!({}))
        } else {
            (Server::start(&["--grant", "weather.read"]), modern.clone())
        };
        let decline = |r: &Value| -> Value {
            assert_eq!(r["method"], "elicitation/create", "{r}");
            json!({"action": "decline"})
        };
        let call = |arguments: Value| json!({"name": "notes_write", "arguments": arguments, "_meta": meta});

        let quiet = json!({"key": "plan", "text": "ship it", "delete": null});
        let (asked, written) = server.send("tools/call", call(quiet), &decline).await;
        assert!(asked.is_empty(), "{era}: nobody is asked: {asked:?}");
        assert_eq!(written["result"]["isError"], false, "{era}: {written}");
        assert_eq!(
            written["result"]["structuredContent"]["deleted"], false,
            "{era}"
        );
        assert_ne!(written["result"]["resultType"], "input_required", "{era}");
        assert_eq!(server.notes(&meta).await, ["plan"], "{era}");

        let sent_false = json!({"key": "plan", "text": "ship it", "delete": false});
        let (asked, answered) = server.send("tools/call", call(sent_false), &decline).await;
        let asks = !asked.is_empty() || answered["result"]["resultType"] == "input_required";
        assert!(
            asks,
            "{era}: `delete: false` is sent, so it asks: {answered}"
        );

        let required_null = json!({"key": null, "text": "x"});
        let (_, refused) = server
            .send("tools/call", call(required_null), &decline)
            .await;
        assert_eq!(refused["result"]["isError"], true, "{era}: {refused}");
        assert!(text(&refused).contains("/key"), "{era}: {}", text(&refused));

        let days = json!({"name": "weather_forecast",
            "arguments": {"city": "Lisbon", "days": null}, "_meta": meta});
        let (_, forecast) = server.send("tools/call", days, &decline).await;
        assert_eq!(forecast["result"]["isError"], false, "{era}: {forecast}");
        let forecast_days = forecast["result"]["structuredContent"]["days"]
            .as_array()
            .map(Vec::len);
        assert_eq!(forecast_days, Some(3), "{era}: the default: {forecast}");
    }
}
