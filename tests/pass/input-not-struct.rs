//! input-not-struct near-miss: enums and newtypes are fine nested, not as the root.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
pub enum Mode {
    Fast,
    Slow,
}

#[derive(ToolInput, serde::Deserialize)]
pub struct Meters(pub f64);

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Run {
    pub mode: Mode,
    pub distance: Meters,
}

fn main() {
    assert_eq!(Run::schema()["properties"]["mode"]["enum"][1], "Slow");
}
