//! `--http ADDR`: the package over MCP's streamable HTTP transport at `/mcp`, with axum.
//!
//! - With `--tokens FILE` (`{"<token>": {"user": "<id>", "grants": ["<feature>"]}}`),
//!   every request needs `Authorization: Bearer <token>` and is served for that token's
//!   user and grants (`McpServer::hosted`); without it, every request is served for the
//!   one local session (`--grant`), which is for local use only.
//! - DNS rebinding protection: a request whose `Host` is not the server's own (the
//!   listening address, `localhost`, or a name given with `--allow-host`), or whose
//!   `Origin` is not one of those, is refused with `403` (rmcp's checks).
//! - Request bodies are capped (`--max-body BYTES`, default 4 MiB): `413` beyond.
//! - SIGINT or SIGTERM: the server stops accepting connections, lets the calls in flight
//!   finish for up to `--grace SECS` (default 10), cancels what is left, and exits 0.

use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use neuralis::dispatch::{Package, SessionContext};
use neuralis_mcp::McpServer;
use neuralis_mcp::http::{ProtectedResource, TokenTable};
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use tokio_util::sync::CancellationToken;

/// What `--http` was given.
pub struct Options {
    pub addr: SocketAddr,
    pub tokens: Option<String>,
    pub allow_hosts: Vec<String>,
    pub max_body: usize,
    pub grace: Duration,
    pub resource: Option<String>,
    pub stateless: bool,
}

/// The hosts a request may name: the listening address and loopback names, with and
/// without the port, and those given with `--allow-host`.
fn allowed_hosts(options: &Options) -> (Vec<String>, Vec<String>) {
    let port = options.addr.port();
    let mut names = vec![
        options.addr.ip().to_string(),
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
        origins.push(format!("http://{name}"));
        origins.push(format!("https://{name}"));
    }
    (hosts, origins)
}

/// Serves until SIGINT or SIGTERM; `Err` with the reason when it cannot start.
pub async fn serve(
    package: Package,
    session: SessionContext,
    options: Options,
) -> Result<(), String> {
    // Two steps: stop accepting (the calls in flight go on), then, after the grace
    // period, end what rmcp still serves (open event streams, calls still running).
    let stop_accepting = CancellationToken::new();
    let end_streams = CancellationToken::new();
    let (hosts, origins) = allowed_hosts(&options);
    let mut config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(!options.stateless)
        .with_json_response(true)
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins);
    config.max_request_body_bytes = options.max_body;
    config.cancellation_token = end_streams.clone();
    let name = "neuralis-example-serve";
    let version = env!("CARGO_PKG_VERSION");
    let mut router = Router::new();
    match &options.tokens {
        Some(path) => {
            let tokens = TokenTable::from_file(path).map_err(|e| e.to_string())?;
            let mut hosted = McpServer::hosted(package, tokens).with_server_info(name, version);
            if let Some(resource) = &options.resource {
                let metadata = ProtectedResource::new(resource.clone());
                let document = metadata.clone();
                router = router.route(
                    &metadata.well_known_path(),
                    get(move || {
                        let document = document.clone();
                        async move { document.response() }
                    }),
                );
                hosted = hosted.with_protected_resource(metadata);
            }
            router = router.nest_service("/mcp", hosted.service(config));
        }
        None => {
            let server = McpServer::new(package, session).with_server_info(name, version);
            router = router.nest_service("/mcp", server.http_service_with(config));
        }
    }
    let listener =
        listen(options.addr).map_err(|e| format!("cannot listen on {}: {e}", options.addr))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("no local address: {e}"))?;
    // The line a supervisor (or a test) waits for.
    eprintln!("listening on http://{local}/mcp");

    let signalled = stop_accepting.clone();
    let server = axum::serve(listener, router)
        .with_graceful_shutdown(async move { signalled.cancelled().await });
    let mut server = tokio::spawn(async move { server.await });
    wait_for_signal().await?;
    eprintln!("shutting down: finishing the calls in flight");
    stop_accepting.cancel();
    let finished = match tokio::time::timeout(options.grace, &mut server).await {
        Ok(finished) => finished,
        Err(_) => {
            eprintln!(
                "the calls still running after {}s are cancelled",
                options.grace.as_secs()
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
