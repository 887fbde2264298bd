//! `outputSchema` by protocol version, read off the wire: a peer on 2025-06-18 or later
//! gets each typed tool's output schema in `tools/list`; a peer on 2025-03-26, whose
//! protocol has no such field, does not.

#![allow(clippy::unwrap_used, reason = "tests")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// The `tools/list` tools the package sends a peer that initialized with `version`.
fn listed(version: &str) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_neuralis-example-serve"))
        .args(["--mcp", "--grant", "weather.read"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut answer = |request: Value| -> Option<Value> {
        writeln!(stdin, "{request}").unwrap();
        stdin.flush().unwrap();
        request.get("id")?;
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        Some(serde_json::from_str(&line).unwrap())
    };
    let init = answer(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"}}}),
    )
    .unwrap();
    assert_eq!(init["result"]["protocolVersion"], version, "{init}");
    answer(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let list = answer(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})).unwrap();
    drop(stdin);
    let _ = child.wait();
    list["result"]["tools"].as_array().unwrap().clone()
}

#[test]
fn output_schemas_go_to_peers_whose_protocol_has_them() {
    let modern = listed("2025-06-18");
    assert_eq!(modern.len(), 4);
    for tool in &modern {
        let schema = &tool["outputSchema"];
        assert_eq!(schema["type"], "object", "{tool}");
        assert!(schema.get("$schema").is_none(), "{tool}");
    }
    let notes = modern.iter().find(|t| t["name"] == "notes_list").unwrap();
    assert_eq!(
        notes["outputSchema"]["required"],
        json!(["ok", "revision", "notes"])
    );

    let old = listed("2025-03-26");
    assert_eq!(old.len(), 4);
    assert!(
        old.iter().all(|t| t.get("outputSchema").is_none()),
        "{old:?}"
    );
}
