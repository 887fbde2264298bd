//! Who calls a hosted server (feature `http`): the resolver interface ([`Resolve`]), its
//! refusals ([`Refused`]), the bearer-token parsing every resolver shares
//! ([`bearer_token`]), and the token table for local use ([`TokenTable`]). Below the
//! transport: `http` serves with them, and the resolvers of `jwt`, `jwks` and
//! `introspect` implement them; none of them imports the transport. Re-exported from
//! [`crate::http`], where a host names them.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;

use http::header::AUTHORIZATION;
use neuralis_core::dispatch::SessionContext;

/// What [`Resolve::resolve_request`] returns: the caller, once resolved.
pub type Resolution<'a> =
    Pin<Box<dyn Future<Output = Result<SessionContext, Refused>> + Send + 'a>>;

/// Who calls: the verified [`SessionContext`] of one HTTP request, from its headers and
/// the extensions the host's middleware set. Implemented by [`TokenTable`],
/// `JwtResolver` (feature `jwt`) and closures.
pub trait Resolve: Send + Sync + 'static {
    /// The caller of the request `parts` belongs to.
    ///
    /// # Errors
    ///
    /// [`Refused`] when the request carries no credentials the resolver accepts: the
    /// request is answered `401` and nothing runs.
    fn resolve(&self, parts: &http::request::Parts) -> Result<SessionContext, Refused>;

    /// The caller, resolved asynchronously: what the hosted service calls. By default
    /// [`Self::resolve`]; a resolver that may have to fetch something first (an identity
    /// provider's keys, an introspection answer) overrides it.
    fn resolve_request<'a>(&'a self, parts: &'a http::request::Parts) -> Resolution<'a> {
        Box::pin(std::future::ready(self.resolve(parts)))
    }

    /// The resolver a hosted server uses once it knows what it is: called once, when the
    /// service is built ([`Hosted::service`](crate::http::Hosted::service)), with the
    /// `resource` its protected-resource metadata names (RFC 9728), if it publishes any.
    ///
    /// A resolver that checks which server a token was issued for, and was told none,
    /// returns itself requiring `resource` as the audience (so a server that knows its
    /// URL needs no second spelling of it); this is also where a resolver warns the
    /// operator, once, of what it will refuse or let in. By default `None`: the resolver
    /// is used as it is.
    fn for_resource(&self, resource: Option<&str>) -> Option<Arc<dyn Resolve>> {
        let _ = resource;
        None
    }
}

/// Which server a token must have been issued for (its `aud`, RFC 8707), as a resolver
/// that reads tokens minted by an identity provider is configured: the MCP authorization
/// spec requires the check, so a resolver told nothing refuses every token.
#[cfg(feature = "jwt")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Audience {
    /// None chosen: every token is refused, until [`Resolve::for_resource`] names one.
    Unset,
    /// `aud` must name this (a token without `aud` is refused).
    Named(String),
    /// Any audience, none at all included: the documented opt-out.
    Any,
}

#[cfg(feature = "jwt")]
impl Audience {
    /// The refusal of every token while no audience is chosen; `builder` names the
    /// resolver (`JwtResolver`).
    pub(crate) fn unset_refusal(builder: &str) -> Refused {
        Refused::invalid(format!(
            "{builder} has no audience, so every token is refused (a token minted for another \
             server must not get in): name this server with `.audience(\"https://host/mcp\")`, \
             or give the hosted server its `ProtectedResource`, whose `resource` is then the \
             audience; `.dangerously_accept_any_audience()` accepts tokens for any server"
        ))
    }

    /// Logs, once, what a resolver with this audience will do when nothing names one
    /// (`resource` is `None`): refuse everything, or let in any audience.
    pub(crate) fn warn_at_start(&self, builder: &str) {
        match self {
            Self::Unset => tracing::warn!(
                target: "neuralis_mcp::auth",
                "{}",
                Self::unset_refusal(builder).reason()
            ),
            Self::Any => tracing::warn!(
                target: "neuralis_mcp::auth",
                "{builder} accepts tokens issued for ANY audience \
                 (`dangerously_accept_any_audience`): a token the identity provider minted for \
                 another service opens this server too; name this server with `.audience(..)`"
            ),
            Self::Named(_) => {}
        }
    }
}

impl<F> Resolve for F
where
    F: Fn(&http::request::Parts) -> Result<SessionContext, Refused> + Send + Sync + 'static,
{
    fn resolve(&self, parts: &http::request::Parts) -> Result<SessionContext, Refused> {
        self(parts)
    }
}

/// Why a request has no verified caller. Its reason is for the host's logs (see
/// [`Refused::reason`]); the client is told only the RFC 6750 error code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The RFC 6750 error code the challenge names (none for missing credentials).
    pub(crate) code: Option<&'static str>,
    reason: String,
}

impl Refused {
    /// The request carries no credentials at all (the challenge then has no error code,
    /// as RFC 6750 asks).
    #[must_use]
    pub fn missing() -> Self {
        Self {
            code: None,
            reason: "the request carries no `Authorization: Bearer` credentials".into(),
        }
    }

    /// The credentials are not well-formed (`error="invalid_request"`).
    #[must_use]
    pub fn malformed(reason: impl Into<String>) -> Self {
        Self {
            code: Some("invalid_request"),
            reason: reason.into(),
        }
    }

