//! A token minted for another server never gets in (MCP authorization, RFC 8707): a
//! `JwtResolver` or an `Introspection` with no audience chosen refuses every token; one
//! given to a hosted server that publishes its `ProtectedResource` requires that
//! resource; `dangerously_accept_any_audience` is the only way to let any audience in,
//! and says so in the log when the service starts. Over HTTP every refusal is `401` with
//! `error="invalid_token"`.

#![cfg(feature = "introspection")]
#![allow(clippy::unwrap_used, reason = "tests")]

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::BodyExt;
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use neuralis_mcp::McpServer;
use neuralis_mcp::http::{HostedService, Introspection, JwtResolver, ProtectedResource, Resolve};
use serde_json::{Value, json};

mod common;

const HERE: &str = "https://tools.test/mcp";
const PAYROLL: &str = "https://payroll.example.com/api";
const SECRET: &[u8] = b"a shared secret of some length";

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// An HS256 token from `https://auth.test` for `ada`, naming `aud` (none when `None`).
fn token(aud: Option<&str>) -> String {
    let mut claims = json!({"sub": "ada", "scope": "", "iss": "https://auth.test",
        "exp": now() + 600});
    if let Some(aud) = aud {
        claims["aud"] = json!(aud);
    }
    encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &EncodingKey::from_secret(SECRET).unwrap(),
    )
    .unwrap()
}

fn resolver() -> JwtResolver {
    JwtResolver::hs256(SECRET)
        .unwrap()
        .issuer("https://auth.test")
}

fn parts(token: &str) -> http::request::Parts {
    http::Request::post("/mcp")
        .header("Authorization", format!("Bearer {token}"))
        .body(())
        .unwrap()
        .into_parts()
        .0
}

/// The status, challenge and body of `tools/list` with `token`.
async fn list(service: &HostedService, token: &str) -> (u16, String, Value) {
    let body = common::rpc(1, "tools/list", json!({}), json!({}));
    let response = service.handle(common::post(&body, Some(token))).await;
    let status = response.status().as_u16();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, challenge, common::message(&bytes))
}

/// What the service's log says while it is built: the start-up warnings.
fn built_with_log(build: impl FnOnce() -> HostedService) -> (HostedService, String) {
    #[derive(Clone, Default)]
    struct Log(Arc<Mutex<Vec<u8>>>);
    impl Write for Log {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let log = Log::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let service = tracing::subscriber::with_default(subscriber, build);
    let text = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
    (service, text)
}

fn hosted(resolver: impl Resolve, resource: Option<&str>) -> (HostedService, String) {
    built_with_log(|| {
        let mut hosted = McpServer::hosted(common::greeter(), resolver);
        if let Some(resource) = resource {
            hosted = hosted.with_protected_resource(ProtectedResource::new(resource));
        }
        hosted.service(common::stateless())
    })
}

async fn assert_refused(service: &HostedService, token: &str, what: &str) {
    let (status, challenge, body) = list(service, token).await;
    assert_eq!(status, 401, "{what}: {body}");
    assert!(
        challenge.starts_with("Bearer") && challenge.ends_with("error=\"invalid_token\""),
        "{what}: {challenge}"
    );
    assert!(body.get("result").is_none(), "{what}: {body}");
}

async fn assert_accepted(service: &HostedService, token: &str, what: &str) {
    let (status, _, body) = list(service, token).await;
    assert_eq!(status, 200, "{what}: {body}");
    assert_eq!(body["result"]["tools"][0]["name"], "greet", "{what}");
}

/// No audience, no protected resource: a token for another service, one for no service
/// and even one for this server's URL are all refused, and the log says how to fix it,
/// once at start-up and with every refusal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_jwt_resolver_without_an_audience_refuses_every_token() {
    let refusal = resolver()
        .resolve(&parts(&token(Some(PAYROLL))))
        .unwrap_err();
    assert!(refusal.reason().contains(".audience("), "{refusal}");
    assert!(refusal.reason().contains("ProtectedResource"), "{refusal}");
    let refusal = resolver().resolve(&parts(&token(None))).unwrap_err();
    assert!(refusal.reason().contains("no audience"), "{refusal}");

    let (service, log) = hosted(resolver(), None);
    assert_eq!(log.matches("every token is refused").count(), 1, "{log}");
    assert!(log.contains("WARN"), "{log}");
    assert_refused(&service, &token(Some(PAYROLL)), "another service's token").await;
    assert_refused(&service, &token(None), "a token for no service").await;
    assert_refused(&service, &token(Some(HERE)), "no audience known to check").await;
}

/// A server that publishes its protected-resource metadata: its `resource` is the
/// audience of a resolver given none; tokens for it get in, others do not, and a token
/// without `aud` does not either. An audience the resolver names wins over the resource.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_protected_resource_is_the_audience_when_the_resolver_names_none() {
    let (service, log) = hosted(resolver(), Some(HERE));
    assert!(!log.contains("WARN"), "nothing to warn of: {log}");
    assert_accepted(&service, &token(Some(HERE)), "a token for this resource").await;
    assert_refused(&service, &token(Some(PAYROLL)), "another service's token").await;
    assert_refused(&service, &token(None), "a token without `aud`").await;
    let (_, challenge, _) = list(&service, &token(None)).await;
    assert!(
        challenge.contains(
            "resource_metadata=\"https://tools.test/.well-known/oauth-protected-resource/mcp\""
        ),
        "{challenge}"
    );

    let (named, _) = hosted(resolver().audience(PAYROLL), Some(HERE));
    assert_accepted(&named, &token(Some(PAYROLL)), "the audience named").await;
    assert_refused(&named, &token(Some(HERE)), "the resource, not named").await;

    let (named, _) = hosted(resolver().audience(HERE), None);
    assert_accepted(&named, &token(Some(HERE)), "`.audience` alone").await;
    assert_refused(&named, &token(None), "`.audience`, a token without `aud`").await;
}

