//! An example package built with the macros that serves itself over MCP: over stdio
//! (`neuralis-example-serve --mcp`), or over streamable HTTP at `/mcp`
//! (`neuralis-example-serve --http 127.0.0.1:8080 --tokens tokens.json`, see `http.rs`).
//!
//! Its tools are the methods of one service, `Notes` (an in-memory store shared by every
//! call, see `notes.rs`), and a free function beside it, `weather_forecast`. `cargo build`
//! writes `tools/` and the package table (`build.rs`); the package is the table's builder
//! given its service. The caller's grants come from `--grant FEATURE` (repeatable):
//! `weather_forecast` requires `weather.read`, so without that grant it is neither listed
//! nor callable.
//!
//! The command line is clap's (`--help`); every flag is also read from the environment
//! as `NEURALIS_<FLAG>` (`--allow-host` from `NEURALIS_ALLOW_HOST`), lists
//! comma-separated, which is how a container or a unit file configures it.
//!
//! ```text
//! neuralis-example-serve --mcp --grant weather.read
//! neuralis-example-serve --http 127.0.0.1:8080 --tokens tokens.json
//! NEURALIS_HTTP=0.0.0.0:8080 NEURALIS_ALLOW_HOST=tools.example.com neuralis-example-serve
//! ```

mod asking;
mod http;
mod notes;
mod weather;

use neuralis::dispatch::{BuildError, Package, SessionContext};
use neuralis_mcp::McpServer;
use serde_json::Value;

use asking::Asking;

neuralis::package!();

/// The package: every tool of the table, and the one service its methods are called on.
fn package() -> Result<Package, BuildError> {
    neuralis_package::builder()
        .service(notes::Notes::default())
        .build()
}

/// The command line: every flag also from the environment, `NEURALIS_<FLAG>` (lists
/// comma-separated: `NEURALIS_GRANT=weather.read,notes.write`).
#[derive(clap::Parser)]
#[command(
    name = "neuralis-example-serve",
    version,
    about = "An example package served over MCP: on stdio (--mcp) or streamable HTTP (--http ADDR)",
    after_help = "Without --mcp or --http, prints the MCP tool list the grants allow.\n\
                  Every flag is also read from NEURALIS_<FLAG> (--allow-host: NEURALIS_ALLOW_HOST), \
                  lists comma-separated."
)]
struct Cli {
    /// Serve over MCP on stdio.
    #[arg(long, env = "NEURALIS_MCP", conflicts_with = "addr")]
    mcp: bool,
    /// A feature granted to the local caller (stdio, or HTTP without credentials); repeatable.
    #[arg(
        long = "grant",
        value_name = "FEATURE",
        env = "NEURALIS_GRANT",
        value_delimiter = ','
    )]
    grants: Vec<String>,
    #[command(flatten)]
    asking: Asking,
    #[command(flatten)]
    http: http::Options,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = <Cli as clap::Parser>::parse();
    let package = match package() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let session = SessionContext::builder("local-user")
        .grants(cli.grants)
        .build();
    if cli.http.addr.is_some() {
        return match http::serve(package, session, cli.http, &cli.asking, ()).await {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    if !cli.mcp {
        let server = McpServer::new(package, session).with_served_dialect(cli.asking.served());
        let list = Value::Array(server.tool_list());
        println!(
            "{}",
            serde_json::to_string_pretty(&list).unwrap_or_default()
        );
        return std::process::ExitCode::SUCCESS;
    }
    let server = McpServer::new(package, session)
        .with_server_info("neuralis-example-serve", env!("CARGO_PKG_VERSION"));
    let server = match cli.asking.apply(server) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match server.serve_stdio().await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use neuralis::dispatch::BuildProblem;

    #[test]
    fn the_table_names_its_service_and_does_not_build_without_it() {
        assert_eq!(super::neuralis_package::SERVICES, ["Notes"]);
        let err = super::neuralis_package::package().expect_err("no `Notes` given");
        let missing: Vec<&str> = err
            .problems
            .iter()
            .filter_map(|p| match p {
                BuildProblem::NoService { tool, service } if service == "Notes" => {
                    Some(tool.as_str())
                }
                _ => None,
            })
            .collect();
        assert_eq!(
            missing,
            ["notes_list", "notes_reindex", "notes_write"],
            "{err}"
        );
        assert_eq!(err.problems.len(), 3, "{err}");
        let package = super::package().expect("with its service");
        assert_eq!(package.tools().count(), 4);
    }
}
