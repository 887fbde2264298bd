//! `neuralis diff` end to end: each class in each direction, nested objects and arrays,
//! outputs, a rename, identical trees, every example against itself and against the
//! previous release of one, the JSON and Markdown forms, exit statuses, and `--since` with
//! the version check on a scratch git repository.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

fn neuralis(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_neuralis"))
        .args(args)
        .output()
        .expect("neuralis runs")
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A tool file: `properties` and `required` of the root, and its `x-neuralis` block.
fn tool(properties: Value, required: Value, block: Value) -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object", "additionalProperties": false, "description": "Forecast.",
        "properties": properties, "required": required, "x-neuralis": block
    })
}

fn block() -> Value {
    json!({"annotations": {"category": "write", "destructiveHint": true}, "askOnKeys": ["purge"]})
}

/// Writes each `(file, document)` into a fresh directory.
fn dir(files: &[(&str, Value)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().expect("a temp dir");
    for (name, doc) in files {
        std::fs::write(
            d.path().join(name),
            serde_json::to_string_pretty(doc).expect("json"),
        )
        .expect("write");
    }
    d
}

/// `neuralis diff --format json OLD NEW`: the exit status and the document.
fn diff(old: &Path, new: &Path, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["diff", "--format", "json"];
    args.extend_from_slice(extra);
    let (o, n) = (
        old.to_string_lossy().into_owned(),
        new.to_string_lossy().into_owned(),
    );
    args.push(&o);
    args.push(&n);
    let out = neuralis(&args);
    let doc = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().expect("an exit status"), doc)
}

/// `(rule, class, pointer)` of every finding of `name`, and its class.
fn of(doc: &Value, name: &str) -> (String, Vec<(String, String, String)>) {
    let t = doc["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("`{name}` is listed: {doc}"));
    let findings = t["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            assert!(f["message"].as_str().is_some_and(|m| !m.is_empty()), "{f}");
            (
                f["rule"].as_str().expect("rule").to_owned(),
                f["class"].as_str().expect("class").to_owned(),
                f["pointer"].as_str().expect("pointer").to_owned(),
            )
        })
        .collect();
    (t["class"].as_str().expect("class").to_owned(), findings)
}

fn finding(rule: &str, class: &str, pointer: &str) -> (String, String, String) {
    (rule.to_owned(), class.to_owned(), pointer.to_owned())
}

/// One tool, changed from `old` to `new`: its class and findings.
fn changed(old: Value, new: Value) -> (i32, String, Vec<(String, String, String)>) {
    let (a, b) = (dir(&[("t.json", old)]), dir(&[("t.json", new)]));
    let (code, doc) = diff(a.path(), b.path(), &[]);
    let (class, findings) = of(&doc, "t");
    (code, class, findings)
}

/// A change to the base tool, and the rule and pointer it must be found at.
type Case = (Box<dyn Fn(&mut Value)>, (&'static str, &'static str));

fn base() -> Value {
    tool(
        json!({
            "city": {"type": "string", "maxLength": 120},
            "days": {"type": "integer", "minimum": 1, "maximum": 14},
            "unit": {"type": "string", "enum": ["c", "f"]},
            "purge": {"type": "boolean"},
            "filter": {"type": "object", "additionalProperties": false,
                       "properties": {"tag": {"type": "string"}}},
            "rows": {"type": "array", "items": {"type": "object", "additionalProperties": false,
                     "properties": {"x": {"type": "integer"}}, "required": ["x"]}}
        }),
        json!(["city"]),
        block(),
    )
}

