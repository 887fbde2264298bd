//! Arguments mirrored in HTTP headers (MCP's SEP-2243, feature `http`): a tool whose
//! handler marks properties (`Handler::headers`, which `#[schema(header = "...")]` fills)
//! is listed with `x-mcp-header` on each, its optional ones without the served dialect's
//! `null` (a client reads the header's type from `type`); a `tools/call` whose
//! `Mcp-Param-*` header disagrees with the body, or is missing, is refused before the tool
//! runs: HTTP 400, JSON-RPC -32020. Read on the wire.

#![allow(clippy::unwrap_used, reason = "tests")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use neuralis_core::dispatch::{Call, Handler, Package, SessionContext, ToolContext};
use neuralis_core::header::Header;
use neuralis_core::result::ToolResult;
use neuralis_mcp::McpServer;
use serde_json::{Value, json};

mod common;

const ROUTE: &str = r#"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
  "additionalProperties": false, "description": "Route a query.",
  "properties": {"region": {"type": "string"}, "urgency": {"type": "integer", "minimum": 0},
                 "query": {"type": "string"}},
  "required": ["region", "query"],
  "x-neuralis": {"annotations": {"category": "read", "readOnlyHint": true}}}"#;

/// Answers with the region; counts its calls.
struct Route(Arc<AtomicUsize>);

impl Handler for Route {
    fn call<'a>(&'a self, args: Value, _: &'a ToolContext) -> Call<'a> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Call::Ready(ToolResult::text(format!("routed to {}", args["region"])))
    }

    fn headers(&self) -> &'static [Header] {
        &[
            Header::Field("region", "Region"),
            Header::Field("urgency", "Urgency"),
        ]
    }
}

fn call(id: u64, arguments: Value, headers: &[(&str, &str)]) -> http::Request<Full<Bytes>> {
    let body = common::rpc(
        id,
        "tools/call",
        json!({"name": "route", "arguments": arguments}),
        json!({}),
    );
    let mut request = common::post(&body, None);
    for (name, value) in headers {
        request.headers_mut().insert(
            http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
            http::HeaderValue::from_str(value).unwrap(),
        );
    }
    request
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_marked_argument_is_listed_with_its_header_and_checked_against_it() {
    let calls = Arc::new(AtomicUsize::new(0));
    let package = Package::builder()
        .tool("route", ROUTE, Route(calls.clone()))
        .tool("greet", common::GREET, Route(Arc::default()))
        .build()
        .unwrap();
    let service = McpServer::new(package, SessionContext::builder("u-1").build())
        .http_service_with(common::stateless());
    let send = |req| {
        let service = service.clone();
        async move {
            let response = service.handle(req).await;
            let status = response.status().as_u16();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            (status, common::message(&bytes))
        }
    };

    let (_, listed) = send(common::post(
        &common::rpc(1, "tools/list", json!({}), json!({})),
        None,
    ))
    .await;
    let tools = listed["result"]["tools"].as_array().unwrap();
    let route = tools.iter().find(|t| t["name"] == "route").unwrap();
    let properties = &route["inputSchema"]["properties"];
    assert_eq!(
        properties["region"],
        json!({"type": "string", "x-mcp-header": "Region"})
    );
    assert_eq!(
        properties["urgency"],
        json!({"type": "integer", "minimum": 0, "x-mcp-header": "Urgency"}),
        "an optional marked property keeps its own `type`, without the served `null`"
    );
    assert!(
        properties["query"].get("x-mcp-header").is_none(),
        "{properties}"
    );
    let greet = tools.iter().find(|t| t["name"] == "greet").unwrap();
    assert!(
        !greet.to_string().contains("x-mcp-header"),
        "its file has no property of the handler's marks: {greet}"
    );

    // The header agrees with the body: the call runs (Base64-wrapped values decoded).
    let (status, ok) = send(call(
        2,
        json!({"region": "eu west", "urgency": 3, "query": "q"}),
        &[
            ("Mcp-Param-Region", "=?base64?ZXUgd2VzdA==?="),
            ("Mcp-Param-Urgency", "3"),
        ],
    ))
    .await;
    assert_eq!(status, 200, "{ok}");
    assert_eq!(ok["result"]["content"][0]["text"], "routed to \"eu west\"");

    // An absent optional argument sends no header.
    let (status, ok) = send(call(
        3,
        json!({"region": "eu", "query": "q"}),
        &[("Mcp-Param-Region", "eu")],
    ))
    .await;
    assert_eq!(status, 200, "{ok}");
    assert_eq!(calls.load(Ordering::SeqCst), 2);

    // Disagreeing, missing, or a header for an argument not sent: refused, never run.
    for (id, arguments, headers) in [
        (
            4,
            json!({"region": "eu", "query": "q"}),
            vec![("Mcp-Param-Region", "us")],
        ),
        (5, json!({"region": "eu", "query": "q"}), vec![]),
        (
            6,
            json!({"region": "eu", "query": "q"}),
            vec![("Mcp-Param-Region", "eu"), ("Mcp-Param-Urgency", "1")],
        ),
        (
            7,
            json!({"region": "eu", "query": "q"}),
            vec![("Mcp-Param-Region", "=?base64?ZXU?=")],
        ),
    ] {
        let (status, refused) = send(call(id, arguments, &headers)).await;
        assert_eq!(status, 400, "{headers:?}: {refused}");
        assert_eq!(refused["error"]["code"], -32020, "{headers:?}: {refused}");
    }
    assert_eq!(calls.load(Ordering::SeqCst), 2, "no refused call ran");
}
