//! Serving a [`Package`] over MCP.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use neuralis_core::catalog::ToolEntry;
use neuralis_core::dispatch::{AbortController, Package, SessionContext};
use neuralis_core::result::ToolResult;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelledNotificationParam,
    Implementation, ListToolsResult, PaginatedRequestParams, RequestId, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};

use crate::Error;

/// The MCP `tools/list` entry of a tool: `name`, `title`, `description`, `inputSchema` and
/// `annotations`.
///
/// `inputSchema` is the tool's normalized schema without `$schema` and `x-neuralis` (both
/// are the package's business, not the client's). `annotations` carries `title` (when
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
/// assert_eq!(tool["inputSchema"], json!({"type": "object", "additionalProperties": false,
///     "description": "List the catalog.", "properties": {}}));
/// assert_eq!(tool["annotations"], json!({"readOnlyHint": true, "destructiveHint": false,
///     "idempotentHint": false, "openWorldHint": false}));
/// ```
#[must_use]
pub fn mcp_tool(entry: &ToolEntry) -> Value {
    let mut schema = match &entry.schema {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    schema.remove("$schema");
    schema.remove("x-neuralis");
    let a = &entry.meta.annotations;
    let title = a.title.clone().or_else(|| {
        schema
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
        tool.insert("description".into(), description);
    }
    tool.insert("inputSchema".into(), Value::Object(schema));
    tool.insert("annotations".into(), Value::Object(annotations));
    Value::Object(tool)
}

/// An MCP server over a [`Package`], for one session.
///
/// The server is built with the host's verified [`SessionContext`]: `tools/list` shows the
/// tools its grants satisfy, and every `tools/call` runs through
/// [`Package::dispatch`] with it, so an unknown and a not-granted tool get the same
/// generic refusal (an `isError` result), and invalid arguments are `isError` results the
/// model can read, never protocol errors.
///
/// A `notifications/cancelled` aborts the call it names: the server keeps an
/// [`AbortController`] per request in flight, and a `cancellable` tool's handler sees its
/// signal fire (a tool that is not `cancellable` runs to completion; its result is not
/// sent, as MCP requires).
///
/// Results go out in MCP wire form: `content`, `isError`, `structuredContent`, and `_meta`
/// (the toolkit's `_meta.neuralis` accounting, for the client's UI, never its model).
///
/// ```no_run
/// use neuralis_core::dispatch::{Package, SessionContext};
/// use neuralis_mcp::McpServer;
///
/// # async fn run(package: Package) -> Result<(), neuralis_mcp::Error> {
/// let session = SessionContext::builder("local-user").grant("weather.read").build();
/// McpServer::new(package, session).serve_stdio().await
/// # }
/// ```
#[derive(Clone)]
pub struct McpServer {
    package: Arc<Package>,
    session: SessionContext,
    info: Implementation,
    instructions: Option<String>,
    in_flight: Arc<Mutex<HashMap<RequestId, AbortController>>>,
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field("package", &self.package)
            .field("server", &self.info.name)
            .finish_non_exhaustive()
    }
}

/// Removes a call's controller from the in-flight map when the call ends, however it ends.
struct InFlight<'a> {
    map: &'a Mutex<HashMap<RequestId, AbortController>>,
    id: RequestId,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.map
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.id);
    }
}

impl McpServer {
    /// A server for `package`, serving the caller `session`.
    pub fn new(package: impl Into<Arc<Package>>, session: SessionContext) -> Self {
        Self {
            package: package.into(),
            session,
            info: Implementation::new("neuralis-package", env!("CARGO_PKG_VERSION")),
            instructions: None,
            in_flight: Arc::default(),
        }
    }

