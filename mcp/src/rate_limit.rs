//! The per-caller rate limit of a hosted service (feature `rate-limit`), on `governor`
//! (GCRA, one state per verified user).

use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use governor::clock::{Clock as _, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use http::{HeaderValue, StatusCode};

use crate::reply::{HttpResponse, METHOD_HEADER, refusal};

/// `tools/call` requests per minute, per user.
pub(crate) struct Limiter {
    per_minute: NonZeroU32,
    limiter: DefaultKeyedRateLimiter<String>,
    clock: DefaultClock,
    /// Checks since the users idle long enough to be back at a full allowance were
    /// forgotten (every few thousand checks, so the table does not grow with every user
    /// ever seen).
    checks: AtomicU32,
}

impl Limiter {
    pub(crate) fn per_minute(per_minute: NonZeroU32) -> Self {
        Self {
            per_minute,
            limiter: DefaultKeyedRateLimiter::dashmap(Quota::per_minute(per_minute)),
            clock: DefaultClock::default(),
            checks: AtomicU32::new(0),
        }
    }

    /// Counts `calls` calls of `user`: `Err` with how long until they would fit.
    pub(crate) fn check(&self, user: &str, calls: u32) -> Result<(), Duration> {
        let Some(calls) = NonZeroU32::new(calls) else {
            return Ok(());
        };
        if self.checks.fetch_add(1, Ordering::Relaxed) % 4096 == 4095 {
            self.limiter.retain_recent();
        }
        match self.limiter.check_key_n(&user.to_owned(), calls) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(not_until)) => Err(not_until.wait_time_from(self.clock.now())),
            // More calls in one batch than a minute allows.
            Err(_) => Err(Duration::from_secs(60)),
        }
    }
}

/// One JSON-RPC message's method, and nothing else read.
#[derive(serde::Deserialize)]
struct Method<'a> {
    #[serde(borrow, default)]
    method: Option<std::borrow::Cow<'a, str>>,
}

/// How many `tools/call` requests a POST carries: one when its `Mcp-Method` header says
/// so (2026-07-28), else as many as its body's message (or batch) has.
pub(crate) fn calls_in(parts: &http::request::Parts, body: &[u8]) -> u32 {
    if parts.method != http::Method::POST {
        return 0;
    }
    let is_call = |m: &Method<'_>| m.method.as_deref() == Some("tools/call");
    // The header settles a call (2026-07-28 clients send it, rmcp checks it against the
    // body); anything else is read from the body, so that no header hides a call.
    if parts
        .headers
        .get(METHOD_HEADER)
        .is_some_and(|v| v.as_bytes() == b"tools/call")
    {
        return 1;
    }
    if let Ok(one) = serde_json::from_slice::<Method<'_>>(body) {
        return u32::from(is_call(&one));
    }
    serde_json::from_slice::<Vec<Method<'_>>>(body).map_or(0, |batch| {
        u32::try_from(batch.iter().filter(|m| is_call(m)).count()).unwrap_or(u32::MAX)
    })
}

/// The `429` for a caller over its limit: `Retry-After` in whole seconds (at least 1).
pub(crate) fn too_many(limiter: &Limiter, wait: Duration) -> HttpResponse {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    let seconds = seconds.max(1);
    let mut response = refusal(
        StatusCode::TOO_MANY_REQUESTS,
        &format!(
            "too many requests: this server allows {} tool calls per minute per caller; retry after {seconds} s",
            limiter.per_minute
        ),
        &format!(
            "over the rate limit of {} calls per minute",
            limiter.per_minute
        ),
    );
    response
        .headers_mut()
        .insert(http::header::RETRY_AFTER, HeaderValue::from(seconds));
    response
}
