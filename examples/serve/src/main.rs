//! An example package that serves itself over MCP: `neuralis-example-serve --mcp`.
//!
//! It registers the weather and catalog example tools (their `tools/*.json` files, as the
//! build emitter will write them) with small hand-written handlers, and a cancellable
//! `catalog_reindex`. The caller's grants come from `--grant FEATURE` (repeatable):
//! `weather_forecast` requires `weather.read`, so without that grant it is neither listed
//! nor callable.
//!
//! ```text
//! neuralis-example-serve --mcp --grant weather.read
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use neuralis_core::dispatch::{Json, Package, SessionContext, ToolContext, async_fn_cx, sync_fn};
use neuralis_mcp::McpServer;
use serde::Deserialize;
use serde_json::{Value, json};

/// `weather_forecast`'s input.
#[derive(Deserialize)]
struct Forecast {
    city: String,
    days: u8,
}

/// A made-up but deterministic forecast.
fn weather_forecast(input: Forecast) -> Json<Value> {
    let skies = ["sunny", "cloudy", "rain", "windy"];
    let seed = input.city.bytes().map(u32::from).sum::<u32>();
    let days: Vec<Value> = (0..u32::from(input.days))
        .map(|d| {
            let n = seed.wrapping_add(d * 7);
            json!({"day": d + 1, "high": 14 + n % 12, "low": 6 + n % 6, "sky": skies[(n % 4) as usize]})
        })
        .collect();
    Json(json!({"ok": true, "city": input.city, "days": days}))
}

/// `catalog_list`'s input.
#[derive(Deserialize)]
struct ListCatalog {
    filter: Option<String>,
}

/// The example catalog.
fn catalog_list(input: ListCatalog) -> Json<Value> {
    let items = [
        (1, "Lisbon tram poster", "active"),
        (2, "Porto tile set", "active"),
        (3, "Sintra map", "archived"),
    ];
    let filter = input.filter.unwrap_or_else(|| "active".to_owned());
    let items: Vec<Value> = items
        .iter()
        .filter(|(_, _, status)| filter == "all" || filter == *status)
        .map(|(id, name, status)| json!({"id": id, "name": name, "status": status}))
        .collect();
    Json(json!({"ok": true, "items": items}))
}

/// How many rebuilds are running, finished and were cancelled (the package's state).
#[derive(Default)]
struct Runs {
    running: AtomicU64,
    completed: AtomicU64,
    cancelled: AtomicU64,
}

impl Runs {
    fn snapshot(&self) -> Value {
        json!({
            "running": self.running.load(Ordering::SeqCst),
            "completed": self.completed.load(Ordering::SeqCst),
            "cancelled": self.cancelled.load(Ordering::SeqCst),
        })
    }
}

/// One rebuild: counted as cancelled if its future is dropped before it finishes.
struct Run<'a> {
    runs: &'a Runs,
    finished: bool,
}

impl Drop for Run<'_> {
    fn drop(&mut self) {
        self.runs.running.fetch_sub(1, Ordering::SeqCst);
        let counter = if self.finished {
            &self.runs.completed
        } else {
            &self.runs.cancelled
        };
        counter.fetch_add(1, Ordering::SeqCst);
    }
}

/// `catalog_reindex`'s input.
#[derive(Deserialize)]
struct Reindex {
    seconds: u64,
}

/// A slow rebuild that stops as soon as the call is aborted.
async fn catalog_reindex(input: Reindex, cx: &ToolContext) -> Json<Value> {
    let Some(runs) = cx.state::<Runs>() else {
        return Json(json!({"ok": false, "error": "no state"}));
    };
    runs.running.fetch_add(1, Ordering::SeqCst);
    let mut run = Run {
        runs,
        finished: false,
    };
    if input.seconds > 0 {
        let sleep = tokio::time::sleep(Duration::from_secs(input.seconds));
        match cx.abort() {
            Some(abort) => {
                tokio::select! {
                    () = sleep => {}
                    () = abort.cancelled() => return Json(json!({"ok": false, "error": "cancelled"})),
                }
            }
            None => sleep.await,
        }
    }
    run.finished = true;
    drop(run);
    Json(json!({"ok": true, "seconds": input.seconds, "runs": runs.snapshot()}))
}

/// The example package.
fn package() -> Result<Package, neuralis_core::dispatch::BuildError> {
    Package::builder()
        .tool(
            "weather_forecast",
            include_bytes!("../../weather/tools/weather_forecast.json"),
            sync_fn(weather_forecast),
        )
        .tool(
            "catalog_list",
            include_bytes!("../../catalog/tools/catalog_list.json"),
            sync_fn(catalog_list),
        )
        .tool(
            "catalog_reindex",
            include_bytes!("../tools/catalog_reindex.json"),
            async_fn_cx(catalog_reindex),
        )
        .state(Runs::default())
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
