//! Bearer JWTs as the caller's identity (feature `jwt`), on `jsonwebtoken`: one fixed key,
//! or (feature `jwks`) an identity provider's key set, discovered from its issuer URL and
//! refreshed as it rotates keys.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{SystemTime, UNIX_EPOCH};

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, Header, Validation, decode, decode_header};
use neuralis_core::dispatch::SessionContext;
use serde_json::{Map, Value};

use crate::identity::{Audience, Refused, Resolution, Resolve, bearer_token};

/// Resolves each request's caller from an `Authorization: Bearer <JWT>` header.
///
/// The signature is checked with a key whose algorithm is fixed by the key, never by the
/// token: one key given here (HS256 with a shared secret; RS256, PS256, ES256 or EdDSA
/// with a public key in PEM form), or (feature `jwks`) the keys an identity provider
/// publishes, selected by the token's `kid` ([`JwtResolver::discover`],
/// [`JwtResolver::jwks`]). `exp` is required and checked, `nbf` checked when present,
/// `iss` checked when configured (and then required).
///
/// `aud` is always checked, and required: a token names the server it was issued for
/// (RFC 8707), and one minted for another service of the same identity provider must not
/// get in. The audience is [`JwtResolver::audience`], else the `resource` of the
/// [`ProtectedResource`](crate::http::ProtectedResource) the hosted server publishes;
/// with neither, every token is refused (the host's log says how to fix it), unless
/// [`JwtResolver::dangerously_accept_any_audience`] says otherwise. The user id is read from
/// a claim (`sub` by default), the granted features by a [`GrantMapping`] (the `scope`
/// claim by default: a space-separated string, as OAuth writes scopes, or an array of
/// strings).
///
/// A token that fails any check is refused with `401` and `error="invalid_token"`; the
/// reason (`the token expired at ...`, `the signature does not verify with key ...`) is
/// only for the host's logs.
///
/// ```
/// use jsonwebtoken::{EncodingKey, Header, encode};
/// use neuralis_mcp::http::{JwtResolver, Resolve};
/// use serde_json::json;
///
/// let resolver = JwtResolver::hs256(b"a shared secret").unwrap()
///     .issuer("https://auth.example.com")
///     .audience("https://tools.example.com/mcp");
/// let claims = json!({"sub": "ada", "scope": "weather.read notes.write",
///     "iss": "https://auth.example.com", "aud": "https://tools.example.com/mcp",
///     "exp": 4_102_444_800u64});
/// let key = EncodingKey::from_secret(b"a shared secret").unwrap();
/// let token = encode(&Header::default(), &claims, &key).unwrap();
/// let parts = http::Request::post("/mcp").header("Authorization", format!("Bearer {token}"))
///     .body(()).unwrap().into_parts().0;
/// let caller = resolver.resolve(&parts).unwrap();
/// assert_eq!(caller.user_id(), "ada");
/// assert!(caller.is_granted("notes.write"));
/// ```
#[derive(Clone)]
pub struct JwtResolver {
    keys: Keys,
    validation: Validation,
    /// The audience `aud` must name (mirrored in `validation`).
    audience: Audience,
    user_claim: String,
    grants: GrantMapping,
    /// Tokens already verified with this configuration (every builder method starts a
    /// new one).
    verified: Arc<Verified>,
}

/// Tokens already verified, with their caller: a caller sends the same token with every
/// request until it expires, and a signature check (RSA, ECDSA) costs more than the rest
/// of a call. An entry holds until the token's `exp`, and only while the key set it was
/// verified with has not been fetched again (its generation) and is fresh.
#[derive(Default)]
struct Verified {
    tokens: RwLock<HashMap<Box<str>, VerifiedToken>>,
}

struct VerifiedToken {
    /// The token's `exp`, in seconds since the epoch.
    until: u64,
    generation: u64,
    caller: SessionContext,
}

