//! A hand-registered schema outside the built-in validator's subset: refused when the
//! package is built without the `jsonschema` feature (naming the keyword and the feature),
//! served with it. A schema inside the subset is served either way, and its refusals read
//! as they always did.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use neuralis_core::dispatch::{Package, SessionContext, sync_fn};
use serde_json::{Value, json};

fn tool(properties: &Value, extra: &str) -> Vec<u8> {
    format!(
        r#"{{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
        "additionalProperties": false, "description": "Echo.", "properties": {properties},
        {extra} "x-neuralis": {{"annotations": {{"category": "read"}}}}}}"#
    )
    .into_bytes()
}

fn build(file: Vec<u8>) -> Result<Package, neuralis_core::dispatch::BuildError> {
    Package::builder()
        .tool("echo", file, sync_fn(|v: Value| v.to_string()))
        .build()
}

#[test]
fn a_schema_outside_the_subset_needs_the_feature() {
    let outside = tool(
        &json!({"tags": {"type": "object", "patternProperties": {"^x-": {"type": "string"}}}}),
        "",
    );
    let built = build(outside);
    #[cfg(not(feature = "jsonschema"))]
    {
        let error = built.expect_err("refused without a general validator");
        let text = error.to_string();
        assert!(
            text.contains("`patternProperties` at `/properties/tags`"),
            "{text}"
        );
        assert!(
            text.contains("turn on the `jsonschema` feature")
                && text.contains("`neuralis-mcp`")
                && text.contains("`neuralis-core`"),
            "{text}"
        );
    }
    #[cfg(feature = "jsonschema")]
    {
        let package = built.expect("served with a general validator");
        let session = SessionContext::builder("u").build();
        let bad = package.dispatch_blocking("echo", json!({"tags": {"x-a": 1}}), &session);
        assert!(bad.is_error);
        assert_eq!(
            bad.structured_content.unwrap()["errors"][0]["pointer"],
            "/tags/x-a"
        );
    }
}

#[test]
fn a_schema_inside_the_subset_is_served_and_refusals_read_in_plain_words() {
    let file = tool(
        &json!({
            "city": {"type": "string", "minLength": 1},
            "days": {"type": "integer", "minimum": 1, "maximum": 14},
            "code": {"type": "string", "pattern": "^\\d{4}$"}
        }),
        r#""required": ["city"],"#,
    );
    let package = build(file).expect("inside the subset");
    let session = SessionContext::builder("u").build();
    let ok = package.dispatch_blocking(
        "echo",
        json!({"city": "Porto", "days": 1.0, "code": "1234"}),
        &session,
    );
    assert!(!ok.is_error, "{ok:?}");
    let bad = package.dispatch_blocking(
        "echo",
        json!({"city": "", "days": 15, "code": "12a4", "userId": "x"}),
        &session,
    );
    let errors = bad.structured_content.unwrap()["errors"].clone();
    assert_eq!(
        errors,
        json!([
            {"pointer": "/city", "message": "at least 1 character"},
            {"pointer": "/days", "message": "at most 14"},
            {"pointer": "/code", "message": "matches `^\\d{4}$`"},
            {"pointer": "/userId", "message": "`userId` is not an argument here; caller identity and session fields come from the verified session, never from arguments"}
        ])
    );
    let missing = package.dispatch_blocking("echo", json!({}), &session);
    assert_eq!(
        missing.structured_content.unwrap()["errors"],
        json!([{"pointer": "/city", "message": "`city` is required"}])
    );
}
