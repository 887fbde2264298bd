//! A package hosted over MCP's streamable HTTP transport for many callers, each with its
//! own verified identity (feature `http`).
//!
//! [`McpServer::hosted`] wraps rmcp's streamable HTTP service in [`HostedService`], a
//! tower service that, for **every** HTTP request (list and call alike, every protocol
//! era), asks a [`Resolve`] who the caller is, before any MCP processing:
//!
//! - a request the resolver refuses gets `401 Unauthorized` with a
//!   `WWW-Authenticate: Bearer` challenge (naming the protected-resource metadata document
//!   when one is configured, RFC 9728), and nothing runs;
//! - a resolved caller is the [`SessionContext`] of that request only: `tools/list` shows
//!   exactly the tools its grants satisfy, and a call of a tool it is not granted gets the
//!   same generic refusal as an unknown tool (the call pipeline's gate);
//! - in the legacy session mode (`Mcp-Session-Id`, protocol versions before
//!   2026-07-28) a session belongs to the user who opened it: a request carrying the id
//!   with another user's credentials gets `403 Forbidden` (a session id is not a
//!   credential).
//!
//! Resolvers that ship: [`TokenTable`] (static bearer tokens, for local use and tests),
//! `JwtResolver` (feature `jwt`: bearer JWTs with `exp`, `nbf`, `iss` and `aud` checked,
//! the user id and the grants read from the claims by a `GrantMapping`; with feature
//! `jwks`, the keys an identity provider publishes, discovered from its issuer URL and
//! followed through rotations by `kid`), and any
//! closure `Fn(&http::request::Parts) -> Result<SessionContext,
//! Refused>`, which sees the headers and whatever the host's own auth middleware put in the
//! request's extensions.
//!
//! rmcp's own checks still apply behind it: `Host`/`Origin` validation against DNS
//! rebinding (`allowed_hosts`, `allowed_origins`), the request body cap
//! (`max_request_body_bytes`, `413`), `Content-Type` and `Accept`.
//!
//! ```no_run
//! use neuralis_core::dispatch::{Package, SessionContext};
//! use neuralis_mcp::McpServer;
//! use neuralis_mcp::http::TokenTable;
//! use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
//!
//! # fn run(package: Package) -> Result<(), Box<dyn std::error::Error>> {
//! let tokens = TokenTable::from_json(r#"{"secret-a": {"user": "ada", "grants": ["weather.read"]}}"#)?;
//! let service = McpServer::hosted(package, tokens)
//!     .service(StreamableHttpServerConfig::default());
//! // axum: Router::new().nest_service("/mcp", service)
//! # let _ = service;
//! # Ok(())
//! # }
//! ```

use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt;
use std::future::Future;

use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Instant;

use http::header::{CONTENT_TYPE, WWW_AUTHENTICATE};
use http::{HeaderValue, Method, Request, Response, StatusCode};
use http_body::Body;

use http_body_util::{BodyExt as _, Full, LengthLimitError, Limited};
use neuralis_core::dispatch::{Package, SessionContext};
use rmcp::RoleServer;
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde_json::{Value, json};
use tracing::Instrument as _;

use crate::McpServer;
use crate::call_stream::Sessions;
pub use crate::call_stream::close_call_stream;
pub use crate::identity::{Refused, Resolution, Resolve, TableError, TokenTable, bearer_token};
#[cfg(feature = "introspection")]
pub use crate::introspect::Introspection;
#[cfg(feature = "jwt")]
pub use crate::jwt::{GrantMapping, JwtResolver, KeyError};
pub use crate::reply::HttpResponse;
use crate::reply::{METHOD_HEADER, full, refusal, rpc_error};
/// rmcp's configuration of the streamable HTTP service under [`HostedService`]
/// (re-exported, so a host needs no direct rmcp dependency). The settings a hosted
/// server sets: `with_legacy_session_mode(false)` to serve every request statelessly
/// (2026-07-28 only: any replica answers any request), `with_allowed_hosts` /
/// `with_allowed_origins` for the names clients and proxies use (DNS-rebinding check,
/// loopback only by default), `max_request_body_bytes` (the body cap, 4 MiB),
/// `with_json_response(true)` to answer a call in one JSON body when it sends nothing
/// before its result, and `cancellation_token` to end open streams at shutdown.
pub use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
/// The token of `StreamableHttpServerConfig::cancellation_token` (`tokio-util`'s),
/// re-exported: cancel it to end rmcp's open event streams and running calls.
pub use tokio_util::sync::CancellationToken;

/// The header that names a legacy MCP session.
const SESSION_HEADER: &str = "mcp-session-id";

