//! The single WASM entry (`neuralis_core::wasm::Entry`) through its public API, natively:
//! it answers as the native pipeline's `call_json` does, refuses oversize and malformed
//! requests, and says when its package does not load. (Its internals, the buffers and
//! the panic hook, are tested in `core/src/wasm`; the module itself in Node by
//! `tests/wasm/host.test.mjs`.)
#![allow(clippy::unwrap_used, clippy::expect_used)]

use neuralis_core::dispatch::{BuildError, Package, sync_fn};
use neuralis_core::wasm::{Entry, MAX_REQUEST_BYTES};
use serde_json::{Value, json};

#[derive(serde::Deserialize)]
struct Echo {
    text: String,
}

const ECHO: &[u8] = br#"{"type":"object","additionalProperties":false,"description":"Echo.",
  "properties":{"text":{"type":"string"}},"required":["text"],
  "x-neuralis":{"annotations":{"category":"read"}}}"#;

fn package() -> Result<Package, BuildError> {
    Package::builder()
        .tool("echo", ECHO, sync_fn(|e: Echo| e.text))
        .build()
}

fn broken() -> Result<Package, BuildError> {
    Package::builder().tool_file("echo", ECHO).build()
}

fn leak(build: fn() -> Result<Package, BuildError>) -> &'static Entry {
    Box::leak(Box::new(Entry::new(build)))
}

fn answer(entry: &'static Entry, request: &Value) -> Value {
    serde_json::from_str(&entry.call_bytes(request.to_string().as_bytes())).expect("json")
}

fn call(text: &str) -> Value {
    json!({"name": "echo", "arguments": {"text": text}, "session": {"userId": "u"}})
}

#[test]
fn calls_and_lists_like_call_json() {
    let entry = leak(package);
    let native = package().expect("package");
    for request in [
        call("hi"),
        json!({"op": "catalog", "session": {"userId": "u"}}),
        json!({"name": "echo", "arguments": {"text": 1}, "session": {"userId": "u"}}),
        json!({"name": "nope", "session": {"userId": "u"}}),
    ] {
        assert_eq!(
            entry.call_bytes(request.to_string().as_bytes()),
            native.call_json(&request.to_string())
        );
    }
    let response = entry.call_bytes(call("hi").to_string().as_bytes());
    assert_eq!(entry.output_len(), response.len());
}

#[test]
fn reserve_refuses_oversize_requests() {
    let entry = leak(package);
    assert!(entry.reserve(MAX_REQUEST_BYTES + 1).is_none());
    assert_eq!(entry.abi_reserve(u32::MAX), 0);
    assert!(entry.reserve(0).is_some());
    let out = entry.call_bytes(&vec![b' '; MAX_REQUEST_BYTES + 1]);
    assert!(out.contains("over the 16777216-byte limit"), "{out}");
}

#[test]
fn malformed_requests_are_errors() {
    let entry = leak(package);
    let out = entry.call_bytes(b"{\"name\": \"\xff\"}");
    assert!(out.contains("not UTF-8 at byte 10"), "{out}");
    let out = entry.call_bytes(br#"{"name":"echo","session":{"userId":"u"},"extra":1}"#);
    assert!(out.contains("malformed request"), "{out}");
    let out = entry.call_bytes(br#"{"name":"echo","arguments":{"userId":"x"}}"#);
    assert!(out.contains("missing field `session`"), "{out}");
}

#[test]
fn a_package_that_does_not_load_says_so() {
    let entry = leak(broken);
    let out = answer(entry, &call("hi"));
    let error = out["error"].as_str().expect("error");
    assert!(error.starts_with("the package does not load"), "{error}");
    assert!(error.contains("the tool `echo` has no handler"), "{error}");
}
