//! `#[tool]` expansion snapshots (prettyplease, `macros/tests/snapshots/tool_*.rs`;
//! `UPDATE_EXPECT=1` rewrites them) and the paths the expansion names.

use expect_test::{ExpectFile, expect_file};
use proc_macro2::TokenStream;
use quote::quote;

fn expand(args: TokenStream, item: TokenStream) -> String {
    let tokens = crate::tool::tool(args, item);
    let file: syn::File = syn::parse2(tokens).expect("the expansion parses as items");
    prettyplease::unparse(&file)
}

fn check(args: TokenStream, item: TokenStream, snapshot: ExpectFile) -> String {
    let text = expand(args, item);
    snapshot.assert_eq(&text);
    text
}

#[test]
fn sync_handler() {
    let text = check(
        quote!(
            annotations(destructive, category = "write"),
            ask_on_keys(force),
            defaults(force = false)
        ),
        quote! {
            /// Deletes a note.
            pub fn delete_note(input: DeleteNote, cx: &ToolContext) -> ToolResult {
                todo!()
            }
        },
        expect_file!["../tests/snapshots/tool_sync.rs"],
    );
    assert!(text.contains("Adapter::Sync"), "{text}");
    assert!(text.contains("root_key_message"), "{text}");
}

#[test]
fn async_handler() {
    let text = check(
        quote! {
            family = "weather", defaults(days = 3),
            annotations(read_only, category = "network"),
        },
        quote! {
            /// Forecast the weather.
            async fn weather_forecast(input: WeatherForecast) -> Forecast {
                todo!()
            }
        },
        expect_file!["../tests/snapshots/tool_async.rs"],
    );
    assert!(text.contains("Adapter::Async"), "{text}");
    assert!(
        text.contains("pub(crate) static __neuralis_tool_weather_forecast"),
        "{text}"
    );
}

#[test]
fn cancellable_handler() {
    let text = check(
        quote!(annotations(category = "execute", cancellable)),
        quote! {
            /// Runs a long job.
            pub async fn run_job(abort: AbortSignal, input: Job, cx: &ToolContext) -> ToolResult {
                todo!()
            }
        },
        expect_file!["../tests/snapshots/tool_cancellable.rs"],
    );
    let call: String = text.split_whitespace().collect();
    assert!(
        call.contains("run_job(::neuralis::__private::abort_signal(__cx),__input,__cx,).await"),
        "{text}"
    );
    assert!(text.contains("cancellable: true"), "{text}");
}

#[test]
fn result_handler() {
    let text = check(
        quote!(name = "notes-search", annotations(category = "read")),
        quote! {
            /// Searches notes.
            pub fn search(input: Search) -> Result<Vec<Note>, SearchError> {
                todo!()
            }
        },
        expect_file!["../tests/snapshots/tool_result.rs"],
    );
    assert!(
        text.contains(".__neuralis_split()")
            && text.contains(".split(__out)")
            && text.contains(".__neuralis_kind()")
            && text.contains(".convert(__v, __cx)"),
        "a `Result` is split, then its value converted, by trait dispatch: {text}"
    );
    assert!(!text.contains("error_result"), "{text}");
    assert!(text.contains("name: \"notes-search\""), "{text}");
}

#[test]
fn errors_keep_the_function() {
    let text = check(
        quote!(annotations(category = "reed")),
        quote! {
            /// Broken.
            fn broken(input: Input) -> ToolResult { todo!() }
        },
        expect_file!["../tests/snapshots/tool_fallback.rs"],
    );
    assert_eq!(text.matches("compile_error!").count(), 1, "{text}");
    assert!(
        text.contains("fn broken(input: Input) -> ToolResult"),
        "{text}"
    );
    assert!(
        text.contains("Adapter::Sync(::neuralis::__private::unavailable)"),
        "{text}"
    );
}

#[test]
fn crate_path_is_honoured() {
    let text = expand(
        quote!(crate = "nl", annotations(category = "read")),
        quote!(
            fn f(input: Input) -> ToolResult {
                todo!()
            }
        ),
    );
    assert!(text.contains("nl::__private::ToolDescriptor"), "{text}");
    assert!(!text.contains("::neuralis"), "{text}");
}

#[test]
fn not_a_function() {
    let text = crate::tool::tool(
        quote!(),
        quote!(
            struct S;
        ),
    )
    .to_string();
    assert!(
        text.contains("handler-signature: `#[tool]` goes on a function"),
        "{text}"
    );
    assert!(text.contains("struct S"), "{text}");
}

#[test]
fn tools_impl() {
    let tokens = crate::tools::tools(
        TokenStream::new(),
        quote! {
            impl Notes {
                /// List the notes.
                #[tool(annotations(read_only, category = "read"))]
                pub async fn notes_list(&self, cx: &ToolContext, input: ListNotes) -> Listed {
                    todo!()
                }

                /// Rebuild, with a feature.
                #[cfg(feature = "reindex")]
                #[neuralis::tool(annotations(category = "write", cancellable))]
                fn notes_reindex(&self, input: Reindex, abort: AbortSignal) -> u8 {
                    todo!()
                }

                fn helper(&self) {}
            }
        },
    );
    let file: syn::File = syn::parse2(tokens).expect("the expansion parses as items");
    let text = prettyplease::unparse(&file);
    expect_file!["../tests/snapshots/tools_impl.rs"].assert_eq(&text);
    for part in [
        "#[tool(__neuralis_method)]",
        "#[neuralis::tool(__neuralis_method)]",
        "pub static __neuralis_tool_Notes__notes_list",
        "pub(crate) static __neuralis_tool_Notes__notes_reindex",
        "let __svc: &Notes = ::neuralis::__private::service::<Notes>(__cx, \"Notes\")?;",
        "__svc.notes_list(__cx, __input).await",
        "::neuralis::__private::ServiceType::of::<Notes>(\"Notes\")",
    ] {
        assert!(text.contains(part), "{part} in:\n{text}");
    }
    // The static and the assertions of a `#[cfg]` method exist when the method does.
    assert_eq!(
        text.matches("#[cfg(feature = \"reindex\")]").count(),
        3,
        "{text}"
    );
}

#[test]
fn a_tool_attribute_read_by_tools_hands_the_method_back() {
    let method = quote!(
        fn f(&self, input: In) -> u8 {
            0
        }
    );
    let out = crate::tool::tool(quote!(__neuralis_method), method.clone());
    assert_eq!(out.to_string(), method.to_string());
}