/// At most this many tokens are remembered (the expired ones are dropped first, then all).
const VERIFIED_CAP: usize = 10_000;

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Verified {
    fn get(&self, token: &str, generation: u64) -> Option<SessionContext> {
        let tokens = self.tokens.read().unwrap_or_else(PoisonError::into_inner);
        let found = tokens.get(token)?;
        (found.generation == generation && now_secs() < found.until).then(|| found.caller.clone())
    }

    fn put(&self, token: &str, until: u64, generation: u64, caller: &SessionContext) {
        let mut tokens = self.tokens.write().unwrap_or_else(PoisonError::into_inner);
        if tokens.len() >= VERIFIED_CAP {
            let now = now_secs();
            tokens.retain(|_, t| t.until > now && t.generation == generation);
            if tokens.len() >= VERIFIED_CAP {
                tokens.clear();
            }
        }
        tokens.insert(
            token.into(),
            VerifiedToken {
                until,
                generation,
                caller: caller.clone(),
            },
        );
    }
}

/// Where the verifying keys come from.
#[derive(Clone)]
enum Keys {
    Fixed(Arc<Key>),
    #[cfg(feature = "jwks")]
    Set(Arc<crate::jwks::KeySet>),
}

/// One verifying key and the one algorithm it verifies.
pub(crate) struct Key {
    pub(crate) decoding: DecodingKey,
    pub(crate) algorithm: Algorithm,
    /// The key's `kid`, to name it in a refusal.
    pub(crate) kid: Option<String>,
}

impl fmt::Debug for JwtResolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the key.
        let mut s = f.debug_struct("JwtResolver");
        match &self.keys {
            Keys::Fixed(key) => s.field("algorithm", &key.algorithm),
            #[cfg(feature = "jwks")]
            Keys::Set(set) => s.field("jwks", set),
        };
        s.field("iss", &self.validation.iss)
            .field("aud", &self.audience)
            .field("user_claim", &self.user_claim)
            .field("grants", &self.grants)
            .finish_non_exhaustive()
    }
}

/// Why a JWT key, or an identity provider's key set, could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyError(pub(crate) String);

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KeyError {}

/// How a token's claims become the caller's granted features: the values of one or more
/// claims (each a space-separated string, as OAuth writes `scope`, or an array of
/// strings), optionally only those with a prefix (which is removed), and values renamed
/// to features.
///
/// A claim name that no claim of the token has and that contains dots is a path into
/// nested objects: `realm_access.roles` reads Keycloak's realm roles.
///
/// ```
/// use neuralis_mcp::http::GrantMapping;
/// use serde_json::json;
///
/// // Scopes `mcp:weather.read` grant `weather.read`; the role `editor` grants `notes.write`.
/// let mapping = GrantMapping::claim("scope")
///     .and_claim("realm_access.roles")
///     .prefix("mcp:")
///     .map("editor", "notes.write");
/// let claims = json!({"scope": "openid mcp:weather.read", "realm_access": {"roles": ["editor", "viewer"]}});
/// let grants = mapping.grants(claims.as_object().unwrap()).unwrap();
/// assert_eq!(grants, ["weather.read", "notes.write"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantMapping {
    claims: Vec<String>,
    prefix: Option<String>,
    renames: Vec<(String, String)>,
}

impl Default for GrantMapping {
    /// The `scope` claim, every value a feature.
    fn default() -> Self {
        Self::claim("scope")
    }
}

impl GrantMapping {
    /// Grants read from the claim `name` (every value a feature, until
    /// [`Self::prefix`] or [`Self::map`] says otherwise).
    #[must_use]
    pub fn claim(name: impl Into<String>) -> Self {
        Self {
            claims: vec![name.into()],
            prefix: None,
            renames: Vec::new(),
        }
    }

    /// Grants also read from the claim `name` (`roles`, `groups`, a custom claim).
    #[must_use]
    pub fn and_claim(mut self, name: impl Into<String>) -> Self {
        self.claims.push(name.into());
        self
    }

