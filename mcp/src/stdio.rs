//! Newline-delimited JSON-RPC over a byte stream (stdio), answering what rmcp's own
//! framing drops.
//!
//! rmcp's stdio transport ignores a line that is not JSON (by design, to avoid error
//! storms between two peers echoing each other), so a client whose request cannot be
//! parsed waits for its timeout; and a notification that arrives before the lifecycle
//! starts ends rmcp's handshake loop, and with it the server. JSON-RPC 2.0 asks for a
//! `-32700` parse error instead, and a server should outlive a confused client. This
//! transport frames the lines itself and hands rmcp only what rmcp can take:
//!
//! - a line that is not JSON (bad syntax, invalid UTF-8, NUL bytes, nesting deeper than
//!   serde_json's 128 levels) gets `-32700` with `id: null`, or with the request's `id`
//!   when a top-level `"id"` can still be read from the bytes;
//! - JSON that is not a JSON-RPC message (`[]`, `null`, `{}`) gets `-32600` (invalid
//!   request), with its `id` when it has a usable one; an unknown notification is
//!   ignored, as JSON-RPC says a notification is never answered;
//! - a line longer than [`MAX_LINE_BYTES`] is skipped up to its newline and answered
//!   `-32600`, so no line grows memory without bound;
//! - before the lifecycle starts (an `initialize` request, or a request with complete
//!   2026-07-28 metadata), notifications and responses are dropped: nothing they could
//!   refer to exists yet.
//!
//! Every message, rmcp's and the transport's own, is one whole line written by one task.

use std::io;
use std::pin::Pin;

use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, ErrorData, GetMeta, ProtocolVersion, RequestId,
};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::{RoleServer, ServerHandler};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, oneshot};

use crate::{Error, McpServer};

/// The longest line a client may send: 16 MiB (an 8 MiB argument string, escaped, fits).
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// A server running over lines, as one boxed future.
///
/// The server's code (the transport, rmcp's service loop and its handler glue, the task
/// store) is generic over the transport, and an async body is instantiated again in each
/// crate that polls it. Behind this box it is compiled once, here: a package's bin that
/// calls [`McpServer::serve_stdio`] or [`McpServer::serve_io`] polls a `dyn Future` and
/// instantiates none of it (issue 64). What goes through a vtable is each wake of this
/// future and each read or write of the boxed halves (one indirect call per buffer filled
/// or batch written); a call's dispatch does not.
pub(crate) type Serving = Pin<Box<dyn Future<Output = Result<(), Error>> + Send>>;

/// A reader of lines, boxed: [`LineTransport`] is compiled for this one type.
type BoxedReader = Box<dyn AsyncRead + Send + Unpin>;

/// A writer of lines, boxed.
type BoxedWriter = Box<dyn AsyncWrite + Send + Unpin>;

/// [`McpServer::serve_stdio`]: standard input and output, taken when the future first
/// runs (inside the caller's runtime).
#[inline(never)]
pub(crate) fn serve_stdio(server: McpServer) -> Serving {
    Box::pin(async move {
        let (stdin, stdout) = rmcp::transport::stdio();
        serve_lines(server, Box::new(stdin), Box::new(stdout)).await
    })
}

/// [`McpServer::serve_io`] over boxed halves. The transport (and its writer task) is made
/// when the future first runs.
#[inline(never)]
pub(crate) fn serve_lines(server: McpServer, reader: BoxedReader, writer: BoxedWriter) -> Serving {
    Box::pin(async move {
        let versions = ServerHandler::supported_protocol_versions(&server).into_owned();
        server
            .serve_transport(LineTransport::new(reader, writer, versions))
            .await
    })
}

/// One framed line, or why there is none.
enum Line {
    /// A whole line, in `buf`.
    Whole,
    /// A line over the limit, skipped.
    TooLong,
}

/// A server transport over a reader and a writer of newline-delimited JSON-RPC.
pub(crate) struct LineTransport<R> {
    reader: BufReader<R>,
    writer: Writer,
    buf: Vec<u8>,
    discarding: bool,
    started: bool,
    versions: Vec<ProtocolVersion>,
}

/// A line to write, and who waits to hear it is written.
type Queued = (Vec<u8>, Option<oneshot::Sender<io::Result<()>>>);

