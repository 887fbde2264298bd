//! Output schemas in the call pipeline: a result that breaks its tool's output schema
//! never reaches the caller (a generic `isError`), the host hears of it with the pointer,
//! and a bounded result that would break it is refused rather than sent.
#![allow(clippy::unwrap_used, reason = "tests")]

use std::sync::{Arc, Mutex};

use neuralis_core::dispatch::{
    BuildProblem, Call, Handler, Json, Output, OutputMismatch, Package, PackageBuilder,
    SessionContext, ToolContext, sync_fn,
};
use neuralis_core::result::BoundCaps;
use serde_json::{Value, json};

fn file() -> Vec<u8> {
    serde_json::to_vec(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object", "additionalProperties": false, "description": "List things.",
        "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 1000}},
        "x-neuralis": {"annotations": {"category": "read", "readOnlyHint": true},
                       "ui": {"presentation": "inline"}}
    }))
    .unwrap()
}

fn listing_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "ok": {"type": "boolean"},
            "items": {"type": "array", "items": {"type": "string", "pattern": "^item-[0-9]+$"},
                      "minItems": 2}
        },
        "required": ["ok", "items"]
    })
}

/// `n` items, as a raw JSON result (a hand-registered handler can return anything).
fn items(args: Value) -> Value {
    let n = args["n"].as_u64().unwrap_or(3);
    let items: Vec<String> = (0..n).map(|i| format!("item-{i}")).collect();
    json!({"content": [{"type": "text", "text": format!("{n} items")}],
           "structuredContent": {"ok": true, "items": items}})
}

fn session() -> SessionContext {
    SessionContext::builder("u").build()
}

type Seen = Arc<Mutex<Vec<OutputMismatch>>>;

fn package(handler: impl Handler, caps: BoundCaps) -> (Package, Seen) {
    let seen: Seen = Arc::default();
    let sink = Arc::clone(&seen);
    let package = Package::builder()
        .tool("things", file(), handler)
        .output_schema("things", listing_schema())
        .caps(caps)
        .on_output_mismatch(move |m| sink.lock().unwrap().push(m.clone()))
        .build()
        .unwrap();
    (package, seen)
}

#[test]
fn a_valid_result_goes_out_unchanged() {
    let (package, seen) = package(sync_fn(items), BoundCaps::default());
    let result = package.dispatch_blocking("things", json!({"n": 3}), &session());
    assert!(!result.is_error, "{result:?}");
    assert_eq!(
        result.structured_content.unwrap()["items"],
        json!(["item-0", "item-1", "item-2"])
    );
    assert!(seen.lock().unwrap().is_empty());
    assert_eq!(package.output_schema("things"), Some(&listing_schema()));
    assert_eq!(package.output_schema("nope"), None);
}

#[test]
fn a_result_that_breaks_the_schema_is_a_generic_error_and_the_host_gets_the_pointer() {
    let broken = |_: Value| {
        json!({"content": [{"type": "text", "text": "x"}],
               "structuredContent": {"ok": true, "items": ["item-1", "oops"]}})
    };
    let (package, seen) = package(sync_fn(broken), BoundCaps::default());
    let result = package.dispatch_blocking("things", json!({}), &session());
    assert!(result.is_error);
    assert_eq!(
        result.structured_content, None,
        "an isError result of a typed tool carries no structuredContent"
    );
    let text = serde_json::to_string(&result.for_ui()).unwrap();
    assert!(
        !text.contains("oops") && !text.contains("pattern"),
        "{text}"
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].tool, "things");
    assert_eq!(seen[0].pointer, "/structuredContent/items/1");
    assert!(
        seen[0].message.contains("^item-[0-9]+$"),
        "{}",
        seen[0].message
    );
    assert!(!seen[0].after_bounding);
}

#[test]
fn a_missing_structured_content_breaks_a_declared_schema() {
    let (package, seen) = package(sync_fn(|_: Value| "just text"), BoundCaps::default());
    let result = package.dispatch_blocking("things", json!({}), &session());
    assert!(result.is_error);
    let seen = seen.lock().unwrap();
    assert_eq!(seen[0].pointer, "");
    assert!(seen[0].message.contains("no `structuredContent`"));
}

