//! The arguments of the call benches (`dispatch.rs`, and the facade's `benches/mcp_path.rs`):
//! a 5-field forecast input's 65 B, 197 B and 1.3 KB argument texts (sizes 0, 1, 2 of
//! `benches/count.sh`).

/// About 65 B: the required fields only.
pub const SMALL: &str = r#"{"city":"Porto","units":"metric","includeHourly":false,"note":""}"#;

/// About 200 B: every field.
pub const MEDIUM: &str = r#"{"city":"Lisbon, Portugal","days":5,"units":"metric","includeHourly":true,"note":"Planning a long weekend by the coast; please include the wind, the sea state and the chance of rain for each day."}"#;

/// About 1.3 KB: a long note, with escapes and non-ASCII text.
pub fn large() -> String {
    let note = "Planning a week by the coast with \\\"family\\\": wind, sea state, UV index, chance of rain; é, ü, 😀. "
        .repeat(12);
    format!(
        r#"{{"city":"Lisbon, Portugal","days":7,"units":"metric","includeHourly":true,"note":"{note}"}}"#
    )
}
