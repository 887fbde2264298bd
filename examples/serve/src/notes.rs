//! `Notes`: the package's service, an in-memory store shared by every call. Its tools are
//! methods taking `&self` (`#[neuralis::tools]`): a read tool, a destructive write tool
//! whose `delete` key asks for approval, and a slow, cancellable rebuild that logs what it
//! does (`ToolContext::info` and the other levels: MCP `notifications/message` for a
//! client that asked for them).

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use neuralis::{AbortSignal, ToolContext, ToolInput, ToolOutput, tool, tools};
use serde::{Deserialize, Serialize};

/// The store: the notes, by key, and how many writes it has taken.
#[derive(Default)]
struct Store {
    notes: BTreeMap<String, String>,
    revision: u64,
}

/// The service. Calls run concurrently on the one value the package holds, so what they
/// change sits behind a `Mutex` and atomics.
#[derive(Default)]
pub struct Notes {
    store: Mutex<Store>,
    runs: Runs,
}

/// The input of [`Notes::notes_list`].
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "List Notes")]
pub struct ListNotes {
    /// Only the notes whose key starts with this.
    #[schema(max_length = 64)]
    pub prefix: Option<String>,
}

/// One note.
#[derive(Serialize, ToolOutput)]
pub struct Note {
    /// Its key.
    pub key: String,
    /// Its text.
    pub text: String,
}

/// What [`Notes::notes_list`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Listed {
    /// Always `true`.
    pub ok: bool,
    /// How many writes the store has taken.
    pub revision: u64,
    /// The notes, by key.
    pub notes: Vec<Note>,
}

/// The input of [`Notes::notes_write`].
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "Write Note")]
pub struct WriteNote {
    /// The note's key.
    #[schema(min_length = 1, max_length = 64)]
    pub key: String,
    /// The note's new text.
    #[schema(max_length = 10000)]
    pub text: Option<String>,
    /// Delete the note instead of writing it.
    pub delete: Option<bool>,
}

/// Why [`Notes::notes_write`] wrote nothing. It derives `Serialize` (for logs, say), and
/// is still an error: a handler's `Err` is always an `isError` result with its `Display`
/// text, never data.
#[derive(Debug, Serialize)]
pub enum WriteError {
    /// A write panicked while it held the store.
    Unavailable,
    /// Neither `text` nor `delete: true`.
    NothingToWrite,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            WriteError::Unavailable => "the store is unavailable: a write panicked",
            WriteError::NothingToWrite => "give `text`, or `delete: true`",
        })
    }
}

impl std::error::Error for WriteError {}

/// What [`Notes::notes_write`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Written {
    /// Always `true`.
    pub ok: bool,
    /// The note's key.
    pub key: String,
    /// The store's revision after this write.
    pub revision: u64,
    /// Whether the note was deleted.
    pub deleted: bool,
}

/// The input of [`Notes::notes_reindex`].
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "Reindex Notes")]
pub struct Reindex {
    /// How long the rebuild takes, in seconds.
    #[schema(minimum = 0, maximum = 60)]
    pub seconds: Option<u64>,
}

/// What [`Notes::notes_reindex`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Reindexed {
    /// Always `true`.
    pub ok: bool,
    /// How long it took, in seconds.
    pub seconds: u64,
    /// How many notes were indexed.
    pub notes: usize,
    /// The rebuilds so far.
    pub runs: RunCounts,
}

/// How many rebuilds are running, finished, and were cancelled.
#[derive(Default)]
struct Runs {
    running: AtomicU64,
    completed: AtomicU64,
    cancelled: AtomicU64,
}

/// [`Runs`], read at one moment.
#[derive(Serialize, ToolOutput)]
pub struct RunCounts {
    /// Running now.
    pub running: u64,
    /// Finished.
    pub completed: u64,
    /// Dropped before they finished.
    pub cancelled: u64,
}

impl Runs {
    fn snapshot(&self) -> RunCounts {
        RunCounts {
            running: self.running.load(Ordering::SeqCst),
            completed: self.completed.load(Ordering::SeqCst),
            cancelled: self.cancelled.load(Ordering::SeqCst),
        }
    }
}

