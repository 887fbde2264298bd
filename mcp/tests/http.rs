//! Streamable HTTP (feature `http`): the tower service answers `tools/list` and
//! `tools/call` for the host's session, statelessly, in JSON; hosted, for each request's
//! own caller (tokens, `401` challenges, legacy sessions bound to their owner).

#![allow(clippy::unwrap_used, reason = "tests")]

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use neuralis_core::dispatch::SessionContext;
use neuralis_mcp::McpServer;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use serde_json::{Value, json};

mod common;

fn request(id: u64, method: &str, params: Value) -> http::Request<Full<Bytes>> {
    common::post(&common::rpc(id, method, params, json!({})), None)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_and_calls_over_http() {
    let package = common::greeter();
    let config = common::stateless();
    let service =
        McpServer::new(package, SessionContext::builder("u-1").build()).http_service_with(config);

    let send = |req| {
        let service = service.clone();
        async move {
            let response = service.handle(req).await;
            assert_eq!(response.status(), 200);
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            serde_json::from_slice::<Value>(&bytes).unwrap()
        }
    };

    let listed = send(request(1, "tools/list", json!({}))).await;
    // SEP-2549: one identity and no tool gated by a feature, so every caller gets this
    // list: `public`, fresh for the default five minutes.
    assert_eq!(listed["result"]["cacheScope"], "public", "{listed}");
    assert_eq!(listed["result"]["ttlMs"], 300_000, "{listed}");
    let tool = &listed["result"]["tools"][0];
    assert_eq!(tool["name"], "greet", "{listed}");
    assert_eq!(tool["annotations"]["readOnlyHint"], true);
    assert_eq!(tool["annotations"]["openWorldHint"], false);
    assert!(tool["inputSchema"].get("x-neuralis").is_none());

    let called = send(request(
        2,
        "tools/call",
        json!({"name": "greet", "arguments": {"name": "Ada"}}),
    ))
    .await;
    assert_eq!(
        called["result"]["content"][0]["text"], "hello, Ada",
        "{called}"
    );

    let bad = send(request(
        3,
        "tools/call",
        json!({"name": "greet", "arguments": {"name": ""}}),
    ))
    .await;
    assert_eq!(bad["result"]["isError"], true, "{bad}");
}

/// Two tools: one anyone may call, one that needs the `admin.write` grant.
fn hosted() -> neuralis_mcp::http::HostedService {
    use neuralis_mcp::http::{ProtectedResource, TokenTable};
    let package = common::greet_and_purge();
    let tokens = TokenTable::new()
        .with(
            "token-admin",
            SessionContext::builder("ada").grant("admin.write").build(),
        )
        .with("token-guest", SessionContext::builder("bob").build());
    let config = common::stateless();
    McpServer::hosted(package, tokens)
        .with_protected_resource(ProtectedResource::new("http://localhost/mcp"))
        .service(config)
}

fn with_token(mut request: http::Request<Full<Bytes>>, auth: &str) -> http::Request<Full<Bytes>> {
    request
        .headers_mut()
        .insert("Authorization", auth.parse().unwrap());
    request
}

async fn answer(
    service: &neuralis_mcp::http::HostedService,
    request: http::Request<Full<Bytes>>,
) -> (u16, http::HeaderMap, Value) {
    let response = service.handle(request).await;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes);
    // JSON, or a server-sent event stream whose `data:` lines carry the messages.
    let body = serde_json::from_str(&text).unwrap_or_else(|_| {
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .find(|m| m.get("id").is_some())
            .unwrap_or(Value::Null)
    });
    (status, headers, body)
}