/// One task owns the writer; every message reaches it as one whole line through a
/// channel, so no message can be cut by a cancelled future or interleaved with another,
/// and an answer queued by `receive` is never lost to a `select!` that drops it.
struct Writer {
    lines: Option<mpsc::UnboundedSender<Queued>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Writer {
    fn spawn<W: AsyncWrite + Send + Unpin + 'static>(mut writer: W) -> Self {
        let (tx, mut rx) = mpsc::unbounded_channel::<Queued>();
        let task = tokio::spawn(async move {
            let mut batch = Vec::new();
            while rx.recv_many(&mut batch, 64).await > 0 {
                let mut result = Ok(());
                for (line, _) in &batch {
                    if result.is_ok() {
                        result = writer.write_all(line).await;
                    }
                }
                if result.is_ok() {
                    result = writer.flush().await;
                }
                for (_, ack) in batch.drain(..) {
                    if let Some(ack) = ack {
                        let _ = ack.send(match &result {
                            Ok(()) => Ok(()),
                            Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
                        });
                    }
                }
            }
            let _ = writer.shutdown().await;
        });
        Self {
            lines: Some(tx),
            task: Some(task),
        }
    }

    /// Queues `message` as one line; the ack says when it is written.
    fn queue(
        &self,
        message: &TxJsonRpcMessage<RoleServer>,
        ack: Option<oneshot::Sender<io::Result<()>>>,
    ) -> io::Result<()> {
        let line = serde_json::to_vec(message).map_err(io::Error::other)?;
        self.queue_line(line, ack)
    }

    /// Queues one serialized message (without its newline).
    fn queue_line(
        &self,
        mut line: Vec<u8>,
        ack: Option<oneshot::Sender<io::Result<()>>>,
    ) -> io::Result<()> {
        line.push(b'\n');
        self.lines
            .as_ref()
            .and_then(|lines| lines.send((line, ack)).ok())
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotConnected, "the transport is closed"))
    }
}

impl<R> LineTransport<R>
where
    R: tokio::io::AsyncRead + Send + Unpin,
{
    /// A transport over `reader` and `writer`, for a server that speaks `versions`. Must
    /// be called inside a tokio runtime (the writer is a task of its own).
    pub(crate) fn new<W: AsyncWrite + Send + Unpin + 'static>(
        reader: R,
        writer: W,
        versions: Vec<ProtocolVersion>,
    ) -> Self {
        Self {
            reader: BufReader::new(reader),
            writer: Writer::spawn(writer),
            buf: Vec::new(),
            discarding: false,
            started: false,
            versions,
        }
    }

    /// Reads up to the next newline. Cancel-safe: `receive` is polled inside rmcp's
    /// `select!`, so a partial line stays in `self.buf` (and `fill_buf` consumes nothing)
    /// until a later call completes it. `None` at the end of the stream or on an I/O error
    /// (an unterminated last line is dropped: it is not a whole message).
    async fn next_line(&mut self) -> Option<Line> {
        loop {
            let available = self.reader.fill_buf().await.ok()?;
            if available.is_empty() {
                return None;
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            if !self.discarding {
                if self.buf.len() + chunk.len() > MAX_LINE_BYTES {
                    self.discarding = true;
                    self.buf = Vec::new();
                } else {
                    self.buf.extend_from_slice(chunk);
                }
            }
            let used = newline.map_or(available.len(), |i| i + 1);
            self.reader.consume(used);
            if newline.is_some() {
                return Some(if std::mem::take(&mut self.discarding) {
                    Line::TooLong
                } else {
                    Line::Whole
                });
            }
        }
    }

    /// Queues one answer of the transport's own (synchronously: no await can lose it).
    /// Written by hand because JSON-RPC wants `"id": null` where no id could be read, and
    /// rmcp leaves an absent id out.
    fn answer(&self, error: ErrorData, id: Option<RequestId>) {
        let id = match id {
            Some(RequestId::Number(n)) => Value::from(n),
            Some(RequestId::String(s)) => Value::String(s.to_string()),
            None => Value::Null,
        };
        let message = serde_json::json!({"jsonrpc": "2.0", "id": id, "error": error});
        // Nothing to do when the client is gone: the next read ends the service.
        let _ = self
            .writer
            .queue_line(message.to_string().into_bytes(), None);
    }

    /// Whether rmcp's handshake loop would start the lifecycle on this request (mirrors
    /// `serve_server`: `initialize`, or a request other than `ping` and `server/discover`
    /// with complete 2026-07-28 metadata and a version this server speaks).
    fn starts_lifecycle(&self, request: &ClientRequest) -> bool {
        match request {
            ClientRequest::InitializeRequest(_) => true,
            ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_) => false,
            other => {
                let meta = other.get_meta();
                meta.missing_required_keys(&ProtocolVersion::V_2026_07_28)
                    .is_empty()
                    && meta
                        .protocol_version()
                        .is_some_and(|v| self.versions.contains(&v))
            }
        }
    }
}

