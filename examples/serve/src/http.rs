//! `--http ADDR`: the package over MCP's streamable HTTP transport at `/mcp`, with axum.
//!
//! - With `--tokens FILE` (`{"<token>": {"user": "<id>", "grants": ["<feature>"]}}`),
//!   every request needs `Authorization: Bearer <token>` and is served for that token's
//!   user and grants (`McpServer::hosted`). With `--issuer URL` (or `--jwks-url URL`)
//!   and `--audience AUD` (default: the `--resource` URL; one of them is required),
//!   every request needs a bearer JWT for this server from that identity provider
//!   (`JwtResolver::discover`): the user is its `sub`, the grants its `--grants-claim`
//!   (default `scope`). Without either, every request is served for the one local
//!   session (`--grant`), which is for local use only.
//! - DNS rebinding protection: a request whose `Host` is not the server's own (the
//!   listening address, `localhost`, or a name given with `--allow-host`), or whose
//!   `Origin` is not one of those, is refused with `403` (rmcp's checks).
//! - `--cors-origin ORIGIN`: browser pages on that origin may call (CORS preflights are
//!   answered before identity). `--rate-limit N`: at most N tool calls per minute per
//!   caller, `429` with `Retry-After` beyond.
//! - Request bodies are capped (`--max-body BYTES`, default 4 MiB): `413` beyond.
//! - `GET /mcp/server-card` answers the package's server card (SEP-2127;
//!   `Compose::server_card`) without credentials: the name, title and description of its
//!   registry entry (`server.json`), its version, the endpoint (`--resource`, else the
//!   listening address) and the bearer token it needs (with `--tokens`, `--issuer` or
//!   `--jwks-url`).
//! - `GET /healthz` answers `200` without credentials; every response carries an
//!   `x-request-id` header (the caller's when it sent one, else a fresh UUID).
//! - The operator's log on stderr (`tracing`): each refusal with its reason (why a
//!   token was refused, a foreign `Host`, a body over the cap), each call's tool, caller,
//!   outcome and duration, under each request's id; `RUST_LOG` filters it.
//! - SIGINT or SIGTERM: the server stops accepting connections, lets the calls in flight
//!   finish for up to `--grace SECS` (default 10), cancels what is left, and exits 0.

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use neuralis::dispatch::{Package, SessionContext};
use neuralis_mcp::http::{
    GrantMapping, Hosted, HostedService, JwtResolver, ProtectedResource, ServerCard, SessionLimits,
    TokenTable,
};
use neuralis_mcp::listen::{ConnectionLimits, ConnectionStats};
use neuralis_mcp::{McpServer, Served, TaskTiming};
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use tokio_util::sync::CancellationToken;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};

