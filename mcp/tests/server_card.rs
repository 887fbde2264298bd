//! The Server Card (SEP-2127) a hosted server publishes at `<endpoint>/server-card`, read
//! over HTTP from a server on 127.0.0.1 with the endpoint nested at `/mcp`, as a host's
//! router mounts it: without credentials while the endpoint needs a token, with its
//! media type, a strong `ETag` and `304`, CORS for any page, the endpoint's own `Host` and
//! `Origin` checks, and the content of the package and the hosting configuration,
//! valid against the pinned v1 schema.

#![allow(clippy::unwrap_used, reason = "tests")]

use neuralis_core::dispatch::SessionContext;
use neuralis_mcp::McpServer;
use neuralis_mcp::http::{
    HostedService, ProtectedResource, ServerCard, StreamableHttpServerConfig, TokenTable,
};
use serde_json::{Value, json};

mod common;

/// The v1 card schema, vendored (see `fixtures/README.md`), and its sha256.
const CARD_SCHEMA: &str = include_str!("fixtures/server-card.schema.json");
const CARD_SCHEMA_SHA256: &str = "2c772b51edb367f154771d84ddbae87ddba00a624422c8e46f218a9ac03bf042";

/// The card's schema: the vendored file's `$defs/ServerCard`, once its bytes are the
/// pinned ones.
fn card_validator() -> jsonschema::Validator {
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(CARD_SCHEMA.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, CARD_SCHEMA_SHA256, "the vendored card schema changed");
    let schema: Value = serde_json::from_str(CARD_SCHEMA).unwrap();
    let root = json!({
        "$schema": schema["$schema"],
        "$ref": "#/$defs/ServerCard",
        "$defs": schema["$defs"],
    });
    jsonschema::validator_for(&root).unwrap()
}

