//! The committed `examples/*/tools` are exactly what the emitter writes today
//! (`cargo build` of an example writes them too; `NEURALIS_OVERWRITE=1` here does the same
//! without compiling the examples).

use std::path::{Path, PathBuf};

use neuralis_build::{Builder, Cfg};

fn example_dir(example: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(example)
}

/// Runs the emitter on a library example, as its build script does, and returns the type
/// table it publishes for its dependents.
fn table_of(example: &str, tmp: &Path) -> PathBuf {
    let out = tmp.join(example);
    let summary = Builder::new()
        .manifest_dir(example_dir(example))
        .tools_dir(out.join("tools"))
        .out_dir(&out)
        .cfg(Cfg::default())
        .run()
        .expect("the library emits");
    assert!(summary.tools.is_empty(), "{:?}", summary.tools);
    out.join("neuralis_table.json")
}

fn fresh(example: &str, tools: &[&str]) {
    fresh_with(example, tools, &[]);
}

/// `deps`: the library examples whose types it reads.
fn fresh_with(example: &str, tools: &[&str], deps: &[&str]) {
    let root = example_dir(example);
    let tmp = tempfile::tempdir().expect("tempdir");
    let tables: Vec<PathBuf> = deps.iter().map(|d| table_of(d, tmp.path())).collect();
    let summary = Builder::new()
        .manifest_dir(&root)
        .tools_dir(tmp.path().join("tools"))
        .out_dir(tmp.path().join("out"))
        .cfg(Cfg::default())
        .dependency_tables(tables)
        .run()
        .expect("the example emits");
    assert_eq!(summary.tools, tools);
    assert!(summary.skipped.is_empty(), "{:?}", summary.skipped);
    for name in tools {
        let file = format!("{name}.json");
        let emitted = std::fs::read(tmp.path().join("tools").join(&file)).expect("emitted");
        if std::env::var_os("NEURALIS_OVERWRITE").is_some() {
            std::fs::write(root.join("tools").join(&file), &emitted).expect("overwrite");
        }
        let committed = std::fs::read(root.join("tools").join(&file)).unwrap_or_default();
        assert!(
            emitted == committed,
            "examples/{example}/tools/{file} is not what the emitter writes: run `cargo build -p neuralis-example-{example}`"
        );
        let report = neuralis_core::check_bytes(name, &emitted);
        assert!(!report.has_errors(), "{:?}", report.diagnostics);
    }
}

#[test]
fn weather() {
    fresh("weather", &["weather_forecast"]);
}

#[test]
fn catalog() {
    fresh(
        "catalog",
        &["catalog_edit", "catalog_list", "catalog_reindex"],
    );
}

#[test]
fn serve() {
    fresh(
        "serve",
        &[
            "notes_list",
            "notes_reindex",
            "notes_write",
            "weather_forecast",
        ],
    );
}

#[test]
fn incidents() {
    fresh(
        "incidents",
        &[
            "incidents_close",
            "incidents_delete",
            "incidents_escalate",
            "incidents_list",
            "incidents_open",
            "incidents_report",
        ],
    );
}

#[test]
fn conformance() {
    fresh(
        "conformance",
        &[
            "confirm_delete",
            "failing_job",
            "greet",
            "multi_input",
            "protocol_error_job",
            "slow_compute",
            "test_audio_content",
            "test_custom_headers",
            "test_elicitation",
            "test_elicitation_sep1034_defaults",
            "test_elicitation_sep1330_enums",
            "test_embedded_resource",
            "test_error_handling",
            "test_image_content",
            "test_input_required_result_capabilities",
            "test_input_required_result_elicitation",
            "test_input_required_result_list_roots",
            "test_input_required_result_multi_round",
            "test_input_required_result_multiple_inputs",
            "test_input_required_result_request_state",
            "test_input_required_result_sampling",
            "test_input_required_result_tampered_state",
            "test_missing_capability",
            "test_multiple_content_types",
            "test_reconnection",
            "test_sampling",
            "test_simple_text",
            "test_tool_with_logging",
            "test_tool_with_progress",
            "test_tool_with_task",
        ],
    );
}

#[test]
fn todos() {
    fresh("todos", &["todos_update"]);
}

#[test]
fn probe() {
    fresh(
        "probe",
        &[
            "probe_big",
            "probe_gated",
            "probe_panic",
            "probe_stuck",
            "probe_whoami",
        ],
    );
}

#[test]
fn tracker() {
    fresh_with(
        "tracker",
        &["tracker_issue_create", "tracker_issue_search"],
        &["shared-types"],
    );
}

#[test]
fn triage() {
    fresh_with(
        "triage",
        &["triage_close", "triage_queue"],
        &["shared-types"],
    );
}
