//! Expansion tests: the generated code names only `::neuralis::__private` and `::core`.

use quote::quote;
use syn::DeriveInput;

fn expand(tokens: proc_macro2::TokenStream) -> String {
    let input: DeriveInput = syn::parse2(tokens).expect("an item");
    crate::expand::derive(&input).to_string()
}

/// Every absolute path in the expansion, by its first segment.
fn roots(text: &str) -> Vec<String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let absolute = *t == "::"
            && (i == 0
                || !tokens[i - 1]
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '>'));
        if let (true, Some(next)) = (absolute, tokens.get(i + 1)) {
            out.push((*next).to_owned());
        }
    }
    out
}

#[test]
fn names_only_private_and_core_paths() {
    let text = expand(quote! {
        /// Docs.
        #[serde(rename_all = "camelCase")]
        #[schema(root)]
        struct Input {
            #[schema(minimum = 1)]
            days: Option<u8>,
            #[serde(flatten)]
            more: More,
            #[doc = include_str!("x.md")]
            tagged: Tagged,
        }
    });
    let roots = roots(&text);
    assert!(!roots.is_empty());
    assert!(
        roots.iter().all(|r| r == "neuralis" || r == "core"),
        "{roots:?}\n{text}"
    );
    assert!(text.contains("const _ : () ="), "{text}");
    assert!(text.contains("# [automatically_derived]"), "{text}");
    assert!(
        text.contains(":: neuralis :: __private :: reserved_key_message"),
        "{text}"
    );
}

#[test]
fn crate_path_is_honoured() {
    let text = expand(quote! {
        #[schema(crate = "nl")]
        struct Input { a: u8 }
    });
    assert!(text.contains("nl :: __private :: ToolInput"), "{text}");
    assert!(!text.contains(":: neuralis"), "{text}");
    let fallback = expand(quote! {
        #[schema(crate = "nl", colour)]
        struct Input { a: u8 }
    });
    assert!(fallback.contains("compile_error"), "{fallback}");
    assert!(
        fallback.contains("nl :: __private :: ToolInput"),
        "{fallback}"
    );
}

#[test]
fn the_output_fallback_honours_the_crate_path() {
    let input: syn::DeriveInput = syn::parse2(quote! {
        #[schema(crate = "nl")]
        #[serde(into = "Other")]
        struct Out { a: u8 }
    })
    .expect("a struct");
    let fallback = crate::output::derive(&input).to_string();
    assert!(fallback.contains("compile_error"), "{fallback}");
    assert!(
        fallback.contains("nl :: __private :: ToolOutput"),
        "{fallback}"
    );
    assert!(!fallback.contains(":: neuralis"), "{fallback}");
}

#[test]
fn errors_come_with_a_stub_impl() {
    let text = expand(quote! {
        struct Input { #[schema(minimun = 1)] a: u8, b: (u8, u8) }
    });
    assert_eq!(text.matches("compile_error").count(), 2, "{text}");
    assert!(text.contains("Value :: Null"), "{text}");
}