/// The options of `--http`, each also read from `NEURALIS_<FLAG>`: flatten them into a
/// server's own command line (`#[command(flatten)]`).
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("audience_source").args(["audience", "resource"]).multiple(true)))]
pub struct Options {
    /// Serve over streamable HTTP at /mcp on this address (such as 127.0.0.1:8080).
    #[arg(long = "http", value_name = "ADDR", env = "NEURALIS_HTTP")]
    pub addr: Option<SocketAddr>,
    /// Serve the same package at another path too, in its own served dialect:
    /// PATH=DIALECT (such as /mcp/remote=mcp-remote, for a platform that lowers schemas
    /// itself, beside /mcp in --served-dialect); repeatable. One process: callers,
    /// limits, sessions, tasks and state shared by every path.
    #[arg(
        long = "serve-path",
        value_name = "PATH=DIALECT",
        env = "NEURALIS_SERVE_PATHS",
        value_delimiter = ',',
        value_parser = served_path,
        requires = "addr"
    )]
    pub serve_paths: Vec<(String, Served)>,
    /// A bearer-token table: {"<token>": {"user": "<id>", "grants": ["<feature>"]}}.
    #[arg(long, value_name = "FILE", env = "NEURALIS_TOKENS", requires = "addr")]
    pub tokens: Option<PathBuf>,
    /// Another name clients (or a proxy) reach the server by, for the Host and Origin
    /// checks; repeatable.
    #[arg(
        long = "allow-host",
        value_name = "HOST",
        env = "NEURALIS_ALLOW_HOST",
        value_delimiter = ',',
        requires = "addr"
    )]
    pub allow_hosts: Vec<String>,
    /// The largest request body accepted, in bytes (413 beyond).
    #[arg(
        long,
        value_name = "BYTES",
        env = "NEURALIS_MAX_BODY",
        default_value_t = 4 * 1024 * 1024,
        requires = "addr"
    )]
    pub max_body: usize,
    /// How long the calls in flight may finish after SIGINT or SIGTERM, in seconds.
    #[arg(
        long,
        value_name = "SECS",
        env = "NEURALIS_GRACE",
        default_value_t = 10,
        requires = "addr"
    )]
    pub grace: u64,
    /// The server's public URL (https://host/mcp): serves its OAuth protected-resource
    /// metadata (RFC 9728) and names it in every 401 challenge.
    #[arg(long, value_name = "URL", env = "NEURALIS_RESOURCE", requires = "addr")]
    pub resource: Option<String>,
    /// Serve every request statelessly (protocol 2026-07-28 only, no legacy sessions).
    #[arg(long, env = "NEURALIS_STATELESS", requires = "addr")]
    pub stateless: bool,
    /// Bearer JWTs from this identity provider: its keys from the JWKS its metadata names
    /// (/.well-known/openid-configuration, else /.well-known/oauth-authorization-server);
    /// `iss` must be this URL.
    #[arg(
        long,
        value_name = "URL",
        env = "NEURALIS_ISSUER",
        requires_all = ["addr", "audience_source"],
        conflicts_with_all = ["tokens", "jwks_url"]
    )]
    pub issuer: Option<String>,
    /// Bearer JWTs signed with the keys of this JWKS.
    #[arg(
        long,
        value_name = "URL",
        env = "NEURALIS_JWKS_URL",
        requires_all = ["addr", "audience_source"],
        conflicts_with = "tokens"
    )]
    pub jwks_url: Option<String>,
    /// The audience a JWT must name in `aud` (this server, as the provider knows it);
    /// with --issuer or --jwks-url, default: the --resource URL (one of the two is
    /// required: a token minted for another server never gets in).
    #[arg(long, value_name = "AUD", env = "NEURALIS_AUDIENCE")]
    pub audience: Option<String>,
    /// The JWT claim that holds the granted features: a space-separated string or an
    /// array of strings (a dotted path reads a nested claim: realm_access.roles).
    #[arg(
        long,
        value_name = "CLAIM",
        env = "NEURALIS_GRANTS_CLAIM",
        default_value = "scope"
    )]
    pub grants_claim: String,
    /// A browser origin allowed to call (https://app.example.com): CORS preflights are
    /// answered before identity, and the Origin check admits it; repeatable.
    #[arg(
        long = "cors-origin",
        value_name = "ORIGIN",
        env = "NEURALIS_CORS_ORIGIN",
        value_delimiter = ',',
        requires = "addr"
    )]
    pub cors_origins: Vec<String>,
    /// At most N tool calls per minute per caller (with --tokens, --issuer or
    /// --jwks-url); over it, 429 with Retry-After.
    #[arg(long, value_name = "N", env = "NEURALIS_RATE_LIMIT", requires = "addr")]
    pub rate_limit: Option<NonZeroU32>,
    /// Seconds a connection that has started a request has to send its headers
    /// (slowloris); closed beyond.
    #[arg(
        long,
        value_name = "SECS",
        env = "NEURALIS_HEADER_TIMEOUT",
        default_value_t = 10
    )]
    pub header_timeout: u64,
    /// Seconds a connection with no request in flight may send nothing (an idle
    /// keep-alive connection, or one that never sends a byte); closed beyond.
    #[arg(
        long,
        value_name = "SECS",
        env = "NEURALIS_IDLE_TIMEOUT",
        default_value_t = 30
    )]
    pub idle_timeout: u64,
    /// At most N connections open at once (0: no cap); one beyond is closed on accept.
    #[arg(
        long,
        value_name = "N",
        env = "NEURALIS_MAX_CONNECTIONS",
        default_value_t = 1024
    )]
    pub max_connections: usize,
    /// At most N connections open at once from one peer address (0: no cap; behind a
    /// proxy, every connection is the proxy's); one beyond is closed on accept.
    #[arg(
        long,
        value_name = "N",
        env = "NEURALIS_MAX_CONNECTIONS_PER_PEER",
        default_value_t = 64
    )]
    pub max_connections_per_peer: usize,
    /// At most N legacy sessions (Mcp-Session-Id) open per caller (0: no cap); an
    /// `initialize` past it is refused (429).
    #[arg(
        long,
        value_name = "N",
        env = "NEURALIS_MAX_SESSIONS_PER_CALLER",
        default_value_t = 128
    )]
    pub max_sessions_per_caller: usize,
    /// At most N legacy sessions open in all (0: no cap); an `initialize` past it is
    /// refused (503).
    #[arg(
        long,
        value_name = "N",
        env = "NEURALIS_MAX_SESSIONS",
        default_value_t = 1024
    )]
    pub max_sessions: usize,
    /// Seconds a legacy session may go without a request before it is closed.
    #[arg(
        long,
        value_name = "SECS",
        env = "NEURALIS_SESSION_IDLE_TIMEOUT",
        default_value_t = 300
    )]
    pub session_idle_timeout: u64,
    /// Seconds a task (of a tool that runs as one) is kept after its last change.
    #[arg(
        long,
        value_name = "SECS",
        env = "NEURALIS_TASK_TTL",
        default_value_t = 3600
    )]
    pub task_ttl: u64,
    /// Seconds a replica's hold on a task it runs lasts unrenewed: a task whose replica
    /// died reads as failed this long after.
    #[arg(
        long,
        value_name = "SECS",
        env = "NEURALIS_TASK_LEASE",
        default_value_t = 30
    )]
    pub task_lease: u64,
}

