//! A package composed with an rmcp handler written with rmcp's own macros
//! (`McpServer::with_handler`): the package answers its tools, the handler prompts,
//! resources, completion, subscriptions, custom methods and notifications, the
//! capabilities are the union; over stdio-like line I/O in both eras, over stateless
//! streamable HTTP on 2026-07-28 (one identity, and hosted for each request's caller),
//! and hosted in a legacy HTTP session. (The official suite drives the single-identity
//! HTTP server in both eras: tests/conformance/suite.sh.)

#![allow(clippy::unwrap_used, reason = "tests")]

use std::sync::{Arc, Mutex};

use neuralis_core::dispatch::{Package, SessionContext, sync_fn};
use neuralis_mcp::McpServer;
use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, CustomRequest, CustomResult,
    GetPromptResult, InputRequiredResult, ListResourcesResult, PaginatedRequestParams,
    PromptMessage, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, Role, ServerCapabilities, ServerConfig, SubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, prompt, prompt_handler, prompt_router};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

mod common;

const GREET: &str = r#"{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object", "additionalProperties": false, "description": "Greet someone.",
  "properties": { "name": { "type": "string" } },
  "required": ["name"],
  "x-neuralis": { "annotations": { "category": "read", "readOnlyHint": true } }
}"#;

fn package() -> Package {
    Package::builder()
        .tool(
            "greet",
            GREET,
            sync_fn(|g: Value| format!("hello, {}", g["name"].as_str().unwrap_or_default())),
        )
        .build()
        .unwrap()
}

/// What the handler saw, shared by its clones.
type Seen = Arc<Mutex<Vec<String>>>;

/// The author's handler: a prompt with `#[prompt_router]`, a resource, subscriptions,
/// completion, a custom method; it also claims a `tools` capability, which the package's
/// own overrides.
#[derive(Clone)]
struct Extras {
    prompt_router: PromptRouter<Self>,
    seen: Seen,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Topic {
    /// What to review.
    topic: String,
}

#[prompt_router]
impl Extras {
    fn new(seen: Seen) -> Self {
        Self {
            prompt_router: Self::prompt_router(),
            seen,
        }
    }

    /// Review a topic.
    #[prompt(name = "review")]
    fn review(&self, Parameters(Topic { topic }): Parameters<Topic>) -> GetPromptResult {
        GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!("Review {topic}."),
        )])
    }

    /// Ask for a name first (2026-07-28's multi-round-trip requests, rmcp's own types).
    #[prompt(name = "ask_first")]
    fn ask_first(&self) -> InputRequiredResult {
        serde_json::from_value(json!({
            "resultType": "input_required",
            "inputRequests": {"who": {"method": "elicitation/create", "params": {
                "message": "Who?", "requestedSchema": {"type": "object",
                    "properties": {"name": {"type": "string"}}}}}}
        }))
        .unwrap()
    }
}

#[prompt_handler(router = self.prompt_router)]
impl ServerHandler for Extras {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_prompts()
                .enable_resources()
                .enable_resources_subscribe()
                .enable_completions()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
        .with_instructions("Read note://today first.")
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![Resource::new(
            "note://today",
            "today",
        )]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri == "note://today" {
            Ok(ReadResourceResult::new(vec![ResourceContents::text("Rain.", request.uri)]).into())
        } else {
            Err(ErrorData::resource_not_found(
                "no such note",
                Some(json!({"uri": request.uri})),
            ))
        }
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.seen
            .lock()
            .unwrap()
            .push(format!("subscribe {}", request.uri));
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let values = ["rust", "ruby"]
            .into_iter()
            .filter(|v| v.starts_with(&request.argument.value))
            .map(str::to_owned)
            .collect();
        Ok(CompleteResult::new(CompletionInfo::new(values).unwrap()))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        if request.method == "extras/echo" {
            Ok(CustomResult::new(request.params.unwrap_or(Value::Null)))
        } else {
            Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ))
        }
    }

    async fn on_initialized(&self, _context: NotificationContext<RoleServer>) {
        self.seen.lock().unwrap().push("initialized".into());
    }
}