impl<R> Transport<RoleServer> for LineTransport<R>
where
    R: tokio::io::AsyncRead + Send + Unpin,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let (ack, written) = oneshot::channel();
        let queued = self.writer.queue(&item, Some(ack));
        async move {
            queued?;
            written.await.unwrap_or_else(|_| {
                Err(io::Error::new(
                    io::ErrorKind::BrokenPipe,
                    "the writer stopped",
                ))
            })
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let line = self.next_line().await?;
            if let Line::TooLong = line {
                self.answer(
                    ErrorData::invalid_request(
                        format!("the message is longer than {MAX_LINE_BYTES} bytes"),
                        None,
                    ),
                    None,
                );
                continue;
            }
            let mut line = std::mem::take(&mut self.buf);
            let message = parse(trim(&line));
            line.clear();
            self.buf = line;
            match message {
                Parsed::Empty | Parsed::Ignored => {}
                Parsed::Error(error, id) => self.answer(error, id),
                Parsed::Message(message) => match *message {
                    ClientJsonRpcMessage::Request(request) => {
                        if !self.started {
                            self.started = self.starts_lifecycle(&request.request);
                        }
                        return Some(ClientJsonRpcMessage::Request(request));
                    }
                    // Before the lifecycle, a notification or a response refers to nothing
                    // (and would end rmcp's handshake loop).
                    _ if !self.started => {}
                    other => return Some(other),
                },
            }
        }
    }

    /// Stops taking messages and waits until every queued line is written.
    async fn close(&mut self) -> Result<(), Self::Error> {
        drop(self.writer.lines.take());
        if let Some(task) = self.writer.task.take() {
            task.await.map_err(io::Error::other)?;
        }
        Ok(())
    }
}

/// What one line is.
enum Parsed {
    /// Blank: skipped, as JSON-RPC over lines allows.
    Empty,
    /// A notification this server does not know: never answered.
    Ignored,
    /// A message for rmcp.
    Message(Box<ClientJsonRpcMessage>),
    /// An answer of the transport's own.
    Error(ErrorData, Option<RequestId>),
}

/// The line without its `\r` and a UTF-8 byte order mark.
fn trim(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
}

fn parse(line: &[u8]) -> Parsed {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Parsed::Empty;
    }
    let error = match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(message) => return Parsed::Message(Box::new(message)),
        Err(e) => e,
    };
    if error.is_syntax() || error.is_eof() {
        return Parsed::Error(
            ErrorData::parse_error(format!("the message is not JSON: {error}"), None),
            top_level_id(line),
        );
    }
    // Well-formed JSON that is not a JSON-RPC message this server reads.
    let value: Value = serde_json::from_slice(line).unwrap_or(Value::Null);
    let id = value.get("id").and_then(request_id);
    let is_notification = value.get("id").is_none()
        && value
            .get("method")
            .and_then(Value::as_str)
            .is_some_and(|m| m.starts_with("notifications/"));
    if is_notification {
        return Parsed::Ignored;
    }
    Parsed::Error(
        ErrorData::invalid_request(
            format!("the message is not a JSON-RPC 2.0 request: {error}"),
            None,
        ),
        id,
    )
}

/// A JSON-RPC id: a string or an integer (`null` and fractions are not usable).
fn request_id(value: &Value) -> Option<RequestId> {
    match value {
        Value::String(s) => Some(RequestId::String(s.as_str().into())),
        Value::Number(n) => n.as_i64().map(RequestId::Number),
        _ => None,
    }
}

