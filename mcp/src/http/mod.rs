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
//! followed through rotations by `kid`), `Introspection` (feature `introspection`: opaque
//! tokens asked about at the authorization server), and any closure `Fn(&http::request::Parts) -> Result<SessionContext,
//! Refused>`, which sees the headers and whatever the host's own auth middleware put in the
//! request's extensions.
//!
//! The resolvers that read an identity provider's tokens always check the audience: a
//! token must name this server in `aud` (RFC 8707), as the resolver's `.audience(..)`
//! says, else as the [`ProtectedResource`] the hosted server publishes
//! ([`Hosted::with_protected_resource`]). With neither, every token is refused and the
//! host's log says why when the service starts; `dangerously_accept_any_audience()` is
//! the opt-out, logged as a warning at start-up.
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

use std::fmt;
use std::sync::Arc;

use neuralis_core::dispatch::{Package, SessionContext};

use crate::McpServer;
pub use crate::call_stream::close_call_stream;
pub use crate::identity::{Refused, Resolution, Resolve, TableError, TokenTable, bearer_token};
#[cfg(feature = "introspection")]
pub use crate::introspect::Introspection;
#[cfg(feature = "jwt")]
pub use crate::jwt::{GrantMapping, JwtResolver, KeyError};
pub use crate::reply::HttpResponse;
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

mod card;
#[cfg(feature = "cors")]
mod cors;
mod limits;
mod metadata;
mod service;

pub use card::ServerCard;
#[cfg(feature = "cors")]
pub use cors::cors;
use limits::Limits;
pub use limits::SessionLimits;
pub use metadata::ProtectedResource;
pub use service::HostedService;
pub(crate) use service::{request_id_of, verified_caller};

/// A package to host for many callers: built by [`McpServer::hosted`], turned into a
/// tower service by [`Hosted::service`].
#[derive(Clone)]
pub struct Hosted {
    server: McpServer,
    resolver: Arc<dyn Resolve>,
    metadata: Option<ProtectedResource>,
    limits: Limits,
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
    /// at [`ProtectedResource::well_known_path`] ([`ProtectedResource::response`]). Its
    /// `resource` is also the audience a token must name when the resolver was given
    /// none (`JwtResolver::audience`, `Introspection::audience`).
    #[must_use]
    pub fn with_protected_resource(mut self, metadata: ProtectedResource) -> Self {
        self.metadata = Some(metadata);
        self
    }

    /// Publishes `card` at `GET <endpoint>/server-card` (SEP-2127; see [`ServerCard`]),
    /// answered before identity, so without credentials; `initialize` reports the card's
    /// title and description (as [`McpServer::with_server_card`]). Without a card, that
    /// path is answered `404`.
    ///
    /// ```
    /// # use neuralis_core::dispatch::Package;
    /// use neuralis_mcp::McpServer;
    /// use neuralis_mcp::http::{ServerCard, StreamableHttpServerConfig, TokenTable};
    ///
    /// # fn main() -> Result<(), neuralis_mcp::Error> {
    /// # let package = Package::builder().build().expect("empty");
    /// let card = ServerCard::new("io.github.acme/weather", "Forecasts for any city")
    ///     .endpoint("https://tools.acme.example/mcp");
    /// let service = McpServer::hosted(package, TokenTable::new())
    ///     .with_server_info("weather", "1.2.0")
    ///     .with_server_card(card)?
    ///     .service(StreamableHttpServerConfig::default());
    /// let served = service.server_card().expect("a card");
    /// assert_eq!(served["version"], "1.2.0");
    /// assert_eq!(served["remotes"][0]["headers"][0]["isSecret"], true);
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// [`crate::Error::Config`] for a card its schema refuses ([`ServerCard::problem`]).
    pub fn with_server_card(mut self, card: ServerCard) -> Result<Self, crate::Error> {
        self.server = self.server.with_server_card(card)?;
        Ok(self)
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

    /// The tower service, over rmcp's streamable HTTP service built with `config`. The
    /// resolver learns here what the server is ([`Resolve::for_resource`]): the
    /// protected resource's URL is the audience of a resolver that names none.
    #[must_use]
    pub fn service(self, config: StreamableHttpServerConfig) -> HostedService {
        let challenge = match &self.metadata {
            Some(m) => format!("Bearer resource_metadata=\"{}\"", m.metadata_url()),
            None => "Bearer".to_owned(),
        };
        let resource = self.metadata.as_ref().map(ProtectedResource::resource);
        let resolver = self
            .resolver
            .for_resource(resource)
            .unwrap_or(self.resolver);
        // Every request needs a bearer token.
        let card = served_card(&self.server, &config, Some(self.metadata.as_ref()));
        HostedService::new(self.server, resolver, challenge, config, &self.limits).with_card(card)
    }
}

/// The card `server` publishes over a service built with `config`, as served:
/// `authorization` is `Some` when every request needs a bearer token (with the protected
/// resource, if any).
fn served_card(
    server: &McpServer,
    config: &StreamableHttpServerConfig,
    authorization: Option<Option<&ProtectedResource>>,
) -> Option<Arc<card::Served>> {
    let card = server.server_card()?;
    let metadata = authorization.flatten();
    let facts = card::Facts {
        version: server.version(),
        protocol_versions: protocol_versions(server, config),
        authorization: authorization.map(|m| m.map(ProtectedResource::metadata_url)),
    };
    let resource = metadata.map(ProtectedResource::resource);
    Some(Arc::new(card::Served::new(
        &card.document(&facts, resource),
    )))
}

/// The protocol versions `server` speaks over a service built with `config`: those
/// without `initialize` only (2026-07-28 on) when it is stateless.
fn protocol_versions(server: &McpServer, config: &StreamableHttpServerConfig) -> Vec<String> {
    rmcp::ServerHandler::supported_protocol_versions(server)
        .iter()
        .filter(|v| config.legacy_session_mode || !v.has_initialize())
        .map(ToString::to_string)
        .collect()
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
    // Every request is the one session's: no token to ask for.
    let card = served_card(&server, &config, None);
    HostedService::new(
        server,
        Arc::new(Anyone(session)),
        "Bearer".into(),
        config,
        &Limits::default(),
    )
    .with_card(card)
}
