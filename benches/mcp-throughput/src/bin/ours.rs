//! A neuralis package with one trivial tool, `echo`, served over stdio, or over
//! streamable HTTP with `--http ADDR` (`--hosted`: every request's caller resolved from
//! its bearer token, `bench-token`): the whole pipeline runs for every call (gate,
//! validation against the tool file's schema, deserialization, the handler, result
//! bounding).

use neuralis_core::dispatch::{Package, SessionContext, sync_fn};
use neuralis_mcp::McpServer;
use neuralis_mcp::http::TokenTable;

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
        let router = if neuralis_bench_mcp::flag("--hosted") {
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