#[test]
fn breaking_input_changes_each_have_their_rule_at_their_pointer() {
    let cases: Vec<Case> = vec![
        (
            Box::new(|t| {
                t["properties"]
                    .as_object_mut()
                    .expect("properties")
                    .remove("unit");
            }),
            ("property-removed", "/properties/unit"),
        ),
        (
            Box::new(|t| t["required"] = json!(["city", "days"])),
            ("property-required", "/properties/days"),
        ),
        (
            Box::new(|t| t["properties"]["days"]["type"] = json!("string")),
            ("type-changed", "/properties/days/type"),
        ),
        (
            Box::new(|t| t["properties"]["unit"]["enum"] = json!(["c"])),
            ("enum-value-removed", "/properties/unit/enum"),
        ),
        (
            Box::new(|t| t["properties"]["days"]["maximum"] = json!(7)),
            ("bound-tightened", "/properties/days/maximum"),
        ),
        (
            Box::new(|t| t["properties"]["city"]["pattern"] = json!("^[A-Z]")),
            ("pattern-changed", "/properties/city/pattern"),
        ),
        (
            Box::new(|t| t["x-neuralis"]["defaults"] = json!({"days": 3})),
            ("default-changed", "/x-neuralis/defaults/days"),
        ),
        (
            Box::new(|t| t["properties"]["filter"]["properties"]["tag"]["type"] = json!("integer")),
            ("type-changed", "/properties/filter/properties/tag/type"),
        ),
        (
            Box::new(|t| t["properties"]["rows"]["items"]["properties"]["x"]["maximum"] = json!(9)),
            (
                "bound-tightened",
                "/properties/rows/items/properties/x/maximum",
            ),
        ),
        (
            Box::new(|t| {
                t["properties"]["days"] =
                    json!({"oneOf": [{"type": "integer"}, {"type": "string"}]})
            }),
            ("composition-changed", "/properties/days/oneOf"),
        ),
    ];
    for (change, (rule, pointer)) in cases {
        let mut new = base();
        change(&mut new);
        let (code, class, findings) = changed(base(), new);
        assert_eq!(class, "breaking", "{rule}: {findings:?}");
        assert_eq!(code, 1, "{rule}");
        assert!(
            findings.contains(&finding(rule, "breaking", pointer)),
            "{rule}: {findings:?}"
        );
    }
}

#[test]
fn additive_input_changes_pass() {
    let cases: Vec<Case> = vec![
        (
            Box::new(|t| t["properties"]["note"] = json!({"type": "string"})),
            ("property-added", "/properties/note"),
        ),
        (
            Box::new(|t| t["properties"]["unit"]["enum"] = json!(["c", "f", "k"])),
            ("enum-value-added", "/properties/unit/enum"),
        ),
        (
            Box::new(|t| t["properties"]["days"]["maximum"] = json!(30)),
            ("bound-loosened", "/properties/days/maximum"),
        ),
        (
            Box::new(|t| t["properties"]["days"]["type"] = json!("number")),
            ("type-changed", "/properties/days/type"),
        ),
        (
            Box::new(|t| t["required"] = json!([])),
            ("property-optional", "/properties/city"),
        ),
    ];
    for (change, (rule, pointer)) in cases {
        let mut new = base();
        change(&mut new);
        let (code, class, findings) = changed(base(), new);
        assert_eq!(
            (code, class.as_str()),
            (0, "additive"),
            "{rule}: {findings:?}"
        );
        assert!(
            findings.contains(&finding(rule, "additive", pointer)),
            "{rule}: {findings:?}"
        );
    }
    // The reverse of an additive change breaks.
    let mut wider = base();
    wider["properties"]["days"]["maximum"] = json!(30);
    let (_, class, _) = changed(wider, base());
    assert_eq!(class, "breaking");
}

#[test]
fn posture_and_cosmetic_changes_are_apart() {
    let posture: Vec<Case> = vec![
        (
            Box::new(|t| t["x-neuralis"]["annotations"]["destructiveHint"] = json!(false)),
            ("hint-changed", "/x-neuralis/annotations/destructiveHint"),
        ),
        (
            Box::new(|t| t["x-neuralis"]["askOnKeys"] = json!([])),
            ("ask-on-keys-changed", "/x-neuralis/askOnKeys"),
        ),
        (
            Box::new(|t| t["x-neuralis"]["annotations"]["category"] = json!("execute")),
            ("category-changed", "/x-neuralis/annotations/category"),
        ),
        (
            Box::new(|t| t["x-neuralis"]["requires"] = json!({"features": ["weather.read"]})),
            ("features-changed", "/x-neuralis/requires/features"),
        ),
    ];
    for (change, (rule, pointer)) in posture {
        let mut new = base();
        change(&mut new);
        let (code, class, findings) = changed(base(), new);
        assert_eq!(
            (code, class.as_str()),
            (1, "posture"),
            "{rule}: {findings:?}"
        );
        assert!(
            findings.contains(&finding(rule, "posture", pointer)),
            "{rule}: {findings:?}"
        );
    }
    let cosmetic: Vec<Case> = vec![
        (
            Box::new(|t| t["description"] = json!("Forecast the weather.")),
            ("annotation-changed", "/description"),
        ),
        (
            Box::new(|t| t["properties"]["city"]["description"] = json!("A city.")),
            ("annotation-changed", "/properties/city/description"),
        ),
        (
            Box::new(|t| t["x-neuralis"]["ui"] = json!({"icon": "cloud"})),
            ("ui-changed", "/x-neuralis/ui"),
        ),
        (
            Box::new(|t| t["x-neuralis"]["annotations"]["estimatedDurationMs"] = json!(500)),
            (
                "metadata-changed",
                "/x-neuralis/annotations/estimatedDurationMs",
            ),
        ),
    ];
    for (change, (rule, pointer)) in cosmetic {
        let mut new = base();
        change(&mut new);
        let (code, class, findings) = changed(base(), new);
        assert_eq!(
            (code, class.as_str()),
            (0, "cosmetic"),
            "{rule}: {findings:?}"
        );
        assert!(
            findings.contains(&finding(rule, "cosmetic", pointer)),
            "{rule}: {findings:?}"
        );
    }
    // `--allow posture`: reported, not failed.
    let mut new = base();
    new["x-neuralis"]["askOnKeys"] = json!([]);
    let (a, b) = (dir(&[("t.json", base())]), dir(&[("t.json", new)]));
    assert_eq!(diff(a.path(), b.path(), &["--allow", "posture"]).0, 0);
}