/// Sends `messages` to `server` over line I/O (what `serve_stdio` does) and returns the
/// answers, by request id.
async fn over_lines(server: McpServer, messages: &[Value]) -> Vec<Value> {
    let (client, end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(end);
    tokio::spawn(server.serve_io(read, write));
    let (reader, mut writer) = tokio::io::split(client);
    let mut reader = BufReader::new(reader);
    let mut answers = Vec::new();
    for message in messages {
        writer
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
        if message.get("id").is_none() {
            continue;
        }
        loop {
            let mut line = String::new();
            assert_ne!(reader.read_line(&mut line).await.unwrap(), 0, "closed");
            let answer: Value = serde_json::from_str(&line).unwrap();
            if answer.get("id") == message.get("id") {
                answers.push(answer);
                break;
            }
        }
    }
    answers
}

fn rpc(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn initialize() -> Value {
    rpc(
        0,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "test", "version": "1.0"}}),
    )
}

/// Before 2026-07-28, over stdio: each request goes to its side, the handler's answers
/// reach the client unchanged, and `initialize` declares both sides' capabilities.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_handler_answers_what_is_not_a_tool() {
    let seen = Seen::default();
    let server = McpServer::new(package(), SessionContext::builder("u").build())
        .with_handler(Extras::new(seen.clone()));
    let answers = over_lines(
        server,
        &[
            initialize(),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            rpc(1, "tools/list", json!({})),
            rpc(2, "prompts/list", json!({})),
            rpc(
                3,
                "prompts/get",
                json!({"name": "review", "arguments": {"topic": "the lock file"}}),
            ),
            rpc(4, "resources/list", json!({})),
            rpc(5, "resources/read", json!({"uri": "note://today"})),
            rpc(6, "resources/read", json!({"uri": "note://nope"})),
            rpc(7, "resources/subscribe", json!({"uri": "note://today"})),
            rpc(
                8,
                "completion/complete",
                json!({"ref": {"type": "ref/prompt", "name": "review"},
                       "argument": {"name": "topic", "value": "ru"}}),
            ),
            rpc(9, "extras/echo", json!({"x": 1})),
            rpc(10, "extras/other", json!({})),
            rpc(
                11,
                "tools/call",
                json!({"name": "greet", "arguments": {"name": "Ada"}}),
            ),
            rpc(12, "logging/setLevel", json!({"level": "info"})),
        ],
    )
    .await;
    let result = |i: usize| &answers[i]["result"];

    let init = result(0);
    assert_eq!(init["protocolVersion"], "2025-11-25");
    // The union: the package's tools (without the handler's `listChanged`) and logging,
    // the handler's prompts, resources and completions; the handler's instructions, the
    // server having none; the server's own name.
    assert_eq!(
        init["capabilities"],
        json!({"logging": {}, "completions": {}, "prompts": {},
               "resources": {"subscribe": true}, "tools": {}}),
        "{init}"
    );
    assert_eq!(init["instructions"], "Read note://today first.");
    assert_eq!(init["serverInfo"]["name"], "neuralis-package");

    let tools: Vec<&str> = result(1)["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["greet"]);
    // The legacy era gets no caching hints, from either side.
    assert!(result(1).get("ttlMs").is_none(), "{}", result(1));
    let prompts = &result(2)["prompts"];
    assert_eq!(prompts[0]["name"], "ask_first", "{prompts}");
    assert_eq!(prompts[1]["name"], "review", "{prompts}");
    assert_eq!(prompts[1]["arguments"][0]["name"], "topic");
    assert_eq!(
        result(3)["messages"][0]["content"]["text"],
        "Review the lock file."
    );
    assert_eq!(result(4)["resources"][0]["uri"], "note://today");
    assert_eq!(result(5)["contents"][0]["text"], "Rain.");
    assert_eq!(answers[6]["error"]["code"], -32002, "{}", answers[6]);
    assert_eq!(answers[6]["error"]["data"]["uri"], "note://nope");
    assert_eq!(*result(7), json!({}));
    assert_eq!(result(8)["completion"]["values"], json!(["rust", "ruby"]));
    assert_eq!(*result(9), json!({"x": 1}));
    assert_eq!(answers[10]["error"]["code"], -32601, "{}", answers[10]);
    assert_eq!(result(11)["content"][0]["text"], "hello, Ada");
    assert_eq!(*result(12), json!({}));
    assert_eq!(
        *seen.lock().unwrap(),
        ["initialized", "subscribe note://today"]
    );
}

/// A 2026-07-28 request over stdio (no `initialize`: its version and capabilities in
/// `_meta`).
fn modern(id: u64, method: &str, mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1.0"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
    });
    rpc(id, method, params)
}

