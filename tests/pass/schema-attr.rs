//! schema-attr near-miss: equal bounds, a valid pattern, a default and examples that fit,
//! and `allow_weakened`, which only the build script reads (it adds no keyword).
use neuralis::ToolInput;

#[derive(ToolInput)]
pub struct Forecast {
    #[schema(minimum = 3, maximum = 3, default = 3)]
    pub days: Option<u8>,
    #[schema(pattern = "^[a-z]+$", examples = ["lisbon", "porto"], min_length = 1)]
    pub city: String,
    #[schema(minimum = -1.5, multiple_of = 0.5, allow_weakened)]
    pub offset: f64,
}

fn main() {
    assert_eq!(Forecast::schema()["properties"]["offset"]["minimum"], -1.5);
    assert_eq!(
        Forecast::schema()["properties"]["offset"],
        serde_json::json!({"type": "number", "minimum": -1.5, "multipleOf": 0.5})
    );
}