    /// Only values starting with `prefix` grant a feature: the value without the prefix
    /// (`mcp:weather.read` grants `weather.read`). Values renamed with [`Self::map`] are
    /// kept whatever their prefix.
    #[must_use]
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = Some(prefix.into());
        self
    }

    /// The value `value` (a role, a group, a scope) grants the feature `feature`;
    /// repeatable, several features for one value included. Without a [`Self::prefix`],
    /// once any value is mapped, values not mapped grant nothing (a role named like a
    /// feature grants it only when mapped).
    #[must_use]
    pub fn map(mut self, value: impl Into<String>, feature: impl Into<String>) -> Self {
        self.renames.push((value.into(), feature.into()));
        self
    }

    /// The claim `name`: the top-level claim of that name, else the dotted path.
    fn lookup<'a>(claims: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
        if let Some(value) = claims.get(name) {
            return Some(value);
        }
        if !name.contains('.') {
            return None;
        }
        let mut parts = name.split('.');
        let mut value = claims.get(parts.next()?)?;
        for part in parts {
            value = value.get(part)?;
        }
        Some(value)
    }

    /// The features `claims` grant, in the order found, each once.
    ///
    /// # Errors
    ///
    /// A reason (for the host's logs) when a configured claim is present but is neither
    /// a string nor an array of strings.
    pub fn grants(&self, claims: &Map<String, Value>) -> Result<Vec<String>, String> {
        let mut grants: Vec<String> = Vec::new();
        let mut add = |feature: &str| {
            if !grants.iter().any(|g| g == feature) {
                grants.push(feature.to_owned());
            }
        };
        for name in &self.claims {
            let values: Vec<&str> = match Self::lookup(claims, name) {
                None | Some(Value::Null) => continue,
                Some(Value::String(text)) => text.split_whitespace().collect(),
                Some(Value::Array(items)) => items
                    .iter()
                    .map(Value::as_str)
                    .collect::<Option<_>>()
                    .ok_or_else(|| format!("the `{name}` claim is not an array of strings"))?,
                Some(_) => {
                    return Err(format!(
                        "the `{name}` claim is neither a string nor an array of strings"
                    ));
                }
            };
            for value in values {
                let mut renamed = false;
                for (from, to) in &self.renames {
                    if from == value {
                        add(to);
                        renamed = true;
                    }
                }
                if renamed {
                    continue;
                }
                match &self.prefix {
                    Some(prefix) => {
                        if let Some(feature) = value.strip_prefix(prefix.as_str())
                            && !feature.is_empty()
                        {
                            add(feature);
                        }
                    }
                    None if self.renames.is_empty() => add(value),
                    None => {}
                }
            }
        }
        Ok(grants)
    }
}

impl JwtResolver {
    fn with_keys(keys: Keys) -> Self {
        let mut validation = Validation::new(Algorithm::RS256);
        validation.validate_nbf = true;
        // Until an audience is chosen every token is refused (`verify`), before this
        // validation; `audience` turns the check on and requires the claim.
        validation.validate_aud = false;
        validation.leeway = 30;
        Self {
            keys,
            validation,
            audience: Audience::Unset,
            user_claim: "sub".into(),
            grants: GrantMapping::default(),
            verified: Arc::default(),
        }
    }

    fn fixed(decoding: DecodingKey, algorithm: Algorithm) -> Self {
        Self::with_keys(Keys::Fixed(Arc::new(Key {
            decoding,
            algorithm,
            kid: None,
        })))
    }

    /// Tokens signed with HS256 and `secret`.
    ///
    /// # Errors
    ///
    /// [`KeyError`] for an empty secret (it would make every token forgeable).
    pub fn hs256(secret: &[u8]) -> Result<Self, KeyError> {
        if secret.is_empty() {
            return Err(KeyError("the HS256 secret is empty".into()));
        }
        let key = DecodingKey::from_secret(secret)
            .map_err(|e| KeyError(format!("not a usable HS256 secret: {e}")))?;
        Ok(Self::fixed(key, Algorithm::HS256))
    }

    /// Tokens signed with RS256 by the holder of the private half of `public_key_pem`
    /// (a PEM `PUBLIC KEY` or `RSA PUBLIC KEY`).
    ///
    /// # Errors
    ///
    /// [`KeyError`] when the PEM is not an RSA public key.
    pub fn rs256_pem(public_key_pem: &[u8]) -> Result<Self, KeyError> {
        let key = DecodingKey::from_rsa_pem(public_key_pem)
            .map_err(|e| KeyError(format!("not an RSA public key in PEM form: {e}")))?;
        Ok(Self::fixed(key, Algorithm::RS256))
    }

    /// Tokens signed with PS256 (RSASSA-PSS) with the private half of `public_key_pem`.
    ///
    /// # Errors
    ///
    /// [`KeyError`] when the PEM is not an RSA public key.
    pub fn ps256_pem(public_key_pem: &[u8]) -> Result<Self, KeyError> {
        let key = DecodingKey::from_rsa_pem(public_key_pem)
            .map_err(|e| KeyError(format!("not an RSA public key in PEM form: {e}")))?;
        Ok(Self::fixed(key, Algorithm::PS256))
    }

