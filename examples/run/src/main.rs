//! The README's main job, after `cargo build` has emitted every example's `tools/`:
//! for each example package, the catalog a caller sees and one sample call through the
//! whole pipeline (gate, defaults, validation, handler, bounding), printing what the
//! model and the card receive.
//!
//! `neuralis-example-run --mcp <weather|catalog|todos|tracker|triage>` serves that
//! package over MCP on stdio instead, for a caller granted every feature its tools
//! require.

use std::process::ExitCode;

use neuralis::dispatch::{
    CallOptions, Package, PackageBuilder, ProgressSink, SessionContext, block_on,
};
use serde_json::{Value, json};

struct Example {
    name: &'static str,
    builder: fn() -> PackageBuilder,
    calls: Vec<(&'static str, Value)>,
}

fn examples() -> Vec<Example> {
    vec![
        Example {
            name: "weather",
            builder: neuralis_example_weather::neuralis_package::builder,
            calls: vec![("weather_forecast", json!({ "city": "Lisbon" }))],
        },
        Example {
            name: "catalog",
            builder: neuralis_example_catalog::neuralis_package::builder,
            calls: vec![
                ("catalog_list", json!({})),
                ("catalog_edit", json!({ "id": "item-7", "delete": false })),
                ("catalog_reindex", json!({ "batches": 3, "batch_ms": 10 })),
            ],
        },
        Example {
            name: "todos",
            builder: neuralis_example_todos::neuralis_package::builder,
            calls: vec![(
                "todos_update",
                json!({
                    "board": "launch",
                    "todos": [{ "title": "write the notes", "priority": "high" }],
                    "members": [{ "userId": "u-42", "displayName": "Ada" }]
                }),
            )],
        },
        Example {
            name: "tracker",
            builder: neuralis_example_tracker::neuralis_package::builder,
            calls: vec![(
                "tracker_issue_create",
                json!({
                    "title": "Paging skips the last item",
                    "reporter": { "actorId": "u-7", "displayName": "Grace" },
                    "labels": [{ "name": "bug", "color": "red" }]
                }),
            )],
        },
        Example {
            name: "triage",
            builder: neuralis_example_triage::neuralis_package::builder,
            calls: vec![
                ("triage_queue", json!({ "color": "red", "page": 2 })),
                ("triage_close", json!({ "number": 7, "purge": true })),
            ],
        },
    ]
}

/// A session granted every feature the package's tools require.
fn session_for(package: &Package) -> SessionContext {
    let mut session = SessionContext::builder("example-user");
    for entry in package.tools() {
        for feature in &entry.meta.requires.features {
            session = session.grant(feature.clone());
        }
    }
    session.build()
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("<unprintable: {e}>"))
}

fn serve(name: &str) -> ExitCode {
    let Some(example) = examples().into_iter().find(|e| e.name == name) else {
        eprintln!(
            "error: no example package `{name}` (try weather, catalog, todos, tracker or triage)"
        );
        return ExitCode::from(2);
    };
    let package = match (example.builder)().build() {
        Ok(package) => package,
        Err(e) => {
            eprintln!("error: the `{name}` package does not load: {e}");
            return ExitCode::FAILURE;
        }
    };
    let session = session_for(&package);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    // `NEURALIS_SERVED_DIALECT=contract` serves the tool files' schemas as checked,
    // `mcp-remote` the platforms' subset with the rest in words (as
    // `neuralis-example-serve --served-dialect` does).
    let served = std::env::var("NEURALIS_SERVED_DIALECT")
        .ok()
        .and_then(|d| neuralis_mcp::Served::from_name(&d))
        .unwrap_or_default();
    let server = neuralis_mcp::McpServer::new(package, session)
        .with_server_info(
            format!("neuralis-example-{name}"),
            env!("CARGO_PKG_VERSION"),
        )
        .with_served_dialect(served);
    match runtime.block_on(server.serve_stdio()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => run_all(),
        [flag, name] if flag == "--mcp" => serve(name),
        _ => {
            eprintln!("usage: neuralis-example-run [--mcp <weather|catalog|todos|tracker|triage>]");
            ExitCode::from(2)
        }
    }
}

fn run_all() -> ExitCode {
    let mut failed = false;
    for example in examples() {
        println!("== package `{}`", example.name);
        let package = match (example.builder)().build() {
            Ok(package) => package,
            Err(e) => {
                eprintln!("error: the `{}` package does not load: {e}", example.name);
                failed = true;
                continue;
            }
        };
        let session = session_for(&package);
        println!("catalog:");
        for entry in package.catalog(&session) {
            println!(
                "  {} (category {:?}, presentation {:?}){}",
                entry.name,
                entry.meta.annotations.category,
                entry.meta.effective_presentation(),
                if entry.meta.annotations.cancellable == Some(true) {
                    ", cancellable"
                } else {
                    ""
                }
            );
        }
        for (tool, args) in example.calls {
            println!("call {tool} {args}");
            match package.approval(tool, &args, &session) {
                Ok(approval) if approval.asks() => println!("  approval: asks a person first"),
                Ok(_) => println!("  approval: the category's floor decides"),
                Err(refusal) => println!("  approval: refused ({refusal})"),
            }
            // Progress reports, as an MCP client that sent a progress token receives them.
            let progress = ProgressSink::new(|p| match p.total {
                Some(total) => println!(
                    "  progress: {}/{total} {}",
                    p.done,
                    p.message.unwrap_or_default()
                ),
                None => println!("  progress: {} {}", p.done, p.message.unwrap_or_default()),
            });
            let call =
                package.dispatch_with(tool, args, &session, CallOptions::new().progress(progress));
            let Some(result) = block_on(call) else {
                eprintln!("error: the sample call to `{tool}` could not be driven");
                failed = true;
                continue;
            };
            if result.is_error {
                eprintln!("error: the sample call to `{tool}` failed");
                failed = true;
            }
            println!("  model receives: {}", pretty(&result.for_model()));
            println!("  card receives: {}", pretty(&result.for_ui()));
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
