//! An identity provider's key set (feature `jwks`): discovered from the issuer's metadata
//! or named directly, fetched with `reqwest`, cached, and fetched again when a token names
//! a key the set lacks (rotation), never more often than a floor allows.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, KeyAlgorithm, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde_json::Value;

use crate::identity::Refused;
use crate::jwt::{Key, KeyError};

/// Where the key set is read from.
#[derive(Debug, Clone)]
enum Source {
    /// The issuer, whose metadata names the key set's URL.
    Issuer(String),
    /// The key set's URL.
    Url(String),
}

/// The keys of one identity provider, shared by every clone of the resolver.
pub(crate) struct KeySet {
    source: Source,
    client: reqwest::Client,
    min_interval: Duration,
    max_age: Duration,
    keys: RwLock<Fetched>,
    /// How many times the set was fetched: a token verified with an earlier set is
    /// verified again (its key may be gone).
    generation: AtomicU64,
    /// Held while fetching (one fetch at a time); when the last fetch was tried.
    attempt: tokio::sync::Mutex<Option<Instant>>,
}

/// What the last successful fetch found.
#[derive(Default)]
struct Fetched {
    by_kid: HashMap<String, Arc<Key>>,
    all: Vec<Arc<Key>>,
    at: Option<Instant>,
    jwks_uri: Option<String>,
}

impl Fetched {
    fn find(&self, kid: Option<&str>) -> Option<Arc<Key>> {
        match kid {
            Some(kid) => self.by_kid.get(kid).cloned(),
            // A token without `kid`: only a set of one key says which.
            None if self.all.len() == 1 => self.all.first().cloned(),
            None => None,
        }
    }
}

impl fmt::Debug for KeySet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
        f.debug_struct("KeySet")
            .field("source", &self.source)
            .field("jwks_uri", &keys.jwks_uri)
            .field("kids", &keys.by_kid.keys().collect::<Vec<_>>())
            .field("min_interval", &self.min_interval)
            .field("max_age", &self.max_age)
            .finish()
    }
}

fn default_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap_or_default()
}

impl KeySet {
    fn new(source: Source) -> Self {
        Self {
            source,
            client: default_client(),
            min_interval: Duration::from_secs(30),
            max_age: Duration::from_secs(600),
            keys: RwLock::default(),
            generation: AtomicU64::new(0),
            attempt: tokio::sync::Mutex::new(None),
        }
    }

    pub(crate) fn discover(issuer: &str) -> Self {
        Self::new(Source::Issuer(issuer.to_owned()))
    }

    pub(crate) fn url(url: &str) -> Self {
        Self::new(Source::Url(url.to_owned()))
    }

    /// The same source with other refresh limits (and nothing fetched yet).
    pub(crate) fn with_limits(&self, min_interval: Duration, max_age: Duration) -> Self {
        Self {
            min_interval,
            max_age,
            client: self.client.clone(),
            ..Self::new(self.source.clone())
        }
    }

    /// The same source fetched with `client` (and nothing fetched yet).
    pub(crate) fn with_client(&self, client: reqwest::Client) -> Self {
        Self {
            client,
            min_interval: self.min_interval,
            max_age: self.max_age,
            ..Self::new(self.source.clone())
        }
    }

    fn where_from(&self) -> String {
        let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
        match (&keys.jwks_uri, &self.source) {
            (Some(uri), _) | (None, Source::Url(uri)) => uri.clone(),
            (None, Source::Issuer(issuer)) => format!("the key set of {issuer}"),
        }
    }

    fn unknown(&self, kid: Option<&str>) -> Refused {
        let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
        let age = keys.at.map_or("never fetched".to_owned(), |at| {
            format!("fetched {}s ago", at.elapsed().as_secs())
        });
        drop(keys);
        Refused::invalid(match kid {
            Some(kid) => format!("no key `{kid}` in {} ({age})", self.where_from()),
            None => format!(
                "the JWT names no `kid` and {} holds more than one key ({age})",
                self.where_from()
            ),
        })
    }

    /// How many times the set was fetched.
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Whether the set was fetched within `max_age`.
    pub(crate) fn is_fresh(&self) -> bool {
        let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
        keys.at.is_some_and(|at| at.elapsed() < self.max_age)
    }

    /// The key for `kid` among those already fetched.
    pub(crate) fn cached(&self, kid: Option<&str>) -> Result<Arc<Key>, Refused> {
        let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
        let found = keys.find(kid);
        drop(keys);
        found.ok_or_else(|| self.unknown(kid))
    }

