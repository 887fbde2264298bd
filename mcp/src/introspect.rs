//! Opaque bearer tokens checked with the authorization server (feature `introspection`):
//! OAuth 2.0 Token Introspection (RFC 7662), on the `reqwest` client `jwks` brings.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use neuralis_core::dispatch::SessionContext;
use serde_json::{Map, Value};

use crate::identity::{Audience, Refused, Resolution, Resolve, bearer_token};
use crate::jwt::{GrantMapping, caller_of};

/// Resolves each request's caller by asking the authorization server about its bearer
/// token (RFC 7662 introspection): for opaque tokens, which only their issuer can read.
///
/// The server is asked with this resource server's own client credentials (HTTP Basic);
/// a token it calls inactive, or whose `aud` does not name this server's audience (or
/// `iss` [`Self::issuer`], when set), is refused with `401`. The audience is
/// [`Self::audience`], else the `resource` of the
/// [`ProtectedResource`](crate::http::ProtectedResource) the hosted server publishes; with
/// neither, every token is refused without asking (the host's log says how to fix it),
/// unless [`Self::dangerously_accept_any_audience`] says otherwise. The user is the answer's `sub` (or
/// [`Self::user_claim`]), the grants its `scope` (or a [`GrantMapping`]). Answers are
/// cached per token for [`Self::cache_for`] (default 60 s, never past the token's `exp`),
/// so a busy caller costs one introspection a minute; a revoked token is then refused at
/// the latest that much later.
///
/// ```no_run
/// use neuralis_mcp::http::Introspection;
///
/// let resolver = Introspection::new(
///     "https://idp.example.com/token/introspection",
///     "tools-server",
///     "its client secret",
/// )
/// .audience("https://tools.example.com/mcp");
/// # let _ = resolver;
/// ```
pub struct Introspection {
    endpoint: String,
    client_id: String,
    client_secret: String,
    client: reqwest::Client,
    audience: Audience,
    issuer: Option<String>,
    user_claim: String,
    grants: GrantMapping,
    cache_for: Duration,
    cache: Mutex<HashMap<String, (Instant, SessionContext)>>,
}

impl fmt::Debug for Introspection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the secret, never a token.
        f.debug_struct("Introspection")
            .field("endpoint", &self.endpoint)
            .field("client_id", &self.client_id)
            .field("audience", &self.audience)
            .field("issuer", &self.issuer)
            .field("user_claim", &self.user_claim)
            .field("grants", &self.grants)
            .field("cache_for", &self.cache_for)
            .finish_non_exhaustive()
    }
}

