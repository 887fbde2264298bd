//! Approvals and handlers that ask, read off the wire over stdio-like line I/O: before
//! 2026-07-28 each question is a request to the client during the call; on 2026-07-28
//! an `InputRequiredResult` round, retried with `inputResponses` and the sealed
//! `requestState`, the handler run again from the start.

#![allow(clippy::unwrap_used, reason = "tests")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use neuralis_core::dispatch::{
    ApprovalPolicy, AskError, ElicitForm, Elicited, Package, SamplingRequest, SessionContext,
    ToolContext, async_fn_cx, sync_fn,
};
use neuralis_core::input::{Composer, ToolInput};
use neuralis_mcp::McpServer;
use serde_json::{Value, json};

mod common;

use common::Lines;

fn tool(xn: Value) -> String {
    json!({
        "type": "object", "additionalProperties": false, "description": "A tool.",
        "properties": {"key": {"type": "string"}, "force": {"type": "boolean"}},
        "x-neuralis": xn,
    })
    .to_string()
}

#[derive(serde::Deserialize)]
struct Who {
    name: String,
}

impl ToolInput for Who {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Who".into()
    }
    fn schema_in(_: &mut Composer) -> Value {
        json!({"type": "object", "additionalProperties": false,
               "properties": {"name": {"type": "string", "minLength": 1}}, "required": ["name"]})
    }
}

impl ElicitForm for Who {}

async fn ask_name(_: Value, cx: &ToolContext) -> String {
    match cx.elicit::<Who>("who", "Who are you?").await {
        Ok(Elicited::Accept(who)) => format!("hello {}", who.name),
        Ok(other) => format!("no name: {}", other.action()),
        Err(e) => format!("error: {e}"),
    }
}

async fn ask_llm(_: Value, cx: &ToolContext) -> Result<String, String> {
    let sampled = cx
        .sample(
            "capital",
            SamplingRequest::user("What is the capital of France?", 20),
        )
        .await
        .map_err(|e| e.to_string())?;
    Ok(format!("LLM said: {}", sampled.text))
}

/// Asks the client's model, and guesses when the client has none: the fallback runs on
/// every era.
async fn ask_or_guess(_: Value, cx: &ToolContext) -> Result<String, String> {
    let asked = cx
        .sample(
            "capital",
            SamplingRequest::user("What is the capital of France?", 20),
        )
        .await;
    match asked {
        Ok(sampled) => Ok(format!("LLM said: {}", sampled.text)),
        Err(AskError::Unsupported(capability)) => Ok(format!("guessed Paris (no {capability})")),
        Err(e) => Err(e.to_string()),
    }
}

async fn ask_twice(_: Value, cx: &ToolContext) -> Result<String, String> {
    let first = cx
        .confirm("first", "Step 1?")
        .await
        .map_err(|e| e.to_string())?;
    let second = cx
        .elicit::<Who>("second", "Step 2: who?")
        .await
        .map_err(|e| e.to_string())?;
    Ok(format!(
        "first {first}, second {}",
        second.accepted().map_or("-".into(), |w| w.name)
    ))
}

async fn ask_both(_: Value, cx: &ToolContext) -> Result<String, String> {
    let (a, b) = tokio::join!(cx.confirm("a", "A?"), cx.roots("b"));
    let roots = b.map_err(|e| e.to_string())?;
    Ok(format!(
        "a {}, roots {}",
        a.map_err(|e| e.to_string())?,
        roots.len()
    ))
}

/// `purge` (asks on `force`) counts its runs in `runs`.
fn package(runs: &Arc<AtomicUsize>) -> Package {
    let runs = Arc::clone(runs);
    let read = json!({"annotations": {"category": "read"}});
    Package::builder()
        .tool(
            "purge",
            tool(
                json!({"annotations": {"category": "write", "destructiveHint": true},
                        "askOnKeys": ["force"]}),
            ),
            sync_fn(move |_: Value| {
                runs.fetch_add(1, Ordering::SeqCst);
                "purged"
            }),
        )
        .tool("ask_name", tool(read.clone()), async_fn_cx(ask_name))
        .tool("ask_llm", tool(read.clone()), async_fn_cx(ask_llm))
        .tool(
            "ask_or_guess",
            tool(read.clone()),
            async_fn_cx(ask_or_guess),
        )
        .tool("ask_twice", tool(read.clone()), async_fn_cx(ask_twice))
        .tool("ask_both", tool(read), async_fn_cx(ask_both))
        .tool(
            "purge_twice",
            tool(
                json!({"annotations": {"category": "write", "destructiveHint": true},
                        "askOnKeys": ["force"]}),
            ),
            async_fn_cx(ask_name),
        )
        .build()
        .unwrap()
}

