//! unsupported-type near-miss: `#[schema(with = ...)]` gives a field without a schema
//! the schema of what its deserializer reads.
use neuralis::ToolInput;

mod millis {
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<std::time::Duration, D::Error> {
        let ms: u64 = serde::Deserialize::deserialize(d)?;
        Ok(std::time::Duration::from_millis(ms))
    }
}

#[derive(ToolInput, serde::Deserialize)]
pub struct Wait {
    #[serde(deserialize_with = "millis::deserialize")]
    #[schema(with = u64, maximum = 60000)]
    pub timeout: std::time::Duration,
}

fn main() {
    assert_eq!(Wait::schema()["properties"]["timeout"]["maximum"], 60000);
}