    /// The name and version the server reports in `initialize` (default:
    /// `neuralis-package` and this crate's version).
    #[must_use]
    pub fn with_server_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.info = Implementation::new(name, version);
        self
    }

    /// Instructions the server gives clients in `initialize`.
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// The package served.
    #[must_use]
    pub fn package(&self) -> &Package {
        &self.package
    }

    /// The `tools/list` entries this server's session sees, in load order
    /// (see [`mcp_tool`]).
    #[must_use]
    pub fn tool_list(&self) -> Vec<Value> {
        self.package.catalog(&self.session).map(mcp_tool).collect()
    }

    /// How many calls are running now.
    #[must_use]
    pub fn calls_in_flight(&self) -> usize {
        self.in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Serves over standard input and output until the client disconnects.
    ///
    /// # Errors
    ///
    /// [`Error::Serve`] when the MCP handshake fails or the service stops abnormally.
    pub async fn serve_stdio(self) -> Result<(), Error> {
        self.serve_transport(rmcp::transport::stdio()).await
    }

    /// Serves over any rmcp transport (a `(reader, writer)` pair of async I/O, a
    /// `tokio::io::duplex` half...) until the peer disconnects.
    ///
    /// # Errors
    ///
    /// [`Error::Serve`] when the MCP handshake fails or the service stops abnormally.
    pub async fn serve_transport<T, E, A>(self, transport: T) -> Result<(), Error>
    where
        T: rmcp::transport::IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let running = self
            .serve(transport)
            .await
            .map_err(|e| Error::Serve(e.to_string()))?;
        running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| Error::Serve(e.to_string()))
    }

    /// A tower service serving this package over MCP's streamable HTTP transport, for the
    /// host's HTTP server (hyper, axum...) to mount. Every HTTP session gets its own
    /// server, with the same package and session, and its own in-flight calls. Feature
    /// `http`.
    ///
    /// ```no_run
    /// # fn run(server: neuralis_mcp::McpServer) {
    /// let service = server.http_service();
    /// // axum: Router::new().nest_service("/mcp", service)
    /// # let _ = service;
    /// # }
    /// ```
    #[cfg(feature = "http")]
    #[must_use]
    pub fn http_service(
        self,
    ) -> rmcp::transport::streamable_http_server::StreamableHttpService<
        McpServer,
        rmcp::transport::streamable_http_server::session::local::LocalSessionManager,
    > {
        self.http_service_with(Default::default())
    }

    /// [`http_service`](Self::http_service) with rmcp's configuration (allowed hosts and
    /// origins, JSON responses, keep-alive...). Feature `http`.
    #[cfg(feature = "http")]
    #[must_use]
    pub fn http_service_with(
        self,
        config: rmcp::transport::streamable_http_server::StreamableHttpServerConfig,
    ) -> rmcp::transport::streamable_http_server::StreamableHttpService<
        McpServer,
        rmcp::transport::streamable_http_server::session::local::LocalSessionManager,
    > {
        rmcp::transport::streamable_http_server::StreamableHttpService::new(
            move || {
                Ok(Self {
                    in_flight: Arc::default(),
                    ..self.clone()
                })
            },
            Arc::default(),
            config,
        )
    }

    /// Runs one `tools/call`.
    async fn call(&self, request: CallToolRequestParams, id: RequestId) -> ToolResult {
        let controller = AbortController::new();
        let signal = controller.signal();
        self.in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.clone(), controller);
        let _guard = InFlight {
            map: &self.in_flight,
            id,
        };
        let args = request.arguments.map_or(Value::Null, Value::Object);
        self.package
            .dispatch(&request.name, args, &self.session, signal)
            .await
    }

    /// Fires the abort signal of the call `id`, if it is still running.
    fn abort(&self, id: &RequestId) {
        if let Some(controller) = self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
        {
            controller.abort();
        }
    }
}

/// Converts a toolkit result into rmcp's wire type.
fn to_wire(result: &ToolResult) -> Result<CallToolResult, ErrorData> {
    serde_json::from_value(result.for_ui()).map_err(|e| {
        ErrorData::internal_error(format!("the tool result is not valid MCP: {e}"), None)
    })
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(self.info.clone());
        match &self.instructions {
            Some(text) => config.with_instructions(text.clone()),
            None => config,
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = self
            .tool_list()
            .into_iter()
            .map(serde_json::from_value::<Tool>)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| {
                ErrorData::internal_error(format!("a tool is not valid MCP: {e}"), None)
            })?;
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let id = context.id.clone();
        let call = self.call(request, id.clone());
        tokio::pin!(call);
        // rmcp cancels the request's token on `notifications/cancelled` (and when the
        // connection closes); `on_cancelled` aborts through the map as well.
        let result = tokio::select! {
            result = &mut call => result,
            () = context.ct.cancelled() => {
                self.abort(&id);
                call.await
            }
        };
        Ok(to_wire(&result)?.into())
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        _context: NotificationContext<RoleServer>,
    ) {
        if let Some(id) = &notification.request_id {
            self.abort(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(schema: Value) -> ToolEntry {
        let meta = serde_json::from_value(schema["x-neuralis"].clone()).expect("a valid block");
        ToolEntry {
            name: "t".into(),
            schema,
            meta,
        }
    }

    #[test]
    fn every_hint_is_stated_and_absent_means_false() {
        let none = mcp_tool(&entry(json!({
            "type": "object", "additionalProperties": false,
            "x-neuralis": {"annotations": {"category": "write"}}
        })));
        assert_eq!(
            none["annotations"],
            json!({"readOnlyHint": false, "destructiveHint": false,
                   "idempotentHint": false, "openWorldHint": false})
        );
        assert!(none.get("title").is_none());
        let all = mcp_tool(&entry(json!({
            "type": "object", "additionalProperties": false,
            "x-neuralis": {"annotations": {"category": "write", "title": "T",
                "readOnlyHint": true, "destructiveHint": true,
                "idempotentHint": true, "openWorldHint": true}}
        })));
        assert_eq!(
            all["annotations"],
            json!({"title": "T", "readOnlyHint": true, "destructiveHint": true,
                   "idempotentHint": true, "openWorldHint": true})
        );
        assert_eq!(all["title"], "T");
    }

    #[test]
    fn the_schema_loses_only_its_root_metadata() {
        let tool = mcp_tool(&entry(json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "Schema Title",
            "type": "object", "additionalProperties": false,
            "properties": {"q": {"type": "string", "description": "x-neuralis is a fine word"}},
            "x-neuralis": {"annotations": {"category": "read"}}
        })));
        assert_eq!(
            tool["inputSchema"],
            json!({"title": "Schema Title", "type": "object", "additionalProperties": false,
                   "properties": {"q": {"type": "string", "description": "x-neuralis is a fine word"}}})
        );
        // The schema's title stands in for a missing annotation title.
        assert_eq!(tool["title"], "Schema Title");
        assert_eq!(tool["annotations"]["title"], "Schema Title");
        assert!(tool.get("description").is_none());
    }
}
