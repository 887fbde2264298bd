//! Drives MCP servers over streamable HTTP with concurrent clients and prints calls per
//! second and latency percentiles for each, with the ratio of each to the first.
//!
//!     http_drive SECONDS CLIENTS ROUNDS -- NAME=COMMAND [NAME=COMMAND...]
//!
//! COMMAND is started with `--http 127.0.0.1:0` appended and says where it listens on
//! stderr. Each round runs every server once, in turn (a load change on the machine hits
//! all alike); a figure is the median over the rounds. A run: CLIENTS clients, each one
//! keep-alive HTTP/1.1 connection sending stateless (2026-07-28) `tools/call` requests of
//! `echo` one after the other for SECONDS (after a one-second warm-up), every answer read
//! and checked to be a successful result. A command ending in `+token` sends
//! `Authorization: Bearer bench-token`; one ending in `+jwt` sends the bench's JWT
//! (`neuralis_bench_mcp::BENCH_JWT`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn request(port: u16, id: u64, token: Option<&str>) -> Vec<u8> {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"hello {id}"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{{"name":"drive","version":"0"}},"io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
    );
    let auth = match token {
        Some(token) => format!("Authorization: Bearer {token}\r\n"),
        None => String::new(),
    };
    format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: echo\r\n{auth}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Reads one response with a `Content-Length` body; `Err` unless it is a successful call.
fn response(reader: &mut BufReader<TcpStream>) -> Result<(), String> {
    let mut status = String::new();
    reader.read_line(&mut status).map_err(|e| e.to_string())?;
    if !status.starts_with("HTTP/1.1 200") {
        return Err(format!("status {}", status.trim()));
    }
    let mut length = None;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).map_err(|e| e.to_string())?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse::<usize>().ok();
        }
    }
    let length = length.ok_or("no content-length (not a JSON answer)")?;
    let mut body = vec![0; length];
    reader.read_exact(&mut body).map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&body);
    if !text.contains(r#""result""#) || text.contains(r#""isError":true"#) {
        return Err(format!("not a successful result: {text:.200}"));
    }
    Ok(())
}

struct Run {
    rate: f64,
    p50: Duration,
    p99: Duration,
}

fn run(command: &str, seconds: u64, clients: usize) -> Result<Run, String> {
    let (command, token) = match (command.strip_suffix("+token"), command.strip_suffix("+jwt")) {
        (Some(c), _) => (c, Some("bench-token")),
        (None, Some(c)) => (c, Some(neuralis_bench_mcp::BENCH_JWT)),
        (None, None) => (command, None),
    };
    let mut parts = command.split_whitespace();
    let program = parts.next().ok_or("an empty command")?;
    let mut child = Command::new(program)
        .args(parts)
        .args(["--http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{program}: {e}"))?;
    let mut stderr = BufReader::new(child.stderr.take().ok_or("no stderr")?);
    let mut line = String::new();
    stderr.read_line(&mut line).map_err(|e| e.to_string())?;
    let port: u16 = line
        .trim()
        .strip_prefix("listening on http://127.0.0.1:")
        .and_then(|r| r.strip_suffix("/mcp"))
        .and_then(|p| p.parse().ok())
        .ok_or_else(|| format!("the server did not say where it listens: {line:?}"))?;

    let measuring = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let workers: Vec<_> = (0..clients)
        .map(|c| {
            let (measuring, stop) = (measuring.clone(), stop.clone());
            std::thread::spawn(move || -> Result<Vec<Duration>, String> {
                let stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
                stream.set_nodelay(true).map_err(|e| e.to_string())?;
                let mut writer = stream.try_clone().map_err(|e| e.to_string())?;
                let mut reader = BufReader::new(stream);
                let mut latencies = Vec::new();
                let mut id = (c as u64) << 32;
                while !stop.load(Ordering::Relaxed) {
                    id += 1;
                    let start = Instant::now();
                    writer
                        .write_all(&request(port, id, token))
                        .map_err(|e| e.to_string())?;
                    response(&mut reader)?;
                    if measuring.load(Ordering::Relaxed) {
                        latencies.push(start.elapsed());
                    }
                }
                Ok(latencies)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(1));
    measuring.store(true, Ordering::Relaxed);
    let start = Instant::now();
    std::thread::sleep(Duration::from_secs(seconds));
    measuring.store(false, Ordering::Relaxed);
    let elapsed = start.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let mut all = Vec::new();
    let mut failure = None;
    for w in workers {
        match w.join() {
            Ok(Ok(latencies)) => all.extend(latencies),
            Ok(Err(e)) => failure = Some(e),
            Err(_) => failure = Some("a client panicked".into()),
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    if let Some(e) = failure {
        return Err(e);
    }
    if all.is_empty() {
        return Err("no call completed".into());
    }
    all.sort();
    let at = |q: f64| all[((all.len() as f64 * q) as usize).min(all.len() - 1)];
    Ok(Run {
        rate: all.len() as f64 / elapsed,
        p50: at(0.50),
        p99: at(0.99),
    })
}

fn median<T: Copy + PartialOrd>(mut v: Vec<T>) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    v[v.len() / 2]
}

fn main() -> std::process::ExitCode {
    let usage = "usage: http_drive SECONDS CLIENTS ROUNDS -- NAME=COMMAND [NAME=COMMAND...]";
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(split) = args.iter().position(|a| a == "--") else {
        eprintln!("{usage}");
        return std::process::ExitCode::from(2);
    };
    let numbers: Vec<u64> = args[..split]
        .iter()
        .filter_map(|a| a.parse().ok())
        .collect();
    let [seconds, clients, rounds] = numbers[..] else {
        eprintln!("{usage}");
        return std::process::ExitCode::from(2);
    };
    let servers: Vec<(&str, &str)> = args[split + 1..]
        .iter()
        .filter_map(|a| a.split_once('='))
        .collect();
    let mut runs: Vec<Vec<Run>> = servers.iter().map(|_| Vec::new()).collect();
    for round in 0..rounds {
        for (i, (name, command)) in servers.iter().enumerate() {
            match run(command, seconds, clients as usize) {
                Ok(r) => {
                    eprintln!(
                        "round {}: {name} {:.0} calls/s, p50 {:.2} ms, p99 {:.2} ms",
                        round + 1,
                        r.rate,
                        r.p50.as_secs_f64() * 1e3,
                        r.p99.as_secs_f64() * 1e3
                    );
                    runs[i].push(r);
                }
                Err(e) => {
                    eprintln!("error: {name}: {e}");
                    return std::process::ExitCode::FAILURE;
                }
            }
        }
    }
    let summary: Vec<(f64, f64, f64)> = runs
        .into_iter()
        .map(|rs| {
            (
                median(rs.iter().map(|r| r.rate).collect()),
                median(rs.iter().map(|r| r.p50.as_secs_f64() * 1e3).collect()),
                median(rs.iter().map(|r| r.p99.as_secs_f64() * 1e3).collect()),
            )
        })
        .collect();
    println!(
        "| server | calls/s | p50 ms | p99 ms | throughput / {} |",
        servers[0].0
    );
    println!("|---|---:|---:|---:|---:|");
    for ((name, _), (rate, p50, p99)) in servers.iter().zip(&summary) {
        println!(
            "| {name} | {rate:.0} | {p50:.2} | {p99:.2} | {:.2}x |",
            rate / summary[0].0
        );
    }
    std::process::ExitCode::SUCCESS
}
