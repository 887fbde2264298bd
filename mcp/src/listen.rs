//! Serving HTTP over TCP with connection limits whose defaults hold on the open internet
//! (feature `http`): a server built on `axum::serve` or a bare hyper loop keeps every
//! connection a client opens for as long as the client likes, so anyone who reaches the
//! port can hold file descriptors until `accept` fails for everybody.
//!
//! [`serve`] accepts on a listener and serves each connection with hyper (HTTP/1.1 and
//! HTTP/2, upgrades allowed), under [`ConnectionLimits`]:
//!
//! - **headers in time**: a connection that has started a request must complete its
//!   headers within [`header_timeout`](ConnectionLimits::with_header_timeout) (10 s by
//!   default), counted from its first byte (slowloris);
//! - **idle**: a connection with no request in flight that sends nothing for
//!   [`idle_timeout`](ConnectionLimits::with_idle_timeout) (30 s) is closed, from its
//!   accept and from the end of each response (a keep-alive connection nobody uses);
//! - **how many**: at most [`max_connections`](ConnectionLimits::with_max_connections)
//!   open at once (1,024) and [`max_per_peer`](ConnectionLimits::with_max_per_peer) from
//!   one peer address (64); a connection over either is closed as soon as it is accepted.
//!
//! A request in flight is never cut by these (an event stream, a call that runs for
//! minutes): [`Hosted::with_request_timeout`](crate::http::Hosted::with_request_timeout)
//! bounds those. Each refusal and each connection closed by a limit is an event for the
//! operator (target `neuralis_mcp::listen`: `warn` for a refused connection, `info` for a
//! closed one) and a count in [`ConnectionStats`].
//!
//! Behind a reverse proxy every connection comes from the proxy's address: give
//! `with_max_per_peer(None)` (or the proxy's own connection count) and let the proxy limit
//! each client (nginx's `limit_conn`).

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::time::Instant;
use tower_service::Service;

/// The limits [`serve`] holds each connection to (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    header_timeout: Duration,
    idle_timeout: Duration,
    max_connections: Option<usize>,
    max_per_peer: Option<usize>,
}

impl Default for ConnectionLimits {
    /// 10 s for a request's headers, 30 s idle, 1,024 connections, 64 per peer address.
    fn default() -> Self {
        Self {
            header_timeout: Self::DEFAULT_HEADER_TIMEOUT,
            idle_timeout: Self::DEFAULT_IDLE_TIMEOUT,
            max_connections: Some(Self::DEFAULT_MAX_CONNECTIONS),
            max_per_peer: Some(Self::DEFAULT_MAX_PER_PEER),
        }
    }
}

impl ConnectionLimits {
    /// The default time to receive a request's headers.
    pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
    /// The default time a connection may stay idle.
    pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(30);
    /// The default cap on open connections.
    pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
    /// The default cap on open connections from one peer address.
    pub const DEFAULT_MAX_PER_PEER: usize = 64;

    /// How long a connection that has started a request has to complete its headers,
    /// from its first byte.
    #[must_use]
    pub fn with_header_timeout(mut self, timeout: Duration) -> Self {
        self.header_timeout = timeout;
        self
    }

    /// How long a connection with no request in flight may send nothing.
    #[must_use]
    pub fn with_idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// The most connections open at once (`None`: no cap).
    #[must_use]
    pub fn with_max_connections(mut self, max: Option<usize>) -> Self {
        self.max_connections = max;
        self
    }

    /// The most connections open at once from one peer address (`None`: no cap, as
    /// behind a proxy).
    #[must_use]
    pub fn with_max_per_peer(mut self, max: Option<usize>) -> Self {
        self.max_per_peer = max;
        self
    }

    /// The time to receive a request's headers.
    #[must_use]
    pub fn header_timeout(&self) -> Duration {
        self.header_timeout
    }

    /// The time a connection may stay idle.
    #[must_use]
    pub fn idle_timeout(&self) -> Duration {
        self.idle_timeout
    }

    /// The cap on open connections.
    #[must_use]
    pub fn max_connections(&self) -> Option<usize> {
        self.max_connections
    }

    /// The cap on open connections per peer address.
    #[must_use]
    pub fn max_per_peer(&self) -> Option<usize> {
        self.max_per_peer
    }
}

