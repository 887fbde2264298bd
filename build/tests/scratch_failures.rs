//! `cargo build` of scratch packages, one per mistake that used to pass silently or make
//! the build script panic: the build fails, names the rule id and the `file:line:col` of
//! the offending token (an absolute path), shows the source line with a caret, and shows
//! no panic and no backtrace. A path the compiler reports itself is left to it.
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

/// What a scratch build did.
struct Built {
    ok: bool,
    /// cargo's stdout and stderr.
    text: String,
    /// The package directory (removed when this is dropped).
    dir: PathBuf,
    _tmp: tempfile::TempDir,
}

/// Builds a package named `neuralis-scratch-<name>` whose `src/lib.rs` is `lib` (with
/// the README's `build.rs`), and returns cargo's exit status and output.
fn build(name: &str, lib: &str) -> Built {
    build_with(name, lib, "", &[])
}

/// [`build`], with more lines in `[dependencies]` and more files beside the package
/// (`../<path>` from it).
fn build_with(name: &str, lib: &str, deps: &str, beside: &[(&str, &str)]) -> Built {
    let repo = repo();
    let root = repo.to_string_lossy().replace('\\', "/");
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join(name);
    std::fs::create_dir_all(dir.join("src")).expect("mkdir");
    for (rel, text) in beside {
        let p = tmp.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text.replace("{root}", &root)).expect("write");
    }
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
{deps}

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
    Built {
        ok: out.status.success(),
        text,
        dir,
        _tmp: tmp,
    }
}

/// The build fails with one error, `rule` at `at` (`src/lib.rs:line:col`), shown as rustc
/// shows its own: `error: rule: ...`, then `--> /absolute/path:line:col`, the source line
/// and a caret under the token, the help in the same block; no panic, no backtrace.
#[track_caller]
fn fails_with(name: &str, lib: &str, rule: &str, at: &str) -> String {
    fails_with_manifest(name, lib, "", rule, at)
}

/// [`fails_with`] with more lines in the manifest (after `[dependencies]`).
#[track_caller]
fn fails_with_manifest(name: &str, lib: &str, manifest: &str, rule: &str, at: &str) -> String {
    let b = build_with(name, lib, manifest, &[]);
    let text = &b.text;
    assert!(!b.ok, "the build must fail:\n{text}");
    assert!(
        !text.contains("panicked at") && !text.contains("stack backtrace"),
        "no panic, no backtrace:\n{text}"
    );
    let lines: Vec<&str> = text.lines().collect();
    let heads: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            lines[i]
                .trim_start()
                .starts_with(&format!("error: {rule}: "))
        })
        .collect();
    assert_eq!(heads.len(), 1, "one `{rule}` error:\n{text}");
    // Nothing else is an error of its own but cargo's frame around the report.
    let errors: Vec<&str> = lines
        .iter()
        .map(|l| l.trim_start())
        .filter(|l| l.starts_with("error"))
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}\n{text}");
    assert!(
        errors[0].starts_with(&format!(
            "error: failed to run custom build command for `neuralis-scratch-{name} "
        )),
        "{text}"
    );
    let block = &lines[heads[0]..];
    // `--> path:line:col`, the path absolute and the file there.
    let mut parts = at.rsplitn(3, ':');
    let (col, line, rel) = (parts.next(), parts.next(), parts.next());
    let (Some(col), Some(line), Some(rel)) = (
        col.and_then(|c| c.parse::<usize>().ok()),
        line.and_then(|l| l.parse::<usize>().ok()),
        rel,
    ) else {
        panic!("`{at}` is not `file:line:col`");
    };
    let file = b.dir.join(rel);
    let arrow = block[1].trim_start();
    let shown = arrow
        .strip_prefix("--> ")
        .expect("`-->` on the second line");
    assert_eq!(shown, format!("{}:{line}:{col}", file.display()), "{text}");
    assert!(file.is_absolute() && file.is_file(), "{}", file.display());
    // The source line, numbered, then the caret under the token at `col`.
    let source = std::fs::read_to_string(&file).expect("the source");
    let written = source.lines().nth(line - 1).expect("the line");
    let numbered = block
        .iter()
        .find(|l| l.trim_start().starts_with(&format!("{line} | ")))
        .unwrap_or_else(|| panic!("the source line:\n{text}"));
    let gutter = numbered.find(" | ").expect("gutter") + 3;
    assert_eq!(&numbered[gutter..], written, "{text}");
    let caret = block
        .iter()
        .find(|l| l.contains('^'))
        .unwrap_or_else(|| panic!("a caret:\n{text}"));
    let caret_col = caret.find('^').expect("^") - gutter;
    let token_col = written.char_indices().nth(col - 1).map_or(0, |(i, _)| i);
    assert_eq!(
        caret_col, token_col,
        "the caret under column {col}:\n{text}"
    );
    // Its help belongs to the block, before the next diagnostic.
    let end = block[1..]
        .iter()
        .position(|l| l.trim_start().starts_with("error") || l.trim_start().starts_with("warning"))
        .map_or(block.len(), |i| i + 1);
    assert!(
        block[..end]
            .iter()
            .any(|l| l.trim_start().starts_with("= help: ")),
        "help in the block:\n{text}"
    );
    b.text
}

