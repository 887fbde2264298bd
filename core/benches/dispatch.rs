//! One call through the pipeline for a 5-field input, with arguments of about 60 B, 200 B
//! and 1.3 KB, against its parts.
//!
//! Scenarios, on the same argument text:
//! - `pipeline`: `serde_json::from_str::<Value>` then `Package::dispatch_blocking` (gate,
//!   defaults, validation, deserialization, handler, bounding);
//! - `pipeline_text`: `Package::dispatch_text_blocking` on the text (the same, parsing
//!   with the sized parse, the root with room for the default);
//! - `handler_direct` (a): the handler called with an input already deserialized;
//! - `parse_and_validate` (b): `serde_json::from_str::<Value>` plus a compiled jsonschema
//!   `is_valid`;
//! - `parse_and_validate_builtin`: the same with the built-in validator
//!   (`neuralis_core::validate`, what the pipeline runs) in place of `jsonschema`;
//! - `floor`: (b), then the default inserted, `serde_json::from_value` and the handler: the
//!   least any pipeline that validates a parsed tree does, written by hand with nothing of
//!   ours in it (no gate, no context, no bounding, no error pointers).
//!
//! Targets: `pipeline - handler_direct <= 2 * parse_and_validate`; issue 19's:
//! `pipeline <= parse_and_validate` at all three sizes. The validator inside the package is
//! compiled when the package is built, never per call; `validate` and `validate_builtin`
//! time the two validators alone on the parsed arguments.
//!
//! Times are the benchmark thread's CPU time (`support/cpu.rs`; `NEURALIS_BENCH_WALL=1` for
//! wall time). `benches/ratios.sh dispatch dispatch_ parse_and_validate` gives the ratios
//! over rounds.
//!
//! Run: `cargo bench -p neuralis-core --bench dispatch -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::Criterion;
use criterion::measurement::{Measurement, WallTime};
use neuralis_core::dispatch::{Package, SessionContext, sync_fn};
use neuralis_core::result::ToolResult;
use neuralis_core::validate::Validator;
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
            "note": {"type": "string", "maxLength": 2000}
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

#[path = "support/arguments.rs"]
mod arguments;
use arguments::{MEDIUM, SMALL, large};

#[path = "support/count.rs"]
mod counted;
#[path = "support/cpu.rs"]
mod cpu;

fn bench<M: Measurement>(c: &mut Criterion<M>) {
    let large = large();
    for args in [SMALL, MEDIUM, large.as_str()] {
        bench_args(c, args);
    }
}

/// The package, the session and the baselines' validators, built once per size.
fn fixture() -> (Package, SessionContext, Validators) {
    let schema = schema();
    let package = Package::builder()
        .tool(
            "weather_forecast",
            serde_json::to_vec(&schema).expect("schema"),
            sync_fn(forecast),
        )
        .build()
        .expect("package");
    let session = SessionContext::builder("user-1")
        .grant("weather.read")
        .build();
    let validators = Validators {
        general: jsonschema::draft7::new(&schema).expect("validator"),
        builtin: Validator::compile(&schema).expect("in the subset"),
    };
    (package, session, validators)
}

/// The baselines' compiled schemas: `jsonschema`'s and the built-in one.
struct Validators {
    general: jsonschema::Validator,
    builtin: Validator,
}

