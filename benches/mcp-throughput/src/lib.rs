//! What the bench servers share: the HTTP side (`--http ADDR`), the same axum stack and
//! rmcp configuration for every server measured.

use std::net::SocketAddr;

use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;

/// The address after `--http`, when given.
#[must_use]
pub fn http_addr() -> Option<SocketAddr> {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == "--http")?;
    args.get(at + 1)?.parse().ok()
}

/// Whether `flag` was given.
#[must_use]
pub fn flag(flag: &str) -> bool {
    std::env::args().any(|a| a == flag)
}

/// Stateless (2026-07-28), JSON answers: the configuration every server runs with.
#[must_use]
pub fn config() -> StreamableHttpServerConfig {
    StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
}

/// Serves `router` on `addr` until the process is killed, saying where on stderr.
///
/// # Errors
///
/// When the address cannot be bound.
pub async fn serve(addr: SocketAddr, router: axum::Router) -> std::io::Result<()> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    let listener = socket.listen(4096)?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, router).await
}
