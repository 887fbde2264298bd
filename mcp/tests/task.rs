//! MCP's tasks extension read off the wire over stdio-like line I/O, in both eras it
//! exists in: a 2025-11-25 session that declared `io.modelcontextprotocol/tasks` at
//! `initialize`, and 2026-07-28 requests that declare it in their `_meta`. A task's
//! questions are its `input_required`, answered with `tasks/update`; the approval gate
//! asks within the call's request, before the task exists; `tasks/cancel` fires a
//! cancellable handler's abort signal; a tool that must run as a task refuses a client
//! that did not opt in with `-32021`.

#![allow(clippy::unwrap_used, reason = "tests")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use neuralis_core::dispatch::{
    Package, SessionContext, TaskMode, TaskSupport, ToolContext, async_fn_cx, sync_fn, with_task,
};
use neuralis_mcp::{McpServer, TaskTiming};
use serde_json::{Value, json};

mod common;

use common::Lines;

const TASKS: &str = "io.modelcontextprotocol/tasks";

fn file(xn: Value) -> String {
    json!({
        "type": "object", "additionalProperties": false, "description": "A tool.",
        "properties": {"force": {"type": "boolean"}},
        "x-neuralis": xn,
    })
    .to_string()
}

/// How often each tool's handler ran, and how often `long` saw its abort signal.
#[derive(Default)]
struct Counts {
    export: AtomicUsize,
    wipe: AtomicUsize,
    stopped: AtomicUsize,
}

async fn export(_: Value, cx: &ToolContext) -> String {
    if let Some(counts) = cx.state::<Arc<Counts>>() {
        counts.export.fetch_add(1, Ordering::SeqCst);
    }
    cx.progress(1.0, Some(2.0), Some("exporting"));
    match cx.confirm("go", "Export?").await {
        Ok(true) => "exported".to_owned(),
        Ok(false) => "kept".to_owned(),
        Err(e) => format!("error: {e}"),
    }
}

async fn long(_: Value, cx: &ToolContext) -> &'static str {
    if let Some(abort) = cx.abort() {
        abort.cancelled().await;
        if let Some(counts) = cx.state::<Arc<Counts>>() {
            counts.stopped.fetch_add(1, Ordering::SeqCst);
        }
    }
    "stopped"
}

fn package(counts: &Arc<Counts>) -> Package {
    let read = json!({"annotations": {"category": "read"}});
    let optional = TaskMode::new(TaskSupport::Optional);
    let wipe = Arc::clone(counts);
    Package::builder()
        .state(Arc::clone(counts))
        .tool(
            "export",
            file(read.clone()),
            with_task(async_fn_cx(export), optional),
        )
        .tool(
            "wipe",
            file(
                json!({"annotations": {"category": "write", "destructiveHint": true},
                        "askOnKeys": ["force"]}),
            ),
            with_task(
                sync_fn(move |_: Value| {
                    wipe.wipe.fetch_add(1, Ordering::SeqCst);
                    "wiped"
                }),
                optional,
            ),
        )
        .tool(
            "long",
            file(json!({"annotations": {"category": "read", "cancellable": true}})),
            with_task(async_fn_cx(long), TaskMode::new(TaskSupport::Required)),
        )
        .tool("plain", file(read), sync_fn(|_: Value| "plain"))
        .build()
        .unwrap()
}

fn server(counts: &Arc<Counts>) -> McpServer {
    McpServer::new(package(counts), SessionContext::builder("u").build())
        .with_task_timing(TaskTiming::default().with_poll(Duration::from_millis(20)))
}

fn no_requests(request: &Value) -> Value {
    panic!("the server sent a request: {request}")
}

