//! serde-unsupported: `#[serde(into = ...)]` on an output makes serde write another type.
use neuralis::ToolOutput;

#[derive(Clone, serde::Serialize)]
pub struct Wire {
    pub ok: bool,
}

#[derive(ToolOutput, Clone, serde::Serialize)]
#[serde(into = "Wire")]
pub struct Forecast {
    pub ok: bool,
}

impl From<Forecast> for Wire {
    fn from(f: Forecast) -> Self {
        Wire { ok: f.ok }
    }
}

fn main() {}
