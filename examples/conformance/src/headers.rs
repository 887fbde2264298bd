//! The tool of the conformance suite's `http-custom-header-server-validation` (MCP's
//! SEP-2243): arguments mirrored in `Mcp-Param-*` headers, marked on the input's fields
//! with `#[schema(header = "...")]`. The server refuses a call whose header and body
//! disagree (or whose header is missing) before the tool runs: HTTP 400, JSON-RPC -32020.

use neuralis::{ToolInput, tool};
use serde::Deserialize;

/// Where a query is routed, and the query.
#[derive(ToolInput, Deserialize)]
#[schema(root)]
pub struct Routed {
    /// The region that answers, for example "eu-west" (a proxy routes on its header).
    #[schema(header = "Region", min_length = 1)]
    pub region: String,
    /// How urgent the query is, 0 (whenever) to 9 (now).
    #[schema(header = "Urgency", minimum = 0, maximum = 9)]
    pub urgency: u8,
    /// Whether to explain the answer.
    #[schema(header = "Verbose")]
    pub verbose: bool,
    /// The question (in the body only).
    pub query: String,
}

/// Answer a query in the region it names; the region, urgency and verbosity travel in
/// headers too, for the proxies in between.
#[tool(
    annotations(read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub fn test_custom_headers(input: Routed) -> String {
    let verbose = if input.verbose { ", explained" } else { "" };
    format!(
        "answered `{}` in {}, urgency {}{verbose}",
        input.query, input.region, input.urgency
    )
}