/// The build fails with the compiler's error `rule` at `at` (rustc's relative
/// `src/lib.rs:line:col`): the build script does not stop the build first.
#[track_caller]
fn the_compiler_fails_with(name: &str, lib: &str, rule: &str, at: &str) -> String {
    let b = build(name, lib);
    let text = &b.text;
    assert!(!b.ok, "the build must fail:\n{text}");
    assert!(
        !text.contains("failed to run custom build command"),
        "the compiler reports it:\n{text}"
    );
    assert!(
        text.contains(&format!(": {rule}: ")),
        "names `{rule}`:\n{text}"
    );
    assert!(
        text.contains(&format!("--> {at}\n")),
        "points at `{at}`:\n{text}"
    );
    assert!(
        !text.contains("panicked at") && !text.contains("stack backtrace"),
        "no panic, no backtrace:\n{text}"
    );
    b.text
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
    the_compiler_fails_with(
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

/// The build script's own output (what cargo keeps of its last run): its `cargo:` lines.
fn script_output(name: &str) -> String {
    let build = repo().join("target/example-copies/debug/build");
    let prefix = format!("neuralis-scratch-{name}-");
    let newest = std::fs::read_dir(&build)
        .expect("the build directory")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path().join("output"))
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .max();
    let (_, path) = newest.expect("the build script ran");
    std::fs::read_to_string(path).expect("its output")
}

#[test]
fn a_use_of_a_renamed_dependency_is_left_to_the_compiler() {
    // `stock = { package = "warehouse-types" }`, and the source still says
    // `warehouse_types`: two tools need it.
    let b = build_with(
        "renamed-dep",
        &format!(
            r#"{HEADER}use warehouse_types::Sku;

#[derive(ToolInput, Deserialize)]
pub struct Restock {{ pub sku: Sku, pub count: u32 }}

/// Restock an item.
#[tool(annotations(category = "write"), ui(presentation = "inline"))]
pub fn restock(input: Restock) -> String {{ input.sku.code }}

#[derive(ToolInput, Deserialize)]
pub struct Count {{ pub sku: Sku }}

/// Count an item.
#[tool(annotations(category = "read"), ui(presentation = "inline"))]
pub fn count(input: Count) -> String {{ input.sku.code }}
"#
        ),
        r#"stock = { package = "warehouse-types", path = "../warehouse-types" }"#,
        &[
            (
                "warehouse-types/Cargo.toml",
                r#"[package]
name = "warehouse-types"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
neuralis = { path = "{root}" }
serde = { version = "1", features = ["derive"] }
"#,
            ),
            (
                "warehouse-types/src/lib.rs",
                "/// A stock keeping unit.\n#[derive(neuralis::ToolInput, serde::Deserialize)]\npub struct Sku { pub code: String }\n",
            ),
        ],
    );
    let text = &b.text;
    assert!(!b.ok, "the build must fail:\n{text}");
    // The compiler's own error, which the build script no longer hides.
    assert!(
        text.contains("error[E0432]: unresolved import `warehouse_types`"),
        "{text}"
    );
    assert!(
        !text.contains("unsupported-type") && !text.contains("failed to run custom build command"),
        "the build script does not stop the build:\n{text}"
    );
    // One warning from the build script, naming the dependency, at the `use`.
    let expected = format!(
        "`warehouse_types` is not a dependency of this package: Cargo.toml renames `warehouse-types` to `stock`; write `stock::Sku` --> {}:3:5",
        b.dir.join("src/lib.rs").display()
    );
    let output = script_output("renamed-dep");
    let said: Vec<&str> = output
        .lines()
        .filter_map(|l| l.strip_prefix("cargo:warning="))
        .collect();
    assert_eq!(said, [expected.as_str()], "{output}");
    // cargo shows it (and shows it again, as it does with a build script's warnings,
    // when the crate then fails to compile): never another warning of the script.
    let shown: std::collections::BTreeSet<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("warning: neuralis-scratch-renamed-dep@0.0.0: "))
        .collect();
    assert_eq!(
        shown.into_iter().collect::<Vec<_>>(),
        [expected.as_str()],
        "{text}"
    );
    assert!(
        !text.contains("panicked at") && !text.contains("stack backtrace"),
        "{text}"
    );
}

