//! A neuralis package with one trivial tool, `echo`, served over stdio: the whole
//! pipeline runs for every call (gate, validation against the tool file's schema,
//! deserialization, the handler, result bounding).

use neuralis_core::dispatch::{Package, SessionContext, sync_fn};
use neuralis_mcp::McpServer;

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
    match McpServer::new(package, session).serve_stdio().await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
