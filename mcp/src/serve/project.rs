//! The `tools/list` projection: a package's tool as MCP lists it (`mcp_tool`,
//! `mcp_tool_with_output`, `mcp_tool_in`), in a served dialect, with its digest.

use super::*;

/// The MCP `tools/list` entry of a tool: `name`, `title`, `description`, `inputSchema` and
/// `annotations`.
///
/// `inputSchema` is [`ToolEntry::input_schema`]: the tool's normalized schema without
/// `$schema` and `x-neuralis` (both are the package's business, not the client's), each
/// property with a value in `x-neuralis.defaults` carrying it as `default`, written in the
/// default served dialect ([`Served::Portable`]: every provider SDK's MCP path reads it as
/// meant; [`mcp_tool_in`] takes another). `annotations` carries `title` (when
/// the tool has one) and every MCP hint stated explicitly: `readOnlyHint`,
/// `destructiveHint`, `idempotentHint` and `openWorldHint` are `false` unless the tool's
/// `x-neuralis.annotations` says `true`, so no client falls back to the MCP defaults
/// (which assume a destructive, open-world tool).
///
/// ```
/// use neuralis_core::catalog::ToolEntry;
/// use neuralis_mcp::mcp_tool;
/// use serde_json::json;
///
/// let entry = ToolEntry {
///     name: "catalog_list".into(),
///     schema: json!({
///         "$schema": "http://json-schema.org/draft-07/schema#",
///         "type": "object", "additionalProperties": false,
///         "description": "List the catalog.", "properties": {},
///         "x-neuralis": {"annotations": {"readOnlyHint": true, "category": "read"}}
///     }),
///     meta: serde_json::from_value(json!({"annotations": {"readOnlyHint": true, "category": "read"}}))
///         .expect("a valid block"),
/// };
/// let tool = mcp_tool(&entry);
/// assert_eq!(tool["inputSchema"], json!({"type": "object",
///     "description": "List the catalog.", "properties": {}}));
/// assert_eq!(tool["annotations"], json!({"readOnlyHint": true, "destructiveHint": false,
///     "idempotentHint": false, "openWorldHint": false}));
/// ```
#[must_use]
pub fn mcp_tool(entry: &ToolEntry) -> Value {
    mcp_tool_with_output(entry, None)
}

/// [`mcp_tool`] with the tool's `outputSchema` (MCP 2025-06-18 and later), when it
/// declares one ([`Package::output_schema`]).
#[must_use]
pub fn mcp_tool_with_output(entry: &ToolEntry, output_schema: Option<&Value>) -> Value {
    mcp_tool_in(entry, output_schema, Served::default())
}

/// [`mcp_tool_with_output`] with its `inputSchema` in the served dialect `served`
/// ([`Served::Contract`]: the tool file's schema as checked).
#[must_use]
pub fn mcp_tool_in(entry: &ToolEntry, output_schema: Option<&Value>, served: Served) -> Value {
    let input = entry.input_schema();
    let schema = served_schema(&input, served);
    let a = &entry.meta.annotations;
    let title = a.title.clone().or_else(|| {
        input
            .get("title")
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    let mut annotations = Map::new();
    if let Some(title) = &title {
        annotations.insert("title".into(), Value::String(title.clone()));
    }
    for (key, hint) in [
        ("readOnlyHint", a.read_only_hint),
        ("destructiveHint", a.destructive_hint),
        ("idempotentHint", a.idempotent_hint),
        ("openWorldHint", a.open_world_hint),
    ] {
        annotations.insert(key.into(), Value::Bool(hint == Some(true)));
    }
    let mut tool = Map::new();
    tool.insert("name".into(), Value::String(entry.name.clone()));
    if let Some(title) = title {
        tool.insert("title".into(), Value::String(title));
    }
    if let Some(description) = schema.get("description").cloned() {
        // On `mcp-remote`, as the platform stores it (within 400 characters, no newline,
        // tab or backtick), so its rewrite changes nothing.
        let description = match (served, description) {
            (Served::McpRemote, Value::String(d)) => {
                Value::String(neuralis_core::remote::sanitize_description(&d).text)
            }
            (_, d) => d,
        };
        tool.insert("description".into(), description);
    }
    tool.insert("inputSchema".into(), Value::Object(schema));
    if let Some(output) = output_schema {
        // As for `inputSchema`: the dialect is draft-07 by the contract, and clients
        // validating with another draft's meta-schema would refuse the URI.
        let mut output = output.clone();
        if let Value::Object(map) = &mut output {
            map.remove("$schema");
        }
        tool.insert("outputSchema".into(), output);
    }
    tool.insert("annotations".into(), Value::Object(annotations));
    // What a client pins to tell that the tool changed under it (`docs/changing.md`).
    let mut meta = Map::new();
    meta.insert(DIGEST_META.into(), Value::String(entry.digest()));
    tool.insert("_meta".into(), Value::Object(meta));
    Value::Object(tool)
}

/// The `_meta` key of each listed tool's contract digest
/// ([`contract_digest`](neuralis_core::catalog::contract_digest)).
pub const DIGEST_META: &str = "io.neuralis/digest";
