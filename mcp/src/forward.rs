//! Dispatchable tools that forward calls to an external MCP server.

use neuralis_core::dispatch::{Call, Handler, PackageBuilder, ToolContext};
use neuralis_core::result::{ToolResult, normalize_result};
use rmcp::RoleClient;
use rmcp::model::CallToolRequestParams;
use rmcp::service::Peer;
use serde_json::{Value, json};

use crate::Error;
use crate::import::{Import, import_tools};

/// A [`Handler`] that forwards each call to the tool `remote_name` of an MCP server.
///
/// The server's result is read as untrusted JSON ([`normalize_result`]: a `resource_link`
/// arrives as a `resource`, unknown blocks are dropped); the pipeline then bounds it like
/// any other. A protocol failure is an `isError` result. Dropping the call (an aborted
/// `cancellable` call) sends the server `notifications/cancelled`.
#[derive(Clone)]
pub struct Forward {
    peer: Peer<RoleClient>,
    remote_name: String,
}

impl std::fmt::Debug for Forward {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Forward")
            .field("remote_name", &self.remote_name)
            .finish_non_exhaustive()
    }
}

impl Forward {
    /// A handler calling `remote_name` (the bare name the server registered) on `peer`.
    pub fn new(peer: Peer<RoleClient>, remote_name: impl Into<String>) -> Self {
        Self {
            peer,
            remote_name: remote_name.into(),
        }
    }

    /// Calls the server and reads its result.
    async fn forward(&self, args: Value) -> ToolResult {
        let mut params = CallToolRequestParams::new(self.remote_name.clone());
        if let Value::Object(map) = args {
            params = params.with_arguments(map);
        }
        match self.peer.call_tool(params).await {
            Ok(result) => match serde_json::to_value(&result) {
                Ok(value) => normalize_result(value).0,
                Err(e) => {
                    ToolResult::error(format!("the MCP server's result could not be read: {e}"))
                }
            },
            Err(e) => ToolResult::error(format!("the MCP server did not complete the call: {e}"))
                .with_structured(json!({"ok": false, "error": "remote"})),
        }
    }
}

impl Handler for Forward {
    fn call<'a>(&'a self, args: Value, _cx: &'a ToolContext) -> Call<'a> {
        Call::Pending(Box::pin(self.forward(args)))
    }
}

impl Import {
    /// Adds every imported tool to `builder`, each with a [`Forward`] handler to `peer`.
    pub fn register(&self, mut builder: PackageBuilder, peer: &Peer<RoleClient>) -> PackageBuilder {
        for tool in &self.tools {
            let bytes = serde_json::to_vec(&tool.document).unwrap_or_default();
            builder = builder.tool(
                tool.name.clone(),
                bytes,
                Forward::new(peer.clone(), tool.remote_name.clone()),
            );
        }
        builder
    }
}

/// Lists every tool of the MCP server behind `peer` (all pages) and imports them with
/// [`import_tools`]; [`Import::register`] then makes them dispatchable.
///
/// ```no_run
/// use neuralis_core::dispatch::Package;
/// use neuralis_mcp::import_from_peer;
/// use rmcp::ServiceExt;
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// # let transport = tokio::io::duplex(1024);
/// let client = ().serve(transport).await?;
/// let import = import_from_peer(client.peer(), 1).await?;
/// for note in &import.notes {
///     eprintln!("{note}");
/// }
/// let package = import.register(Package::builder(), client.peer()).build()?;
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::Client`] when `tools/list` fails.
pub async fn import_from_peer(
    peer: &Peer<RoleClient>,
    server_id: impl std::fmt::Display,
) -> Result<Import, Error> {
    let tools = peer
        .list_all_tools()
        .await
        .map_err(|e| Error::Client(e.to_string()))?;
    let list = serde_json::to_value(&tools).map_err(|e| Error::Client(e.to_string()))?;
    Ok(import_tools(server_id, &list))
}
