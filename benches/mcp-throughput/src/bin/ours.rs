//! A neuralis package with one trivial tool, `echo`, served over stdio, or over
//! streamable HTTP with `--http ADDR` (`--hosted`: every request's caller resolved from
//! its bearer token, `bench-token`; `--hosted-jwks`: from its bearer JWT, verified
//! (RS256) with a key set fetched over HTTP as from an identity provider, with the
//! `tracing` spans and events on, formatted at INFO by `tracing-subscriber` into a sink):
//! the whole pipeline runs for every call (gate, validation against the tool file's
//! schema, deserialization, the handler, result bounding).

use neuralis_core::dispatch::{Package, SessionContext, sync_fn};
use neuralis_mcp::McpServer;
use neuralis_mcp::http::{JwtResolver, TokenTable};

#[derive(serde::Deserialize)]
struct Echo {
    text: String,
}

const ECHO: &str = r#"{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "additionalProperties": false,
  "description": "Echo the text back.",
  "properties": { "text": { "type": "string", "maxLength": 1000, "description": "The text." } },
  "required": ["text"],
  "x-neuralis": { "annotations": { "readOnlyHint": true, "category": "read" }, "ui": { "presentation": "inline" } }
}"#;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> std::process::ExitCode {
    let package = match Package::builder()
        .tool("echo", ECHO, sync_fn(|e: Echo| e.text))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let session = SessionContext::builder("bench").build();
    if let Some(addr) = neuralis_bench_mcp::http_addr() {
        let router = if neuralis_bench_mcp::flag("--hosted-jwks") {
            match jwks_resolver().await {
                Ok(resolver) => {
                    tracing_subscriber::fmt()
                        .with_env_filter(tracing_subscriber::EnvFilter::new(
                            "warn,neuralis_mcp=info",
                        ))
                        .with_writer(std::io::sink)
                        .with_ansi(false)
                        .init();
                    let service =
                        McpServer::hosted(package, resolver).service(neuralis_bench_mcp::config());
                    axum::Router::new().nest_service("/mcp", service)
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return std::process::ExitCode::FAILURE;
                }
            }
        } else if neuralis_bench_mcp::flag("--hosted") {
            let tokens = TokenTable::new().with("bench-token", session);
            let service = McpServer::hosted(package, tokens).service(neuralis_bench_mcp::config());
            axum::Router::new().nest_service("/mcp", service)
        } else {
            let service =
                McpServer::new(package, session).http_service_with(neuralis_bench_mcp::config());
            axum::Router::new().nest_service("/mcp", service)
        };
        return match neuralis_bench_mcp::serve(addr, router).await {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    match McpServer::new(package, session).serve_stdio().await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// A resolver of bearer JWTs whose key set it fetches (and has fetched) from a JWKS
/// served in this process on another port, as from an identity provider.
async fn jwks_resolver() -> Result<JwtResolver, String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let jwks = axum::Router::new().route(
        "/jwks",
        axum::routing::get(|| async {
            (
                [("content-type", "application/json")],
                neuralis_bench_mcp::JWKS,
            )
        }),
    );
    tokio::spawn(async move { axum::serve(listener, jwks).await });
    let resolver = JwtResolver::jwks(&format!("http://127.0.0.1:{port}/jwks"))
        .issuer("https://bench.invalid")
        .audience("bench");
    resolver.load().await.map_err(|e| e.to_string())?;
    Ok(resolver)
}
