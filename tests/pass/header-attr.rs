//! header-attr near-miss: strings, integers, booleans and unit enums, required, at
//! the root or flattened into it, each name once; the mark reaches the descriptor and the
//! served schema, never the tool file.
use neuralis::header::{Header, header_names};
use neuralis::{ToolInput, tool};

#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Free,
    Paid,
}

#[derive(ToolInput, serde::Deserialize)]
pub struct Common {
    #[schema(header = "Trace-Id")]
    pub trace: String,
}

#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Routed {
    #[schema(header = "Region")]
    pub region_name: String,
    #[schema(header = "Urgency")]
    pub urgency: u8,
    #[schema(header = "Dry-Run")]
    pub dry_run: bool,
    #[schema(header = "Tier")]
    pub tier: Tier,
    pub note: Option<String>,
    #[serde(flatten)]
    pub common: Common,
    pub query: String,
}

/// Routes a query.
#[tool(annotations(category = "read"))]
pub fn route(input: Routed) -> String {
    input.query
}

fn main() {
    assert_eq!(
        header_names(<Routed as ToolInput>::HEADERS),
        [
            ("regionName", "Region"),
            ("urgency", "Urgency"),
            ("dryRun", "Dry-Run"),
            ("tier", "Tier"),
            ("trace", "Trace-Id"),
        ]
    );
    assert!(matches!(<Common as ToolInput>::HEADERS, [Header::Field("trace", "Trace-Id")]));
    let schema = <Routed as ToolInput>::schema().to_string();
    assert!(!schema.contains("x-mcp-header"), "the file does not carry the mark: {schema}");
}
