//! Well-known crates' types behind features: strings with a `format` or a `pattern`.
//! Run with `cargo test --test formats --features uuid,chrono,url,time`.
#![cfg(all(
    feature = "uuid",
    feature = "chrono",
    feature = "url",
    feature = "time"
))]
#![allow(missing_docs)]

use neuralis::ToolInput;
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
