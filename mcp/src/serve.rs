//! Serving a [`Package`] over MCP.

mod handler;
mod project;
mod run;

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

pub use project::{DIGEST_META, mcp_tool, mcp_tool_in, mcp_tool_with_output};

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
