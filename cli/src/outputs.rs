//! `neuralis outputs`: the output schemas a built package serves.
//!
//! An output schema is not in a tool file (the contract closes a tool file): it travels
//! with the package's handlers. So this asks the built package itself: it runs the
//! package's MCP server over stdio with rmcp's client, on protocol 2025-06-18 (the first
//! with `outputSchema`), and prints what its `tools/list` says, which `neuralis diff`
//! reads from `tools/outputs.json` (a file loading, `check` and the build pass by).
//!
//! A server lists only the tools its caller is granted: when it lists fewer than the
//! tools directory holds, the missing ones are named on stderr (exit 1 with `--strict`),
//! so `{}` from a server started without grants is not read as every output removed.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, PaginatedRequestParams, ProtocolVersion,
};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value};

/// Arguments of `neuralis outputs`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only this tool: print its output schema alone.
    #[arg(long)]
    pub tool: Option<String>,
    /// How long to wait for each answer, in seconds.
    #[arg(long, default_value_t = 10)]
    pub timeout: u64,
    /// The package's tools directory, to name the tools the server did not list (a
    /// server shows only the tools its caller is granted); default `tools` when there is
    /// one.
    #[arg(long, value_name = "DIR")]
    pub tools_dir: Option<std::path::PathBuf>,
    /// Exit 1 when the server lists fewer tools than the tools directory holds.
    #[arg(long)]
    pub strict: bool,
    /// The package's MCP server over stdio, and its arguments (after `--`), for example
    /// `neuralis outputs -- target/debug/my-package --mcp`.
    #[arg(required = true, last = true)]
    pub command: Vec<String>,
}

/// Runs `neuralis outputs`: `{ "<tool>": <outputSchema or null>, ... }` on stdout, or with
/// `--tool` that tool's schema.
///
/// Exit status: 0; 1 when `--tool` names a tool the package does not list, or one without
/// an output schema, or (`--strict`) the server lists fewer tools than the tools directory
/// holds; 2 when the command cannot be run or does not answer as an MCP server, or
/// `--tools-dir` cannot be read.
pub fn run(args: &Args) -> ExitCode {
    let tools = match list(args) {
        Ok(tools) => tools,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(crate::EXIT_USAGE);
        }
    };
    let mut outputs = Map::new();
    for tool in &tools {
        if let Some(name) = tool.get("name").and_then(Value::as_str) {
            let schema = tool.get("outputSchema").cloned().unwrap_or(Value::Null);
            outputs.insert(name.to_owned(), schema);
        }
    }
    let missing = match unlisted(args, &outputs) {
        Ok(missing) => missing,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(crate::EXIT_USAGE);
        }
    };
    let shown = match &args.tool {
        None => Value::Object(outputs),
        Some(name) => match outputs.remove(name) {
            Some(Value::Null) => {
                eprintln!("error: `{name}` declares no output schema");
                return ExitCode::FAILURE;
            }
            Some(schema) => schema,
            None => {
                let names: Vec<&String> = outputs.keys().collect();
                eprintln!("error: the package lists no tool `{name}` (it lists {names:?})");
                return ExitCode::FAILURE;
            }
        },
    };
    let text = serde_json::to_string_pretty(&shown).unwrap_or_default();
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{text}").is_err() {
        return ExitCode::from(crate::EXIT_USAGE);
    }
    if args.strict && !missing.is_empty() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The tools of the tools directory (`--tools-dir`, else `tools` when there is one) that
/// the server did not list, each named in a warning on stderr.
fn unlisted(args: &Args, listed: &Map<String, Value>) -> Result<Vec<String>, String> {
    let dir = match &args.tools_dir {
        Some(dir) => dir.clone(),
        None if std::path::Path::new("tools").is_dir() => "tools".into(),
        None => return Ok(Vec::new()),
    };
    let package = neuralis_core::load::load_package(&dir)
        .map_err(|e| format!("cannot read the tools directory `{}`: {e}", dir.display()))?;
    let missing: Vec<String> = package
        .files
        .iter()
        .map(|file| file.name.clone())
        .filter(|name| !listed.contains_key(name))
        .collect();
    if !missing.is_empty() {
        let names: Vec<String> = missing.iter().map(|n| format!("`{n}`")).collect();
        eprintln!(
            "warning: the server listed {} of the {} tools in `{}`; not listed: {}. A server \
             shows only the tools its caller is granted: start it with the grants they need \
             (the examples: `--grant <feature>`), or a diff reads their outputs as removed",
            listed.len(),
            listed.len() + missing.len(),
            dir.display(),
            names.join(", ")
        );
    }
    Ok(missing)
}

/// The server's `tools/list` tools, every page, asked with rmcp's client on a runtime of
/// its own.
fn list(args: &Args) -> Result<Vec<Value>, String> {
    let (program, rest) = args
        .command
        .split_first()
        .ok_or("give the package's command after `--`")?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start a runtime: {e}"))?;
    let timeout = Duration::from_secs(args.timeout.max(1));
    runtime.block_on(talk(program, rest, timeout))
}

/// Starts the server, initializes on 2025-06-18, lists every page (at most 64), and
/// closes the connection (stdin), which ends a well-behaved server; rmcp stops one that
/// lingers.
async fn talk(program: &str, rest: &[String], timeout: Duration) -> Result<Vec<Value>, String> {
    let mut command = tokio::process::Command::new(program);
    command.args(rest);
    let transport =
        TokioChildProcess::new(command).map_err(|e| format!("cannot run `{program}`: {e}"))?;
    let client = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("neuralis-cli", env!("CARGO_PKG_VERSION")),
    )
    .with_protocol_version(ProtocolVersion::V_2025_06_18);
    let client = tokio::time::timeout(timeout, client.serve(transport))
        .await
        .map_err(|_| format!("no answer to `initialize` within {timeout:?}"))?
        .map_err(|e| format!("no answer to `initialize` from `{program}`: {e}"))?;
    let listed = pages(&client, timeout).await;
    let _ = client.cancel().await;
    listed
}

/// Every page of `tools/list`, each answer within `timeout`.
async fn pages(
    client: &RunningService<RoleClient, ClientConfig>,
    timeout: Duration,
) -> Result<Vec<Value>, String> {
    let mut tools = Vec::new();
    let mut cursor = None;
    for page in 1..=64 {
        let params = PaginatedRequestParams::default().with_cursor(cursor.take());
        let answer = tokio::time::timeout(timeout, client.peer().list_tools(Some(params)))
            .await
            .map_err(|_| format!("no answer to `tools/list` (page {page}) within {timeout:?}"))?
            .map_err(|e| format!("`tools/list` (page {page}) failed: {e}"))?;
        for tool in answer.tools {
            tools.push(serde_json::to_value(tool).map_err(|e| e.to_string())?);
        }
        match answer.next_cursor {
            Some(next) => cursor = Some(next),
            None => return Ok(tools),
        }
    }
    Err("tools/list did not end within 64 pages".into())
}
