//! Serve a neuralis package over MCP, and take in an external MCP server's tools under the
//! contract. Built on `rmcp`, the official Rust SDK.
//!
//! - **Serving**: [`McpServer`] serves a [`Package`](neuralis_core::dispatch::Package) for
//!   one verified [`SessionContext`](neuralis_core::dispatch::SessionContext), over stdio
//!   ([`McpServer::serve_stdio`]) or any rmcp transport; hosted over streamable HTTP
//!   (feature `http`, module `http`), for each request's own verified caller. `tools/list` is the session's
//!   catalog projected by [`mcp_tool`]; `tools/call` runs the call pipeline;
//!   `notifications/cancelled` fires the abort signal of a `cancellable` tool. What is
//!   not a tool (prompts, resources, completion...) comes from an rmcp handler the
//!   author writes with rmcp's own macros: [`McpServer::with_handler`].
//! - **Import**: [`import_tools`] turns a server's `tools/list` into contract tool
//!   documents (namespaced `srv<id>__<name>`, sanitized, category `unknown`,
//!   `destructiveHint: true` unless stated) and a report; [`import_from_peer`] lists a
//!   connected server, and [`Import::register`] adds its tools to a package with [`Forward`]
//!   handlers, so their results are normalized and bounded like any other.
//!
//! tokio lives here, never in `neuralis-core`.

#[cfg(feature = "http")]
mod call_stream;
mod compose;
mod consumed;
mod forward;
mod handler_asking;
#[cfg(feature = "http")]
pub mod http;
#[cfg(feature = "http")]
mod identity;
mod import;
#[cfg(feature = "introspection")]
mod introspect;
#[cfg(feature = "jwks")]
mod jwks;
#[cfg(feature = "jwt")]
mod jwt;
#[cfg(feature = "http")]
pub mod listen;
mod logging;
mod questions;
#[cfg(feature = "rate-limit")]
mod rate_limit;
#[cfg(feature = "http")]
mod reply;
mod rounds;
mod serve;
mod skills;
mod stdio;
mod task;
mod wire;

use std::fmt;

// The Rust snippets of docs/hosting.md (a complete hosted server among them), run as doc
// tests.
#[cfg(all(doctest, feature = "jwks", feature = "rate-limit", feature = "cors"))]
#[doc = include_str!("../../docs/hosting.md")]
struct HostingDoctests;

pub use consumed::{ConsumeError, ConsumedStates, DirConsumedStates, MemoryConsumedStates};
pub use forward::{Forward, import_from_peer};
pub use handler_asking::{AskingRequest, asking};
pub use import::{Import, ImportNote, ImportedTool, MCP_TRANSPORT, import_tools};
pub use neuralis_core::dialect::Served;
pub use serve::{DIGEST_META, McpServer, mcp_tool, mcp_tool_in, mcp_tool_with_output};
pub use stdio::MAX_LINE_BYTES;
pub use task::{
    Answered, Asked, MemoryTaskStore, TaskRecord, TaskStore, TaskStoreError, TaskTiming,
};

/// Why serving or importing failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The MCP service could not start (handshake) or stopped abnormally.
    Serve(String),
    /// A request to an external MCP server failed.
    Client(String),
    /// The server's configuration is refused (a `requestState` key too short...).
    Config(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Serve(e) => write!(f, "the MCP server stopped: {e}"),
            Error::Client(e) => write!(f, "the MCP server could not be reached: {e}"),
            Error::Config(e) => write!(f, "the MCP server's configuration is refused: {e}"),
        }
    }
}

impl std::error::Error for Error {}
