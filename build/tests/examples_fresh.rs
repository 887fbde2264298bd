//! The committed `examples/*/tools` are exactly what the emitter writes today
//! (`cargo build` of an example writes them too; `NEURALIS_OVERWRITE=1` here does the same
//! without compiling the examples).

use std::path::Path;

use neuralis_build::{Builder, Cfg};

fn fresh(example: &str, tools: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(example);
    let tmp = tempfile::tempdir().expect("tempdir");
    let summary = Builder::new()
        .manifest_dir(&root)
        .tools_dir(tmp.path().join("tools"))
        .out_dir(tmp.path().join("out"))
        .cfg(Cfg::default())
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
