//! Loading packages: from sources (no filesystem) and from a directory.
#![allow(clippy::unwrap_used)]

use neuralis_core::catalog::Category;
use neuralis_core::contract::RuleId;
use neuralis_core::load::{load_package, load_package_from_sources};
use neuralis_core::schema::{default_property_names, to_canonical_string};
use proptest::prelude::*;
use serde_json::json;

const CATALOG_LIST: &str = include_str!("../../examples/catalog/tools/catalog_list.json");
const WEATHER: &str = include_str!("../../examples/weather/tools/weather_forecast.json");

fn tagger() -> String {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "additionalProperties": false,
        "description": "Tag an item.",
        "properties": {
            "tags": { "type": "object", "additionalProperties": { "type": "string" } }
        },
        "x-neuralis": { "annotations": { "category": "write" } }
    })
    .to_string()
}

#[test]
fn sources_load_checked_normalized_and_typed() {
    let tag = tagger();
    let package = load_package_from_sources([
        ("catalog_list", CATALOG_LIST.as_bytes()),
        ("tag_item", tag.as_bytes()),
        ("weather_forecast", WEATHER.as_bytes()),
    ]);
    assert!(!package.has_errors());
    let names: Vec<_> = package.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["catalog_list", "tag_item", "weather_forecast"]);
    assert!(package.files.iter().all(|f| f.loaded));
    assert_eq!(package.files[1].file, "tag_item.json");
    let tag = package.tool("tag_item").unwrap();
    assert_eq!(
        tag.schema["properties"]["tags"]["propertyNames"],
        default_property_names()
    );
    assert_eq!(tag.meta.annotations.category, Category::Write);
    // A document with no open bag is unchanged: the canonical form is the file.
    assert_eq!(
        to_canonical_string(&package.tool("catalog_list").unwrap().schema),
        CATALOG_LIST
    );
}

#[test]
fn bad_files_are_reported_and_not_loaded() {
    let package = load_package_from_sources([
        ("broken", &b"{ not json"[..]),
        ("empty", &b""[..]),
        ("array", &b"[]"[..]),
        (
            "no_block",
            &br#"{"type":"object","additionalProperties":false}"#[..],
        ),
        (
            "bad_block",
            &br#"{"type":"object","additionalProperties":false,"x-neuralis":{"ui":1}}"#[..],
        ),
        ("catalog_list", CATALOG_LIST.as_bytes()),
    ]);
    assert!(package.has_errors());
    let names: Vec<_> = package.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["catalog_list"]);
    for f in &package.files[..5] {
        assert!(!f.loaded && f.has_errors(), "{} must fail", f.name);
    }
    let rules = |i: usize| {
        package.files[i]
            .diagnostics
            .iter()
            .map(|d| d.rule)
            .collect::<Vec<_>>()
    };
    assert!(rules(0).contains(&RuleId::JsonSyntax));
    assert!(rules(1).contains(&RuleId::JsonSyntax));
    assert!(rules(3).contains(&RuleId::XnMissing));
    assert!(
        rules(4)
            .iter()
            .any(|r| *r == RuleId::XnType || *r == RuleId::XnMissing)
    );
    assert_eq!(
        package
            .diagnostics()
            .filter(|(f, _)| f.name == "catalog_list")
            .count(),
        0
    );
}

#[test]
fn a_name_given_twice_loads_once() {
    let package = load_package_from_sources([("t", CATALOG_LIST), ("t", CATALOG_LIST)]);
    assert_eq!(package.tools.len(), 1);
    assert!(package.files[0].loaded);
    assert!(!package.files[1].loaded);
    assert_eq!(package.files[1].diagnostics[0].rule, RuleId::DuplicateTool);
    let package = load_package_from_sources([("t", CATALOG_LIST), ("T", CATALOG_LIST)]);
    assert_eq!(package.tools.len(), 2, "names are case-sensitive");
}

#[test]
fn a_directory_loads_every_json_file_sorted_by_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("weather_forecast.json"), WEATHER).unwrap();
    std::fs::write(dir.path().join("catalog_list.json"), CATALOG_LIST).unwrap();
    std::fs::write(dir.path().join("tag_item.json"), tagger()).unwrap();
    std::fs::write(dir.path().join("broken.json"), "{").unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a tool").unwrap();
    std::fs::write(dir.path().join("upper.JSON"), CATALOG_LIST).unwrap();
    std::fs::create_dir(dir.path().join("nested.json")).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::write(dir.path().join("sub/inner.json"), CATALOG_LIST).unwrap();

    let package = load_package(dir.path()).unwrap();
    let files: Vec<_> = package.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        files,
        ["broken", "catalog_list", "tag_item", "weather_forecast"]
    );
    assert!(package.files[1].file.ends_with("catalog_list.json"));
    let tools: Vec<_> = package.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(tools, ["catalog_list", "tag_item", "weather_forecast"]);
    assert!(package.has_errors());
}

#[test]
fn a_missing_directory_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    assert!(load_package(dir.path().join("absent")).is_err());
}

#[test]
fn the_example_packages_load() {
    for (dir, tools) in [("catalog", 3), ("todos", 1), ("weather", 1)] {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/").to_owned() + dir + "/tools";
        let package = load_package(&path).unwrap();
        assert_eq!(package.tools.len(), tools, "{path}");
        assert!(!package.has_errors(), "{path}: {:?}", package.files);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn nothing_panics_on_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let package = load_package_from_sources([("fuzz", &bytes[..])]);
        prop_assert_eq!(package.files.len(), 1);
    }

    #[test]
    fn nothing_panics_on_mutated_tools(
        cut in 0..CATALOG_LIST.len(),
        byte in any::<u8>(),
    ) {
        let mut bytes = CATALOG_LIST.as_bytes().to_vec();
        bytes[cut] = byte;
        let package = load_package_from_sources([("m", &bytes[..])]);
        prop_assert_eq!(package.files.len(), 1);
        prop_assert_eq!(package.tools.len() == 1, package.files[0].loaded);
    }
}

#[test]
fn the_feature_gate_hides_tools_and_refuses_dispatch_alike() {
    let package = load_package_from_sources([
        ("catalog_list", CATALOG_LIST),
        ("weather_forecast", WEATHER),
    ]);
    let seen = |granted: &[&str]| {
        package
            .visible_tools(granted.iter().copied())
            .map(|t| t.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(seen(&[]), ["catalog_list"]);
    assert_eq!(
        seen(&["weather.read"]),
        ["catalog_list", "weather_forecast"]
    );
    assert!(
        package
            .dispatchable("weather_forecast", ["weather.read"])
            .is_some()
    );
    let gated = package.dispatchable("weather_forecast", ["weather.write"]);
    let unknown = package.dispatchable("no_such_tool", ["weather.read"]);
    assert_eq!(gated, None);
    assert_eq!(unknown, None);
}
