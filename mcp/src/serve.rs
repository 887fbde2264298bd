//! Serving a [`Package`] over MCP.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use neuralis_core::catalog::ToolEntry;
use neuralis_core::dialect::{Served, served_schema};
use neuralis_core::dispatch::{
    AbortController, ApprovalPolicy, Asker, CallOptions, LogMessage, LogSink, Package, Progress,
    ProgressSink, SessionContext, TaskSupport,
};
use neuralis_core::result::ToolResult;
use rmcp::model::{
    CacheScope, CallToolRequestMethod, CallToolRequestParams, CallToolResponse, CancelTaskParams,
    CancelledNotificationParam, ClientCapabilities, ConstString, CreateTaskResult, CustomRequest,
    CustomResult, GetPromptRequestParams, GetPromptResponse, GetSkillRequestParams, GetSkillResult,
    GetTaskParams, GetTaskResult, Implementation, ListResourcesResult, ListSkillsResult,
    ListToolsRequestMethod, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ProgressToken, ProtocolVersion, ReadResourceDirectoryRequestParams,
    ReadResourceDirectoryResult, ReadResourceRequestParams, ReadResourceResponse, RequestId,
    ResourcesCapability, SKILLS_EXTENSION_ID, ServerCapabilities, ServerConfig, SkillsCapability,
    TASKS_EXTENSION_ID, Tool, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, Peer, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};
use tokio::sync::mpsc;

use crate::Error;
use crate::compose::to_handler;
use crate::logging::SessionLevel;
use crate::questions::PeerAsker;
use crate::rounds::{Round, RoundAsker, States};
use crate::task::{Answered, Foreground, TaskStore, TaskTiming, Tasks};

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

/// An MCP server over a [`Package`].
///
/// Every request is served for one verified [`SessionContext`]: `tools/list` shows the
/// tools its grants satisfy, and every `tools/call` runs through
/// [`Package::dispatch`] with it, so an unknown and a not-granted tool get the same
/// generic refusal (an `isError` result), and invalid arguments are `isError` results the
/// model can read, never protocol errors. Where the session comes from:
///
/// - [`McpServer::new`]: one session, given by the host, for every request. This is the
///   single-identity case: stdio (the process that spawned the server is the caller), or
///   [`http_service`](Self::http_service) for local use, where anyone who reaches the
///   port acts as that session.
/// - `McpServer::hosted` (feature `http`): each HTTP request's own caller, resolved from
///   the request by a [`Resolve`](crate::http::Resolve) (a bearer-token table, JWTs,
///   or the host's own auth middleware), before any MCP processing. See [`crate::http`].
///
/// `tools/list` lists the tools in the package's load order, the same on every request
/// and every replica of one build. On 2026-07-28 it carries SEP-2549's caching hints:
/// `ttlMs` ([`with_list_ttl`](Self::with_list_ttl), 5 minutes unless set) and
/// `cacheScope`, `private` whenever the list is filtered for its caller (a hosted server,
/// or a package with a tool gated by `requires.features`), `public` when every caller
/// gets the same list.
///
/// Prompts, resources, completion and every other request that is not about tools come
/// from an rmcp handler composed with the package: [`with_handler`](Self::with_handler).
///
/// A `notifications/cancelled` aborts the call it names: the server keeps an
/// [`AbortController`] per request in flight, and a `cancellable` tool's handler sees its
/// signal fire (a tool that is not `cancellable` runs to completion; its result is not
/// sent, as MCP requires).
///
/// Results go out in MCP wire form: `content`, `isError`, `structuredContent`, and `_meta`
/// (the toolkit's `_meta.neuralis` accounting, for the client's UI, never its model),
/// built with rmcp's typed constructors so that each negotiated protocol version gets
/// what it requires (`resultType: "complete"` on 2026-07-28, nothing of it before).
///
/// A `tools/call` whose request carries a progress token (`_meta.progressToken`) gets a
/// `notifications/progress` for every [`ToolContext::progress`] report that moves forward,
/// all sent before the result.
///
/// The server has the `logging` capability: a call's [`ToolContext::log`] messages are
/// `notifications/message` (`level`, the tool's name as `logger`, the message as `data`),
/// sent in order with its progress reports, before its result, from the level the client
/// asked for on. Before 2026-07-28 a client asks with `logging/setLevel`, for every later
/// call of its connection (each HTTP session has its own level), and gets nothing until
/// it does; on 2026-07-28 each request asks for itself with
/// `_meta["io.modelcontextprotocol/logLevel"]`, and a request without it gets nothing.
///
/// **Approvals and questions.** A call whose approval posture asks
/// ([`Package::approval`]: a sent `askOnKeys` key, category `unknown`) runs only once a
/// person confirms it, under the policy the owner chose with
/// [`with_approval`](Self::with_approval) (default [`ApprovalPolicy::Ask`]): the server
/// sends a confirm form that names the tool and the keys that triggered it, as an
/// `elicitation/create` request during the call before 2026-07-28 (to a client that
/// declared `elicitation`), as an `InputRequiredResult` round on 2026-07-28. Declined,
/// cancelled, or a client that cannot answer a form: an `isError` result saying the call
/// needs approval and was not run; the handler never runs. A handler's own questions
/// ([`ToolContext::elicit`], `sample`, `roots`) go the same two ways; on 2026-07-28 the
/// handler runs again from the start with the answers (see the `requestState` key,
/// [`with_request_state_key`](Self::with_request_state_key)), and a confirm lets its
/// call run once: the confirmed retry sent again is refused
/// ([`with_consumed_states`](Self::with_consumed_states)). Before 2026-07-28 the confirm
/// is asked during the call itself, so there is nothing to send again.
///
/// [`ToolContext::progress`]: neuralis_core::dispatch::ToolContext::progress
/// [`ToolContext::log`]: neuralis_core::dispatch::ToolContext::log
/// [`ToolContext::elicit`]: neuralis_core::dispatch::ToolContext::elicit
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
    identity: Identity,
    info: Implementation,
    instructions: Option<String>,
    in_flight: Arc<Mutex<HashMap<RequestId, AbortController>>>,
    /// The level of the connection's `logging/setLevel` (before 2026-07-28).
    log_level: SessionLevel,
    /// How long a client may keep a `tools/list` answer (`ttlMs`).
    list_ttl: Duration,
    /// What a call whose posture asks gets.
    approval: ApprovalPolicy,
    /// How `tools/list` writes each `inputSchema`.
    served: Served,
    /// The key and expiry of the `requestState`s of 2026-07-28.
    states: States,
    /// What answers the requests that are not about tools ([`Self::with_handler`]).
    pub(crate) handler: crate::compose::Handler,
    /// Whether each call's span records its arguments and result (off: they may hold
    /// what the operator's logs must not).
    trace_payloads: bool,
    /// The tasks of the tools that run as tasks: their store and timing, and the runs of
    /// this process.
    tasks: Arc<Tasks>,
    /// The server card its HTTP service publishes at `<endpoint>/server-card`.
    #[cfg(feature = "http")]
    card: Option<crate::http::ServerCard>,
    /// The package's skills, ready to answer (`crate::skills`).
    skills: Arc<crate::skills::Catalog>,
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field("package", &self.package)
            .field("server", &self.info.name)
            .finish_non_exhaustive()
    }
}