fn assert_valid_card(card: &Value) {
    let validator = card_validator();
    let errors: Vec<String> = validator
        .iter_errors(card)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{card:#}");
}

/// The card of the tests' server.
fn card() -> ServerCard {
    ServerCard::new(
        "io.github.acme/greeter",
        "Greets people and purges what admins ask",
    )
    .title("Greeter")
    .website_url("https://acme.example/greeter")
    .repository("https://github.com/acme/greeter", "github")
}

/// A hosted server (a bearer token per caller) publishing `card`, behind the
/// protected-resource metadata of `https://tools.acme.example/mcp`, in the legacy session
/// mode (every protocol version), for `Host: 127.0.0.1:<port>`.
fn hosted(card: Option<ServerCard>, port: u16) -> HostedService {
    let tokens = TokenTable::new().with("token-ada", SessionContext::builder("ada").build());
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(true)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_allowed_hosts([format!("127.0.0.1:{port}")])
        .with_allowed_origins([format!("http://127.0.0.1:{port}")]);
    let mut hosted = McpServer::hosted(common::greet_and_purge(), tokens)
        .with_server_info("greeter", "1.4.2")
        .with_protected_resource(ProtectedResource::new("https://tools.acme.example/mcp"));
    if let Some(card) = card {
        hosted = hosted.with_server_card(card).unwrap();
    }
    hosted.service(config)
}

/// Serves `make(port)` nested at `/mcp` on 127.0.0.1, runs `check` with the base URL.
async fn with_server<F, Fut>(make: impl FnOnce(u16) -> HostedService, check: F)
where
    F: FnOnce(String) -> Fut,
    Fut: Future<Output = ()>,
{
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = axum::Router::new().nest_service("/mcp", make(addr.port()));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(neuralis_mcp::listen::serve(
        listener,
        router,
        neuralis_mcp::listen::ConnectionLimits::default(),
        std::sync::Arc::default(),
        async move {
            let _ = stopped.await;
        },
    ));
    check(format!("http://{addr}")).await;
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_card_is_served_without_credentials_with_etag_304_and_cors() {
    with_server(
        |port| hosted(Some(card()), port),
        |base| async move {
            let client = reqwest::Client::new();
            let url = format!("{base}/mcp/server-card");

            // The endpoint needs a token; the card does not.
            let endpoint = client
                .post(format!("{base}/mcp"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .body(json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}).to_string())
                .send()
                .await
                .unwrap();
            assert_eq!(endpoint.status(), 401);

            let response = client
                .get(&url)
                .header("Accept", ServerCard::MEDIA_TYPE)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 200);
            let headers = response.headers().clone();
            assert_eq!(headers["content-type"], "application/mcp-server-card+json");
            assert_eq!(headers["access-control-allow-origin"], "*");
            assert!(
                headers["access-control-expose-headers"]
                    .to_str()
                    .unwrap()
                    .contains("ETag")
            );
            assert_eq!(headers["cache-control"], "public, max-age=3600");
            let etag = headers["etag"].to_str().unwrap().to_owned();
            assert!(
                etag.starts_with('"') && etag.ends_with('"') && etag.len() > 2,
                "a strong entity tag: {etag}"
            );
            let card: Value = response.json().await.unwrap();
            assert_valid_card(&card);

            // Revalidation: the same tag (strong or weak, alone or in a list) is `304`
            // with no body; another is the card again.
            for tag in [
                etag.clone(),
                format!("W/{etag}"),
                format!("\"other\", {etag}"),
            ] {
                let again = client
                    .get(&url)
                    .header("If-None-Match", tag.as_str())
                    .send()
                    .await
                    .unwrap();
                assert_eq!(again.status(), 304, "{tag}");
                assert_eq!(again.headers()["etag"], etag.as_str());
                assert_eq!(again.headers()["access-control-allow-origin"], "*");
                assert!(again.bytes().await.unwrap().is_empty());
            }
            let changed = client
                .get(&url)
                .header("If-None-Match", "\"other\"")
                .send()
                .await
                .unwrap();
            assert_eq!(changed.status(), 200);
            assert_eq!(changed.json::<Value>().await.unwrap(), card);

            // A browser's preflight (If-None-Match is no simple header).
            let preflight = client
                .request(reqwest::Method::OPTIONS, &url)
                .header("Origin", base.as_str())
                .header("Access-Control-Request-Method", "GET")
                .header("Access-Control-Request-Headers", "if-none-match")
                .send()
                .await
                .unwrap();
            assert_eq!(preflight.status(), 204);
            assert_eq!(preflight.headers()["access-control-allow-origin"], "*");
            assert!(
                preflight.headers()["access-control-allow-headers"]
                    .to_str()
                    .unwrap()
                    .contains("If-None-Match")
            );

            // HEAD: the headers alone.
            let head = client.head(&url).send().await.unwrap();
            assert_eq!(head.status(), 200);
            assert_eq!(head.headers()["etag"], etag.as_str());

            // The card is read, not written.
            let post = client.post(&url).body("{}").send().await.unwrap();
            assert_eq!(post.status(), 405);
            assert_eq!(post.headers()["allow"], "GET, HEAD, OPTIONS");
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_card_says_what_initialize_and_the_hosting_configuration_say() {
    with_server(
        |port| hosted(Some(card()), port),
        |base| async move {
            let client = reqwest::Client::new();
            let card: Value = client
                .get(format!("{base}/mcp/server-card"))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            assert_eq!(
                card,
                json!({
                    "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
                    "name": "io.github.acme/greeter",
                    "version": "1.4.2",
                    "description": "Greets people and purges what admins ask",
                    "title": "Greeter",
                    "websiteUrl": "https://acme.example/greeter",
                    "repository": {"url": "https://github.com/acme/greeter", "source": "github"},
                    "remotes": [{
                        "type": "streamable-http",
                        "url": "https://tools.acme.example/mcp",
                        "supportedProtocolVersions": [
                            "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"
                        ],
                        "headers": [{
                            "name": "Authorization",
                            "description": "Bearer token: `Bearer <token>`, from an authorization server this resource's metadata names (https://tools.acme.example/.well-known/oauth-protected-resource/mcp)",
                            "isRequired": true,
                            "isSecret": true,
                        }],
                        "authentication": {
                            "required": true,
                            "schemes": ["bearer", "oauth2"],
                            "resourceMetadata": "https://tools.acme.example/.well-known/oauth-protected-resource/mcp",
                        },
                    }],
                })
            );
            assert!(card.get("tools").is_none() && card.get("prompts").is_none());

            // `initialize` reports the same name's version, title and description.
            let init = client
                .post(format!("{base}/mcp"))
                .header("Authorization", "Bearer token-ada")
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .body(
                    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                        "protocolVersion": "2025-11-25", "capabilities": {},
                        "clientInfo": {"name": "test", "version": "1.0"}}})
                    .to_string(),
                )
                .send()
                .await
                .unwrap();
            assert_eq!(init.status(), 200);
            // JSON, or an event stream whose `data:` line carries it.
            let text = init.text().await.unwrap();
            let init: Value = serde_json::from_str(&text).unwrap_or_else(|_| {
                text.lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .find_map(|d| serde_json::from_str(d.trim()).ok())
                    .unwrap()
            });
            let info = &init["result"]["serverInfo"];
            assert_eq!(info["version"], card["version"], "{init}");
            assert_eq!(info["title"], card["title"], "{init}");
            assert_eq!(info["description"], card["description"], "{init}");
            assert_eq!(info["websiteUrl"], card["websiteUrl"], "{init}");
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_card_is_held_to_the_endpoints_host_and_origin_checks() {
    with_server(
        |port| hosted(Some(card()), port),
        |base| async move {
            let client = reqwest::Client::new();
            let url = format!("{base}/mcp/server-card");
            let foreign_host = client
                .get(&url)
                .header("Host", "evil.example")
                .send()
                .await
                .unwrap();
            assert_eq!(foreign_host.status(), 403);
            assert_eq!(foreign_host.headers()["access-control-allow-origin"], "*");
            let body: Value = foreign_host.json().await.unwrap();
            assert!(
                body["error"]["message"].as_str().unwrap().contains("Host"),
                "{body}"
            );
            let foreign_origin = client
                .get(&url)
                .header("Origin", "https://evil.example")
                .send()
                .await
                .unwrap();
            assert_eq!(foreign_origin.status(), 403);
            let own_origin = client
                .get(&url)
                .header("Origin", base.as_str())
                .send()
                .await
                .unwrap();
            assert_eq!(own_origin.status(), 200);
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_service_without_a_card_answers_404_before_identity() {
    with_server(
        |port| hosted(None, port),
        |base| async move {
            let response = reqwest::get(format!("{base}/mcp/server-card"))
                .await
                .unwrap();
            assert_eq!(response.status(), 404);
            let body: Value = response.json().await.unwrap();
            assert!(
                body["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("with_server_card"),
                "{body}"
            );
        },
    )
    .await;
}

#[test]
fn a_stateless_service_speaks_2026_07_28_alone_and_static_tokens_need_no_metadata() {
    let service = McpServer::hosted(common::greet_and_purge(), TokenTable::new())
        .with_server_card(card().endpoint("https://a.example/mcp"))
        .unwrap()
        .service(common::stateless());
    let card = service.server_card().unwrap();
    assert_valid_card(&card);
    let remote = &card["remotes"][0];
    assert_eq!(remote["url"], "https://a.example/mcp");
    assert_eq!(remote["supportedProtocolVersions"], json!(["2026-07-28"]));
    assert_eq!(
        remote["authentication"],
        json!({"required": true, "schemes": ["bearer"]})
    );
    assert_eq!(
        remote["headers"][0]["description"],
        "Bearer token: `Bearer <token>`"
    );
    // The default server info: this crate's version.
    assert_eq!(card["version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn a_card_its_schema_would_refuse_is_a_configuration_error() {
    let hosted = || McpServer::hosted(common::greet_and_purge(), TokenTable::new());
    for (card, says) in [
        (ServerCard::new("greeter", "Greets"), "exactly one `/`"),
        (
            ServerCard::new("io.github.acme/a/b", "Greets"),
            "exactly one `/`",
        ),
        (ServerCard::new("io.github.acme/greeter", ""), "1 to 100"),
        (
            ServerCard::new("io.github.acme/greeter", "x".repeat(101)),
            "(it has 101)",
        ),
        (
            ServerCard::new("io.github.acme/greeter", "Greets").endpoint("tools.example/mcp"),
            "http:// or https://",
        ),
    ] {
        let error = hosted().with_server_card(card).unwrap_err().to_string();
        assert!(error.contains(says), "{error}");
    }
}

#[test]
fn one_local_identity_publishes_a_card_that_asks_for_no_token() {
    let service = McpServer::new(
        common::greet_and_purge(),
        SessionContext::builder("ada").build(),
    )
    .with_server_info("greeter", "0.3.0")
    .with_server_card(card().endpoint("http://127.0.0.1:8080/mcp"))
    .unwrap()
    .http_service_with(common::stateless());
    let card = service.server_card().unwrap();
    assert_valid_card(&card);
    assert_eq!(card["version"], "0.3.0");
    assert_eq!(
        card["remotes"],
        json!([{
            "type": "streamable-http",
            "url": "http://127.0.0.1:8080/mcp",
            "supportedProtocolVersions": ["2026-07-28"],
        }])
    );
}