/// The value of a top-level `"id"` member of a line that does not parse as a whole (too
/// deep, or broken after the id), read with one linear scan and no recursion: strings
/// are skipped by their escapes, depth by brackets. Only an id that is itself complete
/// JSON (a string or an integer) is used; anything doubtful is `None`.
fn top_level_id(line: &[u8]) -> Option<RequestId> {
    let mut depth = 0usize;
    let mut i = 0;
    // Whether the string that just ended at depth 1 was a key named `id`.
    let mut after_id_key = false;
    while i < line.len() {
        match line[i] {
            b'"' => {
                let end = string_end(line, i)?;
                let is_key = depth == 1 && next_non_space(line, end) == Some(b':');
                if is_key && &line[i..end] == b"\"id\"" {
                    after_id_key = true;
                    i = end;
                    continue;
                }
                i = end;
                continue;
            }
            b':' if after_id_key => {
                let start = skip_space(line, i + 1);
                let end = scalar_end(line, start)?;
                let value: Value = serde_json::from_slice(&line[start..end]).ok()?;
                return request_id(&value);
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.checked_sub(1)?,
            _ => {}
        }
        after_id_key = false;
        i += 1;
    }
    None
}

/// The index just past the string that opens at `start`.
fn string_end(line: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < line.len() {
        match line[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The end of a string or number that starts at `start`.
fn scalar_end(line: &[u8], start: usize) -> Option<usize> {
    match line.get(start)? {
        b'"' => string_end(line, start),
        b'-' | b'0'..=b'9' => Some(
            start
                + line[start..]
                    .iter()
                    .take_while(|b| {
                        b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E')
                    })
                    .count(),
        ),
        _ => None,
    }
}

fn skip_space(line: &[u8], mut i: usize) -> usize {
    while line.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

fn next_non_space(line: &[u8], i: usize) -> Option<u8> {
    line.get(skip_space(line, i)).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id_of(line: &str) -> Option<RequestId> {
        top_level_id(line.as_bytes())
    }

    #[test]
    fn the_top_level_id_is_read_past_deep_nesting_and_broken_tails() {
        let deep = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{}{}}}",
            "[".repeat(5000),
            "]".repeat(5000)
        );
        assert_eq!(top_level_id(deep.as_bytes()), Some(RequestId::Number(7)));
        assert_eq!(
            id_of(r#"{"id": "a\"b", "method": "#),
            Some(RequestId::String("a\"b".into()))
        );
        // After the nesting: still the top level.
        let late = format!(
            "{{\"params\":{}{},\"id\":-3",
            "[".repeat(300),
            "]".repeat(300)
        );
        assert_eq!(top_level_id(late.as_bytes()), Some(RequestId::Number(-3)));
    }

    #[test]
    fn nested_or_doubtful_ids_are_not_used() {
        assert_eq!(id_of(r#"{"params": {"id": 3}, "method": "#), None);
        assert_eq!(id_of(r#"{"method": "id", "x": 1"#), None);
        assert_eq!(id_of(r#"{"id": null, "method": 5"#), None);
        assert_eq!(id_of(r#"{"id": 1.5, "#), None);
        assert_eq!(id_of(r#"{"id": tru"#), None);
        assert_eq!(id_of("not json"), None);
        assert_eq!(id_of("]]]"), None);
    }

    #[test]
    fn lines_are_classified_as_json_rpc_asks() {
        assert!(matches!(parse(b"   "), Parsed::Empty));
        for garbage in [&b"not json"[..], b"{", b"\xff\xfe", b"{\"a\":\0}"] {
            match parse(garbage) {
                Parsed::Error(e, None) => assert_eq!(e.code.0, -32700),
                _ => panic!("{garbage:?} is a parse error"),
            }
        }
        for not_a_message in [&b"[]"[..], b"null", b"{}", b"5"] {
            match parse(not_a_message) {
                Parsed::Error(e, None) => assert_eq!(e.code.0, -32600),
                _ => panic!("{not_a_message:?} is an invalid request"),
            }
        }
        match parse(br#"{"jsonrpc":"2.0","id":9,"result":5,"error":{}}"#) {
            Parsed::Error(e, Some(RequestId::Number(9))) => assert_eq!(e.code.0, -32600),
            _ => panic!("a malformed message with an id is answered with that id"),
        }
        assert!(matches!(
            parse(br#"{"jsonrpc":"2.0","method":"notifications/whatever","params":5}"#),
            Parsed::Ignored | Parsed::Message(_)
        ));
        assert!(matches!(
            parse(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Parsed::Message(_)
        ));
    }
}
