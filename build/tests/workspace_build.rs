//! `cargo build` and `cargo test` of a scratch workspace whose tool package reads types
//! from other crates through cargo itself: `links` + `cargo::metadata` hand each types
//! crate's table to its direct dependents' build scripts, a renamed dependency goes by
//! its key, and a re-export chain crosses two crates (the tool package depends on
//! `mid` only, which re-exports `base`).
//!
//! Shares `target/example-copies` with `examples_build.rs`, so the dependencies compile
//! once; the package names are this file's own, so no build output is shared.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

struct Ws {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
}

impl Ws {
    fn new(files: &[(&str, &str)]) -> Self {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("ws");
        let root = repo().to_string_lossy().replace('\\', "/");
        for (rel, text) in files {
            let p = dir.join(rel);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("dirs");
            std::fs::write(p, text.replace("{root}", &root)).expect("write");
        }
        std::fs::copy(repo().join("Cargo.lock"), dir.join("Cargo.lock")).expect("lock");
        Self { _tmp: tmp, dir }
    }

    fn cargo(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO"))
            .args(args)
            .current_dir(&self.dir)
            .env("CARGO_TARGET_DIR", repo().join("target/example-copies"))
            .env("RUST_BACKTRACE", "1")
            .env_remove("RUSTFLAGS")
            .output()
            .expect("cargo runs")
    }

    fn read(&self, rel: &str) -> serde_json::Value {
        let text = std::fs::read_to_string(self.dir.join(rel)).expect("read");
        serde_json::from_str(&text).expect("json")
    }
}

fn output(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

const WORKSPACE: &str = r#"[workspace]
members = ["base", "mid", "tools"]
resolver = "3"
"#;

fn types_manifest(name: &str, deps: &str) -> String {
    format!(
        r#"[package]
name = "{name}"
version = "0.0.0"
edition = "2024"
publish = false
links = "{name}"

[dependencies]
neuralis = {{ path = "{{root}}" }}
serde = {{ version = "1", features = ["derive"] }}
{deps}

[build-dependencies]
neuralis-build = {{ path = "{{root}}/build" }}
"#
    )
}

const BUILD_RS: &str = "fn main() {\n    neuralis_build::emit();\n}\n";

const BASE: &str = r#"
pub mod people {
    /// A person.
    #[derive(neuralis::ToolInput, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct Person {
        /// Their id.
        pub person_id: String,
    }
}

/// Which page.
#[derive(neuralis::ToolInput, serde::Deserialize)]
pub struct Paging {
    /// From 1.
    #[schema(minimum = 1)]
    pub page: Option<u32>,
}

/// Not an input.
pub struct Opaque;
"#;

// `mid` calls `base` `core_types`, and re-exports it under other names.
const MID: &str = r#"
pub use core_types::people::Person as Owner;
pub use core_types::Opaque;
pub mod prelude {
    pub use core_types::Paging;
}
"#;

const TOOLS_MANIFEST: &str = r#"[package]
name = "neuralis-ws-tools"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
neuralis = { path = "{root}" }
serde = { version = "1", features = ["derive"] }
shared = { package = "neuralis-ws-mid", path = "../mid" }

[build-dependencies]
neuralis-build = { path = "{root}/build" }
"#;

const TOOLS: &str = r#"
use neuralis::{ToolInput, tool};
use shared::prelude::*;

/// The input.
#[derive(ToolInput, serde::Deserialize)]
pub struct Assign {
    /// Who owns it.
    pub owner: shared::Owner,
    #[serde(flatten)]
    pub paging: Paging,
}

/// Assign an owner.
#[tool(defaults(page = 1), annotations(category = "write"), ui(presentation = "inline"))]
pub fn assign(input: Assign) -> String {
    input.owner.person_id
}

neuralis::package!();
"#;