fn names(listed: &Value) -> Vec<String> {
    listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Each request's caller is its own: two tokens with different grants see different
/// lists from one deployment, and a call of a tool the caller is not granted gets the
/// generic refusal an unknown tool gets.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_caller_sees_its_own_tools() {
    let service = hosted();
    let list = || request(1, "tools/list", json!({}));
    let (status, _, admin) = answer(&service, with_token(list(), "Bearer token-admin")).await;
    assert_eq!(status, 200, "{admin}");
    assert_eq!(names(&admin), ["greet", "purge"]);
    let (_, _, guest) = answer(&service, with_token(list(), "Bearer token-guest")).await;
    assert_eq!(names(&guest), ["greet"]);
    // Lists filtered for their caller: no shared cache may hand one to another.
    for listed in [&admin, &guest] {
        assert_eq!(listed["result"]["cacheScope"], "private", "{listed}");
        assert_eq!(listed["result"]["ttlMs"], 300_000, "{listed}");
    }
    // The same list, in the same order, on every request.
    let (_, _, again) = answer(&service, with_token(list(), "Bearer token-admin")).await;
    assert_eq!(again["result"], admin["result"]);

    let purge = || request(2, "tools/call", json!({"name": "purge", "arguments": {}}));
    let (_, _, refused) = answer(&service, with_token(purge(), "Bearer token-guest")).await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let unknown = || request(3, "tools/call", json!({"name": "nope", "arguments": {}}));
    let (_, _, missing) = answer(&service, with_token(unknown(), "Bearer token-guest")).await;
    assert_eq!(missing["result"]["isError"], true, "{missing}");
    assert_eq!(
        refused["result"]["content"][0]["text"]
            .as_str()
            .map(|t| t.replace("purge", "nope")),
        missing["result"]["content"][0]["text"]
            .as_str()
            .map(str::to_owned),
        "not granted and unknown read the same"
    );
    let (_, _, done) = answer(&service, with_token(purge(), "Bearer token-admin")).await;
    assert_eq!(done["result"]["content"][0]["text"], "purged", "{done}");
}

/// No token, an unknown token, another scheme: `401` with a Bearer challenge naming the
/// metadata document, before any MCP processing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_without_a_valid_token_is_401_and_runs_nothing() {
    let service = hosted();
    let call = || {
        request(
            1,
            "tools/call",
            json!({"name": "greet", "arguments": {"name": "Ada"}}),
        )
    };
    let metadata =
        "resource_metadata=\"http://localhost/.well-known/oauth-protected-resource/mcp\"";
    let (status, headers, body) = answer(&service, call()).await;
    assert_eq!(status, 401, "{body}");
    let challenge = headers["www-authenticate"].to_str().unwrap();
    assert_eq!(challenge, format!("Bearer {metadata}"));
    assert!(body.get("result").is_none(), "{body}");
    for (auth, error) in [
        ("Bearer not-a-token", "invalid_token"),
        ("Basic YWRhOnNlY3JldA==", "invalid_request"),
        ("Bearer", "invalid_request"),
    ] {
        let (status, headers, body) = answer(&service, with_token(call(), auth)).await;
        assert_eq!(status, 401, "{auth}: {body}");
        let challenge = headers["www-authenticate"].to_str().unwrap();
        assert_eq!(challenge, format!("Bearer {metadata}, error=\"{error}\""));
    }
}

/// The legacy session mode: a session opened by one caller cannot be used with another
/// caller's token (a session id is not a credential); its owner goes on using it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_session_belongs_to_who_opened_it() {
    use neuralis_mcp::http::TokenTable;
    let package = common::greeter();
    let tokens = TokenTable::new()
        .with("token-a", SessionContext::builder("ada").build())
        .with("token-b", SessionContext::builder("bob").build());
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(true)
        .with_json_response(true)
        .with_sse_keep_alive(None);
    let service = McpServer::hosted(package, tokens).service(config);

    let legacy =
        |body: Value, session: Option<&str>, token: &str| legacy_post(token, session, &body);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1.0"}}});
    let (status, headers, body) = answer(&service, legacy(init, None, "token-a")).await;
    assert_eq!(status, 200, "{body}");
    let session = headers["mcp-session-id"].to_str().unwrap().to_owned();
    assert_eq!(service.open_sessions(), 1);
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let (status, _, _) = answer(&service, legacy(initialized, Some(&session), "token-a")).await;
    assert!(status == 202 || status == 200, "{status}");

    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let (status, _, body) = answer(&service, legacy(list.clone(), Some(&session), "token-b")).await;
    assert_eq!(
        status, 403,
        "another caller's token on ada's session: {body}"
    );
    assert!(body.get("result").is_none(), "{body}");
    let (status, _, body) = answer(&service, legacy(list, Some(&session), "token-a")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(names(&body), ["greet"]);

    // Ending the session: only its owner may, and it is `204`.
    let delete = |token: &str| {
        http::Request::delete("http://localhost/mcp")
            .header("Host", "localhost")
            .header("MCP-Protocol-Version", "2025-06-18")
            .header("Mcp-Session-Id", session.as_str())
            .header("Authorization", format!("Bearer {token}"))
            .body(Full::new(Bytes::new()))
            .unwrap()
    };
    let (status, _, _) = answer(&service, delete("token-b")).await;
    assert_eq!(status, 403);
    assert_eq!(service.open_sessions(), 1);
    let (status, _, _) = answer(&service, delete("token-a")).await;
    assert_eq!(status, 204);
    assert_eq!(service.open_sessions(), 0);
}