    /// Tokens signed with ES256 (ECDSA on P-256) with the private half of
    /// `public_key_pem`.
    ///
    /// # Errors
    ///
    /// [`KeyError`] when the PEM is not an EC public key.
    pub fn es256_pem(public_key_pem: &[u8]) -> Result<Self, KeyError> {
        let key = DecodingKey::from_ec_pem(public_key_pem)
            .map_err(|e| KeyError(format!("not an EC public key in PEM form: {e}")))?;
        Ok(Self::fixed(key, Algorithm::ES256))
    }

    /// Tokens signed with EdDSA (Ed25519) with the private half of `public_key_pem`.
    ///
    /// # Errors
    ///
    /// [`KeyError`] when the PEM is not an Ed25519 public key.
    pub fn eddsa_pem(public_key_pem: &[u8]) -> Result<Self, KeyError> {
        let key = DecodingKey::from_ed_pem(public_key_pem)
            .map_err(|e| KeyError(format!("not an Ed25519 public key in PEM form: {e}")))?;
        Ok(Self::fixed(key, Algorithm::EdDSA))
    }

    /// Tokens signed by an identity provider with one of the keys it publishes: its
    /// metadata is read from `issuer`'s `/.well-known/openid-configuration` (else RFC
    /// 8414's `/.well-known/oauth-authorization-server`), its key set from the document's
    /// `jwks_uri`, and `iss` is required to be `issuer`. Feature `jwks`.
    ///
    /// Keys are fetched on the first request (or [`Self::load`]), kept for
    /// [`Self::refresh`]'s `max_age`, and fetched again when a token names a `kid` the
    /// set lacks (a rotation), at most once per `min_interval`. Each key verifies the one
    /// algorithm its JWK says (`alg`, else RS256 for RSA, ES256 for P-256, ES384 for
    /// P-384, EdDSA for Ed25519); symmetric keys in a key set are ignored.
    #[cfg(feature = "jwks")]
    #[must_use]
    pub fn discover(issuer: &str) -> Self {
        Self::with_keys(Keys::Set(Arc::new(crate::jwks::KeySet::discover(issuer)))).issuer(issuer)
    }

    /// Tokens signed with one of the keys of the JWKS at `jwks_url` (see
    /// [`Self::discover`] for how keys are chosen and refreshed). Feature `jwks`.
    #[cfg(feature = "jwks")]
    #[must_use]
    pub fn jwks(jwks_url: &str) -> Self {
        Self::with_keys(Keys::Set(Arc::new(crate::jwks::KeySet::url(jwks_url))))
    }

    /// How often the key set may be fetched: at most once per `min_interval` however many
    /// unknown `kid`s arrive (default 30 s), and again after `max_age` (default 10 min),
    /// which is how a removed key stops verifying. No effect on a fixed key. Feature
    /// `jwks`.
    #[cfg(feature = "jwks")]
    #[must_use]
    pub fn refresh(
        mut self,
        min_interval: std::time::Duration,
        max_age: std::time::Duration,
    ) -> Self {
        self.verified = Arc::default();
        if let Keys::Set(set) = &self.keys {
            self.keys = Keys::Set(Arc::new(set.with_limits(min_interval, max_age)));
        }
        self
    }

    /// The HTTP client that fetches the metadata and the key set (to trust a private CA,
    /// use a proxy, set timeouts). Feature `jwks`.
    #[cfg(feature = "jwks")]
    #[must_use]
    pub fn http_client(mut self, client: reqwest::Client) -> Self {
        self.verified = Arc::default();
        if let Keys::Set(set) = &self.keys {
            self.keys = Keys::Set(Arc::new(set.with_client(client)));
        }
        self
    }

    /// Fetches the key set now (the metadata first, with [`Self::discover`]): how many
    /// usable keys it holds. For a server to fail at start-up rather than at its first
    /// request. A fixed key: `1`. Feature `jwks`.
    ///
    /// # Errors
    ///
    /// [`KeyError`] when the metadata or the key set cannot be fetched or read, or the
    /// set holds no usable key.
    #[cfg(feature = "jwks")]
    pub async fn load(&self) -> Result<usize, KeyError> {
        match &self.keys {
            Keys::Fixed(_) => Ok(1),
            Keys::Set(set) => set.load().await,
        }
    }

