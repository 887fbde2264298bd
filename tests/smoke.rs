#![allow(missing_docs)]
use neuralis::ToolInput;

/// Forecast the weather.
#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[schema(root)]
pub struct WeatherForecast {
    /// City name, for example "Lisbon".
    #[schema(min_length = 1, max_length = 120)]
    pub city: String,
    /// Days ahead.
    #[schema(minimum = 1, maximum = 14)]
    pub days_ahead: Option<u8>,
    pub inner: Inner,
    #[serde(flatten)]
    pub flat: Flat,
    pub kind: Kind,
    pub tree: Tree,
}

#[derive(ToolInput, serde::Deserialize)]
pub struct Inner { pub user_id: String }

#[derive(ToolInput, serde::Deserialize)]
pub struct Flat { pub extra: Vec<u8> }

#[derive(ToolInput, serde::Deserialize)]
#[serde(tag = "type")]
pub enum Kind { A { x: u8 }, B, C(Inner) }

#[derive(ToolInput, serde::Deserialize)]
pub struct Tree { pub children: Vec<Tree> }

#[test]
fn smoke() {
    let s = WeatherForecast::schema();
    println!("{}", serde_json::to_string_pretty(&s).unwrap());
}
