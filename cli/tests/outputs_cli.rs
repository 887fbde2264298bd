//! `neuralis outputs` against a stand-in MCP server (a Python script answering on stdio
//! what a package's server would): what it prints and its exit codes. The real package
//! (`examples/serve`) is asked by the main job (`scripts/main-job.sh`).
#![allow(clippy::unwrap_used)]

use std::process::{Command, Output};

const SERVER: &str = r#"
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m:
        continue
    if m["method"] == "initialize":
        assert m["params"]["protocolVersion"] == "2025-06-18"
        r = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
             "serverInfo": {"name": "stand-in", "version": "0"}}
    elif m["method"] == "tools/list" and "cursor" not in m["params"]:
        r = {"tools": [{"name": "typed", "inputSchema": {"type": "object"},
                        "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}],
             "nextCursor": "2"}
    else:
        r = {"tools": [{"name": "plain", "inputSchema": {"type": "object"}}]}
    print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}), flush=True)
"#;

fn outputs(extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_neuralis"))
        .arg("outputs")
        .args(extra)
        .args(["--", "python3", "-c", SERVER])
        .output()
        .unwrap()
}

#[test]
fn every_tool_with_its_output_schema_across_pages() {
    let out = outputs(&[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shown: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        shown,
        serde_json::json!({
            "typed": {"type": "object", "properties": {"n": {"type": "integer"}}},
            "plain": null
        })
    );
}

#[test]
fn one_tool_or_a_clear_failure() {
    let out = outputs(&["--tool", "typed"]);
    assert_eq!(out.status.code(), Some(0));
    let shown: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(shown["properties"]["n"]["type"], "integer");
    let out = outputs(&["--tool", "plain"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("declares no output schema"));
    let out = outputs(&["--tool", "nope"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("lists no tool `nope`"));
}

#[test]
fn a_command_that_is_not_a_server_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_neuralis"))
        .args(["outputs", "--timeout", "1", "--", "true"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no answer") || err.contains("cannot write to the server"),
        "{err}"
    );
}