    /// The token is unknown, expired, or wrongly signed (`error="invalid_token"`).
    #[must_use]
    pub fn invalid(reason: impl Into<String>) -> Self {
        Self {
            code: Some("invalid_token"),
            reason: reason.into(),
        }
    }

    /// Why, for the host's logs.
    #[must_use]
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for Refused {}

/// The token of an `Authorization: Bearer <token>` header (the scheme in any case, as
/// RFC 7235 says).
///
/// # Errors
///
/// [`Refused::missing`] without the header; [`Refused::malformed`] for another scheme
/// or an empty token.
///
/// ```
/// use neuralis_mcp::http::bearer_token;
///
/// let parts = |value: &str| http::Request::get("/").header("Authorization", value)
///     .body(()).unwrap().into_parts().0;
/// assert_eq!(bearer_token(&parts("Bearer abc")).unwrap(), "abc");
/// assert_eq!(bearer_token(&parts("bearer abc")).unwrap(), "abc");
/// assert!(bearer_token(&parts("Basic YTpi")).is_err());
/// ```
pub fn bearer_token(parts: &http::request::Parts) -> Result<&str, Refused> {
    let Some(value) = parts.headers.get(AUTHORIZATION) else {
        return Err(Refused::missing());
    };
    let value = value
        .to_str()
        .map_err(|_| Refused::malformed("the `Authorization` header is not text"))?;
    let (scheme, token) = value.split_once(' ').unwrap_or((value, ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(Refused::malformed(format!(
            "the `Authorization` scheme is `{scheme}`, not `Bearer`"
        )));
    }
    let token = token.trim();
    if token.is_empty() {
        return Err(Refused::malformed("the bearer token is empty"));
    }
    Ok(token)
}

/// A fixed table of bearer tokens, each the credential of one caller: for local use and
/// tests. Read from JSON, `{"<token>": {"user": "<id>", "grants": ["<feature>", ...]},
/// ...}` (`grants` may be left out).
///
/// ```
/// use neuralis_mcp::http::{Resolve, TokenTable};
///
/// let table = TokenTable::from_json(r#"{"t-1": {"user": "ada", "grants": ["weather.read"]}}"#).unwrap();
/// let parts = http::Request::post("/mcp").header("Authorization", "Bearer t-1")
///     .body(()).unwrap().into_parts().0;
/// let caller = table.resolve(&parts).unwrap();
/// assert_eq!(caller.user_id(), "ada");
/// assert!(caller.is_granted("weather.read"));
/// ```
#[derive(Clone, Default)]
pub struct TokenTable {
    tokens: HashMap<String, SessionContext>,
}

impl fmt::Debug for TokenTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the tokens themselves.
        f.debug_struct("TokenTable")
            .field("tokens", &self.tokens.len())
            .finish()
    }
}

/// One entry of a token file.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenEntry {
    user: String,
    #[serde(default)]
    grants: Vec<String>,
}

/// Why a token table could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableError(String);

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TableError {}

impl TokenTable {
    /// An empty table (every request is refused).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The table with `token` as the credential of `session`.
    #[must_use]
    pub fn with(mut self, token: impl Into<String>, session: SessionContext) -> Self {
        self.tokens.insert(token.into(), session);
        self
    }

    /// The table a JSON text describes.
    ///
    /// # Errors
    ///
    /// [`TableError`] when the text is not such an object, an entry has another key, a
    /// user id or a token is empty.
    pub fn from_json(text: &str) -> Result<Self, TableError> {
        let entries: HashMap<String, TokenEntry> = serde_json::from_str(text).map_err(|e| {
            TableError(format!(
                "not a token table ({e}): write {{\"<token>\": {{\"user\": \"<id>\", \"grants\": [\"<feature>\"]}}}}"
            ))
        })?;
        let mut table = Self::new();
        for (token, entry) in entries {
            if token.trim().is_empty() || token.contains(char::is_whitespace) {
                return Err(TableError(
                    "a token is empty or contains whitespace, which no `Authorization` header can carry".into(),
                ));
            }
            if entry.user.is_empty() {
                return Err(TableError(format!(
                    "the user of a token is empty (token ending `{}`)",
                    tail(&token)
                )));
            }
            let session = SessionContext::builder(entry.user)
                .grants(entry.grants)
                .build();
            table.tokens.insert(token, session);
        }
        Ok(table)
    }

    /// The table in the JSON file at `path` (see [`Self::from_json`]).
    ///
    /// # Errors
    ///
    /// [`TableError`] when the file cannot be read or is not a token table.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Self, TableError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| TableError(format!("{}: {e}", path.display())))?;
        Self::from_json(&text).map_err(|e| TableError(format!("{}: {e}", path.display())))
    }

    /// How many tokens the table holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Whether the table holds no token.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }
}

/// The last characters of a token, to name it in a message without showing it.
fn tail(token: &str) -> &str {
    let start = token.char_indices().rev().nth(3).map_or(0, |(i, _)| i);
    &token[start..]
}

impl Resolve for TokenTable {
    fn resolve(&self, parts: &http::request::Parts) -> Result<SessionContext, Refused> {
        let token = bearer_token(parts)?;
        self.tokens
            .get(token)
            .cloned()
            .ok_or_else(|| Refused::invalid("the bearer token is not in the table"))
    }
}
