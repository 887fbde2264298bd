//! Each example package served in the `mcp-remote` dialect
//! (`NEURALIS_SERVED_DIALECT=mcp-remote neuralis-example-run --mcp <package>`): the
//! `inputSchema` of each tool on the wire is the dialect's lowering of its tool file
//! (`served_schema`, which `model/tests/mcp_remote.rs` holds to seed 003's conversion),
//! and its description is one the platform stores unchanged. Prints the bytes of
//! `tools/list` per served dialect (docs/dialects.md).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use neuralis::dialect::{Served, served_schema};
use serde_json::{Map, Value, json};

const PACKAGES: [&str; 5] = ["weather", "catalog", "todos", "tracker", "triage"];

/// The `tools/list` result the package serves in `dialect`.
fn tools_list(package: &str, dialect: Served) -> Value {
    let mut child = Command::new(env!("CARGO_BIN_EXE_neuralis-example-run"))
        .args(["--mcp", package])
        .env("NEURALIS_SERVED_DIALECT", dialect.as_str())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the example starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ];
    let mut last = Value::Null;
    for request in &requests {
        writeln!(stdin, "{request}").expect("write a request");
        stdin.flush().expect("flush");
        if request.get("id").is_some() {
            let mut line = String::new();
            stdout.read_line(&mut line).expect("read an answer");
            last = serde_json::from_str(&line).expect("one JSON-RPC message per line");
        }
    }
    drop(stdin);
    let _ = child.wait();
    last["result"].take()
}

/// The tool file as the server hands it to the dialect: no `$schema`, no block, each
/// default on its property.
fn projected(package: &str, tool: &str) -> Map<String, Value> {
    let path = format!(
        "{}/../{package}/tools/{tool}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the tool file");
    let doc: Value = serde_json::from_str(&text).expect("JSON");
    let mut map = doc.as_object().cloned().unwrap_or_default();
    map.remove("$schema");
    let block = map.remove("x-neuralis");
    let defaults = block
        .as_ref()
        .and_then(|b| b.get("defaults"))
        .and_then(Value::as_object);
    if let (Some(defaults), Some(Value::Object(properties))) = (defaults, map.get_mut("properties"))
    {
        for (key, value) in defaults {
            if let Some(Value::Object(p)) = properties.get_mut(key) {
                p.insert("default".into(), value.clone());
            }
        }
    }
    map
}

#[test]
fn every_package_serves_the_mcp_remote_lowering_of_its_tool_files() {
    let mut tools = 0;
    for package in PACKAGES {
        let list = tools_list(package, Served::McpRemote);
        for tool in list["tools"].as_array().expect("a tool list") {
            let name = tool["name"].as_str().expect("a name");
            let file = projected(package, name);
            assert_eq!(
                tool["inputSchema"],
                Value::Object(served_schema(&file, Served::McpRemote)),
                "{package}/{name}"
            );
            let d = tool["description"].as_str().unwrap_or_default();
            assert!(
                d.chars().count() <= 400 && !d.contains(['\n', '\t', '\r', '`']),
                "{package}/{name}: {d:?}"
            );
            tools += 1;
        }
    }
    assert!(tools >= 9, "{tools} tools");
}

#[test]
fn the_bytes_of_tools_list_per_served_dialect() {
    for dialect in Served::ALL {
        let bytes: usize = PACKAGES
            .iter()
            .map(|p| tools_list(p, dialect).to_string().len())
            .sum();
        println!(
            "{dialect}: {bytes} bytes of tools/list over {} packages",
            PACKAGES.len()
        );
        assert!(bytes > 0);
    }
}