fn text(response: &Value) -> &str {
    response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
}

fn server(runs: &Arc<AtomicUsize>) -> McpServer {
    McpServer::new(package(runs), SessionContext::builder("u").build())
}

fn call(name: &str, args: Value) -> Value {
    json!({"name": name, "arguments": args})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_a_confirm_runs_the_call_a_decline_does_not() {
    let runs = Arc::default();
    let mut client = Lines::legacy(server(&runs), json!({"elicitation": {}})).await;
    let forced = call("purge", json!({"key": "k", "force": true}));
    let (asked, response) = client
        .send(
            "tools/call",
            forced.clone(),
            &|_| json!({"action": "decline"}),
        )
        .await;
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0]["method"], "elicitation/create");
    let message = asked[0]["params"]["message"].as_str().unwrap();
    assert!(
        message.contains("`purge`") && message.contains("`force`"),
        "{message}"
    );
    assert_eq!(response["result"]["isError"], true, "{response}");
    assert!(
        text(&response).contains("needs approval (it sends `force`) and was not run"),
        "{response}"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);

    let (asked, response) = client
        .send(
            "tools/call",
            forced,
            &|_| json!({"action": "accept", "content": {}}),
        )
        .await;
    assert_eq!(asked.len(), 1);
    assert_eq!(text(&response), "purged", "{response}");
    assert_eq!(runs.load(Ordering::SeqCst), 1);

    // Without the key: nobody is asked.
    let (asked, response) = client
        .send("tools/call", call("purge", json!({"key": "k"})), &|_| {
            json!({})
        })
        .await;
    assert!(asked.is_empty());
    assert_eq!(text(&response), "purged");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_a_client_without_elicitation_gets_the_refusal_and_is_asked_nothing() {
    let runs = Arc::default();
    let mut client = Lines::legacy(server(&runs), json!({})).await;
    let (asked, response) = client
        .send(
            "tools/call",
            call("purge", json!({"key": "k", "force": true})),
            &|_| json!({}),
        )
        .await;
    assert!(asked.is_empty(), "{asked:?}");
    assert_eq!(response["result"]["isError"], true);
    assert!(
        text(&response).contains("nobody could confirm it"),
        "{response}"
    );
    assert_eq!(
        response["result"]["structuredContent"]["outcome"],
        "unconfirmed"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    // The handler's own question: an error it handles.
    let (_, response) = client
        .send("tools/call", call("ask_llm", json!({})), &|_| json!({}))
        .await;
    assert_eq!(response["result"]["isError"], true);
    assert!(
        text(&response).contains("did not declare the `sampling` capability"),
        "{response}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_refuse_and_trust_ask_nobody() {
    let runs = Arc::default();
    for (policy, refused) in [
        (ApprovalPolicy::Refuse, true),
        (ApprovalPolicy::Trust, false),
    ] {
        let mut client = Lines::legacy(
            server(&runs).with_approval(policy),
            json!({"elicitation": {}}),
        )
        .await;
        let (asked, response) = client
            .send(
                "tools/call",
                call("purge", json!({"key": "k", "force": true})),
                &|_| json!({"action": "accept"}),
            )
            .await;
        assert!(asked.is_empty());
        assert_eq!(response["result"]["isError"], refused, "{response}");
    }
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_handlers_elicit_sample_and_ask_twice() {
    let runs = Arc::default();
    let mut client = Lines::legacy(
        server(&runs),
        json!({"elicitation": {}, "sampling": {}, "roots": {}}),
    )
    .await;
    let answer = |request: &Value| match request["method"].as_str() {
        Some("sampling/createMessage") => json!({"role": "assistant", "model": "m",
            "content": {"type": "text", "text": "Paris"}}),
        Some("roots/list") => json!({"roots": [{"uri": "file:///w"}]}),
        _ => json!({"action": "accept", "content": {"name": "Ada"}}),
    };
    let (asked, response) = client
        .send("tools/call", call("ask_name", json!({})), &answer)
        .await;
    assert_eq!(text(&response), "hello Ada", "{response}");
    assert_eq!(
        asked[0]["params"]["requestedSchema"],
        json!({"type": "object", "properties": {"name": {"type": "string", "minLength": 1}},
               "required": ["name"]})
    );
    let (asked, response) = client
        .send("tools/call", call("ask_llm", json!({})), &answer)
        .await;
    assert_eq!(text(&response), "LLM said: Paris", "{response}");
    assert_eq!(
        asked[0]["params"]["messages"][0]["content"]["text"],
        "What is the capital of France?"
    );
    let (asked, response) = client
        .send("tools/call", call("ask_twice", json!({})), &answer)
        .await;
    assert_eq!(text(&response), "first true, second Ada", "{response}");
    assert_eq!(asked.len(), 2);
    let (asked, response) = client
        .send("tools/call", call("ask_both", json!({})), &answer)
        .await;
    assert_eq!(text(&response), "a true, roots 1", "{response}");
    assert_eq!(asked.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_a_handlers_fallback_for_a_missing_capability_runs() {
    let runs = Arc::default();
    let mut client = Lines::legacy(server(&runs), json!({"elicitation": {}})).await;
    let (asked, response) = client
        .send("tools/call", call("ask_or_guess", json!({})), &no_requests)
        .await;
    assert!(asked.is_empty(), "nothing asked: {asked:?}");
    assert_eq!(text(&response), "guessed Paris (no sampling)", "{response}");
    let (_, response) = client
        .send("tools/call", call("ask_llm", json!({})), &no_requests)
        .await;
    assert_eq!(response["result"]["isError"], true, "{response}");
}

// ---- 2026-07-28 ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_a_handlers_fallback_for_a_missing_capability_runs() {
    let runs = Arc::default();
    let mut client = Lines::start(server(&runs));
    let (asked, response) = client
        .send(
            "tools/call",
            modern_call("ask_or_guess", json!({}), json!({"elicitation": {}})),
            &no_requests,
        )
        .await;
    assert!(asked.is_empty(), "nothing asked: {asked:?}");
    assert_eq!(
        response["result"]["resultType"], "complete",
        "the call completes, no -32021: {response}"
    );
    assert_eq!(text(&response), "guessed Paris (no sampling)", "{response}");
}

fn modern_call(name: &str, args: Value, capabilities: Value) -> Value {
    json!({"name": name, "arguments": args, "_meta": common::meta(capabilities)})
}

/// `params` retried with `responses` and the state of `previous`.
fn retry(params: &Value, previous: &Value, responses: Value) -> Value {
    let mut params = params.clone();
    params["inputResponses"] = responses;
    params["requestState"] = previous["result"]["requestState"].clone();
    params
}

/// `purge` sending `force` (it asks), from a client that declares elicitation.
fn forced_purge() -> Value {
    modern_call(
        "purge",
        json!({"key": "k", "force": true}),
        json!({"elicitation": {}}),
    )
}

/// `params` retried with the gate's confirm and the state of `previous`.
fn confirmed(params: &Value, previous: &Value) -> Value {
    retry(
        params,
        previous,
        json!({"neuralis.approval": {"action": "accept"}}),
    )
}

fn no_requests(_: &Value) -> Value {
    panic!("a 2026-07-28 server sends no requests")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_a_confirm_is_a_round_and_runs_the_call_once() {
    let runs = Arc::default();
    let mut client = Lines::start(server(&runs));
    let forced = forced_purge();
    let (_, first) = client
        .send("tools/call", forced.clone(), &no_requests)
        .await;
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    let request = &result["inputRequests"]["neuralis.approval"];
    assert_eq!(request["method"], "elicitation/create", "{first}");
    assert!(
        request["params"]["message"]
            .as_str()
            .unwrap()
            .contains("`force`")
    );
    assert!(result["requestState"].is_string());
    assert_eq!(runs.load(Ordering::SeqCst), 0);

    let declined = retry(
        &forced,
        &first,
        json!({"neuralis.approval": {"action": "decline"}}),
    );
    let (_, response) = client.send("tools/call", declined, &no_requests).await;
    assert_eq!(response["result"]["isError"], true, "{response}");
    assert_eq!(runs.load(Ordering::SeqCst), 0);

    let accepted = retry(
        &forced,
        &first,
        json!({"neuralis.approval": {"action": "accept", "content": {}}}),
    );
    let (_, response) = client
        .send("tools/call", accepted.clone(), &no_requests)
        .await;
    assert_eq!(text(&response), "purged", "{response}");
    assert_eq!(response["result"]["resultType"], "complete");
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    // The same confirmed retry again: its confirm was used, nothing runs.
    for _ in 0..2 {
        let (_, response) = client
            .send("tools/call", accepted.clone(), &no_requests)
            .await;
        assert_eq!(response["error"]["code"], -32602, "{response}");
        assert_eq!(
            response["error"]["data"]["reason"], "replayed",
            "{response}"
        );
        assert!(
            response["error"]["message"]
                .as_str()
                .unwrap()
                .contains("call the tool again"),
            "{response}"
        );
    }
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    // A new call is asked again, and its own confirm runs it.
    let (_, again) = client
        .send("tools/call", forced.clone(), &no_requests)
        .await;
    assert_eq!(again["result"]["resultType"], "input_required", "{again}");
    let (_, response) = client
        .send("tools/call", confirmed(&forced, &again), &no_requests)
        .await;
    assert_eq!(text(&response), "purged", "{response}");
    assert_eq!(runs.load(Ordering::SeqCst), 2);

    // Answered ahead, with no state: the server asks.
    let mut ahead = forced.clone();
    ahead["inputResponses"] = json!({"neuralis.approval": {"action": "accept"}});
    let (_, response) = client.send("tools/call", ahead, &no_requests).await;
    assert_eq!(response["result"]["resultType"], "input_required");
    // The state for other arguments, or altered: refused before anything runs.
    let mut other = accepted.clone();
    other["arguments"] = json!({"key": "other", "force": true});
    let (_, response) = client.send("tools/call", other, &no_requests).await;
    assert_eq!(response["error"]["code"], -32602, "{response}");
    let mut altered = accepted.clone();
    altered["requestState"] = json!(format!("{}x", accepted["requestState"].as_str().unwrap()));
    let (_, response) = client.send("tools/call", altered, &no_requests).await;
    assert_eq!(response["error"]["code"], -32602, "{response}");
    // Other arguments on the retry, invalid ones too: refused by the state, unrun.
    let mut invalid = accepted;
    invalid["arguments"] = json!({"key": 1, "force": true});
    let (_, response) = client.send("tools/call", invalid, &no_requests).await;
    assert_eq!(response["error"]["code"], -32602, "{response}");
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

/// The gate's confirm, then the handler's own question: two rounds, the second state
/// still carrying the confirm (the handler is not asked to be approved again).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_an_approved_call_that_asks_keeps_its_approval_across_rounds() {
    let runs = Arc::default();
    let mut client = Lines::start(server(&runs));
    let params = modern_call(
        "purge_twice",
        json!({"key": "k", "force": true}),
        json!({"elicitation": {}}),
    );
    let (_, first) = client
        .send("tools/call", params.clone(), &no_requests)
        .await;
    let asked = |r: &Value| {
        r["result"]["inputRequests"]
            .as_object()
            .map(|m| m.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    assert_eq!(asked(&first), ["neuralis.approval"], "{first}");
    let (_, second) = client
        .send("tools/call", confirmed(&params, &first), &no_requests)
        .await;
    assert_eq!(asked(&second), ["who"], "{second}");
    // The second round's answer alone: the state carries the confirm.
    let last = retry(
        &params,
        &second,
        json!({"who": {"action": "accept", "content": {"name": "Ada"}}}),
    );
    let (_, done) = client.send("tools/call", last.clone(), &no_requests).await;
    assert_eq!(text(&done), "hello Ada", "{done}");
    // Each state that carried the confirm lets one run: the first retry (whose run
    // asked `who`) and the last, sent again, are refused.
    let first_retry = confirmed(&params, &first);
    for replay in [first_retry, last] {
        let (_, response) = client.send("tools/call", replay, &no_requests).await;
        assert_eq!(
            response["error"]["data"]["reason"], "replayed",
            "{response}"
        );
    }
}

/// A ledger that cannot be reached.
struct Down;

impl neuralis_mcp::ConsumedStates for Down {
    fn consume<'a>(
        &'a self,
        _nonce: &'a str,
        _expires: std::time::SystemTime,
    ) -> neuralis_core::dispatch::BoxFuture<'a, Result<bool, neuralis_mcp::ConsumeError>> {
        Box::pin(async { Err("the database is down".into()) })
    }
}

/// A confirm whose use cannot be recorded runs nothing: the call fails closed, saying
/// why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_a_confirm_the_ledger_cannot_record_runs_nothing() {
    let runs = Arc::default();
    let mut client = Lines::start(server(&runs).with_consumed_states(Down));
    let forced = forced_purge();
    let (_, first) = client
        .send("tools/call", forced.clone(), &no_requests)
        .await;
    let accepted = confirmed(&forced, &first);
    let (_, response) = client.send("tools/call", accepted, &no_requests).await;
    assert_eq!(response["error"]["code"], -32603, "{response}");
    let message = response["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("did not run") && message.contains("the database is down"),
        "{message}"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

/// A state that carries no confirm (a handler's questions only) is not consumed: the
/// handler runs again from the start on every round anyway, and its answers approve
/// nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_a_handlers_answers_alone_may_be_sent_again() {
    let runs = Arc::default();
    let mut client = Lines::start(server(&runs));
    let params = modern_call("ask_name", json!({}), json!({"elicitation": {}}));
    let (_, first) = client
        .send("tools/call", params.clone(), &no_requests)
        .await;
    let answered = retry(
        &params,
        &first,
        json!({"who": {"action": "accept", "content": {"name": "Ada"}}}),
    );
    for _ in 0..2 {
        let (_, done) = client
            .send("tools/call", answered.clone(), &no_requests)
            .await;
        assert_eq!(text(&done), "hello Ada", "{done}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_without_elicitation_the_gate_refuses_and_a_handler_gets_minus_32021() {
    let runs = Arc::default();
    let mut client = Lines::start(server(&runs));
    let (_, response) = client
        .send(
            "tools/call",
            modern_call("purge", json!({"key": "k", "force": true}), json!({})),
            &no_requests,
        )
        .await;
    assert_eq!(response["result"]["isError"], true, "{response}");
    assert_eq!(
        response["result"]["structuredContent"]["outcome"],
        "unconfirmed"
    );
    let (_, response) = client
        .send(
            "tools/call",
            modern_call("ask_llm", json!({}), json!({"elicitation": {}})),
            &no_requests,
        )
        .await;
    assert_eq!(response["error"]["code"], -32021, "{response}");
    assert_eq!(
        response["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}})
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_handlers_elicit_sample_and_ask_twice_in_rounds() {
    let all = json!({"elicitation": {}, "sampling": {}, "roots": {}});
    let runs = Arc::default();
    let mut client = Lines::start(server(&runs));

    let params = modern_call("ask_name", json!({}), all.clone());
    let (_, first) = client
        .send("tools/call", params.clone(), &no_requests)
        .await;
    assert_eq!(
        first["result"]["inputRequests"]["who"]["params"]["requestedSchema"]["required"],
        json!(["name"])
    );
    let (_, done) = client
        .send(
            "tools/call",
            retry(
                &params,
                &first,
                json!({"who": {"action": "accept", "content": {"name": "Ada"}}}),
            ),
            &no_requests,
        )
        .await;
    assert_eq!(text(&done), "hello Ada", "{done}");

    let params = modern_call("ask_llm", json!({}), all.clone());
    let (_, first) = client
        .send("tools/call", params.clone(), &no_requests)
        .await;
    assert_eq!(
        first["result"]["inputRequests"]["capital"]["method"],
        "sampling/createMessage"
    );
    let sampled = json!({"capital": {"role": "assistant", "model": "m",
        "content": {"type": "text", "text": "Paris"}, "stopReason": "endTurn"}});
    let (_, done) = client
        .send("tools/call", retry(&params, &first, sampled), &no_requests)
        .await;
    assert_eq!(text(&done), "LLM said: Paris", "{done}");

    // Two questions one after the other: two rounds, each state different.
    let params = modern_call("ask_twice", json!({}), all.clone());
    let (_, first) = client
        .send("tools/call", params.clone(), &no_requests)
        .await;
    let keys = |r: &Value| {
        r["result"]["inputRequests"]
            .as_object()
            .map(|m| m.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    assert_eq!(keys(&first), ["first"]);
    let (_, second) = client
        .send(
            "tools/call",
            retry(&params, &first, json!({"first": {"action": "accept"}})),
            &no_requests,
        )
        .await;
    assert_eq!(keys(&second), ["second"], "{second}");
    assert_ne!(
        second["result"]["requestState"],
        first["result"]["requestState"]
    );
    let (_, done) = client
        .send(
            "tools/call",
            retry(
                &params,
                &second,
                json!({"second": {"action": "accept", "content": {"name": "Bo"}}}),
            ),
            &no_requests,
        )
        .await;
    assert_eq!(text(&done), "first true, second Bo", "{done}");

    // Two questions joined: one round with both.
    let params = modern_call("ask_both", json!({}), all);
    let (_, first) = client
        .send("tools/call", params.clone(), &no_requests)
        .await;
    assert_eq!(keys(&first), ["a", "b"]);
    assert_eq!(
        first["result"]["inputRequests"]["b"]["method"],
        "roots/list"
    );
    let (_, done) = client
        .send(
            "tools/call",
            retry(
                &params,
                &first,
                json!({"a": {"action": "accept"}, "b": {"roots": []}, "extra": 12}),
            ),
            &no_requests,
        )
        .await;
    assert_eq!(text(&done), "a true, roots 0", "{done}");
}

// ---- rmcp's own client, in both eras ----

#[allow(
    deprecated,
    reason = "sampling and roots are deprecated by SEP-2577, not removed: 2026-07-28 still has them"
)]
mod rmcp_client {
    use rmcp::model::{
        CallToolRequestParams, ClientCapabilities, ClientConfig, CreateMessageRequestParams,
        CreateMessageResult, ElicitRequestParams, ElicitResult, ElicitationAction, Implementation,
        ListRootsResult, ProtocolVersion, SamplingMessage,
    };
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RequestContext, RunningService};
    use rmcp::{ClientHandler, ErrorData, RoleClient};

    use super::*;

    /// A person behind rmcp's client: accepts every form with the name "Ada", answers
    /// every completion "Paris", has one root.
    #[derive(Clone)]
    struct Person;

    impl ClientHandler for Person {
        fn get_info(&self) -> ClientConfig {
            let capabilities: ClientCapabilities =
                serde_json::from_value(json!({"elicitation": {}, "sampling": {}, "roots": {}}))
                    .unwrap();
            ClientConfig::new(capabilities, Implementation::new("person", "0"))
        }

        async fn create_elicitation(
            &self,
            _request: ElicitRequestParams,
            _context: RequestContext<RoleClient>,
        ) -> Result<ElicitResult, ErrorData> {
            Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({"name": "Ada"})))
        }

        async fn create_message(
            &self,
            _params: CreateMessageRequestParams,
            _context: RequestContext<RoleClient>,
        ) -> Result<CreateMessageResult, ErrorData> {
            Ok(CreateMessageResult::new(
                SamplingMessage::assistant_text("Paris"),
                "model".into(),
            ))
        }

        async fn list_roots(
            &self,
            _context: RequestContext<RoleClient>,
        ) -> Result<ListRootsResult, ErrorData> {
            Ok(serde_json::from_value(json!({"roots": [{"uri": "file:///w"}]})).unwrap())
        }
    }

    async fn connect(
        runs: &Arc<AtomicUsize>,
        lifecycle: ClientLifecycleMode,
    ) -> RunningService<RoleClient, Person> {
        let (client, server_io) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(server_io);
        tokio::spawn(server(runs).serve_io(read, write));
        Person
            .serve_with_lifecycle(client, lifecycle)
            .await
            .expect("connects")
    }

    async fn text(client: &RunningService<RoleClient, Person>, name: &str, args: Value) -> String {
        let params = CallToolRequestParams::new(name.to_owned())
            .with_arguments(args.as_object().cloned().unwrap());
        let result = client.call_tool(params).await.expect("a result");
        let wire = serde_json::to_value(&result).unwrap();
        assert_ne!(wire["isError"], true, "{wire}");
        wire["content"][0]["text"].as_str().unwrap().to_owned()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_question_answered_by_rmcps_client_in_both_eras() {
        for (lifecycle, modern) in [
            (ClientLifecycleMode::Initialize, false),
            (
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
                true,
            ),
        ] {
            let runs = Arc::default();
            let client = connect(&runs, lifecycle.clone()).await;
            let version = client.peer_info().map(|i| i.protocol_version.clone());
            assert_eq!(
                version.is_some_and(|v| v >= ProtocolVersion::V_2026_07_28),
                modern,
                "{lifecycle:?}"
            );
            assert_eq!(text(&client, "ask_name", json!({})).await, "hello Ada");
            assert_eq!(text(&client, "ask_llm", json!({})).await, "LLM said: Paris");
            assert_eq!(
                text(&client, "ask_twice", json!({})).await,
                "first true, second Ada"
            );
            assert_eq!(
                text(&client, "ask_both", json!({})).await,
                "a true, roots 1"
            );
            assert_eq!(
                text(&client, "purge", json!({"key": "k", "force": true})).await,
                "purged"
            );
            assert_eq!(runs.load(Ordering::SeqCst), 1, "{lifecycle:?}");
            client.cancel().await.unwrap();
        }
    }
}

// ---- over stateless streamable HTTP (2026-07-28) ----

#[cfg(feature = "http")]
mod over_http {
    use http_body_util::BodyExt;
    use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;

    use super::*;

    /// The status of the answer to `params` (a `tools/call`), and its one JSON-RPC message.
    async fn post(service: &neuralis_mcp::http::HostedService, params: Value) -> (u16, Value) {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
        let response = service.handle(common::post(&body, None)).await;
        let status = response.status().as_u16();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, common::message(&bytes))
    }

    /// A round and its confirmed retry over HTTP, each request its own; a handler's
    /// question the client cannot answer is `-32021` with HTTP 400, as SEP-2575 has it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn rounds_over_stateless_http_and_minus_32021_is_a_400() {
        let runs = Arc::default();
        let config = StreamableHttpServerConfig::default()
            .with_legacy_session_mode(false)
            .with_json_response(true);
        let service = server(&runs).http_service_with(config);
        let forced = forced_purge();
        let (status, round) = post(&service, forced.clone()).await;
        assert_eq!(status, 200);
        assert_eq!(round["result"]["resultType"], "input_required", "{round}");
        assert_eq!(runs.load(Ordering::SeqCst), 0);
        let accepted = confirmed(&forced, &round);
        let (status, done) = post(&service, accepted).await;
        assert_eq!(status, 200);
        assert_eq!(text(&done), "purged", "{done}");
        assert_eq!(runs.load(Ordering::SeqCst), 1);

        let (status, missing) = post(
            &service,
            modern_call("ask_llm", json!({}), json!({"elicitation": {}})),
        )
        .await;
        assert_eq!(status, 400, "{missing}");
        assert_eq!(missing["error"]["code"], -32021, "{missing}");
        assert_eq!(
            missing["error"]["data"]["requiredCapabilities"],
            json!({"sampling": {}})
        );
    }

    /// Two stateless replicas sharing the `requestState` key and one ledger: a confirmed
    /// retry sent eight times at once, to both, runs the handler once; the other seven
    /// are refused as replayed.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_confirmed_retry_sent_at_once_to_two_replicas_runs_once() {
        let runs = Arc::default();
        let ledger = Arc::new(neuralis_mcp::MemoryConsumedStates::default());
        let key = *b"a-32-byte-key-shared-by-replicas";
        let replica = || {
            let config = StreamableHttpServerConfig::default()
                .with_legacy_session_mode(false)
                .with_json_response(true);
            server(&runs)
                .with_request_state_key(key, std::time::Duration::from_secs(60))
                .unwrap()
                .with_consumed_states(Arc::clone(&ledger))
                .http_service_with(config)
        };
        let (a, b) = (Arc::new(replica()), Arc::new(replica()));
        let forced = forced_purge();
        let (_, round) = post(&a, forced.clone()).await;
        let accepted = confirmed(&forced, &round);
        let sends = (0..8).map(|i| {
            let service = Arc::clone(if i % 2 == 0 { &a } else { &b });
            let accepted = accepted.clone();
            tokio::spawn(async move { post(&service, accepted).await.1 })
        });
        let mut done = 0;
        let mut replayed = 0;
        for send in sends.collect::<Vec<_>>() {
            let answer = send.await.unwrap();
            if text(&answer) == "purged" {
                done += 1;
            } else {
                assert_eq!(answer["error"]["data"]["reason"], "replayed", "{answer}");
                replayed += 1;
            }
        }
        assert_eq!((done, replayed), (1, 7));
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert_eq!(ledger.len(), 1);
    }
}
