//! MCP's tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663): a call of a tool
//! declared `#[tool(task = "optional" | "required")]`, from a client that opted in, is
//! answered with a task (`resultType: "task"`) and runs in the background; the client polls
//! `tasks/get`, answers the handler's questions with `tasks/update` and stops it with
//! `tasks/cancel`.
//!
//! What a task is lives in a [`TaskStore`], one [`TaskRecord`] per task; the run itself
//! lives in the replica that created it. Every request about a task reads and changes the
//! record, so any replica sharing the store answers for a task another one runs:
//!
//! - the run renews its **lease** in the record while it runs; a task whose lease ran out
//!   (its replica died) reads as `failed`, never `working` forever;
//! - the handler's **questions** are the record's open `asked` requests (the task is
//!   `input_required` while any is open); `tasks/update` moves an answer into `answered`,
//!   and the run, which polls its record (and is woken at once when the update reaches
//!   its own replica), reads it there;
//! - `tasks/cancel` marks the record `cancelled`; the run sees it at its next poll and
//!   fires the call's abort signal;
//! - a record is kept until `ttlMs` after its last change, then swept.
//!
//! [`MemoryTaskStore`] is the default: one process, gone on restart. Replicas share a
//! store of their own over a database (`examples/incidents` has one on PostgreSQL).

mod store;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use neuralis_core::dispatch::{Answer, AskError, Asker, BoxFuture, Capability, Question};
use rmcp::model::{
    ClientCapabilities, DetailedTask, ErrorCode, InputRequests, JsonObject, Task, TaskPayload,
    TaskStatus,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::Notify;

use crate::questions::{declared, input_request, read_answer, request_json};

pub(crate) use store::now_ms;
pub use store::{Answered, Asked, MemoryTaskStore, TaskRecord, TaskStore, TaskStoreError};

/// How long tasks live and how their runs are watched ([`McpServer::with_task_timing`]).
///
/// [`McpServer::with_task_timing`]: crate::McpServer::with_task_timing
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TaskTiming {
    /// How long a task is kept after its last change (`ttlMs`): 1 hour.
    pub ttl: Duration,
    /// How often clients should poll (`pollIntervalMs`), and how often a run reads its
    /// record for answers and cancellation: 1 second.
    pub poll: Duration,
    /// How long a run's hold on its task lasts without renewal (renewed every third of
    /// it): 30 seconds. A task whose replica died fails this long after its last renewal.
    pub lease: Duration,
}

impl Default for TaskTiming {
    fn default() -> Self {
        Self {
            ttl: Duration::from_secs(3600),
            poll: Duration::from_secs(1),
            lease: Duration::from_secs(30),
        }
    }
}

impl TaskTiming {
    /// The default timing with `ttl`.
    #[must_use]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// The default timing with `poll`.
    #[must_use]
    pub fn with_poll(mut self, poll: Duration) -> Self {
        self.poll = poll;
        self
    }

    /// The default timing with `lease`.
    #[must_use]
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)
}

/// A server's tasks: the store, the timing, and the runs of this process (woken when an
/// answer for them arrives here).
pub(crate) struct Tasks {
    pub(crate) store: Arc<dyn TaskStore>,
    pub(crate) timing: TaskTiming,
    running: Mutex<HashMap<String, Arc<Notify>>>,
    last_sweep: AtomicU64,
}

impl std::fmt::Debug for Tasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tasks")
            .field("timing", &self.timing)
            .finish_non_exhaustive()
    }
}

impl Default for Tasks {
    fn default() -> Self {
        Self::new(Arc::new(MemoryTaskStore::new()), TaskTiming::default())
    }
}

/// The error of a store that failed, as the client reads it.
fn store_failed(e: &TaskStoreError) -> rmcp::ErrorData {
    tracing::warn!(target: "neuralis_mcp::task", error = %e, "the task store failed");
    rmcp::ErrorData::internal_error(format!("the task store failed: {e}"), None)
}

/// What a request about a task the caller cannot see gets: `-32602`, as an unknown id.
fn unknown(id: &str) -> rmcp::ErrorData {
    rmcp::ErrorData::invalid_params(
        format!("no task `{id}`: unknown, expired, or not yours"),
        None,
    )
}

impl Tasks {
    pub(crate) fn new(store: Arc<dyn TaskStore>, timing: TaskTiming) -> Self {
        Self {
            store,
            timing,
            running: Mutex::default(),
            last_sweep: AtomicU64::new(0),
        }
    }

