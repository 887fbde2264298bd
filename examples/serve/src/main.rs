//! An example package built with the macros that serves itself over MCP:
//! `neuralis-example-serve --mcp`.
//!
//! Its tools are the methods of one service, `Notes` (an in-memory store shared by every
//! call, see `notes.rs`), and a free function beside it, `weather_forecast`. `cargo build`
//! writes `tools/` and the package table (`build.rs`); the package is the table's builder
//! given its service. The caller's grants come from `--grant FEATURE` (repeatable):
//! `weather_forecast` requires `weather.read`, so without that grant it is neither listed
//! nor callable.
//!
//! ```text
//! neuralis-example-serve --mcp --grant weather.read
//! ```

mod notes;
mod weather;

use neuralis::dispatch::{BuildError, Package, SessionContext};
use neuralis_mcp::McpServer;
use serde_json::Value;

neuralis::package!();

/// The package: every tool of the table, and the one service its methods are called on.
fn package() -> Result<Package, BuildError> {
    neuralis_package::builder()
        .service(notes::Notes::default())
        .build()
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let mut mcp = false;
    let mut session = SessionContext::builder("local-user");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--mcp" => mcp = true,
            "--grant" => match args.next() {
                Some(feature) => session = session.grant(feature),
                None => return usage("`--grant` needs a feature name"),
            },
            other => return usage(&format!("unknown argument `{other}`")),
        }
    }
    let package = match package() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let session = session.build();
    if !mcp {
        let server = McpServer::new(package, session);
        let list = Value::Array(server.tool_list());
        println!(
            "{}",
            serde_json::to_string_pretty(&list).unwrap_or_default()
        );
        return std::process::ExitCode::SUCCESS;
    }
    let server = McpServer::new(package, session)
        .with_server_info("neuralis-example-serve", env!("CARGO_PKG_VERSION"));
    match server.serve_stdio().await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn usage(problem: &str) -> std::process::ExitCode {
    eprintln!(
        "error: {problem}\nusage: neuralis-example-serve [--mcp] [--grant FEATURE]...\n  \
         without `--mcp`, prints the MCP tool list the grants allow"
    );
    std::process::ExitCode::from(2)
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
