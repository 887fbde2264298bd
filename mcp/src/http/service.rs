//! [`HostedService`]: the tower service in front of rmcp's streamable HTTP service that
//! resolves every request's caller, reads its body within the cap, holds the legacy
//! sessions to their owners and caps, and applies the rate limit and the timeout.

use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Instant;

use http::header::{CONTENT_TYPE, WWW_AUTHENTICATE};
use http::{HeaderValue, Method, Request, Response, StatusCode};
use http_body::Body;
use http_body_util::{BodyExt as _, Full, LengthLimitError, Limited};
use neuralis_core::dispatch::SessionContext;
use rmcp::RoleServer;
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tracing::Instrument as _;

use super::limits::{Limits, SessionLimits};
use crate::McpServer;
use crate::call_stream::Sessions;
use crate::identity::{Refused, Resolve};
use crate::reply::{
    HttpResponse, METHOD_HEADER, REQUEST_ID, SESSION_HEADER, full, refusal, rpc_error,
};

/// The caller an HTTP request was resolved to, and the request's id, in its extensions
/// (set by [`HostedService`] only).
#[derive(Clone)]
struct Verified {
    caller: SessionContext,
    request_id: Arc<str>,
    /// The served dialect of the path the request came through, when not the server's.
    served: Option<crate::Served>,
}

fn verified(context: &RequestContext<RoleServer>) -> Option<&Verified> {
    context
        .extensions
        .get::<http::request::Parts>()?
        .extensions
        .get::<Verified>()
}

/// The caller [`HostedService`] resolved for the request `context` belongs to.
pub(crate) fn verified_caller(context: &RequestContext<RoleServer>) -> Option<SessionContext> {
    verified(context).map(|v| v.caller.clone())
}

/// The served dialect of the [`HostedService`] the request `context` came through, when
/// it was given one ([`HostedService::serving`]).
pub(crate) fn served_of(context: &RequestContext<RoleServer>) -> Option<crate::Served> {
    verified(context).and_then(|v| v.served)
}

/// The id of the HTTP request `context` belongs to (its `x-request-id`).
pub(crate) fn request_id_of(context: &RequestContext<RoleServer>) -> Option<&str> {
    verified(context).map(|v| &*v.request_id)
}

/// The tower service of a package over streamable HTTP (see [`crate::http`]): every
/// request's caller resolved, its body read within the cap, then rmcp's streamable HTTP
/// service; a body that is not a JSON-RPC message is answered with JSON-RPC's own error
/// (`-32700` for text that is not JSON, `-32600` for JSON that is no message) where rmcp
/// alone answers `415`. Mount it where MCP is served (`/mcp`).
#[derive(Clone)]
pub struct HostedService {
    inner: StreamableHttpService<McpServer, Sessions>,
    resolver: Arc<dyn Resolve>,
    /// The user who opened each legacy session, by its `Mcp-Session-Id`.
    owners: Arc<Mutex<HashMap<String, String>>>,
    challenge: Arc<str>,
    #[cfg(feature = "rate-limit")]
    limiter: Option<Arc<crate::rate_limit::Limiter>>,
    timeout: Option<std::time::Duration>,
    /// The served dialect of this path, over the server's ([`Self::serving`]).
    served: Option<crate::Served>,
    /// rmcp's legacy sessions (whose ids the owners map is pruned against), each call's
    /// event stream reachable from the call.
    sessions: Arc<Sessions>,
    /// `initialize`s let through and not answered yet, by user: counted against the caps,
    /// so that requests at once cannot all pass the same check.
    opening: Arc<Mutex<HashMap<String, usize>>>,
    session_limits: SessionLimits,
    /// The server card served at `<endpoint>/server-card`, if the host gave one.
    card: Option<Arc<super::card::Served>>,
}

impl fmt::Debug for HostedService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostedService")
            .field("challenge", &self.challenge)
            .finish_non_exhaustive()
    }
}