/// JWT bearer tokens (feature `jwt`): HS256 and RS256 accepted with the user and grants
/// read from their claims; expired, not yet valid, wrongly signed, from another issuer
/// or for another audience: `401`, `error="invalid_token"`, nothing runs.
#[cfg(feature = "jwt")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jwt_bearer_tokens() {
    use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
    use neuralis_mcp::http::JwtResolver;

    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let package = || common::greet_and_purge();
    let config = common::stateless;
    let list = |token: &str| {
        with_token(
            request(1, "tools/list", json!({})),
            &format!("Bearer {token}"),
        )
    };

    let secret = b"a shared secret of some length";
    let hs = McpServer::hosted(
        package(),
        JwtResolver::hs256(secret)
            .unwrap()
            .issuer("https://auth.test")
            .audience("https://tools.test/mcp")
            .grants_claim("features"),
    )
    .service(config());
    let sign = |claims: Value| {
        encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &EncodingKey::from_secret(secret).unwrap(),
        )
        .unwrap()
    };
    let good = json!({"sub": "ada", "features": ["admin.write"], "iss": "https://auth.test",
        "aud": "https://tools.test/mcp", "exp": now + 600});
    let (status, _, body) = answer(&hs, list(&sign(good.clone()))).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        names(&body),
        ["greet", "purge"],
        "the grants come from the claim"
    );

    let mut bad = Vec::new();
    let mut expired = good.clone();
    expired["exp"] = json!(now - 3600);
    bad.push(("expired", sign(expired)));
    let mut early = good.clone();
    early["nbf"] = json!(now + 3600);
    bad.push(("not yet valid", sign(early)));
    let mut issuer = good.clone();
    issuer["iss"] = json!("https://elsewhere.test");
    bad.push(("another issuer", sign(issuer)));
    let mut audience = good.clone();
    audience["aud"] = json!("https://other.test/mcp");
    bad.push(("another audience", sign(audience)));
    let mut no_user = good.clone();
    no_user.as_object_mut().unwrap().remove("sub");
    bad.push(("no user", sign(no_user)));
    let forged = encode(
        &Header::new(Algorithm::HS256),
        &good,
        &EncodingKey::from_secret(b"another secret").unwrap(),
    )
    .unwrap();
    bad.push(("wrongly signed", forged));
    bad.push(("not a JWT", "abc.def.ghi".to_owned()));
    for (what, token) in bad {
        let (status, headers, body) = answer(&hs, list(&token)).await;
        assert_eq!(status, 401, "{what}: {body}");
        let challenge = headers["www-authenticate"].to_str().unwrap();
        assert_eq!(challenge, "Bearer, error=\"invalid_token\"", "{what}");
        assert!(body.get("result").is_none(), "{what}: {body}");
    }

    // No `.audience`: the protected resource the server publishes is the audience.
    let rs = McpServer::hosted(
        package(),
        JwtResolver::rs256_pem(include_bytes!("fixtures/rs256-public.pem")).unwrap(),
    )
    .with_protected_resource(neuralis_mcp::http::ProtectedResource::new(
        "https://tools.test/mcp",
    ))
    .service(config());
    let rs_sign = |pem: &[u8]| {
        encode(
            &Header::new(Algorithm::RS256),
            &json!({"sub": "bob", "scope": "", "aud": "https://tools.test/mcp", "exp": now + 600}),
            &EncodingKey::from_rsa_pem(pem).unwrap(),
        )
        .unwrap()
    };
    let token = rs_sign(include_bytes!("fixtures/rs256-private.pem"));
    let (status, _, body) = answer(&rs, list(&token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(names(&body), ["greet"]);
    let token = rs_sign(include_bytes!("fixtures/rs256-other-private.pem"));
    let (status, _, _) = answer(&rs, list(&token)).await;
    assert_eq!(status, 401, "signed by another key");
    // An HS256 token presented to an RS256 server (algorithm confusion): refused.
    let (status, _, _) = answer(&rs, list(&sign(good))).await;
    assert_eq!(status, 401, "another algorithm");
}

/// Legacy sessions are bounded: past its cap a caller's `initialize` runs nothing and is
/// a JSON-RPC error (`429`) saying what to do, while another caller opens one; a session
/// ended makes room; past the total, `503`; an idle session expires and is forgotten.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_sessions_are_capped_per_caller_and_in_all_and_expire() {
    use neuralis_mcp::http::{SessionLimits, TokenTable};
    let tokens = TokenTable::new()
        .with("token-a", SessionContext::builder("ada").build())
        .with("token-b", SessionContext::builder("bob").build())
        .with("token-c", SessionContext::builder("cy").build());
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(true)
        .with_json_response(true)
        .with_sse_keep_alive(None);
    let limits = SessionLimits::default()
        .with_per_caller(Some(2))
        .with_total(Some(3))
        .with_idle(std::time::Duration::from_millis(600));
    let service = McpServer::hosted(common::greeter(), tokens)
        .with_session_limits(limits)
        .service(config);
    let post = |token: &str, session: Option<&str>, body: Value| legacy_post(token, session, &body);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1.0"}}});
    let open = |token: &'static str| {
        let (service, init) = (service.clone(), init.clone());
        async move {
            let (status, headers, body) = answer(&service, post(token, None, init)).await;
            let id = headers
                .get("mcp-session-id")
                .map(|v| v.to_str().unwrap().to_owned());
            (status, id, body)
        }
    };
    let (s1, a1, _) = open("token-a").await;
    let (s2, _, _) = open("token-a").await;
    assert_eq!((s1, s2), (200, 200));
    let (status, id, body) = open("token-a").await;
    assert_eq!(status, 429, "{body}");
    assert!(id.is_none(), "no session opened");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("holds 2") && message.contains("DELETE"),
        "{message}"
    );
    // Another caller is not held back by ada's.
    let (status, _, body) = open("token-b").await;
    assert_eq!(status, 200, "{body}");
    // Three open: the total.
    let (status, _, body) = open("token-c").await;
    assert_eq!(status, 503, "{body}");
    // Ending one of ada's makes room.
    let a1 = a1.unwrap();
    let delete = http::Request::delete("http://localhost/mcp")
        .header("Host", "localhost")
        .header("MCP-Protocol-Version", "2025-06-18")
        .header("Mcp-Session-Id", a1.as_str())
        .header("Authorization", "Bearer token-a")
        .body(Full::new(Bytes::new()))
        .unwrap();
    assert_eq!(answer(&service, delete).await.0, 204);
    let (status, _, body) = open("token-c").await;
    assert_eq!(status, 200, "{body}");
    // Idle past 600 ms, every session expires and is forgotten: room for all again.
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    for token in ["token-a", "token-a", "token-b"] {
        let (status, _, body) = open(token).await;
        assert_eq!(status, 200, "{token}: {body}");
    }
}

