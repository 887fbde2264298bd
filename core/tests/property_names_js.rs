//! The default `propertyNames` under ECMA-262: ajv (draft-07) on node, on the same keys the
//! Rust test uses. Needs `node` and `npm ci --prefix core/tests/js`; without them the test
//! fails when `CI` is set, and prints `skipped: ...` otherwise.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use neuralis_core::schema::normalize;
use serde_json::json;

#[path = "common/property_names.rs"]
mod property_names;
use property_names::{ACCEPTED, REJECTED};

/// Skips (or, under CI, fails) with a reason.
fn unavailable(reason: &str) {
    if std::env::var_os("CI").is_some() {
        panic!("{reason} (CI is set, so this is a failure; run `npm ci --prefix core/tests/js`)");
    }
    println!("skipped: {reason}; run `npm ci --prefix core/tests/js` to run this test");
}

#[test]
fn the_default_property_names_behaves_as_the_contract_says_under_ecma_262() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/js");
    if !dir.join("node_modules/ajv/package.json").is_file() {
        return unavailable("ajv is not installed in core/tests/js");
    }
    let child = Command::new("node")
        .arg("check_property_names.js")
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return unavailable(&format!("cannot run `node`: {e}")),
    };

    // The bag exactly as normalization writes it.
    let mut doc = json!({
        "type": "object",
        "additionalProperties": false,
        "properties": { "bag": { "type": "object", "additionalProperties": true } }
    });
    normalize(&mut doc);
    let bag = doc["properties"]["bag"].clone();
    let keys: Vec<&str> = REJECTED.iter().chain(ACCEPTED).copied().collect();
    let input = json!({ "schema": bag, "keys": keys });
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let verdicts: Vec<(String, bool, bool)> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdicts.len(), keys.len());
    for ((key, valid, valid_without_u), sent) in verdicts.into_iter().zip(&keys) {
        assert_eq!(key, *sent, "ajv answered for another key");
        let expected = ACCEPTED.contains(&key.as_str());
        assert_eq!(
            valid, expected,
            "ajv: `{key}` accepted = {valid}, expected {expected}"
        );
        assert_eq!(
            valid_without_u, expected,
            "ajv without the `u` flag: `{key}` accepted = {valid_without_u}, expected {expected}"
        );
    }
}
