//! What a task is, as a store keeps it: [`TaskRecord`] (its questions [`Asked`] and
//! answers [`Answered`]), the [`TaskStore`] every replica shares, and the in-memory
//! [`MemoryTaskStore`].

use super::*;

/// What a [`TaskStore`] fails with: the store's own error (a database's, an I/O error).
pub type TaskStoreError = Box<dyn std::error::Error + Send + Sync>;

/// One task as its store keeps it: what every replica needs to answer `tasks/get`,
/// `tasks/update` and `tasks/cancel` for it. Serde reads and writes it as one JSON object
/// (a store may keep it as a document).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskRecord {
    /// The task's id (128 random bits, hex).
    pub task_id: String,
    /// The user id of the caller that created it: only that caller sees it.
    pub owner: String,
    /// The tool called.
    pub tool: String,
    /// `working`, `input_required`, `completed`, `failed` or `cancelled`.
    pub status: TaskStatus,
    /// The handler's last progress message, while the task runs (cleared when it ends).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// When it was created, unix milliseconds.
    pub created_ms: u64,
    /// When it last changed, unix milliseconds.
    pub updated_ms: u64,
    /// How long it is kept after its last change, milliseconds (`ttlMs`).
    pub ttl_ms: u64,
    /// How often a client should poll, milliseconds (`pollIntervalMs`).
    pub poll_interval_ms: u64,
    /// Until when the replica that runs it holds it, unix milliseconds: renewed while it
    /// runs; past it, a task that is not finished failed.
    pub lease_ms: u64,
    /// The handler's open questions, by key.
    #[serde(default)]
    pub asked: BTreeMap<String, Asked>,
    /// The answers so far, by key: the client's through `tasks/update`, and those given
    /// within the call's request before the task began.
    #[serde(default)]
    pub answered: BTreeMap<String, Answered>,
    /// A completed task's result (a `CallToolResult`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// A failed task's JSON-RPC error (`code`, `message`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
}

/// An open question of a task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Asked {
    /// The digest of the question, which its answer is kept under.
    pub digest: String,
    /// The question as an MCP request (`{"method": .., "params": ..}`).
    pub request: Value,
}

/// An answer a task was given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Answered {
    /// The digest of the question it answers.
    pub digest: String,
    /// The client's answer (an elicitation, sampling or roots result).
    pub answer: Value,
}

impl TaskRecord {
    /// When the record may be swept: `ttlMs` after its last change.
    #[must_use]
    pub fn expires_ms(&self) -> u64 {
        self.updated_ms.saturating_add(self.ttl_ms)
    }

    /// Whether it finished (`completed`, `failed`, `cancelled`).
    #[must_use]
    pub fn is_terminal(&self) -> bool {
        self.status.is_terminal()
    }

    /// Marks a task whose lease ran out before `now` failed; whether it did.
    pub(super) fn settle_lease(&mut self, now: u64) -> bool {
        if self.is_terminal() || self.lease_ms >= now {
            return false;
        }
        self.finish(
            TaskStatus::Failed,
            None,
            Some(json!({
                "code": ErrorCode::INTERNAL_ERROR.0,
                "message": "the task stopped: the server that ran it went away before it finished (its lease ran out)",
            })),
            now,
        );
        true
    }

    /// Ends the task with `status`, unless it ended already.
    pub(super) fn finish(
        &mut self,
        status: TaskStatus,
        result: Option<Value>,
        error: Option<Value>,
        now: u64,
    ) {
        if self.is_terminal() {
            return;
        }
        self.status = status;
        self.result = result;
        self.error = error;
        self.asked.clear();
        // The handler's progress described the run; an ended task says only how it ended.
        self.status_message = None;
        self.updated_ms = now;
    }

    /// The task's base fields, as MCP's `Task`.
    pub(crate) fn task(&self) -> Task {
        Task::new(
            self.task_id.clone(),
            self.status,
            iso8601(self.created_ms),
            iso8601(self.updated_ms),
        )
        .with_ttl_ms(self.ttl_ms)
        .with_poll_interval_ms(self.poll_interval_ms)
    }

    /// The task as `tasks/get` answers it: its questions while `input_required`, its
    /// result once completed, its error once failed.
    pub(super) fn detailed(&self) -> DetailedTask {
        let mut task = self.task();
        if let Some(message) = &self.status_message {
            task = task.with_status_message(message.clone());
        }
        let object = |v: &Option<Value>| match v {
            Some(Value::Object(o)) => o.clone(),
            _ => JsonObject::new(),
        };
        let payload = match self.status {
            TaskStatus::InputRequired => {
                let mut requests = InputRequests::new();
                for (key, asked) in &self.asked {
                    if let Ok(request) = serde_json::from_value(asked.request.clone()) {
                        requests.insert(key.clone(), request);
                    }
                }
                TaskPayload::InputRequired {
                    input_requests: requests,
                }
            }
            TaskStatus::Completed => TaskPayload::Completed {
                result: object(&self.result),
            },
            TaskStatus::Failed => TaskPayload::Failed {
                error: object(&self.error),
            },
            TaskStatus::Cancelled => TaskPayload::Cancelled,
            _ => TaskPayload::Working,
        };
        DetailedTask::new(task, payload)
    }
}