/// A 2025-06-18 (session) POST of `body` for the bearer `token`, in `session` once open.
fn legacy_post(token: &str, session: Option<&str>, body: &Value) -> http::Request<Full<Bytes>> {
    let mut builder = http::Request::post("http://localhost/mcp")
        .header("Host", "localhost")
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2025-06-18")
        .header("Authorization", format!("Bearer {token}"));
    if let Some(id) = session {
        builder = builder.header("Mcp-Session-Id", id);
    }
    builder
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap()
}

/// A package of one tool, `reconnect`, that closes its call's event stream (retry
/// 200 ms) and returns at once, saying whether there was a stream to close.
fn reconnecting() -> neuralis_core::dispatch::Package {
    let schema = r#"{"type": "object", "additionalProperties": false, "properties": {},
        "x-neuralis": {"annotations": {"category": "read", "readOnlyHint": true}}}"#;
    let close = |_: Value| async {
        let closed =
            neuralis_mcp::http::close_call_stream(Some(std::time::Duration::from_millis(200)))
                .await;
        format!("closed: {closed}")
    };
    neuralis_core::dispatch::Package::builder()
        .tool(
            "reconnect",
            schema,
            neuralis_core::dispatch::async_fn(close),
        )
        .build()
        .unwrap()
}

/// One server-sent event as it came over the wire: its `id`, `retry` and `data` fields.
#[derive(Debug, Default)]
struct Event {
    id: Option<String>,
    retry: Option<String>,
    data: String,
}

/// The events of an event stream's text.
fn events(text: &str) -> Vec<Event> {
    text.replace("\r\n", "\n")
        .split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let mut event = Event::default();
            for line in block.lines() {
                let (field, value) = line.split_once(':').unwrap_or((line, ""));
                let value = value.strip_prefix(' ').unwrap_or(value).to_owned();
                match field {
                    "id" => event.id = Some(value),
                    "retry" => event.retry = Some(value),
                    "data" => event.data.push_str(&value),
                    _ => {}
                }
            }
            event
        })
        .collect()
}

