//! Golden schemas: every supported type and serde attribute, pinned in
//! `tests/snapshots/<name>.json`. `SNAPSHOTS=overwrite cargo test --test golden` rewrites
//! them; review the diff. Every schema is also a valid draft-07 document and passes
//! `neuralis::check_value` with no error. The same types' output schemas (what serde
//! writes, `#[derive(ToolOutput)]`) are pinned in `tests/snapshots/output/<name>.json`,
//! and each is also what `#[derive(ToolInput)]` writes for it (`Output::written`).
#![allow(missing_docs)]

mod common;

use std::path::PathBuf;

use common::types::*;
use neuralis::{ToolInput, ToolOutput};
use serde_json::Value;

fn assert_golden(name: &str, schema: &Value) {
    assert_golden_in("tests/snapshots", name, schema);
}

fn assert_golden_in(dir: &str, name: &str, schema: &Value) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(dir)
        .join(format!("{name}.json"));
    let text = serde_json::to_string_pretty(schema).expect("a schema serializes") + "\n";
    if std::env::var_os("SNAPSHOTS").is_some_and(|v| v == "overwrite") {
        std::fs::write(&path, &text).expect("snapshot written");
        return;
    }
    let stored = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with SNAPSHOTS=overwrite)", path.display()));
    let stored: Value = serde_json::from_str(&stored).expect("snapshot is JSON");
    assert_eq!(
        &stored,
        schema,
        "{name}: the schema differs from {}\n{text}",
        path.display()
    );
}

fn assert_sound(name: &str, schema: &Value) {
    assert!(
        jsonschema::draft7::meta::is_valid(schema),
        "{name}: not a valid draft-07 schema"
    );
    assert_eq!(schema["$schema"], neuralis::input::DRAFT_07);
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["additionalProperties"], false);
    let errors = common::checker_errors(name, schema);
    assert!(errors.is_empty(), "{name}: {errors:#?}");
}

macro_rules! golden {
    ($($test:ident: $ty:ty;)*) => {$(
        #[test]
        fn $test() {
            let schema = <$ty as ToolInput>::schema();
            assert_sound(stringify!($test), &schema);
            assert_golden(stringify!($test), &schema);
        }
    )*};
}

golden! {
    scalars: Scalars;
    optionals: Optionals;
    all_default: AllDefault;
    collections: Collections;
    pointers: Pointers;
    renamed: Renamed;
    cases: Cases;
    enums: Enums;
    meanings: Meanings;
    flattened: Flattened;
    wrappers: Wrappers;
    recursive: Recursive;
    keywords: Keywords;
    docs: Docs;
    wide: Wide;
    generics: Generics;
    deprecations: Deprecations;
}

macro_rules! golden_output {
    ($($test:ident: $ty:ty;)*) => {$(
        #[test]
        fn $test() {
            let schema = <$ty as ToolOutput>::output_schema();
            assert!(
                jsonschema::draft7::meta::is_valid(&schema),
                "{}: not a valid draft-07 schema", stringify!($test)
            );
            assert_eq!(schema["$schema"], neuralis::input::DRAFT_07);
            assert_eq!(schema["type"], "object", "an output's root is an object");
            assert_golden_in("tests/snapshots/output", stringify!($test), &schema);
            // Every type here derives `ToolInput` and `ToolOutput`: what the input derive
            // writes (the schema a type deriving `ToolInput` alone is returned with) is the
            // same document.
            assert_eq!(
                neuralis::dispatch::Output::written::<$ty>().schema(),
                &schema,
                "{}: the input derive's output schema is the output derive's",
                stringify!($test)
            );
        }
    )*};
}

mod output {
    use super::*;

    golden_output! {
        scalars: Scalars;
        optionals: Optionals;
        all_default: AllDefault;
        collections: Collections;
        renamed: Renamed;
        cases: Cases;
        enums: Enums;
        meanings: Meanings;
        units: Units;
        external: External;
        internal: Internal;
        adjacent: Adjacent;
        untagged: Untagged;
        flattened: Flattened;
        wrappers: Wrappers;
        transparent: Transparent;
        recursive: Recursive;
        tree: Tree;
        keywords: Keywords;
        docs: Docs;
        wide: Wide;
        generics: Generics;
        list: Vec<Leaf>;
        number: f64;
    }
}

#[test]
fn root_keys_follow_serde_names() {
    let names = |keys| neuralis::input::root_key_names(keys);
    assert_eq!(
        names(<Renamed as ToolInput>::ROOT_KEYS),
        ["cityName", "zip", "deName", "type"]
    );
    assert_eq!(
        names(<Flattened as ToolInput>::ROOT_KEYS),
        ["query", "limit", "cursor", "tag"]
    );
    // A transparent struct is an object when its field is (a struct, not a string).
    assert_eq!(
        [
            <Flattened as ToolInput>::IS_OBJECT,
            <Units as ToolInput>::IS_OBJECT,
            <Transparent as ToolInput>::IS_OBJECT,
            <Email as ToolInput>::IS_OBJECT
        ],
        [true, false, true, false]
    );
}

#[test]
fn nested_schemas_are_fragments() {
    let leaf = Leaf::schema_fragment();
    assert!(leaf.get("$schema").is_none());
    assert_eq!(leaf["additionalProperties"], false);
    assert_eq!(
        Units::schema_fragment()["enum"],
        serde_json::json!(["metric", "imperial"])
    );
}

/// `definitions` names: the type's name as written (not `std::any::type_name`), generic
/// arguments spelled out by their own names, and two types of one name numbered in the
/// order the composition meets them. `build/tests/emit.rs`
/// (`definitions_are_named_from_the_types_as_written`) pins the build script's names for
/// the same source.
#[allow(dead_code, reason = "the types are read for their schemas only")]
mod names {
    use neuralis::ToolInput;

    pub mod a {
        #[derive(neuralis::ToolInput, serde::Deserialize)]
        pub struct Node {
            pub next: Option<Box<Node>>,
        }
    }

    pub mod b {
        #[derive(neuralis::ToolInput, serde::Deserialize)]
        pub struct Node {
            pub children: Vec<Node>,
        }
    }

    #[derive(ToolInput, serde::Deserialize)]
    pub struct Page<T> {
        pub items: Vec<T>,
        pub next: Option<Box<Page<T>>>,
    }

    #[derive(ToolInput, serde::Deserialize)]
    pub struct In {
        pub a: a::Node,
        pub b: b::Node,
        pub page: Page<Vec<b::Node>>,
    }

    #[test]
    fn definitions_are_named_from_the_types_as_written() {
        assert_eq!(<Page<Vec<b::Node>>>::schema_name(), "Page<Vec<Node>>");
        assert_eq!(<Option<Box<a::Node>>>::schema_name(), "Option<Node>");
        let doc = In::schema();
        let names: Vec<&String> = doc["definitions"]
            .as_object()
            .map(|d| d.keys().collect())
            .unwrap_or_default();
        assert_eq!(names, ["Node", "Node2", "Page<Vec<Node>>"], "{doc:#}");
        let p = &doc["properties"];
        assert_eq!(p["a"]["properties"]["next"]["$ref"], "#/definitions/Node");
        assert_eq!(
            p["b"]["properties"]["children"]["items"]["$ref"],
            "#/definitions/Node2"
        );
        assert_eq!(
            p["page"]["properties"]["next"]["$ref"],
            "#/definitions/Page%3CVec%3CNode%3E%3E"
        );
    }
}