/// `wasm_entry!()` with no argument serves the table's `package()`, which cannot build a
/// package whose tools are methods of a service: the native build fails at the macro,
/// saying to name the builder that gives the service (before, it built on both targets
/// and the module answered every call "give it one with `.service(...)`").
#[test]
fn a_wasm_entry_without_its_services_fails_the_native_build() {
    let lib = format!(
        "{HEADER}use neuralis::tools;\n\
         #[derive(ToolInput, Deserialize)] pub struct In {{ pub q: String }}\n\
         #[derive(Default)] pub struct Notes;\n\
         #[tools] impl Notes {{\n\
         /// Echo.\n\
         #[tool(annotations(category = \"read\"), ui(presentation = \"inline\"))]\n\
         pub fn notes_echo(&self, input: In) -> String {{ input.q }}\n\
         }}\n\
         neuralis::package!();\n\
         neuralis::wasm_entry!();\n"
    );
    let b = build("wasmservice", &lib);
    assert!(!b.ok, "the build must fail:\n{}", b.text);
    assert!(
        b.text.contains(
            "`neuralis::wasm_entry!()` serves the table's `package()`, which cannot build"
        ),
        "{}",
        b.text
    );
    assert!(
        b.text.contains("neuralis::wasm_entry!(package)"),
        "{}",
        b.text
    );
    // The near miss: naming the builder that gives the service.
    let fixed = lib.replace(
        "neuralis::wasm_entry!();\n",
        "fn package() -> Result<neuralis::dispatch::Package, neuralis::dispatch::BuildError> {\n\
         neuralis_package::builder().service(Notes).build()\n}\n\
         neuralis::wasm_entry!(package);\n",
    );
    let b = build("wasmservicefixed", &fixed);
    assert!(b.ok, "{}", b.text);
}

/// `wasm_entry!()` without `package!()`: the native build fails, naming the table it
/// needs (before, only the wasm32 build did).
#[test]
fn a_wasm_entry_without_the_table_fails_the_native_build() {
    let lib = format!(
        "{HEADER}#[derive(ToolInput, Deserialize)] pub struct In {{ pub q: String }}\n\
         /// Echo.\n\
         #[tool(annotations(category = \"read\"), ui(presentation = \"inline\"))]\n\
         pub fn echo(input: In) -> String {{ input.q }}\n\
         neuralis::wasm_entry!();\n"
    );
    let b = build("wasmnotable", &lib);
    assert!(!b.ok, "the build must fail:\n{}", b.text);
    assert!(b.text.contains("neuralis_package"), "{}", b.text);
}

// ---- provider dialects: `[package.metadata.neuralis] dialects` ----

/// The manifest lines naming the dialects a package must serve.
fn dialects(names: &str) -> String {
    format!("\n[package.metadata.neuralis]\ndialects = [{names}]\n")
}