#[test]
fn outputs_are_read_the_other_way_round() {
    let out = |properties: Value, required: Value| {
        json!({"t": {"type": "object", "additionalProperties": false,
                     "properties": properties, "required": required}})
    };
    let old = out(
        json!({"ok": {"type": "boolean"}, "city": {"type": "string"},
               "sky": {"type": "string", "enum": ["sun", "rain"]}}),
        json!(["ok", "city", "sky"]),
    );
    let cases = [
        (
            out(
                json!({"ok": {"type": "boolean"}, "sky": {"type": "string", "enum": ["sun", "rain"]}}),
                json!(["ok", "sky"]),
            ),
            "breaking",
            ("output-property-removed", "/outputSchema/properties/city"),
        ),
        (
            out(
                json!({"ok": {"type": "boolean"}, "city": {"type": ["string", "null"]}, "sky": {"type": "string", "enum": ["sun", "rain"]}}),
                json!(["ok", "city", "sky"]),
            ),
            "breaking",
            ("type-changed", "/outputSchema/properties/city/type"),
        ),
        (
            out(
                json!({"ok": {"type": "boolean"}, "city": {"type": "string"}, "sky": {"type": "string", "enum": ["sun", "rain", "snow"]}}),
                json!(["ok", "city", "sky"]),
            ),
            "breaking",
            (
                "output-enum-value-added",
                "/outputSchema/properties/sky/enum",
            ),
        ),
        (
            out(
                json!({"ok": {"type": "boolean"}, "city": {"type": "string"}, "sky": {"type": "string", "enum": ["sun", "rain"]}, "high": {"type": "integer"}}),
                json!(["ok", "city", "sky", "high"]),
            ),
            "additive",
            ("output-property-added", "/outputSchema/properties/high"),
        ),
    ];
    let input = base();
    for (new, class, (rule, pointer)) in cases {
        let a = dir(&[("t.json", input.clone()), ("outputs.json", old.clone())]);
        let b = dir(&[("t.json", input.clone()), ("outputs.json", new)]);
        let (_, doc) = diff(a.path(), b.path(), &[]);
        let (got, findings) = of(&doc, "t");
        assert_eq!(got, class, "{rule}: {findings:?}");
        assert!(
            findings.contains(&finding(rule, class, pointer)),
            "{rule}: {findings:?}"
        );
    }
    let a = dir(&[("t.json", input.clone()), ("outputs.json", old)]);
    let b = dir(&[("t.json", input), ("outputs.json", json!({"t": null}))]);
    let (_, doc) = diff(a.path(), b.path(), &[]);
    assert_eq!(
        of(&doc, "t").1,
        [finding("output-removed", "breaking", "/outputSchema")]
    );
}