/// The header of a request's id: the caller's, echoed, else a fresh one.
const REQUEST_ID: &str = "x-request-id";

/// The OAuth 2.0 protected-resource metadata of a hosted server (RFC 9728), which the
/// MCP authorization spec points clients to from the `WWW-Authenticate` challenge of a
/// `401`.
///
/// ```
/// use neuralis_mcp::http::ProtectedResource;
///
/// let meta = ProtectedResource::new("https://tools.example.com/mcp")
///     .authorization_server("https://auth.example.com")
///     .scope("weather.read");
/// assert_eq!(meta.well_known_path(), "/.well-known/oauth-protected-resource/mcp");
/// assert_eq!(meta.metadata_url(), "https://tools.example.com/.well-known/oauth-protected-resource/mcp");
/// assert_eq!(meta.document()["authorization_servers"][0], "https://auth.example.com");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtectedResource {
    resource: String,
    authorization_servers: Vec<String>,
    scopes: Vec<String>,
}

impl ProtectedResource {
    /// The metadata of the resource `resource` (the server's URL, `https://host/mcp`).
    #[must_use]
    pub fn new(resource: impl Into<String>) -> Self {
        Self {
            resource: resource.into(),
            authorization_servers: Vec::new(),
            scopes: Vec::new(),
        }
    }

    /// An authorization server that issues tokens for this resource.
    #[must_use]
    pub fn authorization_server(mut self, issuer: impl Into<String>) -> Self {
        self.authorization_servers.push(issuer.into());
        self
    }

    /// A scope the resource understands (a feature a token may grant).
    #[must_use]
    pub fn scope(mut self, scope: impl Into<String>) -> Self {
        self.scopes.push(scope.into());
        self
    }

    /// The resource's origin and path, split where RFC 9728 inserts the well-known
    /// segment.
    fn split(&self) -> (&str, &str) {
        let after_scheme = self.resource.find("://").map_or(0, |i| i + 3);
        match self.resource[after_scheme..].find('/') {
            Some(i) => self.resource.split_at(after_scheme + i),
            None => (self.resource.as_str(), ""),
        }
    }

    /// The path the document is served at (RFC 9728 §3.1: the well-known segment
    /// between the host and the resource's path), for the host's router.
    #[must_use]
    pub fn well_known_path(&self) -> String {
        let (_, path) = self.split();
        format!(
            "/.well-known/oauth-protected-resource{}",
            path.trim_end_matches('/')
        )
    }

    /// The document's URL, named in the `WWW-Authenticate` challenge.
    #[must_use]
    pub fn metadata_url(&self) -> String {
        let (origin, _) = self.split();
        format!("{origin}{}", self.well_known_path())
    }

    /// The metadata document.
    #[must_use]
    pub fn document(&self) -> Value {
        let mut doc = json!({
            "resource": self.resource,
            "bearer_methods_supported": ["header"],
        });
        if !self.authorization_servers.is_empty() {
            doc["authorization_servers"] = json!(self.authorization_servers);
        }
        if !self.scopes.is_empty() {
            doc["scopes_supported"] = json!(self.scopes);
        }
        doc
    }

    /// The document as an HTTP response (`200`, JSON), for the host's router.
    #[must_use]
    pub fn response(&self) -> HttpResponse {
        let mut response = Response::new(full(self.document().to_string()));
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        response
    }
}