    /// A new task of `tool` for `owner`, with the answers given before it began, kept
    /// before the reply names it (a `tasks/get` right after resolves).
    pub(crate) async fn create(
        &self,
        owner: &str,
        tool: &str,
        answered: BTreeMap<String, Answered>,
    ) -> Result<TaskRecord, rmcp::ErrorData> {
        let now = now_ms();
        self.sweep(now).await;
        let mut id = [0u8; 16];
        crate::rounds::random_bytes(&mut id);
        let record = TaskRecord {
            task_id: crate::rounds::hex(&id),
            owner: owner.to_owned(),
            tool: tool.to_owned(),
            status: TaskStatus::Working,
            status_message: None,
            created_ms: now,
            updated_ms: now,
            ttl_ms: millis(self.timing.ttl),
            poll_interval_ms: millis(self.timing.poll),
            lease_ms: now.saturating_add(millis(self.timing.lease)),
            asked: BTreeMap::new(),
            answered,
            result: None,
            error: None,
        };
        self.store
            .insert(&record)
            .await
            .map_err(|e| store_failed(&e))?;
        Ok(record)
    }

    /// Sweeps expired tasks, at most once a minute.
    async fn sweep(&self, now: u64) {
        let last = self.last_sweep.load(Ordering::Relaxed);
        if now.saturating_sub(last) < 60_000
            || self
                .last_sweep
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        if let Err(e) = self.store.sweep(now).await {
            tracing::warn!(target: "neuralis_mcp::task", error = %e, "sweeping expired tasks failed");
        }
    }

    /// The task `id` as `owner` may see it: unknown, expired and another caller's alike
    /// are `-32602`; one whose lease ran out is marked failed first.
    pub(crate) async fn get(&self, id: &str, owner: &str) -> Result<DetailedTask, rmcp::ErrorData> {
        let record = self.visible(id, owner).await?;
        Ok(record.detailed())
    }

    /// The record of `id`, if `owner` may see it (lease settled).
    async fn visible(&self, id: &str, owner: &str) -> Result<TaskRecord, rmcp::ErrorData> {
        let now = now_ms();
        let record = self
            .store
            .load(id)
            .await
            .map_err(|e| store_failed(&e))?
            .filter(|r| r.owner == owner && r.expires_ms() >= now)
            .ok_or_else(|| unknown(id))?;
        if !record.is_terminal() && record.lease_ms < now {
            let settled = self
                .store
                .modify(id, &|r| {
                    r.settle_lease(now);
                })
                .await
                .map_err(|e| store_failed(&e))?;
            return settled.ok_or_else(|| unknown(id));
        }
        Ok(record)
    }

    /// `tasks/update`: each answer whose key the task asked is taken, the rest ignored;
    /// the task works again once no question is open. A finished task takes nothing.
    pub(crate) async fn update(
        &self,
        id: &str,
        owner: &str,
        responses: &BTreeMap<String, Value>,
    ) -> Result<(), rmcp::ErrorData> {
        self.visible(id, owner).await?;
        let now = now_ms();
        self.store
            .modify(id, &|r| {
                if r.is_terminal() {
                    return;
                }
                for (key, answer) in responses {
                    if let Some(asked) = r.asked.remove(key) {
                        r.answered.insert(
                            key.clone(),
                            Answered {
                                digest: asked.digest,
                                answer: answer.clone(),
                            },
                        );
                    }
                }
                if r.asked.is_empty() && r.status == TaskStatus::InputRequired {
                    r.status = TaskStatus::Working;
                }
                r.updated_ms = now;
            })
            .await
            .map_err(|e| store_failed(&e))?;
        self.wake(id);
        Ok(())
    }

    /// `tasks/cancel`: a task not finished is cancelled (its run sees it at its next
    /// poll, or at once on this replica, and is aborted); a finished one stays as it is.
    pub(crate) async fn cancel(&self, id: &str, owner: &str) -> Result<(), rmcp::ErrorData> {
        self.visible(id, owner).await?;
        let now = now_ms();
        self.store
            .modify(id, &|r| r.finish(TaskStatus::Cancelled, None, None, now))
            .await
            .map_err(|e| store_failed(&e))?;
        self.wake(id);
        Ok(())
    }

