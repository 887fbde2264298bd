//! The static view equals the run-time composition: a fixture crate is compiled into this
//! test (so `#[derive(ToolInput)]` and `#[tool]` compose at run time) and handed to the
//! emitter (which renders from its source), and every emitted file must equal the
//! handler's `ToolDescriptor::document()`.

#[path = "fixtures/static_view/src/lib.rs"]
mod fixture;

use std::path::Path;

use neuralis_build::{Builder, Cfg};

#[test]
fn every_shape_renders_as_at_run_time() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/static_view");
    let tmp = tempfile::tempdir().expect("tempdir");
    let summary = Builder::new()
        .manifest_dir(&dir)
        .tools_dir(tmp.path().join("tools"))
        .out_dir(tmp.path().join("out"))
        .cfg(Cfg::default())
        .run()
        .expect("the fixture emits");
    assert!(summary.skipped.is_empty(), "{:?}", summary.skipped);
    let descriptors = [
        &fixture::__neuralis_tool_composite,
        &fixture::__neuralis_tool_everything,
        &fixture::__neuralis_tool_from_file,
        &fixture::__neuralis_tool_recursive,
    ];
    let mut names: Vec<&str> = descriptors.iter().map(|d| d.name).collect();
    names.sort_unstable();
    assert_eq!(summary.tools, names);
    for d in descriptors {
        let text =
            std::fs::read_to_string(tmp.path().join("tools").join(format!("{}.json", d.name)))
                .expect("emitted");
        let emitted: serde_json::Value = serde_json::from_str(&text).expect("json");
        let composed = d.document();
        assert_eq!(
            emitted,
            composed,
            "{}: static view\n{}\nrun time\n{}",
            d.name,
            text,
            neuralis_core::schema::to_canonical_string(&composed)
        );
        let bytes = neuralis_core::schema::to_canonical_string(&composed);
        assert_eq!(text, bytes, "{}: canonical bytes", d.name);
    }
}
