//! A prompt (and a resource) of a composed handler that asks through
//! `neuralis_mcp::asking`, the asking API of tools, in both eras over stdio: before
//! 2026-07-28 an `elicitation/create` request while the prompt waits; on 2026-07-28 an
//! `InputRequiredResult` round whose sealed state the retry brings back with the answer,
//! completing over two rounds; a state altered, or one for another prompt, is refused.

#![allow(clippy::unwrap_used, reason = "tests")]

use neuralis_core::dispatch::{AskError, Capability, Elicited, Form, SessionContext};
use neuralis_mcp::McpServer;
use rmcp::model::{
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, PromptMessage,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ResourceContents, Role,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};

mod common;

/// The form that asks what to review.
fn topic() -> Form {
    Form::new(
        "What should be reviewed?",
        json!({"type": "object", "properties": {"topic": {"type": "string"}}, "required": ["topic"]}),
    )
}

/// A prompt and a resource that ask for a topic first.
#[derive(Clone)]
struct Asks;

impl ServerHandler for Asks {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let prefix = request.name.clone();
        neuralis_mcp::asking(&context, &request, |cx| async move {
            let topic = match cx.elicit_form("topic", topic()).await {
                Ok(Elicited::Accept(t)) => t["topic"].as_str().unwrap_or_default().to_owned(),
                Ok(_) => "nothing".to_owned(),
                Err(AskError::Unsupported(Capability::Elicitation)) => "the last change".to_owned(),
                Err(e) => format!("an error: {e}"),
            };
            GetPromptResult::new(vec![PromptMessage::new_text(
                Role::User,
                format!("{prefix}: review {topic}."),
            )])
        })
        .await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.clone();
        neuralis_mcp::asking(&context, &request, |cx| async move {
            let ok = cx.confirm("go", "Read the notes?").await.unwrap_or(false);
            let text = if ok { "Rain." } else { "(not read)" };
            ReadResourceResult::new(vec![ResourceContents::text(text, uri)])
        })
        .await
    }
}

fn server() -> McpServer {
    McpServer::new(common::greeter(), SessionContext::builder("u").build()).with_handler(Asks)
}

fn modern(mut params: Value, capabilities: Value) -> Value {
    params["_meta"] = common::meta(capabilities);
    params
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_that_asks_completes_over_two_rounds_on_2026_07_28() {
    let mut lines = common::Lines::start(server());
    let caps = json!({"elicitation": {"form": {}}});
    let ask = |p: Value| modern(p, caps.clone());
    let (_, first) = lines
        .send(
            "prompts/get",
            ask(json!({"name": "review"})),
            &|_| json!({}),
        )
        .await;
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    let request = &result["inputRequests"]["topic"];
    assert_eq!(request["method"], "elicitation/create", "{first}");
    assert_eq!(
        request["params"]["requestedSchema"]["properties"]["topic"]["type"],
        "string"
    );
    let state = result["requestState"].as_str().unwrap().to_owned();

    let answers = json!({"topic": accept(json!({"topic": "the lock file"}))});
    let (_, second) = lines
        .send(
            "prompts/get",
            ask(json!({"name": "review", "inputResponses": answers, "requestState": state})),
            &|_| json!({}),
        )
        .await;
    assert_eq!(
        second["result"]["messages"][0]["content"]["text"], "review: review the lock file.",
        "{second}"
    );

    // The state is bound to the prompt and its arguments, and sealed.
    let (_, other) = lines
        .send(
            "prompts/get",
            ask(json!({"name": "audit", "inputResponses": answers, "requestState": state})),
            &|_| json!({}),
        )
        .await;
    assert_eq!(other["error"]["code"], -32602, "{other}");
    let mut altered = state.clone();
    altered.insert(altered.len() / 2, 'x');
    let (_, altered) = lines
        .send(
            "prompts/get",
            ask(json!({"name": "review", "inputResponses": answers, "requestState": altered})),
            &|_| json!({}),
        )
        .await;
    assert_eq!(altered["error"]["code"], -32602, "{altered}");

    // A client without `elicitation`: the prompt's fallback runs, one round.
    let (_, fallback) = lines
        .send(
            "prompts/get",
            modern(json!({"name": "review"}), json!({})),
            &|_| json!({}),
        )
        .await;
    assert_eq!(
        fallback["result"]["messages"][0]["content"]["text"], "review: review the last change.",
        "{fallback}"
    );

    // A resource asks the same way.
    let (_, first) = lines
        .send(
            "resources/read",
            ask(json!({"uri": "note://today"})),
            &|_| json!({}),
        )
        .await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let state = first["result"]["requestState"].as_str().unwrap().to_owned();
    let (_, second) = lines
        .send(
            "resources/read",
            ask(json!({"uri": "note://today", "requestState": state,
                       "inputResponses": {"go": accept(json!({}))}})),
            &|_| json!({}),
        )
        .await;
    assert_eq!(second["result"]["contents"][0]["text"], "Rain.", "{second}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_asks_the_client_before_2026_07_28() {
    let mut lines = common::Lines::legacy(server(), json!({"elicitation": {}})).await;
    let (asked, answer) = lines
        .send("prompts/get", json!({"name": "review"}), &|request| {
            assert_eq!(request["method"], "elicitation/create");
            accept(json!({"topic": "the lock file"}))
        })
        .await;
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(
        answer["result"]["messages"][0]["content"]["text"], "review: review the lock file.",
        "{answer}"
    );
}

/// A handler that takes subscriptions to its resource (2026-07-28's `subscriptions/listen`,
/// which rmcp serves from the filter the handler accepts).
#[derive(Clone)]
struct Watches;

impl ServerHandler for Watches {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_resources()
                .enable_resources_subscribe()
                .build(),
        )
    }

    fn accepted_subscription_filter(
        &self,
        requested: &rmcp::model::SubscriptionFilter,
    ) -> Option<rmcp::model::SubscriptionFilter> {
        let mut accepted = rmcp::model::SubscriptionFilter::new();
        accepted.resource_subscriptions = requested.resource_subscriptions.as_ref().map(|uris| {
            uris.iter()
                .filter(|u| *u == "note://today")
                .cloned()
                .collect()
        });
        Some(accepted)
    }
}

/// `subscriptions/listen` through the server: acknowledged with the filter the handler
/// accepts (its own resources only).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscriptions_listen_is_the_handlers() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

    let server = McpServer::new(common::greeter(), SessionContext::builder("u").build())
        .with_handler(Watches);
    let mut lines = common::Lines::start(server);
    let listen = json!({"jsonrpc": "2.0", "id": 7, "method": "subscriptions/listen",
        "params": modern(json!({"notifications": {"resourceSubscriptions": ["note://today", "note://other"]}}), json!({}))});
    lines.write(listen).await;
    let acknowledged = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        loop {
            let mut line = String::new();
            assert_ne!(
                lines.reader.read_line(&mut line).await.unwrap(),
                0,
                "closed"
            );
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["method"] == "notifications/subscriptions/acknowledged" {
                return message;
            }
        }
    })
    .await
    .expect("acknowledged within 10 s");
    assert_eq!(
        acknowledged["params"]["notifications"],
        json!({"resourceSubscriptions": ["note://today"]}),
        "{acknowledged}"
    );
    lines.writer.shutdown().await.unwrap();
}
