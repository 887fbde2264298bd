//! `contract::meta::surely_valid` (the checker's walk of the draft-07 meta-schema) never
//! vouches for a document `jsonschema`'s meta-schema validator refuses, and does vouch for
//! the toolkit's own tool files; and the meta-schema check the loader runs (the built-in
//! validator on the draft-07 meta-schema, `validate::meta_errors`) gives `jsonschema`'s
//! verdict, first pointer and message on every generated document.
#![allow(missing_docs)]

use neuralis_core::contract::meta::surely_valid;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

const KEYWORDS: &[&str] = &[
    "$id",
    "$schema",
    "$ref",
    "$comment",
    "title",
    "description",
    "default",
    "readOnly",
    "writeOnly",
    "examples",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "additionalItems",
    "items",
    "maxItems",
    "minItems",
    "uniqueItems",
    "contains",
    "maxProperties",
    "minProperties",
    "required",
    "additionalProperties",
    "definitions",
    "properties",
    "patternProperties",
    "dependencies",
    "propertyNames",
    "const",
    "enum",
    "type",
    "format",
    "contentMediaType",
    "contentEncoding",
    "if",
    "then",
    "else",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "x-neuralis",
];

/// Strings that are, and are not, regexes and URI references.
const STRINGS: &[&str] = &[
    "string",
    "integer",
    "object",
    "strng",
    "^a+$",
    "(",
    "[a-",
    "\\p{L}",
    "(?<name>x)",
    "#",
    "#/definitions/a",
    "http://json-schema.org/draft-07/schema#",
    "http://example.com/x",
    "not a uri",
    "%zz",
    "\\",
    "",
    "a",
];

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..5).prop_map(Value::from),
        Just(json!(u64::MAX)),
        Just(json!(1.0)),
        Just(json!(0.5)),
        Just(json!(-0.5)),
        Just(json!(0.0)),
        prop::sample::select(STRINGS).prop_map(Value::from),
    ]
}

fn document() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(KEYWORDS)
                        .prop_map(str::to_owned)
                        .boxed()
                        .prop_union(
                            prop::sample::select(STRINGS)
                                .prop_map(str::to_owned)
                                .boxed()
                        ),
                    inner
                ),
                0..5
            )
            .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn real(doc: &Value) -> bool {
    jsonschema::draft7::meta::is_valid(doc)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn never_vouches_for_a_refused_document(doc in document()) {
        if surely_valid(&doc, &mut real) {
            prop_assert!(real(&doc), "vouched for a document the meta-schema refuses: {doc}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn the_built_in_meta_check_agrees_with_jsonschema(doc in document()) {
        let ours = neuralis_core::validate::meta_errors(&doc);
        prop_assert_eq!(ours.is_empty(), real(&doc), "verdict on {}", doc);
        let meta = jsonschema::draft7::meta::validator();
        if let (Some(theirs), Some(mine)) = (meta.iter_errors(&doc).next(), ours.first()) {
            prop_assert_eq!(theirs.instance_path().as_str(), mine.pointer.as_str(), "pointer on {}", doc);
            prop_assert_eq!(theirs.masked().to_string(), mine.message.clone(), "message on {}", doc);
        }
    }
}

#[test]
fn the_generator_reaches_both_verdicts() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut vouched, mut refused) = (0, 0);
    for _ in 0..2000 {
        let doc = document().new_tree(&mut runner).expect("a tree").current();
        if surely_valid(&doc, &mut real) {
            vouched += 1;
        }
        if !real(&doc) {
            refused += 1;
        }
    }
    assert!(
        vouched > 200 && refused > 200,
        "vouched {vouched}, refused {refused}"
    );
}

#[test]
fn vouches_for_the_examples_tool_files() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
    let mut seen = 0;
    for package in std::fs::read_dir(root).expect("examples") {
        let tools = package.expect("entry").path().join("tools");
        let Ok(files) = std::fs::read_dir(&tools) else {
            continue;
        };
        for file in files {
            let path = file.expect("entry").path();
            let doc: Value =
                serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
            assert!(surely_valid(&doc, &mut real), "{}", path.display());
            seen += 1;
        }
    }
    assert!(seen >= 5, "only {seen} tool files found");
}