/// The opt-out: any audience and none get in, and the start-up log warns of it once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_opt_out_accepts_any_audience_with_a_warning() {
    let (service, log) = hosted(resolver().dangerously_accept_any_audience(), None);
    assert_eq!(log.matches("ANY audience").count(), 1, "{log}");
    assert!(log.contains("WARN"), "{log}");
    assert_accepted(&service, &token(Some(PAYROLL)), "another service's token").await;
    assert_accepted(&service, &token(None), "a token for no service").await;
    // Even with a protected resource: the host said any.
    let (service, _) = hosted(resolver().dangerously_accept_any_audience(), Some(HERE));
    assert_accepted(&service, &token(Some(PAYROLL)), "any, beside a resource").await;
    // Chosen later, an audience holds again.
    let (service, _) = hosted(
        resolver().dangerously_accept_any_audience().audience(HERE),
        None,
    );
    assert_refused(&service, &token(Some(PAYROLL)), "named after the opt-out").await;
}

/// An authorization server on 127.0.0.1 answering RFC 7662 introspection requests from
/// a table of tokens, counting the requests it was sent.
struct AuthServer {
    endpoint: String,
    asked: Arc<AtomicUsize>,
}

/// The introspection answers by token, and how many requests were sent.
type Answers = (Arc<HashMap<&'static str, Value>>, Arc<AtomicUsize>);

async fn auth_server(answers: HashMap<&'static str, Value>) -> AuthServer {
    use axum::extract::State;
    use axum::routing::post;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let asked = Arc::new(AtomicUsize::new(0));
    let state = (Arc::new(answers), asked.clone());
    let app = axum::Router::new()
        .route(
            "/introspect",
            post(
                |State((answers, asked)): State<Answers>, body: Bytes| async move {
                    asked.fetch_add(1, Ordering::SeqCst);
                    let form = String::from_utf8_lossy(&body).into_owned();
                    let token = form
                        .split('&')
                        .find_map(|pair| pair.strip_prefix("token="))
                        .unwrap_or_default()
                        .to_owned();
                    let answer = answers
                        .get(token.as_str())
                        .cloned()
                        .unwrap_or_else(|| json!({"active": false}));
                    ([("content-type", "application/json")], answer.to_string())
                },
            ),
        )
        .with_state(state);
    tokio::spawn(async move { axum::serve(listener, app).await });
    AuthServer {
        endpoint: format!("http://127.0.0.1:{port}/introspect"),
        asked,
    }
}

/// The same for opaque tokens: the introspection answer's `aud` must name the audience
/// (the resolver's, else the protected resource); with neither, every token is refused
/// without asking the authorization server; the opt-out lets any answer in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn introspection_answers_name_this_server_or_are_refused() {
    let answer = |aud: Option<Value>| {
        let mut answer = json!({"active": true, "sub": "ada", "scope": "",
            "exp": now() + 600});
        if let Some(aud) = aud {
            answer["aud"] = aud;
        }
        answer
    };
    let server = auth_server(HashMap::from([
        ("for-here", answer(Some(json!(HERE)))),
        ("for-here-and-more", answer(Some(json!([PAYROLL, HERE])))),
        ("for-payroll", answer(Some(json!(PAYROLL)))),
        ("for-nobody", answer(None)),
    ]))
    .await;
    let introspection = || Introspection::new(&server.endpoint, "tools", "its secret");

    let (unset, log) = hosted(introspection(), None);
    assert_eq!(log.matches("every token is refused").count(), 1, "{log}");
    for token in ["for-here", "for-payroll", "for-nobody"] {
        assert_refused(&unset, token, token).await;
    }
    assert_eq!(
        server.asked.load(Ordering::SeqCst),
        0,
        "refused without asking"
    );

    let (bound, log) = hosted(introspection(), Some(HERE));
    assert!(!log.contains("WARN"), "{log}");
    assert_accepted(&bound, "for-here", "an answer for this resource").await;
    assert_accepted(&bound, "for-here-and-more", "an audience list naming it").await;
    assert_refused(&bound, "for-payroll", "another service's token").await;
    assert_refused(&bound, "for-nobody", "an answer without `aud`").await;

    let (named, _) = hosted(introspection().audience(PAYROLL), Some(HERE));
    assert_accepted(&named, "for-payroll", "the audience named").await;
    assert_refused(&named, "for-here", "the resource, not named").await;

    let (any, log) = hosted(introspection().dangerously_accept_any_audience(), None);
    assert_eq!(log.matches("ANY audience").count(), 1, "{log}");
    assert_accepted(&any, "for-payroll", "any: another service's token").await;
    assert_accepted(&any, "for-nobody", "any: a token for no service").await;
    assert_refused(&any, "unknown", "any: still only active tokens").await;
}
