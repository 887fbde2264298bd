//! The tools the official MCP conformance suite (`@modelcontextprotocol/conformance`)
//! calls in its server scenarios, as a package built with the macros (`tools.rs`), served
//! over streamable HTTP at `/mcp` by the same code as `examples/serve` (its `http.rs`,
//! compiled in here: DNS rebinding refused, body cap, graceful shutdown on SIGINT/SIGTERM).
//!
//! ```text
//! neuralis-example-conformance --http 127.0.0.1:0 [--allow-host HOST]... [--stateless]
//! ```
//!
//! It prints `listening on http://HOST:PORT/mcp` on stderr once bound. Every request is
//! served for one local session (the suite sends no credentials): for local use only.
//! `tests/conformance/suite.sh` runs the suite against it.

#[path = "../../serve/src/http.rs"]
mod http;
mod tools;

use std::process::ExitCode;
use std::time::Duration;

use neuralis::dispatch::SessionContext;

neuralis::package!();

#[tokio::main]
async fn main() -> ExitCode {
    let options = match options(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(problem) => {
            eprintln!(
                "error: {problem}\nusage: neuralis-example-conformance --http ADDR \
                 [--allow-host HOST]... [--stateless]"
            );
            return ExitCode::from(2);
        }
    };
    let package = match neuralis_package::package() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let session = SessionContext::builder("local-user").build();
    match http::serve(package, session, options).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The command line, read into `examples/serve`'s HTTP options.
fn options(mut args: impl Iterator<Item = String>) -> Result<http::Options, String> {
    let mut addr = None;
    let mut allow_hosts = Vec::new();
    let mut stateless = false;
    while let Some(arg) = args.next() {
        let mut value = |what: &str| args.next().ok_or(format!("`{arg}` needs {what}"));
        match arg.as_str() {
            "--http" => {
                let a = value("an address such as 127.0.0.1:8080")?;
                addr = Some(
                    a.parse()
                        .map_err(|e| format!("`--http {a}`: not an address ({e})"))?,
                );
            }
            "--allow-host" => allow_hosts.push(value("a host name")?),
            "--stateless" => stateless = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(http::Options {
        addr: addr.ok_or("`--http ADDR` is required")?,
        tokens: None,
        allow_hosts,
        max_body: 4 * 1024 * 1024,
        grace: Duration::from_secs(10),
        resource: None,
        stateless,
    })
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
                "test_audio_content",
                "test_embedded_resource",
                "test_error_handling",
                "test_image_content",
                "test_multiple_content_types",
                "test_simple_text",
                "test_tool_with_logging",
                "test_tool_with_progress",
            ]
        );
    }

    #[test]
    fn the_command_line_needs_an_address() {
        let args = |a: &[&str]| super::options(a.iter().map(|s| (*s).to_owned()));
        assert!(args(&[]).is_err());
        assert!(args(&["--http", "nowhere"]).is_err());
        assert!(args(&["--http", "127.0.0.1:0", "--bogus"]).is_err());
        let o = args(&[
            "--http",
            "127.0.0.1:0",
            "--allow-host",
            "mcp.local",
            "--stateless",
        ])
        .expect("valid");
        assert_eq!(o.allow_hosts, ["mcp.local"]);
        assert!(o.stateless && o.tokens.is_none());
    }
}
