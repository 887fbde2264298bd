//! `cargo build` in a temporary copy of `examples/weather`: what an author sees.
//!
//! The copies share one target directory (`target/example-copies`), so the dependencies
//! compile once.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const TOOL: &str = "tools/weather_forecast.json";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

struct Copy {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
}

impl Copy {
    /// A copy of `examples/<example>` whose package is renamed with `tag`: cargo's unit
    /// hashes leave out a path package's location, so two copies of one package would
    /// share (and fight over) their build-script outputs in the shared target directory.
    fn of(example: &str, tag: &str) -> Self {
        let repo = repo();
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join(example);
        copy_dir(&repo.join("examples").join(example), &dir);
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("manifest");
        let root = repo.to_string_lossy().replace('\\', "/");
        let manifest = manifest
            .replace(
                "path = \"../../build\"",
                &format!("path = \"{root}/build\""),
            )
            .replace("path = \"../..\"", &format!("path = \"{root}\""))
            .replace(
                &format!("name = \"neuralis-example-{example}\""),
                &format!("name = \"neuralis-example-{example}-{tag}\""),
            )
            + "\n[workspace]\n";
        std::fs::write(dir.join("Cargo.toml"), manifest).expect("manifest");
        std::fs::copy(repo.join("Cargo.lock"), dir.join("Cargo.lock")).expect("lock");
        Self { _tmp: tmp, dir }
    }

    /// The library keeps the example's crate name, so the copy's own tests build.
    fn keeping_lib_name(self, example: &str) -> Self {
        let manifest = self.dir.join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest).expect("manifest");
        assert!(!text.contains("[lib]"), "the example sets no [lib]");
        let text = format!("{text}\n[lib]\nname = \"neuralis_example_{example}\"\n");
        std::fs::write(manifest, text).expect("manifest");
        self
    }

    fn cargo_build(&self) -> Output {
        self.cargo(&["build", "--offline"])
    }

    fn cargo(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO"))
            .args(args)
            .current_dir(&self.dir)
            .env("CARGO_TARGET_DIR", repo().join("target/example-copies"))
            .env_remove("RUSTFLAGS")
            .output()
            .expect("cargo runs")
    }

    fn build(&self) {
        let out = self.cargo_build();
        assert!(
            out.status.success(),
            "cargo build failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn read(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.dir.join(rel)).expect("read")
    }

    fn edit(&self, rel: &str, from: &str, to: &str) {
        let path = self.dir.join(rel);
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.contains(from), "`{from}` is in {rel}");
        std::fs::write(path, text.replace(from, to)).expect("write");
    }
}

fn json(bytes: &[u8]) -> serde_json::Value {
    serde_json::from_slice(bytes).expect("json")
}

#[test]
fn builds_are_byte_stable_and_follow_the_source() {
    let copy = Copy::of("weather", "stable");
    let committed = copy.read(TOOL);
    copy.build();
    let first = copy.read(TOOL);
    assert_eq!(
        first, committed,
        "the committed file is what the build writes"
    );
    let mtime = std::fs::metadata(copy.dir.join(TOOL))
        .and_then(|m| m.modified())
        .expect("mtime");

    copy.build();
    assert_eq!(copy.read(TOOL), first, "two builds, identical bytes");
    let again = std::fs::metadata(copy.dir.join(TOOL))
        .and_then(|m| m.modified())
        .expect("mtime");
    assert_eq!(again, mtime, "an unchanged file is not rewritten");

    copy.edit(
        "src/tools.rs",
        "/// Forecast the weather for a city over the next few days.",
        "/// Forecast rain and sun for a city.",
    );
    copy.build();
    let edited = copy.read(TOOL);
    assert_eq!(
        json(&edited)["description"],
        "Forecast rain and sun for a city."
    );
    let next = copy.cargo(&["build", "--offline", "-v"]);
    let stderr = String::from_utf8_lossy(&next.stderr);
    assert!(
        !stderr.contains("Compiling neuralis-example-weather"),
        "the file written is not a change for the next build: no rerun, no recompile\n{stderr}"
    );

    std::fs::remove_dir_all(copy.dir.join("tools")).expect("rm tools");
    copy.build();
    assert_eq!(
        copy.read(TOOL),
        edited,
        "deleting tools/ restores identical bytes"
    );
}

#[test]
fn a_reserved_root_key_fails_with_the_macro_s_error() {
    let copy = Copy::of("weather", "reserved");
    copy.edit(
        "src/tools.rs",
        "    pub days: Option<u8>,\n",
        "    pub days: Option<u8>,\n    /// Who asks.\n    pub user_id: Option<String>,\n",
    );
    let out = copy.cargo_build();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    // The compiler's error is the one message: the build script, which skipped the tool,
    // adds none (cargo would show a warning of it twice, before and after the error).
    assert!(
        !stderr.contains("warning: neuralis-example-weather-reserved@"),
        "the build script leaves it to the compiler:\n{stderr}"
    );
    assert_eq!(
        stderr
            .matches("error: reserved-input-key: root property `userId`")
            .count(),
        1,
        "the macro's error, once:\n{stderr}"
    );
    assert!(
        stderr.contains("--> src/tools.rs:"),
        "spanned in the source:\n{stderr}"
    );
    assert!(
        !stderr.contains("failed to run custom build command"),
        "the build script does not fail:\n{stderr}"
    );
}