    /// Wakes the run of `id` if it runs in this process.
    fn wake(&self, id: &str) {
        if let Some(notify) = self
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
        {
            notify.notify_waiters();
        }
    }

    /// Registers the run of `id` in this process: what wakes it.
    pub(crate) fn register(self: &Arc<Self>, id: &str) -> Running {
        let notify = Arc::new(Notify::new());
        self.running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.to_owned(), Arc::clone(&notify));
        Running {
            tasks: Arc::clone(self),
            id: id.to_owned(),
            notify,
            message: Mutex::default(),
        }
    }

    /// The record of a run's own task (no owner check: the run is the owner's).
    pub(crate) async fn record(&self, id: &str) -> Result<Option<TaskRecord>, TaskStoreError> {
        self.store.load(id).await
    }

    /// Renews the lease of a run's task; the record after.
    pub(crate) async fn renew(&self, id: &str) -> Result<Option<TaskRecord>, TaskStoreError> {
        let until = now_ms().saturating_add(millis(self.timing.lease));
        self.store
            .modify(id, &|r| {
                if !r.is_terminal() {
                    r.lease_ms = until;
                }
            })
            .await
    }

    /// Records the handler's progress message.
    pub(crate) async fn progress(&self, id: &str, message: String) {
        let now = now_ms();
        let result = self
            .store
            .modify(id, &|r| {
                if !r.is_terminal() {
                    r.status_message = Some(message.clone());
                    r.updated_ms = now;
                }
            })
            .await;
        if let Err(e) = result {
            tracing::warn!(target: "neuralis_mcp::task", error = %e, "a task's progress was not recorded");
        }
    }

    /// Ends the task of a run: `completed` with `result`, or `failed` with `error`, or
    /// `cancelled`; a task cancelled (or failed by its lease) meanwhile stays so.
    pub(crate) async fn finish(
        &self,
        id: &str,
        status: TaskStatus,
        result: Option<Value>,
        error: Option<Value>,
    ) {
        let now = now_ms();
        let done = self
            .store
            .modify(id, &|r| {
                r.finish(status, result.clone(), error.clone(), now)
            })
            .await;
        if let Err(e) = done {
            tracing::warn!(target: "neuralis_mcp::task", error = %e, task = id, "a task's end was not recorded: it fails when its lease runs out");
        }
    }

    /// Opens the question `key` of a run's task (no-op once finished), with the handler's
    /// progress `message` reported before it, in the same change.
    async fn ask(
        &self,
        id: &str,
        key: &str,
        asked: &Asked,
        message: Option<String>,
    ) -> Result<(), TaskStoreError> {
        let now = now_ms();
        self.store
            .modify(id, &|r| {
                if r.is_terminal() || r.asked.contains_key(key) {
                    return;
                }
                if let Some(message) = &message {
                    r.status_message = Some(message.clone());
                }
                r.asked.insert(key.to_owned(), asked.clone());
                r.status = TaskStatus::InputRequired;
                r.updated_ms = now;
            })
            .await
            .map(|_| ())
    }
}

/// A run registered in this process; unregistered when dropped.
pub(crate) struct Running {
    tasks: Arc<Tasks>,
    pub(crate) id: String,
    notify: Arc<Notify>,
    /// The handler's last progress message, which a question it opens records with it:
    /// what it reported before it asked is on the task when the task asks.
    message: Mutex<Option<String>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.tasks
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.id);
    }
}

/// The asker of a task's run: a question answered already (before the task began, or by
/// `tasks/update`) is answered from the record; any other is opened in it, and the run
/// waits until the client answers it.
pub(crate) struct TaskAsker {
    pub(crate) run: Arc<Running>,
    pub(crate) capabilities: Option<ClientCapabilities>,
}

