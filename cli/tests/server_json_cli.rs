//! `neuralis server-json` end to end: the MCP Registry entry of `examples/serve` and of a
//! package with remotes and environment variables, valid against the pinned 2025-12-11
//! schema; the committed `examples/serve/server.json` kept to its `Cargo.toml` (the drift
//! check its README names); `--check` catching a drifted version, a changed description
//! and a missing `mcp-name:` line; and the refusals the registry would make, each naming
//! its `Cargo.toml` key.

#![allow(clippy::unwrap_used, reason = "tests")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

/// The registry's schema, vendored (see `fixtures/server-json/README.md`), and its sha256.
const SCHEMA: &str = include_str!("fixtures/server-json/server.schema.json");
const SCHEMA_SHA256: &str = "578b5bb01866d060ff6a67734cf6b2f17a5da283a0877775c7913e4761a626e5";

fn neuralis(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_neuralis"))
        .args(args)
        .output()
        .expect("neuralis runs")
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every error of `entry` against the pinned schema.
fn schema_errors(entry: &Value) -> Vec<String> {
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(SCHEMA.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, SCHEMA_SHA256, "the vendored registry schema changed");
    let schema: Value = serde_json::from_str(SCHEMA).unwrap();
    assert_eq!(
        schema["$id"],
        "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
    );
    let validator = jsonschema::validator_for(&schema).unwrap();
    validator
        .iter_errors(entry)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// The entry printed for `dir`, checked valid.
fn entry(dir: &Path) -> Value {
    let out = neuralis(&["server-json", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let entry: Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = schema_errors(&entry);
    assert!(errors.is_empty(), "{errors:?}\n{entry:#}");
    assert_eq!(entry["$schema"], SCHEMA_URL);
    entry
}

const SCHEMA_URL: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

const MANIFEST: &str = r#"[package]
name = "acme-weather"
version = "1.4.2"
description = "Forecasts and alerts for any city"
repository = "https://github.com/acme/weather"
homepage = "https://acme.example/weather"

[package.metadata.neuralis.registry]
name = "io.github.acme/weather"
title = "Acme Weather"
packageArguments = [{ type = "named", name = "--mcp" }]

[[package.metadata.neuralis.registry.environmentVariables]]
name = "ACME_API_KEY"
description = "Your Acme API key"
isRequired = true
isSecret = true

[[package.metadata.neuralis.registry.environmentVariables]]
name = "ACME_UNITS"
choices = ["metric", "imperial"]
default = "metric"

[[package.metadata.neuralis.registry.remotes]]
url = "https://weather.acme.example/mcp"
headers = [
    { name = "Authorization", value = "Bearer {token}", isRequired = true, isSecret = true, variables = { token = { description = "An Acme token", isRequired = true, isSecret = true } } },
]
"#;

const README: &str = "# Acme Weather\n\n- MCP Registry name: `mcp-name: io.github.acme/weather`\n";

/// A package with `manifest` and `readme` (none when `None`) in a fresh directory.
fn package(manifest: &str, readme: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
    if let Some(readme) = readme {
        std::fs::write(dir.path().join("README.md"), readme).unwrap();
    }
    dir
}

#[test]
fn examples_serve_server_json_is_what_its_cargo_toml_says() {
    let dir = repo().join("examples/serve");
    let file = dir.join("server.json");
    // The drift check examples/serve/README.md names.
    let out = neuralis(&[
        "server-json",
        dir.to_str().unwrap(),
        "--check",
        file.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "examples/serve/server.json drifted from its Cargo.toml:\n{}",
        stderr(&out)
    );
    let entry = entry(&dir);
    let committed: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(entry, committed);
    assert_eq!(entry["name"], "io.github.neuralis-rs/example-serve");
    assert_eq!(
        entry["packages"][0],
        json!({
            "registryType": "cargo",
            "registryBaseUrl": "https://crates.io",
            "identifier": "neuralis-example-serve",
            "version": entry["version"],
            "transport": {"type": "stdio"},
            "packageArguments": [{"name": "--mcp", "type": "named"}],
            "environmentVariables": entry["packages"][0]["environmentVariables"],
        })
    );
    // Its repository is on no forge the registry takes: left out, and said so.
    assert!(entry.get("repository").is_none());
}

#[test]
fn a_package_with_remotes_and_environment_variables() {
    let dir = package(MANIFEST, Some(README));
    let entry = entry(dir.path());
    assert_eq!(
        entry,
        json!({
            "$schema": SCHEMA_URL,
            "name": "io.github.acme/weather",
            "title": "Acme Weather",
            "description": "Forecasts and alerts for any city",
            "version": "1.4.2",
            "websiteUrl": "https://acme.example/weather",
            "repository": {"url": "https://github.com/acme/weather", "source": "github"},
            "packages": [{
                "registryType": "cargo",
                "registryBaseUrl": "https://crates.io",
                "identifier": "acme-weather",
                "version": "1.4.2",
                "transport": {"type": "stdio"},
                "packageArguments": [{"name": "--mcp", "type": "named"}],
                "environmentVariables": [
                    {"description": "Your Acme API key", "isRequired": true, "isSecret": true, "name": "ACME_API_KEY"},
                    {"choices": ["metric", "imperial"], "default": "metric", "name": "ACME_UNITS"},
                ],
            }],
            "remotes": [{
                "type": "streamable-http",
                "headers": [{
                    "isRequired": true, "isSecret": true, "name": "Authorization",
                    "value": "Bearer {token}",
                    "variables": {"token": {"description": "An Acme token", "isRequired": true, "isSecret": true}},
                }],
                "url": "https://weather.acme.example/mcp",
            }],
        })
    );
    // What it printed passes its own check.
    let file = dir.path().join("server.json");
    let out = neuralis(&["server-json", dir.path().to_str().unwrap()]);
    std::fs::write(&file, &out.stdout).unwrap();
    let out = neuralis(&[
        "server-json",
        dir.path().to_str().unwrap(),
        "--check",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
fn keys_inherited_from_the_workspace_are_read_there() {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(
        root.path().join("Cargo.toml"),
        "[workspace]\nmembers = [\"weather\"]\n\n[workspace.package]\nversion = \"2.0.1\"\nrepository = \"https://gitlab.com/acme/tools\"\n",
    )
    .unwrap();
    let dir = root.path().join("weather");
    std::fs::create_dir(&dir).unwrap();
    let manifest = MANIFEST
        .replace("version = \"1.4.2\"", "version.workspace = true")
        .replace(
            "repository = \"https://github.com/acme/weather\"",
            "repository.workspace = true",
        )
        .replace("title = \"Acme Weather\"", "subfolder = \"weather\"");
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("README.md"), README).unwrap();
    let entry = entry(&dir);
    assert_eq!(entry["version"], "2.0.1");
    assert_eq!(entry["packages"][0]["version"], "2.0.1");
    assert_eq!(
        entry["repository"],
        json!({"url": "https://gitlab.com/acme/tools", "source": "gitlab", "subfolder": "weather"})
    );
}

/// `--check` of `dir`'s entry written before `change` against the manifest after it.
fn check_after(change: impl FnOnce(&Path)) -> Output {
    let dir = package(MANIFEST, Some(README));
    let file = dir.path().join("server.json");
    let out = neuralis(&["server-json", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(&file, &out.stdout).unwrap();
    change(dir.path());
    neuralis(&[
        "server-json",
        dir.path().to_str().unwrap(),
        "--check",
        file.to_str().unwrap(),
    ])
}

fn edit(dir: &Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{from}");
    std::fs::write(&path, text.replace(from, to)).unwrap();
}

#[test]
fn check_catches_a_drifted_version() {
    let out = check_after(|dir| {
        edit(
            dir,
            "Cargo.toml",
            "version = \"1.4.2\"",
            "version = \"1.5.0\"",
        );
    });
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("`/version`: \"1.4.2\" in the file, \"1.5.0\" from Cargo.toml"),
        "{err}"
    );
    assert!(err.contains("`/packages/0/version`"), "{err}");
    assert!(
        err.contains("write it again: neuralis server-json"),
        "{err}"
    );
}

#[test]
fn check_catches_a_changed_description() {
    let out = check_after(|dir| {
        edit(
            dir,
            "Cargo.toml",
            "Forecasts and alerts for any city",
            "Forecasts for any city",
        );
    });
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("`/description`"), "{err}");
    assert!(!err.contains("`/version`"), "{err}");
}

#[test]
fn check_catches_a_missing_mcp_name_line() {
    let out = check_after(|dir| {
        std::fs::write(dir.join("README.md"), "# Acme Weather\n").unwrap();
    });
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("lacks the line `mcp-name: io.github.acme/weather`"),
        "{err}"
    );
    assert!(
        !err.contains("is not what"),
        "the entry itself is unchanged: {err}"
    );

    // In an HTML comment, crates.io strips it.
    let out = check_after(|dir| {
        std::fs::write(
            dir.join("README.md"),
            "# Acme\n<!-- mcp-name: io.github.acme/weather -->\n",
        )
        .unwrap();
    });
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("hides in an HTML comment"),
        "{}",
        stderr(&out)
    );

    // A longer name is not this one.
    let out = check_after(|dir| {
        std::fs::write(
            dir.join("README.md"),
            "mcp-name: io.github.acme/weather-pro\n",
        )
        .unwrap();
    });
    assert_eq!(out.status.code(), Some(1));

    // No README at all.
    let out = check_after(|dir| std::fs::remove_file(dir.join("README.md")).unwrap());
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("has no README"), "{}", stderr(&out));
}

/// The errors `server-json` prints for a package whose manifest is `manifest`.
fn refused(manifest: &str) -> String {
    let dir = package(manifest, Some(README));
    let out = neuralis(&["server-json", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    stderr(&out)
}

#[test]
fn what_the_registry_refuses_is_an_error_on_its_cargo_toml_key() {
    let long = "x".repeat(101);
    let err = refused(&MANIFEST.replace("Forecasts and alerts for any city", &long));
    assert!(
        err.contains("`package.description` in") && err.contains("has 101 characters"),
        "{err}"
    );

    for range in [
        "^1.4.2",
        "~1.4",
        ">=1.0.0",
        "1.x",
        "1.*",
        "1.0 || 2.0",
        "latest",
    ] {
        let err =
            refused(&MANIFEST.replace("version = \"1.4.2\"", &format!("version = \"{range}\"")));
        assert!(err.contains("`package.version` in"), "{range}: {err}");
        assert!(err.contains("one exact version"), "{range}: {err}");
    }

    for name in [
        "acme-weather",
        "io.github.acme/weather/v2",
        "io.github.acme/-weather",
    ] {
        let err = refused(&MANIFEST.replace("io.github.acme/weather", name));
        assert!(
            err.contains("`package.metadata.neuralis.registry.name` in"),
            "{name}: {err}"
        );
    }
    let err = refused(&MANIFEST.replace("io.github.acme/weather", "acme-weather"));
    assert!(err.contains("exactly one `/`"), "{err}");

    for url in [
        "http://weather.acme.example/mcp",
        "https://localhost:8080/mcp",
    ] {
        let err = refused(&MANIFEST.replace("https://weather.acme.example/mcp", url));
        assert!(
            err.contains("`package.metadata.neuralis.registry.remotes[0].url` in"),
            "{url}: {err}"
        );
    }

    let err = refused(&MANIFEST.replace("title = ", "titel = "));
    assert!(
        err.contains("`package.metadata.neuralis.registry.titel` in") && err.contains("title"),
        "{err}"
    );

    let cut = MANIFEST.find("[package.metadata").unwrap();
    let err = refused(&MANIFEST[..cut]);
    assert!(
        err.contains("has no `[package.metadata.neuralis.registry]`")
            && err.contains("io.github.<owner>/acme-weather"),
        "{err}"
    );
}

#[test]
fn an_unreadable_package_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = neuralis(&["server-json", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
}