#[test]
fn a_rename_is_a_removal_and_an_addition_and_identical_trees_are_none() {
    let (a, b) = (
        dir(&[("old_name.json", base())]),
        dir(&[("new_name.json", base())]),
    );
    let (code, doc) = diff(a.path(), b.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        of(&doc, "old_name"),
        (
            "breaking".into(),
            vec![finding("tool-removed", "breaking", "")]
        )
    );
    assert_eq!(
        of(&doc, "new_name"),
        (
            "additive".into(),
            vec![finding("tool-added", "additive", "")]
        )
    );
    assert_eq!(doc["summary"]["breaking"], 1);
    assert_eq!(doc["summary"]["additive"], 1);
    // Every example against itself: `none` everywhere, exit 0.
    for package in std::fs::read_dir(repo().join("examples")).expect("examples") {
        let tools = package.expect("entry").path().join("tools");
        if !tools.is_dir() {
            continue;
        }
        let (code, doc) = diff(&tools, &tools, &[]);
        assert_eq!(code, 0, "{}", tools.display());
        for t in doc["tools"].as_array().expect("tools") {
            assert_eq!(t["class"], "none", "{}: {t}", tools.display());
            assert_eq!(t["findings"], json!([]));
        }
    }
}

/// `examples/catalog` as the previous release wrote it (before a unit enum's documented
/// values reached its description): one cosmetic change, said so; the Markdown form for a
/// pull request says the same.
#[test]
fn the_previous_release_of_an_example_gives_what_changed() {
    let previous =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/diff/previous-catalog");
    let now = repo().join("examples/catalog/tools");
    let (code, doc) = diff(&previous, &now, &[]);
    assert_eq!(code, 0);
    assert_eq!(
        of(&doc, "catalog_edit"),
        (
            "cosmetic".into(),
            vec![finding(
                "annotation-changed",
                "cosmetic",
                "/properties/status/description"
            )]
        )
    );
    assert_eq!(of(&doc, "catalog_list").0, "none");
    assert_eq!(of(&doc, "catalog_reindex").0, "none");
    let md = neuralis(&[
        "diff",
        "--format",
        "markdown",
        &previous.to_string_lossy(),
        &now.to_string_lossy(),
    ]);
    let text = String::from_utf8_lossy(&md.stdout);
    assert!(text.contains("| `catalog_edit` | **cosmetic** | cosmetic | `annotation-changed` | `/properties/status/description` |"), "{text}");
    let human = neuralis(&["diff", &previous.to_string_lossy(), &now.to_string_lossy()]);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(text.contains("catalog_edit: cosmetic"), "{text}");
    assert!(
        text.contains("summary: 0 breaking, 0 posture, 0 additive, 1 cosmetic, 2 unchanged"),
        "{text}"
    );
}

