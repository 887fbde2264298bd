//! serde-unsupported: a custom serializer on an output field, with no `#[schema(with)]`
//! naming the shape it writes.
use neuralis::ToolOutput;

fn as_text<S: serde::Serializer>(v: &u32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&v.to_string())
}

#[derive(ToolOutput, serde::Serialize)]
pub struct Forecast {
    #[serde(serialize_with = "as_text")]
    pub high: u32,
}

fn main() {}