impl Asker for TaskAsker {
    fn ask<'a>(
        &'a self,
        key: &'a str,
        question: Question,
    ) -> BoxFuture<'a, Result<Answer, AskError>> {
        Box::pin(async move {
            question.supported_by(|c| self.supports(c))?;
            let request = input_request(&question).map(|_| request_json(&question))?;
            let digest = crate::rounds::digest(&question);
            let tasks = &self.run.tasks;
            let id = &self.run.id;
            let mut opened = false;
            loop {
                // Listening before reading, so that an answer arriving in between wakes us.
                let woken = self.run.notify.notified();
                tokio::pin!(woken);
                woken.as_mut().enable();
                let record = tasks
                    .record(id)
                    .await
                    .map_err(|e| AskError::Failed(format!("the task store failed: {e}")))?
                    .ok_or_else(|| AskError::Failed("the task is gone".to_owned()))?;
                if let Some(answered) = record.answered.get(key)
                    && answered.digest == digest
                {
                    return read_answer(&question, &answered.answer).map_err(AskError::Failed);
                }
                if record.is_terminal() {
                    return Err(AskError::Failed(format!(
                        "the task ended ({}) before `{key}` was answered",
                        status_name(record.status)
                    )));
                }
                if !opened && !record.asked.contains_key(key) {
                    let asked = Asked {
                        digest: digest.clone(),
                        request: request.clone(),
                    };
                    let message = self
                        .run
                        .message
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .clone();
                    tasks
                        .ask(id, key, &asked, message)
                        .await
                        .map_err(|e| AskError::Failed(format!("the task store failed: {e}")))?;
                    opened = true;
                    continue;
                }
                opened = true;
                tokio::select! {
                    () = woken => {}
                    () = tokio::time::sleep(tasks.timing.poll) => {}
                }
            }
        })
    }

    fn supports(&self, capability: Capability) -> bool {
        declared(self.capabilities.as_ref(), capability)
    }
}

/// A status as the wire spells it.
pub(crate) fn status_name(status: TaskStatus) -> &'static str {
    match status {
        TaskStatus::Working => "working",
        TaskStatus::InputRequired => "input_required",
        TaskStatus::Completed => "completed",
        TaskStatus::Failed => "failed",
        TaskStatus::Cancelled => "cancelled",
        _ => "unknown",
    }
}

/// The asker of a call's own request when the call may become a task: it asks through
/// the era's asker and keeps each answer (so the task's run is answered the same), and
/// at the task's start ([`Asker::begin_task`]) it ends the request.
pub(crate) struct Foreground {
    pub(crate) inner: Arc<dyn Asker>,
    pub(crate) answered: Mutex<BTreeMap<String, Answered>>,
    /// Notified when the call reaches the start of its task.
    pub(crate) begun: Notify,
}

impl Foreground {
    pub(crate) fn new(inner: Arc<dyn Asker>) -> Self {
        Self {
            inner,
            answered: Mutex::default(),
            begun: Notify::new(),
        }
    }

    /// The answers given so far.
    pub(crate) fn answered(&self) -> BTreeMap<String, Answered> {
        self.answered
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Asker for Foreground {
    fn ask<'a>(
        &'a self,
        key: &'a str,
        question: Question,
    ) -> BoxFuture<'a, Result<Answer, AskError>> {
        Box::pin(async move {
            let digest = crate::rounds::digest(&question);
            let answer = self.inner.ask(key, question).await?;
            self.answered
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(
                    key.to_owned(),
                    Answered {
                        digest,
                        answer: crate::questions::answer_json(&answer),
                    },
                );
            Ok(answer)
        })
    }

    fn supports(&self, capability: Capability) -> bool {
        self.inner.supports(capability)
    }

    fn begin_task(&self) -> BoxFuture<'_, ()> {
        self.begun.notify_one();
        // The request ends here: the server answers it with the task and drops this run.
        Box::pin(std::future::pending())
    }
}

/// What a task's run needs, taken from the server that created it.
pub(crate) struct Run {
    pub(crate) package: Arc<neuralis_core::dispatch::Package>,
    pub(crate) tasks: Arc<Tasks>,
    pub(crate) session: neuralis_core::dispatch::SessionContext,
    pub(crate) request: rmcp::model::CallToolRequestParams,
    pub(crate) capabilities: Option<ClientCapabilities>,
}

