//! The seed's `weather_forecast` and `catalog_list`, written with the macros: the
//! `x-neuralis` blocks they produce equal the seed's, key for key and in order, and the
//! composed documents equal the seed's files.
#![allow(missing_docs)]

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use neuralis::__private::{Adapter, ToolDescriptor};
use neuralis::dispatch::{Package, SessionContext};
use neuralis::{ToolContext, ToolInput, ToolResult, tool};
use serde_json::{Value, json};

mod weather {
    use super::*;

    /// The input of `weather_forecast`.
    #[derive(ToolInput, serde::Deserialize)]
    #[schema(title = "Weather Forecast")]
    pub struct WeatherForecast {
        /// City name, for example "Lisbon".
        #[schema(min_length = 1, max_length = 120)]
        pub city: String,
        /// Days ahead.
        #[schema(minimum = 1, maximum = 14)]
        pub days: Option<u8>,
    }

    /// Forecast the weather for a city over the next few days.
    #[tool(
        family = "weather",
        operation = "weather.forecast",
        transport = "embedded",
        defaults(days = 3),
        annotations(
            title = "Weather Forecast",
            read_only,
            destructive = false,
            category = "network",
            estimated_duration_ms = 2000
        ),
        ui(
            presentation = "card",
            card_type = "weather.result",
            icon = "cloud-sun"
        ),
        requires(features("weather.read"))
    )]
    pub async fn weather_forecast(input: WeatherForecast, cx: &ToolContext) -> ToolResult {
        let _ = cx;
        ToolResult::json(json!({
            "ok": true,
            "city": input.city,
            "days": input.days.unwrap_or(3),
        }))
    }
}

mod catalog {
    use super::*;

    /// Optional filter by status.
    #[derive(ToolInput, serde::Deserialize, Default)]
    #[serde(rename_all = "lowercase")]
    pub enum Filter {
        #[default]
        Active,
        Archived,
        All,
    }

    /// The input of `catalog_list`.
    #[derive(ToolInput, serde::Deserialize)]
    #[schema(title = "List Catalog")]
    pub struct CatalogList {
        /// Optional filter by status.
        #[schema(default = "active")]
        pub filter: Option<Filter>,
    }

    #[derive(serde::Serialize, neuralis::ToolOutput)]
    pub struct Listed {
        pub ok: bool,
        pub items: Vec<String>,
    }

    /// List all items in the catalog. Returns an array of items with id, name, and status.
    #[tool(
        family = "catalog",
        operation = "catalog.list",
        transport = "embedded",
        annotations(
            title = "List Catalog",
            read_only,
            destructive = false,
            category = "read"
        ),
        ui(presentation = "explored", icon = "list")
    )]
    pub fn catalog_list(input: CatalogList) -> Result<Listed, String> {
        match input.filter.unwrap_or_default() {
            Filter::Archived => Err("the archive is offline".into()),
            _ => Ok(Listed {
                ok: true,
                items: vec!["a".into()],
            }),
        }
    }
}

fn seed(path: &str) -> Value {
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
        .expect("the seed example");
    serde_json::from_str(&text).expect("json")
}

/// Same keys in the same order, at every level.
fn assert_same_keys(got: &Value, want: &Value, at: &str) {
    assert_eq!(got, want, "{at}");
    if let (Value::Object(g), Value::Object(w)) = (got, want) {
        let gk: Vec<&String> = g.keys().collect();
        let wk: Vec<&String> = w.keys().collect();
        assert_eq!(gk, wk, "key order at {at}");
        for (k, v) in g {
            assert_same_keys(v, &w[k], &format!("{at}/{k}"));
        }
    }
}

fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

fn context() -> ToolContext {
    ToolContext::new("test", SessionContext::builder("user-1").build())
}

fn call(d: &ToolDescriptor, args: Value) -> ToolResult {
    let cx = context();
    let out = match d.handler {
        Adapter::Sync(f) => f(args.into(), &cx),
        Adapter::Async(f) => block_on(f(args.into(), &cx).expect("valid arguments")),
    };
    out.expect("valid arguments")
}

#[test]
fn weather_forecast_block_is_the_seeds() {
    let d = &weather::__neuralis_tool_weather_forecast;
    let file = seed("examples/weather/tools/weather_forecast.json");
    assert_eq!(d.name, "weather_forecast");
    assert_same_keys(&d.x_neuralis(), &file["x-neuralis"], "/x-neuralis");
    assert_eq!(
        d.meta().expect("typed").annotations.estimated_duration_ms,
        Some(2000)
    );
}