/// The workspace, its packages named `neuralis-ws-<tag>-*`: cargo's unit hashes leave
/// out a path package's location, so two tests' packages of one name would share (and
/// fight over) their outputs in the shared target directory.
fn workspace(tag: &str, tools: &str) -> Ws {
    let named = |text: &str| text.replace("neuralis-ws-", &format!("neuralis-ws-{tag}-"));
    Ws::new(&[
        ("Cargo.toml", WORKSPACE),
        (
            "base/Cargo.toml",
            &named(&types_manifest("neuralis-ws-base", "")),
        ),
        ("base/build.rs", BUILD_RS),
        ("base/src/lib.rs", BASE),
        (
            "mid/Cargo.toml",
            &named(&types_manifest(
                "neuralis-ws-mid",
                "core_types = { package = \"neuralis-ws-base\", path = \"../base\" }",
            )),
        ),
        ("mid/build.rs", BUILD_RS),
        ("mid/src/lib.rs", MID),
        ("tools/Cargo.toml", &named(TOOLS_MANIFEST)),
        ("tools/build.rs", BUILD_RS),
        ("tools/src/lib.rs", tools),
    ])
}

#[test]
fn a_renamed_re_exported_type_of_another_crate_builds_and_matches_the_run_time() {
    const PKG: &str = "neuralis-ws-chain-tools";
    let ws = workspace("chain", TOOLS);
    let out = ws.cargo(&["build", "--offline", "-p", PKG]);
    assert!(out.status.success(), "{}", output(&out));
    let out = ws.cargo(&["test", "--offline", "-p", PKG, "--lib"]);
    let text = output(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("drift::drift_assign ... ok"), "{text}");
    let doc = ws.read("tools/tools/assign.json");
    assert_eq!(
        doc["properties"]["owner"]["properties"]["personId"]["type"],
        "string"
    );
    assert_eq!(doc["properties"]["page"]["minimum"], 1, "flattened");
    assert!(
        !ws.dir.join("base/tools").exists() && !ws.dir.join("mid/tools").exists(),
        "the types crates write no tools/"
    );

    // Nothing changed: nothing reruns.
    let again = ws.cargo(&["build", "--offline", "-v", "-p", PKG]);
    let again = String::from_utf8_lossy(&again.stderr);
    assert!(
        !again.contains("Running `") && !again.contains("Compiling neuralis-ws-"),
        "{again}"
    );

    // An edit in the crate that defines the type reaches the tool file.
    let base = ws.dir.join("base/src/lib.rs");
    let edited = BASE.replace("/// Their id.", "/// Their id, as the directory knows it.");
    std::fs::write(&base, edited).expect("write");
    let out = ws.cargo(&["build", "--offline", "-p", PKG]);
    assert!(out.status.success(), "{}", output(&out));
    assert_eq!(
        ws.read("tools/tools/assign.json")["properties"]["owner"]["properties"]["personId"]["description"],
        "Their id, as the directory knows it."
    );
}

#[test]
fn a_foreign_type_that_derives_nothing_fails_the_build_cleanly() {
    const PKG: &str = "neuralis-ws-opaque-tools";
    let tools = |path: &str| {
        TOOLS.replace(
            "pub owner: shared::Owner,",
            &format!("pub owner: shared::Owner,\n    /// No schema.\n    pub opaque: {path},"),
        )
    };
    let ws = workspace("opaque", &tools("shared::Opaque"));
    let out = ws.cargo(&["build", "--offline", "-p", PKG]);
    let text = output(&out);
    assert!(!out.status.success(), "{text}");
    let lib = ws.dir.join("tools/src/lib.rs");
    assert!(
        text.contains("error: unsupported-type: type `shared::Opaque` of field `opaque` in `Assign` does not derive `ToolInput`"),
        "{text}"
    );
    assert!(
        text.contains(&format!("--> {}:11:17\n", lib.display())),
        "{text}"
    );
    assert!(
        !text.contains("panicked at") && !text.contains("stack backtrace"),
        "{text}"
    );

    // `core_types` is `mid`'s name for `base`, not the tool package's: the compiler
    // reports the path, and the build script says whose name it is.
    std::fs::write(&lib, tools("core_types::Opaque")).expect("write");
    let out = ws.cargo(&["build", "--offline", "-p", PKG]);
    let text = output(&out);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("unresolved module or unlinked crate `core_types`")
            && !text.contains("failed to run custom build command")
            && !text.contains("unsupported-type"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "`core_types` is not a dependency of this package: it is `shared`'s name for its dependency `neuralis-ws-opaque-base`; add `neuralis-ws-opaque-base` to `[dependencies]` to name it here --> {}:11:17",
            lib.display()
        )),
        "{text}"
    );
    assert!(
        !text.contains("panicked at") && !text.contains("stack backtrace"),
        "{text}"
    );
}