/// A CORS layer for browser clients of a hosted server (feature `cors`; `tower-http`'s
/// [`CorsLayer`](tower_http::cors::CorsLayer)), to wrap the whole router: it answers a
/// preflight (`OPTIONS` with `Access-Control-Request-Method`) itself, before identity
/// (a preflight carries no credentials), and adds the CORS headers to every answer,
/// `401`s included, for the origins `origins` (`https://app.example.com`) only.
///
/// Allowed request headers: `Authorization`, `Content-Type`, `Accept`,
/// `Mcp-Session-Id`, `Mcp-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Last-Event-ID`,
/// `X-Request-Id`; exposed response headers: `Mcp-Session-Id`, `Mcp-Protocol-Version`,
/// `WWW-Authenticate`, `Retry-After`, `X-Request-Id`; methods `GET`, `POST`, `DELETE`;
/// preflights cached for 10 minutes; no cookies (`Allow-Credentials` is not sent: the
/// bearer token travels in a header). rmcp's `Origin` check still applies: list the same
/// origins in `StreamableHttpServerConfig::allowed_origins`.
///
/// ```
/// let cors = neuralis_mcp::http::cors(["https://app.example.com"]).unwrap();
/// // axum: Router::new().nest_service("/mcp", service).layer(cors)
/// # let _ = cors;
/// ```
///
/// # Errors
///
/// The first origin that is not a valid header value.
#[cfg(feature = "cors")]
pub fn cors<I, S>(origins: I) -> Result<tower_http::cors::CorsLayer, String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    use http::header::{ACCEPT, CONTENT_TYPE as TYPE, HeaderName, RETRY_AFTER};
    let origins = origins
        .into_iter()
        .map(|o| {
            let origin = o.as_ref().trim_end_matches('/');
            HeaderValue::from_str(origin).map_err(|_| format!("`{origin}` is not an origin"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let name = HeaderName::from_static;
    Ok(tower_http::cors::CorsLayer::new()
        .allow_origin(origins)
        .allow_methods([Method::GET, Method::POST, Method::DELETE])
        .allow_headers([
            http::header::AUTHORIZATION,
            TYPE,
            ACCEPT,
            name(SESSION_HEADER),
            name("mcp-protocol-version"),
            name(METHOD_HEADER),
            name("mcp-name"),
            name("last-event-id"),
            name(REQUEST_ID),
        ])
        .expose_headers([
            name(SESSION_HEADER),
            name("mcp-protocol-version"),
            WWW_AUTHENTICATE,
            RETRY_AFTER,
            name(REQUEST_ID),
        ])
        .max_age(std::time::Duration::from_secs(600)))
}

/// The caller an HTTP request was resolved to, and the request's id, in its extensions
/// (set by [`HostedService`] only).
#[derive(Clone)]
struct Verified {
    caller: SessionContext,
    request_id: Arc<str>,
}

fn verified(context: &RequestContext<RoleServer>) -> Option<&Verified> {
    context
        .extensions
        .get::<http::request::Parts>()?
        .extensions
        .get::<Verified>()
}

/// The caller [`HostedService`] resolved for the request `context` belongs to.
pub(crate) fn verified_caller(context: &RequestContext<RoleServer>) -> Option<SessionContext> {
    verified(context).map(|v| v.caller.clone())
}

/// The id of the HTTP request `context` belongs to (its `x-request-id`).
pub(crate) fn request_id_of(context: &RequestContext<RoleServer>) -> Option<&str> {
    verified(context).map(|v| &*v.request_id)
}

/// A package to host for many callers: built by [`McpServer::hosted`], turned into a
/// tower service by [`Hosted::service`].
#[derive(Clone)]
pub struct Hosted {
    server: McpServer,
    resolver: Arc<dyn Resolve>,
    metadata: Option<ProtectedResource>,
    limits: Limits,
}

/// The limits a hosted service applies beyond rmcp's.
#[derive(Clone, Debug, Default)]
struct Limits {
    /// `tools/call` requests per minute per verified caller.
    #[cfg(feature = "rate-limit")]
    calls_per_minute: Option<std::num::NonZeroU32>,
    /// How long a request may take until its answer starts.
    timeout: Option<std::time::Duration>,
    /// What `listen::serve` holds each connection to.
    connections: crate::listen::ConnectionLimits,
    /// How many legacy sessions may be open, and for how long idle.
    sessions: SessionLimits,
}

/// How many legacy sessions (`Mcp-Session-Id`, protocol versions before 2026-07-28) a
/// hosted server keeps, and how long one may idle (see
/// [`Hosted::with_session_limits`]). Each costs memory until it ends (about 70 KB with
/// the example package), so a caller who opens them and never closes them would
/// otherwise grow the server without bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLimits {
    per_caller: Option<usize>,
    total: Option<usize>,
    idle: std::time::Duration,
}

impl Default for SessionLimits {
    /// 128 per verified caller, 1,024 in all, closed after 5 minutes without a request.
    fn default() -> Self {
        Self {
            per_caller: Some(Self::DEFAULT_PER_CALLER),
            total: Some(Self::DEFAULT_TOTAL),
            idle: Self::DEFAULT_IDLE,
        }
    }
}

impl SessionLimits {
    /// The default cap per verified caller.
    pub const DEFAULT_PER_CALLER: usize = 128;
    /// The default cap in all.
    pub const DEFAULT_TOTAL: usize = 1024;
    /// The default idle expiry (rmcp's own default).
    pub const DEFAULT_IDLE: std::time::Duration = std::time::Duration::from_secs(300);

    /// The most sessions one verified caller (by user id) may hold open (`None`: no cap).
    #[must_use]
    pub fn with_per_caller(mut self, max: Option<usize>) -> Self {
        self.per_caller = max;
        self
    }

    /// The most sessions open in all (`None`: no cap).
    #[must_use]
    pub fn with_total(mut self, max: Option<usize>) -> Self {
        self.total = max;
        self
    }

    /// How long a session may go without a request before it is closed.
    #[must_use]
    pub fn with_idle(mut self, idle: std::time::Duration) -> Self {
        self.idle = idle;
        self
    }
}

impl fmt::Debug for Hosted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hosted")
            .field("server", &self.server)
            .field("metadata", &self.metadata)
            .finish_non_exhaustive()
    }
}

