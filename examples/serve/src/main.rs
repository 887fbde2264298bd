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
//! ```text
//! neuralis-example-serve --mcp --grant weather.read
//! neuralis-example-serve --http 127.0.0.1:8080 --tokens tokens.json
//! ```

mod http;
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
    let mut http: Option<http::Options> = None;
    let mut grants: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |what: &str| args.next().ok_or(format!("`{arg}` needs {what}"));
        let step = match arg.as_str() {
            "--mcp" => {
                mcp = true;
                Ok(())
            }
            "--grant" => value("a feature name").map(|f| grants.push(f)),
            "--http" => value("an address such as 127.0.0.1:8080").and_then(|a| {
                let addr = a
                    .parse()
                    .map_err(|e| format!("`--http {a}`: not an address ({e})"))?;
                http = Some(http::Options {
                    addr,
                    tokens: None,
                    allow_hosts: Vec::new(),
                    max_body: 4 * 1024 * 1024,
                    grace: std::time::Duration::from_secs(10),
                    resource: None,
                    stateless: false,
                });
                Ok(())
            }),
            "--tokens" | "--allow-host" | "--max-body" | "--grace" | "--resource"
            | "--stateless" => match http.as_mut() {
                None => Err(format!("`{arg}` goes after `--http ADDR`")),
                Some(o) => http_option(o, &arg, &mut value),
            },
            other => Err(format!("unknown argument `{other}`")),
        };
        if let Err(problem) = step {
            return usage(&problem);
        }
    }
    let package = match package() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let session = SessionContext::builder("local-user").grants(grants).build();
    if let Some(options) = http {
        return match http::serve(package, session, options).await {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::ExitCode::FAILURE
            }
        };
    }
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

/// One option of `--http`.
fn http_option(
    o: &mut http::Options,
    arg: &str,
    value: &mut impl FnMut(&str) -> Result<String, String>,
) -> Result<(), String> {
    match arg {
        "--tokens" => o.tokens = Some(value("a token file")?),
        "--allow-host" => o.allow_hosts.push(value("a host name")?),
        "--resource" => o.resource = Some(value("the server's URL")?),
        "--stateless" => o.stateless = true,
        "--max-body" => {
            let v = value("a size in bytes")?;
            o.max_body = v
                .parse()
                .map_err(|_| format!("`--max-body {v}`: not a number of bytes"))?;
        }
        _ => {
            let v = value("a number of seconds")?;
            let secs: u64 = v
                .parse()
                .map_err(|_| format!("`--grace {v}`: not a number of seconds"))?;
            o.grace = std::time::Duration::from_secs(secs);
        }
    }
    Ok(())
}

fn usage(problem: &str) -> std::process::ExitCode {
    eprintln!(
        "error: {problem}\nusage: neuralis-example-serve [--mcp] [--grant FEATURE]...\n       \
         neuralis-example-serve --http ADDR [--tokens FILE] [--allow-host HOST]... \
         [--max-body BYTES] [--grace SECS] [--resource URL] [--stateless]\n  \
         without `--mcp` or `--http`, prints the MCP tool list the grants allow"
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
