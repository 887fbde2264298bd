//! `neuralis outputs`: the output schemas a built package serves.
//!
//! An output schema is not written into `tools/` (the contract closes a tool file, and a
//! second file there would load as a tool): it travels with the package's handlers. So
//! this asks the built package itself: it runs the package's MCP server over stdio, on
//! protocol 2025-06-18 (the first with `outputSchema`), and prints what its `tools/list`
//! says, read off the wire.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Map, Value, json};

/// Arguments of `neuralis outputs`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only this tool: print its output schema alone.
    #[arg(long)]
    pub tool: Option<String>,
    /// How long to wait for each answer, in seconds.
    #[arg(long, default_value_t = 10)]
    pub timeout: u64,
    /// The package's MCP server over stdio, and its arguments (after `--`), for example
    /// `neuralis outputs -- target/debug/my-package --mcp`.
    #[arg(required = true, last = true)]
    pub command: Vec<String>,
}

/// Runs `neuralis outputs`: `{ "<tool>": <outputSchema or null>, ... }` on stdout, or with
/// `--tool` that tool's schema.
///
/// Exit status: 0; 1 when `--tool` names a tool the package does not list, or one without
/// an output schema; 2 when the command cannot be run or does not answer as an MCP server.
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
    ExitCode::SUCCESS
}

/// The server's `tools/list` tools, every page.
fn list(args: &Args) -> Result<Vec<Value>, String> {
    let (program, rest) = args
        .command
        .split_first()
        .ok_or("give the package's command after `--`")?;
    let mut child = Command::new(program)
        .args(rest)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot run `{program}`: {e}"))?;
    let result = talk(&mut child, Duration::from_secs(args.timeout.max(1)));
    // Closing stdin ends a well-behaved server; one that lingers is stopped.
    drop(child.stdin.take());
    if !matches!(child.try_wait(), Ok(Some(_))) {
        std::thread::sleep(Duration::from_millis(100));
        if !matches!(child.try_wait(), Ok(Some(_))) {
            let _ = child.kill();
        }
    }
    let _ = child.wait();
    result
}

fn talk(child: &mut Child, timeout: Duration) -> Result<Vec<Value>, String> {
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let answer = |id: u64, rx: &mpsc::Receiver<String>| -> Result<Value, String> {
        loop {
            let line = rx
                .recv_timeout(timeout)
                .map_err(|_| format!("no answer to request {id} within {timeout:?}"))?;
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                return Err(format!("the server wrote a line that is not JSON: {line}"));
            };
            if message.get("id") == Some(&json!(id)) {
                if let Some(error) = message.get("error") {
                    return Err(format!("request {id} failed: {error}"));
                }
                return message
                    .get("result")
                    .cloned()
                    .ok_or_else(|| format!("request {id}: an answer with no result"));
            }
            // Notifications and requests from the server: not what we wait for.
        }
    };
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "neuralis-cli", "version": env!("CARGO_PKG_VERSION")}}}),
    )?;
    answer(1, &rx)?;
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )?;
    let mut tools = Vec::new();
    let mut cursor: Option<Value> = None;
    for id in 2..=65 {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        send(
            &mut stdin,
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params}),
        )?;
        let page = answer(id, &rx)?;
        if let Some(Value::Array(items)) = page.get("tools") {
            tools.extend(items.iter().cloned());
        }
        match page.get("nextCursor") {
            Some(c) if !c.is_null() => cursor = Some(c.clone()),
            _ => return Ok(tools),
        }
    }
    Err("tools/list did not end within 64 pages".into())
}

fn send(stdin: &mut ChildStdin, message: &Value) -> Result<(), String> {
    let mut line = message.to_string();
    line.push('\n');
    stdin
        .write_all(line.as_bytes())
        .and_then(|()| stdin.flush())
        .map_err(|e| format!("cannot write to the server: {e}"))
}