impl Options {
    /// The session limits the flags give.
    fn session_limits(&self) -> SessionLimits {
        let cap = |n: usize| (n > 0).then_some(n);
        SessionLimits::default()
            .with_per_caller(cap(self.max_sessions_per_caller))
            .with_total(cap(self.max_sessions))
            .with_idle(Duration::from_secs(self.session_idle_timeout))
    }

    /// The task timing the flags give.
    fn task_timing(&self) -> TaskTiming {
        TaskTiming::default()
            .with_ttl(Duration::from_secs(self.task_ttl.max(1)))
            .with_lease(Duration::from_secs(self.task_lease.max(1)))
    }

    /// The connection limits the flags give.
    fn connection_limits(&self) -> ConnectionLimits {
        let cap = |n: usize| (n > 0).then_some(n);
        ConnectionLimits::default()
            .with_header_timeout(Duration::from_secs(self.header_timeout))
            .with_idle_timeout(Duration::from_secs(self.idle_timeout))
            .with_max_connections(cap(self.max_connections))
            .with_max_per_peer(cap(self.max_connections_per_peer))
    }
}

/// The hosts a request may name: the listening address and loopback names, with and
/// without the port, and those given with `--allow-host`.
fn allowed_hosts(addr: SocketAddr, options: &Options) -> (Vec<String>, Vec<String>) {
    let port = addr.port();
    let mut names = vec![
        addr.ip().to_string(),
        "localhost".to_owned(),
        "127.0.0.1".to_owned(),
    ];
    names.extend(options.allow_hosts.iter().cloned());
    let mut hosts = Vec::new();
    let mut origins = Vec::new();
    for name in names {
        hosts.push(name.clone());
        if !name.contains(':') {
            hosts.push(format!("{name}:{port}"));
            origins.push(format!("http://{name}:{port}"));
            origins.push(format!("https://{name}:{port}"));
        }
        origins.push(with_port(&format!("http://{name}")));
        origins.push(with_port(&format!("https://{name}")));
    }
    (hosts, origins)
}

