//! MCP logging for a served package: which calls' log messages a client asked for, and
//! their `notifications/message`.
//!
//! How a client asks depends on the protocol of the request:
//!
//! - before 2026-07-28, `logging/setLevel` on the connection (an HTTP session, or the
//!   stdio connection) sets the least severe level it wants from every later call; until
//!   it does, the server sends no log messages at all (MCP leaves the default to the
//!   server: this one waits to be asked);
//! - on 2026-07-28, each request asks for itself with
//!   `_meta["io.modelcontextprotocol/logLevel"]`, and a request without it (or with a
//!   value that is no level) gets no log messages, whatever `logging/setLevel` said.
//!
//! rmcp marks MCP logging deprecated (SEP-2577 deprecates it on 2026-07-28, where it still
//! works): this module is where the server names its types.
#![allow(
    deprecated,
    reason = "MCP logging is deprecated by SEP-2577, not removed: 2026-07-28 still has it"
)]

use std::sync::{Arc, Mutex, PoisonError};

use neuralis_core::dispatch::{LogLevel, LogMessage};
use rmcp::RoleServer;
use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam, SetLevelRequestParams};
use rmcp::service::{Peer, RequestContext};

/// The level one connection asked for with `logging/setLevel` (before 2026-07-28): none
/// until it does. Each HTTP session has its own ([`crate::McpServer`]'s `fresh`).
#[derive(Debug, Clone, Default)]
pub(crate) struct SessionLevel(Arc<Mutex<Option<LogLevel>>>);

impl SessionLevel {
    /// Takes a `logging/setLevel`: the connection's later calls send their messages from
    /// `request.level` on.
    pub(crate) fn set(&self, request: &SetLevelRequestParams) {
        self.set_level(level(request.level));
    }

    /// Sets the connection's level.
    pub(crate) fn set_level(&self, level: LogLevel) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(level);
    }

    /// The connection's level: `None` before any `logging/setLevel`.
    pub(crate) fn level(&self) -> Option<LogLevel> {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The least severe level the client wants the messages of the call `context` from,
    /// or `None` for no messages: the request's own `_meta` key on 2026-07-28, the
    /// connection's `logging/setLevel` before.
    pub(crate) fn for_call(&self, context: &RequestContext<RoleServer>) -> Option<LogLevel> {
        if per_request(context) {
            context.meta.log_level().map(level)
        } else {
            self.level()
        }
    }
}

/// Whether `context`'s request is served on 2026-07-28 or later (no `initialize`), where
/// each request asks for its own log messages.
fn per_request(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| !v.has_initialize())
}

/// Sends one log message of a call as `notifications/message`: its `level`, the tool's
/// name as `logger`, and its `data`.
pub(crate) async fn send(peer: &Peer<RoleServer>, message: LogMessage) {
    let param = LoggingMessageNotificationParam::new(wire_level(message.level), message.data)
        .with_logger(&*message.logger);
    // A client that went away gets nothing more; the call's own answer says the rest.
    let _ = peer.notify_logging_message(param).await;
}

/// rmcp's level as the toolkit's.
fn level(level: LoggingLevel) -> LogLevel {
    match level {
        LoggingLevel::Debug => LogLevel::Debug,
        LoggingLevel::Info => LogLevel::Info,
        LoggingLevel::Notice => LogLevel::Notice,
        LoggingLevel::Warning => LogLevel::Warning,
        LoggingLevel::Error => LogLevel::Error,
        LoggingLevel::Critical => LogLevel::Critical,
        LoggingLevel::Alert => LogLevel::Alert,
        LoggingLevel::Emergency => LogLevel::Emergency,
    }
}

/// The toolkit's level as rmcp's.
fn wire_level(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
        LogLevel::Critical => LoggingLevel::Critical,
        LogLevel::Alert => LoggingLevel::Alert,
        LogLevel::Emergency => LoggingLevel::Emergency,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_map_one_to_one_and_keep_their_names() {
        for ours in LogLevel::ALL {
            let theirs = wire_level(ours);
            assert_eq!(level(theirs), ours);
            assert_eq!(
                serde_json::to_value(theirs).ok(),
                Some(serde_json::Value::String(ours.as_str().to_owned()))
            );
        }
    }
}
