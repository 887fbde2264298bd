//! Bearer JWTs as the caller's identity (feature `jwt`), on `jsonwebtoken`.

use std::fmt;

use jsonwebtoken::{Algorithm, DecodingKey, Validation, decode};
use neuralis_core::dispatch::SessionContext;
use serde_json::{Map, Value};

use crate::http::{Refused, Resolve, bearer_token};

/// Resolves each request's caller from an `Authorization: Bearer <JWT>` header: the
/// signature checked with one key (HS256 with a shared secret, or RS256 with the issuer's
/// public key), `exp` required and checked, `nbf` checked when present, `iss` and `aud`
/// checked when configured (and then required). The user id is read from a claim (`sub`
/// by default), the granted features from another (`scope` by default: a
/// space-separated string, as OAuth writes scopes, or an array of strings).
///
/// A token that fails any check is refused with `401` and `error="invalid_token"`; the
/// reason (`ExpiredSignature`, `InvalidSignature`...) is only for the host's logs.
///
/// ```
/// use jsonwebtoken::{EncodingKey, Header, encode};
/// use neuralis_mcp::http::{JwtResolver, Resolve};
/// use serde_json::json;
///
/// let resolver = JwtResolver::hs256(b"a shared secret").unwrap().issuer("https://auth.example.com");
/// let claims = json!({"sub": "ada", "scope": "weather.read notes.write",
///     "iss": "https://auth.example.com", "exp": 4_102_444_800u64});
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
    key: DecodingKey,
    validation: Validation,
    user_claim: String,
    grants_claim: String,
}

impl fmt::Debug for JwtResolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the key.
        f.debug_struct("JwtResolver")
            .field("algorithms", &self.validation.algorithms)
            .field("iss", &self.validation.iss)
            .field("aud", &self.validation.aud)
            .field("user_claim", &self.user_claim)
            .field("grants_claim", &self.grants_claim)
            .finish_non_exhaustive()
    }
}

/// Why a JWT key could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyError(String);

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KeyError {}

impl JwtResolver {
    fn with(key: DecodingKey, algorithm: Algorithm) -> Self {
        let mut validation = Validation::new(algorithm);
        validation.validate_nbf = true;
        // Checked only when `audience` names one; a token's `aud` is then required.
        validation.validate_aud = false;
        validation.leeway = 30;
        Self {
            key,
            validation,
            user_claim: "sub".into(),
            grants_claim: "scope".into(),
        }
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
        Ok(Self::with(key, Algorithm::HS256))
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
        Ok(Self::with(key, Algorithm::RS256))
    }

    /// Requires `iss` to be `issuer`.
    #[must_use]
    pub fn issuer(mut self, issuer: &str) -> Self {
        self.validation.set_issuer(&[issuer]);
        self.validation.required_spec_claims.insert("iss".into());
        self
    }

    /// Requires `aud` to name `audience` (this server, as the token's issuer knows it).
    #[must_use]
    pub fn audience(mut self, audience: &str) -> Self {
        self.validation.set_audience(&[audience]);
        self.validation.validate_aud = true;
        self.validation.required_spec_claims.insert("aud".into());
        self
    }

    /// The claim that holds the user id (default `sub`).
    #[must_use]
    pub fn user_claim(mut self, claim: impl Into<String>) -> Self {
        self.user_claim = claim.into();
        self
    }

    /// The claim that holds the granted features (default `scope`): a space-separated
    /// string or an array of strings; absent means no grants.
    #[must_use]
    pub fn grants_claim(mut self, claim: impl Into<String>) -> Self {
        self.grants_claim = claim.into();
        self
    }

    /// The clock skew allowed on `exp` and `nbf`, in seconds (default 30).
    #[must_use]
    pub fn leeway(mut self, seconds: u64) -> Self {
        self.validation.leeway = seconds;
        self
    }
}

impl Resolve for JwtResolver {
    fn resolve(&self, parts: &http::request::Parts) -> Result<SessionContext, Refused> {
        let token = bearer_token(parts)?;
        let data = decode::<Map<String, Value>>(token, &self.key, &self.validation)
            .map_err(|e| Refused::invalid(format!("the JWT is refused: {e:?}")))?;
        let claims = data.claims;
        let user = claims
            .get(&self.user_claim)
            .and_then(Value::as_str)
            .filter(|u| !u.is_empty())
            .ok_or_else(|| {
                Refused::invalid(format!(
                    "the JWT has no string claim `{}` naming the user",
                    self.user_claim
                ))
            })?;
        let grants: Vec<String> = match claims.get(&self.grants_claim) {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::String(scopes)) => scopes.split_whitespace().map(str::to_owned).collect(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect::<Option<_>>()
                .ok_or_else(|| {
                    Refused::invalid(format!(
                        "the JWT's `{}` claim is not an array of strings",
                        self.grants_claim
                    ))
                })?,
            Some(_) => {
                return Err(Refused::invalid(format!(
                    "the JWT's `{}` claim is neither a string nor an array",
                    self.grants_claim
                )));
            }
        };
        Ok(SessionContext::builder(user).grants(grants).build())
    }
}