impl HostedService {
    pub(super) fn new(
        server: McpServer,
        resolver: Arc<dyn Resolve>,
        challenge: String,
        config: StreamableHttpServerConfig,
        limits: &Limits,
    ) -> Self {
        let mut manager = LocalSessionManager::default();
        manager.session_config.keep_alive = Some(limits.sessions.idle);
        // The retry interval of a call's stream (its first event) is the configured one.
        manager.session_config.sse_retry = config.sse_retry;
        let sessions = Arc::new(Sessions::new(manager));
        let inner =
            StreamableHttpService::new(move || Ok(server.fresh()), Arc::clone(&sessions), config);
        Self {
            inner,
            sessions,
            opening: Arc::default(),
            session_limits: limits.sessions,
            resolver,
            owners: Arc::default(),
            challenge: Arc::from(challenge),
            #[cfg(feature = "rate-limit")]
            limiter: limits
                .calls_per_minute
                .map(|n| Arc::new(crate::rate_limit::Limiter::per_minute(n))),
            timeout: limits.timeout,
            card: None,
            served: None,
        }
    }

    /// The service, publishing `card`.
    pub(super) fn with_card(mut self, card: Option<Arc<super::card::Served>>) -> Self {
        self.card = card;
        self
    }

    /// The server card this service publishes at `<endpoint>/server-card` (see
    /// [`ServerCard`](super::ServerCard)), as served.
    #[must_use]
    pub fn server_card(&self) -> Option<serde_json::Value> {
        self.card.as_ref().map(|card| card.document())
    }

    /// The answer to a request for the server card: after rmcp's own `Host` and `Origin`
    /// checks (asked with the request's URI and headers as an `OPTIONS`, a method rmcp
    /// answers `405` once they pass), before identity.
    async fn card_answer(&self, parts: &http::request::Parts) -> HttpResponse {
        let mut probe = Request::new(Full::new(bytes::Bytes::new()));
        *probe.method_mut() = Method::OPTIONS;
        probe.uri_mut().clone_from(&parts.uri);
        probe.headers_mut().clone_from(&parts.headers);
        let checked = self.inner.handle(probe).await;
        if checked.status() != StatusCode::METHOD_NOT_ALLOWED {
            return super::card::with_cors(as_json_rpc(checked).await);
        }
        match &self.card {
            Some(card) => card.answer(&parts.method, &parts.headers),
            None => super::card::missing(),
        }
    }

    /// This service with every request it serves in the served dialect `served` (its
    /// `tools/list`, and its calls read back as that dialect's): mount it at a second
    /// path beside the first, for example `/mcp` in `portable` (the server's) and
    /// `/mcp/remote` in `mcp-remote` for a platform that lowers schemas itself. A clone:
    /// one process, one server, the callers' identities, limits, sessions, tasks and
    /// state shared by both paths.
    ///
    /// ```no_run
    /// # fn service(h: neuralis_mcp::http::HostedService) {
    /// use neuralis_mcp::Served;
    /// let remote = h.clone().serving(Served::McpRemote);
    /// // router.nest_service("/mcp", h).nest_service("/mcp/remote", remote)
    /// # }
    /// ```
    #[must_use]
    pub fn serving(mut self, served: crate::Served) -> Self {
        self.served = Some(served);
        self
    }

