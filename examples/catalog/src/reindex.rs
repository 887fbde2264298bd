//! `catalog_reindex`: a long-running, `cancellable` tool that reports its progress.
//!
//! Each batch is a stand-in for real work (a short wait); after every batch the handler
//! calls [`ToolContext::progress`], which an MCP client that sent a progress token
//! receives as `notifications/progress`. A cancelled run stops between batches: the
//! pipeline drops the handler's future as soon as the abort signal fires.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use neuralis::dispatch::{AbortSignal, ToolContext};
use neuralis::{ToolInput, ToolOutput, tool};
use serde::{Deserialize, Serialize};

use crate::store;

/// The input of [`catalog_reindex`].
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "Reindex Catalog")]
pub struct CatalogReindex {
    /// How many batches to index the catalog in.
    #[schema(minimum = 1, maximum = 100)]
    pub batches: Option<u32>,
    /// How long each batch takes, in milliseconds.
    #[schema(minimum = 0, maximum = 10000)]
    pub batch_ms: Option<u32>,
}

/// What [`catalog_reindex`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Reindexed {
    /// Always `true`.
    pub ok: bool,
    /// The batches indexed.
    pub batches: u32,
    /// The items indexed.
    pub items: usize,
}

/// Rebuild the catalog's search index, batch by batch. Reports progress after each batch and stops promptly when cancelled.
#[tool(
    family = "catalog",
    operation = "catalog.reindex",
    transport = "embedded",
    defaults(batches = 4, batch_ms = 250),
    annotations(
        title = "Reindex Catalog",
        destructive = false,
        idempotent,
        category = "write",
        cancellable,
        estimated_duration_ms = 1000
    ),
    ui(presentation = "inline", icon = "refresh")
)]
pub async fn catalog_reindex(
    input: CatalogReindex,
    cx: &ToolContext,
    abort: AbortSignal,
) -> Reindexed {
    let batches = input.batches.unwrap_or(4);
    let pause = Duration::from_millis(u64::from(input.batch_ms.unwrap_or(250)));
    for batch in 1..=batches {
        if abort.is_aborted() {
            break;
        }
        Wait::new(pause).await;
        cx.progress(
            f64::from(batch),
            Some(f64::from(batches)),
            Some(&format!("indexed batch {batch} of {batches}")),
        );
    }
    Reindexed {
        ok: true,
        batches,
        items: store::items().len(),
    }
}

/// A wait that needs no runtime: a thread sleeps, then wakes the task. (A real tool
/// awaits its real work; on `wasm32`, which has no threads, the wait is skipped.)
struct Wait {
    duration: Duration,
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
    started: bool,
}

impl Wait {
    fn new(duration: Duration) -> Self {
        Self {
            duration,
            done: std::sync::Arc::default(),
            started: false,
        }
    }
}

impl Future for Wait {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        use std::sync::atomic::Ordering;
        if cfg!(target_arch = "wasm32") || self.duration.is_zero() {
            return Poll::Ready(());
        }
        if self.done.load(Ordering::Acquire) {
            return Poll::Ready(());
        }
        if !self.started {
            self.started = true;
            let (done, duration, waker) = (
                std::sync::Arc::clone(&self.done),
                self.duration,
                cx.waker().clone(),
            );
            std::thread::spawn(move || {
                std::thread::sleep(duration);
                done.store(true, Ordering::Release);
                waker.wake();
            });
        }
        Poll::Pending
    }
}