#[test]
fn catalog_list_block_is_the_seeds() {
    let d = &catalog::__neuralis_tool_catalog_list;
    let file = seed("examples/catalog/tools/catalog_list.json");
    assert_eq!(d.name, "catalog_list");
    assert_same_keys(&d.x_neuralis(), &file["x-neuralis"], "/x-neuralis");
}

#[test]
fn documents_equal_the_seeds() {
    for (d, path) in [
        (
            &weather::__neuralis_tool_weather_forecast,
            "examples/weather/tools/weather_forecast.json",
        ),
        (
            &catalog::__neuralis_tool_catalog_list,
            "examples/catalog/tools/catalog_list.json",
        ),
    ] {
        assert_eq!(d.document(), seed(path), "{path}");
        let diagnostics = neuralis::check_value(d.name, &d.document(), &Default::default());
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
    }
}

#[test]
fn adapters_call_the_handlers() {
    let weather = call(
        &weather::__neuralis_tool_weather_forecast,
        json!({ "city": "Lisbon" }),
    );
    assert_eq!(
        weather.structured_content,
        Some(json!({ "ok": true, "city": "Lisbon", "days": 3 }))
    );
    let listed = call(&catalog::__neuralis_tool_catalog_list, json!({}));
    assert_eq!(
        listed.structured_content,
        Some(json!({ "ok": true, "items": ["a"] }))
    );
    assert!(!listed.is_error);
    let failed = call(
        &catalog::__neuralis_tool_catalog_list,
        json!({ "filter": "archived" }),
    );
    assert!(failed.is_error);
    assert_eq!(
        failed.for_model()["content"][0]["text"],
        "the archive is offline"
    );
    let cx = context();
    let Adapter::Sync(f) = catalog::__neuralis_tool_catalog_list.handler else {
        panic!("a sync handler");
    };
    let err = f(json!({ "filter": "deleted" }).into(), &cx).expect_err("not a filter");
    assert!(err.to_string().starts_with("invalid arguments: "), "{err}");
}

/// The descriptors `#[tool]` emits are handlers as they are: registered with the seed's
/// files, a call goes through the whole pipeline (gate, defaults, validation, handler).
#[test]
fn descriptors_dispatch_through_the_pipeline() {
    let package = Package::builder()
        .tool(
            "weather_forecast",
            include_bytes!("../examples/weather/tools/weather_forecast.json"),
            weather::__neuralis_tool_weather_forecast,
        )
        .tool(
            "catalog_list",
            include_bytes!("../examples/catalog/tools/catalog_list.json"),
            catalog::__neuralis_tool_catalog_list,
        )
        .build()
        .expect("the seed's files pass the checker");
    let granted = SessionContext::builder("user-1")
        .grant("weather.read")
        .build();
    let forecast =
        package.dispatch_blocking("weather_forecast", json!({ "city": "Lisbon" }), &granted);
    assert!(!forecast.is_error, "{forecast:?}");
    assert_eq!(
        forecast.structured_content,
        Some(json!({ "ok": true, "city": "Lisbon", "days": 3 })),
        "the default from x-neuralis.defaults reaches the handler"
    );
    let refused = package.dispatch_blocking("weather_forecast", json!({ "city": "" }), &granted);
    assert!(refused.is_error, "minLength is enforced before the handler");
    let anonymous = SessionContext::builder("user-2").build();
    let gated =
        package.dispatch_blocking("weather_forecast", json!({ "city": "Lisbon" }), &anonymous);
    let without = Package::builder()
        .tool(
            "catalog_list",
            include_bytes!("../examples/catalog/tools/catalog_list.json"),
            catalog::__neuralis_tool_catalog_list,
        )
        .build()
        .expect("the seed's file passes the checker");
    let unknown =
        without.dispatch_blocking("weather_forecast", json!({ "city": "Lisbon" }), &granted);
    assert!(gated.is_error);
    assert_eq!(
        serde_json::to_vec(&gated.for_model()).expect("json"),
        serde_json::to_vec(&unknown.for_model()).expect("json"),
        "a tool the caller may not use reads exactly like one that does not exist"
    );
}
