//! serde-unsupported: a custom deserializer without `#[schema(with = ...)]`.
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
    pub timeout: std::time::Duration,
}

fn main() {}