#[test]
fn error_results_are_not_checked() {
    let failing = |_: Value| Err::<String, _>("the backend is down");
    let (package, seen) = package(sync_fn(failing), BoundCaps::default());
    let result = package.dispatch_blocking("things", json!({}), &session());
    assert!(result.is_error);
    assert!(format!("{:?}", result.content).contains("the backend is down"));
    // Argument errors and refusals neither.
    assert!(
        package
            .dispatch_blocking("things", json!({"n": -1}), &session())
            .is_error
    );
    assert!(
        package
            .dispatch_blocking("nope", json!({}), &session())
            .is_error
    );
    assert!(seen.lock().unwrap().is_empty());
}

#[test]
fn bounding_keeps_a_result_valid_where_the_schema_allows_and_refuses_it_otherwise() {
    let caps = BoundCaps {
        array_len: 4,
        ..BoundCaps::default()
    };
    // Ten items shrink to four from the tail: still at least `minItems` (2), still valid.
    let (four, seen) = package(sync_fn(items), caps);
    let result = four.dispatch_blocking("things", json!({"n": 10}), &session());
    assert!(!result.is_error, "{result:?}");
    assert_eq!(
        result.structured_content.unwrap()["items"],
        json!(["item-0", "item-1", "item-2", "item-3"])
    );
    assert!(seen.lock().unwrap().is_empty());

    // With one item allowed, the bounded array would be below `minItems`: refused, and the
    // host hears it was bounding.
    let caps = BoundCaps {
        array_len: 1,
        ..BoundCaps::default()
    };
    let (package, seen) = package(sync_fn(items), caps);
    let result = package.dispatch_blocking("things", json!({"n": 10}), &session());
    assert!(result.is_error);
    assert_eq!(
        result.structured_content, None,
        "an isError result of a typed tool carries no structuredContent"
    );
    let seen = seen.lock().unwrap();
    assert!(seen[0].after_bounding, "{:?}", seen[0]);
    assert_eq!(seen[0].pointer, "/structuredContent/items");
}

/// A handler that declares its own output schema.
struct Declares;

impl Handler for Declares {
    fn call<'a>(&'a self, args: Value, _cx: &'a ToolContext) -> Call<'a> {
        Call::Ready(neuralis_core::result::normalize_result(items(args)).0)
    }

    fn output(&self) -> Option<Output> {
        Some(Output::from_schema(listing_schema()))
    }
}

