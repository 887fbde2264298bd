//! Every violation of an item is collected, led by its rule id.
#![allow(missing_docs)]

use neuralis_syntax::Ctxt;
use neuralis_syntax::ast::Container;
use neuralis_syntax::check::check;
use neuralis_syntax::render::{KeyPlan, render};
use syn::{DeriveInput, parse_quote};

fn errors(input: &DeriveInput) -> Vec<String> {
    let cx = Ctxt::new();
    if let Some(cont) = Container::from_ast(&cx, input) {
        check(&cx, &cont);
    }
    cx.check()
        .err()
        .map(|e| e.into_iter().map(|e| e.to_string()).collect())
        .unwrap_or_default()
}

fn rules(input: &DeriveInput) -> Vec<String> {
    errors(input)
        .iter()
        .map(|e| e.split(':').next().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn all_errors_at_once() {
    let input: DeriveInput = parse_quote! {
        #[serde(rename_all = "camelCase", from = "Raw")]
        #[schema(root)]
        struct Everything {
            user_id: String,
            #[schema(minimun = 1, max_length = 2)]
            days: u8,
            at: (u8, u8),
            #[serde(deserialize_with = "x")]
            custom: String,
        }
    };
    assert_eq!(
        rules(&input),
        [
            "serde-unsupported",
            "schema-attr",
            "reserved-input-key",
            "schema-attr",
            "unsupported-type",
            "serde-unsupported",
        ]
    );
}

#[test]
fn reserved_keys_only_at_a_marked_root() {
    let nested: DeriveInput = parse_quote! {
        #[serde(rename_all = "camelCase")]
        struct Member { user_id: String, role: String }
    };
    assert!(errors(&nested).is_empty());
    let root: DeriveInput = parse_quote! {
        #[serde(rename_all = "PascalCase")]
        #[schema(root)]
        struct Legacy { user_id: String, #[serde(rename = "session")] s: String, #[serde(skip)] role: u8 }
    };
    let errs = errors(&root);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].starts_with("reserved-input-key: root property `session`"));
}

#[test]
fn input_not_struct() {
    let input: DeriveInput = parse_quote! {
        #[schema(root)]
        enum Mode { A, B }
    };
    assert_eq!(rules(&input), ["input-not-struct"]);
    let newtype: DeriveInput = parse_quote! {
        #[schema(root)]
        struct Meters(f64);
    };
    assert_eq!(rules(&newtype), ["input-not-struct"]);
}

#[test]
fn schema_attr_cases() {
    let input: DeriveInput = parse_quote! {
        struct S {
            #[schema(minimum = 5, maximum = 1)] a: u8,
            #[schema(minimum = -1)] b: u8,
            #[schema(pattern = "(")] c: String,
            #[schema(default = "x")] d: Option<u8>,
            #[schema(default = 2, maximum = 1)] e: u8,
            #[schema(examples = ["ab"], max_length = 1)] f: String,
            #[schema(min_items = 1)] g: String,
            #[schema(multiple_of = 0)] h: f64,
            #[schema(minimum = 1)] #[schema(minimum = 2)] i: u8,
            #[schema(root)] j: u8,
            #[schema(default = [1, 1])] k: std::collections::BTreeSet<u8>,
        }
    };
    let errs = errors(&input);
    assert_eq!(errs.len(), 11, "{errs:#?}");
    assert!(
        errs.iter().all(|e| e.starts_with("schema-attr: ")),
        "{errs:#?}"
    );
    let ok: DeriveInput = parse_quote! {
        struct S {
            #[schema(minimum = 1, maximum = 1, default = 1)] a: u8,
            #[schema(pattern = "^a+$", default = "aa", examples = ["a"])] c: String,
            #[schema(default = [1, 2], min_items = 2)] k: std::collections::BTreeSet<u8>,
            #[schema(minimum = 0.5)] x: MyNumber,
        }
    };
    assert_eq!(errors(&ok), Vec::<String>::new());
}

#[test]
fn root_keys_follow_renames_and_flatten() {
    let input: DeriveInput = parse_quote! {
        #[serde(rename_all = "kebab-case")]
        struct S {
            first_name: String,
            #[serde(rename = "x")] renamed: u8,
            #[serde(skip)] skipped: u8,
            #[serde(flatten)] more: More,
        }
    };
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, &input).expect("a struct");
    cx.check().expect("no errors");
    let keys = render(&cont).root_keys.expect("named struct");
    let names: Vec<String> = keys
        .iter()
        .map(|k| match k {
            KeyPlan::Name(n) => n.clone(),
            KeyPlan::Flatten(_) => "<flatten>".into(),
        })
        .collect();
    assert_eq!(names, ["first-name", "x", "<flatten>"]);
}