    /// Requires `iss` to be `issuer`.
    #[must_use]
    pub fn issuer(mut self, issuer: &str) -> Self {
        self.verified = Arc::default();
        self.validation.set_issuer(&[issuer]);
        self.validation.required_spec_claims.insert("iss".into());
        self
    }

    /// Requires `aud` to name `audience` (this server, as the token's issuer knows it:
    /// usually its URL, `https://host/mcp`); a token without `aud` is refused.
    ///
    /// Without it, a hosted server that publishes a
    /// [`ProtectedResource`](crate::http::ProtectedResource) requires its `resource`;
    /// with neither, every token is refused.
    #[must_use]
    pub fn audience(mut self, audience: &str) -> Self {
        self.verified = Arc::default();
        self.validation.set_audience(&[audience]);
        self.validation.validate_aud = true;
        self.validation.required_spec_claims.insert("aud".into());
        self.audience = Audience::Named(audience.to_owned());
        self
    }

    /// Accepts a token whatever server it was issued for, one that names none included:
    /// the opt-out of the audience check, for the rare deployment that must (a gateway
    /// that checks `aud` itself). Every token the identity provider ever issued, for any
    /// service, then opens this server; the hosted server logs a warning saying so when
    /// it starts. Prefer [`Self::audience`].
    ///
    /// ```
    /// use neuralis_mcp::http::JwtResolver;
    ///
    /// let resolver = JwtResolver::hs256(b"a shared secret").unwrap()
    ///     .issuer("https://auth.example.com")
    ///     .dangerously_accept_any_audience();
    /// # let _ = resolver;
    /// ```
    #[must_use]
    pub fn dangerously_accept_any_audience(mut self) -> Self {
        self.verified = Arc::default();
        self.validation.aud = None;
        self.validation.validate_aud = false;
        self.validation.required_spec_claims.remove("aud");
        self.audience = Audience::Any;
        self
    }

    /// The claim that holds the user id (default `sub`).
    #[must_use]
    pub fn user_claim(mut self, claim: impl Into<String>) -> Self {
        self.verified = Arc::default();
        self.user_claim = claim.into();
        self
    }

    /// The claim that holds the granted features (default `scope`): a space-separated
    /// string or an array of strings; absent means no grants. Shorthand for
    /// `.grants(GrantMapping::claim(claim))`.
    #[must_use]
    pub fn grants_claim(self, claim: impl Into<String>) -> Self {
        self.grants(GrantMapping::claim(claim))
    }

    /// How the token's claims become the caller's granted features.
    #[must_use]
    pub fn grants(mut self, mapping: GrantMapping) -> Self {
        self.verified = Arc::default();
        self.grants = mapping;
        self
    }

    /// The clock skew allowed on `exp` and `nbf`, in seconds (default 30).
    #[must_use]
    pub fn leeway(mut self, seconds: u64) -> Self {
        self.verified = Arc::default();
        self.validation.leeway = seconds;
        self
    }

    /// The token's header, or the refusal.
    fn header(token: &str) -> Result<Header, Refused> {
        decode_header(token).map_err(|e| {
            Refused::invalid(format!("the JWT's header cannot be read: {}", describe(&e)))
        })
    }

    /// The caller of a token whose key is `key` (from the key set's `generation`),
    /// remembered until the token expires.
    fn verify(
        &self,
        token: &str,
        header: &Header,
        key: &Key,
        generation: u64,
    ) -> Result<SessionContext, Refused> {
        if self.audience == Audience::Unset {
            return Err(Audience::unset_refusal("JwtResolver"));
        }
        let name = || match &key.kid {
            Some(kid) => format!("key `{kid}`"),
            None => "the key".to_owned(),
        };
        if header.alg != key.algorithm {
            return Err(Refused::invalid(format!(
                "the JWT is signed with {:?}, {} verifies {:?} only",
                header.alg,
                name(),
                key.algorithm
            )));
        }
        let mut validation = self.validation.clone();
        validation.algorithms = vec![key.algorithm];
        let data =
            decode::<Map<String, Value>>(token, &key.decoding, &validation).map_err(|e| {
                Refused::invalid(match e.kind() {
                    ErrorKind::InvalidSignature => {
                        format!("the JWT's signature does not verify with {}", name())
                    }
                    _ => format!("the JWT is refused: {}", describe(&e)),
                })
            })?;
        let claims = data.claims;
        let caller = caller_of(&claims, &self.user_claim, &self.grants, "the JWT")?;
        if let Some(exp) = claims.get("exp").and_then(Value::as_u64) {
            self.verified.put(token, exp, generation, &caller);
        }
        Ok(caller)
    }
}