    /// The key for `kid`: from the cache while it is fresh; else after fetching the set
    /// again (at most once per `min_interval`; when the fetch fails, the keys fetched
    /// before still verify).
    pub(crate) async fn key(&self, kid: Option<&str>) -> Result<Arc<Key>, Refused> {
        {
            let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
            let fresh = keys.at.is_some_and(|at| at.elapsed() < self.max_age);
            if let (true, Some(key)) = (fresh, keys.find(kid)) {
                return Ok(key);
            }
        }
        self.refresh(false).await.ok();
        self.cached(kid)
    }

    /// Fetches the set now, whatever the floor.
    pub(crate) async fn load(&self) -> Result<usize, KeyError> {
        self.refresh(true).await
    }

    /// Fetches the set again unless it was tried within `min_interval` (or `force`): how
    /// many keys it holds.
    async fn refresh(&self, force: bool) -> Result<usize, KeyError> {
        let mut attempt = self.attempt.lock().await;
        if !force && attempt.is_some_and(|at| at.elapsed() < self.min_interval) {
            let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
            return Ok(keys.all.len());
        }
        *attempt = Some(Instant::now());
        let known_uri = self
            .keys
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .jwks_uri
            .clone();
        match self.fetch(known_uri).await {
            Ok(fetched) => {
                let count = fetched.all.len();
                tracing::info!(
                    target: "neuralis_mcp::auth",
                    jwks_uri = fetched.jwks_uri.as_deref().unwrap_or_default(),
                    keys = count,
                    kids = ?fetched.by_kid.keys().collect::<Vec<_>>(),
                    "key set fetched"
                );
                *self.keys.write().unwrap_or_else(PoisonError::into_inner) = fetched;
                self.generation.fetch_add(1, Ordering::Release);
                Ok(count)
            }
            Err(e) => {
                tracing::warn!(
                    target: "neuralis_mcp::auth",
                    error = %e,
                    "the key set could not be fetched; the keys fetched before still verify"
                );
                Err(e)
            }
        }
    }

    async fn get_json(&self, url: &str) -> Result<Value, KeyError> {
        secure(url)?;
        let response = self
            .client
            .get(url)
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|e| KeyError(format!("GET {url}: {e}")))?;
        let status = response.status();
        if !status.is_success() {
            return Err(KeyError(format!("GET {url}: HTTP {status}")));
        }
        response
            .json()
            .await
            .map_err(|e| KeyError(format!("GET {url}: not JSON ({e})")))
    }

    /// The key set's URL from the issuer's metadata: OpenID Connect discovery, else RFC
    /// 8414's authorization-server metadata.
    async fn discover_jwks_uri(&self, issuer: &str) -> Result<String, KeyError> {
        let trimmed = issuer.trim_end_matches('/');
        let after_scheme = trimmed.find("://").map_or(0, |i| i + 3);
        let (origin, path) = match trimmed[after_scheme..].find('/') {
            Some(i) => trimmed.split_at(after_scheme + i),
            None => (trimmed, ""),
        };
        let candidates = [
            format!("{trimmed}/.well-known/openid-configuration"),
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
        ];
        let mut problems = Vec::new();
        for url in &candidates {
            let metadata = match self.get_json(url).await {
                Ok(metadata) => metadata,
                Err(e) => {
                    problems.push(e.0);
                    continue;
                }
            };
            let named = metadata.get("issuer").and_then(Value::as_str);
            if named != Some(issuer) {
                return Err(KeyError(format!(
                    "{url} names the issuer {named:?}, not `{issuer}` (a metadata document must name its own issuer)"
                )));
            }
            return metadata
                .get("jwks_uri")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| KeyError(format!("{url} has no `jwks_uri`")));
        }
        Err(KeyError(format!(
            "no metadata for the issuer `{issuer}`: {}",
            problems.join("; ")
        )))
    }

    async fn fetch(&self, known_uri: Option<String>) -> Result<Fetched, KeyError> {
        let jwks_uri = match (known_uri, &self.source) {
            (Some(uri), _) => uri,
            (None, Source::Url(url)) => url.clone(),
            (None, Source::Issuer(issuer)) => self.discover_jwks_uri(issuer).await?,
        };
        let document = self.get_json(&jwks_uri).await?;
        let Some(entries) = document.get("keys").and_then(Value::as_array) else {
            return Err(KeyError(format!(
                "{jwks_uri}: no `keys` array (not a JWKS)"
            )));
        };
        let mut fetched = Fetched {
            jwks_uri: Some(jwks_uri.clone()),
            at: Some(Instant::now()),
            ..Fetched::default()
        };
        for entry in entries {
            match verifying_key(entry) {
                Ok(key) => {
                    let key = Arc::new(key);
                    if let Some(kid) = &key.kid {
                        fetched.by_kid.insert(kid.clone(), key.clone());
                    }
                    fetched.all.push(key);
                }
                Err(why) => {
                    let kid = entry.get("kid").and_then(Value::as_str).unwrap_or_default();
                    tracing::debug!(
                        target: "neuralis_mcp::auth",
                        jwks_uri = %jwks_uri,
                        kid,
                        "a key is skipped: {why}"
                    );
                }
            }
        }
        if fetched.all.is_empty() {
            return Err(KeyError(format!(
                "{jwks_uri} holds no signature key this server can use (RS256, PS256, ES256, ES384, EdDSA...)"
            )));
        }
        Ok(fetched)
    }
}

