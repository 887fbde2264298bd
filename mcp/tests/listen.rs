//! `listen::serve` holds each connection to its limits (feature `http`): a connection that
//! never sends a byte, one that trickles its headers, and a kept-alive one nobody uses are
//! closed; a request in flight is never cut; a peer over its cap and a connection over the
//! total are closed on accept, and other peers are still served. Every server listens on
//! 127.0.0.1 (the second peer connects from 127.0.0.2, loopback too), and every wait is
//! bounded.

#![cfg(feature = "http")]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use axum::Router;
use axum::routing::get;
use neuralis_mcp::listen::{ConnectionLimits, ConnectionStats, serve};

/// A server with `limits` on a port of its own: `/` answers at once, `/slow` after
/// 900 ms. Stops when the returned sender is dropped.
async fn start(
    limits: ConnectionLimits,
) -> (
    SocketAddr,
    Arc<ConnectionStats>,
    tokio::sync::oneshot::Sender<()>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let addr = listener.local_addr().expect("an address");
    let router = Router::new().route("/", get(|| async { "ok" })).route(
        "/slow",
        get(|| async {
            tokio::time::sleep(Duration::from_millis(900)).await;
            "slow"
        }),
    );
    let stats = Arc::new(ConnectionStats::default());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(serve(
        listener,
        router,
        limits,
        Arc::clone(&stats),
        async move {
            let _ = stopped.await;
        },
    ));
    (addr, stats, stop)
}

fn connect(addr: SocketAddr, from: &str) -> TcpStream {
    let socket =
        socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).expect("a socket");
    let local: SocketAddr = format!("{from}:0").parse().expect("an address");
    socket.bind(&local.into()).expect("bind");
    socket.connect(&addr.into()).expect("connect");
    let stream: TcpStream = socket.into();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    stream
}

/// Blocks until the server closes `stream` (EOF or reset), at most 5 s: how long it took.
fn closed_after(stream: &mut TcpStream) -> Duration {
    let start = Instant::now();
    let mut buf = [0u8; 256];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return start.elapsed(),
            Ok(_) => {}
        }
        assert!(start.elapsed() < Duration::from_secs(5), "not closed");
    }
}

/// One `GET` on `stream`, its whole response (headers and a `content-length` body).
fn get_request(stream: &mut TcpStream, path: &str) -> String {
    write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n").expect("write");
    let mut got = Vec::new();
    let mut buf = [0u8; 256];
    loop {
        let text = String::from_utf8_lossy(&got).into_owned();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length: ")
                        .map(str::to_owned)
                })
                .and_then(|n| n.trim().parse::<usize>().ok())
                .unwrap_or(0);
            if body.len() >= length {
                return text;
            }
        }
        let n = stream.read(&mut buf).expect("a response");
        assert!(n > 0, "the response: {text}");
        got.extend_from_slice(&buf[..n]);
    }
}

fn limits() -> ConnectionLimits {
    ConnectionLimits::default()
        .with_header_timeout(Duration::from_millis(300))
        .with_idle_timeout(Duration::from_millis(500))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_unfinished_and_kept_alive_connections_are_closed_and_a_slow_request_is_not_cut() {
    let (addr, stats, _stop) = start(limits()).await;
    tokio::task::spawn_blocking(move || {
        let mut idle = connect(addr, "127.0.0.1");
        let mut slowloris = connect(addr, "127.0.0.1");
        slowloris.write_all(b"GET / HTTP/1.1\r\nHo").expect("write");
        let mut kept = connect(addr, "127.0.0.1");
        assert!(get_request(&mut kept, "/").starts_with("HTTP/1.1 200"));
        let slowloris_closed = closed_after(&mut slowloris);
        assert!(
            slowloris_closed < Duration::from_millis(480),
            "the headers' 300 ms: {slowloris_closed:?}"
        );
        let idle_closed = closed_after(&mut idle);
        assert!(idle_closed < Duration::from_secs(1), "{idle_closed:?}");
        let kept_closed = closed_after(&mut kept);
        assert!(
            kept_closed < Duration::from_secs(1),
            "idle after its response: {kept_closed:?}"
        );
        // 900 ms in flight, past both timeouts: answered in full.
        let mut slow = connect(addr, "127.0.0.1");
        let answer = get_request(&mut slow, "/slow");
        assert!(
            answer.starts_with("HTTP/1.1 200") && answer.ends_with("slow"),
            "{answer}"
        );
    })
    .await
    .expect("the client");
    assert_eq!(stats.closed_headers.load(Ordering::Relaxed), 1);
    assert!(stats.closed_idle.load(Ordering::Relaxed) >= 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_over_its_cap_is_closed_on_accept_and_others_are_served() {
    let (addr, stats, _stop) = start(
        limits()
            .with_idle_timeout(Duration::from_secs(5))
            .with_max_per_peer(Some(2)),
    )
    .await;
    tokio::task::spawn_blocking(move || {
        let _held: Vec<TcpStream> = (0..2).map(|_| connect(addr, "127.0.0.1")).collect();
        std::thread::sleep(Duration::from_millis(100));
        let mut over = connect(addr, "127.0.0.1");
        assert!(
            closed_after(&mut over) < Duration::from_millis(500),
            "closed on accept"
        );
        let mut other = connect(addr, "127.0.0.2");
        assert!(
            get_request(&mut other, "/").starts_with("HTTP/1.1 200"),
            "another peer is served"
        );
    })
    .await
    .expect("the client");
    assert_eq!(stats.refused_peer.load(Ordering::Relaxed), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_over_the_total_is_closed_on_accept() {
    let limits = limits()
        .with_idle_timeout(Duration::from_secs(5))
        .with_max_per_peer(None)
        .with_max_connections(Some(3));
    let (addr, stats, _stop) = start(limits).await;
    tokio::task::spawn_blocking(move || {
        let held: Vec<TcpStream> = (0..3).map(|_| connect(addr, "127.0.0.1")).collect();
        std::thread::sleep(Duration::from_millis(100));
        let mut over = connect(addr, "127.0.0.2");
        assert!(closed_after(&mut over) < Duration::from_millis(500));
        drop(held);
        std::thread::sleep(Duration::from_millis(200));
        let mut after = connect(addr, "127.0.0.2");
        assert!(
            get_request(&mut after, "/").starts_with("HTTP/1.1 200"),
            "room again"
        );
    })
    .await
    .expect("the client");
    assert_eq!(stats.refused_total.load(Ordering::Relaxed), 1);
}