impl Run {
    /// Runs the call of `record`'s task to its end in this process, keeping the task's
    /// record as it goes: its lease renewed, its progress message, its questions, its
    /// cancellation seen (the call's abort fired), its result or error at the end.
    pub(crate) async fn run(self, id: String) {
        use neuralis_core::dispatch::{AbortController, ApprovalPolicy, CallOptions, ProgressSink};
        let Run {
            package,
            tasks,
            session,
            request,
            capabilities,
        } = self;
        let running = Arc::new(tasks.register(&id));
        let asker = Arc::new(TaskAsker {
            run: Arc::clone(&running),
            capabilities,
        });
        let controller = AbortController::new();
        let (tx, mut messages) = tokio::sync::mpsc::unbounded_channel::<String>();
        let reported = Arc::clone(&running);
        let sink = ProgressSink::new(move |report| {
            if let Some(message) = report.message {
                *reported
                    .message
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner) = Some(message.clone());
                let _ = tx.send(message);
            }
        });
        // The gate ran in the call's own request, before the task was created.
        let options = CallOptions::new()
            .abort(controller.signal())
            .approval(ApprovalPolicy::Trust)
            .shared_asker(asker)
            .progress(sink);
        let args = request.arguments.map_or(Value::Null, Value::Object);
        let call = package.dispatch_with(&request.name, args, &session, options);
        tokio::pin!(call);
        // Often enough to see a cancel within a poll and renew the lease thrice in it.
        let renew_every = tasks.timing.lease / 3;
        let mut tick = tokio::time::interval(
            tasks
                .timing
                .poll
                .min(renew_every)
                .max(Duration::from_millis(10)),
        );
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut renewed = tokio::time::Instant::now();
        let result = loop {
            tokio::select! {
                biased;
                result = &mut call => break result,
                Some(message) = messages.recv() => tasks.progress(&id, message).await,
                _ = tick.tick() => {
                    let record = if renewed.elapsed() >= renew_every {
                        renewed = tokio::time::Instant::now();
                        tasks.renew(&id).await
                    } else {
                        tasks.record(&id).await
                    };
                    match record {
                        // Cancelled (or swept): a cancellable handler stops; another one
                        // runs on, and its end is not kept.
                        Ok(Some(r)) if r.is_terminal() => controller.abort(),
                        Ok(None) => controller.abort(),
                        Ok(Some(_)) => {}
                        Err(e) => tracing::warn!(target: "neuralis_mcp::task", error = %e, task = %id, "a task's record could not be read"),
                    }
                }
            }
        };
        while let Ok(message) = messages.try_recv() {
            tasks.progress(&id, message).await;
        }
        let meta = result.neuralis_meta();
        if let Some(panic) = meta.and_then(|m| m.get("panic")) {
            let message = format!(
                "the tool's handler panicked: {}",
                panic.as_str().unwrap_or("no message")
            );
            let error = json!({"code": ErrorCode::INTERNAL_ERROR.0, "message": message});
            tasks
                .finish(&id, TaskStatus::Failed, None, Some(error))
                .await;
        } else if meta.is_some_and(|m| m.get("cancelled") == Some(&Value::Bool(true))) {
            tasks.finish(&id, TaskStatus::Cancelled, None, None).await;
        } else {
            let wire = crate::wire::call_tool_result(result);
            match serde_json::to_value(wire) {
                Ok(result) => {
                    tasks
                        .finish(&id, TaskStatus::Completed, Some(result), None)
                        .await;
                }
                Err(e) => {
                    let error = json!({"code": ErrorCode::INTERNAL_ERROR.0, "message": format!("the result does not write as JSON: {e}")});
                    tasks
                        .finish(&id, TaskStatus::Failed, None, Some(error))
                        .await;
                }
            }
        }
        drop(running);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tasks(lease: Duration) -> Arc<Tasks> {
        Arc::new(Tasks::new(
            Arc::new(MemoryTaskStore::new()),
            TaskTiming::default()
                .with_lease(lease)
                .with_poll(Duration::from_millis(20)),
        ))
    }

    /// A new task of `ada`'s: its id.
    async fn created(tasks: &Tasks) -> String {
        tasks
            .create("ada", "t", BTreeMap::new())
            .await
            .expect("kept")
            .task_id
    }

    fn asked(method: &str) -> Asked {
        Asked {
            digest: "d".into(),
            request: json!({"method": method, "params": {"message": "ok?", "requestedSchema": {"type": "object", "properties": {}}}}),
        }
    }