/// `tasks/get` until `status` (or a terminal one), at most 5 s.
async fn wait_for(lines: &mut Lines, meta: &Value, id: &str, status: &str) -> Value {
    for _ in 0..250 {
        let (_, got) = lines
            .send(
                "tasks/get",
                json!({"taskId": id, "_meta": meta}),
                &no_requests,
            )
            .await;
        let task = got["result"].clone();
        let s = task["status"].as_str().unwrap_or_default();
        if s == status || ["completed", "failed", "cancelled"].contains(&s) {
            return task;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("task {id} never reached {status}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_a_session_that_declared_tasks_gets_one_and_one_that_did_not_is_answered_inline() {
    let counts = Arc::default();
    let caps = json!({"elicitation": {}, "extensions": {TASKS: {}}});
    let mut lines = Lines::legacy(server(&counts), caps).await;
    let (asked, created) = lines
        .send(
            "tools/call",
            json!({"name": "export", "arguments": {}}),
            &no_requests,
        )
        .await;
    assert!(
        asked.is_empty(),
        "the task's question is not a request: {asked:?}"
    );
    let result = &created["result"];
    assert_eq!(result["resultType"], "task", "{created}");
    assert_eq!(result["status"], "working");
    let id = result["taskId"].as_str().unwrap().to_owned();
    let meta = Value::Null;
    let task = wait_for(&mut lines, &meta, &id, "input_required").await;
    assert_eq!(task["status"], "input_required", "{task}");
    assert_eq!(task["inputRequests"]["go"]["method"], "elicitation/create");
    assert_eq!(task["statusMessage"], "exporting");
    let (_, ack) = lines
        .send(
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"go": {"action": "accept", "content": {}}}}),
            &no_requests,
        )
        .await;
    assert!(ack.get("error").is_none(), "{ack}");
    let task = wait_for(&mut lines, &meta, &id, "completed").await;
    assert_eq!(task["status"], "completed", "{task}");
    assert_eq!(task["result"]["content"][0]["text"], "exported", "{task}");
    assert!(
        task.get("statusMessage").is_none(),
        "an ended task keeps no progress message: {task}"
    );
    assert_eq!(
        counts.export.load(Ordering::SeqCst),
        1,
        "the handler ran once"
    );

    // A session without the extension: the same call within its request, the question a
    // request to the client; the task methods refused.
    let mut plain = Lines::legacy(server(&counts), json!({"elicitation": {}})).await;
    let (asked, response) = plain
        .send(
            "tools/call",
            json!({"name": "export", "arguments": {}}),
            &|_| json!({"action": "accept", "content": {}}),
        )
        .await;
    assert_eq!(asked.len(), 1, "asked during the call");
    assert_eq!(
        response["result"]["content"][0]["text"], "exported",
        "{response}"
    );
    assert!(response["result"].get("taskId").is_none());
    let (_, refused) = plain
        .send("tasks/get", json!({"taskId": id}), &no_requests)
        .await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    // And a tool that runs only as a task is refused before it runs.
    let (_, refused) = plain
        .send(
            "tools/call",
            json!({"name": "long", "arguments": {}}),
            &no_requests,
        )
        .await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert!(
        refused["error"]["data"]["requiredCapabilities"]["extensions"][TASKS].is_object(),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_the_gate_asks_within_the_request_and_the_task_runs_once_confirmed() {
    let counts: Arc<Counts> = Arc::default();
    let mut lines = Lines::start(server(&counts));
    let meta = common::meta(json!({"elicitation": {}, "extensions": {TASKS: {}}}));
    let call = json!({"name": "wipe", "arguments": {"force": true}, "_meta": meta});
    let (_, first) = lines.send("tools/call", call.clone(), &no_requests).await;
    let round = &first["result"];
    assert_eq!(round["resultType"], "input_required", "{first}");
    assert!(round.get("taskId").is_none(), "no task before the confirm");
    assert!(round["inputRequests"]["neuralis.approval"].is_object());
    assert_eq!(counts.wipe.load(Ordering::SeqCst), 0);
    let mut retry = call.clone();
    retry["inputResponses"] = json!({"neuralis.approval": {"action": "accept", "content": {}}});
    retry["requestState"] = round["requestState"].clone();
    let (_, created) = lines.send("tools/call", retry.clone(), &no_requests).await;
    let result = &created["result"];
    assert_eq!(result["resultType"], "task", "{created}");
    for absent in ["requestState", "inputRequests", "result"] {
        assert!(result.get(absent).is_none(), "{absent} in {created}");
    }
    let id = result["taskId"].as_str().unwrap().to_owned();
    let task = wait_for(&mut lines, &meta, &id, "completed").await;
    assert_eq!(task["result"]["content"][0]["text"], "wiped", "{task}");
    assert_eq!(counts.wipe.load(Ordering::SeqCst), 1);
    // The confirmed retry sent again is refused: the confirm let one call run.
    let (_, replayed) = lines.send("tools/call", retry, &no_requests).await;
    assert_eq!(replayed["error"]["code"], -32602, "{replayed}");
    assert_eq!(counts.wipe.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_a_cancel_fires_the_abort_and_the_task_stays_cancelled() {
    let counts: Arc<Counts> = Arc::default();
    let mut lines = Lines::start(server(&counts));
    let meta = common::meta(json!({"extensions": {TASKS: {}}}));
    let (_, created) = lines
        .send(
            "tools/call",
            json!({"name": "long", "arguments": {}, "_meta": meta}),
            &no_requests,
        )
        .await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let (_, ack) = lines
        .send(
            "tasks/cancel",
            json!({"taskId": id, "_meta": meta}),
            &no_requests,
        )
        .await;
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    for _ in 0..250 {
        if counts.stopped.load(Ordering::SeqCst) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        counts.stopped.load(Ordering::SeqCst),
        1,
        "the handler saw its abort"
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    let task = wait_for(&mut lines, &meta, &id, "cancelled").await;
    assert_eq!(task["status"], "cancelled", "{task}");
    assert!(task.get("result").is_none(), "{task}");
    // Cancelling again is the same ack; an unknown task is -32602.
    let (_, again) = lines
        .send(
            "tasks/cancel",
            json!({"taskId": id, "_meta": meta}),
            &no_requests,
        )
        .await;
    assert_eq!(again["result"], json!({"resultType": "complete"}));
    let (_, unknown) = lines
        .send(
            "tasks/get",
            json!({"taskId": "nope", "_meta": meta}),
            &no_requests,
        )
        .await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    // A tool that never runs as a task is answered within its request.
    let (_, plain) = lines
        .send(
            "tools/call",
            json!({"name": "plain", "arguments": {}, "_meta": meta}),
            &no_requests,
        )
        .await;
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
}
