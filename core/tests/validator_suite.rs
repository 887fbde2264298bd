//! The JSON-Schema-Test-Suite's draft-07 cases (vendored in `tests/suite`, with its
//! license) for every keyword the built-in validator (`neuralis_model::validate`) reads:
//! each case's verdict. A group whose schema is outside the subset is skipped, by name,
//! with the keyword the compiler names (printed with `--nocapture`); it must be refused as
//! outside the subset, never as invalid.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use neuralis_model::validate::Validator;
use serde_json::Value;

fn suite_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/suite/draft7")
}

#[test]
fn the_draft_07_suite_cases_of_the_subset() {
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for dir in [
        suite_dir(),
        suite_dir().join("optional"),
        suite_dir().join("optional/format"),
    ] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    let (mut cases, mut groups, mut skipped) = (0, 0, Vec::new());
    let mut failures = Vec::new();
    for path in &files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let groups_json: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for group in groups_json {
            let description = group["description"].as_str().unwrap().to_owned();
            let validator = match Validator::compile(&group["schema"]) {
                Ok(v) => v,
                Err(e) => {
                    // Every schema of the suite is valid draft-07: a refusal is a keyword
                    // outside the subset, never a schema read as invalid.
                    assert!(
                        e.is_not_in_subset(),
                        "{file}: {description}: the schema does not compile: {e}"
                    );
                    skipped.push(format!("{file}: {description} ({e})"));
                    continue;
                }
            };
            groups += 1;
            for case in group["tests"].as_array().unwrap() {
                cases += 1;
                let expected = case["valid"].as_bool().unwrap();
                let got = validator.is_valid(&case["data"]);
                if got != expected {
                    failures.push(format!(
                        "{file}: {description}: {}: expected {expected}",
                        case["description"].as_str().unwrap()
                    ));
                }
                // `errors` agrees with `is_valid`.
                assert_eq!(validator.errors(&case["data"]).is_empty(), got);
            }
        }
    }
    println!(
        "{} files, {groups} groups and {cases} cases run, {} groups skipped:",
        files.len(),
        skipped.len()
    );
    for s in &skipped {
        println!("  skipped: {s}");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(cases > 800, "only {cases} cases ran");
}

#[path = "common/property_names.rs"]
mod property_names;

/// The default `propertyNames` (the keys `docs/contract.md` section 3 names, the same list
/// the ajv test runs under ECMA-262): decided without a regex when recognized, and through
/// the ECMA-262 translation of its pattern when not.
#[test]
fn the_default_property_names_under_the_built_in_validator() {
    use property_names::{ACCEPTED, REJECTED};
    let names: Value = serde_json::from_str(neuralis_core::schema::DEFAULT_PROPERTY_NAMES).unwrap();
    let mut by_pattern = names.clone();
    by_pattern["$comment"] = Value::String("not the normalizer's own: the regex path".into());
    for names in [names, by_pattern] {
        let v = Validator::compile(&serde_json::json!({ "propertyNames": names })).unwrap();
        for key in ACCEPTED {
            assert!(v.is_valid(&serde_json::json!({ *key: 1 })), "{key}");
        }
        for key in REJECTED {
            assert!(!v.is_valid(&serde_json::json!({ *key: 1 })), "{key}");
        }
    }
}
