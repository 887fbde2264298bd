//! Drives the example package over stdio with rmcp's client, as any MCP client would:
//! the listing, calls, refusals, cancellation, and 100 concurrent calls mutating the
//! service's shared state.

#![allow(clippy::unwrap_used, reason = "tests")]

use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientRequest, JsonObject,
};
use rmcp::service::{PeerRequestOptions, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::process::Command;

/// How long a step may take before the test gives up (a liveness bound, not a speed test).
const PATIENCE: Duration = Duration::from_secs(20);

async fn start(grants: &[&str]) -> RunningService<RoleClient, ()> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_neuralis-example-serve"));
    command.arg("--mcp");
    for g in grants {
        command.arg("--grant").arg(g);
    }
    let transport = TokioChildProcess::new(command).expect("the example starts");
    tokio::time::timeout(PATIENCE, ().serve(transport))
        .await
        .expect("initialize in time")
        .expect("initialize succeeds")
}

fn args(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => panic!("arguments are an object"),
    }
}

async fn call(client: &RunningService<RoleClient, ()>, name: &str, arguments: Value) -> Value {
    let params = CallToolRequestParams::new(name.to_owned()).with_arguments(args(arguments));
    let result: CallToolResult = tokio::time::timeout(PATIENCE, client.peer().call_tool(params))
        .await
        .expect("the call answers in time")
        .expect("a call is never a protocol error");
    serde_json::to_value(result).unwrap()
}

async fn list(client: &RunningService<RoleClient, ()>) -> Vec<Value> {
    let tools = client.peer().list_all_tools().await.expect("tools/list");
    tools
        .into_iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_list_and_call() {
    let client = start(&["weather.read"]).await;
    let info = client
        .peer()
        .peer_info()
        .expect("the server introduced itself");
    let server = info.server_info.as_ref().expect("server info");
    assert_eq!(server.name, "neuralis-example-serve");

    let tools = list(&client).await;
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "notes_list",
            "notes_reindex",
            "notes_write",
            "weather_forecast"
        ]
    );

    let weather = &tools[3];
    let schema = &weather["inputSchema"];
    assert!(schema.get("$schema").is_none(), "{schema}");
    assert!(schema.get("x-neuralis").is_none(), "{schema}");
    // Served portably: the server enforces closure (an undeclared key is refused), and an
    // optional property also admits the `null` a strict model sends for "nothing".
    assert!(schema.get("additionalProperties").is_none(), "{schema}");
    assert_eq!(
        schema["properties"]["days"]["anyOf"][1],
        json!({"type": "null"}),
        "{schema}"
    );
    assert_eq!(schema["required"], json!(["city"]));
    assert_eq!(schema["properties"]["city"]["maxLength"], 120);
    assert_eq!(
        weather["annotations"],
        json!({
            "title": "Weather Forecast",
            "readOnlyHint": true,
            "destructiveHint": false,
            "idempotentHint": false,
            "openWorldHint": false
        })
    );
    // Every hint is stated, including those the file leaves out.
    for tool in &tools {
        for hint in [
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        ] {
            assert!(
                tool["annotations"][hint].is_boolean(),
                "{} lacks {hint}",
                tool["name"]
            );
        }
    }
    assert_eq!(tools[1]["annotations"]["idempotentHint"], true);
    assert_eq!(tools[1]["annotations"]["readOnlyHint"], false);
    assert_eq!(tools[2]["annotations"]["destructiveHint"], true);

    // A call: the defaults (`days: 3`) are filled in by the pipeline.
    let result = call(&client, "weather_forecast", json!({"city": "Lisbon"})).await;
    assert_ne!(result["isError"], true, "{result}");
    assert_eq!(result["structuredContent"]["ok"], true);
    assert_eq!(result["structuredContent"]["city"], "Lisbon");
    assert_eq!(
        result["structuredContent"]["days"].as_array().map(Vec::len),
        Some(3)
    );
    assert_eq!(result["content"][0]["type"], "text");

    // A method of the service: a write, then a read that sees it.
    let written = call(&client, "notes_write", json!({"key": "a", "text": "one"})).await;
    assert_eq!(written["structuredContent"]["revision"], 1, "{written}");
    let listed = call(&client, "notes_list", json!({})).await;
    assert_eq!(
        listed["structuredContent"]["notes"],
        json!([{"key": "a", "text": "one"}])
    );
    let refused = call(&client, "notes_write", json!({"key": "a"})).await;
    assert_eq!(refused["isError"], true, "{refused}");

    client.cancel().await.expect("the client stops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_arguments_are_is_error_results() {
    let client = start(&["weather.read"]).await;

    let result = call(&client, "weather_forecast", json!({"city": "", "days": 40})).await;
    assert_eq!(result["isError"], true, "{result}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("/city"), "{text}");
    assert!(text.contains("/days"), "{text}");
    // A typed tool's error results carry no `structuredContent` (it could not match the
    // output schema, and the Inspector checks it against it): the details are the text.
    assert!(result.get("structuredContent").is_none(), "{result}");

    // A session field is refused by the closed root before any handler runs.
    let result = call(
        &client,
        "weather_forecast",
        json!({"city": "Porto", "userId": "u-2"}),
    )
    .await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("/userId")
    );

    // The near miss: the same call without it succeeds.
    let result = call(&client, "weather_forecast", json!({"city": "Porto"})).await;
    assert_ne!(result["isError"], true, "{result}");

    client.cancel().await.expect("the client stops");
}

