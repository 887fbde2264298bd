//! The same trivial tool written with rmcp's own `#[tool_router]`, served over rmcp's
//! stdio transport: rmcp deserializes the parameters; it neither validates them against
//! the schema nor bounds the result.

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