#[test]
fn a_handler_can_declare_its_schema_and_the_builder_can_replace_it() {
    let package = Package::builder()
        .tool("things", file(), Declares)
        .build()
        .unwrap();
    assert_eq!(package.output_schema("things"), Some(&listing_schema()));
    let replaced = json!({"type": "object", "properties": {"ok": {"const": true}}});
    let package = Package::builder()
        .tool("things", file(), Declares)
        .output_schema("things", replaced.clone())
        .build()
        .unwrap();
    assert_eq!(package.output_schema("things"), Some(&replaced));
    // The catalog a WASM host reads carries it too.
    let catalog: Value = serde_json::from_str(
        &package.call_json(r#"{"op": "catalog", "session": {"userId": "u"}}"#),
    )
    .unwrap();
    assert_eq!(catalog["tools"][0]["outputSchema"], replaced);
}

fn problems(builder: PackageBuilder) -> Vec<String> {
    match builder.build() {
        Ok(_) => panic!("the package should not build"),
        Err(e) => e.problems.iter().map(BuildProblem::to_string).collect(),
    }
}

#[test]
fn unusable_output_schemas_fail_the_package_build() {
    let handler = || sync_fn(items);
    let invalid = problems(
        Package::builder()
            .tool("things", file(), handler())
            .output_schema("things", json!({"type": 5})),
    );
    assert_eq!(invalid.len(), 1);
    assert!(
        invalid[0].starts_with(
            "the output schema of `things` cannot be used: not a valid draft-07 schema"
        ),
        "{invalid:?}"
    );
    let stray = problems(
        Package::builder()
            .tool("things", file(), handler())
            .output_schema("thing", listing_schema()),
    );
    assert_eq!(
        stray,
        ["the output schema of `thing` cannot be used: no tool file has that name"]
    );
    let twice = problems(
        Package::builder()
            .tool("things", file(), handler())
            .output_schema("things", listing_schema())
            .output_schema("things", listing_schema()),
    );
    assert_eq!(twice.len(), 1, "{twice:?}");
    assert!(twice[0].contains("two output schemas"), "{twice:?}");
}

#[test]
fn non_object_outputs_are_wrapped_in_the_schema_and_the_result() {
    let build = |value: Value, seen: &Seen| {
        let sink = Arc::clone(seen);
        Package::builder()
            .tool(
                "things",
                file(),
                sync_fn(move |_: Value| Json(value.clone())),
            )
            .output_schema("things", json!({"type": "integer"}))
            .on_output_mismatch(move |m| sink.lock().unwrap().push(m.clone()))
            .build()
            .unwrap()
    };
    let seen: Seen = Arc::default();
    let package = build(json!(3), &seen);
    let declared = package.output_schema("things").unwrap();
    assert_eq!(declared["properties"]["result"], json!({"type": "integer"}));
    assert_eq!(declared["required"], json!(["result"]));
    let result = package.dispatch_blocking("things", json!({}), &session());
    assert!(!result.is_error, "{result:?}");
    assert_eq!(result.structured_content, Some(json!({"result": 3})));
    let validator = jsonschema::draft7::new(declared).unwrap();
    assert!(validator.is_valid(result.structured_content.as_ref().unwrap()));
    assert!(seen.lock().unwrap().is_empty());

    let package = build(json!("three"), &seen);
    let result = package.dispatch_blocking("things", json!({}), &session());
    assert!(result.is_error);
    assert_eq!(seen.lock().unwrap()[0].pointer, "/structuredContent/result");
}

#[test]
fn an_error_result_of_a_typed_tool_has_no_structured_content() {
    // A handler's own error, and the pipeline's refusal of bad arguments: the details are
    // in the text, and nothing a client could check against the output schema is sent.
    let failing = |_: Value| {
        json!({"isError": true, "content": [{"type": "text", "text": "the shelf is empty"}],
               "structuredContent": {"ok": false, "error": "empty"}})
    };
    let (package, seen) = package(sync_fn(failing), BoundCaps::default());
    let result = package.dispatch_blocking("things", json!({}), &session());
    assert!(result.is_error);
    assert_eq!(result.structured_content, None);
    assert_eq!(
        result.for_model()["content"][0]["text"],
        "the shelf is empty"
    );
    assert_eq!(
        result.neuralis_meta().and_then(|m| m.get("error")),
        Some(&json!({"ok": false, "error": "empty"})),
        "the details stay for the UI"
    );
    let result = package.dispatch_blocking("things", json!({"bogus": 1}), &session());
    assert!(result.is_error);
    assert_eq!(result.structured_content, None);
    let details = result.neuralis_meta().and_then(|m| m.get("error"));
    assert_eq!(
        details.map(|d| &d["error"]),
        Some(&json!("invalid-arguments"))
    );
    assert_eq!(
        details.map(|d| &d["errors"][0]["pointer"]),
        Some(&json!("/bogus"))
    );
    let text = result.for_model()["content"][0]["text"].to_string();
    assert!(text.contains("`/bogus`"), "{text}");
    assert!(
        seen.lock().unwrap().is_empty(),
        "errors are not output mismatches"
    );
    // Without an output schema the structured error stays.
    let plain = Package::builder()
        .tool("things", file(), sync_fn(items))
        .build()
        .unwrap();
    let result = plain.dispatch_blocking("things", json!({"bogus": 1}), &session());
    assert!(result.structured_content.is_some());
}
