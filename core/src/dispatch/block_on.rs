//! A tiny std-only `block_on`, for sync callers of the pipeline.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Wake, Waker};

/// Wakes the blocked thread (or, with no threads, records the wake).
struct ThreadWaker {
    woken: AtomicBool,
    #[cfg(not(target_family = "wasm"))]
    thread: std::thread::Thread,
}

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::SeqCst);
        #[cfg(not(target_family = "wasm"))]
        self.thread.unpark();
    }
}

/// Runs a future to completion on the current thread, with no runtime.
///
/// Between polls the thread parks until the future's waker is called, so a future woken
/// from another thread (a timer, an [`AbortController`](super::AbortController) aborted
/// elsewhere) completes. Futures that need a specific runtime's reactor (tokio I/O, timers)
/// must be driven by that runtime instead: use [`Package::dispatch`](super::Package::dispatch).
///
/// On `wasm32` targets there is one thread and nothing to wait for: a future that is
/// pending without having woken itself can never complete, so `block_on` returns `None`
/// for it instead of hanging. Elsewhere it always returns `Some`.
///
/// ```
/// use neuralis_core::dispatch::block_on;
/// assert_eq!(block_on(async { 1 + 1 }), Some(2));
/// ```
pub fn block_on<F: Future>(future: F) -> Option<F::Output> {
    let mut future = pin!(future);
    let waker = Arc::new(ThreadWaker {
        woken: AtomicBool::new(false),
        #[cfg(not(target_family = "wasm"))]
        thread: std::thread::current(),
    });
    let task_waker = Waker::from(Arc::clone(&waker));
    let mut cx = Context::from_waker(&task_waker);
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return Some(out);
        }
        if waker.woken.swap(false, Ordering::SeqCst) {
            continue;
        }
        #[cfg(target_family = "wasm")]
        return None;
        #[cfg(not(target_family = "wasm"))]
        while !waker.woken.swap(false, Ordering::SeqCst) {
            std::thread::park();
        }
    }
}
