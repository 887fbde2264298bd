//! `#[tool(...)]`: the grammar, the x-neuralis block, every error at once.
#![allow(missing_docs)]

use neuralis_syntax::Ctxt;
use neuralis_syntax::tool::{Param, Returns, Tool, parse_tool};
use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;
use syn::{ItemFn, parse_quote};

fn parse(args: TokenStream, item: &ItemFn) -> (Tool, Vec<String>) {
    let cx = Ctxt::new();
    let tool = parse_tool(&cx, args, item);
    let errors = cx
        .check()
        .err()
        .map(|e| e.into_iter().map(|e| e.to_string()).collect())
        .unwrap_or_default();
    (tool, errors)
}

fn rules(args: TokenStream, item: &ItemFn) -> Vec<String> {
    parse(args, item)
        .1
        .iter()
        .map(|e| e.split(':').next().unwrap_or_default().to_owned())
        .collect()
}

fn handler() -> ItemFn {
    parse_quote! {
        /// Does a thing.
        fn do_thing(input: Input) -> ToolResult { todo!() }
    }
}

fn seed_block(path: &str) -> Value {
    let text = std::fs::read_to_string(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR")))
        .expect("the seed example");
    let file: Value = serde_json::from_str(&text).expect("json");
    file["x-neuralis"].clone()
}

#[test]
fn weather_forecast_block_is_the_seeds() {
    let item: ItemFn = parse_quote! {
        /// Forecast the weather for a city over the next few days.
        pub async fn weather_forecast(input: WeatherForecast, cx: &ToolContext) -> ToolResult { todo!() }
    };
    let (tool, errors) = parse(
        quote! {
            family = "weather", operation = "weather.forecast", transport = "embedded",
            defaults(days = 3),
            annotations(title = "Weather Forecast", read_only, destructive = false,
                        category = "network", estimated_duration_ms = 2000),
            ui(presentation = "card", card_type = "weather.result", icon = "cloud-sun"),
            requires(features("weather.read")),
        },
        &item,
    );
    assert_eq!(errors, Vec::<String>::new());

    let block = tool.x_neuralis();
    let seed = seed_block("examples/weather/tools/weather_forecast.json");
    assert_eq!(block, seed);
    // Key for key, in the seed's order.
    assert_eq!(block.to_string(), seed.to_string());
    assert_eq!(
        tool.description().as_deref(),
        Some("Forecast the weather for a city over the next few days.")
    );
    assert!(tool.is_async && tool.takes_context() && !tool.takes_abort());
    assert!(matches!(tool.returns, Returns::Type(_)));
    assert!(matches!(tool.params[0], Param::Input { .. }));
}

#[test]
fn the_renderer_places_every_key_it_writes() {
    let item: ItemFn = parse_quote! {
        /// Reindex.
        fn reindex(input: Input, abort: AbortSignal) -> ToolResult { todo!() }
    };
    let (tool, errors) = parse(
        quote! {
            family = "catalog", defaults(depth = 2),
            annotations(title = "Reindex", read_only = false, destructive, idempotent,
                        open_world = false, category = "write", estimated_duration_ms = 9,
                        cancellable),
            ui(presentation = "inline", card_type = "catalog.result", icon = "list"),
            requires(features("catalog.write"), escalations("catalog.admin")),
            ask_on_keys(depth),
        },
        &item,
    );
    assert_eq!(errors, Vec::<String>::new());
    let rendered = tool.render();
    assert_eq!(rendered.block, tool.x_neuralis());
    // Every member of the block, depth first, in the block's order.
    fn pointers(at: &str, value: &Value, out: &mut Vec<String>) {
        let members: Vec<(String, &Value)> = match value {
            Value::Object(m) => m.iter().map(|(k, v)| (format!("{at}/{k}"), v)).collect(),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .map(|(i, v)| (format!("{at}/{i}"), v))
                .collect(),
            _ => Vec::new(),
        };
        for (p, v) in members {
            out.push(p.clone());
            pointers(&p, v, out);
        }
    }
    let mut all = Vec::new();
    pointers("/x-neuralis", &rendered.block, &mut all);
    let placed: Vec<&str> = rendered.spans.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(placed, all);
    assert!(placed.contains(&"/x-neuralis/annotations/estimatedDurationMs"));
    assert!(placed.contains(&"/x-neuralis/requires/escalations/0"));
}

#[test]
fn every_error_at_once() {
    let item: ItemFn = parse_quote! {
        fn do_thing(input: Input, abort: AbortSignal) {}
    };
    let got = rules(
        quote! {
            name = "has space",
            colour = "red",
            recovery_mode = "retry",
            annotations(category = "reed", readOnlyHint, estimated_duration_ms = -1),
            ui(presentation = "modal"),
            ask_on_keys("a", "a"),
        },
        &item,
    );
    assert_eq!(
        got,
        [
            "xn-unknown-key",
            "xn-recovery-field",
            // A value is judged as it is read.
            "category-invalid",
            "xn-unknown-key",
            "xn-type",
            "xn-type",
            "handler-signature",
            "tool-name",
            "askonkeys-posture",
            "askonkeys-duplicate",
            "cancellable-signal",
        ]
    );
}

#[test]
fn did_you_mean() {
    let (_, errors) = parse(
        quote!(annotations(category = "read", readOnlyHint, destructve)),
        &handler(),
    );
    assert!(errors[0].contains("did you mean `read_only`"), "{errors:?}");
    assert!(
        errors[1].contains("did you mean `destructive`"),
        "{errors:?}"
    );
    let (_, errors) = parse(
        quote!(annotations(category = "read"), readOnlyHint),
        &handler(),
    );
    assert!(
        errors[0].contains("did you mean `annotations(read_only)`"),
        "{errors:?}"
    );
    let (_, errors) = parse(quote!(category = "read"), &handler());
    assert!(
        errors[0].contains("`category` belongs in `annotations(...)`"),
        "{errors:?}"
    );
}

#[test]
fn askonkeys_limits_both_ways() {
    let eight = quote! {
        annotations(destructive, category = "machine"),
        ask_on_keys(a, b, c, d, e, f, g, h),
    };
    assert_eq!(rules(eight, &handler()), Vec::<String>::new());
    let nine = quote! {
        annotations(destructive, category = "machine"),
        ask_on_keys(a, b, c, d, e, f, g, h, i),
    };
    assert_eq!(rules(nine, &handler()), ["askonkeys-too-many"]);
    let read = quote! {
        annotations(destructive, category = "read"),
        ask_on_keys(a),
    };
    assert_eq!(rules(read, &handler()), ["askonkeys-posture"]);
}

#[test]
fn category_missing_and_cancellable() {
    assert_eq!(rules(quote!(), &handler()), ["category-missing"]);
    assert_eq!(
        rules(
            quote!(annotations(category = "read", cancellable)),
            &handler()
        ),
        ["cancellable-signal"]
    );
    let item: ItemFn = parse_quote! {
        fn do_thing(input: Input, cx: &ToolContext, abort: AbortSignal) -> Result<Out, Error> { todo!() }
    };
    assert_eq!(
        rules(quote!(annotations(category = "read", cancellable)), &item),
        Vec::<String>::new()
    );
}

#[test]
fn handler_signatures() {
    let bad: [ItemFn; 5] = [
        parse_quote!(
            fn f(&self, input: Input) -> ToolResult {
                todo!()
            }
        ),
        parse_quote!(
            fn f(input: &Input) -> ToolResult {
                todo!()
            }
        ),
        parse_quote!(
            fn f(a: A, b: B) -> ToolResult {
                todo!()
            }
        ),
        parse_quote!(
            fn f(cx: &ToolContext) -> ToolResult {
                todo!()
            }
        ),
        parse_quote!(
            fn f<T>(input: T) -> ToolResult {
                todo!()
            }
        ),
    ];
    for item in &bad {
        assert_eq!(
            rules(quote!(annotations(category = "read")), item),
            ["handler-signature"],
            "{}",
            quote!(#item)
        );
    }
}

fn method_rules(item: &ItemFn) -> Vec<String> {
    let cx = Ctxt::new();
    let service: syn::ItemImpl = parse_quote!(impl Notes {});
    let service = neuralis_syntax::tool::parse_service(&cx, &service);
    let tool = neuralis_syntax::tool::parse_method(
        &cx,
        quote!(annotations(category = "read")),
        item,
        service.as_ref(),
    );
    assert_eq!(
        tool.service.map(|s| s.ident.to_string()).as_deref(),
        Some("Notes")
    );
    cx.check()
        .err()
        .map(|e| {
            e.into_iter()
                .map(|e| {
                    e.to_string()
                        .split(':')
                        .next()
                        .unwrap_or_default()
                        .to_owned()
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn method_signatures() {
    let good: [ItemFn; 3] = [
        parse_quote!(
            fn f(&self, input: Input) -> ToolResult {
                todo!()
            }
        ),
        parse_quote!(
            async fn f(&self, cx: &ToolContext, input: Input) -> ToolResult {
                todo!()
            }
        ),
        parse_quote!(
            fn f(&'static self, input: Input) -> ToolResult {
                todo!()
            }
        ),
    ];
    for item in &good {
        assert_eq!(
            method_rules(item),
            Vec::<String>::new(),
            "{}",
            quote!(#item)
        );
    }
    let bad: [ItemFn; 7] = [
        parse_quote!(
            fn f(&mut self, input: Input) -> ToolResult {
                todo!()
            }
        ),
        parse_quote!(
            fn f(self, input: Input) -> ToolResult {
                todo!()
            }
        ),
        parse_quote!(
            fn f(mut self, input: Input) -> ToolResult {
                todo!()
            }
        ),
        parse_quote!(
            fn f(self: std::sync::Arc<Self>, input: Input) -> ToolResult {
                todo!()
            }
        ),
        parse_quote!(
            fn f(input: Input) -> ToolResult {
                todo!()
            }
        ),
        parse_quote!(
            fn f<T>(&self, input: Input) -> ToolResult {
                todo!()
            }
        ),
        parse_quote!(
            fn f(&self, input: &Input) -> ToolResult {
                todo!()
            }
        ),
    ];
    for item in &bad {
        assert_eq!(
            method_rules(item),
            ["handler-signature"],
            "{}",
            quote!(#item)
        );
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        // Any list of keys: one `askonkeys-duplicate` per repeat, `askonkeys-too-many`
        // exactly when more than 8 are distinct, and the block lists the keys as written.
        #[test]
        fn ask_on_keys_lists(keys in proptest::collection::vec(0u8..12, 0..14)) {
            let names: Vec<String> = keys.iter().map(|k| format!("k{k}")).collect();
            let args = quote! {
                annotations(destructive, category = "write"),
                ask_on_keys(#(#names),*),
            };
            let (tool, errors) = parse(args, &handler());
            let mut distinct: Vec<&String> = Vec::new();
            let mut repeats = 0;
            for n in &names {
                if distinct.contains(&n) { repeats += 1 } else { distinct.push(n) }
            }
            let dup = errors.iter().filter(|e| e.starts_with("askonkeys-duplicate:")).count();
            let many = errors.iter().filter(|e| e.starts_with("askonkeys-too-many:")).count();
            prop_assert_eq!(dup, repeats);
            prop_assert_eq!(many, usize::from(distinct.len() > 8));
            prop_assert_eq!(errors.len(), dup + many);
            let block = tool.x_neuralis();
            // An empty list declares nothing: the block leaves it out.
            let listed = block.get("askOnKeys").cloned().unwrap_or_else(|| serde_json::json!([]));
            prop_assert_eq!(&listed, &serde_json::json!(names));
        }
    }
}