/// On 2026-07-28, over stdio: `server/discover` declares the union, the handler's lists
/// carry caching hints, its prompt may answer `InputRequiredResult`, a missing resource
/// is `-32602`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_handler_answers_on_2026_07_28_over_stdio() {
    let server = McpServer::new(package(), SessionContext::builder("u").build())
        .with_handler(Extras::new(Seen::default()));
    let answers = over_lines(
        server,
        &[
            modern(1, "server/discover", json!({})),
            modern(2, "prompts/list", json!({})),
            modern(3, "prompts/get", json!({"name": "ask_first"})),
            modern(4, "resources/read", json!({"uri": "note://nope"})),
            modern(5, "tools/list", json!({})),
            modern(6, "resources/subscribe", json!({"uri": "note://today"})),
        ],
    )
    .await;
    let capabilities = &answers[0]["result"]["capabilities"];
    for key in ["tools", "logging", "prompts", "resources", "completions"] {
        assert!(capabilities.get(key).is_some(), "{key}: {}", answers[0]);
    }
    // The handler's own hints (rmcp's `#[prompt_handler]` says `public`).
    assert_eq!(
        answers[1]["result"]["cacheScope"], "public",
        "{}",
        answers[1]
    );
    assert_eq!(
        answers[2]["result"]["resultType"], "input_required",
        "{}",
        answers[2]
    );
    assert_eq!(answers[3]["error"]["code"], -32602, "{}", answers[3]);
    assert_eq!(
        answers[4]["result"]["cacheScope"], "public",
        "{}",
        answers[4]
    );
    // `resources/subscribe` is legacy-only (2026-07-28 has `subscriptions/listen`).
    assert_eq!(answers[5]["error"]["code"], -32601, "{}", answers[5]);
}

/// Without a handler, what is not a tool is `-32601`, and `initialize` declares the
/// package's capabilities only: as before composition existed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_handler_only_tools_are_served() {
    let server = McpServer::new(package(), SessionContext::builder("u").build());
    let answers = over_lines(
        server,
        &[
            initialize(),
            rpc(1, "prompts/list", json!({})),
            rpc(2, "resources/read", json!({"uri": "note://today"})),
            rpc(
                3,
                "completion/complete",
                json!({"ref": {"type": "ref/prompt", "name": "review"},
                       "argument": {"name": "topic", "value": "ru"}}),
            ),
            rpc(4, "extras/echo", json!({})),
            rpc(
                5,
                "tools/call",
                json!({"name": "greet", "arguments": {"name": "Ada"}}),
            ),
        ],
    )
    .await;
    assert_eq!(
        answers[0]["result"]["capabilities"],
        json!({"logging": {}, "tools": {}})
    );
    assert!(answers[0]["result"].get("instructions").is_none());
    for answer in &answers[1..5] {
        assert_eq!(answer["error"]["code"], -32601, "{answer}");
    }
    assert_eq!(answers[5]["result"]["content"][0]["text"], "hello, Ada");
}

#[cfg(feature = "http")]
mod over_http {
    use super::*;
    use bytes::Bytes;
    use http_body_util::{BodyExt, Full};
    use neuralis_mcp::http::{HostedService, TokenTable};
    use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;

    use super::common::{self, message};

    /// A 2026-07-28 request (no session: each carries its version and capabilities).
    fn request(
        id: u64,
        method: &str,
        params: Value,
        token: Option<&str>,
    ) -> http::Request<Full<Bytes>> {
        common::post(
            &common::rpc(id, method, params, json!({"elicitation": {}})),
            token,
        )
    }