impl McpServer {
    /// A package hosted over streamable HTTP for many callers, each request's caller
    /// resolved by `resolver` (see [`crate::http`]). Feature `http`.
    pub fn hosted(package: impl Into<Arc<Package>>, resolver: impl Resolve) -> Hosted {
        Hosted {
            server: McpServer::per_request(package.into()),
            resolver: Arc::new(resolver),
            metadata: None,
            limits: Limits::default(),
        }
    }
}

impl Hosted {
    /// The name and version the server reports in `initialize`.
    #[must_use]
    pub fn with_server_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.server = self.server.with_server_info(name, version);
        self
    }

    /// Instructions the server gives clients in `initialize`.
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.server = self.server.with_instructions(instructions);
        self
    }

    /// What a call whose approval posture asks gets (see [`McpServer::with_approval`];
    /// default: ask a person through the client).
    #[must_use]
    pub fn with_approval(mut self, policy: neuralis_core::dispatch::ApprovalPolicy) -> Self {
        self.server = self.server.with_approval(policy);
        self
    }

    /// The key that seals 2026-07-28 `requestState`s, the same on every replica (see
    /// [`McpServer::with_request_state_key`]).
    ///
    /// # Errors
    ///
    /// [`crate::Error::Config`] for a key shorter than 32 bytes.
    pub fn with_request_state_key(
        mut self,
        key: impl Into<Vec<u8>>,
        ttl: std::time::Duration,
    ) -> Result<Self, crate::Error> {
        self.server = self.server.with_request_state_key(key, ttl)?;
        Ok(self)
    }

    /// Where the approvals already used are recorded, one ledger shared by every
    /// replica (see [`McpServer::with_consumed_states`]).
    #[must_use]
    pub fn with_consumed_states(mut self, ledger: impl crate::ConsumedStates) -> Self {
        self.server = self.server.with_consumed_states(ledger);
        self
    }

    /// Where the tasks of the tools that run as tasks are kept, for every replica that
    /// shares `store` (see [`McpServer::with_task_store`]).
    #[must_use]
    pub fn with_task_store(mut self, store: impl crate::TaskStore) -> Self {
        self.server = self.server.with_task_store(store);
        self
    }

    /// How long tasks are kept and how their runs are watched (see
    /// [`McpServer::with_task_timing`]).
    #[must_use]
    pub fn with_task_timing(mut self, timing: crate::TaskTiming) -> Self {
        self.server = self.server.with_task_timing(timing);
        self
    }

    /// Composes the package with an rmcp handler for everything that is not a tool
    /// (prompts, resources, completion...): see [`McpServer::with_handler`]. The handler
    /// serves only requests whose caller the resolver accepted, and sees the HTTP
    /// request's parts in each request's extensions.
    #[must_use]
    pub fn with_handler<H: rmcp::ServerHandler + Clone>(mut self, handler: H) -> Self {
        self.server = self.server.with_handler(handler);
        self
    }

    /// Names `metadata`'s document in every `401` challenge
    /// (`WWW-Authenticate: Bearer resource_metadata="..."`); the host serves the document
    /// at [`ProtectedResource::well_known_path`] ([`ProtectedResource::response`]).
    #[must_use]
    pub fn with_protected_resource(mut self, metadata: ProtectedResource) -> Self {
        self.metadata = Some(metadata);
        self
    }

    /// How `tools/list` writes each tool's `inputSchema` (see
    /// [`McpServer::with_served_dialect`]; default [`Served::Portable`](crate::Served)).
    #[must_use]
    pub fn with_served_dialect(mut self, served: crate::Served) -> Self {
        self.server = self.server.with_served_dialect(served);
        self
    }

    /// Each call's span also records its arguments and result (off by default: see
    /// [`McpServer::with_trace_payloads`]).
    #[must_use]
    pub fn with_trace_payloads(mut self, on: bool) -> Self {
        self.server = self.server.with_trace_payloads(on);
        self
    }

    /// At most `calls_per_minute` `tools/call` requests per minute for each verified
    /// caller (by user id; bursts up to the same number), counted after identity, so an
    /// agent in a loop slows itself and nobody else. A call over the limit runs nothing
    /// and is answered `429 Too Many Requests` with `Retry-After` (seconds) and a JSON-RPC
    /// error body. Lists and other requests are not counted. Feature `rate-limit`
    /// (`governor`); the count is per process (per replica behind a proxy).
    #[cfg(feature = "rate-limit")]
    #[must_use]
    pub fn with_rate_limit(mut self, calls_per_minute: std::num::NonZeroU32) -> Self {
        self.limits.calls_per_minute = Some(calls_per_minute);
        self
    }

    /// At most `timeout` from a request's arrival to the start of its answer: a request
    /// still unanswered then (a call stuck on a slow dependency) is answered `503 Service
    /// Unavailable` with a JSON-RPC error body, and its call is dropped (a `cancellable`
    /// tool sees its abort signal). An answer that has started (an event stream, whose
    /// events may keep coming) is not cut. Unset by default; an MCP client usually has its
    /// own timeout too.
    #[must_use]
    pub fn with_request_timeout(mut self, timeout: std::time::Duration) -> Self {
        self.limits.timeout = Some(timeout);
        self
    }

    /// The limits each connection is held to when the service is served by
    /// [`listen::serve`](crate::listen::serve) (default [`ConnectionLimits::default`](crate::listen::ConnectionLimits::default)
    /// (crate::listen::ConnectionLimits::default): 10 s for a request's headers, 30 s
    /// idle, 1,024 connections, 64 per peer address). Read them back with
    /// [`connection_limits`](Self::connection_limits) for the server loop.
    #[must_use]
    pub fn with_connection_limits(mut self, limits: crate::listen::ConnectionLimits) -> Self {
        self.limits.connections = limits;
        self
    }

    /// How many legacy sessions may be open (per verified caller and in all) and how long
    /// one may idle (default [`SessionLimits::default`]: 128, 1,024, 5 minutes). An
    /// `initialize` that would open one past a cap runs nothing and is answered with a
    /// JSON-RPC error (`429 Too Many Requests` past the caller's cap, `503 Service
    /// Unavailable` past the total), saying to close a session (`DELETE` with its
    /// `Mcp-Session-Id`) or let one expire; the operator sees the refusal.
    #[must_use]
    pub fn with_session_limits(mut self, limits: SessionLimits) -> Self {
        self.limits.sessions = limits;
        self
    }

    /// The connection limits to serve this service with ([`listen::serve`](crate::listen::serve)).
    #[must_use]
    pub fn connection_limits(&self) -> crate::listen::ConnectionLimits {
        self.limits.connections
    }

    /// The tower service, over rmcp's streamable HTTP service built with `config`.
    #[must_use]
    pub fn service(self, config: StreamableHttpServerConfig) -> HostedService {
        let challenge = match &self.metadata {
            Some(m) => format!("Bearer resource_metadata=\"{}\"", m.metadata_url()),
            None => "Bearer".to_owned(),
        };
        HostedService::new(self.server, self.resolver, challenge, config, &self.limits)
    }
}