/// The caller that verified `claims` (a token's, an introspection answer's) name: the
/// user from `user_claim`, the grants by `grants`; `what` names the source in a refusal.
pub(crate) fn caller_of(
    claims: &Map<String, Value>,
    user_claim: &str,
    grants: &GrantMapping,
    what: &str,
) -> Result<SessionContext, Refused> {
    let user = claims
        .get(user_claim)
        .and_then(Value::as_str)
        .filter(|u| !u.is_empty())
        .ok_or_else(|| {
            Refused::invalid(format!(
                "{what} has no string claim `{user_claim}` naming the user"
            ))
        })?;
    let grants = grants
        .grants(claims)
        .map_err(|e| Refused::invalid(format!("{what}'s grants cannot be read: {e}")))?;
    Ok(SessionContext::builder(user).grants(grants).build())
}

/// A JWT error in words an operator reads.
fn describe(error: &jsonwebtoken::errors::Error) -> String {
    match error.kind() {
        ErrorKind::ExpiredSignature => "it expired (`exp` is past)".into(),
        ErrorKind::ImmatureSignature => "it is not valid yet (`nbf` is ahead)".into(),
        ErrorKind::InvalidIssuer => "`iss` is not the configured issuer".into(),
        ErrorKind::InvalidAudience => "`aud` does not name this server's audience".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("it has no `{claim}` claim"),
        ErrorKind::InvalidAlgorithm => "its algorithm is not the key's".into(),
        ErrorKind::InvalidAlgorithmName => "its `alg` is not a signature algorithm".into(),
        ErrorKind::InvalidToken => "it is not a JWT (three base64url parts)".into(),
        other => format!("{other:?}"),
    }
}

impl Resolve for JwtResolver {
    /// With a key set (feature `jwks`), only the keys already fetched: the hosted service
    /// calls [`Resolve::resolve_request`], which fetches them.
    fn resolve(&self, parts: &http::request::Parts) -> Result<SessionContext, Refused> {
        let token = bearer_token(parts)?;
        match &self.keys {
            Keys::Fixed(key) => {
                if let Some(caller) = self.verified.get(token, 0) {
                    return Ok(caller);
                }
                self.verify(token, &Self::header(token)?, key, 0)
            }
            #[cfg(feature = "jwks")]
            Keys::Set(set) => {
                let generation = set.generation();
                if set.is_fresh()
                    && let Some(caller) = self.verified.get(token, generation)
                {
                    return Ok(caller);
                }
                let header = Self::header(token)?;
                let key = set.cached(header.kid.as_deref())?;
                self.verify(token, &header, &key, generation)
            }
        }
    }

    fn resolve_request<'a>(&'a self, parts: &'a http::request::Parts) -> Resolution<'a> {
        match &self.keys {
            Keys::Fixed(_) => Box::pin(std::future::ready(self.resolve(parts))),
            #[cfg(feature = "jwks")]
            Keys::Set(set) => Box::pin(async move {
                let token = bearer_token(parts)?;
                if set.is_fresh()
                    && let Some(caller) = self.verified.get(token, set.generation())
                {
                    return Ok(caller);
                }
                let header = Self::header(token)?;
                let key = set.key(header.kid.as_deref()).await?;
                self.verify(token, &header, &key, set.generation())
            }),
        }
    }

    /// Without an audience, the protected resource's URL is the audience; with none
    /// either (or with any audience accepted), a warning in the host's log.
    fn for_resource(&self, resource: Option<&str>) -> Option<Arc<dyn Resolve>> {
        match (&self.audience, resource) {
            (Audience::Unset, Some(resource)) => Some(Arc::new(self.clone().audience(resource))),
            (audience, _) => {
                audience.warn_at_start("JwtResolver");
                None
            }
        }
    }
}