/// `notes_write` returns `Result<Written, WriteError>`, and `WriteError` derives
/// `Serialize` too: its `Err` is still an `isError` result with the error's text (not
/// `{"Err": ...}` as data), and its `Ok` is the typed `Written` (not `{"Ok": ...}`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_results_err_is_an_error_whatever_it_derives() {
    let client = start(&[]).await;

    let failed = call(&client, "notes_write", json!({"key": "k"})).await;
    assert_eq!(failed["isError"], true, "{failed}");
    assert_eq!(
        failed["content"][0]["text"], "give `text`, or `delete: true`",
        "{failed}"
    );
    assert!(failed.get("structuredContent").is_none(), "{failed}");

    let written = call(&client, "notes_write", json!({"key": "k", "text": "t"})).await;
    assert_ne!(written["isError"], true, "{written}");
    assert_eq!(written["structuredContent"]["key"], "k", "{written}");
    assert_eq!(written["structuredContent"]["deleted"], false, "{written}");
    let tools = list(&client).await;
    let write = tools.iter().find(|t| t["name"] == "notes_write").unwrap();
    assert_eq!(
        write["outputSchema"]["required"],
        json!(["ok", "key", "revision", "deleted"]),
        "`Ok`'s type is the declared output: {write}"
    );
    // The doc comments are written with intra-doc links ("What [`Notes::notes_write`]
    // returns."): what is served is their plain text.
    let served = serde_json::to_string(&tools).unwrap();
    assert!(!served.contains("[`") && !served.contains("]("), "{served}");
    assert!(
        served.contains("What `Notes::notes_write` returns."),
        "{served}"
    );

    client.cancel().await.expect("the client stops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn not_granted_is_hidden_and_refused_like_unknown() {
    let client = start(&[]).await;
    let names: Vec<String> = list(&client)
        .await
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["notes_list", "notes_reindex", "notes_write"]);

    let hidden = call(&client, "weather_forecast", json!({"city": "Lisbon"})).await;
    let unknown = call(&client, "no_such_tool", json!({})).await;
    assert_eq!(hidden["isError"], true);
    assert_eq!(hidden["structuredContent"], unknown["structuredContent"]);
    assert_eq!(hidden["structuredContent"]["error"], "unknown-tool");

    client.cancel().await.expect("the client stops");
}

/// The rebuild counters, read with a zero-second rebuild.
async fn runs(client: &RunningService<RoleClient, ()>) -> Value {
    let result = call(client, "notes_reindex", json!({"seconds": 0})).await;
    result["structuredContent"]["runs"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelled_call_stops_the_handler_promptly() {
    let client = start(&[]).await;
    let params =
        CallToolRequestParams::new("notes_reindex").with_arguments(args(json!({"seconds": 60})));
    let handle = client
        .peer()
        .send_cancellable_request(
            ClientRequest::CallToolRequest(CallToolRequest::new(params)),
            PeerRequestOptions::no_options(),
        )
        .await
        .expect("the call is sent");

    // Wait until the slow rebuild is running.
    let deadline = Instant::now() + PATIENCE;
    while runs(&client).await["running"] != 1 {
        assert!(Instant::now() < deadline, "the slow rebuild never started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    handle
        .cancel(Some("the user stopped it".into()))
        .await
        .expect("notifications/cancelled is sent");

    // The handler stops long before its 60 seconds: it was dropped, not finished.
    let deadline = Instant::now() + PATIENCE;
    loop {
        let runs = runs(&client).await;
        if runs["running"] == 0 {
            assert_eq!(runs["cancelled"], 1, "{runs}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the cancelled rebuild still runs: {runs}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // The near miss: a rebuild that is not cancelled completes.
    let done = call(&client, "notes_reindex", json!({"seconds": 1})).await;
    assert_eq!(done["structuredContent"]["ok"], true, "{done}");
    assert_eq!(done["structuredContent"]["runs"]["cancelled"], 1);

    client.cancel().await.expect("the client stops");
}

/// 100 calls in flight at once, ten writes to each of ten keys: every write takes one
/// revision (1 to 100, each once), and each key ends with the text of its last write.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_writes_mutate_the_shared_service_exactly() {
    let client = start(&[]).await;
    let mut calls = tokio::task::JoinSet::new();
    for i in 0..100 {
        let peer = client.peer().clone();
        calls.spawn(async move {
            let key = format!("k{}", i % 10);
            let text = format!("t{i}");
            let params = CallToolRequestParams::new("notes_write")
                .with_arguments(args(json!({"key": key, "text": text})));
            let result = tokio::time::timeout(PATIENCE, peer.call_tool(params))
                .await
                .expect("the call answers in time")
                .expect("a call is never a protocol error");
            let result = serde_json::to_value(result).unwrap();
            assert_ne!(result["isError"], true, "{result}");
            let revision = result["structuredContent"]["revision"].as_u64().unwrap();
            (key, text, revision)
        });
    }
    let mut writes = Vec::new();
    while let Some(done) = calls.join_next().await {
        writes.push(done.expect("the call task"));
    }
    let mut revisions: Vec<u64> = writes.iter().map(|(_, _, r)| *r).collect();
    revisions.sort_unstable();
    assert_eq!(revisions, (1..=100).collect::<Vec<u64>>());

    let listed = call(&client, "notes_list", json!({})).await;
    assert_eq!(listed["structuredContent"]["revision"], 100, "{listed}");
    let expected: Vec<Value> = (0..10)
        .map(|k| {
            let key = format!("k{k}");
            let last = writes
                .iter()
                .filter(|(w, _, _)| *w == key)
                .max_by_key(|(_, _, r)| *r)
                .map(|(_, t, _)| t.clone())
                .unwrap();
            json!({"key": key, "text": last})
        })
        .collect();
    assert_eq!(listed["structuredContent"]["notes"], Value::Array(expected));

    client.cancel().await.expect("the client stops");
}
