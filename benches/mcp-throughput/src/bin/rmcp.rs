//! The same trivial tool written with rmcp's own `#[tool_router]`, served over rmcp's
//! stdio transport, or with `--http ADDR` over rmcp's streamable HTTP service on the same
//! axum stack as `ours`: rmcp deserializes the parameters; it neither validates them
//! against the schema nor bounds the result.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ServiceExt, schemars, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Echo {
    /// The text.
    text: String,
}

#[derive(Clone)]
struct Server;

#[tool_router(server_handler)]
impl Server {
    #[tool(name = "echo", description = "Echo the text back.")]
    fn echo(&self, Parameters(Echo { text }): Parameters<Echo>) -> String {
        text
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> std::process::ExitCode {
    if let Some(addr) = neuralis_bench_mcp::http_addr() {
        use rmcp::transport::streamable_http_server::StreamableHttpService;
        use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
        let service = StreamableHttpService::new(
            || Ok(Server),
            std::sync::Arc::new(LocalSessionManager::default()),
            neuralis_bench_mcp::config(),
        );
        let router = axum::Router::new().nest_service("/mcp", service);
        return match neuralis_bench_mcp::serve(addr, router).await {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    let running = match Server.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match running.waiting().await {
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
