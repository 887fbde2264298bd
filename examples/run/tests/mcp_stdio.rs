//! Each example package serves itself over MCP: `neuralis-example-run --mcp <package>`,
//! driven here with raw newline-delimited JSON-RPC over the child's stdio.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// The tool file `emitted` as `tools/list` serves it (the default served dialect).
fn served(emitted: &Value) -> Value {
    let file = emitted.as_object().cloned().unwrap_or_default();
    Value::Object(neuralis::dialect::served_schema(
        &file,
        neuralis::dialect::Served::Portable,
    ))
}

fn exchange(package: &str, requests: &[Value]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_neuralis-example-run"))
        .args(["--mcp", package])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the example starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut answers = Vec::new();
    for request in requests {
        writeln!(stdin, "{request}").expect("write a request");
        stdin.flush().expect("flush");
        if request.get("id").is_none() {
            continue; // a notification: no answer
        }
        let mut line = String::new();
        stdout.read_line(&mut line).expect("read an answer");
        answers.push(serde_json::from_str(&line).expect("one JSON-RPC message per line"));
    }
    drop(stdin);
    let _ = child.wait();
    answers
}

fn initialize() -> Vec<Value> {
    vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}
        }}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ]
}

#[test]
fn catalog_lists_and_calls_its_tools_from_the_emitted_files() {
    let mut requests = initialize();
    requests.push(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    requests.push(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "catalog_edit", "arguments": {"id": "item-7", "delete": true}}}));
    requests.push(json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": {"name": "catalog_edit", "arguments": {"id": "item-7", "userId": "x"}}}));
    let answers = exchange("catalog", &requests);
    assert_eq!(
        answers[0]["result"]["serverInfo"]["name"],
        "neuralis-example-catalog"
    );
    let tools = answers[1]["result"]["tools"]
        .as_array()
        .expect("a tool list");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["catalog_edit", "catalog_list", "catalog_reindex"]);
    let edit = &tools[0];
    assert_eq!(edit["annotations"]["destructiveHint"], true);
    assert_eq!(edit["annotations"]["readOnlyHint"], false);
    assert!(edit["inputSchema"].get("x-neuralis").is_none());
    assert!(edit["inputSchema"].get("$schema").is_none());
    let emitted: Value =
        serde_json::from_str(include_str!("../../catalog/tools/catalog_edit.json"))
            .expect("the emitted file");
    assert_eq!(
        edit["inputSchema"]["properties"],
        served(&emitted)["properties"]
    );
    // `delete` is in `askOnKeys`: served, the call asks a person first, and this client
    // declared no `elicitation`, so nobody can confirm it and it does not run.
    assert_eq!(answers[2]["result"]["isError"], true, "{}", answers[2]);
    let refusal = answers[2]["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(
        refusal.starts_with(
            "the call of `catalog_edit` needs approval (it sends `delete`) and was not run"
        ),
        "{refusal}"
    );
    assert_eq!(
        answers[3]["result"]["isError"], true,
        "session keys are refused"
    );
}

#[test]
fn an_unknown_package_is_a_usage_error() {
    let status = Command::new(env!("CARGO_BIN_EXE_neuralis-example-run"))
        .args(["--mcp", "nope"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("the example starts");
    assert_eq!(status.code(), Some(2));
}

/// Each `description` or `title` under `v` that still carries rustdoc link syntax
/// (``[`Sku`]``, `[text](target)`, `[text][label]`, `[label]: target`), with its pointer.
fn link_syntax(v: &Value, at: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                let here = format!("{at}/{k}");
                if let (Some(text), "description" | "title") = (child.as_str(), k.as_str()) {
                    let linked = text.contains("[`")
                        || text.contains("](")
                        || text.contains("][")
                        || text
                            .lines()
                            .any(|l| l.trim_start().starts_with('[') && l.contains("]:"));
                    if linked {
                        out.push(format!("{here}: {text}"));
                    }
                }
                link_syntax(child, &here, out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                link_syntax(child, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// What every example serves, read off the wire: each tool declares an output schema
/// (the examples' returns derive `ToolOutput`), its `inputSchema` properties are the
/// emitted file's with each `x-neuralis.defaults` value as the property's `default`, and
/// no description or title the model reads (tool, field, variant, output) carries
/// rustdoc link syntax, although the examples' doc comments are written with intra-doc
/// links.
#[test]
fn every_example_serves_typed_tools_with_plain_descriptions() {
    let mut defaults_seen = 0;
    for package in ["weather", "catalog", "todos", "tracker", "triage"] {
        let mut requests = initialize();
        requests.push(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
        let answers = exchange(package, &requests);
        let tools = answers[1]["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{package}: a tool list: {}", answers[1]));
        assert!(!tools.is_empty(), "{package}");
        for tool in tools {
            let name = tool["name"].as_str().expect("a name");
            assert!(
                tool["outputSchema"].is_object(),
                "{package}: {name} declares no output schema"
            );
            let file = format!(
                "{}/../{package}/tools/{name}.json",
                env!("CARGO_MANIFEST_DIR")
            );
            let emitted: Value = serde_json::from_str(
                &std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}")),
            )
            .expect("the emitted file");
            let mut properties = emitted["properties"].clone();
            if let Some(defaults) = emitted["x-neuralis"]["defaults"].as_object() {
                for (key, value) in defaults {
                    properties[key]["default"] = value.clone();
                    defaults_seen += 1;
                }
            }
            // The digest a client pins is the tool file's (`neuralis check --digests`).
            assert_eq!(
                tool["_meta"]["io.neuralis/digest"],
                neuralis::catalog::contract_digest(&emitted),
                "{package}: {name}"
            );
            let mut file = emitted.clone();
            file["properties"] = properties;
            assert_eq!(
                tool["inputSchema"]["properties"],
                served(&file)["properties"],
                "{package}: {name}"
            );
        }
        let mut found = Vec::new();
        link_syntax(&answers[1]["result"], "", &mut found);
        assert!(found.is_empty(), "{package}: {found:#?}");
    }
    // weather_forecast's `days`, triage_queue's `page_size`, catalog_reindex's own.
    assert!(defaults_seen >= 3, "{defaults_seen} defaults");
}

#[test]
fn the_link_check_finds_links() {
    let mut found = Vec::new();
    let served = json!({"tools": [{"description": "see [`Sku`]", "outputSchema": {
        "properties": {"a": {"description": "[the store](crate::Store)"}}}}]});
    link_syntax(&served, "", &mut found);
    assert_eq!(found.len(), 2, "{found:?}");
}