/// The resolver of a single-identity server: every request is the server's one session
/// (which `McpServer` itself holds), so this lets every request through; with no
/// session, it lets none through.
struct Anyone(Option<SessionContext>);

impl Resolve for Anyone {
    fn resolve(&self, _parts: &http::request::Parts) -> Result<SessionContext, Refused> {
        self.0.clone().ok_or_else(Refused::missing)
    }
}

/// The service of [`McpServer::http_service_with`]: every request served for `session`.
pub(crate) fn single_identity(
    server: McpServer,
    session: Option<SessionContext>,
    config: StreamableHttpServerConfig,
) -> HostedService {
    HostedService::new(
        server,
        Arc::new(Anyone(session)),
        "Bearer".into(),
        config,
        &Limits::default(),
    )
}

/// The tower service of a package over streamable HTTP (see [`crate::http`]): every
/// request's caller resolved, its body read within the cap, then rmcp's streamable HTTP
/// service; a body that is not a JSON-RPC message is answered with JSON-RPC's own error
/// (`-32700` for text that is not JSON, `-32600` for JSON that is no message) where rmcp
/// alone answers `415`. Mount it where MCP is served (`/mcp`).
#[derive(Clone)]
pub struct HostedService {
    inner: StreamableHttpService<McpServer, Sessions>,
    resolver: Arc<dyn Resolve>,
    /// The user who opened each legacy session, by its `Mcp-Session-Id`.
    owners: Arc<Mutex<HashMap<String, String>>>,
    challenge: Arc<str>,
    #[cfg(feature = "rate-limit")]
    limiter: Option<Arc<crate::limit::Limiter>>,
    timeout: Option<std::time::Duration>,
    /// rmcp's legacy sessions (whose ids the owners map is pruned against), each call's
    /// event stream reachable from the call.
    sessions: Arc<Sessions>,
    /// `initialize`s let through and not answered yet, by user: counted against the caps,
    /// so that requests at once cannot all pass the same check.
    opening: Arc<Mutex<HashMap<String, usize>>>,
    session_limits: SessionLimits,
}

