//! A call's event stream in the legacy session mode, which the call may close while it
//! runs (SEP-1699, "SSE polling"): the client resumes it with a `GET` carrying
//! `Last-Event-ID` and receives the rest of the call's events, its result among them.
//!
//! The machinery is rmcp's: its [`LocalSessionManager`] numbers each call's events
//! (`<index>/<stream>`), keeps them, closes one call's stream on request
//! ([`LocalSessionHandle::close_sse_stream`]) and replays the kept events on a resume.
//! [`Sessions`] is that manager with one addition: the stream of each `tools/call` is
//! reachable from the call ([`close_call_stream`]), and a resume is seen, so that a call
//! whose stream is closed hands its result over only once the client is back (rmcp
//! delivers a result to a connected stream only).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, GetExtensions as _, ServerJsonRpcMessage};
use rmcp::service::RequestContext;
use rmcp::transport::WorkerTransport;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionHandle, LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tokio_util::sync::CancellationToken;

/// How long a call whose stream it closed waits for the client to resume, beyond the
/// retry interval the client was given, before it hands its result over anyway.
const RESUME_GRACE: Duration = Duration::from_secs(10);

/// The retry interval a client that was sent none is taken to use (rmcp's default).
const DEFAULT_RETRY: Duration = Duration::from_secs(3);

tokio::task_local! {
    /// The event stream of the `tools/call` being run, while it runs.
    static CURRENT: Arc<CallStream>;
}

/// Closes the event stream of the `tools/call` being run, which the client then resumes
/// (SEP-1699): in the legacy session mode of streamable HTTP (protocol versions before
/// 2026-07-28), where each call's messages go out on the `text/event-stream` answer of
/// its `POST`, the server may end that stream while the call runs, to spare a connection
/// held open for a long call. The client reconnects with a `GET` carrying the
/// `Last-Event-ID` of the last event it saw, after `retry` (sent as the stream's last
/// event; `None`: the interval the stream began with,
/// [`StreamableHttpServerConfig::sse_retry`](crate::http::StreamableHttpServerConfig),
/// 3 seconds by default), and receives every event the call sends from then on: its
/// progress, its log messages, its questions, its result.
///
/// Call it from a tool's handler (from the task that runs the call, not a task it
/// spawns). Events sent while the client is away are kept (the session's last 16 per
/// call) and replayed on its return; the result itself is held until the client is back
/// (or the retry interval and 10 seconds more have passed, or the call is cancelled), as
/// rmcp delivers a result to a connected stream only. A client that never resumes never
/// gets the result.
///
/// Returns `true` when the stream was closed; `false` where there is no such stream to
/// close: on stdio, on a stateless request (protocol 2026-07-28, or a server with
/// `with_legacy_session_mode(false)`), in a call running as a task, outside a call, and
/// when the stream is gone already (the session ended).
///
/// ```
/// use std::time::Duration;
/// use neuralis_core::dispatch::{AbortSignal, Package, SessionContext, ToolContext, async_fn_cx};
/// use neuralis_mcp::http::close_call_stream;
///
/// #[derive(serde::Deserialize)]
/// struct Export {}
///
/// /// A long export: the client is not held on one connection while it runs.
/// async fn export(_: Export, cx: &ToolContext) -> String {
///     let closed = close_call_stream(Some(Duration::from_millis(500))).await;
///     cx.info(format_args!("stream closed: {closed}"));
///     // ... the long work; progress and log messages sent now reach the client
///     // once it is back ...
///     "exported".to_owned()
/// }
///
/// let schema = r#"{"type": "object", "additionalProperties": false, "properties": {},
///     "x-neuralis": {"annotations": {"category": "read", "readOnlyHint": true}}}"#;
/// let package = Package::builder().tool("export", schema, async_fn_cx(export)).build()?;
/// // Outside an HTTP call there is no stream to close: the call runs as ever.
/// let session = SessionContext::builder("ada").build();
/// let runtime = tokio::runtime::Builder::new_current_thread().build()?;
/// let result = runtime.block_on(package.dispatch(
///     "export",
///     serde_json::json!({}),
///     &session,
///     AbortSignal::never(),
/// ));
/// assert!(!result.is_error);
/// assert!(!runtime.block_on(close_call_stream(None)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub async fn close_call_stream(retry: Option<Duration>) -> bool {
    match CURRENT.try_with(Arc::clone) {
        Ok(stream) => stream.close(retry).await,
        Err(_) => false,
    }
}

/// The event stream of one `tools/call` in a legacy session: which stream of which
/// session it is, and whether the client is away from it (the stream closed by the call
/// and not resumed yet).
pub(crate) struct CallStream {
    handle: LocalSessionHandle,
    http_request_id: u64,
    /// When the client is away: until when the call's result waits for it.
    away: watch::Sender<Option<Instant>>,
}

impl CallStream {
    /// Closes the stream, the client to come back after `retry`.
    async fn close(&self, retry: Option<Duration>) -> bool {
        let deadline = Instant::now() + retry.unwrap_or(DEFAULT_RETRY) + RESUME_GRACE;
        // Marked away first: the client may resume as soon as the stream ends.
        let before = self.away.send_replace(Some(deadline));
        match self
            .handle
            .close_sse_stream(self.http_request_id, retry)
            .await
        {
            Ok(()) => true,
            Err(error) => {
                self.away.send_replace(before);
                tracing::debug!(%error, "the call's event stream could not be closed");
                false
            }
        }
    }

