//! A tool whose input implements `ToolInput` by hand: the build script cannot compose its
//! schema, so the tool's file is the one its author writes. Without it the build stops
//! (`unsupported-type`, saying to write it); with it the file is checked by the same
//! contract and kept byte for byte; one that breaks the contract stops the build. The
//! fixture is compiled into this test, so the file the author writes is the handler's
//! run-time composition (`ToolDescriptor::document()`), which the drift test holds it to.

#[path = "fixtures/hand_written/src/lib.rs"]
mod fixture;

use std::path::Path;

use neuralis_build::{Builder, Cfg};

fn builder(tools: &Path, out: &Path) -> Builder {
    Builder::new()
        .manifest_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hand_written"))
        .tools_dir(tools)
        .out_dir(out)
        .cfg(Cfg::default())
}

#[test]
fn a_hand_written_input_has_a_tool_file_its_author_writes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (tools, out) = (tmp.path().join("tools"), tmp.path().join("out"));
    let file = tools.join("add_contact.json");

    // No file: the build stops, at the input's type, saying what to write.
    let error = builder(&tools, &out).run().expect_err("no file");
    assert_eq!(error.messages.len(), 1, "{error}");
    let message = &error.messages[0];
    assert!(
        message.starts_with(
            "error: unsupported-type: `Contact` implements `ToolInput` by hand, so the build script cannot write the schema of tool `add_contact`, and its file is missing"
        ),
        "{message}"
    );
    assert!(
        message.contains("src/lib.rs:35:"),
        "at the input: {message}"
    );
    assert!(
        message.contains(&format!("write {} yourself", file.display())),
        "{message}"
    );

    // The author's file, written as the run time composes the tool (its keys in another
    // order than the canonical writer's): checked, kept byte for byte, in the table.
    let composed = fixture::__neuralis_tool_add_contact.document();
    let written = serde_json::to_string_pretty(&composed).expect("json");
    std::fs::create_dir_all(&tools).expect("dir");
    std::fs::write(&file, &written).expect("write");
    let summary = builder(&tools, &out)
        .run()
        .expect("the author's file passes");
    assert_eq!(summary.tools, ["add_contact"]);
    assert!(summary.written.is_empty(), "{:?}", summary.written);
    assert!(summary.stale.is_empty(), "{:?}", summary.stale);
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), written);
    let table = std::fs::read_to_string(out.join("neuralis_package.rs")).expect("table");
    assert!(table.contains("add_contact.json"), "{table}");

    // A file that breaks the contract stops the build with the contract's rule.
    let mut broken = composed;
    broken["properties"]["email"]["type"] = serde_json::json!("text");
    std::fs::write(&file, broken.to_string()).expect("write");
    let error = builder(&tools, &out).run().expect_err("a contract error");
    assert!(
        error
            .messages
            .iter()
            .any(|m| m.contains("`text` is not a JSON Schema type")),
        "{error}"
    );
}
