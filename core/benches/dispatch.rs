//! One call through the pipeline for a 5-field input of about 200 bytes, against its parts.
//!
//! Scenarios, on the same argument text:
//! - `pipeline`: `serde_json::from_str::<Value>` then `Package::dispatch_blocking` (gate,
//!   defaults, validation, deserialization, handler, bounding);
//! - `handler_direct` (a): the handler called with an input already deserialized;
//! - `parse_and_validate` (b): `serde_json::from_str::<Value>` plus a compiled jsonschema
//!   `is_valid`.
//!
//! Target: `pipeline - handler_direct <= 2 * parse_and_validate`. The validator inside the
//! package is compiled on its first call (the warm-up), never per call.
//!
//! Run: `cargo bench -p neuralis-core --bench dispatch -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use neuralis_core::dispatch::{Package, SessionContext, sync_fn};
use neuralis_core::result::ToolResult;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Forecast {
    city: String,
    days: u8,
    units: String,
    include_hourly: bool,
    note: String,
}

fn forecast(f: Forecast) -> ToolResult {
    ToolResult::text(format!(
        "{} days of {} weather for {}{} ({} characters of notes)",
        f.days,
        f.units,
        f.city,
        if f.include_hourly { ", hourly" } else { "" },
        f.note.len()
    ))
}

fn schema() -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "additionalProperties": false,
        "description": "Forecast the weather for a city over the next few days.",
        "properties": {
            "city": {"type": "string", "minLength": 1, "maxLength": 120, "description": "City name."},
            "days": {"type": "integer", "minimum": 1, "maximum": 14},
            "units": {"type": "string", "enum": ["metric", "imperial"]},
            "includeHourly": {"type": "boolean"},
            "note": {"type": "string", "maxLength": 200}
        },
        "required": ["city", "units", "includeHourly", "note"],
        "x-neuralis": {
            "defaults": {"days": 3},
            "annotations": {"category": "network", "readOnlyHint": true, "title": "Weather Forecast"},
            "ui": {"presentation": "inline"},
            "requires": {"features": ["weather.read"]}
        }
    })
}

const ARGS: &str = r#"{"city":"Lisbon, Portugal","days":5,"units":"metric","includeHourly":true,"note":"Planning a long weekend by the coast; please include the wind, the sea state and the chance of rain for each day."}"#;

fn bench(c: &mut Criterion) {
    let schema = schema();
    let file = serde_json::to_vec(&schema).expect("schema");
    let package = Package::builder()
        .tool("weather_forecast", file, sync_fn(forecast))
        .build()
        .expect("package");
    let session = SessionContext::builder("user-1")
        .grant("weather.read")
        .build();
    let validator = jsonschema::draft7::new(&schema).expect("validator");
    let input: Forecast = serde_json::from_str(ARGS).expect("input");
    let check = package.dispatch_blocking(
        "weather_forecast",
        serde_json::from_str(ARGS).expect("args"),
        &session,
    );
    assert!(!check.is_error, "{check:?}");
    assert!(validator.is_valid(&serde_json::from_str(ARGS).expect("args")));

    let mut group = c.benchmark_group(format!("dispatch_{}b", ARGS.len()));
    group.bench_function("pipeline", |b| {
        b.iter(|| {
            let args: Value = serde_json::from_str(black_box(ARGS)).expect("args");
            black_box(package.dispatch_blocking("weather_forecast", args, &session))
        });
    });
    group.bench_function("handler_direct", |b| {
        b.iter_batched(
            || input.clone(),
            |i| black_box(forecast(black_box(i))),
            criterion::BatchSize::SmallInput,
        );
    });
    group.bench_function("parse_and_validate", |b| {
        b.iter(|| {
            let args: Value = serde_json::from_str(black_box(ARGS)).expect("args");
            black_box(validator.is_valid(&args))
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