    /// Waits until the client is not away from the stream (it resumed, or the stream was
    /// never closed), its deadline passes, or the call is cancelled (`ct`).
    pub(crate) async fn until_resumed(&self, ct: &CancellationToken) {
        let mut away = self.away.subscribe();
        loop {
            let Some(deadline) = *away.borrow_and_update() else {
                return;
            };
            tokio::select! {
                changed = away.changed() => if changed.is_err() { return },
                () = tokio::time::sleep_until(deadline) => {
                    tracing::debug!("the client did not resume the call's event stream in time");
                    return;
                }
                () = ct.cancelled() => return,
            }
        }
    }

    /// Runs `call` with this stream as the one [`close_call_stream`] closes.
    pub(crate) async fn scope<F: Future>(self: Arc<Self>, call: F) -> F::Output {
        CURRENT.scope(self, call).await
    }
}

/// The request extension that carries a call's [`CallStream`] from [`Sessions`] to the
/// call.
#[derive(Clone)]
struct Attached(Arc<CallStream>);

/// The event stream of the call `context` is the request of, when it has one (a
/// `tools/call` in a legacy session served by [`Sessions`]).
pub(crate) fn of(context: &RequestContext<RoleServer>) -> Option<Arc<CallStream>> {
    context
        .extensions
        .get::<Attached>()
        .map(|a| Arc::clone(&a.0))
}

/// rmcp's [`LocalSessionManager`] (the legacy sessions of a [`HostedService`]), the event
/// stream of each `tools/call` attached to the call and each resume seen (see the
/// module's documentation).
///
/// [`HostedService`]: crate::http::HostedService
#[derive(Default)]
pub(crate) struct Sessions {
    pub(crate) local: LocalSessionManager,
    /// The streams of the calls running, by session and rmcp's stream number (what a
    /// `Last-Event-ID` names after its `/`).
    calls: Mutex<HashMap<(SessionId, u64), Weak<CallStream>>>,
}

impl Sessions {
    pub(crate) fn new(local: LocalSessionManager) -> Self {
        Self {
            local,
            calls: Mutex::default(),
        }
    }

    /// The handle of session `id`.
    async fn handle(&self, id: &SessionId) -> Result<LocalSessionHandle, LocalSessionManagerError> {
        self.local
            .sessions
            .read()
            .await
            .get(id)
            .cloned()
            .ok_or_else(|| LocalSessionManagerError::SessionNotFound(id.clone()))
    }

    /// A new call stream `http_request_id` of session `id`, kept for the resumes that
    /// name it while the call runs.
    fn track(
        &self,
        id: &SessionId,
        handle: LocalSessionHandle,
        http_request_id: u64,
    ) -> Arc<CallStream> {
        let stream = Arc::new(CallStream {
            handle,
            http_request_id,
            away: watch::Sender::new(None),
        });
        let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        calls.retain(|_, call| call.strong_count() > 0);
        calls.insert((id.clone(), http_request_id), Arc::downgrade(&stream));
        stream
    }

    /// The client is back on the stream `last_event_id` belongs to (`<index>/<stream>`).
    fn resumed(&self, id: &SessionId, last_event_id: &str) {
        let Some(http_request_id) = last_event_id
            .split_once('/')
            .and_then(|(_, n)| n.parse::<u64>().ok())
        else {
            return;
        };
        let stream = self
            .calls
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&(id.clone(), http_request_id))
            .and_then(Weak::upgrade);
        if let Some(stream) = stream {
            stream.away.send_replace(None);
        }
    }
}

impl SessionManager for Sessions {
    type Error = LocalSessionManagerError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        self.local.create_session().await
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.local.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.local.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.local.close_session(id).await
    }

    /// rmcp's own (`LocalSessionManager::create_stream`: a stream for the request, its
    /// priming event first, then the request to the session), the stream of a
    /// `tools/call` attached to the call.
    async fn create_stream(
        &self,
        id: &SessionId,
        mut message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let handle = self.handle(id).await?;
        let receiver = handle.establish_request_wise_channel().await?;
        let http_request_id = receiver.http_request_id;
        if let (ClientJsonRpcMessage::Request(request), Some(n)) = (&mut message, http_request_id)
            && matches!(request.request, ClientRequest::CallToolRequest(_))
        {
            let stream = self.track(id, handle.clone(), n);
            request.request.extensions_mut().insert(Attached(stream));
        }
        handle.push_message(message, http_request_id).await?;
        Ok(ReceiverStream::new(receiver.inner))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.local.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.local.create_standalone_stream(id).await
    }

    /// rmcp's own; once the stream is back, a call waiting for its client hands its
    /// result over.
    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let stream = self.local.resume(id, last_event_id.clone()).await?;
        self.resumed(id, &last_event_id);
        Ok(stream)
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        self.local.restore_session(id).await
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.local.event_store()
    }
}
