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

/// The bearer JWT the driver sends to a server run with `--hosted-jwks` (`+jwt`): RS256,
/// signed by the key of [`JWKS`] (kid `bench-1`), `sub` `bench`, `aud` `bench`, `iss`
/// `https://bench.invalid`, expiring in 2100. A fixed test key: nothing here is secret.
pub const BENCH_JWT: &str = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6ImJlbmNoLTEifQ.eyJzdWIiOiJiZW5jaCIsImlzcyI6Imh0dHBzOi8vYmVuY2guaW52YWxpZCIsImF1ZCI6ImJlbmNoIiwic2NvcGUiOiJiZW5jaC5yZWFkIiwiZXhwIjo0MTAyNDQ0ODAwLCJpYXQiOjE3MDAwMDAwMDB9.boqi8nZNs100QKadmeTQcsnBDjm9QtOY19vpofVIZHwRzgttispi7uDfvajLXfXtDCYUGRkRNH2re1MhSPsNSvVIvhE_0-BLmTtYWt9hkh2B_yL3LHAU_NT0XmlsyLWc7hVSipVrzBNjyndpDSvL0pwb3MnsswtTSOTUyLnKzBBpSJsOZkepVC-kOU2UMLwtbmwf2IhfVBr-LVjOKhqV33Awc_Zb9HEuIHT6yF7QMspj-8oAE4bQxbnOUmLBqJT5HWXXo4OAkFHvz6FXRysULkQ83FzPeToqYiRUhKr-rD6H_NEeCKRTeseH6gqCAAROSroVg9BjM2TbhtG7YcLGRQ";

/// The public key set that verifies [`BENCH_JWT`], served by the `--hosted-jwks` server
/// itself at `/jwks` (fetched over HTTP like an identity provider's).
pub const JWKS: &str = r#"{"keys": [{"kty": "RSA", "n": "sRy9xrX5nRinS1EZTZdwSE7Nqrgei0RKH0ugE_gk3vT6hos7j-DST5o_15jxkNUftQaiq_-oFPNX2j3XCRSY-EGlwMq0yylivdJBiGanEYlegH9LJ_pK0PPtljWhX-sP_M9pezjUbp71D_aO4QuYhFTbbrO06WibDTLAjug3mmFM3IJDRrv9j3sF1-fPJ_eI5G8BNeNM2MP767gFYk5E922sCxHQTBFxBORSM5P7rTfUrJbC9L7JQlC_57nGXuPGFjjeldUnZhqU5H6RFiyBZy4QF40kgEB9bqdCN3mqmMCaujxQBv69Xeeo-oqQEXIkxfp-sIsfy7xlUnuNhXHQ9Q", "e": "AQAB", "kid": "bench-1", "alg": "RS256", "use": "sig"}]}"#;
