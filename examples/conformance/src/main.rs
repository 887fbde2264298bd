//! The fixtures of the official MCP conformance suite (`@modelcontextprotocol/conformance`)
//! server scenarios: the tools it calls, as a package built with the macros (`tools.rs`;
//! those that ask the client, in `questions.rs`), and its prompts, resources (a
//! template, subscriptions) and completion, as an rmcp handler written with rmcp's own
//! macros (`extras.rs`) composed with the package (`McpServer::with_handler`); served
//! over streamable HTTP at `/mcp` by the same code as `examples/serve` (its `http.rs`,
//! compiled in here: DNS rebinding refused, body cap, graceful shutdown on
//! SIGINT/SIGTERM).
//!
//! ```text
//! neuralis-example-conformance --http 127.0.0.1:0 [--allow-host HOST]... [--stateless]
//! neuralis-example-conformance --mcp   # on stdio
//! ```
//!
//! It prints `listening on http://HOST:PORT/mcp` on stderr once bound. Every request is
//! served for one local session (the suite sends no credentials): for local use only.
//! `tests/conformance/suite.sh` runs the suite against it.

#[path = "../../serve/src/asking.rs"]
mod asking;
mod extras;
mod headers;
#[path = "../../serve/src/http.rs"]
mod http;
mod questions;
mod tasks;
mod tools;

use std::process::ExitCode;

use neuralis::dispatch::SessionContext;
use neuralis_mcp::McpServer;
use neuralis_mcp::http::Hosted;

use asking::Asking;

neuralis::package!();

/// The command line: `examples/serve`'s HTTP options (`--http ADDR`, `--allow-host`,
/// `--stateless`...), each also read from `NEURALIS_<FLAG>`.
#[derive(clap::Parser)]
#[command(name = "neuralis-example-conformance", version, about)]
struct Cli {
    /// Serve over MCP on stdio (instead of `--http ADDR`).
    #[arg(long, conflicts_with = "addr")]
    mcp: bool,
    #[command(flatten)]
    asking: Asking,
    #[command(flatten)]
    http: http::Options,
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = <Cli as clap::Parser>::parse();
    if cli.http.addr.is_none() && !cli.mcp {
        eprintln!(
            "error: `--http ADDR` or `--mcp` is required\nusage: neuralis-example-conformance --http ADDR [OPTIONS] | --mcp"
        );
        return ExitCode::from(2);
    }
    let package = match neuralis_package::package() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let session = SessionContext::builder("local-user").build();
    let extras = extras::Extras::new();
    if cli.mcp {
        let server = McpServer::new(package, session)
            .with_server_info("neuralis-example-conformance", env!("CARGO_PKG_VERSION"));
        let served = match cli.asking.apply(server) {
            Ok(server) => server.with_handler(extras).serve_stdio().await,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
        return match served {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    match http::serve(package, session, cli.http, &cli.asking, extras).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The package's server, composed with the prompts, resources and completion of
/// [`extras::Extras`] (an rmcp handler).
impl http::Compose for extras::Extras {
    fn local(self, server: McpServer) -> McpServer {
        server.with_handler(self)
    }

    fn hosted(self, hosted: Hosted) -> Hosted {
        hosted.with_handler(self)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_package_has_the_suites_tools() {
        let package = super::neuralis_package::package().expect("builds");
        let mut names: Vec<&str> = package.tools().map(|t| t.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "confirm_delete",
                "failing_job",
                "greet",
                "multi_input",
                "protocol_error_job",
                "slow_compute",
                "test_audio_content",
                "test_custom_headers",
                "test_elicitation",
                "test_elicitation_sep1034_defaults",
                "test_elicitation_sep1330_enums",
                "test_embedded_resource",
                "test_error_handling",
                "test_image_content",
                "test_input_required_result_capabilities",
                "test_input_required_result_elicitation",
                "test_input_required_result_list_roots",
                "test_input_required_result_multi_round",
                "test_input_required_result_multiple_inputs",
                "test_input_required_result_request_state",
                "test_input_required_result_sampling",
                "test_input_required_result_tampered_state",
                "test_missing_capability",
                "test_multiple_content_types",
                "test_reconnection",
                "test_sampling",
                "test_simple_text",
                "test_tool_with_logging",
                "test_tool_with_progress",
                "test_tool_with_task",
            ]
        );
    }

    #[test]
    fn the_command_line_reads_serves_http_options() {
        use clap::Parser;
        let args = |a: &[&str]| {
            super::Cli::try_parse_from(
                std::iter::once("neuralis-example-conformance").chain(a.iter().copied()),
            )
        };
        assert!(args(&["--http", "nowhere"]).is_err());
        assert!(args(&["--http", "127.0.0.1:0", "--bogus"]).is_err());
        let o = args(&[
            "--http",
            "127.0.0.1:0",
            "--allow-host",
            "mcp.local",
            "--stateless",
        ])
        .expect("valid")
        .http;
        assert_eq!(o.allow_hosts, ["mcp.local"]);
        assert!(o.stateless && o.tokens.is_none() && o.addr.is_some());
    }
}