impl fmt::Debug for HostedService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostedService")
            .field("challenge", &self.challenge)
            .finish_non_exhaustive()
    }
}

impl HostedService {
    fn new(
        server: McpServer,
        resolver: Arc<dyn Resolve>,
        challenge: String,
        config: StreamableHttpServerConfig,
        limits: &Limits,
    ) -> Self {
        let mut manager = LocalSessionManager::default();
        manager.session_config.keep_alive = Some(limits.sessions.idle);
        // The retry interval of a call's stream (its first event) is the configured one.
        manager.session_config.sse_retry = config.sse_retry;
        let sessions = Arc::new(Sessions::new(manager));
        let inner =
            StreamableHttpService::new(move || Ok(server.fresh()), Arc::clone(&sessions), config);
        Self {
            inner,
            sessions,
            opening: Arc::default(),
            session_limits: limits.sessions,
            resolver,
            owners: Arc::default(),
            challenge: Arc::from(challenge),
            #[cfg(feature = "rate-limit")]
            limiter: limits
                .calls_per_minute
                .map(|n| Arc::new(crate::limit::Limiter::per_minute(n))),
            timeout: limits.timeout,
        }
    }

    /// How many legacy sessions are open (each bound to the user who opened it).
    #[must_use]
    pub fn open_sessions(&self) -> usize {
        self.owners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// The refusal of an `initialize` that would open a session past a cap, after the
    /// sessions rmcp has closed (idle, or their connection gone) are forgotten; else the
    /// room it takes until it is answered.
    async fn open_session(&self, user: &str) -> Result<Opening, HttpResponse> {
        let limits = self.session_limits;
        let live = self.sessions.local.sessions.read().await;
        let mut owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        owners.retain(|id, _| live.contains_key(id.as_str()));
        drop(live);
        let mut opening = self.opening.lock().unwrap_or_else(PoisonError::into_inner);
        let held = owners.values().filter(|owner| *owner == user).count()
            + opening.get(user).copied().unwrap_or(0);
        let total = owners.len() + opening.values().sum::<usize>();
        drop(owners);
        let over_caller = limits.per_caller.is_some_and(|max| held >= max);
        let over_total = limits.total.is_some_and(|max| total >= max);
        if !over_caller && !over_total {
            *opening.entry(user.to_owned()).or_insert(0) += 1;
            return Ok(Opening {
                opening: Arc::clone(&self.opening),
                user: user.to_owned(),
            });
        }
        drop(opening);
        Err(self.session_refusal(over_caller, held))
    }

    /// The answer to an `initialize` past a cap.
    fn session_refusal(&self, over_caller: bool, held: usize) -> HttpResponse {
        let limits = self.session_limits;
        if over_caller {
            let max = limits.per_caller.unwrap_or_default();
            return refusal(
                StatusCode::TOO_MANY_REQUESTS,
                &format!(
                    "too many open sessions: this caller holds {held}, the most this server keeps for one caller is {max}; end one (DELETE /mcp with its Mcp-Session-Id) or let one expire"
                ),
                &format!("session cap per caller ({max}) reached"),
            );
        }
        let max = limits.total.unwrap_or_default();
        refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!(
                "too many open sessions: this server keeps at most {max}; try again later, or use the stateless protocol (2026-07-28), which needs none"
            ),
            &format!("session cap in all ({max}) reached"),
        )
    }

    /// The `401` for a refused request.
    fn unauthorized(&self, refused: &Refused) -> HttpResponse {
        let challenge = match refused.code {
            Some(code) => format!("{}, error=\"{code}\"", self.challenge),
            None => self.challenge.to_string(),
        };
        let mut response = refusal(
            StatusCode::UNAUTHORIZED,
            "unauthorized: this server needs a valid bearer token",
            refused.reason(),
        );
        if let Ok(value) = HeaderValue::from_str(&challenge) {
            response.headers_mut().insert(WWW_AUTHENTICATE, value);
        }
        response
    }

