//! `cargo build` of scratch packages, one per mistake that used to pass silently or make
//! the build script panic: the build fails, names the rule id and the `file:line:col` of
//! the offending token, and shows no panic and no backtrace.
//!
//! The packages share one target directory (`target/example-copies`) with
//! `examples_build.rs`, so the dependencies compile once.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// Builds a package named `neuralis-scratch-<name>` whose `src/lib.rs` is `lib` (with
/// the README's `build.rs`), and returns cargo's exit status and output.
fn build(name: &str, lib: &str) -> (bool, String) {
    let repo = repo();
    let root = repo.to_string_lossy().replace('\\', "/");
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join(name);
    std::fs::create_dir_all(dir.join("src")).expect("mkdir");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            r#"[package]
name = "neuralis-scratch-{name}"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
neuralis = {{ path = "{root}" }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"
chrono = {{ version = "0.4", default-features = false }}

[build-dependencies]
neuralis-build = {{ path = "{root}/build" }}

[workspace]
"#
        ),
    )
    .expect("manifest");
    std::fs::write(
        dir.join("build.rs"),
        "fn main() {\n    neuralis_build::emit();\n}\n",
    )
    .expect("build.rs");
    std::fs::write(dir.join("src/lib.rs"), lib).expect("lib.rs");
    std::fs::copy(repo.join("Cargo.lock"), dir.join("Cargo.lock")).expect("lock");
    let out = Command::new(env!("CARGO"))
        .args(["build", "--offline", "--color", "never"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", repo.join("target/example-copies"))
        .env("RUST_BACKTRACE", "1")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// The build fails with `rule` at `at` (`src/lib.rs:line:col`), with no panic.
#[track_caller]
fn fails_with(name: &str, lib: &str, rule: &str, at: &str) -> String {
    let (ok, text) = build(name, lib);
    assert!(!ok, "the build must fail:\n{text}");
    assert!(text.contains(rule), "names `{rule}`:\n{text}");
    assert!(text.contains(at), "points at `{at}`:\n{text}");
    assert!(
        !text.contains("panicked at") && !text.contains("stack backtrace"),
        "no panic, no backtrace:\n{text}"
    );
    text
}

const HEADER: &str = "use neuralis::{ToolInput, tool};\nuse serde::Deserialize;\n";

#[test]
fn a_default_outside_an_enum_fails_the_build() {
    let text = fails_with(
        "enum-default",
        &format!(
            r#"{HEADER}
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Urgency {{ Low, High }}

#[derive(ToolInput, Deserialize)]
pub struct Issue {{ pub title: String, pub urgency: Option<Urgency> }}

/// Create an issue.
#[tool(defaults(urgency = "medium"), annotations(category = "write"), ui(presentation = "inline"))]
pub fn issue_create(input: Issue) -> String {{ input.title }}
"#
        ),
        "defaults-undeclared",
        "src/lib.rs:12:27",
    );
    assert!(
        !text.contains("skipped issue_create"),
        "never dropped:\n{text}"
    );
}

#[test]
fn a_schema_default_outside_an_enum_fails_the_build() {
    fails_with(
        "schema-default",
        &format!(
            r#"{HEADER}
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Urgency {{ Low, High }}

#[derive(ToolInput, Deserialize)]
pub struct Issue {{
    pub title: String,
    #[schema(default = "medium")]
    pub urgency: Option<Urgency>,
}}

/// Create an issue.
#[tool(annotations(category = "write"), ui(presentation = "inline"))]
pub fn issue_create(input: Issue) -> String {{ input.title }}
"#
        ),
        "schema-attr",
        "src/lib.rs:11:24",
    );
}

#[test]
fn another_crate_s_type_is_not_a_local_namesake() {
    fails_with(
        "foreign-item",
        &format!(
            r#"{HEADER}
mod local {{
    #[derive(neuralis::ToolInput, serde::Deserialize)]
    pub struct Item {{ pub n: u8 }}
}}

use serde_json::Number as Item;

#[derive(ToolInput, Deserialize)]
pub struct Order {{ pub item: Item }}

/// Place an order.
#[tool(annotations(category = "write"), ui(presentation = "inline"))]
pub fn order(input: Order) -> String {{ input.item.to_string() }}
"#
        ),
        "unsupported-type",
        "src/lib.rs:12:30",
    );
}

#[test]
fn a_well_known_crate_s_unsupported_type_is_an_error_not_a_panic() {
    fails_with(
        "time-delta",
        &format!(
            r#"{HEADER}
#[derive(ToolInput, Deserialize)]
pub struct Wait {{ pub delay: chrono::TimeDelta }}

/// Wait.
#[tool(annotations(category = "execute"), ui(presentation = "inline"))]
pub fn wait(input: Wait) -> String {{ input.delay.to_string() }}
"#
        ),
        "unsupported-type",
        "src/lib.rs:5:30",
    );
}

#[test]
fn a_std_type_with_no_schema_is_an_error_not_a_panic() {
    fails_with(
        "range",
        &format!(
            r#"{HEADER}
#[derive(ToolInput, Deserialize)]
pub struct Window {{ pub span: std::ops::Range<std::time::SystemTime> }}

/// Look.
#[tool(annotations(category = "read"), ui(presentation = "inline"))]
pub fn look(input: Window) -> String {{ format!("{{:?}}", input.span) }}
"#
        ),
        "unsupported-type",
        "src/lib.rs:5:31",
    );
}

#[test]
fn another_crate_s_type_in_a_generic_is_reported_at_the_use() {
    fails_with(
        "generic-use",
        &format!(
            r#"{HEADER}
#[derive(ToolInput, Deserialize)]
pub struct Page<T> {{ pub items: Vec<T> }}

#[derive(ToolInput, Deserialize)]
pub struct Numbers {{ pub page: Page<serde_json::Number> }}

/// Sum.
#[tool(annotations(category = "read"), ui(presentation = "inline"))]
pub fn sum(input: Numbers) -> String {{ input.page.items.len().to_string() }}
"#
        ),
        "unsupported-type",
        "src/lib.rs:8:32",
    );
}
