//! serde-unsupported on an output whose derive names the crate by another path
//! (`#[schema(crate = "nl")]`): one error, and the stub impl beside it is under that path,
//! so a handler returning the type reports nothing more.
use neuralis as nl;

#[derive(Clone, serde::Serialize)]
pub struct Wire {
    pub ok: bool,
}

#[derive(nl::ToolOutput, Clone, serde::Serialize)]
#[schema(crate = "nl")]
#[serde(into = "Wire")]
pub struct Forecast {
    pub ok: bool,
}

impl From<Forecast> for Wire {
    fn from(f: Forecast) -> Self {
        Wire { ok: f.ok }
    }
}

#[derive(nl::ToolInput, serde::Deserialize)]
#[schema(crate = "nl")]
pub struct Input {
    pub city: String,
}

/// Forecast the weather.
#[nl::tool(crate = "nl", annotations(category = "read"), ui(presentation = "inline"))]
pub fn forecast(input: Input) -> Forecast {
    let _ = input;
    Forecast { ok: true }
}

fn main() {}
