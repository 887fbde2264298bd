//! The call path an MCP server takes, for both kinds of tool, in instructions
//! (`benches/count.sh`; run as a test, it checks that every path gives the same result; `core/benches/dispatch.rs` has the same input,
//! arguments and baselines for criterion). rmcp hands a call's arguments already parsed,
//! so an MCP call is "parsed, then dispatched".
//!
//! Scenarios, on the 65 B, 197 B and 1.3 KB arguments of `core/benches/dispatch.rs`:
//! - `macro_pipeline`: `serde_json::from_str::<Value>`, then `Package::dispatch_blocking`
//!   of a tool built by `#[derive(ToolInput)]` and `#[tool]`;
//! - `hand_pipeline`: the same with the same tool file registered by hand
//!   (`Package::builder().tool(name, file, sync_fn(..))`);
//! - `macro_pipeline_text`: `Package::dispatch_text_blocking` of the macro-built tool;
//! - `macro_raw_text`: the arguments scanned as a `RawValue` (what a server that read
//!   `tools/call` itself would do to find them in the message), then the same;
//! - `parse_and_validate`: `serde_json::from_str::<Value>` plus a compiled `jsonschema`
//!   `is_valid` of the same document;
//! - `floor`: that, then the default inserted, `serde_json::from_value` and the handler.
//!
//! Run as an MCP package builds it (`neuralis-mcp` no longer turns on `neuralis-core`'s
//! `jsonschema` feature; the figures in benches/README.md were taken with it on, which the
//! valid path never reads):
//! `PACKAGE=neuralis FEATURES=neuralis-core/jsonschema benches/count.sh mcp_path 1000
//! parse_and_validate "0 1 2" "macro_pipeline hand_pipeline macro_pipeline_text
//! macro_raw_text floor parse_and_validate"`.

use std::hint::black_box;

use neuralis::dispatch::{Package, SessionContext, sync_fn};
use neuralis::{ToolInput, ToolResult, tool};
use serde::Deserialize;
use serde_json::{Value, json};

/// The input of [`forecast`].
#[derive(ToolInput, Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
#[schema(root)]
pub struct Forecast {
    /// City name.
    #[schema(min_length = 1, max_length = 120)]
    city: String,
    /// Days ahead.
    #[schema(minimum = 1, maximum = 14)]
    days: Option<u8>,
    /// The units.
    units: Units,
    /// Whether to include hourly figures.
    include_hourly: bool,
    /// Notes.
    #[schema(max_length = 2000)]
    note: String,
}

/// The units of a forecast.
#[derive(ToolInput, Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum Units {
    /// Celsius, km/h.
    Metric,
    /// Fahrenheit, mph.
    Imperial,
}

/// Forecast the weather for a city over the next few days.
#[tool(
    defaults(days = 3),
    annotations(title = "Weather Forecast", read_only, category = "network"),
    ui(presentation = "inline"),
    requires(features("weather.read"))
)]
fn forecast(f: Forecast) -> ToolResult {
    ToolResult::text(format!(
        "{} days of {} weather for {}{} ({} characters of notes)",
        f.days.unwrap_or(3),
        match f.units {
            Units::Metric => "metric",
            Units::Imperial => "imperial",
        },
        f.city,
        if f.include_hourly { ", hourly" } else { "" },
        f.note.len()
    ))
}

#[path = "../core/benches/support/arguments.rs"]
mod arguments;
use arguments::{MEDIUM, SMALL, large};

#[path = "../core/benches/support/count.rs"]
mod counted;

/// The two packages (macro-built, hand-registered), the session and the baseline's
/// compiled schema.
struct Fixture {
    by_macro: Package,
    by_hand: Package,
    session: SessionContext,
    general: jsonschema::Validator,
}

fn fixture() -> Fixture {
    let document = __neuralis_tool_forecast.document();
    let by_macro = neuralis::testing::package([&__neuralis_tool_forecast])
        .build()
        .expect("the macro-built package");
    let by_hand = Package::builder()
        .tool(
            "forecast",
            serde_json::to_vec(&document).expect("the document"),
            sync_fn(forecast),
        )
        .build()
        .expect("the hand-registered package");
    Fixture {
        by_macro,
        by_hand,
        session: SessionContext::builder("user-1")
            .grant("weather.read")
            .build(),
        general: jsonschema::draft7::new(&document).expect("a draft-07 schema"),
    }
}

/// One scenario's call, as a closure.
type Scenario<'a> = Box<dyn FnMut() + 'a>;

fn scenario<'a>(f: &'a Fixture, args: &'a str, name: &str) -> Option<Scenario<'a>> {
    let parsed_then = |package: &'a Package| -> Scenario<'a> {
        Box::new(move || {
            let args: Value = serde_json::from_str(black_box(args)).expect("args");
            black_box(package.dispatch_blocking("forecast", args, &f.session));
        })
    };
    Some(match name {
        "macro_pipeline" => parsed_then(&f.by_macro),
        "hand_pipeline" => parsed_then(&f.by_hand),
        "macro_pipeline_text" => Box::new(move || {
            black_box(
                f.by_macro
                    .dispatch_text_blocking("forecast", black_box(args), &f.session),
            );
        }),
        "macro_raw_text" => Box::new(move || {
            let raw: &serde_json::value::RawValue =
                serde_json::from_str(black_box(args)).expect("args");
            black_box(
                f.by_macro
                    .dispatch_text_blocking("forecast", raw.get(), &f.session),
            );
        }),
        "parse_and_validate" => Box::new(move || {
            let args: Value = serde_json::from_str(black_box(args)).expect("args");
            black_box(f.general.is_valid(&args));
        }),
        "floor" => Box::new(move || {
            let mut args: Value = serde_json::from_str(black_box(args)).expect("args");
            if let Some(m) = args.as_object_mut() {
                m.entry("days").or_insert(json!(3));
            }
            assert!(f.general.is_valid(&args));
            let input: Forecast = serde_json::from_value(args).expect("input");
            black_box(forecast(input));
        }),
        _ => return None,
    })
}

fn main() {
    let f = fixture();
    let large = large();
    let sizes = [SMALL, MEDIUM, large.as_str()];
    let Some((size, name, calls)) = counted::requested() else {
        // Run as a test (`cargo test --all-targets`): every path gives the same result.
        for args in sizes {
            same_result(&f, args);
        }
        return;
    };
    let args = sizes[size];
    same_result(&f, args);
    let mut run = scenario(&f, args, &name).expect("a scenario of scenario()");
    for _ in 0..calls {
        run();
    }
}

/// The same result from every path (outside the count).
fn same_result(f: &Fixture, args: &str) {
    let first = f
        .by_macro
        .dispatch_text_blocking("forecast", args, &f.session);
    assert!(!first.is_error, "{first:?}");
    let raw: &serde_json::value::RawValue = serde_json::from_str(args).expect("args");
    assert_eq!(
        f.by_macro
            .dispatch_text_blocking("forecast", raw.get(), &f.session),
        first
    );
    let parsed: Value = serde_json::from_str(args).expect("args");
    assert_eq!(
        f.by_hand
            .dispatch_blocking("forecast", parsed.clone(), &f.session),
        first
    );
    assert_eq!(
        f.by_macro.dispatch_blocking("forecast", parsed, &f.session),
        first
    );
    assert!(
        f.general
            .is_valid(&serde_json::from_str(args).expect("args"))
    );
}