    async fn answer(service: &HostedService, request: http::Request<Full<Bytes>>) -> (u16, Value) {
        let response = service.handle(request).await;
        let status = response.status().as_u16();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, message(&bytes))
    }

    /// 2026-07-28, stateless, one identity: `server/discover` declares the union, the
    /// handler's lists carry caching hints, an `InputRequiredResult` from a prompt goes
    /// through, a missing resource is `-32602` naming its URI.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn over_http_on_2026_07_28() {
        let seen = Seen::default();
        let service = McpServer::new(package(), SessionContext::builder("u").build())
            .with_handler(Extras::new(seen))
            .http_service_with(common::stateless());
        let (status, discovered) =
            answer(&service, request(1, "server/discover", json!({}), None)).await;
        assert_eq!(status, 200, "{discovered}");
        let capabilities = &discovered["result"]["capabilities"];
        for key in ["tools", "logging", "prompts", "resources", "completions"] {
            assert!(capabilities.get(key).is_some(), "{key}: {discovered}");
        }
        assert!(capabilities["tools"].get("listChanged").is_none());

        let (_, listed) = answer(&service, request(2, "prompts/list", json!({}), None)).await;
        assert_eq!(
            listed["result"]["prompts"][0]["name"], "ask_first",
            "{listed}"
        );
        assert!(listed["result"]["ttlMs"].is_u64(), "{listed}");
        let (_, asked) = answer(
            &service,
            request(3, "prompts/get", json!({"name": "ask_first"}), None),
        )
        .await;
        assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");
        assert_eq!(
            asked["result"]["inputRequests"]["who"]["method"],
            "elicitation/create"
        );

        let (_, read) = answer(
            &service,
            request(4, "resources/read", json!({"uri": "note://today"}), None),
        )
        .await;
        assert_eq!(read["result"]["contents"][0]["text"], "Rain.", "{read}");
        assert!(read["result"]["cacheScope"].is_string(), "{read}");
        let (_, missing) = answer(
            &service,
            request(5, "resources/read", json!({"uri": "note://nope"}), None),
        )
        .await;
        assert_eq!(missing["error"]["code"], -32602, "{missing}");
        assert_eq!(missing["error"]["data"]["uri"], "note://nope");

        let (_, called) = answer(
            &service,
            request(
                6,
                "tools/call",
                json!({"name": "greet", "arguments": {"name": "Ada"}}),
                None,
            ),
        )
        .await;
        assert_eq!(
            called["result"]["content"][0]["text"], "hello, Ada",
            "{called}"
        );
    }

    /// Hosted: the handler serves each request whose caller the resolver accepts, and
    /// nothing reaches it without one.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn hosted_with_a_handler() {
        let tokens = TokenTable::new().with("t-ada", SessionContext::builder("ada").build());
        let service = McpServer::hosted(package(), tokens)
            .with_handler(Extras::new(Seen::default()))
            .service(common::stateless());
        let get = || {
            request(
                1,
                "prompts/get",
                json!({"name": "review", "arguments": {"topic": "x"}}),
                Some("t-ada"),
            )
        };
        let (status, got) = answer(&service, get()).await;
        assert_eq!(status, 200, "{got}");
        assert_eq!(got["result"]["messages"][0]["content"]["text"], "Review x.");
        let (status, refused) = answer(&service, request(2, "prompts/list", json!({}), None)).await;
        assert_eq!(status, 401, "{refused}");
        let (_, listed) =
            answer(&service, request(3, "tools/list", json!({}), Some("t-ada"))).await;
        assert_eq!(listed["result"]["tools"][0]["name"], "greet", "{listed}");
        assert_eq!(listed["result"]["cacheScope"], "private", "{listed}");
    }

    /// Hosted, in the legacy session mode (before 2026-07-28): the handler answers in
    /// the session its caller opened, and its notifications reach it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn hosted_with_a_handler_in_a_legacy_session() {
        let seen = Seen::default();
        let tokens = TokenTable::new().with("t-ada", SessionContext::builder("ada").build());
        let config = StreamableHttpServerConfig::default()
            .with_legacy_session_mode(true)
            .with_json_response(true)
            .with_sse_keep_alive(None);
        let service = McpServer::hosted(package(), tokens)
            .with_handler(Extras::new(seen.clone()))
            .service(config);
        let legacy = |body: Value, session: Option<&str>| {
            let mut builder = http::Request::post("http://localhost/mcp")
                .header("Host", "localhost")
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2025-11-25")
                .header("Authorization", "Bearer t-ada");
            if let Some(id) = session {
                builder = builder.header("Mcp-Session-Id", id);
            }
            builder
                .body(Full::new(Bytes::from(body.to_string())))
                .unwrap()
        };
        let response = service.handle(legacy(initialize(), None)).await;
        assert_eq!(response.status(), 200);
        let session = response.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let init = message(&bytes);
        assert_eq!(
            init["result"]["capabilities"]["resources"],
            json!({"subscribe": true}),
            "{init}"
        );
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let (status, _) = answer(&service, legacy(initialized, Some(&session))).await;
        assert!(status == 202 || status == 200, "{status}");
        let get = rpc(
            1,
            "prompts/get",
            json!({"name": "review", "arguments": {"topic": "y"}}),
        );
        let (status, got) = answer(&service, legacy(get, Some(&session))).await;
        assert_eq!(status, 200, "{got}");
        assert_eq!(got["result"]["messages"][0]["content"]["text"], "Review y.");
        let subscribe = rpc(2, "resources/subscribe", json!({"uri": "note://today"}));
        let (_, subscribed) = answer(&service, legacy(subscribe, Some(&session))).await;
        assert_eq!(subscribed["result"], json!({}), "{subscribed}");
        assert_eq!(
            *seen.lock().unwrap(),
            ["initialized", "subscribe note://today"]
        );
    }
}