    /// How many legacy sessions are open (each bound to the user who opened it).
    #[must_use]
    pub fn open_sessions(&self) -> usize {
        self.owners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// The refusal of an `initialize` that would open a session past a cap, after the
    /// sessions rmcp has closed (idle, or their connection gone) are forgotten; else the
    /// room it takes until it is answered.
    async fn open_session(&self, user: &str) -> Result<Opening, HttpResponse> {
        let limits = self.session_limits;
        let live = self.sessions.local.sessions.read().await;
        let mut owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        owners.retain(|id, _| live.contains_key(id.as_str()));
        drop(live);
        let mut opening = self.opening.lock().unwrap_or_else(PoisonError::into_inner);
        let held = owners.values().filter(|owner| *owner == user).count()
            + opening.get(user).copied().unwrap_or(0);
        let total = owners.len() + opening.values().sum::<usize>();
        drop(owners);
        let over_caller = limits.per_caller.is_some_and(|max| held >= max);
        let over_total = limits.total.is_some_and(|max| total >= max);
        if !over_caller && !over_total {
            *opening.entry(user.to_owned()).or_insert(0) += 1;
            return Ok(Opening {
                opening: Arc::clone(&self.opening),
                user: user.to_owned(),
            });
        }
        drop(opening);
        Err(self.session_refusal(over_caller, held))
    }

    /// The answer to an `initialize` past a cap.
    fn session_refusal(&self, over_caller: bool, held: usize) -> HttpResponse {
        let limits = self.session_limits;
        if over_caller {
            let max = limits.per_caller.unwrap_or_default();
            return refusal(
                StatusCode::TOO_MANY_REQUESTS,
                &format!(
                    "too many open sessions: this caller holds {held}, the most this server keeps for one caller is {max}; end one (DELETE /mcp with its Mcp-Session-Id) or let one expire"
                ),
                &format!("session cap per caller ({max}) reached"),
            );
        }
        let max = limits.total.unwrap_or_default();
        refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!(
                "too many open sessions: this server keeps at most {max}; try again later, or use the stateless protocol (2026-07-28), which needs none"
            ),
            &format!("session cap in all ({max}) reached"),
        )
    }

    /// The `401` for a refused request.
    fn unauthorized(&self, refused: &Refused) -> HttpResponse {
        let challenge = match refused.code {
            Some(code) => format!("{}, error=\"{code}\"", self.challenge),
            None => self.challenge.to_string(),
        };
        let mut response = refusal(
            StatusCode::UNAUTHORIZED,
            "unauthorized: this server needs a valid bearer token",
            refused.reason(),
        );
        if let Ok(value) = HeaderValue::from_str(&challenge) {
            response.headers_mut().insert(WWW_AUTHENTICATE, value);
        }
        response
    }

    /// Answers one HTTP request, within its `mcp.request` span (see [`crate::http`]),
    /// with its `x-request-id` (the caller's when it is up to 200 letters, digits and
    /// `-_.:/+=@`, else a fresh UUID).
    pub async fn handle<B>(&self, request: Request<B>) -> HttpResponse
    where
        B: Body + Send + 'static,
        B::Error: std::error::Error + Send + Sync + 'static,
        B::Data: Send + 'static,
    {
        let started = Instant::now();
        let request_id: Arc<str> = match request
            .headers()
            .get(REQUEST_ID)
            .and_then(|v| v.to_str().ok())
            // Echoed and logged: only an id of up to 200 plain characters is taken as is.
            .filter(|v| {
                !v.is_empty()
                    && v.len() <= 200
                    && v.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-_.:/+=@".contains(&b))
            }) {
            Some(id) => Arc::from(id),
            None => Arc::from(uuid::Uuid::new_v4().to_string()),
        };
        let rpc_method = request
            .headers()
            .get(METHOD_HEADER)
            .and_then(|v| v.to_str().ok());
        let span = tracing::info_span!(
            target: "neuralis_mcp::http",
            "mcp.request",
            method = %request.method(),
            request_id = %request_id,
            rpc_method = rpc_method,
            caller = tracing::field::Empty,
            status = tracing::field::Empty,
            refusal = tracing::field::Empty,
            duration_ms = tracing::field::Empty,
        );
        let mut response = self
            .answer(request, request_id.clone())
            .instrument(span.clone())
            .await;
        span.record("status", response.status().as_u16());
        span.record("duration_ms", started.elapsed().as_secs_f64() * 1000.0);
        if let Ok(value) = HeaderValue::from_str(&request_id) {
            response.headers_mut().insert(REQUEST_ID, value);
        }
        response
    }