/// What [`serve`] did with the connections, counted as it goes.
#[derive(Debug, Default)]
pub struct ConnectionStats {
    /// Connections accepted and served.
    pub accepted: AtomicU64,
    /// Connections closed at once: [`ConnectionLimits::max_connections`] reached.
    pub refused_total: AtomicU64,
    /// Connections closed at once: [`ConnectionLimits::max_per_peer`] reached.
    pub refused_peer: AtomicU64,
    /// Connections closed for headers not received in time.
    pub closed_headers: AtomicU64,
    /// Connections closed for idling.
    pub closed_idle: AtomicU64,
    /// Connections open now.
    pub open: AtomicU64,
}

/// Why the watchdog closed a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Closed {
    Headers,
    Idle,
}

/// One connection's state, shared by its IO, its service and its watchdog.
#[derive(Debug)]
struct Watch {
    state: Mutex<State>,
    changed: Notify,
}

#[derive(Debug)]
struct State {
    /// Requests whose response has not ended.
    active: usize,
    /// Since when no request has been in flight.
    idle_since: Instant,
    /// The first byte read since then: a request has started.
    first_byte: Option<Instant>,
}

impl Watch {
    fn new() -> Arc<Self> {
        Arc::new(Self {
            state: Mutex::new(State {
                active: 0,
                idle_since: Instant::now(),
                first_byte: None,
            }),
            changed: Notify::new(),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Bytes were read.
    fn read(&self) {
        let mut s = self.state();
        if s.active == 0 && s.first_byte.is_none() {
            s.first_byte = Some(Instant::now());
            drop(s);
            self.changed.notify_one();
        }
    }

    fn begin(&self) {
        self.state().active += 1;
        self.changed.notify_one();
    }

    fn end(&self) {
        let mut s = self.state();
        s.active = s.active.saturating_sub(1);
        if s.active == 0 {
            s.idle_since = Instant::now();
            s.first_byte = None;
        }
        drop(s);
        self.changed.notify_one();
    }

    /// When the connection is due to close, and why; `None` while a request is in
    /// flight.
    fn deadline(&self, limits: &ConnectionLimits) -> Option<(Instant, Closed)> {
        let s = self.state();
        if s.active > 0 {
            return None;
        }
        Some(match s.first_byte {
            Some(first) => (first + limits.header_timeout, Closed::Headers),
            None => (s.idle_since + limits.idle_timeout, Closed::Idle),
        })
    }

    /// Resolves when a limit closes the connection.
    async fn expired(&self, limits: &ConnectionLimits) -> Closed {
        loop {
            let changed = self.changed.notified();
            match self.deadline(limits) {
                None => changed.await,
                Some((at, why)) => {
                    tokio::select! {
                        () = tokio::time::sleep_until(at) => {
                            if self.deadline(limits).is_some_and(|(d, w)| d <= Instant::now() && w == why) {
                                return why;
                            }
                        }
                        () = changed => {}
                    }
                }
            }
        }
    }
}

/// The connection's IO, telling its watch when bytes come in.
struct Watched {
    io: TcpStream,
    watch: Arc<Watch>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.io).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.watch.read();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

/// A request in flight: its end (the response's body done or dropped) tells the watch.
struct InFlight(Arc<Watch>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.end();
    }
}

/// A response body that keeps its request in flight until it ends.
struct Tracked<B> {
    body: Pin<Box<B>>,
    _in_flight: InFlight,
}

impl<B: Body> Body for Tracked<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        self.body.as_mut().poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Who holds how many connections.
#[derive(Debug, Default)]
struct Peers(Mutex<HashMap<IpAddr, usize>>);

impl Peers {
    /// One more connection from `ip`, unless it holds `max` already.
    fn enter(&self, ip: IpAddr, max: Option<usize>) -> bool {
        let mut peers = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let held = peers.entry(ip).or_insert(0);
        if max.is_some_and(|m| *held >= m) {
            if *held == 0 {
                peers.remove(&ip);
            }
            return false;
        }
        *held += 1;
        true
    }

    fn leave(&self, ip: IpAddr) {
        let mut peers = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(held) = peers.get_mut(&ip) {
            *held = held.saturating_sub(1);
            if *held == 0 {
                peers.remove(&ip);
            }
        }
    }
}

/// Serves `service` on every connection `listener` accepts, under `limits`, until
/// `shutdown` resolves; then stops accepting and waits for the open connections to
/// finish what they are doing (each closes after its current response). `stats` counts
/// what happened (pass `Arc::default()` when nothing reads it).
///
/// ```no_run
/// # async fn run(router: axum::Router) -> std::io::Result<()> {
/// use std::sync::Arc;
/// use neuralis_mcp::listen::{ConnectionLimits, serve};
///
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
/// let limits = ConnectionLimits::default().with_max_per_peer(Some(16));
/// serve(listener, router, limits, Arc::default(), std::future::pending()).await
/// # }
/// ```
///
/// # Errors
///
/// None from a connection (each is its own task); the listener's error when `accept`
/// fails for a reason other than running out of descriptors or a reset handshake.
pub async fn serve<S, B>(
    listener: TcpListener,
    service: S,
    limits: ConnectionLimits,
    stats: Arc<ConnectionStats>,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()>
where
    S: Service<http::Request<Incoming>, Response = http::Response<B>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let builder = auto::Builder::new(TokioExecutor::new());
    let graceful = GracefulShutdown::new();
    let peers = Arc::new(Peers::default());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) if is_transient(&e) => {
                    tracing::warn!(target: "neuralis_mcp::listen", error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
                Err(e) => return Err(e),
            },
        };
        let ip = peer.ip();
        let open = stats.open.load(Ordering::Relaxed);
        if limits.max_connections.is_some_and(|m| open >= m as u64) {
            stats.refused_total.fetch_add(1, Ordering::Relaxed);
            tracing::warn!(target: "neuralis_mcp::listen", peer = %ip, reason = "max_connections", open, "connection refused");
            drop(stream);
            continue;
        }
        if !peers.enter(ip, limits.max_per_peer) {
            stats.refused_peer.fetch_add(1, Ordering::Relaxed);
            tracing::warn!(target: "neuralis_mcp::listen", peer = %ip, reason = "max_per_peer", "connection refused");
            drop(stream);
            continue;
        }
        stats.accepted.fetch_add(1, Ordering::Relaxed);
        stats.open.fetch_add(1, Ordering::Relaxed);
        let _ = stream.set_nodelay(true);
        let watch = Watch::new();
        let io = TokioIo::new(Watched {
            io: stream,
            watch: Arc::clone(&watch),
        });
        let svc = hyper_service(service.clone(), Arc::clone(&watch));
        let conn = builder.serve_connection_with_upgrades(io, svc).into_owned();
        let conn = graceful.watch(conn);
        let (stats, peers) = (Arc::clone(&stats), Arc::clone(&peers));
        tokio::spawn(async move {
            tokio::select! {
                _ = conn => {}
                why = watch.expired(&limits) => {
                    let (counter, reason) = match why {
                        Closed::Headers => (&stats.closed_headers, "header_timeout"),
                        Closed::Idle => (&stats.closed_idle, "idle_timeout"),
                    };
                    counter.fetch_add(1, Ordering::Relaxed);
                    tracing::info!(target: "neuralis_mcp::listen", peer = %ip, reason, "connection closed");
                }
            }
            peers.leave(ip);
            stats.open.fetch_sub(1, Ordering::Relaxed);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// `accept` errors that pass: out of descriptors (the limits are there to prevent it,
/// but another process may hold them), a handshake reset before it was accepted.
fn is_transient(e: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    matches!(
        e.kind(),
        ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset | ErrorKind::Interrupted
    ) || matches!(e.raw_os_error(), Some(23 | 24))
}

/// The boxed error a connection's service gives hyper.
type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A connection's response future.
type Responding<B> =
    Pin<Box<dyn Future<Output = Result<http::Response<Tracked<B>>, BoxError>> + Send>>;

/// The hyper service of one connection: each request counted in flight until its
/// response's body ends.
fn hyper_service<S, B>(
    service: S,
    watch: Arc<Watch>,
) -> impl hyper::service::Service<
    http::Request<Incoming>,
    Response = http::Response<Tracked<B>>,
    Error = BoxError,
    Future = Responding<B>,
> + Clone
where
    S: Service<http::Request<Incoming>, Response = http::Response<B>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: Body + Send + 'static,
{
    hyper::service::service_fn(move |request: http::Request<Incoming>| {
        watch.begin();
        let in_flight = InFlight(Arc::clone(&watch));
        let mut service = service.clone();
        Box::pin(async move {
            std::future::poll_fn(|cx| service.poll_ready(cx))
                .await
                .map_err(Into::into)?;
            let response = service.call(request).await.map_err(Into::into)?;
            Ok(response.map(|body| Tracked {
                body: Box::pin(body),
                _in_flight: in_flight,
            }))
        }) as Responding<B>
    })
}