    /// Answers one HTTP request, within its `mcp.request` span (see [`crate::http`]),
    /// with its `x-request-id` (the caller's when it is up to 200 letters, digits and
    /// `-_.:/+=@`, else a fresh UUID).
    pub async fn handle<B>(&self, request: Request<B>) -> HttpResponse
    where
        B: Body + Send + 'static,
        B::Error: std::error::Error + Send + Sync + 'static,
        B::Data: Send + 'static,
    {
        let started = Instant::now();
        let request_id: Arc<str> = match request
            .headers()
            .get(REQUEST_ID)
            .and_then(|v| v.to_str().ok())
            // Echoed and logged: only an id of up to 200 plain characters is taken as is.
            .filter(|v| {
                !v.is_empty()
                    && v.len() <= 200
                    && v.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-_.:/+=@".contains(&b))
            }) {
            Some(id) => Arc::from(id),
            None => Arc::from(uuid::Uuid::new_v4().to_string()),
        };
        let rpc_method = request
            .headers()
            .get(METHOD_HEADER)
            .and_then(|v| v.to_str().ok());
        let span = tracing::info_span!(
            target: "neuralis_mcp::http",
            "mcp.request",
            method = %request.method(),
            request_id = %request_id,
            rpc_method = rpc_method,
            caller = tracing::field::Empty,
            status = tracing::field::Empty,
            refusal = tracing::field::Empty,
            duration_ms = tracing::field::Empty,
        );
        let mut response = self
            .answer(request, request_id.clone())
            .instrument(span.clone())
            .await;
        span.record("status", response.status().as_u16());
        span.record("duration_ms", started.elapsed().as_secs_f64() * 1000.0);
        if let Ok(value) = HeaderValue::from_str(&request_id) {
            response.headers_mut().insert(REQUEST_ID, value);
        }
        response
    }

    /// The answer to one request (in its span).
    async fn answer<B>(&self, request: Request<B>, request_id: Arc<str>) -> HttpResponse
    where
        B: Body + Send + 'static,
        B::Error: std::error::Error + Send + Sync + 'static,
        B::Data: Send + 'static,
    {
        let (mut parts, body) = request.into_parts();
        let caller = match self.resolver.resolve_request(&parts).await {
            Ok(caller) => caller,
            Err(refused) => return self.unauthorized(&refused),
        };
        tracing::Span::current().record("caller", caller.user_id());
        let session = parts
            .headers
            .get(SESSION_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if let Some(id) = &session {
            let owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
            if owners
                .get(id)
                .is_some_and(|owner| owner != caller.user_id())
            {
                drop(owners);
                return refusal(
                    StatusCode::FORBIDDEN,
                    "forbidden: this session belongs to another caller; open a session of your own",
                    "a legacy session id used by another user than the one who opened it",
                );
            }
        }
        let bytes = match self.read_body(body).await {
            Ok(bytes) => bytes,
            Err(refused) => return refused,
        };
        #[cfg(feature = "rate-limit")]
        if let Some(limiter) = &self.limiter {
            let calls = crate::limit::calls_in(&parts, &bytes);
            if let Err(wait) = limiter.check(caller.user_id(), calls) {
                return crate::limit::too_many(limiter, wait);
            }
        }
        let user = caller.user_id().to_owned();
        let closing = parts.method == Method::DELETE;
        let posted = parts.method == Method::POST;
        // Held until the `initialize` is answered (and its session recorded below).
        let _opening = if posted
            && session.is_none()
            && self.inner.config.legacy_session_mode
            && opens_session(&bytes)
        {
            match self.open_session(&user).await {
                Ok(opening) => Some(opening),
                Err(refused) => return refused,
            }
        } else {
            None
        };
        let json_body = parts
            .headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"));
        parts.extensions.insert(Verified { caller, request_id });
        let answer = self
            .inner
            .handle(Request::from_parts(parts, Full::new(bytes.clone())));
        let response = match self.timeout {
            None => answer.await,
            Some(limit) => match tokio::time::timeout(limit, answer).await {
                Ok(response) => response,
                Err(_) => {
                    return refusal(
                        StatusCode::SERVICE_UNAVAILABLE,
                        &format!(
                            "the request took longer than this server allows ({} ms); it was cancelled",
                            limit.as_millis()
                        ),
                        &format!("the request timed out after {} ms", limit.as_millis()),
                    );
                }
            },
        };
        // rmcp answers `415` to a JSON body it could not read as a message; JSON-RPC
        // has its own errors for that.
        if posted && json_body && response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE {
            return unreadable_message(&bytes);
        }
        // A session ended: `204`, which clients expect (rmcp says `202 Accepted`, and the
        // Python SDK logs that as a failed termination).
        let response = if closing && response.status() == StatusCode::ACCEPTED {
            let mut ended = Response::new(full(String::new()));
            *ended.status_mut() = StatusCode::NO_CONTENT;
            ended
        } else {
            as_json_rpc(response).await
        };
        self.record_owner(session, closing, &response, user);
        response
    }

    /// The body, read within the cap here (as rmcp would), so that a body rmcp cannot
    /// read as a JSON-RPC message can be told apart: not JSON, or no message.
    async fn read_body<B>(&self, body: B) -> Result<bytes::Bytes, HttpResponse>
    where
        B: Body + Send + 'static,
        B::Error: std::error::Error + Send + Sync + 'static,
        B::Data: Send + 'static,
    {
        let cap = self.inner.config.max_request_body_bytes;
        match Limited::new(body, cap).collect().await {
            Ok(collected) => Ok(collected.to_bytes()),
            Err(e) if e.downcast_ref::<LengthLimitError>().is_some() => Err(refusal(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!("payload too large: the request body exceeds {cap} bytes"),
                &format!("the request body exceeds the cap of {cap} bytes"),
            )),
            Err(e) => Err(rpc_error(
                StatusCode::BAD_REQUEST,
                -32700,
                &format!("the request body could not be read: {e}"),
            )),
        }
    }

    /// The owner of the legacy session a response opened (`user`), or none any more for
    /// one a request closed.
    fn record_owner(
        &self,
        session: Option<String>,
        closing: bool,
        response: &HttpResponse,
        user: String,
    ) {
        let mut owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        match session {
            None => {
                if let Some(id) = response
                    .headers()
                    .get(SESSION_HEADER)
                    .and_then(|v| v.to_str().ok())
                {
                    owners.insert(id.to_owned(), user);
                }
            }
            Some(id) if closing && response.status().is_success() => {
                owners.remove(&id);
            }
            Some(_) => {}
        }
    }
}

/// What a JSON body that rmcp could not read as a message is (rmcp answers `415`;
/// JSON-RPC has its own errors): JSON but no JSON-RPC message, or no JSON at all.
fn unreadable_message(bytes: &[u8]) -> HttpResponse {
    if serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok() {
        rpc_error(
            StatusCode::BAD_REQUEST,
            -32600,
            "invalid request: the body is JSON but not a JSON-RPC message",
        )
    } else {
        rpc_error(
            StatusCode::BAD_REQUEST,
            -32700,
            "parse error: the body is not JSON",
        )
    }
}

/// Room taken by an `initialize` until it is answered.
struct Opening {
    opening: Arc<Mutex<HashMap<String, usize>>>,
    user: String,
}

impl Drop for Opening {
    fn drop(&mut self) {
        let mut opening = self.opening.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = opening.get_mut(&self.user) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                opening.remove(&self.user);
            }
        }
    }
}

