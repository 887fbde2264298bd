//! `neuralis check` end to end: the built binary on fixture directories.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{Value, json};

fn neuralis(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_neuralis"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

/// Keeps only the keys the output format promises (`hint`, `line`, `column` are extras).
fn promised(mut v: Value) -> Value {
    for tool in v["tools"].as_array_mut().expect("tools") {
        for list in ["errors", "warnings"] {
            for d in tool[list].as_array_mut().expect("a list") {
                let d = d.as_object_mut().expect("an object");
                d.retain(|k, _| matches!(k.as_str(), "rule" | "pointer" | "message"));
            }
        }
    }
    v
}

#[test]
fn errors_exit_1_with_the_json_report() {
    let out = neuralis(&["check", "tests/fixtures/bad", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let report = json_of(&out);
    assert_eq!(
        promised(report.clone()),
        json!({
            "tools": [
                {
                    "file": "tests/fixtures/bad/assign_task.json",
                    "name": "assign_task",
                    "errors": [
                        {
                            "rule": "reserved-input-key",
                            "pointer": "/properties/userId",
                            "message": "root property `userId` uses a reserved session-context name"
                        },
                        {
                            "rule": "xn-recovery-field",
                            "pointer": "/x-neuralis/annotations/recoveryMode",
                            "message": "`recoveryMode` declares recovery posture on the tool, which the platform never reads from a tool"
                        },
                        {
                            "rule": "askonkeys-undeclared",
                            "pointer": "/x-neuralis/askOnKeys/1",
                            "message": "`askOnKeys` names `force`, which is not a root property"
                        }
                    ],
                    "warnings": []
                },
                {
                    "file": "tests/fixtures/bad/twice.json",
                    "name": "twice",
                    "errors": [
                        {
                            "rule": "json-syntax",
                            "pointer": "",
                            "message": "invalid JSON: duplicate key `type` in one object"
                        }
                    ],
                    "warnings": []
                }
            ],
            "summary": { "files": 2, "errors": 4, "warnings": 0 }
        })
    );
    // The extras: the line and column of the offending key.
    let first = &report["tools"][0]["errors"][0];
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64()),
        (Some(9), Some(5))
    );
}

#[test]
fn warnings_alone_exit_0() {
    let out = neuralis(&["check", "tests/fixtures/good", "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let report = json_of(&out);
    assert_eq!(
        report["summary"],
        json!({ "files": 3, "errors": 0, "warnings": 1 })
    );
    let names: Vec<&str> = report["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(names, ["catalog_list", "quiet_note", "weather_forecast"]);
    assert_eq!(
        report["tools"][1]["warnings"][0]["rule"],
        "description-missing"
    );
}

#[test]
fn cards_enable_card_type_unmatched() {
    let file = "tests/fixtures/good/weather_forecast.json";
    let out = neuralis(&[
        "check",
        file,
        "--format",
        "json",
        "--cards",
        "weather.daily,default",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let report = json_of(&out);
    assert_eq!(
        report["tools"][0]["warnings"][0]["rule"],
        "card-type-unmatched"
    );
    assert_eq!(
        report["tools"][0]["warnings"][0]["pointer"],
        "/x-neuralis/ui/cardType"
    );
    let out = neuralis(&[
        "check",
        file,
        "--format",
        "json",
        "--cards",
        "weather.result",
    ]);
    assert_eq!(json_of(&out)["summary"]["warnings"], 0);
}

#[test]
fn human_output_points_at_the_key() {
    let out = neuralis(&["check", "tests/fixtures/bad"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let expected = "\
error[reserved-input-key]: root property `userId` uses a reserved session-context name
 --> tests/fixtures/bad/assign_task.json:9:5
  |
9 |     \"userId\": {
  |     ^^^^^^^^
  = at: /properties/userId
";
    assert!(text.starts_with(expected), "{text}");
    assert!(
        text.ends_with("error: checked 2 files: 4 errors, 0 warnings\n"),
        "{text}"
    );
}

#[test]
fn io_and_usage_errors_exit_2() {
    let out = neuralis(&["check", "tests/fixtures/no_such_dir"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no_such_dir"));
    assert_eq!(neuralis(&["check"]).status.code(), Some(2));
    assert_eq!(
        neuralis(&["check", "tests/fixtures/good", "--format", "xml"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn profile_mcp_remote_adds_the_remote_rules() {
    let plain = neuralis(&["check", "tests/fixtures/good", "--format", "json"]);
    let remote = neuralis(&[
        "check",
        "tests/fixtures/good",
        "--format",
        "json",
        "--profile",
        "mcp-remote",
    ]);
    assert_eq!(plain.status.code(), Some(0));
    assert_eq!(remote.status.code(), Some(0), "warnings only");
    let rules = |out: &Output| -> Vec<String> {
        json_of(out)["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .flat_map(|t| t["warnings"].as_array().expect("warnings").clone())
            .map(|w| w["rule"].as_str().expect("rule").to_owned())
            .collect()
    };
    assert!(!rules(&plain).iter().any(|r| r.starts_with("remote-")));
    let pointers: Vec<String> = json_of(&remote)["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .flat_map(|t| t["warnings"].as_array().expect("warnings").clone())
        .filter(|w| w["rule"] == "remote-dropped")
        .map(|w| w["pointer"].as_str().expect("pointer").to_owned())
        .collect();
    assert!(
        pointers.contains(&"/properties/days/maximum".to_owned()),
        "{pointers:?}"
    );
    let bad = neuralis(&["check", "tests/fixtures/good", "--profile", "nope"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn default_invalid_is_a_warning_at_the_default() {
    let out = neuralis(&["check", "tests/fixtures/defaults", "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "a warning: the files still load"
    );
    let report = json_of(&out);
    let tools = report["tools"].as_array().expect("tools");
    let warnings = |name: &str| -> Vec<Value> {
        tools.iter().find(|t| t["name"] == name).expect("the tool")["warnings"]
            .as_array()
            .expect("warnings")
            .clone()
    };
    let bad = warnings("issue_create");
    assert_eq!(bad.len(), 1, "{bad:#?}");
    assert_eq!(bad[0]["rule"], "default-invalid");
    assert_eq!(bad[0]["pointer"], "/properties/urgency/default");
    assert_eq!(
        (bad[0]["line"].as_u64(), bad[0]["column"].as_u64()),
        (Some(11), Some(7))
    );
    assert!(
        bad[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("`medium`")),
        "{bad:#?}"
    );
    // The near miss: a default and an example inside the enum.
    assert_eq!(warnings("issue_list"), Vec::<Value>::new());

    let human = neuralis(&["check", "tests/fixtures/defaults/issue_create.json"]);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(text.contains("default-invalid"), "{text}");
}

#[test]
fn profile_of_a_provider_adds_what_its_dialect_loses() {
    let rules = |out: &Output, severity: &str| -> Vec<(String, String)> {
        json_of(out)["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .flat_map(|t| t[severity].as_array().expect("a list").clone())
            .map(|w| {
                let rule = w["rule"].as_str().expect("rule").to_owned();
                (rule, w["pointer"].as_str().expect("pointer").to_owned())
            })
            .collect()
    };
    let anthropic = neuralis(&[
        "check",
        "tests/fixtures/good",
        "--format",
        "json",
        "--profile",
        "anthropic",
    ]);
    assert_eq!(anthropic.status.code(), Some(0), "warnings only");
    let weakened = rules(&anthropic, "warnings");
    assert!(
        weakened.contains(&("dialect-weakened".into(), "/properties/days/maximum".into())),
        "{weakened:?}"
    );
    // A map is refused: an error, exit 1, at the map's pointer.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("check_cli_dialects");
    std::fs::create_dir_all(&dir).expect("a temp dir");
    std::fs::write(
        dir.join("tag_items.json"),
        r#"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
            "additionalProperties": false, "description": "Tag items.",
            "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"},
                "propertyNames": {"not": {"anyOf": [{"enum": ["__proto__", "constructor", "prototype"]}, {"pattern": "^(__|\\$)"}]}}}},
            "x-neuralis": {"annotations": {"category": "read", "readOnlyHint": true}, "ui": {"presentation": "inline"}}}"#,
    )
    .expect("a tool file");
    let dir = dir.to_string_lossy().into_owned();
    for profile in ["openai", "anthropic", "gemini"] {
        let out = neuralis(&["check", &dir, "--format", "json", "--profile", profile]);
        assert_eq!(out.status.code(), Some(1), "{profile}");
        assert_eq!(
            rules(&out, "errors"),
            [(
                "dialect-refused".to_owned(),
                "/properties/labels/additionalProperties".to_owned()
            )],
            "{profile}"
        );
    }
    let plain = neuralis(&["check", &dir, "--format", "json"]);
    assert_eq!(plain.status.code(), Some(0), "the contract allows a map");
}

/// `--digests`: each tool's contract digest, the SHA-256 of its canonical text, which for
/// a file `cargo build` wrote is the file's own bytes (checked against coreutils'
/// `sha256sum`); a file with errors has none.
#[test]
fn digests_are_the_sha256_of_the_canonical_text() {
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut seen = 0;
    for package in std::fs::read_dir(&examples).expect("examples") {
        let tools = package.expect("entry").path().join("tools");
        if !tools.is_dir() {
            continue;
        }
        let dir = tools.to_string_lossy().into_owned();
        let out = neuralis(&["check", &dir, "--format", "json", "--digests"]);
        for t in json_of(&out)["tools"].as_array().expect("tools") {
            let file = t["file"].as_str().expect("file");
            let sum = Command::new("sha256sum")
                .arg(file)
                .output()
                .expect("sha256sum runs");
            let text = String::from_utf8_lossy(&sum.stdout);
            let hex = text.split_whitespace().next().expect("a hash");
            assert_eq!(t["digest"], format!("sha256:{hex}"), "{file}");
            seen += 1;
        }
        let human = neuralis(&["check", &dir, "--digests"]);
        assert!(
            String::from_utf8_lossy(&human.stdout).contains("digest "),
            "{dir}"
        );
    }
    assert!(seen > 30, "{seen}");
    let bad = neuralis(&[
        "check",
        "tests/fixtures/bad",
        "--format",
        "json",
        "--digests",
    ]);
    for t in json_of(&bad)["tools"].as_array().expect("tools") {
        if !t["errors"].as_array().expect("errors").is_empty() {
            assert_eq!(t["digest"], Value::Null, "{t}");
        }
    }
}

/// `outputs.json` in a tools directory (where docs/changing.md puts it, as `neuralis
/// outputs` prints it) is not a tool file: `check` passes it by. A tool named `outputs`
/// is still checked.
#[test]
fn the_outputs_file_beside_the_tools_is_not_a_tool() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let example = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/weather/tools/weather_forecast.json");
    std::fs::copy(&example, dir.path().join("weather_forecast.json")).expect("copy");
    std::fs::write(
        dir.path().join("outputs.json"),
        r#"{"weather_forecast": {"type": "object"}}"#,
    )
    .expect("write");
    let path = dir.path().to_string_lossy().into_owned();
    let out = neuralis(&["check", &path, "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let names: Vec<String> = json_of(&out)["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().expect("name").to_owned())
        .collect();
    assert_eq!(names, ["weather_forecast"]);
    // A tool file named `outputs.json` is a tool.
    std::fs::copy(&example, dir.path().join("outputs.json")).expect("copy");
    let out = neuralis(&["check", &path, "--format", "json"]);
    assert_eq!(json_of(&out)["tools"].as_array().expect("tools").len(), 2);
}

/// `--profile` is repeatable, each adding its rules; `--dialects-from` reads the dialects a
/// package's `Cargo.toml` names, and without either `check` reads `./Cargo.toml`'s list
/// when run inside a package; a name that is no dialect is a usage error.
#[test]
fn profiles_repeat_and_dialects_come_from_the_package() {
    let pointers = |out: &Output| -> Vec<String> {
        let mut found: Vec<String> = json_of(out)["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .flat_map(|t| t["warnings"].as_array().expect("a list").clone())
            .filter(|w| w["rule"] == "dialect-weakened")
            .map(|w| w["message"].as_str().expect("message").to_owned())
            .collect();
        found.sort();
        found
    };
    let good = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/good");
    let good = good.to_string_lossy().into_owned();
    let one = |profile: &str| neuralis(&["check", &good, "--format", "json", "--profile", profile]);
    let (openai, anthropic) = (pointers(&one("openai")), pointers(&one("anthropic")));
    assert!(!openai.is_empty() && !anthropic.is_empty());
    let both = neuralis(&[
        "check",
        &good,
        "--format",
        "json",
        "--profile",
        "openai",
        "--profile",
        "anthropic",
    ]);
    let mut expected = [openai.clone(), anthropic.clone()].concat();
    expected.sort();
    assert_eq!(pointers(&both), expected, "each profile adds its own");

    let package = tempfile::tempdir().expect("a temp dir");
    // The package's `[package.metadata.neuralis]` table says `table`.
    let manifest_says = |table: &str| {
        std::fs::write(
            package.path().join("Cargo.toml"),
            format!("[package]\nname = \"p\"\nversion = \"0.1.0\"\n\n[package.metadata.neuralis]\n{table}"),
        )
        .expect("write");
    };
    manifest_says("dialects = [\"openai\", \"anthropic\"]\n");
    let manifest = package
        .path()
        .join("Cargo.toml")
        .to_string_lossy()
        .into_owned();
    let from_manifest = || {
        neuralis(&[
            "check",
            &good,
            "--format",
            "json",
            "--dialects-from",
            &manifest,
        ])
    };
    let from = from_manifest();
    assert_eq!(pointers(&from), expected);
    assert!(String::from_utf8_lossy(&from.stderr).contains("openai, anthropic"));
    // Inside the package, by default.
    let inside = Command::new(env!("CARGO_BIN_EXE_neuralis"))
        .args(["check", &good, "--format", "json"])
        .current_dir(package.path())
        .output()
        .expect("the binary runs");
    assert_eq!(pointers(&inside), expected);
    // A `--profile` given: the package's list is not read unless asked.
    let given = Command::new(env!("CARGO_BIN_EXE_neuralis"))
        .args(["check", &good, "--format", "json", "--profile", "openai"])
        .current_dir(package.path())
        .output()
        .expect("the binary runs");
    assert_eq!(pointers(&given), openai);
    // The package's `allow_weakened`, honoured as the build honours it.
    manifest_says("dialects = [\"openai\", \"anthropic\"]\nallow_weakened = [\"anthropic\"]\n");
    let allowed = from_manifest();
    assert_eq!(pointers(&allowed), openai, "anthropic's allowed");
    manifest_says("dialects = [\"openai\", \"anthropic\"]\nallow_weakened = true\n");
    let all = from_manifest();
    assert!(pointers(&all).is_empty(), "every dialect allowed");
    manifest_says("dialects = [\"cohere\"]\n");
    let bad = neuralis(&["check", &good, "--dialects-from", &manifest]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("`cohere`"));
}