/// What a server gets besides the package: nothing here (`()`); `examples/conformance`
/// composes it with its rmcp handler (prompts, resources, completion).
pub trait Compose {
    /// The single-identity server, composed.
    fn local(self, server: McpServer) -> McpServer;
    /// The hosted server (`--tokens`, `--issuer`, `--jwks-url`), composed.
    fn hosted(self, hosted: Hosted) -> Hosted;
    /// The server card the server publishes at `/mcp/server-card`, for the endpoint at
    /// `endpoint` (its public URL): none unless the package has one.
    fn server_card(&self, endpoint: String) -> Option<ServerCard> {
        let _ = endpoint;
        None
    }
}

impl Compose for () {
    fn local(self, server: McpServer) -> McpServer {
        server
    }

    fn hosted(self, hosted: Hosted) -> Hosted {
        hosted
    }

    /// This package's card: the name, title and description of its registry entry
    /// (`server.json`, which `neuralis server-json --check` keeps to `Cargo.toml`).
    fn server_card(&self, endpoint: String) -> Option<ServerCard> {
        let entry: serde_json::Value = serde_json::from_str(include_str!("../server.json")).ok()?;
        let text = |key: &str| entry[key].as_str().map(str::to_owned);
        let card = ServerCard::new(text("name")?, text("description")?).endpoint(endpoint);
        Some(match text("title") {
            Some(title) => card.title(title),
            None => card,
        })
    }
}

/// An origin with its port written out (`https://a.example` is `https://a.example:443`),
/// as rmcp's `Origin` check wants it (a portless entry would match any port).
fn with_port(origin: &str) -> String {
    let host = origin.split_once("://").map_or(origin, |(_, h)| h);
    let has_port = host
        .rsplit_once(':')
        .is_some_and(|(_, port)| port == "*" || port.parse::<u16>().is_ok());
    match (has_port, origin.split_once("://")) {
        (false, Some(("https", _))) => format!("{origin}:443"),
        (false, Some(("http", _))) => format!("{origin}:80"),
        _ => origin.to_owned(),
    }
}

/// `--serve-path`'s `PATH=DIALECT`: an absolute path other than `/mcp` and a served
/// dialect's name.
fn served_path(text: &str) -> Result<(String, Served), String> {
    let (path, dialect) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not PATH=DIALECT"))?;
    let served = Served::from_name(dialect).ok_or_else(|| {
        let names: Vec<&str> = Served::ALL.iter().map(|d| d.as_str()).collect();
        format!(
            "`{dialect}` is no served dialect: write one of {}",
            names.join(", ")
        )
    })?;
    if !path.starts_with('/') || path == "/mcp" || path == "/healthz" || path.len() < 2 {
        return Err(format!(
            "`{path}` is not a path of its own (absolute, not /mcp or /healthz)"
        ));
    }
    Ok((path.trim_end_matches('/').to_owned(), served))
}

/// `router` with `service` at `/mcp` and, for each `--serve-path`, a clone of it at that
/// path serving its dialect.
fn mount(mut router: Router, service: HostedService, options: &Options) -> Router {
    for (path, served) in &options.serve_paths {
        router = router.nest_service(path, service.clone().serving(*served));
    }
    router.nest_service("/mcp", service)
}