/// A tool whose input has a field of type `ty` (`labels`, line 9 of `src/lib.rs`), with
/// `attrs` before it.
fn one_field(attrs: &str, ty: &str) -> String {
    format!(
        "{HEADER}use std::collections::HashMap;\n\n/// Tag an issue.\n#[derive(ToolInput, Deserialize)]\n#[schema(root)]\npub struct Tag {{\n    {attrs}\n    pub labels: {ty},\n}}\n\n/// Tag an issue.\n#[tool(annotations(category = \"write\"))]\npub fn tag(input: Tag) -> String {{\n    let _ = input;\n    String::new()\n}}\n\n#[allow(dead_code)]\nfn _unused(_: HashMap<String, String>) {{}}\n"
    )
}

#[test]
fn a_map_is_refused_for_openai_at_the_field() {
    let text = fails_with_manifest(
        "dialect-openai-map",
        &one_field("", "HashMap<String, String>"),
        &dialects("\"openai\""),
        "dialect-refused",
        "src/lib.rs:10:9",
    );
    assert!(
        text.contains("openai cannot carry `additionalProperties`"),
        "{text}"
    );
}

#[test]
fn a_value_of_any_type_is_refused_for_anthropic_at_the_field() {
    let text = fails_with_manifest(
        "dialect-anthropic-value",
        &one_field("", "serde_json::Value"),
        &dialects("\"anthropic\""),
        "dialect-refused",
        "src/lib.rs:10:9",
    );
    assert!(text.contains("anthropic cannot carry `type`"), "{text}");
}

#[test]
fn a_map_is_refused_for_gemini_at_the_field() {
    let text = fails_with_manifest(
        "dialect-gemini-map",
        &one_field("", "HashMap<String, u8>"),
        &dialects("\"gemini\""),
        "dialect-refused",
        "src/lib.rs:10:9",
    );
    assert!(
        text.contains("gemini cannot carry `additionalProperties`"),
        "{text}"
    );
}

/// The near-misses: a list is what every dialect carries; a bound one moves into words
/// is a warning at the field, which `#[schema(allow_weakened)]` silences; without
/// `dialects`, nothing is said.
#[test]
fn a_list_builds_for_every_dialect_and_a_weakened_bound_warns_unless_allowed() {
    let all = dialects("\"openai\", \"anthropic\", \"gemini\"");
    let b = build_with(
        "dialect-near-miss",
        &one_field("#[schema(max_items = 5)]", "Vec<String>"),
        &all,
        &[],
    );
    assert!(b.ok, "{}", b.text);
    assert!(
        b.text
            .contains("dialect-weakened: anthropic does not enforce `maxItems`"),
        "the model reads it in words, and is told so:\n{}",
        b.text
    );
    assert!(
        b.text.contains("src/lib.rs:10:9"),
        "at the field:\n{}",
        b.text
    );
    let quiet = build_with(
        "dialect-allowed",
        &one_field("#[schema(max_items = 5, allow_weakened)]", "Vec<String>"),
        &all,
        &[],
    );
    assert!(quiet.ok, "{}", quiet.text);
    assert!(!quiet.text.contains("dialect-weakened"), "{}", quiet.text);
    let none = build_with(
        "dialect-none",
        &one_field("", "HashMap<String, String>"),
        "",
        &[],
    );
    assert!(none.ok, "no dialect named, a map is fine:\n{}", none.text);
}

#[test]
fn a_dialect_that_is_no_provider_s_stops_the_build() {
    let b = build_with(
        "dialect-unknown",
        &one_field("", "Vec<String>"),
        &dialects("\"openia\""),
        &[],
    );
    assert!(!b.ok, "{}", b.text);
    assert!(
        b.text.contains("names `openia`, which is no provider's dialect: write one of `openai`, `anthropic`, `gemini`"),
        "{}",
        b.text
    );
}

// ---- `mcp-remote`: what seed 003's conversion would cut with no way to say it ----

#[test]
fn a_map_is_refused_for_mcp_remote_at_the_field() {
    let text = fails_with_manifest(
        "dialect-remote-map",
        &one_field("", "HashMap<String, String>"),
        &dialects("\"mcp-remote\""),
        "dialect-refused",
        "src/lib.rs:10:9",
    );
    assert!(
        text.contains("mcp-remote cannot carry `additionalProperties`"),
        "{text}"
    );
}