/// Whether a body with no session id is one that opens a legacy session: an
/// `initialize` request (alone or in a batch). Parsed only when the text names it.
fn opens_session(bytes: &[u8]) -> bool {
    const NAME: &[u8] = b"\"initialize\"";
    if !bytes.windows(NAME.len()).any(|w| w == NAME) {
        return false;
    }
    let is_initialize = |m: &serde_json::Value| {
        m.get("method").and_then(serde_json::Value::as_str) == Some("initialize")
    };
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(serde_json::Value::Array(items)) => items.iter().any(is_initialize),
        Ok(message) => is_initialize(&message),
        Err(_) => false,
    }
}

/// rmcp's own refusals (`403` for a `Host` or `Origin` it does not allow, `406`, `405`,
/// `404` for an unknown session...) come as plain text, which clients report as an
/// unreadable error: the same status with a JSON-RPC error body carrying the text.
async fn as_json_rpc(response: HttpResponse) -> HttpResponse {
    let status = response.status();
    let is_json = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = match body.collect().await {
        Ok(collected) => String::from_utf8_lossy(&collected.to_bytes()).into_owned(),
        Err(never) => match never {},
    };
    let text = if text.trim().is_empty() {
        status.canonical_reason().unwrap_or("refused").to_owned()
    } else {
        text.trim().to_owned()
    };
    let mut answer = refusal(status, &text, &text);
    for (name, value) in &parts.headers {
        if name != CONTENT_TYPE && name != http::header::CONTENT_LENGTH {
            answer.headers_mut().insert(name.clone(), value.clone());
        }
    }
    answer
}

impl<B> tower_service::Service<Request<B>> for HostedService
where
    B: Body + Send + 'static,
    B::Error: std::error::Error + Send + Sync + 'static,
    B::Data: Send + 'static,
{
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let service = self.clone();
        Box::pin(async move { Ok(service.handle(request).await) })
    }
}