fn bench_args<M: Measurement>(c: &mut Criterion<M>, args: &str) {
    let (package, session, validator) = fixture();
    // The handler's input as the pipeline hands it over: with the `days` default applied.
    let mut with_defaults: Value = serde_json::from_str(args).expect("args");
    if let Some(m) = with_defaults.as_object_mut() {
        m.entry("days").or_insert(json!(3));
    }
    let input: Forecast = serde_json::from_value(with_defaults).expect("input");
    let check = package.dispatch_blocking(
        "weather_forecast",
        serde_json::from_str(args).expect("args"),
        &session,
    );
    assert!(!check.is_error, "{check:?}");
    assert_eq!(
        package.dispatch_text_blocking("weather_forecast", args, &session),
        check
    );
    assert!(
        validator
            .general
            .is_valid(&serde_json::from_str(args).expect("args"))
    );
    assert!(
        validator
            .builtin
            .is_valid(&serde_json::from_str(args).expect("args"))
    );

    let mut group = c.benchmark_group(format!("dispatch_{}b", args.len()));
    for (name, mut run) in scenarios(&package, &session, &validator, args) {
        group.bench_function(name, |b| b.iter(&mut run));
    }
    group.bench_function("handler_direct", |b| {
        b.iter_batched(
            || input.clone(),
            |i| black_box(forecast(black_box(i))),
            criterion::BatchSize::SmallInput,
        );
    });
    group.finish();
}

/// One scenario's call, as a closure.
type Scenario<'a> = Box<dyn FnMut() + 'a>;

/// The scenarios timed in both modes (criterion, and `NEURALIS_BENCH_COUNT`'s loop).
fn scenarios<'a>(
    package: &'a Package,
    session: &'a SessionContext,
    validator: &'a Validators,
    args: &'a str,
) -> Vec<(&'static str, Scenario<'a>)> {
    vec![
        (
            "pipeline",
            Box::new(move || {
                let args: Value = serde_json::from_str(black_box(args)).expect("args");
                black_box(package.dispatch_blocking("weather_forecast", args, session));
            }),
        ),
        (
            "pipeline_text",
            Box::new(move || {
                black_box(package.dispatch_text_blocking(
                    "weather_forecast",
                    black_box(args),
                    session,
                ));
            }),
        ),
        (
            "floor",
            Box::new(move || {
                let mut args: Value = serde_json::from_str(black_box(args)).expect("args");
                if let Some(m) = args.as_object_mut() {
                    m.entry("days").or_insert(json!(3));
                }
                assert!(validator.general.is_valid(&args));
                let input: Forecast = serde_json::from_value(args).expect("input");
                black_box(forecast(input));
            }),
        ),
        (
            "parse_and_validate",
            Box::new(move || {
                let args: Value = serde_json::from_str(black_box(args)).expect("args");
                black_box(validator.general.is_valid(&args));
            }),
        ),
        (
            "parse_and_validate_builtin",
            Box::new(move || {
                let args: Value = serde_json::from_str(black_box(args)).expect("args");
                black_box(validator.builtin.is_valid(&args));
            }),
        ),
        (
            "validate",
            Box::new({
                let parsed: Value = serde_json::from_str(args).expect("args");
                move || {
                    black_box(validator.general.is_valid(black_box(&parsed)));
                }
            }),
        ),
        (
            "validate_builtin",
            Box::new({
                let parsed: Value = serde_json::from_str(args).expect("args");
                move || {
                    black_box(validator.builtin.is_valid(black_box(&parsed)));
                }
            }),
        ),
    ]
}

/// The count mode (`support/count.rs`): size 0, 1 or 2 (the 65 B, 197 B and 1.3 KB
/// arguments), then `calls` calls of one scenario.
fn count(size: usize, name: &str, calls: usize) {
    let large = large();
    let sizes = [SMALL, MEDIUM, large.as_str()];
    let args = sizes[size];
    let (package, session, validator) = fixture();
    // A first call outside the count (the handler's first run, lazily made statics).
    assert!(
        !package
            .dispatch_text_blocking("weather_forecast", args, &session)
            .is_error
    );
    let (_, mut run) = scenarios(&package, &session, &validator, args)
        .into_iter()
        .find(|(n, _)| *n == name)
        .expect("a scenario of scenarios()");
    for _ in 0..calls {
        run();
    }
}

fn main() {
    if let Some((size, scenario, calls)) = counted::requested() {
        return count(size, &scenario, calls);
    }
    cpu::run(bench::<cpu::ThreadCpu>, bench::<WallTime>);
}
