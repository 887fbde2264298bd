//! Drives MCP servers over stdio with pipelined `tools/call` requests and prints calls
//! per second for each, and the ratio of each to the first.
//!
//!     drive CALLS WINDOW ROUNDS -- NAME=COMMAND [NAME=COMMAND...]
//!
//! Each round runs every server once, in turn (so a load change on the machine hits all
//! of them alike); a server's figure is its median over the rounds. A run: `initialize`,
//! then CALLS calls of `echo` with at most WINDOW in flight, every answer read and
//! checked to be a successful result.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Instant;

fn run(command: &str, calls: usize, window: usize) -> Result<f64, String> {
    let mut parts = command.split_whitespace();
    let program = parts.next().ok_or("an empty command")?;
    let mut child = Command::new(program)
        .args(parts)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("{program}: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let write = |stdin: &mut std::process::ChildStdin, line: String| -> Result<(), String> {
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(|e| e.to_string())
    };
    write(
        &mut stdin,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"drive","version":"0"}}}"#.to_owned(),
    )?;
    rx.recv().map_err(|_| "no initialize answer")?;
    write(
        &mut stdin,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
    )?;
    let call = |id: usize| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"hello {id}"}}}}}}"#,
            id + 1
        )
    };
    let start = Instant::now();
    let mut sent = 0;
    let mut done = 0;
    while done < calls {
        while sent < calls && sent - done < window {
            write(&mut stdin, call(sent))?;
            sent += 1;
        }
        let line = rx.recv().map_err(|_| "the server stopped")?;
        if !line.contains(r#""result""#) || line.contains(r#""isError":true"#) {
            return Err(format!("not a successful result: {line:.200}"));
        }
        done += 1;
    }
    let elapsed = start.elapsed().as_secs_f64();
    drop(stdin);
    let _ = child.wait();
    let _ = reader.join();
    Ok(calls as f64 / elapsed)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(split) = args.iter().position(|a| a == "--") else {
        eprintln!("usage: drive CALLS WINDOW ROUNDS -- NAME=COMMAND [NAME=COMMAND...]");
        return std::process::ExitCode::from(2);
    };
    let numbers: Vec<usize> = args[..split]
        .iter()
        .filter_map(|a| a.parse().ok())
        .collect();
    let [calls, window, rounds] = numbers[..] else {
        eprintln!("usage: drive CALLS WINDOW ROUNDS -- NAME=COMMAND [NAME=COMMAND...]");
        return std::process::ExitCode::from(2);
    };
    let servers: Vec<(&str, &str)> = args[split + 1..]
        .iter()
        .filter_map(|a| a.split_once('='))
        .collect();
    let mut rates = vec![Vec::new(); servers.len()];
    for round in 0..rounds {
        for (i, (name, command)) in servers.iter().enumerate() {
            match run(command, calls, window) {
                Ok(rate) => {
                    eprintln!("round {}: {name} {rate:.0} calls/s", round + 1);
                    rates[i].push(rate);
                }
                Err(e) => {
                    eprintln!("error: {name}: {e}");
                    return std::process::ExitCode::FAILURE;
                }
            }
        }
    }
    let medians: Vec<f64> = rates.into_iter().map(median).collect();
    println!(
        "| server | calls/s (median of {rounds}) | ratio to {} |",
        servers[0].0
    );
    println!("|---|---:|---:|");
    for ((name, _), rate) in servers.iter().zip(&medians) {
        println!("| {name} | {rate:.0} | {:.2}x |", rate / medians[0]);
    }
    std::process::ExitCode::SUCCESS
}
