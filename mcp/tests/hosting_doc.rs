//! docs/hosting.md's `Cargo.toml` snippet builds as written: its Rust snippet is a doc
//! test of this crate (`src/lib.rs`), compiled with this crate's dependencies and
//! dev-dependencies, so every dependency the snippet lists must be one of those, with the
//! same version requirement, and its features must be ones the doc test is built with.

#![allow(clippy::unwrap_used, reason = "tests")]

use toml::{Table, Value};

fn read(path: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).unwrap()
}

/// A dependency's version requirement and features, from its TOML value.
fn spec(value: &Value) -> (String, Vec<String>) {
    match value {
        Value::String(version) => (version.clone(), Vec::new()),
        Value::Table(t) => (
            t.get("version")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            t.get("features")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default(),
        ),
        other => panic!("not a dependency: {other:?}"),
    }
}

#[test]
fn the_cargo_snippet_is_what_the_doc_test_builds_with() {
    let page = read("docs/hosting.md");
    let start = page.find("```toml\n").expect("a ```toml block") + "```toml\n".len();
    let end = start + page[start..].find("```").unwrap();
    let snippet: Table = page[start..end].parse().unwrap();
    let manifest: Table = read("mcp/Cargo.toml").parse().unwrap();
    let ours = manifest["package"]["version"].as_str().unwrap();
    let features = manifest["features"].as_table().unwrap();
    let dev = manifest["dev-dependencies"].as_table().unwrap();
    let deps = snippet["dependencies"].as_table().unwrap();
    assert!(deps.contains_key("neuralis-mcp") && deps.contains_key("neuralis"));
    for (name, value) in deps {
        let (version, wanted) = spec(value);
        match name.as_str() {
            "neuralis" | "neuralis-mcp" => {
                assert!(
                    ours.starts_with(&version),
                    "{name} {version}: this is {ours}"
                );
                for feature in &wanted {
                    assert!(
                        features.contains_key(feature),
                        "{name} has no feature {feature}"
                    );
                }
            }
            _ => {
                let built = dev
                    .get(name)
                    .unwrap_or_else(|| panic!("{name} is not a dev-dependency of neuralis-mcp"));
                let (built_version, built_features) = spec(built);
                assert_eq!(version, built_version, "{name}'s version");
                for feature in &wanted {
                    assert!(
                        built_features.contains(feature),
                        "{name}'s feature {feature}: the doc test is built with {built_features:?}"
                    );
                }
            }
        }
    }
    // The doc test is compiled with the features the snippet turns on.
    let lib = read("mcp/src/lib.rs");
    let (_, wanted) = spec(&deps["neuralis-mcp"]);
    for feature in wanted.iter().filter(|f| *f != "http") {
        assert!(
            lib.contains(&format!("feature = \"{feature}\"")),
            "the doc test's cfg lacks {feature}"
        );
    }
    assert!(lib.contains("include_str!(\"../../docs/hosting.md\")"));
}