/// Whose requests a server serves.
#[derive(Clone)]
enum Identity {
    /// One session for every request.
    Fixed(SessionContext),
    /// Each request's own, put in its HTTP extensions by [`crate::http::Hosted`]; a
    /// request without one is refused.
    #[cfg(feature = "http")]
    PerRequest,
}

/// `tools/list`'s `ttlMs` unless the server says otherwise ([`McpServer::with_list_ttl`]).
const DEFAULT_LIST_TTL: Duration = Duration::from_secs(300);

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
    /// A server for `package`, serving the caller `session` on every request (the
    /// single-identity case: see the type's documentation).
    pub fn new(package: impl Into<Arc<Package>>, session: SessionContext) -> Self {
        Self::with_identity(package.into(), Identity::Fixed(session))
    }

    /// A server for `package` whose every request is served for the caller that
    /// [`crate::http::Hosted`] resolved from it; used through [`Self::hosted`], so that
    /// no request reaches it without one. Feature `http`.
    #[cfg(feature = "http")]
    pub(crate) fn per_request(package: Arc<Package>) -> Self {
        Self::with_identity(package, Identity::PerRequest)
    }

    fn with_identity(package: Arc<Package>, identity: Identity) -> Self {
        Self {
            identity,
            info: Implementation::new("neuralis-package", env!("CARGO_PKG_VERSION")),
            instructions: None,
            in_flight: Arc::default(),
            log_level: SessionLevel::default(),
            list_ttl: DEFAULT_LIST_TTL,
            served: Served::default(),
            approval: ApprovalPolicy::Ask,
            states: States::random(),
            handler: crate::compose::Handler::default(),
            trace_payloads: false,
            tasks: Arc::new(Tasks::default()),
            #[cfg(feature = "http")]
            card: None,
            skills: Arc::new(crate::skills::Catalog::new(package.skills())),
            package,
        }
    }

    /// Where the tasks of the tools that run as tasks (`#[tool(task = "...")]`) are kept:
    /// [`MemoryTaskStore`](crate::MemoryTaskStore) by default, which only this process
    /// reads. Replicas behind a load balancer share one store (a database), so that any
    /// of them answers `tasks/get`, `tasks/update` and `tasks/cancel` for a task another
    /// runs (see [`TaskStore`]).
    ///
    /// ```
    /// use neuralis_core::dispatch::{Package, SessionContext};
    /// use neuralis_mcp::{McpServer, MemoryTaskStore, TaskTiming};
    /// use std::time::Duration;
    ///
    /// let package = Package::builder().build().expect("an empty package");
    /// let server = McpServer::new(package, SessionContext::builder("u").build())
    ///     .with_task_store(MemoryTaskStore::new())
    ///     .with_task_timing(TaskTiming::default().with_ttl(Duration::from_secs(600)));
    /// assert_eq!(server.task_timing().ttl, Duration::from_secs(600));
    /// ```
    #[must_use]
    pub fn with_task_store(mut self, store: impl TaskStore) -> Self {
        self.tasks = Arc::new(Tasks::new(Arc::new(store), self.tasks.timing));
        self
    }

    /// How long tasks are kept, how often clients poll and runs read their task, and how
    /// long a run's lease lasts (see [`TaskTiming`]).
    #[must_use]
    pub fn with_task_timing(mut self, timing: TaskTiming) -> Self {
        self.tasks = Arc::new(Tasks::new(Arc::clone(&self.tasks.store), timing));
        self
    }

    /// The server's task timing.
    #[must_use]
    pub fn task_timing(&self) -> TaskTiming {
        self.tasks.timing
    }

    /// What a call whose approval posture asks gets (see [`ApprovalPolicy`]):
    ///
    /// - [`ApprovalPolicy::Ask`], the default: the server asks a person through the
    ///   client, and runs the call only on a confirm;
    /// - [`ApprovalPolicy::Refuse`]: such calls are refused, nobody is asked (a server
    ///   whose clients cannot show a form, and that will not run them unconfirmed);
    /// - [`ApprovalPolicy::Trust`]: such calls run unasked, because the platform in front
    ///   of this server runs its own guard on the tools' posture (it reads
    ///   `x-neuralis`, which never goes over MCP). Choose it only for such a platform.
    ///
    /// [`ApprovalPolicy::Host`] means the same as `Trust` here: the server is the host.
    ///
    /// ```
    /// use neuralis_core::dispatch::{ApprovalPolicy, Package, SessionContext};
    /// use neuralis_mcp::McpServer;
    ///
    /// let package = Package::builder().build().expect("an empty package");
    /// let server = McpServer::new(package, SessionContext::builder("u").build())
    ///     .with_approval(ApprovalPolicy::Refuse);
    /// assert_eq!(server.approval(), ApprovalPolicy::Refuse);
    /// ```
    #[must_use]
    pub fn with_approval(mut self, policy: ApprovalPolicy) -> Self {
        self.approval = policy;
        self
    }

    /// The approval policy (see [`with_approval`](Self::with_approval)).
    #[must_use]
    pub fn approval(&self) -> ApprovalPolicy {
        self.approval
    }

    /// The key that seals the `requestState` of a 2026-07-28 call that asks (at least 32
    /// bytes of secret, high-entropy material), and how long a state opens (`ttl`).
    ///
    /// Without it, each process draws a random key when the server is built: its states
    /// open on that process only, which is right for one replica. Stateless replicas
    /// behind a load balancer, where a round's retry may reach another replica, are all
    /// given the same key (and the same clock, for the expiry). A state is bound to the
    /// caller's verified user id, the tool and the arguments: replayed by another caller,
    /// for other arguments, after `ttl`, or altered, it is refused (`-32602`) and nothing
    /// runs. A state whose confirm has let its call run is refused when sent again
    /// (`-32602`, `data.reason` `replayed`): the approvals used are recorded in the
    /// server's ledger ([`with_consumed_states`](Self::with_consumed_states)), which
    /// replicas share too.
    ///
    /// ```
    /// use std::time::Duration;
    /// use neuralis_core::dispatch::{Package, SessionContext};
    /// use neuralis_mcp::McpServer;
    ///
    /// let package = Package::builder().build().expect("an empty package");
    /// let server = McpServer::new(package, SessionContext::builder("u").build());
    /// let shared = server.clone().with_request_state_key(*b"a-32-byte-key-shared-by-replicas", Duration::from_secs(300));
    /// assert!(shared.is_ok());
    /// assert!(server.with_request_state_key(*b"short", Duration::from_secs(300)).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Config`] for a key shorter than 32 bytes.
    pub fn with_request_state_key(
        mut self,
        key: impl Into<Vec<u8>>,
        ttl: std::time::Duration,
    ) -> Result<Self, Error> {
        self.states = self
            .states
            .clone()
            .with_key(key.into(), ttl)
            .map_err(|e| Error::Config(format!("the requestState key: {e}")))?;
        Ok(self)
    }

    /// Where the server records the approvals already used (see [`ConsumedStates`]), so
    /// that a confirmed 2026-07-28 retry runs its call once: sent again, by anybody, it
    /// is refused (`-32602`, `data.reason` `replayed`) and the handler does not run.
    ///
    /// Without it, the server's own memory ([`MemoryConsumedStates`]: each nonce kept
    /// until its state expires), which is right for one replica. Stateless replicas
    /// behind a load balancer, given the same
    /// [`with_request_state_key`](Self::with_request_state_key), are given one shared
    /// ledger as well, or a replay that reaches another replica runs the call again:
    /// [`DirConsumedStates`] over a directory they all mount, or a [`ConsumedStates`]
    /// over a database they share.
    ///
    /// ```
    /// use std::time::Duration;
    /// use neuralis_core::dispatch::{Package, SessionContext};
    /// use neuralis_mcp::{DirConsumedStates, McpServer};
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = std::env::temp_dir().join(format!("consumed-serve-doc-{}", std::process::id()));
    /// let package = Package::builder().build()?;
    /// let server = McpServer::new(package, SessionContext::builder("u").build())
    ///     .with_request_state_key(*b"a-32-byte-key-shared-by-replicas", Duration::from_secs(300))?
    ///     .with_consumed_states(DirConsumedStates::new(&dir)?);
    /// # let _ = server;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// [`ConsumedStates`]: crate::ConsumedStates
    /// [`MemoryConsumedStates`]: crate::MemoryConsumedStates
    /// [`DirConsumedStates`]: crate::DirConsumedStates
    #[must_use]
    pub fn with_consumed_states(mut self, ledger: impl crate::ConsumedStates) -> Self {
        self.states = self.states.clone().with_ledger(Arc::new(ledger));
        self
    }

    /// How long a client may treat a `tools/list` answer as fresh: its `ttlMs` on
    /// 2026-07-28 (SEP-2549; default 5 minutes). A package's tools do not change while it
    /// is served, so the hint only bounds how long a client keeps a list after the server
    /// is replaced by another build, or after a hosted caller's grants change. Zero asks
    /// clients not to keep it at all.
    ///
    /// ```
    /// use std::time::Duration;
    /// use neuralis_core::dispatch::{Package, SessionContext};
    /// use neuralis_mcp::McpServer;
    ///
    /// let package = Package::builder().build().expect("an empty package");
    /// let server = McpServer::new(package, SessionContext::builder("local-user").build())
    ///     .with_list_ttl(Duration::from_secs(60));
    /// # let _ = server;
    /// ```
    #[must_use]
    pub fn with_list_ttl(mut self, ttl: Duration) -> Self {
        self.list_ttl = ttl;
        self
    }

    /// How `tools/list` writes each tool's `inputSchema` (default [`Served::Portable`]:
    /// every provider SDK's MCP path reads it as the tool means it, and a strict model's
    /// `null` for an optional key reads as the key not sent; [`Served::Contract`]: the
    /// tool file's schema as checked). Calls are validated against the tool file either
    /// way. See `docs/dialects.md`.
    ///
    /// ```
    /// # use neuralis_core::dispatch::{Package, SessionContext};
    /// use neuralis_mcp::{McpServer, Served};
    /// # let package = Package::builder().build().expect("empty");
    /// let server = McpServer::new(package, SessionContext::builder("local-user").build())
    ///     .with_served_dialect(Served::Contract);
    /// # let _ = server;
    /// ```
    #[must_use]
    pub fn with_served_dialect(mut self, served: Served) -> Self {
        self.served = served;
        self
    }

    /// The name and version the server reports in `initialize` (default:
    /// `neuralis-package` and this crate's version).
    #[must_use]
    pub fn with_server_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.info = Implementation::new(name, version);
        self
    }

    /// Publishes `card` at `GET <endpoint>/server-card` of its HTTP service
    /// ([`Self::http_service`]; SEP-2127, see [`crate::http::ServerCard`]), answered
    /// without credentials; `initialize` (and `server/discover`) report the card's title,
    /// description and website. Feature `http`; a hosted server gives its card with
    /// [`crate::http::Hosted::with_server_card`].
    ///
    /// ```
    /// # use neuralis_core::dispatch::{Package, SessionContext};
    /// use neuralis_mcp::McpServer;
    /// use neuralis_mcp::http::ServerCard;
    ///
    /// # fn main() -> Result<(), neuralis_mcp::Error> {
    /// # let package = Package::builder().build().expect("empty");
    /// let card = ServerCard::new("io.github.acme/weather", "Forecasts for any city")
    ///     .endpoint("http://127.0.0.1:8080/mcp");
    /// let service = McpServer::new(package, SessionContext::builder("local-user").build())
    ///     .with_server_card(card)?
    ///     .http_service();
    /// // Served for the one local session: no token to ask for.
    /// assert!(service.server_card().expect("a card")["remotes"][0].get("headers").is_none());
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Config`] for a card its schema refuses ([`ServerCard::problem`](crate::http::ServerCard::problem)).
    #[cfg(feature = "http")]
    pub fn with_server_card(mut self, card: crate::http::ServerCard) -> Result<Self, Error> {
        if let Some(problem) = card.problem() {
            return Err(Error::Config(problem));
        }
        let (title, description, website) = card.details();
        self.info.title = title.map(str::to_owned);
        self.info.description = Some(description.to_owned());
        self.info.website_url = website.map(str::to_owned);
        self.card = Some(card);
        Ok(self)
    }

    /// The server card its HTTP service publishes.
    #[cfg(feature = "http")]
    pub(crate) fn server_card(&self) -> Option<&crate::http::ServerCard> {
        self.card.as_ref()
    }

    /// The version `initialize` reports.
    #[cfg(feature = "http")]
    pub(crate) fn version(&self) -> &str {
        &self.info.version
    }

    /// Instructions the server gives clients in `initialize`.
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Each call's `mcp.call` span also records the call's `arguments` and its `result`
    /// (JSON text). Off by default: arguments and results may hold what the operator's
    /// logs must not (see [`crate::http`] for the span's other fields).
    #[must_use]
    pub fn with_trace_payloads(mut self, on: bool) -> Self {
        self.trace_payloads = on;
        self
    }

    /// The package served.
    #[must_use]
    pub fn package(&self) -> &Package {
        &self.package
    }

    /// The `tools/list` entries this server's session sees, in load order (see
    /// [`mcp_tool_with_output`]), as a client of the newest protocol gets them (none for
    /// a hosted server, whose callers come with each request: see [`Self::tool_list_of`]).
    #[must_use]
    pub fn tool_list(&self) -> Vec<Value> {
        match &self.identity {
            Identity::Fixed(session) => self.tool_list_for(session, true, self.served),
            #[cfg(feature = "http")]
            Identity::PerRequest => Vec::new(),
        }
    }

    /// The `tools/list` entries `session` sees (see [`Self::tool_list`]).
    #[must_use]
    pub fn tool_list_of(&self, session: &SessionContext) -> Vec<Value> {
        self.tool_list_for(session, true, self.served)
    }

    /// The served dialect of the request `context` belongs to: the one of the hosted
    /// service it came through ([`HostedService::serving`](crate::http::HostedService::serving)),
    /// else the server's.
    fn served_in(&self, context: &RequestContext<RoleServer>) -> Served {
        #[cfg(feature = "http")]
        if let Some(served) = crate::http::served_of(context) {
            return served;
        }
        let _ = context;
        self.served
    }

    /// The caller a request is served for: the server's one session, or the one the
    /// HTTP layer resolved from this request.
    fn caller(&self, context: &RequestContext<RoleServer>) -> Result<SessionContext, ErrorData> {
        match &self.identity {
            Identity::Fixed(session) => {
                let _ = context;
                Ok(session.clone())
            }
            #[cfg(feature = "http")]
            Identity::PerRequest => crate::http::verified_caller(context).ok_or_else(|| {
                ErrorData::invalid_request(
                    "no verified caller: this server resolves each request's caller, and this request came without one",
                    None,
                )
            }),
        }
    }

    /// `tools/list`'s `ttlMs`.
    fn list_ttl_ms(&self) -> u64 {
        u64::try_from(self.list_ttl.as_millis()).unwrap_or(u64::MAX)
    }

    /// `tools/list`'s `cacheScope`: `private` when the list may differ from one caller to
    /// another, which is when it is filtered for the caller: each request's own caller
    /// (a hosted server), or a package with a tool gated by `requires.features`; `public`
    /// when every caller gets the same list.
    fn list_cache_scope(&self) -> CacheScope {
        let per_request = match &self.identity {
            Identity::Fixed(_) => false,
            #[cfg(feature = "http")]
            Identity::PerRequest => true,
        };
        let gated = self
            .package
            .tools()
            .any(|tool| !tool.meta.requires.features.is_empty());
        if per_request || gated {
            CacheScope::Private
        } else {
            CacheScope::Public
        }
    }

    /// The `tools/list` entries, with `outputSchema` only for a protocol that has it.
    fn tool_list_for(
        &self,
        session: &SessionContext,
        output_schemas: bool,
        served: Served,
    ) -> Vec<Value> {
        self.package
            .catalog(session)
            .map(|entry| self.served_tool(entry, output_schemas, served))
            .collect()
    }

    /// A tool as this server serves it: [`mcp_tool_in`] in the served dialect, its
    /// properties mirrored in HTTP headers marked `x-mcp-header` (SEP-2243).
    fn served_tool(&self, entry: &ToolEntry, output_schemas: bool, served: Served) -> Value {
        let output = output_schemas
            .then(|| self.package.output_schema(&entry.name))
            .flatten();
        let mut tool = mcp_tool_in(entry, output, served);
        let headers = self.package.headers(&entry.name).unwrap_or_default();
        if let Some(Value::Object(schema)) = tool.get_mut("inputSchema") {
            neuralis_core::header::annotate(schema, headers);
        }
        tool
    }

    /// On [`Served::McpRemote`], the call's strings that spell a declared non-string
    /// `enum` value read back as it (the dialect serves enum values as strings,
    /// [`enum_strings`](neuralis_core::dialect::enum_strings)), before anything
    /// validates them; the request as it came on the other dialects.
    fn read_back(
        &self,
        mut request: CallToolRequestParams,
        served: Served,
    ) -> CallToolRequestParams {
        if served != Served::McpRemote {
            return request;
        }
        let Some(entry) = self.package.tool(&request.name) else {
            return request;
        };
        if let Some(args) = request.arguments.take() {
            let mut args = Value::Object(args);
            neuralis_core::dialect::enum_strings(&entry.schema, &mut args);
            if let Value::Object(args) = args {
                request.arguments = Some(args);
            }
        }
        request
    }

    /// On [`Served::McpRemote`], which serves a union of tagged shapes as one object, a
    /// call that mixes two kinds' fields refused naming the field and the kinds
    /// ([`mixed_shapes`](neuralis_core::dialect::mixed_shapes)), for a tool the caller
    /// sees; the tool file refuses it all the same, with less to go on.
    fn mixed_refusal(
        &self,
        request: &CallToolRequestParams,
        session: &SessionContext,
        context: &RequestContext<RoleServer>,
    ) -> Option<ToolResult> {
        if self.served_in(context) != Served::McpRemote {
            return None;
        }
        let entry = self
            .package
            .catalog(session)
            .find(|e| e.name == *request.name)?;
        let args = Value::Object(request.arguments.clone()?);
        let why = neuralis_core::dialect::mixed_shapes(&entry.schema, &args)?;
        Some(ToolResult::error(format!(
            "invalid arguments for `{}`: {why}",
            request.name
        )))
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
    ///
    /// The lines are framed by this crate, not rmcp: a line that is not JSON is answered
    /// with a JSON-RPC `-32700` parse error (rmcp would drop it, and the client would wait
    /// for its timeout), JSON that is no JSON-RPC message with `-32600`, and a
    /// notification before the handshake is dropped instead of ending the server. See
    /// [`serve_io`](Self::serve_io).
    ///
    /// The future is boxed and compiled in this crate: a package's bin that calls this
    /// instantiates none of the server.
    pub fn serve_stdio(self) -> impl Future<Output = Result<(), Error>> + Send + 'static {
        crate::stdio::serve_stdio(self)
    }

    /// Serves newline-delimited JSON-RPC read from `reader` and written to `writer` (what
    /// [`serve_stdio`](Self::serve_stdio) does over standard input and output), until
    /// `reader` ends.
    ///
    /// Every line gets what JSON-RPC 2.0 asks for: a request its answer; a line that is
    /// not JSON `-32700` (with `id: null`, or the request's `id` when a top-level one can
    /// still be read, as for arguments nested deeper than 128 levels); JSON that is not a
    /// JSON-RPC message `-32600`; a line over 16 MiB is skipped and answered `-32600`.
    ///
    /// # Errors
    ///
    /// [`Error::Serve`] when the service stops abnormally.
    ///
    /// `reader` and `writer` are boxed and the future is compiled in this crate: only the
    /// boxing is instantiated for `R` and `W`.
    pub fn serve_io<R, W>(
        self,
        reader: R,
        writer: W,
    ) -> impl Future<Output = Result<(), Error>> + Send + 'static
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        crate::stdio::serve_lines(self, Box::new(reader), Box::new(writer))
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
    /// This is the single-identity case, for local use: every request is served for the
    /// one session the server was built with, so anyone who reaches the port acts as that
    /// session. A server reachable by more than one caller resolves each request's
    /// caller instead: [`McpServer::hosted`].
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
    pub fn http_service(self) -> crate::http::HostedService {
        self.http_service_with(Default::default())
    }

    /// [`http_service`](Self::http_service) with rmcp's configuration (allowed hosts and
    /// origins, the body cap, JSON responses, keep-alive...). Feature `http`.
    #[cfg(feature = "http")]
    #[must_use]
    pub fn http_service_with(
        self,
        config: rmcp::transport::streamable_http_server::StreamableHttpServerConfig,
    ) -> crate::http::HostedService {
        let session = match &self.identity {
            Identity::Fixed(session) => Some(session.clone()),
            // A server of `hosted` is never handed out; if it were, it would refuse.
            Identity::PerRequest => None,
        };
        crate::http::single_identity(self, session, config)
    }

    /// A server for one more HTTP session (or stateless request): the same package,
    /// identity and settings, its own calls in flight and its own `logging/setLevel`.
    #[cfg(feature = "http")]
    pub(crate) fn fresh(&self) -> Self {
        Self {
            in_flight: Arc::default(),
            log_level: SessionLevel::default(),
            handler: self.handler.fresh(),
            ..self.clone()
        }
    }

    /// Runs one `tools/call`; `progress` receives the handler's reports and `log` its log
    /// messages when the client asked for them; the gate and the handler ask through
    /// `asker`.
    async fn call(
        &self,
        request: CallToolRequestParams,
        session: &SessionContext,
        id: RequestId,
        progress: Option<ProgressSink>,
        log: Option<LogSink>,
        asker: Arc<dyn Asker>,
    ) -> ToolResult {
        let controller = AbortController::new();
        let approval = match self.approval {
            ApprovalPolicy::Host => ApprovalPolicy::Trust,
            other => other,
        };
        let mut options = CallOptions::new()
            .abort(controller.signal())
            .approval(approval)
            .shared_asker(asker);
        if let Some(sink) = progress {
            options = options.progress(sink);
        }
        if let Some(sink) = log {
            options = options.log(sink);
        }
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
            .dispatch_with(&request.name, args, session, options)
            .await
    }

    /// `context` with the server's sealed-state key and the caller lent to the handler
    /// (`crate::handler_asking`); as it is when the request has no caller (the handler's own
    /// answer stands, and `asking` refuses).
    fn lend(&self, mut context: RequestContext<RoleServer>) -> RequestContext<RoleServer> {
        if let Ok(session) = self.caller(&context) {
            context.extensions.insert(crate::handler_asking::Lent {
                states: self.states.clone(),
                session,
            });
        }
        context
    }

    /// Runs one `tools/call` for `session`, relaying its progress reports and log
    /// messages while it runs: how it ended (its result, its round suspended on a
    /// question for the client, or its task begun), its round, and whether the client
    /// cancelled it. `as_task`: the call becomes a task where its tool's task starts.
    async fn run_call(
        &self,
        request: CallToolRequestParams,
        session: &SessionContext,
        context: &RequestContext<RoleServer>,
        as_task: bool,
    ) -> Result<(Ended, Option<Arc<Round>>, bool), ErrorData> {
        if let Some(refused) = self.mixed_refusal(&request, session, context) {
            return Ok((Ended::Result(refused), None, false));
        }
        let id = context.id.clone();
        // Questions: requests to the client during the call before 2026-07-28; on
        // 2026-07-28 a round that ends in an `InputRequiredResult` (see `rounds`).
        let capabilities = context.client_capabilities();
        let round: Option<Arc<Round>> = if context
            .protocol_version()
            .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
        {
            Some(Arc::new(self.states.open(
                &request,
                session,
                capabilities.clone(),
            )?))
        } else {
            None
        };
        let asker: Arc<dyn Asker> = match &round {
            Some(round) => Arc::new(RoundAsker(Arc::clone(round))),
            None => Arc::new(PeerAsker {
                peer: context.peer.clone(),
                capabilities,
            }),
        };
        // A call that becomes a task keeps the answers it was given for the task's run,
        // and ends its request where the task starts.
        let (asker, foreground): (Arc<dyn Asker>, _) = if as_task {
            let foreground = Arc::new(Foreground::new(asker));
            (Arc::clone(&foreground) as Arc<dyn Asker>, Some(foreground))
        } else {
            (asker, None)
        };
        // One channel for the call's progress reports and log messages, so that they go
        // out in the order the handler made them; none when the client asked for neither.
        let mut progress = context
            .meta
            .get_progress_token()
            .map(|token| ProgressRelay {
                token,
                peer: context.peer.clone(),
                last: None,
            });
        let log_level = self.log_level.for_call(context);
        let (reports, logs, mut relayed) = if progress.is_some() || log_level.is_some() {
            let (tx, rx) = mpsc::unbounded_channel();
            let reports = progress.is_some().then(|| {
                let tx = tx.clone();
                ProgressSink::new(move |report| {
                    let _ = tx.send(Relayed::Progress(report));
                })
            });
            let logs = log_level.map(|level| {
                LogSink::new(level, move |message| {
                    let _ = tx.send(Relayed::Log(message));
                })
            });
            (reports, logs, Some(rx))
        } else {
            (None, None, None)
        };
        let call = self.call(request, session, id.clone(), reports, logs, asker);
        tokio::pin!(call);
        let mut aborted = false;
        // rmcp cancels the request's token on `notifications/cancelled` (and when the
        // connection closes); `on_cancelled` aborts through the map as well. A round that
        // cannot answer a question suspends: the run is dropped (after every question it
        // asked in the same poll is in), and the round's questions answer the request.
        let result = loop {
            tokio::select! {
                biased;
                result = &mut call => break Ended::Result(result),
                () = async {
                    match &round {
                        Some(round) => round.suspended.notified().await,
                        None => std::future::pending().await,
                    }
                } => break Ended::Suspended,
                () = async {
                    match &foreground {
                        Some(foreground) => foreground.begun.notified().await,
                        None => std::future::pending().await,
                    }
                } => break Ended::Task(foreground.as_ref().map(|f| f.answered()).unwrap_or_default()),
                () = context.ct.cancelled(), if !aborted => {
                    aborted = true;
                    self.abort(&id);
                }
                Some(item) = async {
                    match relayed.as_mut() {
                        Some(rx) => rx.recv().await,
                        None => std::future::pending().await,
                    }
                } => relay(item, progress.as_mut(), &context.peer).await,
            }
        };
        // Every report and message the handler made goes out before its result.
        if let Some(mut rx) = relayed {
            rx.close();
            while let Ok(item) = rx.try_recv() {
                relay(item, progress.as_mut(), &context.peer).await;
            }
        }
        Ok((result, round, aborted))
    }

    /// Creates the task of a call whose request ended where its task starts, and runs the
    /// call in the background: the `CreateTaskResult`, once the task is kept (so that a
    /// `tasks/get` right after resolves).
    async fn start_task(
        &self,
        request: CallToolRequestParams,
        session: SessionContext,
        capabilities: Option<ClientCapabilities>,
        answered: std::collections::BTreeMap<String, Answered>,
    ) -> Result<CallToolResponse, ErrorData> {
        let record = self
            .tasks
            .create(session.user_id(), &request.name, answered)
            .await?;
        let run = crate::task::Run {
            package: Arc::clone(&self.package),
            tasks: Arc::clone(&self.tasks),
            session,
            request,
            capabilities,
        };
        tokio::spawn(run.run(record.task_id.clone()));
        Ok(CreateTaskResult::new(record.task()).into())
    }

    /// The span of one `tools/call`: its tool, caller and era, the request id (`http`)
    /// and, with payload tracing on, its arguments; the rest is recorded as it ends.
    fn call_span(
        &self,
        request: &CallToolRequestParams,
        session: &SessionContext,
        context: &RequestContext<RoleServer>,
    ) -> tracing::Span {
        let era = context
            .protocol_version()
            .map(|v| v.to_string())
            .unwrap_or_default();
        let span = tracing::info_span!(
            target: "neuralis_mcp::call",
            "mcp.call",
            tool = %request.name,
            caller = %session.user_id(),
            era = %era,
            request_id = tracing::field::Empty,
            outcome = tracing::field::Empty,
            refusal = tracing::field::Empty,
            duration_ms = tracing::field::Empty,
            arguments = tracing::field::Empty,
            result = tracing::field::Empty,
        );
        #[cfg(feature = "http")]
        if let Some(id) = crate::http::request_id_of(context) {
            span.record("request_id", id);
        }
        if self.trace_payloads {
            let args = request.arguments.as_ref().map(|a| Value::Object(a.clone()));
            span.record("arguments", args.unwrap_or(Value::Null).to_string());
        }
        span
    }

    /// Whether the call of `name` runs as a task; refused (recorded on `span`) when its
    /// tool runs only as one and the client did not opt in.
    fn runs_as_task(
        &self,
        name: &str,
        session: &SessionContext,
        capabilities: Option<&ClientCapabilities>,
        span: &tracing::Span,
    ) -> Result<bool, ErrorData> {
        // A tool that may run as a task, which the caller may call: a task when the client
        // opted in to the extension (for the session or this request); refused, before
        // anything runs, when it must be one and the client did not.
        let mode = self.package.task_mode(name).unwrap_or_default();
        let opted_in = capabilities.is_some_and(ClientCapabilities::supports_tasks);
        let may_task =
            mode.support.allows_task() && self.package.catalog(session).any(|e| e.name == name);
        if may_task && mode.support == TaskSupport::Required && !opted_in {
            span.record("outcome", "refused");
            span.record(
                "refusal",
                "runs only as a task: the client did not opt in to tasks",
            );
            return Err(ErrorData::missing_required_client_capability(
                ClientCapabilities::builder().enable_tasks().build(),
            ));
        }
        Ok(may_task && opted_in)
    }

    /// How a call of `name` ended, for its span and log: the outcome and, for a refusal,
    /// why.
    fn call_outcome(
        &self,
        ended: &Ended,
        aborted: bool,
        name: &str,
        session: &SessionContext,
    ) -> (&'static str, Option<&'static str>) {
        match ended {
            Ended::Suspended => ("input_required", None),
            Ended::Task(_) => ("task", None),
            Ended::Result(r) if !r.is_error => ("ok", None),
            Ended::Result(_) if aborted => ("aborted", None),
            Ended::Result(_) if self.package.tool(name).is_none() => {
                ("refused", Some("unknown tool"))
            }
            Ended::Result(_) if !self.package.catalog(session).any(|e| e.name == name) => (
                "refused",
                Some(
                    "not granted: the caller's grants do not satisfy the tool's `requires.features`",
                ),
            ),
            Ended::Result(_) => ("error", None),
        }
    }

    /// Records how a call ended on its span (with payload tracing on, its result) and
    /// logs it.
    fn record_call(
        &self,
        span: &tracing::Span,
        ended: &Ended,
        outcome: &'static str,
        refusal: Option<&'static str>,
        started: std::time::Instant,
    ) {
        let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
        span.record("outcome", outcome);
        span.record("duration_ms", duration_ms);
        if let Some(refusal) = refusal {
            span.record("refusal", refusal);
        }
        if self.trace_payloads
            && let Ended::Result(result) = ended
        {
            span.record("result", serde_json::to_string(result).unwrap_or_default());
        }
        span.in_scope(|| {
            tracing::info!(target: "neuralis_mcp::call", outcome, duration_ms, refusal, "call");
        });
    }

    /// The answer to a `tools/call` that ended: its result, its suspended round, its
    /// task begun, or the refusal of a question the client could not answer.
    async fn respond(
        &self,
        ended: Ended,
        round: Option<Arc<Round>>,
        task_request: Option<CallToolRequestParams>,
        session: SessionContext,
        capabilities: Option<ClientCapabilities>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A handler's question the client could not answer was an `AskError` to it; a
        // call that then failed ends with `-32021` naming what the client lacks.
        let unanswerable = match (&ended, &round) {
            (Ended::Result(result), Some(round)) => round.unanswerable(result.is_error),
            _ => None,
        };
        match unanswerable {
            Some(refusal) => Err(refusal),
            None => match (ended, round, task_request) {
                (Ended::Result(result), _, _) => Ok(crate::wire::call_tool_result(result).into()),
                (Ended::Suspended, Some(round), _) => self.states.suspend(&round).map(Into::into),
                (Ended::Task(answered), _, Some(request)) => {
                    self.start_task(request, session, capabilities, answered)
                        .await
                }
                _ => Err(ErrorData::internal_error(
                    "a call suspended with no round, or began a task it could not be",
                    None,
                )),
            },
        }
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

/// How a call's request ended.
enum Ended {
    /// With the call's result.
    Result(ToolResult),
    /// With its round suspended on questions for the client (2026-07-28).
    Suspended,
    /// Where its task starts, with the answers it was given so far.
    Task(std::collections::BTreeMap<String, Answered>),
}

/// What a call's sinks push into the channel that `call_tool` drains while the call runs:
/// its progress reports and log messages, in the order the handler made them.
enum Relayed {
    Progress(Progress),
    Log(LogMessage),
}

/// Sends one report or message of a call to the client: a report through the call's
/// [`ProgressRelay`] (there is one whenever its sink exists).
async fn relay(item: Relayed, progress: Option<&mut ProgressRelay>, peer: &Peer<RoleServer>) {
    match item {
        Relayed::Progress(report) => {
            if let Some(progress) = progress {
                progress.send(report).await;
            }
        }
        Relayed::Log(message) => crate::logging::send(peer, message).await,
    }
}

/// The progress reports of one call, on their way to the client in order: the handler's
/// sink pushes them into a channel that `call_tool` drains while the call runs.
struct ProgressRelay {
    token: ProgressToken,
    peer: Peer<RoleServer>,
    last: Option<f64>,
}

impl ProgressRelay {
    /// Sends `report` when it moves forward (MCP: `progress` increases with every
    /// notification) and is a finite number.
    async fn send(&mut self, report: Progress) {
        if !report.done.is_finite() || self.last.is_some_and(|last| report.done <= last) {
            return;
        }
        self.last = Some(report.done);
        let mut param = ProgressNotificationParam::new(self.token.clone(), report.done);
        if let Some(total) = report.total.filter(|t| t.is_finite()) {
            param = param.with_total(total);
        }
        if let Some(message) = report.message {
            param = param.with_message(message);
        }
        // A client that went away gets nothing more; the call's own answer says the rest.
        let _ = self.peer.notify_progress(param).await;
    }
}

/// MCP request methods whose params rmcp reads into a typed request: when they do not
/// read, rmcp hands the request over as a custom one, and the answer is `-32602`.
fn typed_params_error(method: &str, params: Option<&Value>) -> Option<ErrorData> {
    let reason = if method == CallToolRequestMethod::VALUE {
        let params = params.cloned().unwrap_or(Value::Null);
        match serde_json::from_value::<CallToolRequestParams>(params) {
            Err(e) => e.to_string(),
            Ok(_) => "they do not read as `tools/call` params".to_owned(),
        }
    } else if method == ListToolsRequestMethod::VALUE {
        "`params` must be an object with an optional string `cursor`".to_owned()
    } else {
        return None;
    };
    Some(ErrorData::invalid_params(
        format!("invalid params for `{method}`: {reason}"),
        None,
    ))
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        #[allow(
            deprecated,
            reason = "MCP logging is deprecated by SEP-2577, not removed: 2026-07-28 still has it"
        )]
        let mut capabilities = ServerCapabilities::builder()
            .enable_logging()
            .enable_tools()
            .build();
        // The tasks extension, when a tool may run as a task.
        if self.package.tools().any(|t| {
            self.package
                .task_mode(&t.name)
                .is_some_and(|m| m.support.allows_task())
        }) {
            capabilities
                .extensions
                .get_or_insert_default()
                .insert(TASKS_EXTENSION_ID.to_owned(), Map::new());
        }
        // The skills extension, with directory reads, when the package ships skills.
        if !self.skills.is_empty() {
            capabilities.resources = Some(ResourcesCapability::default());
            let skills = serde_json::to_value(SkillsCapability::new().with_directory_read());
            if let Ok(Value::Object(settings)) = skills {
                capabilities
                    .extensions
                    .get_or_insert_default()
                    .insert(SKILLS_EXTENSION_ID.to_owned(), settings);
            }
        }
        let config = ServerConfig::new(capabilities).with_server_info(self.info.clone());
        let config = match &self.instructions {
            Some(text) => config.with_instructions(text.clone()),
            None => config,
        };
        self.handler.compose_info(config)
    }

    // Every request and notification that is not about tools: the handler's.
    crate::compose::handed_over!(to_handler);

    // The package's skills first, then the handler's resources.
    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        if self.skills.is_empty() {
            return self.handler.other().list_resources(request, context).await;
        }
        let first = request.as_ref().and_then(|r| r.cursor.as_ref()).is_none();
        let mut result = if self.handler.other().info().capabilities.resources.is_some() {
            self.handler
                .other()
                .list_resources(request, context)
                .await?
        } else {
            ListResourcesResult::with_all_items(Vec::new())
        };
        if first {
            result
                .resources
                .splice(0..0, self.skills.resources().iter().cloned());
        }
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match self.skills.read(&request.uri) {
            Some(result) => Ok(result.into()),
            None => {
                let context = self.lend(context);
                self.handler.other().read_resource(request, context).await
            }
        }
    }

    // The handler's, lent the server's sealed state (`crate::handler_asking`).
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let context = self.lend(context);
        self.handler.other().get_prompt(request, context).await
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        if self.skills.is_empty() {
            return self.handler.other().list_skills(request, context).await;
        }
        Ok(self.skills.list())
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        if self.skills.is_empty() {
            return self.handler.other().get_skill(request, context).await;
        }
        self.skills.get(&request.uri)
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        match self.skills.directory(&request.uri) {
            Some(result) => result,
            None => {
                self.handler
                    .other()
                    .read_resource_directory(request, context)
                    .await
            }
        }
    }

    fn accepted_subscription_filter(
        &self,
        requested: &rmcp::model::SubscriptionFilter,
    ) -> Option<rmcp::model::SubscriptionFilter> {
        self.handler.other().accepted_subscription_filter(requested)
    }

    // What rmcp's HTTP transport checks a `tools/call`'s `Mcp-Param-*` headers against
    // (SEP-2243: refused with -32020 when a header and the body disagree): the tool as
    // served, whoever calls (the call itself is gated as any other). Only a tool that
    // mirrors an argument has one to check, so the others cost a call nothing here.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        if !neuralis_core::header::has_headers(self.package.headers(name)?) {
            return None;
        }
        let entry = self.package.tools().find(|t| t.name == name)?;
        serde_json::from_value(self.served_tool(entry, true, self.served)).ok()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let session = self.caller(&context)?;
        // `outputSchema` is part of MCP since 2025-06-18 (versions are dates: they sort).
        let output_schemas = context
            .protocol_version()
            .is_none_or(|v| v.to_string().as_str() >= "2025-06-18");
        let tools = self
            .tool_list_for(&session, output_schemas, self.served_in(&context))
            .into_iter()
            .map(serde_json::from_value::<Tool>)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| {
                ErrorData::internal_error(format!("a tool is not valid MCP: {e}"), None)
            })?;
        let list = ListToolsResult::with_all_items(tools);
        // The caching hints are 2026-07-28's (SEP-2549); earlier eras keep their shape.
        let hints = context
            .protocol_version()
            .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
        Ok(if hints {
            list.with_ttl_ms(self.list_ttl_ms())
                .with_cache_scope(self.list_cache_scope())
        } else {
            list
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let session = self.caller(&context)?;
        let request = self.read_back(request, self.served_in(&context));
        let started = std::time::Instant::now();
        let span = self.call_span(&request, &session, &context);
        let name = request.name.to_string();
        let capabilities = context.client_capabilities();
        let as_task = self.runs_as_task(&name, &session, capabilities.as_ref(), &span)?;
        let task_request = as_task.then(|| request.clone());
        let run = tracing::Instrument::instrument(
            self.run_call(request, &session, &context, as_task),
            span.clone(),
        );
        // A call's event stream in a legacy HTTP session, which the call may close
        // (`http::close_call_stream`); none for a call that may become a task.
        #[cfg(feature = "http")]
        let stream = crate::call_stream::of(&context).filter(|_| !as_task);
        #[cfg(feature = "http")]
        let run = async {
            match &stream {
                Some(stream) => Arc::clone(stream).scope(run).await,
                None => run.await,
            }
        };
        let (ended, round, aborted) = run.await?;
        let (outcome, refusal) = self.call_outcome(&ended, aborted, &name, &session);
        self.record_call(&span, &ended, outcome, refusal, started);
        let response = self
            .respond(ended, round, task_request, session, capabilities)
            .await;
        // rmcp delivers a result to a connected stream only: a call that closed its
        // stream answers once the client is back on it (or gave up waiting).
        #[cfg(feature = "http")]
        if let Some(stream) = stream {
            stream.until_resumed(&context.ct).await;
        }
        response
    }

    /// `tasks/get` (SEP-2663): the caller's task, with its questions, result or error.
    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let session = self.caller(&context)?;
        let task = self.tasks.get(&request.task_id, session.user_id()).await?;
        Ok(GetTaskResult::new(task))
    }

    /// `tasks/update` (SEP-2663): answers to the caller's task's questions.
    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let session = self.caller(&context)?;
        self.tasks
            .update(
                &request.task_id,
                session.user_id(),
                &request.input_responses,
            )
            .await
    }

    /// `tasks/cancel` (SEP-2663): the caller's task stopped (a finished one stays).
    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let session = self.caller(&context)?;
        self.tasks.cancel(&request.task_id, session.user_id()).await
    }

    /// `logging/setLevel`: the connection's later calls send their log messages from this
    /// level on (answered `{}`). Only a request before 2026-07-28 reads it: on 2026-07-28
    /// each request asks for its own messages in `_meta`.
    #[allow(
        deprecated,
        reason = "MCP logging is deprecated by SEP-2577, not removed: 2026-07-28 still has it"
    )]
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.log_level.set(&request);
        Ok(())
    }

    /// A `tools/call` or `tools/list` whose params rmcp could not read: `-32602`; any
    /// other method is the handler's (`-32601` without one).
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        match typed_params_error(&request.method, request.params.as_ref()) {
            Some(error) => Err(error),
            None => {
                self.handler
                    .other()
                    .on_custom_request(request, context)
                    .await
            }
        }
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        if let Some(id) = &notification.request_id {
            self.abort(id);
        }
        self.handler
            .other()
            .on_cancelled(notification, context)
            .await;
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

    /// The `logging/setLevel` level is the connection's: a clone (the stdio server) shares
    /// it, a fresh HTTP session starts without one.
    #[cfg(feature = "http")]
    #[test]
    fn each_http_session_has_its_own_log_level() {
        use neuralis_core::dispatch::LogLevel;
        let package = Package::builder().build().expect("an empty package");
        let server = McpServer::new(package, SessionContext::builder("u").build());
        server.log_level.set_level(LogLevel::Info);
        assert_eq!(server.clone().log_level.level(), Some(LogLevel::Info));
        let session = server.fresh();
        assert_eq!(session.log_level.level(), None);
        session.log_level.set_level(LogLevel::Debug);
        assert_eq!(server.log_level.level(), Some(LogLevel::Info));
    }

    /// `tools/list` is `public` only when every caller gets the same list.
    #[test]
    fn a_list_filtered_for_its_caller_is_private() {
        use neuralis_core::dispatch::sync_fn;
        let tool = |requires: Value| {
            json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object", "additionalProperties": false, "properties": {},
                "x-neuralis": {"annotations": {"category": "read"}, "requires": requires}
            })
            .to_string()
        };
        let server = |requires: Value| {
            let package = Package::builder()
                .tool("t", tool(requires), sync_fn(|_: Value| "ok"))
                .build()
                .expect("a package");
            McpServer::new(package, SessionContext::builder("u").build())
        };
        assert_eq!(server(json!({})).list_cache_scope(), CacheScope::Public);
        let gated = server(json!({"features": ["admin.write"]}));
        assert_eq!(gated.list_cache_scope(), CacheScope::Private);
        assert_eq!(gated.list_ttl_ms(), 300_000);
        let zero = gated.with_list_ttl(Duration::ZERO);
        assert_eq!(zero.list_ttl_ms(), 0);
    }

    #[test]
    fn the_schema_loses_only_its_root_metadata() {
        let file = entry(json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "Schema Title",
            "type": "object", "additionalProperties": false,
            "properties": {"q": {"type": "string", "description": "x-neuralis is a fine word"}},
            "x-neuralis": {"annotations": {"category": "read"}}
        }));
        let tool = mcp_tool_in(&file, None, Served::Contract);
        assert_eq!(
            tool["inputSchema"],
            json!({"title": "Schema Title", "type": "object", "additionalProperties": false,
                   "properties": {"q": {"type": "string", "description": "x-neuralis is a fine word"}}})
        );
        // Served portably (the default), closure is the server's and `q` admits `null`.
        assert_eq!(
            mcp_tool(&file)["inputSchema"],
            json!({"title": "Schema Title", "type": "object",
                   "properties": {"q": {"anyOf": [
                       {"type": "string", "description": "x-neuralis is a fine word"},
                       {"type": "null"}]}}})
        );
        // The schema's title stands in for a missing annotation title.
        assert_eq!(tool["title"], "Schema Title");
        assert_eq!(tool["annotations"]["title"], "Schema Title");
        assert!(tool.get("description").is_none());
    }

    /// Served `mcp-remote`: the platform's subset, the description as it stores it, and
    /// a call's string spelling a declared integer read back as it (before validation).
    #[test]
    fn mcp_remote_serves_the_subset_and_reads_enum_strings_back() {
        use neuralis_core::dispatch::sync_fn;
        let file = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "Levels", "description": "Set a level.\nSee `docs`.",
            "type": "object", "additionalProperties": false,
            "properties": {"level": {"type": "integer", "enum": [1, 2, 3]},
                           "note": {"type": "string", "maxLength": 10}},
            "required": ["level"],
            "x-neuralis": {"annotations": {"category": "read"}}
        });
        let tool = mcp_tool_in(&entry(file.clone()), None, Served::McpRemote);
        assert_eq!(tool["description"], "Set a level. See  docs .");
        assert_eq!(tool["title"], "Levels");
        assert_eq!(
            tool["inputSchema"]["properties"],
            json!({"level": {"type": "integer", "enum": ["1", "2", "3"]},
                   "note": {"type": ["string", "null"], "description": "At most 10 characters."}})
        );
        let package = Package::builder()
            .tool("levels", file.to_string(), sync_fn(|v: Value| v))
            .build()
            .expect("a package");
        let server = McpServer::new(package, SessionContext::builder("u").build());
        let mut request = CallToolRequestParams::new("levels");
        request.arguments = json!({"level": "3", "note": "3"}).as_object().cloned();
        let portable = server.read_back(request.clone(), server.served);
        assert_eq!(portable.arguments, request.arguments, "portable: as sent");
        let remote = server.read_back(request, Served::McpRemote);
        assert_eq!(
            remote.arguments,
            json!({"level": 3, "note": "3"}).as_object().cloned()
        );
    }

    /// A value of `x-neuralis.defaults` is the property's `default` on the wire, over the
    /// one the property states itself (the handler fills in the block's).
    #[test]
    fn defaults_are_served_on_their_properties() {
        let tool = mcp_tool(&entry(json!({
            "type": "object", "additionalProperties": false,
            "properties": {
                "days": {"type": "integer"},
                "unit": {"type": "string", "default": "c"},
                "city": {"type": "string"}
            },
            "x-neuralis": {"defaults": {"days": 3, "unit": "f"}, "annotations": {"category": "read"}}
        })));
        assert_eq!(
            tool["inputSchema"]["properties"],
            json!({"days": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": 3},
                   "unit": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": "f"},
                   "city": {"anyOf": [{"type": "string"}, {"type": "null"}]}})
        );
    }
}