/// One rebuild: counted as cancelled when its future is dropped before it finishes.
struct Run<'a> {
    runs: &'a Runs,
    finished: bool,
}

impl<'a> Run<'a> {
    fn start(runs: &'a Runs) -> Self {
        runs.running.fetch_add(1, Ordering::SeqCst);
        Self {
            runs,
            finished: false,
        }
    }
}

impl Drop for Run<'_> {
    fn drop(&mut self) {
        self.runs.running.fetch_sub(1, Ordering::SeqCst);
        let counter = if self.finished {
            &self.runs.completed
        } else {
            &self.runs.cancelled
        };
        counter.fetch_add(1, Ordering::SeqCst);
    }
}

impl Notes {
    fn store(&self) -> Result<std::sync::MutexGuard<'_, Store>, String> {
        self.store
            .lock()
            .map_err(|_| "the store is unavailable: a write panicked".to_owned())
    }
}

#[tools]
impl Notes {
    /// List the notes, optionally only those whose key starts with a prefix.
    #[tool(
        family = "notes",
        operation = "notes.list",
        transport = "embedded",
        annotations(title = "List Notes", read_only, category = "read"),
        ui(presentation = "explored", icon = "notebook")
    )]
    pub fn notes_list(&self, input: ListNotes) -> Result<Listed, String> {
        let store = self.store()?;
        let prefix = input.prefix.unwrap_or_default();
        let notes = store
            .notes
            .iter()
            .filter(|(key, _)| key.starts_with(&prefix))
            .map(|(key, text)| Note {
                key: key.clone(),
                text: text.clone(),
            })
            .collect();
        Ok(Listed {
            ok: true,
            revision: store.revision,
            notes,
        })
    }

    /// Write a note's text, or delete the note. Deleting asks the user first.
    #[tool(
        family = "notes",
        operation = "notes.write",
        transport = "embedded",
        annotations(title = "Write Note", destructive, category = "write"),
        ui(presentation = "inline", icon = "pencil"),
        ask_on_keys(delete)
    )]
    pub fn notes_write(&self, input: WriteNote) -> Result<Written, WriteError> {
        let delete = input.delete.unwrap_or(false);
        let mut store = self.store().map_err(|_| WriteError::Unavailable)?;
        match (delete, input.text) {
            (true, _) => {
                store.notes.remove(&input.key);
            }
            (false, Some(text)) => {
                store.notes.insert(input.key.clone(), text);
            }
            (false, None) => return Err(WriteError::NothingToWrite),
        }
        store.revision += 1;
        Ok(Written {
            ok: true,
            key: input.key,
            revision: store.revision,
            deleted: delete,
        })
    }

    /// Rebuild the notes' search index: slow, cancellable; reports how many rebuilds ran, finished and were cancelled.
    #[tool(
        family = "notes",
        operation = "notes.reindex",
        transport = "embedded",
        defaults(seconds = 5),
        annotations(
            title = "Reindex Notes",
            idempotent,
            category = "write",
            estimated_duration_ms = 5000,
            cancellable
        ),
        ui(presentation = "inline", icon = "refresh")
    )]
    pub async fn notes_reindex(
        &self,
        input: Reindex,
        abort: AbortSignal,
        cx: &ToolContext,
    ) -> Result<Reindexed, String> {
        let mut run = Run::start(&self.runs);
        let seconds = input.seconds.unwrap_or(5);
        // Logged for whoever watches the call (a client that asked for log messages),
        // formatted only when someone did.
        cx.debug(format_args!("rebuilding the index over {seconds} s"));
        if seconds > 0 {
            tokio::select! {
                () = tokio::time::sleep(Duration::from_secs(seconds)) => {}
                () = abort.cancelled() => return Err("cancelled".to_owned()),
            }
        }
        let notes = self.store()?.notes.len();
        cx.info(format_args!("indexed {notes} notes in {seconds} s"));
        if notes == 0 {
            cx.warning("the store holds no notes: the index is empty");
        }
        run.finished = true;
        drop(run);
        Ok(Reindexed {
            ok: true,
            seconds,
            notes,
            runs: self.runs.snapshot(),
        })
    }
}