    #[tokio::test]
    async fn a_task_is_seen_by_its_owner_only_and_reads_as_mcp_says() {
        let tasks = tasks(Duration::from_secs(30));
        let record = tasks
            .create("ada", "export", BTreeMap::new())
            .await
            .expect("kept");
        assert_eq!(record.task_id.len(), 32, "128 bits, hex");
        let task = tasks.get(&record.task_id, "ada").await.expect("hers");
        let wire = serde_json::to_value(rmcp::model::GetTaskResult::new(task)).expect("writes");
        assert_eq!(wire["status"], "working");
        assert_eq!(wire["ttlMs"], 3_600_000);
        assert_eq!(wire["pollIntervalMs"], 20);
        assert!(
            wire["createdAt"]
                .as_str()
                .is_some_and(|t| t.ends_with('Z') && t.contains('T')),
            "{wire}"
        );
        for field in ["result", "error", "inputRequests", "requestState"] {
            assert!(wire.get(field).is_none(), "{field} in {wire}");
        }
        let other = tasks
            .get(&record.task_id, "bob")
            .await
            .expect_err("not his");
        assert_eq!(other.code, ErrorCode::INVALID_PARAMS);
        let unknown = tasks.get("nope", "ada").await.expect_err("no such task");
        assert_eq!(unknown.code, ErrorCode::INVALID_PARAMS);
    }

    #[tokio::test]
    async fn answers_are_taken_one_at_a_time_and_the_task_works_once_none_is_open() {
        let tasks = tasks(Duration::from_secs(30));
        let id = created(&tasks).await;
        tasks
            .ask(
                &id,
                "first",
                &asked("elicitation/create"),
                Some("exporting".into()),
            )
            .await
            .expect("asked");
        tasks
            .ask(&id, "second", &asked("elicitation/create"), None)
            .await
            .expect("asked");
        let read = |tasks: Arc<Tasks>, id: String| async move {
            tasks.store.load(&id).await.expect("reads").expect("there")
        };
        let detailed =
            serde_json::to_value(tasks.get(&id, "ada").await.expect("there")).expect("writes");
        assert_eq!(detailed["status"], "input_required");
        assert_eq!(
            detailed["statusMessage"], "exporting",
            "the progress reported before a question is on the task that asks it"
        );
        assert_eq!(
            detailed["inputRequests"].as_object().map(|m| m.len()),
            Some(2),
            "{detailed}"
        );
        let answer = json!({"action": "accept", "content": {}});
        let partial = BTreeMap::from([
            ("first".to_owned(), answer.clone()),
            ("stray".to_owned(), answer.clone()),
        ]);
        tasks.update(&id, "ada", &partial).await.expect("acked");
        let r = read(Arc::clone(&tasks), id.clone()).await;
        assert_eq!(r.status, TaskStatus::InputRequired);
        assert_eq!(r.asked.keys().collect::<Vec<_>>(), ["second"]);
        assert_eq!(
            r.answered.keys().collect::<Vec<_>>(),
            ["first"],
            "the stray key ignored"
        );
        tasks
            .update(&id, "ada", &BTreeMap::from([("second".to_owned(), answer)]))
            .await
            .expect("acked");
        assert_eq!(
            read(Arc::clone(&tasks), id.clone()).await.status,
            TaskStatus::Working
        );
    }

    #[tokio::test]
    async fn a_task_whose_lease_ran_out_fails_and_a_finished_one_stays() {
        let tasks = tasks(Duration::from_millis(50));
        let id = created(&tasks).await;
        tokio::time::sleep(Duration::from_millis(80)).await;
        let r = serde_json::to_value(tasks.get(&id, "ada").await.expect("there")).expect("writes");
        assert_eq!(r["status"], "failed", "{r}");
        assert!(
            r["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("lease")),
            "{r}"
        );
        assert!(r.get("result").is_none());
        // Cancelling a finished task changes nothing; finishing it again neither.
        tasks.cancel(&id, "ada").await.expect("acked");
        tasks
            .finish(
                &id,
                TaskStatus::Completed,
                Some(json!({"content": []})),
                None,
            )
            .await;
        let again = tasks.store.load(&id).await.expect("reads").expect("there");
        assert_eq!(again.status, TaskStatus::Failed);
    }

    #[tokio::test]
    async fn expired_tasks_are_unknown_and_swept() {
        let store = Arc::new(MemoryTaskStore::new());
        let tasks = Tasks::new(
            Arc::clone(&store) as Arc<dyn TaskStore>,
            TaskTiming::default().with_ttl(Duration::from_millis(30)),
        );
        let id = created(&tasks).await;
        assert!(tasks.get(&id, "ada").await.is_ok(), "within its ttl");
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(tasks.get(&id, "ada").await.is_err(), "past its ttl");
        assert_eq!(store.sweep(now_ms()).await.expect("swept"), 1);
        assert!(store.is_empty());
    }
}