/// The whole body of `response`, read as it arrives; panics past 5 s (a stream that
/// does not end).
async fn to_end(mut response: reqwest::Response) -> String {
    let mut text = String::new();
    let read = async {
        while let Some(chunk) = response.chunk().await.unwrap() {
            text.push_str(&String::from_utf8_lossy(&chunk));
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(5), read)
        .await
        .expect("the stream ends within 5 s");
    text
}

/// SEP-1699 on the wire, a server on 127.0.0.1: a legacy session's `tools/call` of a
/// tool that closes its stream gets a priming event (an id, no data) first and a
/// `retry:`, and its `POST` stream ends without the result; 300 ms later (the call
/// returned long before) a `GET` with the `Last-Event-ID` it saw delivers the result.
/// The same tool on a stateless request has no stream to close.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_closes_its_stream_is_resumed_with_last_event_id() {
    use std::time::Duration;
    let session = SessionContext::builder("ada").build();
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(true)
        .with_sse_retry(Some(Duration::from_millis(1500)))
        .with_sse_keep_alive(None);
    let service = McpServer::new(reconnecting(), session.clone()).http_service_with(config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(neuralis_mcp::listen::serve(
        listener,
        service,
        neuralis_mcp::listen::ConnectionLimits::default(),
        std::sync::Arc::default(),
        async move {
            let _ = stopped.await;
        },
    ));

    let run = async {
        let client = reqwest::Client::new();
        let post = |body: Value, session: Option<&str>| {
            let mut request = client
                .post(&url)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2025-11-25")
                .body(body.to_string());
            if let Some(id) = session {
                request = request.header("Mcp-Session-Id", id);
            }
            request.send()
        };
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1.0"}}});
        let response = post(init, None).await.unwrap();
        assert_eq!(response.status(), 200);
        let id = response.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let response = post(initialized, Some(&id)).await.unwrap();
        assert!(response.status().is_success(), "{}", response.status());

        let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "reconnect", "arguments": {}}});
        let response = post(call, Some(&id)).await.unwrap();
        assert_eq!(response.status(), 200);
        let content_type = response.headers()["content-type"].to_str().unwrap();
        assert!(
            content_type.starts_with("text/event-stream"),
            "{content_type}"
        );
        let text = to_end(response).await;
        let posted = events(&text);
        let first = posted.first().expect("an event");
        assert!(
            first.id.is_some() && first.data.is_empty(),
            "a priming event first: {text:?}"
        );
        assert!(
            posted.iter().any(|e| e.retry.is_some()),
            "a retry: {text:?}"
        );
        assert_eq!(
            posted.last().and_then(|e| e.retry.as_deref()),
            Some("200"),
            "the closing event says when to come back: {text:?}"
        );
        assert!(
            posted.iter().all(|e| !e.data.contains("result")),
            "no result on the closed stream: {text:?}"
        );
        let last = posted
            .iter()
            .rev()
            .find_map(|e| e.id.clone())
            .expect("an event id");

        tokio::time::sleep(Duration::from_millis(300)).await;
        let response = client
            .get(&url)
            .header("Accept", "text/event-stream")
            .header("MCP-Protocol-Version", "2025-11-25")
            .header("Mcp-Session-Id", &id)
            .header("Last-Event-ID", &last)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let text = to_end(response).await;
        let result = events(&text)
            .iter()
            .filter_map(|e| serde_json::from_str::<Value>(&e.data).ok())
            .find(|m| m["id"] == 2)
            .unwrap_or_else(|| panic!("the result on the resumed stream: {text:?}"));
        assert_eq!(
            result["result"]["content"][0]["text"], "closed: true",
            "{result}"
        );
    };
    tokio::time::timeout(Duration::from_secs(20), run)
        .await
        .expect("within 20 s");
    let _ = stop.send(());
    let _ = server.await;

    // Stateless (2026-07-28): no stream to close; the call answers as ever.
    let service = McpServer::new(reconnecting(), session).http_service_with(common::stateless());
    let call = request(
        2,
        "tools/call",
        json!({"name": "reconnect", "arguments": {}}),
    );
    let (status, _, answered) = answer(&service, call).await;
    assert_eq!(status, 200, "{answered}");
    assert_eq!(
        answered["result"]["content"][0]["text"], "closed: false",
        "{answered}"
    );
}