#[test]
fn the_drift_test_names_the_field_that_drifted() {
    // The file is the build's view: the build script runs without `cfg(test)`. A doc
    // line only test builds see makes the test build's composition drift from it, and
    // the generated drift test says where.
    let copy = Copy::of("weather", "drift");
    copy.edit(
        "src/tools.rs",
        "    /// Days ahead.\n",
        "    /// Days ahead.\n    #[cfg_attr(test, doc = \"Counted from today.\")]\n",
    );
    let out = copy.cargo(&["test", "--offline", "--lib"]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("neuralis_package::drift::drift_weather_forecast"),
        "{text}"
    );
    assert!(
        text.contains(
            "tools/weather_forecast.json drifted from the run-time composition of its handler: `/properties/days/description`"
        ),
        "{text}"
    );
}

#[test]
fn the_table_and_its_drift_tests_compile_for_every_tool_name() {
    let copy = Copy::of("weather", "names");
    let path = copy.dir.join("src/tools.rs");
    let mut text = std::fs::read_to_string(&path).expect("read");
    text.push_str(
        r#"
/// Weather alerts for a city.
#[tool(
    name = "weather-alerts",
    annotations(read_only, category = "network"),
    ui(presentation = "inline")
)]
pub(crate) fn r#alerts(input: WeatherForecast) -> Vec<String> {
    vec![input.city]
}
"#,
    );
    std::fs::write(&path, text).expect("write");
    let out = copy.cargo(&["test", "--offline", "--lib"]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("drift::drift_weather_alerts ... ok"),
        "{text}"
    );
    assert!(
        text.contains("drift::drift_weather_forecast ... ok"),
        "{text}"
    );
    assert!(copy.dir.join("tools/weather-alerts.json").is_file());
}

/// Each tool's output schema as the built copy serves it (`ToolDescriptor::output`), read
/// by a test written into the copy.
fn served_outputs(copy: &Copy) -> String {
    let krate = "neuralis_example_catalog";
    std::fs::write(
        copy.dir.join("tests/served_outputs.rs"),
        format!(
            "#[test]\nfn served_outputs() {{\n    for d in {krate}::neuralis_package::TOOLS {{\n        \
             let schema = (d.output)().map(|o| o.schema().clone());\n        \
             println!(\"OUTPUT {{}} {{}}\", d.name, serde_json::to_string(&schema).expect(\"json\"));\n    }}\n}}\n"
        ),
    )
    .expect("write the test");
    let out = copy.cargo(&[
        "test",
        "--offline",
        "--test",
        "served_outputs",
        "--",
        "--nocapture",
    ]);
    assert!(
        out.status.success(),
        "the copy's test failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("OUTPUT "))
        .collect();
    assert_eq!(lines.len(), 3, "three tools:\n{stdout}");
    lines.join("\n")
}

/// `examples/catalog` as it stood before `#[derive(ToolInput)]` gave outputs too (issue 31):
/// its shared `Status` derives both `ToolInput` and `ToolOutput`. It still builds (no
/// conflicting implementations), writes the same `tools/`, passes its own tests and serves
/// the same output schemas as the example today, which derives `ToolInput` alone.
#[test]
fn a_package_written_for_the_previous_release_builds_and_serves_the_same_schemas() {
    let previous = Copy::of("catalog", "previous").keeping_lib_name("catalog");
    let fixture = repo().join("build/tests/fixtures/previous-release/catalog/src/store.rs");
    let old = std::fs::read_to_string(&fixture).expect("the fixture");
    assert!(
        old.contains("#[derive(ToolInput, ToolOutput,"),
        "both derives on one type"
    );
    std::fs::write(previous.dir.join("src/store.rs"), old).expect("write store.rs");
    let committed: Vec<(String, Vec<u8>)> = ["catalog_edit", "catalog_list", "catalog_reindex"]
        .iter()
        .map(|t| {
            (
                format!("tools/{t}.json"),
                previous.read(&format!("tools/{t}.json")),
            )
        })
        .collect();
    previous.build();
    for (file, bytes) in &committed {
        assert_eq!(&previous.read(file), bytes, "{file} is written as before");
    }
    let out = previous.cargo(&["test", "--offline", "--test", "tools"]);
    assert!(
        out.status.success(),
        "the package's own tests pass:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let now = Copy::of("catalog", "now").keeping_lib_name("catalog");
    assert_eq!(
        served_outputs(&previous),
        served_outputs(&now),
        "one derive or two, the same output schemas"
    );
}
