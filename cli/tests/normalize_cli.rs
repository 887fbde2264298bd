//! `neuralis normalize` on files: stdout, stderr and exit codes.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CATALOG_LIST: &str = include_str!("../../examples/catalog/tools/catalog_list.json");

fn normalize(file: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_neuralis"))
        .arg("normalize")
        .arg(file)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn write(dir: &Path, name: &str, content: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

const TAGGER: &str = r#"{"x-neuralis":{"annotations":{"category":"write"}},
"properties":{"tags":{"additionalProperties":{"type":"string"},"type":"object","description":"Tags."}},
"description":"Tag an item.","additionalProperties":false,"type":"object",
"$schema":"http://json-schema.org/draft-07/schema#"}"#;

const TAGGER_CANONICAL: &str = r#"{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "additionalProperties": false,
  "description": "Tag an item.",
  "properties": {
    "tags": {
      "type": "object",
      "additionalProperties": {
        "type": "string"
      },
      "description": "Tags.",
      "propertyNames": {
        "not": {
          "anyOf": [
            {
              "enum": ["__proto__", "constructor", "prototype"]
            },
            {
              "pattern": "^(?:__|\\$)"
            }
          ]
        }
      }
    }
  },
  "x-neuralis": {
    "annotations": { "category": "write" }
  }
}
"#;

#[test]
fn the_seed_example_is_already_canonical() {
    let out = normalize(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/catalog/tools/catalog_list.json"
    )));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), CATALOG_LIST);
}

#[test]
fn an_open_bag_is_normalized_and_written_canonically() {
    let dir = tempfile::tempdir().unwrap();
    let out = normalize(&write(dir.path(), "tag_item.json", TAGGER));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), TAGGER_CANONICAL);
    // The output is a fixed point.
    let again = normalize(&write(dir.path(), "tag_item2.json", &text(&out.stdout)));
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(again.stdout, out.stdout);
}

#[test]
fn a_file_that_is_not_json_fails_with_its_diagnostics_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in [
        ("broken.json", "{\"type\": "),
        ("empty.json", ""),
        ("array.json", "[]"),
    ] {
        let out = normalize(&write(dir.path(), name, content));
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("error[json-syntax]"), "{name}: {stderr}");
        assert!(stderr.contains(name), "{name}: the file is named: {stderr}");
    }
}

#[test]
fn an_unreadable_file_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = normalize(&dir.path().join("absent.json"));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("absent.json"));
    let out = normalize(dir.path());
    assert_eq!(out.status.code(), Some(2), "a directory is not a file");
}

/// Needs the real checker (issue 2, part A): before it lands, `check_value` reports nothing.
#[test]

fn contract_errors_fail_and_warnings_do_not() {
    let dir = tempfile::tempdir().unwrap();
    let bad = CATALOG_LIST.replace(r#""type": "object""#, r#""type": "array""#);
    let out = normalize(&write(dir.path(), "catalog_list.json", &bad));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(
        text(&out.stderr).contains("error[root-type]"),
        "{}",
        text(&out.stderr)
    );

    let undescribed = CATALOG_LIST.replace(
        r#""description": "List all items in the catalog. Returns an array of items with id, name, and status.","#,
        "",
    );
    let out = normalize(&write(dir.path(), "undescribed.json", &undescribed));
    assert_eq!(out.status.code(), Some(0), "warnings do not fail");
    assert!(
        text(&out.stderr).contains("warning[description-missing]"),
        "{}",
        text(&out.stderr)
    );
    assert!(!out.stdout.is_empty());
}