impl Introspection {
    /// Tokens checked at `endpoint` (the authorization server's
    /// `introspection_endpoint`), asked as the client `client_id` with `client_secret`.
    #[must_use]
    pub fn new(
        endpoint: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Self {
        Self {
            endpoint: endpoint.into(),
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()
                .unwrap_or_default(),
            audience: Audience::Unset,
            issuer: None,
            user_claim: "sub".into(),
            grants: GrantMapping::default(),
            cache_for: Duration::from_secs(60),
            cache: Mutex::default(),
        }
    }

    /// Requires the answer's `aud` to name `audience` (this server, as the authorization
    /// server knows it); an answer without `aud` is refused.
    #[must_use]
    pub fn audience(mut self, audience: impl Into<String>) -> Self {
        self.audience = Audience::Named(audience.into());
        self
    }

    /// Accepts an active token whatever server it was issued for, one that names none
    /// included: the opt-out of the audience check, for the rare deployment that must.
    /// The hosted server logs a warning saying so when it starts. Prefer
    /// [`Self::audience`].
    #[must_use]
    pub fn dangerously_accept_any_audience(mut self) -> Self {
        self.audience = Audience::Any;
        self
    }

    /// Requires the answer's `iss` to be `issuer`.
    #[must_use]
    pub fn issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// The member of the answer that holds the user id (default `sub`).
    #[must_use]
    pub fn user_claim(mut self, claim: impl Into<String>) -> Self {
        self.user_claim = claim.into();
        self
    }

    /// How the answer's members become the caller's granted features (default: `scope`).
    #[must_use]
    pub fn grants(mut self, mapping: GrantMapping) -> Self {
        self.grants = mapping;
        self
    }

    /// How long an answer is reused for the same token (default 60 s; zero: ask every
    /// time).
    #[must_use]
    pub fn cache_for(mut self, duration: Duration) -> Self {
        self.cache_for = duration;
        self
    }

    /// The HTTP client that asks (to trust a private CA, use a proxy, set timeouts).
    #[must_use]
    pub fn http_client(mut self, client: reqwest::Client) -> Self {
        self.client = client;
        self
    }

    fn cached(&self, token: &str) -> Option<SessionContext> {
        let cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        cache
            .get(token)
            .filter(|(until, _)| Instant::now() < *until)
            .map(|(_, caller)| caller.clone())
    }

    /// The caller the authorization server's answer names.
    fn caller(&self, answer: &Map<String, Value>) -> Result<SessionContext, Refused> {
        if answer.get("active") != Some(&Value::Bool(true)) {
            return Err(Refused::invalid(
                "the authorization server says the token is not active (unknown, expired or revoked)",
            ));
        }
        if let Audience::Named(audience) = &self.audience {
            let named = match answer.get("aud") {
                Some(Value::String(aud)) => aud == audience,
                Some(Value::Array(auds)) => auds.iter().any(|a| a.as_str() == Some(audience)),
                _ => false,
            };
            if !named {
                return Err(Refused::invalid(
                    "the token's `aud` does not name this server's audience",
                ));
            }
        }
        if let Some(issuer) = &self.issuer
            && answer.get("iss").and_then(Value::as_str) != Some(issuer.as_str())
        {
            return Err(Refused::invalid(
                "the token's `iss` is not the configured issuer",
            ));
        }
        caller_of(
            answer,
            &self.user_claim,
            &self.grants,
            "the introspection answer",
        )
    }

    async fn introspect(&self, token: &str) -> Result<SessionContext, Refused> {
        if self.audience == Audience::Unset {
            return Err(Audience::unset_refusal("Introspection"));
        }
        let response = self
            .client
            .post(&self.endpoint)
            .basic_auth(&self.client_id, Some(&self.client_secret))
            .form(&[("token", token), ("token_type_hint", "access_token")])
            .send()
            .await
            .map_err(|e| {
                tracing::warn!(target: "neuralis_mcp::auth", endpoint = %self.endpoint, error = %e, "introspection failed");
                Refused::invalid(format!("the introspection endpoint cannot be reached: {e}"))
            })?;
        let status = response.status();
        if !status.is_success() {
            tracing::warn!(target: "neuralis_mcp::auth", endpoint = %self.endpoint, %status, "introspection refused");
            return Err(Refused::invalid(format!(
                "the introspection endpoint answered HTTP {status} (are this server's client credentials right?)"
            )));
        }
        let answer: Map<String, Value> = response.json().await.map_err(|e| {
            Refused::invalid(format!(
                "the introspection answer is not a JSON object: {e}"
            ))
        })?;
        let caller = self.caller(&answer)?;
        // Reused until the cache period ends, never past the token's own expiry.
        let mut keep = self.cache_for;
        if let Some(exp) = answer.get("exp").and_then(Value::as_u64) {
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            keep = keep.min(Duration::from_secs(exp.saturating_sub(now)));
        }
        if !keep.is_zero() {
            let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
            if cache.len() >= 10_000 {
                let now = Instant::now();
                cache.retain(|_, (until, _)| *until > now);
            }
            cache.insert(token.to_owned(), (Instant::now() + keep, caller.clone()));
        }
        Ok(caller)
    }
}

impl Resolve for Introspection {
    /// Only answers already cached: the hosted service calls
    /// [`Resolve::resolve_request`], which asks the authorization server.
    fn resolve(&self, parts: &http::request::Parts) -> Result<SessionContext, Refused> {
        let token = bearer_token(parts)?;
        self.cached(token).ok_or_else(|| {
            Refused::invalid(
                "the token was not introspected yet (the synchronous path asks nobody)",
            )
        })
    }

    fn resolve_request<'a>(&'a self, parts: &'a http::request::Parts) -> Resolution<'a> {
        Box::pin(async move {
            let token = bearer_token(parts)?;
            match self.cached(token) {
                Some(caller) => Ok(caller),
                None => self.introspect(token).await,
            }
        })
    }

    /// Without an audience, the protected resource's URL is the audience; with none
    /// either (or with any audience accepted), a warning in the host's log.
    fn for_resource(&self, resource: Option<&str>) -> Option<Arc<dyn Resolve>> {
        match (&self.audience, resource) {
            (Audience::Unset, Some(resource)) => Some(Arc::new(Self {
                endpoint: self.endpoint.clone(),
                client_id: self.client_id.clone(),
                client_secret: self.client_secret.clone(),
                client: self.client.clone(),
                audience: Audience::Named(resource.to_owned()),
                issuer: self.issuer.clone(),
                user_claim: self.user_claim.clone(),
                grants: self.grants.clone(),
                cache_for: self.cache_for,
                cache: Mutex::default(),
            })),
            (audience, _) => {
                audience.warn_at_start("Introspection");
                None
            }
        }
    }
}