/// A unit enum of `n` variants as the type of the root's field `level`.
fn an_enum_of(n: usize) -> String {
    let variants: Vec<String> = (0..n).map(|i| format!("V{i}")).collect();
    format!(
        "{HEADER}\n/// A level.\n#[derive(ToolInput, Deserialize)]\npub enum Level {{ {} }}\n\n/// Set a level.\n#[derive(ToolInput, Deserialize)]\n#[schema(root)]\npub struct Set {{\n    pub level: Level,\n}}\n\n/// Set a level.\n#[tool(annotations(category = \"write\"))]\npub fn set(input: Set) -> String {{\n    let _ = input;\n    String::new()\n}}\n",
        variants.join(", ")
    )
}

/// A root struct of `n` string fields, one a line (`f0` on line 7).
fn fields(n: usize) -> String {
    let fields: String = (0..n).map(|i| format!("    pub f{i}: String,\n")).collect();
    format!(
        "{HEADER}\n/// Many fields.\n#[derive(ToolInput, Deserialize)]\n#[schema(root)]\npub struct Wide {{\n{fields}}}\n\n/// Many fields.\n#[tool(annotations(category = \"write\"))]\npub fn wide(input: Wide) -> String {{\n    let _ = input;\n    String::new()\n}}\n"
    )
}

/// A root struct and `n` structs nested one in the next, the innermost holding a string.
fn nested(n: usize) -> String {
    let mut src = format!("{HEADER}\n");
    for i in 1..=n {
        let ty = if i == n {
            "String".to_owned()
        } else {
            format!("L{}", i + 1)
        };
        src.push_str(&format!(
            "/// Level {i}.\n#[derive(ToolInput, Deserialize)]\npub struct L{i} {{\n    pub a: {ty},\n}}\n\n"
        ));
    }
    src.push_str("/// Deep.\n#[derive(ToolInput, Deserialize)]\n#[schema(root)]\npub struct Deep {\n    pub a: L1,\n}\n\n/// Deep.\n#[tool(annotations(category = \"write\"))]\npub fn deep(input: Deep) -> String {\n    let _ = input;\n    String::new()\n}\n");
    src
}

#[test]
fn an_enum_of_33_values_is_refused_for_mcp_remote() {
    let text = fails_with_manifest(
        "dialect-remote-enum",
        &an_enum_of(33),
        &dialects("\"mcp-remote\""),
        "dialect-refused",
        "src/lib.rs:12:9",
    );
    assert!(text.contains("more than 32 values"), "{text}");
}

#[test]
fn a_49th_property_is_refused_for_mcp_remote_at_its_field() {
    let text = fails_with_manifest(
        "dialect-remote-wide",
        &fields(49),
        &dialects("\"mcp-remote\""),
        "dialect-refused",
        "src/lib.rs:56:9",
    );
    assert!(text.contains("more than 48 properties"), "{text}");
}

#[test]
fn nesting_past_8_levels_is_refused_for_mcp_remote() {
    let text = fails_with_manifest(
        "dialect-remote-deep",
        &nested(8),
        &dialects("\"mcp-remote\""),
        "dialect-refused",
        "src/lib.rs:43:9",
    );
    assert!(text.contains("nesting deeper than 8 levels"), "{text}");
}

/// The near-misses: 48 properties, 32 values, 8 levels build for `mcp-remote`, their
/// bounds said in words (a warning each, as for the providers).
#[test]
fn the_near_misses_build_for_mcp_remote() {
    let remote = dialects("\"mcp-remote\"");
    for (name, lib) in [
        ("dialect-remote-48", fields(48)),
        ("dialect-remote-32", an_enum_of(32)),
        ("dialect-remote-8", nested(7)),
    ] {
        let b = build_with(name, &lib, &remote, &[]);
        assert!(b.ok, "{name}:\n{}", b.text);
        assert!(!b.text.contains("dialect-refused"), "{name}:\n{}", b.text);
    }
}
