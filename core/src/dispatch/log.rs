//! Log messages of a running call: what a handler logs, where the host sends them.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

/// How severe a log message is: the eight levels of MCP logging, which are the syslog
/// severities of RFC 5424. They are ordered from the least severe to the most severe, so
/// `level >= LogLevel::Warning` reads "a warning or worse".
///
/// ```
/// use neuralis_core::dispatch::LogLevel;
///
/// assert!(LogLevel::Error > LogLevel::Warning);
/// assert_eq!(LogLevel::Notice.as_str(), "notice");
/// assert_eq!(LogLevel::from_name("critical"), Some(LogLevel::Critical));
/// assert_eq!(LogLevel::from_name("Critical"), None);
/// assert_eq!(LogLevel::ALL.len(), 8);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Detailed information for debugging.
    Debug,
    /// What the tool is doing, in the normal course of things.
    Info,
    /// Normal but significant events.
    Notice,
    /// Something may be wrong; the call goes on.
    Warning,
    /// Something failed.
    Error,
    /// A critical condition: a component is failing.
    Critical,
    /// Someone must act at once.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// Every level, from the least severe ([`Debug`](Self::Debug)) to the most severe
    /// ([`Emergency`](Self::Emergency)).
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The level's name on the wire (MCP's `level`): `"debug"`, `"info"`, `"notice"`,
    /// `"warning"`, `"error"`, `"critical"`, `"alert"` or `"emergency"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }

    /// The level named `name` as [`as_str`](Self::as_str) spells it (lower case, as MCP
    /// does), or `None`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|level| level.as_str() == name)
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One log message of a running call (see [`ToolContext::log`](super::ToolContext::log)):
/// what MCP's `notifications/message` carries.
#[derive(Debug, Clone, PartialEq)]
pub struct LogMessage {
    /// How severe it is.
    pub level: LogLevel,
    /// Who logged it: the name of the tool being called.
    pub logger: Arc<str>,
    /// What was logged: a string for [`ToolContext::log`](super::ToolContext::log) and
    /// the level methods, any JSON value for
    /// [`ToolContext::log_data`](super::ToolContext::log_data).
    pub data: Value,
}

/// Where the log messages of one call go, and from which level on: the host's, given to
/// [`Package::dispatch_with`](super::Package::dispatch_with) through
/// [`CallOptions::log`](super::CallOptions::log).
///
/// A sink carries its threshold, the least severe level it takes: a handler's message
/// below it is dropped before it is even formatted. The MCP server makes one per
/// `tools/call` whose client asked for log messages (with `logging/setLevel` before
/// 2026-07-28, in the request's `_meta` on 2026-07-28) and turns every message into a
/// `notifications/message`. A sink is called on the handler's own thread, while the
/// handler runs: it must not block.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use neuralis_core::dispatch::{LogLevel, LogMessage, LogSink};
///
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// let sink = {
///     let seen = Arc::clone(&seen);
///     LogSink::new(LogLevel::Info, move |m: LogMessage| {
///         seen.lock().expect("not poisoned").push((m.level, m.data))
///     })
/// };
/// assert!(sink.accepts(LogLevel::Warning) && !sink.accepts(LogLevel::Debug));
/// let message = |level| LogMessage { level, logger: "t".into(), data: "hi".into() };
/// sink.send(message(LogLevel::Debug)); // below the threshold: dropped
/// sink.send(message(LogLevel::Info));
/// assert_eq!(*seen.lock().expect("not poisoned"), [(LogLevel::Info, "hi".into())]);
/// ```
#[derive(Clone)]
pub struct LogSink {
    min_level: LogLevel,
    send: Arc<dyn Fn(LogMessage) + Send + Sync>,
}

impl LogSink {
    /// A sink that calls `send` for every message at `min_level` or more severe.
    pub fn new(min_level: LogLevel, send: impl Fn(LogMessage) + Send + Sync + 'static) -> Self {
        Self {
            min_level,
            send: Arc::new(send),
        }
    }

    /// The least severe level this sink takes.
    #[must_use]
    pub fn min_level(&self) -> LogLevel {
        self.min_level
    }

    /// Whether a message at `level` reaches the host (`level` is at least
    /// [`min_level`](Self::min_level)).
    #[must_use]
    pub fn accepts(&self, level: LogLevel) -> bool {
        level >= self.min_level
    }

    /// Hands one message to the host, when the sink [`accepts`](Self::accepts) its level;
    /// drops it otherwise.
    pub fn send(&self, message: LogMessage) {
        if self.accepts(message.level) {
            (self.send)(message);
        }
    }
}

impl fmt::Debug for LogSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LogSink")
            .field("min_level", &self.min_level)
            .finish_non_exhaustive()
    }
}
