//! What a hosted server answers a request it refuses, below the transport (`http`) and the
//! rate limit (`limit`), which both refuse with it: the response type, a JSON-RPC error
//! body with its HTTP status, the operator's event, and the header a request names its
//! method in.

use std::convert::Infallible;

use bytes::Bytes;
use http::header::CONTENT_TYPE;
use http::{HeaderValue, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, Full};
use serde_json::json;

/// The response type of rmcp's HTTP service, and of [`HostedService`](crate::http::HostedService).
pub type HttpResponse = Response<BoxBody<Bytes, Infallible>>;

/// The header that names a request's JSON-RPC method (2026-07-28 clients send it).
pub(crate) const METHOD_HEADER: &str = "mcp-method";

/// The header that names a legacy MCP session.
pub(crate) const SESSION_HEADER: &str = "mcp-session-id";

/// The header of a request's id: the caller's, echoed, else a fresh one.
pub(crate) const REQUEST_ID: &str = "x-request-id";

/// A body of `text`.
pub(crate) fn full(text: String) -> BoxBody<Bytes, Infallible> {
    Full::new(Bytes::from(text)).boxed()
}

/// A JSON-RPC error answer with no request id (the request could not be read).
pub(crate) fn rpc_error(status: StatusCode, code: i64, message: &str) -> HttpResponse {
    let body = json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}});
    let mut response = Response::new(full(body.to_string()));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// The JSON-RPC error code for a refusal with HTTP status `status`.
fn refusal_code(status: StatusCode) -> i64 {
    match status.as_u16() {
        401 | 403 => -32001,
        429 => -32029,
        503 => -32000,
        400..=499 => -32600,
        _ => -32603,
    }
}

/// A refusal the server sends: `status` with a JSON-RPC error body a client can show
/// (`message`), and an event for the operator with `reason` (which the client is not
/// told), recorded as the request span's `refusal`.
pub(crate) fn refusal(status: StatusCode, message: &str, reason: &str) -> HttpResponse {
    tracing::Span::current().record("refusal", reason);
    if status == StatusCode::UNAUTHORIZED {
        tracing::info!(target: "neuralis_mcp::http", status = status.as_u16(), reason, "refused");
    } else {
        tracing::warn!(target: "neuralis_mcp::http", status = status.as_u16(), reason, "refused");
    }
    rpc_error(status, refusal_code(status), message)
}