    /// The answer to one request (in its span).
    async fn answer<B>(&self, request: Request<B>, request_id: Arc<str>) -> HttpResponse
    where
        B: Body + Send + 'static,
        B::Error: std::error::Error + Send + Sync + 'static,
        B::Data: Send + 'static,
    {
        let (mut parts, body) = request.into_parts();
        if super::card::is_card_path(parts.uri.path()) {
            return self.card_answer(&parts).await;
        }
        let caller = match self.resolver.resolve_request(&parts).await {
            Ok(caller) => caller,
            Err(refused) => return self.unauthorized(&refused),
        };
        tracing::Span::current().record("caller", caller.user_id());
        let session = parts
            .headers
            .get(SESSION_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if let Some(id) = &session {
            let owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
            if owners
                .get(id)
                .is_some_and(|owner| owner != caller.user_id())
            {
                drop(owners);
                return refusal(
                    StatusCode::FORBIDDEN,
                    "forbidden: this session belongs to another caller; open a session of your own",
                    "a legacy session id used by another user than the one who opened it",
                );
            }
        }
        let bytes = match self.read_body(body).await {
            Ok(bytes) => bytes,
            Err(refused) => return refused,
        };
        #[cfg(feature = "rate-limit")]
        if let Some(limiter) = &self.limiter {
            let calls = crate::rate_limit::calls_in(&parts, &bytes);
            if let Err(wait) = limiter.check(caller.user_id(), calls) {
                return crate::rate_limit::too_many(limiter, wait);
            }
        }
        let user = caller.user_id().to_owned();
        let closing = parts.method == Method::DELETE;
        let posted = parts.method == Method::POST;
        // Held until the `initialize` is answered (and its session recorded below).
        let _opening = if posted
            && session.is_none()
            && self.inner.config.legacy_session_mode
            && opens_session(&bytes)
        {
            match self.open_session(&user).await {
                Ok(opening) => Some(opening),
                Err(refused) => return refused,
            }
        } else {
            None
        };
        let json_body = parts
            .headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"));
        parts.extensions.insert(Verified {
            caller,
            request_id,
            served: self.served,
        });
        let answer = self
            .inner
            .handle(Request::from_parts(parts, Full::new(bytes.clone())));
        let response = match self.timeout {
            None => answer.await,
            Some(limit) => match tokio::time::timeout(limit, answer).await {
                Ok(response) => response,
                Err(_) => {
                    return refusal(
                        StatusCode::SERVICE_UNAVAILABLE,
                        &format!(
                            "the request took longer than this server allows ({} ms); it was cancelled",
                            limit.as_millis()
                        ),
                        &format!("the request timed out after {} ms", limit.as_millis()),
                    );
                }
            },
        };
        // rmcp answers `415` to a JSON body it could not read as a message; JSON-RPC
        // has its own errors for that.
        if posted && json_body && response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE {
            return unreadable_message(&bytes);
        }
        // A session ended: `204`, which clients expect (rmcp says `202 Accepted`, and the
        // Python SDK logs that as a failed termination).
        let response = if closing && response.status() == StatusCode::ACCEPTED {
            let mut ended = Response::new(full(String::new()));
            *ended.status_mut() = StatusCode::NO_CONTENT;
            ended
        } else {
            as_json_rpc(response).await
        };
        self.record_owner(session, closing, &response, user);
        response
    }

    /// The body, read within the cap here (as rmcp would), so that a body rmcp cannot
    /// read as a JSON-RPC message can be told apart: not JSON, or no message.
    async fn read_body<B>(&self, body: B) -> Result<bytes::Bytes, HttpResponse>
    where
        B: Body + Send + 'static,
        B::Error: std::error::Error + Send + Sync + 'static,
        B::Data: Send + 'static,
    {
        let cap = self.inner.config.max_request_body_bytes;
        match Limited::new(body, cap).collect().await {
            Ok(collected) => Ok(collected.to_bytes()),
            Err(e) if e.downcast_ref::<LengthLimitError>().is_some() => Err(refusal(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!("payload too large: the request body exceeds {cap} bytes"),
                &format!("the request body exceeds the cap of {cap} bytes"),
            )),
            Err(e) => Err(rpc_error(
                StatusCode::BAD_REQUEST,
                -32700,
                &format!("the request body could not be read: {e}"),
            )),
        }
    }

    /// The owner of the legacy session a response opened (`user`), or none any more for
    /// one a request closed.
    fn record_owner(
        &self,
        session: Option<String>,
        closing: bool,
        response: &HttpResponse,
        user: String,
    ) {
        let mut owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        match session {
            None => {
                if let Some(id) = response
                    .headers()
                    .get(SESSION_HEADER)
                    .and_then(|v| v.to_str().ok())
                {
                    owners.insert(id.to_owned(), user);
                }
            }
            Some(id) if closing && response.status().is_success() => {
                owners.remove(&id);
            }
            Some(_) => {}
        }
    }
}

/// What a JSON body that rmcp could not read as a message is (rmcp answers `415`;
/// JSON-RPC has its own errors): JSON but no JSON-RPC message, or no JSON at all.
fn unreadable_message(bytes: &[u8]) -> HttpResponse {
    if serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok() {
        rpc_error(
            StatusCode::BAD_REQUEST,
            -32600,
            "invalid request: the body is JSON but not a JSON-RPC message",
        )
    } else {
        rpc_error(
            StatusCode::BAD_REQUEST,
            -32700,
            "parse error: the body is not JSON",
        )
    }
}

/// Room taken by an `initialize` until it is answered.
struct Opening {
    opening: Arc<Mutex<HashMap<String, usize>>>,
    user: String,
}

impl Drop for Opening {
    fn drop(&mut self) {
        let mut opening = self.opening.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = opening.get_mut(&self.user) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                opening.remove(&self.user);
            }
        }
    }
}