#[test]
fn bad_usage_and_unreadable_input_exit_2() {
    let a = dir(&[("t.json", base())]);
    let one = neuralis(&["diff", &a.path().to_string_lossy()]);
    assert_eq!(one.status.code(), Some(2));
    let missing = neuralis(&["diff", &a.path().to_string_lossy(), "/nonexistent/tools"]);
    assert_eq!(missing.status.code(), Some(2));
    let broken = tempfile::tempdir().expect("a temp dir");
    std::fs::write(broken.path().join("t.json"), "{ not json").expect("write");
    let out = neuralis(&[
        "diff",
        &a.path().to_string_lossy(),
        &broken.path().to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not JSON"));
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--since REV`: the old side from git, no checkout; a breaking change without a major
/// version step is flagged, with one it is not (and `--allow breaking` then passes).
#[test]
fn since_reads_git_and_checks_the_version_step() {
    let repo = tempfile::tempdir().expect("a temp dir");
    let root = repo.path();
    git(root, &["init", "-q"]);
    let manifest = |version: &str| {
        format!("[package]\nname = \"p\"\nversion = \"{version}\"\nedition = \"2024\"\n")
    };
    std::fs::create_dir_all(root.join("tools")).expect("mkdir");
    std::fs::write(root.join("Cargo.toml"), manifest("0.1.0")).expect("write");
    std::fs::write(root.join("tools/t.json"), base().to_string()).expect("write");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "one"]);
    let mut new = base();
    new["required"] = json!(["city", "days"]);
    std::fs::write(root.join("tools/t.json"), new.to_string()).expect("write");
    std::fs::write(root.join("Cargo.toml"), manifest("0.1.1")).expect("write");
    let tools = root.join("tools").to_string_lossy().into_owned();
    let run = |extra: &[&str]| {
        let mut args = vec!["diff", "--format", "json", "--since", "HEAD"];
        args.extend_from_slice(extra);
        args.push(&tools);
        let out = neuralis(&args);
        let doc: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
        (out.status.code().expect("a status"), doc)
    };
    let (code, doc) = run(&[]);
    assert_eq!(code, 1);
    assert_eq!(
        of(&doc, "t").1,
        [finding("property-required", "breaking", "/properties/days")]
    );
    assert_eq!(
        doc["version"],
        json!({"old": "0.1.0", "new": "0.1.1", "major_step": false, "flagged": true})
    );
    // The version step is its own failure: allowing breaking changes does not allow it.
    assert_eq!(
        run(&["--allow", "breaking"]).0,
        1,
        "the version step still fails"
    );
    assert_eq!(run(&["--allow", "breaking", "--allow", "posture"]).0, 1);
    assert_eq!(run(&["--allow", "version"]).0, 1, "the change still breaks");
    assert_eq!(
        run(&["--allow", "breaking", "--allow", "version"]).0,
        0,
        "both allowed"
    );
    std::fs::write(root.join("Cargo.toml"), manifest("0.2.0")).expect("write");
    let (code, doc) = run(&[]);
    assert_eq!(doc["version"]["flagged"], false, "{doc}");
    assert_eq!(code, 1, "still breaking");
    assert_eq!(run(&["--allow", "breaking"]).0, 0, "a major step: allowed");
    // Nothing changed since the commit: nothing to say.
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "two"]);
    let (code, doc) = run(&[]);
    assert_eq!(code, 0);
    assert_eq!(of(&doc, "t").0, "none");
    // A revision git does not know is unreadable input.
    let out = neuralis(&["diff", "--since", "no-such-rev", &tools]);
    assert_eq!(out.status.code(), Some(2));
    // A directory git holds nothing in at the revision: said so (exit 2), not every tool
    // read as new.
    std::fs::create_dir_all(root.join("untracked")).expect("mkdir");
    std::fs::write(root.join("untracked/t.json"), base().to_string()).expect("write");
    let untracked = root.join("untracked").to_string_lossy().into_owned();
    let out = neuralis(&["diff", "--since", "HEAD", &untracked]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("git has no file in") && stderr.contains("at HEAD"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

/// A key the old side required, made optional with a default: no valid old call left it
/// out, so the default changes no call (`default-added`, additive), whether the default
/// is the package's (`x-neuralis.defaults`) or the schema's (`default`), at the root or
/// nested. A default gained by a key that was already optional still breaks.
#[test]
fn a_required_key_made_optional_with_a_default_is_additive() {
    let mut old = base();
    old["required"] = json!(["city", "days"]);
    old["properties"]["filter"]["required"] = json!(["tag"]);
    let mut new = base();
    new["x-neuralis"]["defaults"] = json!({"days": 3});
    new["properties"]["filter"]["properties"]["tag"]["default"] = json!("all");
    let (code, class, findings) = changed(old.clone(), new.clone());
    assert_eq!(code, 0, "{findings:?}");
    assert_eq!(class, "additive");
    let mut findings = findings;
    findings.sort();
    assert_eq!(
        findings,
        [
            finding(
                "default-added",
                "additive",
                "/properties/filter/properties/tag/default"
            ),
            finding("default-added", "additive", "/x-neuralis/defaults/days"),
            finding("property-optional", "additive", "/properties/days"),
            finding(
                "property-optional",
                "additive",
                "/properties/filter/properties/tag"
            ),
        ]
    );
    // Optional before: a call that left it out now means something else.
    let mut optional = old;
    optional["required"] = json!(["city"]);
    optional["properties"]["filter"]
        .as_object_mut()
        .expect("filter")
        .remove("required");
    let (code, class, findings) = changed(optional, new);
    assert_eq!((code, class.as_str()), (1, "breaking"), "{findings:?}");
    let mut findings = findings;
    findings.sort();
    assert_eq!(
        findings,
        [
            finding(
                "default-changed",
                "breaking",
                "/properties/filter/properties/tag/default"
            ),
            finding("default-changed", "breaking", "/x-neuralis/defaults/days"),
        ]
    );
}

/// A tool with a breaking and a posture change: both classes listed and counted (JSON,
/// human, Markdown), and allowing one does not allow the other.
#[test]
fn every_class_a_tool_has_is_listed_and_counted() {
    let mut new = base();
    new["required"] = json!(["city", "days"]);
    new["x-neuralis"]["annotations"]["destructiveHint"] = json!(false);
    new["properties"]["unit"]["description"] = json!("The unit.");
    let (a, b) = (dir(&[("t.json", base())]), dir(&[("t.json", new)]));
    let (code, doc) = diff(a.path(), b.path(), &[]);
    assert_eq!(code, 1);
    let tool = &doc["tools"][0];
    assert_eq!(tool["class"], "breaking");
    assert_eq!(tool["classes"], json!(["breaking", "posture", "cosmetic"]));
    assert_eq!(
        doc["summary"],
        json!({"breaking": 1, "posture": 1, "additive": 0, "cosmetic": 1, "none": 0, "findings": 3})
    );
    assert_eq!(
        diff(a.path(), b.path(), &["--allow", "breaking"]).0,
        1,
        "posture still fails"
    );
    assert_eq!(
        diff(a.path(), b.path(), &["--allow", "posture"]).0,
        1,
        "breaking still fails"
    );
    assert_eq!(
        diff(
            a.path(),
            b.path(),
            &["--allow", "posture", "--allow", "breaking"]
        )
        .0,
        0
    );
    let (old, new) = (
        a.path().to_string_lossy().into_owned(),
        b.path().to_string_lossy().into_owned(),
    );
    let human = neuralis(&["diff", &old, &new]);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(text.contains("t: breaking, posture, cosmetic\n"), "{text}");
    assert!(
        text.contains("summary: 1 breaking, 1 posture, 0 additive, 1 cosmetic, 0 unchanged"),
        "{text}"
    );
    let md = neuralis(&["diff", "--format", "markdown", &old, &new]);
    let text = String::from_utf8_lossy(&md.stdout);
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("| `t` |")).collect();
    assert_eq!(rows.len(), 3, "{text}");
    for row in &rows {
        assert!(
            row.starts_with("| `t` | **breaking**, **posture**, **cosmetic** |"),
            "the tool's class on every row: {row}"
        );
    }
    assert!(
        rows.iter()
            .any(|r| r.contains("| posture | `hint-changed` |")),
        "{text}"
    );
}

/// A v1 to v2 release of an example package (`examples/weather`, its `Cargo.toml` and
/// `tools/`) through `diff --since` in a scratch git repository: a breaking change, a
/// posture change and the version step each seen, each allowed only by its own `--allow`.
#[test]
fn a_release_of_an_example_through_since() {
    let repo_dir = tempfile::tempdir().expect("a temp dir");
    let root = repo_dir.path();
    let example = repo().join("examples/weather");
    std::fs::create_dir_all(root.join("tools")).expect("mkdir");
    std::fs::copy(example.join("Cargo.toml"), root.join("Cargo.toml")).expect("copy");
    let file = "tools/weather_forecast.json";
    std::fs::copy(example.join(file), root.join(file)).expect("copy");
    git(root, &["init", "-q"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "v1"]);
    let text = std::fs::read_to_string(root.join(file)).expect("read");
    let mut v2: Value = serde_json::from_str(&text).expect("json");
    v2["required"] = json!(["city", "days"]);
    v2["x-neuralis"]["annotations"]["readOnlyHint"] = json!(false);
    std::fs::write(
        root.join(file),
        serde_json::to_string_pretty(&v2).expect("json"),
    )
    .expect("write");
    let tools = root.join("tools").to_string_lossy().into_owned();
    let run = |extra: &[&str]| {
        let mut args = vec!["diff", "--format", "json", "--since", "HEAD"];
        args.extend_from_slice(extra);
        args.push(&tools);
        let out = neuralis(&args);
        let doc: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
        (out.status.code().expect("a status"), doc)
    };
    let (code, doc) = run(&[]);
    assert_eq!(code, 1);
    assert_eq!(doc["tools"][0]["classes"], json!(["breaking", "posture"]));
    assert_eq!(doc["version"]["flagged"], true, "{doc}");
    assert_eq!(
        run(&["--allow", "breaking", "--allow", "posture"]).0,
        1,
        "the version step"
    );
    assert_eq!(
        run(&["--allow", "breaking", "--allow", "version"]).0,
        1,
        "the posture change"
    );
    assert_eq!(
        run(&["--allow", "posture", "--allow", "version"]).0,
        1,
        "the breaking change"
    );
    assert_eq!(
        run(&[
            "--allow", "breaking", "--allow", "posture", "--allow", "version"
        ])
        .0,
        0
    );
}
