//! Well-known crates' types behind features: strings with a `format` or a `pattern`.
//! Run with `cargo test --test formats --features uuid,chrono,url,time`.
#![cfg(all(
    feature = "uuid",
    feature = "chrono",
    feature = "url",
    feature = "time"
))]
#![allow(missing_docs)]

use neuralis::{ToolInput, ToolOutput};
use serde_json::json;

#[derive(ToolInput)]
#[schema(root)]
pub struct Formats {
    pub id: uuid::Uuid,
    pub at: chrono::DateTime<chrono::Utc>,
    pub day: chrono::NaiveDate,
    pub local: Option<chrono::NaiveDateTime>,
    pub clock: chrono::NaiveTime,
    pub link: url::Url,
    #[schema(with = time::OffsetDateTime)]
    pub stamp: String,
}

#[test]
fn formats() {
    let p = &Formats::schema()["properties"];
    assert_eq!(p["id"], json!({ "type": "string", "format": "uuid" }));
    assert_eq!(p["at"]["format"], "date-time");
    assert_eq!(p["day"]["format"], "date");
    assert_eq!(p["link"]["format"], "uri");
    assert_eq!(p["stamp"]["format"], "date-time");
    let local = regex::Regex::new(p["local"]["pattern"].as_str().expect("a pattern"))
        .expect("the pattern compiles");
    assert!(local.is_match("2026-11-30T12:00:00.5"));
    assert!(!local.is_match("2026-11-30T12:00:00Z"));
    let clock = regex::Regex::new(p["clock"]["pattern"].as_str().expect("a pattern"))
        .expect("the pattern compiles");
    assert!(clock.is_match("23:59:01"));
}

/// What a handler returns: the same types, written by their crates' serde.
#[derive(ToolOutput, serde::Serialize)]
pub struct Stamped {
    pub id: uuid::Uuid,
    pub at: chrono::DateTime<chrono::Utc>,
    pub day: chrono::NaiveDate,
    pub local: Option<chrono::NaiveDateTime>,
    pub clock: chrono::NaiveTime,
    pub link: url::Url,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(with = time::OffsetDateTime)]
    pub stamp: time::OffsetDateTime,
}

/// Each type that has an input schema has an output schema with the same format, and what
/// serde writes for it validates against that schema (formats asserted).
#[test]
fn outputs_have_the_inputs_formats() {
    let schema = Stamped::output_schema();
    let p = &schema["properties"];
    let inputs = &Formats::schema()["properties"];
    for key in ["id", "at", "day", "clock", "link", "stamp"] {
        assert_eq!(p[key], inputs[key], "{key}");
    }
    assert_eq!(
        p["local"],
        json!({"anyOf": [inputs["local"], {"type": "null"}]})
    );
    let value = Stamped {
        id: uuid::Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef),
        at: chrono::DateTime::from_timestamp(1_700_000_000, 500_000_000).expect("a time"),
        day: chrono::NaiveDate::from_ymd_opt(2026, 11, 30).expect("a day"),
        local: chrono::NaiveDate::from_ymd_opt(2026, 11, 30)
            .and_then(|d| d.and_hms_milli_opt(12, 0, 0, 5)),
        clock: chrono::NaiveTime::from_hms_opt(23, 59, 1).expect("a time"),
        link: url::Url::parse("https://example.com/a?b=c").expect("a URL"),
        stamp: time::OffsetDateTime::from_unix_timestamp(1_700_000_000).expect("a time"),
    };
    let written = serde_json::to_value(&value).expect("serializes");
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&written)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{written}: {errors:?}");
    assert!(
        !validator.is_valid(&json!({"id": "x", "at": "y", "day": "z", "local": null,
            "clock": "c", "link": "l", "stamp": "s"})),
        "the formats are asserted"
    );
}