/// The verifying key a JWK describes, with its one algorithm: the JWK's `alg`, else the
/// one its key type implies (RS256 for RSA, ES256/ES384 by curve, EdDSA for Ed25519).
/// Symmetric keys, encryption keys and algorithms that do not fit the key type are
/// refused.
fn verifying_key(entry: &Value) -> Result<Key, String> {
    let jwk: Jwk = serde_json::from_value(entry.clone()).map_err(|e| format!("not a JWK: {e}"))?;
    if matches!(
        jwk.common.public_key_use,
        Some(PublicKeyUse::Encryption | PublicKeyUse::Other(_))
    ) {
        return Err("not a signature key (`use`)".into());
    }
    let implied = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => Algorithm::RS256,
        AlgorithmParameters::EllipticCurve(p) => match p.curve {
            EllipticCurve::P256 => Algorithm::ES256,
            EllipticCurve::P384 => Algorithm::ES384,
            _ => return Err("an EC curve other than P-256 or P-384".into()),
        },
        AlgorithmParameters::OctetKeyPair(p) if p.curve == EllipticCurve::Ed25519 => {
            Algorithm::EdDSA
        }
        AlgorithmParameters::OctetKey(_) => return Err("a symmetric key".into()),
        _ => return Err("a key type this server does not verify".into()),
    };
    let algorithm = match jwk.common.key_algorithm {
        None => implied,
        Some(alg) => {
            let named = match alg {
                KeyAlgorithm::RS256 => Algorithm::RS256,
                KeyAlgorithm::RS384 => Algorithm::RS384,
                KeyAlgorithm::RS512 => Algorithm::RS512,
                KeyAlgorithm::PS256 => Algorithm::PS256,
                KeyAlgorithm::PS384 => Algorithm::PS384,
                KeyAlgorithm::PS512 => Algorithm::PS512,
                KeyAlgorithm::ES256 => Algorithm::ES256,
                KeyAlgorithm::ES384 => Algorithm::ES384,
                KeyAlgorithm::EdDSA => Algorithm::EdDSA,
                other => return Err(format!("`alg` {other:?} is not a signature algorithm")),
            };
            let fits = match implied {
                Algorithm::RS256 => matches!(
                    named,
                    Algorithm::RS256
                        | Algorithm::RS384
                        | Algorithm::RS512
                        | Algorithm::PS256
                        | Algorithm::PS384
                        | Algorithm::PS512
                ),
                other => named == other,
            };
            if !fits {
                return Err(format!("`alg` {named:?} does not fit the key type"));
            }
            named
        }
    };
    let decoding = DecodingKey::from_jwk(&jwk).map_err(|e| format!("unreadable key: {e}"))?;
    Ok(Key {
        decoding,
        algorithm,
        kid: jwk.common.key_id,
    })
}

/// An identity provider's metadata and keys decide who may call: they come over `https`.
/// Plain `http` is allowed to a loopback address only (a test's provider), with a warning.
///
/// # Errors
///
/// [`KeyError`] for a URL that is not one, or `http` to any other host.
pub(crate) fn secure(url: &str) -> Result<(), KeyError> {
    let parsed =
        reqwest::Url::parse(url).map_err(|e| KeyError(format!("`{url}` is not a URL: {e}")))?;
    let host = parsed.host_str().unwrap_or_default();
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    match parsed.scheme() {
        "https" => Ok(()),
        "http" if loopback => {
            tracing::warn!(
                target: "neuralis_mcp::auth",
                url,
                "the identity provider is reached over plain http: allowed for a loopback address (tests) only"
            );
            Ok(())
        }
        scheme => Err(KeyError(format!(
            "`{url}`: an identity provider's metadata and keys must come over https, not {scheme} (plain http is allowed to a loopback address only, for tests)"
        ))),
    }
}

#[cfg(test)]
mod secure_tests {
    use super::secure;

    #[test]
    fn only_https_or_loopback_http() {
        assert!(secure("https://id.example.com/realms/a").is_ok());
        assert!(secure("http://127.0.0.1:8080/jwks").is_ok());
        assert!(secure("http://localhost/jwks").is_ok());
        assert!(secure("http://[::1]:9000/").is_ok());
        let refused = secure("http://id.example.com/jwks").expect_err("plain http");
        assert!(refused.0.contains("must come over https"), "{}", refused.0);
        assert!(secure("ftp://127.0.0.1/").is_err());
        assert!(secure("not a url").is_err());
    }
}