/// `ms` (unix milliseconds) as ISO 8601 in UTC, to the millisecond.
fn iso8601(ms: u64) -> String {
    let ms = i64::try_from(ms).unwrap_or(i64::MAX);
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// Now, unix milliseconds.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Where tasks are kept: every replica of a server that shares one answers for every
/// task in it. Each method is one atomic step on one record; the rules (leases,
/// questions, expiry) are the server's, over these four.
///
/// ```
/// use neuralis_core::dispatch::BoxFuture;
/// use neuralis_mcp::{MemoryTaskStore, TaskRecord, TaskStore, TaskStoreError};
///
/// /// A store that counts the tasks created, keeping them in memory.
/// #[derive(Default)]
/// struct Counting { inner: MemoryTaskStore, created: std::sync::atomic::AtomicUsize }
///
/// impl TaskStore for Counting {
///     fn insert<'a>(&'a self, record: &'a TaskRecord) -> BoxFuture<'a, Result<(), TaskStoreError>> {
///         self.created.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
///         self.inner.insert(record)
///     }
///     fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
///         self.inner.load(id)
///     }
///     fn modify<'a>(
///         &'a self,
///         id: &'a str,
///         change: &'a (dyn Fn(&mut TaskRecord) + Send + Sync),
///     ) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
///         self.inner.modify(id, change)
///     }
///     fn sweep(&self, now_ms: u64) -> BoxFuture<'_, Result<u64, TaskStoreError>> {
///         self.inner.sweep(now_ms)
///     }
/// }
/// # let _ = Counting::default();
/// ```
pub trait TaskStore: Send + Sync + 'static {
    /// Keeps a new task. Its id is fresh (128 random bits).
    fn insert<'a>(&'a self, record: &'a TaskRecord) -> BoxFuture<'a, Result<(), TaskStoreError>>;

    /// The task `id`, if the store has it.
    fn load<'a>(&'a self, id: &'a str)
    -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>>;

    /// Applies `change` to the task `id` and keeps the result, as one atomic step (no
    /// other change to the task in between, from any replica); the record after, or
    /// `None` when the store has no such task. A store may call `change` more than once
    /// (a retried transaction); only the last call's record is kept.
    fn modify<'a>(
        &'a self,
        id: &'a str,
        change: &'a (dyn Fn(&mut TaskRecord) + Send + Sync),
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>>;

    /// Drops every task that expired before `now_ms` ([`TaskRecord::expires_ms`]); how
    /// many.
    fn sweep(&self, now_ms: u64) -> BoxFuture<'_, Result<u64, TaskStoreError>>;
}

/// The default [`TaskStore`]: a map in this process. Tasks are not shared by replicas
/// and are gone when the process ends: a server behind a load balancer takes one over a
/// database both reach.
#[derive(Debug, Default)]
pub struct MemoryTaskStore {
    tasks: Mutex<HashMap<String, TaskRecord>>,
}

impl MemoryTaskStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, TaskRecord>> {
        self.tasks.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many tasks it holds (expired ones too, until swept).
    #[must_use]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether it holds none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }
}

impl TaskStore for MemoryTaskStore {
    fn insert<'a>(&'a self, record: &'a TaskRecord) -> BoxFuture<'a, Result<(), TaskStoreError>> {
        self.lock().insert(record.task_id.clone(), record.clone());
        Box::pin(std::future::ready(Ok(())))
    }

    fn load<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        let found = self.lock().get(id).cloned();
        Box::pin(std::future::ready(Ok(found)))
    }

    fn modify<'a>(
        &'a self,
        id: &'a str,
        change: &'a (dyn Fn(&mut TaskRecord) + Send + Sync),
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        let after = self.lock().get_mut(id).map(|record| {
            change(record);
            record.clone()
        });
        Box::pin(std::future::ready(Ok(after)))
    }

    fn sweep(&self, now_ms: u64) -> BoxFuture<'_, Result<u64, TaskStoreError>> {
        let mut tasks = self.lock();
        let before = tasks.len();
        tasks.retain(|_, r| r.expires_ms() >= now_ms);
        let swept = u64::try_from(before - tasks.len()).unwrap_or(u64::MAX);
        Box::pin(std::future::ready(Ok(swept)))
    }
}