/// Whether a body with no session id is one that opens a legacy session: an
/// `initialize` request (alone or in a batch). Parsed only when the text names it.
fn opens_session(bytes: &[u8]) -> bool {
    const NAME: &[u8] = b"\"initialize\"";
    if !bytes.windows(NAME.len()).any(|w| w == NAME) {
        return false;
    }
    let is_initialize = |m: &serde_json::Value| {
        m.get("method").and_then(serde_json::Value::as_str) == Some("initialize")
    };
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(serde_json::Value::Array(items)) => items.iter().any(is_initialize),
        Ok(message) => is_initialize(&message),
        Err(_) => false,
    }
}

/// rmcp's own refusals (`403` for a `Host` or `Origin` it does not allow, `406`, `405`,
/// `404` for an unknown session...) come as plain text, which clients report as an
/// unreadable error: the same status with a JSON-RPC error body carrying the text.
async fn as_json_rpc(response: HttpResponse) -> HttpResponse {
    let status = response.status();
    let is_json = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = match body.collect().await {
        Ok(collected) => String::from_utf8_lossy(&collected.to_bytes()).into_owned(),
        Err(never) => match never {},
    };
    let text = if text.trim().is_empty() {
        status.canonical_reason().unwrap_or("refused").to_owned()
    } else {
        text.trim().to_owned()
    };
    let mut answer = refusal(status, &text, &text);
    for (name, value) in &parts.headers {
        if name != CONTENT_TYPE && name != http::header::CONTENT_LENGTH {
            answer.headers_mut().insert(name.clone(), value.clone());
        }
    }
    answer
}

impl<B> tower_service::Service<Request<B>> for HostedService
where
    B: Body + Send + 'static,
    B::Error: std::error::Error + Send + Sync + 'static,
    B::Data: Send + 'static,
{
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let service = self.clone();
        Box::pin(async move { Ok(service.handle(request).await) })
    }
}