/// Serves until SIGINT or SIGTERM; `Err` with the reason when it cannot start.
pub async fn serve(
    package: Package,
    session: SessionContext,
    options: Options,
    asking: &crate::Asking,
    compose: impl Compose,
) -> Result<(), String> {
    log_to_stderr();
    let (approval, state_key) = asking.settings()?;
    // Two steps: stop accepting (the calls in flight go on), then, after the grace
    // period, end what rmcp still serves (open event streams, calls still running).
    let stop_accepting = CancellationToken::new();
    let end_streams = CancellationToken::new();
    let addr = options
        .addr
        .ok_or("`--http ADDR` is needed to serve over HTTP")?;
    let grace = Duration::from_secs(options.grace);
    let limits = options.connection_limits();
    let listener = listen(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    // The port it listens on (`:0` picks one): the `Host` and `Origin` clients send.
    let local = listener
        .local_addr()
        .map_err(|e| format!("no local address: {e}"))?;
    let config = http_config(local, &options, &end_streams);
    let name = "neuralis-example-serve";
    let version = env!("CARGO_PKG_VERSION");
    let card = compose.server_card(
        options
            .resource
            .clone()
            .unwrap_or_else(|| format!("http://{local}/mcp")),
    );
    // `GET /healthz`: for a load balancer or an orchestrator, without credentials.
    let mut router = Router::new().route("/healthz", get(|| async { "ok\n" }));
    match hosted_server(package, &options).await? {
        Ok(hosted) => {
            let mut hosted = compose.hosted(
                hosted
                    .with_server_info(name, version)
                    .with_approval(approval)
                    .with_served_dialect(asking.served())
                    .with_connection_limits(limits)
                    .with_session_limits(options.session_limits())
                    .with_task_timing(options.task_timing()),
            );
            if let Some((key, ttl)) = state_key {
                hosted = hosted
                    .with_request_state_key(key, ttl)
                    .map_err(|e| e.to_string())?;
            }
            if let Some(limit) = options.rate_limit {
                hosted = hosted.with_rate_limit(limit);
            }
            if let Some(ledger) = asking.consumed_states()? {
                hosted = hosted.with_consumed_states(ledger);
            }
            if let Some(resource) = &options.resource {
                let metadata = protected_resource(resource, &options);
                router = route_metadata(router, &metadata);
                hosted = hosted.with_protected_resource(metadata);
            }
            if let Some(card) = card {
                hosted = hosted.with_server_card(card).map_err(|e| e.to_string())?;
            }
            router = mount(router, hosted.service(config), &options);
        }
        Err(package) => {
            if options.rate_limit.is_some() {
                return Err(
                    "`--rate-limit` counts each caller's calls: give callers an identity with `--tokens`, `--issuer` or `--jwks-url`".into(),
                );
            }
            let mut server = McpServer::new(package, session)
                .with_server_info(name, version)
                .with_task_timing(options.task_timing());
            if let Some(card) = card {
                server = server.with_server_card(card).map_err(|e| e.to_string())?;
            }
            let server = compose.local(asking.apply(server)?);
            router = mount(router, server.http_service_with(config), &options);
        }
    }
    // Browser clients: preflights answered here, before identity.
    if !options.cors_origins.is_empty() {
        router = router.layer(neuralis_mcp::http::cors(&options.cors_origins)?);
    }
    // Every response carries `x-request-id`: the caller's, or a fresh one (which the
    // hosted service also names in its logs).
    let router = router
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid));
    // The line a supervisor (or a test) waits for.
    eprintln!("listening on http://{local}/mcp");
    for (path, served) in &options.serve_paths {
        eprintln!("serving {served} at http://{local}{path}");
    }

    run_until_signal(listener, router, limits, grace, stop_accepting, end_streams).await
}

/// rmcp's streamable HTTP configuration: sessions unless `--stateless`, JSON answers, the
/// `Host` and `Origin` values accepted for the server listening on `local` (and the CORS
/// origins), the body cap, and `end_streams` to end what it still serves.
fn http_config(
    local: SocketAddr,
    options: &Options,
    end_streams: &CancellationToken,
) -> StreamableHttpServerConfig {
    let (hosts, mut origins) = allowed_hosts(local, options);
    origins.extend(
        options
            .cors_origins
            .iter()
            .map(|o| with_port(o.trim_end_matches('/'))),
    );
    let mut config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(!options.stateless)
        .with_json_response(true)
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins);
    config.max_request_body_bytes = options.max_body;
    config.cancellation_token = end_streams.clone();
    config
}

/// The hosted server for the credentials configured (a token table, or an identity
/// provider's JWTs, its keys fetched now), or (no credentials configured) the package
/// back; `Err` when the credentials cannot be read.
async fn hosted_server(
    package: Package,
    options: &Options,
) -> Result<Result<Hosted, Package>, String> {
    let jwt = match (&options.issuer, &options.jwks_url) {
        (Some(issuer), _) => Some(JwtResolver::discover(issuer)),
        (None, Some(url)) => Some(JwtResolver::jwks(url)),
        (None, None) => None,
    };
    match (&options.tokens, jwt) {
        (Some(path), _) => {
            let tokens = TokenTable::from_file(path).map_err(|e| e.to_string())?;
            Ok(Ok(McpServer::hosted(package, tokens)))
        }
        (None, Some(resolver)) => {
            // Without `--audience`, the server's `--resource` URL is the audience: the
            // hosted server names its protected resource to the resolver.
            let resolver = match &options.audience {
                Some(audience) => resolver.audience(audience),
                None => resolver,
            }
            .grants(GrantMapping::claim(options.grants_claim.clone()));
            // A wrong issuer URL fails here, not at the first request.
            let keys = resolver
                .load()
                .await
                .map_err(|e| format!("the identity provider's keys cannot be fetched: {e}"))?;
            eprintln!("verifying bearer JWTs with {keys} keys from the identity provider");
            Ok(Ok(McpServer::hosted(package, resolver)))
        }
        (None, None) => Ok(Err(package)),
    }
}

