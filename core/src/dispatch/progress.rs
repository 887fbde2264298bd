//! Progress of a running call: what a handler reports, where the host sends it.

use std::fmt;
use std::sync::Arc;

/// One progress report of a running call (see [`ToolContext::progress`](super::ToolContext::progress)).
///
/// `done` counts what is finished so far; `total` is how much there is, when known (both
/// in the handler's own unit: items, bytes, steps); `message` says what is happening now.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// What is finished so far.
    pub done: f64,
    /// How much there is in all, when known.
    pub total: Option<f64>,
    /// What is happening now, for a person to read.
    pub message: Option<String>,
}

/// Where the progress reports of one call go: the host's, given to
/// [`Package::dispatch_with`](super::Package::dispatch_with) through
/// [`CallOptions::progress`].
///
/// The MCP server makes one per `tools/call` whose request carried a progress token and
/// turns every report into a `notifications/progress`. A sink is called on the handler's
/// own thread, while the handler runs: it must not block.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use neuralis_core::dispatch::{Progress, ProgressSink};
///
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// let sink = {
///     let seen = Arc::clone(&seen);
///     ProgressSink::new(move |p: Progress| seen.lock().expect("not poisoned").push(p.done))
/// };
/// sink.report(Progress { done: 1.0, total: Some(4.0), message: None });
/// assert_eq!(*seen.lock().expect("not poisoned"), [1.0]);
/// ```
#[derive(Clone)]
pub struct ProgressSink(Arc<dyn Fn(Progress) + Send + Sync>);

impl ProgressSink {
    /// A sink that calls `report` for every progress report.
    pub fn new(report: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        Self(Arc::new(report))
    }

    /// Hands one report to the host.
    pub fn report(&self, progress: Progress) {
        (self.0)(progress);
    }
}

impl fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProgressSink(..)")
    }
}

/// What a host hands [`Package::dispatch_with`](super::Package::dispatch_with) besides
/// the call itself: the run's abort signal, where progress reports go, where log
/// messages go, and how the call may ask the person or client behind it (the
/// [`ApprovalPolicy`](super::ApprovalPolicy) for a call whose posture asks, and the
/// [`Asker`](super::Asker) that the approval gate and the handler ask through).
///
/// ```
/// use neuralis_core::dispatch::{AbortController, CallOptions, LogLevel, LogSink, ProgressSink};
///
/// let controller = AbortController::new();
/// let options = CallOptions::new()
///     .abort(controller.signal())
///     .progress(ProgressSink::new(|p| eprintln!("{} done", p.done)))
///     .log(LogSink::new(LogLevel::Info, |m| eprintln!("{}: {}", m.level, m.data)));
/// # let _ = options;
/// ```
#[derive(Clone)]
#[must_use]
pub struct CallOptions {
    pub(super) abort: super::AbortSignal,
    pub(super) progress: Option<ProgressSink>,
    pub(super) log: Option<super::LogSink>,
    pub(super) approval: super::ApprovalPolicy,
    pub(super) asker: Option<Arc<dyn super::Asker>>,
}

impl fmt::Debug for CallOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallOptions")
            .field("abort", &self.abort)
            .field("progress", &self.progress)
            .field("log", &self.log)
            .field("approval", &self.approval)
            .field("asker", &self.asker.is_some())
            .finish()
    }
}

impl Default for CallOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl CallOptions {
    /// No abort signal, no progress sink, no log sink, no asker, and the approval posture
    /// left to the host ([`ApprovalPolicy::Host`](super::ApprovalPolicy::Host)): a call
    /// that runs to completion, reports progress and logs to nobody, and asks nobody.
    pub fn new() -> Self {
        Self {
            abort: super::AbortSignal::never(),
            progress: None,
            log: None,
            approval: super::ApprovalPolicy::Host,
            asker: None,
        }
    }

    /// What the pipeline does with a call whose approval posture asks (default:
    /// [`ApprovalPolicy::Host`](super::ApprovalPolicy::Host), no gate).
    pub fn approval(mut self, policy: super::ApprovalPolicy) -> Self {
        self.approval = policy;
        self
    }

    /// Who the call asks: the approval gate under
    /// [`ApprovalPolicy::Ask`](super::ApprovalPolicy::Ask), and the handler's
    /// [`ToolContext::elicit`](super::ToolContext::elicit) and the other asking methods.
    /// Without one, every question fails with
    /// [`AskError::NoAsker`](super::AskError::NoAsker).
    pub fn asker(mut self, asker: impl super::Asker) -> Self {
        self.asker = Some(Arc::new(asker));
        self
    }

    /// [`asker`](Self::asker) for an asker the host shares.
    pub fn shared_asker(mut self, asker: Arc<dyn super::Asker>) -> Self {
        self.asker = Some(asker);
        self
    }

    /// The run's abort signal (it reaches the handler only when the tool is `cancellable`).
    pub fn abort(mut self, signal: super::AbortSignal) -> Self {
        self.abort = signal;
        self
    }

    /// Where the handler's progress reports go.
    pub fn progress(mut self, sink: ProgressSink) -> Self {
        self.progress = Some(sink);
        self
    }

    /// Where the handler's log messages go ([`ToolContext::log`](super::ToolContext::log)
    /// and the level methods), from the sink's threshold on. Without one, logging is a
    /// no-op that formats nothing.
    pub fn log(mut self, sink: super::LogSink) -> Self {
        self.log = Some(sink);
        self
    }
}
