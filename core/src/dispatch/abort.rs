//! The abort signal: a run is stopped, and a `cancellable` handler learns of it.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};

/// The shared state of one abort controller and its signals.
#[derive(Default)]
struct Inner {
    aborted: AtomicBool,
    next_id: AtomicU64,
    /// The wakers of pending [`Cancelled`] futures, each with its future's id.
    wakers: Mutex<Vec<(u64, Waker)>>,
}

impl Inner {
    fn lock_wakers(&self) -> std::sync::MutexGuard<'_, Vec<(u64, Waker)>> {
        // A waker list stays consistent even if a thread panicked holding the lock.
        self.wakers.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The host's side of an abort: [`abort`](Self::abort) stops the run, and every
/// [`AbortSignal`] obtained from [`signal`](Self::signal) sees it.
///
/// ```
/// use neuralis_core::dispatch::AbortController;
///
/// let controller = AbortController::new();
/// let signal = controller.signal();
/// assert!(!signal.is_aborted());
/// controller.abort();
/// assert!(signal.is_aborted());
/// ```
#[derive(Clone, Default)]
pub struct AbortController {
    inner: Arc<Inner>,
}

impl AbortController {
    /// A controller that has not aborted.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// A signal that observes this controller.
    #[must_use]
    pub fn signal(&self) -> AbortSignal {
        AbortSignal {
            inner: Some(Arc::clone(&self.inner)),
        }
    }

    /// Aborts the run: every signal reads aborted from now on, and every pending
    /// [`AbortSignal::cancelled`] future is woken. Aborting twice does nothing more.
    pub fn abort(&self) {
        if self.inner.aborted.swap(true, Ordering::SeqCst) {
            return;
        }
        let wakers = std::mem::take(&mut *self.inner.lock_wakers());
        for (_, waker) in wakers {
            waker.wake();
        }
    }

    /// Whether [`abort`](Self::abort) was called.
    #[must_use]
    pub fn is_aborted(&self) -> bool {
        self.inner.aborted.load(Ordering::SeqCst)
    }
}

impl fmt::Debug for AbortController {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AbortController")
            .field("aborted", &self.is_aborted())
            .finish()
    }
}

/// A handler's view of an abort: cheap to clone, usable by polling
/// ([`is_aborted`](Self::is_aborted)) and as a future ([`cancelled`](Self::cancelled)).
///
/// It is std only (an atomic flag and a list of wakers), so it works with any executor, or
/// none. A handler receives one only when its tool declares `annotations.cancellable: true`
/// (see [`ToolContext::abort`](super::ToolContext::abort)).
///
/// ```
/// use neuralis_core::dispatch::{AbortController, AbortSignal, block_on};
///
/// let controller = AbortController::new();
/// let signal = controller.signal();
/// controller.abort();
/// block_on(signal.cancelled()); // ready at once: the run is aborted
/// assert!(!AbortSignal::never().is_aborted());
/// ```
#[derive(Clone, Default)]
pub struct AbortSignal {
    /// `None` for a signal that never aborts (no allocation).
    inner: Option<Arc<Inner>>,
}

impl AbortSignal {
    /// A signal that never aborts, for callers with no way to stop a run.
    #[must_use]
    pub const fn never() -> Self {
        Self { inner: None }
    }

    /// Whether the run is aborted.
    #[must_use]
    pub fn is_aborted(&self) -> bool {
        self.inner
            .as_ref()
            .is_some_and(|i| i.aborted.load(Ordering::SeqCst))
    }

    /// A future that completes when the run is aborted (at once if it already is; never for
    /// [`AbortSignal::never`]).
    pub fn cancelled(&self) -> Cancelled<'_> {
        Cancelled {
            signal: self,
            id: None,
        }
    }
}

impl fmt::Debug for AbortSignal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AbortSignal")
            .field("aborted", &self.is_aborted())
            .finish()
    }
}

/// The future of [`AbortSignal::cancelled`].
#[must_use = "futures do nothing unless polled"]
pub struct Cancelled<'a> {
    signal: &'a AbortSignal,
    /// The id under which this future's waker is registered.
    id: Option<u64>,
}

impl Future for Cancelled<'_> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let Some(inner) = self.signal.inner.as_ref() else {
            return Poll::Pending;
        };
        if inner.aborted.load(Ordering::SeqCst) {
            return Poll::Ready(());
        }
        let id = match self.id {
            Some(id) => id,
            None => {
                let id = inner.next_id.fetch_add(1, Ordering::Relaxed);
                self.id = Some(id);
                id
            }
        };
        {
            let mut wakers = inner.lock_wakers();
            match wakers.iter_mut().find(|(i, _)| *i == id) {
                Some((_, w)) => {
                    if !w.will_wake(cx.waker()) {
                        w.clone_from(cx.waker());
                    }
                }
                None => wakers.push((id, cx.waker().clone())),
            }
        }
        // `abort` may have run between the first load and the registration.
        if inner.aborted.load(Ordering::SeqCst) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

impl Drop for Cancelled<'_> {
    fn drop(&mut self) {
        if let (Some(inner), Some(id)) = (self.signal.inner.as_ref(), self.id) {
            inner.lock_wakers().retain(|(i, _)| *i != id);
        }
    }
}

impl fmt::Debug for Cancelled<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cancelled")
            .field("aborted", &self.signal.is_aborted())
            .finish()
    }
}