/// The protected-resource metadata of `resource`, naming the `--issuer` as its
/// authorization server when there is one.
fn protected_resource(resource: &str, options: &Options) -> ProtectedResource {
    let mut metadata = ProtectedResource::new(resource.to_owned());
    if let Some(issuer) = &options.issuer {
        metadata = metadata.authorization_server(issuer.clone());
    }
    metadata
}

/// `router` answering `metadata` at its well-known path.
fn route_metadata(router: Router, metadata: &ProtectedResource) -> Router {
    let document = metadata.clone();
    router.route(
        &metadata.well_known_path(),
        get(move || {
            let document = document.clone();
            async move { document.response() }
        }),
    )
}

/// Serves `router` on `listener` until SIGINT or SIGTERM, then stops in two steps: stop
/// accepting and let the calls in flight finish for up to `grace`, then end what is left.
async fn run_until_signal(
    listener: tokio::net::TcpListener,
    router: Router,
    limits: ConnectionLimits,
    grace: Duration,
    stop_accepting: CancellationToken,
    end_streams: CancellationToken,
) -> Result<(), String> {
    let signalled = stop_accepting.clone();
    let stats = Arc::new(ConnectionStats::default());
    let server = neuralis_mcp::listen::serve(listener, router, limits, stats, async move {
        signalled.cancelled().await;
    });
    let mut server = tokio::spawn(server);
    wait_for_signal().await?;
    eprintln!("shutting down: finishing the calls in flight");
    stop_accepting.cancel();
    let finished = match tokio::time::timeout(grace, &mut server).await {
        Ok(finished) => finished,
        Err(_) => {
            eprintln!(
                "the calls still running after {}s are cancelled",
                grace.as_secs()
            );
            end_streams.cancel();
            match tokio::time::timeout(Duration::from_secs(2), &mut server).await {
                Ok(finished) => finished,
                Err(_) => {
                    server.abort();
                    Ok(Ok(()))
                }
            }
        }
    };
    end_streams.cancel();
    match finished {
        Ok(Ok(())) => {
            eprintln!("stopped");
            Ok(())
        }
        Ok(Err(e)) => Err(format!("the server failed: {e}")),
        Err(e) => Err(format!("the server task failed: {e}")),
    }
}

/// The operator's log on stderr: refusals with their reasons and each call (tool,
/// caller, outcome, duration), from `neuralis_mcp` at `info`; `RUST_LOG` sets another
/// filter (`RUST_LOG=neuralis_mcp=warn` for refusals only). rmcp stays at `warn`: at
/// `debug` it logs whole messages, arguments and results included.
fn log_to_stderr() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("warn,neuralis_mcp=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}

/// A listener with room for a burst of connections: the default backlog (128) drops the
/// handshakes of a burst beyond it, which clients see as resets.
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(4096)
}

/// SIGINT (Ctrl-C) or SIGTERM.
async fn wait_for_signal() -> Result<(), String> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term =
            signal(SignalKind::terminate()).map_err(|e| format!("no SIGTERM handler: {e}"))?;
        tokio::select! {
            r = tokio::signal::ctrl_c() => r.map_err(|e| format!("no SIGINT handler: {e}")),
            _ = term.recv() => Ok(()),
        }
    }
    #[cfg(not(unix))]
    {
        tokio::signal::ctrl_c()
            .await
            .map_err(|e| format!("no Ctrl-C handler: {e}"))
    }
}
