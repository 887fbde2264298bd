//! The limits a hosted service applies beyond rmcp's: the rate of calls, the time to an
//! answer, the connections, the legacy sessions.

/// The limits a hosted service applies beyond rmcp's.
#[derive(Clone, Debug, Default)]
pub(crate) struct Limits {
    /// `tools/call` requests per minute per verified caller.
    #[cfg(feature = "rate-limit")]
    pub(crate) calls_per_minute: Option<std::num::NonZeroU32>,
    /// How long a request may take until its answer starts.
    pub(crate) timeout: Option<std::time::Duration>,
    /// What `listen::serve` holds each connection to.
    pub(crate) connections: crate::listen::ConnectionLimits,
    /// How many legacy sessions may be open, and for how long idle.
    pub(crate) sessions: SessionLimits,
}

/// How many legacy sessions (`Mcp-Session-Id`, protocol versions before 2026-07-28) a
/// hosted server keeps, and how long one may idle (see
/// [`Hosted::with_session_limits`](super::Hosted::with_session_limits)). Each costs memory until it ends (about 70 KB with
/// the example package), so a caller who opens them and never closes them would
/// otherwise grow the server without bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLimits {
    pub(crate) per_caller: Option<usize>,
    pub(crate) total: Option<usize>,
    pub(crate) idle: std::time::Duration,
}

impl Default for SessionLimits {
    /// 128 per verified caller, 1,024 in all, closed after 5 minutes without a request.
    fn default() -> Self {
        Self {
            per_caller: Some(Self::DEFAULT_PER_CALLER),
            total: Some(Self::DEFAULT_TOTAL),
            idle: Self::DEFAULT_IDLE,
        }
    }
}

impl SessionLimits {
    /// The default cap per verified caller.
    pub const DEFAULT_PER_CALLER: usize = 128;
    /// The default cap in all.
    pub const DEFAULT_TOTAL: usize = 1024;
    /// The default idle expiry (rmcp's own default).
    pub const DEFAULT_IDLE: std::time::Duration = std::time::Duration::from_secs(300);

    /// The most sessions one verified caller (by user id) may hold open (`None`: no cap).
    #[must_use]
    pub fn with_per_caller(mut self, max: Option<usize>) -> Self {
        self.per_caller = max;
        self
    }

    /// The most sessions open in all (`None`: no cap).
    #[must_use]
    pub fn with_total(mut self, max: Option<usize>) -> Self {
        self.total = max;
        self
    }

    /// How long a session may go without a request before it is closed.
    #[must_use]
    pub fn with_idle(mut self, idle: std::time::Duration) -> Self {
        self.idle = idle;
        self
    }
}
