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

/// The server lists fewer tools than the tools directory holds (it shows only the granted
/// ones): the missing tools are named on stderr, exit 0, or 1 with `--strict`; the
/// directory's own `outputs.json` is not read as a tool.
#[test]
fn tools_the_server_did_not_list_are_named() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["typed", "plain", "hidden"] {
        std::fs::write(dir.path().join(format!("{name}.json")), "{}").unwrap();
    }
    std::fs::write(dir.path().join("outputs.json"), r#"{"typed": null}"#).unwrap();
    let tools = dir.path().to_string_lossy().into_owned();
    let out = outputs(&["--tools-dir", &tools]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the server listed 2 of the 3 tools") && err.contains("not listed: `hidden`"),
        "{err}"
    );
    assert!(err.contains("--grant"), "{err}");
    let shown: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        shown.as_object().unwrap().len(),
        2,
        "still printed: {shown}"
    );
    let out = outputs(&["--tools-dir", &tools, "--strict"]);
    assert_eq!(out.status.code(), Some(1));
    // Every tool listed: nothing to say, `--strict` passes.
    std::fs::remove_file(dir.path().join("hidden.json")).unwrap();
    let out = outputs(&["--tools-dir", &tools, "--strict"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
