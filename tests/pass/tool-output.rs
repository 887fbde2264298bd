//! Output near-misses: what serde writes is modelled (`skip_serializing_if`,
//! `rename(serialize)`, `skip_serializing`, `serialize_with` with `#[schema(with)]`, the
//! deserialize-only attributes ignored), and a `#[tool]` declares its return type's.
use neuralis::dispatch::Output;
use neuralis::{ToolInput, ToolOutput, tool};

fn as_text<S: serde::Serializer>(v: &u32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&v.to_string())
}

/// One reading.
#[derive(ToolOutput, serde::Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Reading {
    /// Left out when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wind_speed: Option<f32>,
    /// Written as text.
    #[serde(serialize_with = "as_text")]
    #[schema(with = String)]
    pub high: u32,
    #[serde(rename(serialize = "outName", deserialize = "inName"), alias = "other", default)]
    pub named: bool,
    #[serde(skip_serializing)]
    pub internal: u8,
}

/// A tagged enum's output is an object: not wrapped.
#[derive(ToolOutput, serde::Serialize)]
#[serde(tag = "kind")]
pub enum Outcome {
    Done { readings: Vec<Reading> },
    Skipped,
}

#[derive(ToolInput, serde::Deserialize)]
pub struct Ask {
    pub city: String,
}

/// Read the weather.
#[tool(annotations(read_only, category = "read"), ui(presentation = "inline"))]
pub fn read_weather(input: Ask) -> Result<Outcome, String> {
    let _ = input;
    Ok(Outcome::Skipped)
}

/// List readings: not an object, so wrapped as `result`.
#[tool(annotations(read_only, category = "read"), ui(presentation = "inline"))]
pub fn list_readings(input: Ask) -> Vec<Reading> {
    let _ = input;
    Vec::new()
}

fn main() {
    let reading = Reading::output_schema();
    assert_eq!(reading["required"], serde_json::json!(["high", "outName"]));
    assert_eq!(reading["properties"]["high"]["type"], "string");
    assert!(!Output::of::<Outcome>().is_wrapped());
    assert!(Output::of::<Vec<Reading>>().is_wrapped());
    let declared = (__neuralis_tool_read_weather.output)().expect("a typed tool");
    assert_eq!(declared, Output::of::<Outcome>());
    assert!((__neuralis_tool_list_readings.output)().expect("typed").is_wrapped());
}
