//! A tool that runs as a task (`#[tool(task = "...")]`), run to its end without a client:
//! [`TestClient::task`] starts it, [`TestTask::run`] drives it until it ends or waits for
//! an answer, [`TestTask::answer`] answers its questions (as `tasks/update` does) and
//! [`TestTask::cancel`] stops it (as `tasks/cancel` does).

use std::collections::BTreeMap;
use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Poll, Waker};

use serde_json::{Map, Value};

use neuralis_core::dispatch::{
    AbortController, Answer, ApprovalPolicy, AskError, AskReason, Asker, BoxFuture, CallOptions,
    Capability, Elicited, Question, block_on,
};
use neuralis_core::result::ToolResult;

use super::{Heard, TestClient, TestResult, lock};

/// Where a [`TestTask`] stands, as `tasks/get` would say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TaskState {
    /// It runs.
    Working,
    /// It waits for answers to its [`questions`](TestTask::questions).
    InputRequired,
    /// It ended with a result (its tool's own error too: `isError`).
    Completed,
    /// It ended without one: its handler panicked.
    Failed,
    /// It was cancelled.
    Cancelled,
}

impl TaskState {
    /// Whether it ended.
    #[must_use]
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskState::Completed | TaskState::Failed | TaskState::Cancelled
        )
    }
}

/// The questions of a task's run: those it waits on, and the answers given.
#[derive(Default)]
struct Questions {
    open: BTreeMap<String, Question>,
    answers: BTreeMap<String, Answer>,
    wakers: Vec<Waker>,
}

/// The asker of a task's run: the gate's confirm as the client answers it
/// ([`TestClient::approving`]), before the task; every other question waits for
/// [`TestTask::answer`].
struct TaskAsker {
    approving: Option<bool>,
    /// What the client did not declare ([`TestClient::without`]).
    missing: Vec<Capability>,
    questions: Arc<Mutex<Questions>>,
    approval: Mutex<Option<AskReason>>,
}

impl Asker for TaskAsker {
    fn ask<'a>(
        &'a self,
        key: &'a str,
        question: Question,
    ) -> BoxFuture<'a, Result<Answer, AskError>> {
        if let Question::Approve(request) = &question {
            *lock(&self.approval) = Some(request.reason.clone());
        }
        if let Err(unsupported) = question.supported_by(|c| !self.missing.contains(&c)) {
            return Box::pin(std::future::ready(Err(unsupported)));
        }
        if let Question::Approve(_) = &question {
            let answer = match self.approving {
                Some(true) => Ok(Answer::Elicit(Elicited::Accept(Map::new()))),
                Some(false) => Ok(Answer::Elicit(Elicited::Decline)),
                None => Err(AskError::Unsupported(Capability::Elicitation)),
            };
            return Box::pin(std::future::ready(answer));
        }
        {
            let mut questions = lock(&self.questions);
            if !questions.answers.contains_key(key) {
                questions.open.insert(key.to_owned(), question);
            }
        }
        Box::pin(poll_fn(move |cx| {
            let mut questions = lock(&self.questions);
            if let Some(answer) = questions.answers.get(key) {
                let answer = answer.clone();
                questions.open.remove(key);
                return Poll::Ready(Ok(answer));
            }
            questions.wakers.push(cx.waker().clone());
            Poll::Pending
        }))
    }

    /// The test answers whatever the task asks, but for what the client did not declare.
    fn supports(&self, capability: Capability) -> bool {
        !self.missing.contains(&capability)
    }
}

/// A call of a tool that runs as a task, in the test's process: see [`TestClient::task`].
#[must_use]
pub struct TestTask {
    tool: String,
    args: Value,
    run: Option<Pin<Box<dyn Future<Output = ToolResult> + Send>>>,
    asker: Arc<TaskAsker>,
    heard: Option<Heard>,
    controller: AbortController,
    cancelled: bool,
    ended: Option<TestResult>,
}

impl std::fmt::Debug for TestTask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestTask")
            .field("tool", &self.tool)
            .field("state", &self.state())
            .finish_non_exhaustive()
    }
}

impl TestClient {
    /// Starts a call of the tool `name` as a task, as an MCP client that opted in to the
    /// tasks extension would get it: the approval gate first (answered as
    /// [`approving`](Self::approving) says), then the handler, whose questions wait for
    /// [`TestTask::answer`]. Nothing runs until [`TestTask::run`].
    ///
    /// ```
    /// use neuralis::testing::{TaskState, TestClient, handlers};
    /// use neuralis::{ToolContext, ToolInput, tool};
    /// use serde_json::json;
    ///
    /// #[derive(ToolInput, serde::Deserialize)]
    /// pub struct Export {
    ///     /// The table.
    ///     pub table: String,
    /// }
    ///
    /// /// Export a table, once the person agrees.
    /// #[tool(annotations(read_only, category = "read"), task = "optional")]
    /// pub async fn export(input: Export, cx: &ToolContext) -> String {
    ///     cx.progress(0.0, None, Some("waiting for a yes"));
    ///     match cx.confirm("go", format!("Export {}?", input.table)).await {
    ///         Ok(true) => format!("exported {}", input.table),
    ///         _ => "not exported".to_owned(),
    ///     }
    /// }
    ///
    /// let client = TestClient::new(handlers!(export).build().expect("a valid package"));
    /// let mut task = client.task("export", json!({"table": "users"}));
    /// assert_eq!(task.run(), TaskState::InputRequired);
    /// assert_eq!(task.questions(), ["go"]);
    /// assert_eq!(task.status_message(), Some("waiting for a yes".to_owned()));
    /// assert!(task.accept("go", json!({})));
    /// assert_eq!(task.run(), TaskState::Completed);
    /// assert_eq!(task.result().expect("ended").text(), "exported users");
    /// ```
    ///
    /// # Panics
    ///
    /// When the tool's calls never run as tasks (no `task = "optional"` or `"required"`):
    /// the test is wrong, call it with [`call`](Self::call).
    pub fn task(&self, name: &str, args: Value) -> TestTask {
        let mode = self.package().task_mode(name);
        assert!(
            mode.is_some_and(|m| m.support.allows_task()),
            "`{name}` does not run as a task: give it `#[tool(task = \"optional\")]` (or \"required\"), or test it with `TestClient::call`"
        );
        let asker = Arc::new(TaskAsker {
            approving: self.approving,
            missing: self.missing.clone(),
            questions: Arc::default(),
            approval: Mutex::new(None),
        });
        let heard = Heard::default();
        let controller = AbortController::new();
        let options = CallOptions::new()
            .approval(ApprovalPolicy::Ask)
            .abort(controller.signal())
            .shared_asker(Arc::clone(&asker) as Arc<dyn Asker>)
            .progress(heard.progress_sink())
            .log(heard.log_sink());
        let package = Arc::clone(&self.package);
        let session = self.session();
        let (tool, call_args) = (name.to_owned(), args.clone());
        let run = Box::pin(async move {
            package
                .dispatch_with(&tool, call_args, &session, options)
                .await
        });
        TestTask {
            tool: name.to_owned(),
            args,
            run: Some(run),
            asker,
            heard: Some(heard),
            controller,
            cancelled: false,
            ended: None,
        }
    }
}

impl TestTask {
    /// Runs the task on the test's thread (no runtime) until it ends or waits for an
    /// answer to each of its open questions; where it stands then. It waits for whatever
    /// else the handler waits for: a handler that waits on a runtime's timers or I/O needs
    /// [`run_async`](Self::run_async) from that runtime, and one that waits for its abort
    /// signal is driven with [`step`](Self::step) until the test cancels it.
    pub fn run(&mut self) -> TaskState {
        block_on(self.run_async()).unwrap_or_else(|| self.state())
    }

    /// [`run`](Self::run), awaited on the caller's runtime.
    pub async fn run_async(&mut self) -> TaskState {
        poll_fn(|cx| {
            let Some(run) = self.run.as_mut() else {
                return Poll::Ready(());
            };
            if let Poll::Ready(result) = run.as_mut().poll(cx) {
                self.run = None;
                self.end(result);
                return Poll::Ready(());
            }
            if lock(&self.asker.questions).open.is_empty() {
                Poll::Pending
            } else {
                Poll::Ready(())
            }
        })
        .await;
        self.state()
    }

    /// Polls the task once, without waiting for anything: where it stands then. For a
    /// handler that waits for something only the test does next (its abort signal:
    /// [`cancel`](Self::cancel)), which [`run`](Self::run) would wait for forever.
    pub fn step(&mut self) -> TaskState {
        if let Some(run) = self.run.as_mut() {
            let mut cx = std::task::Context::from_waker(Waker::noop());
            if let Poll::Ready(result) = run.as_mut().poll(&mut cx) {
                self.run = None;
                self.end(result);
            }
        }
        self.state()
    }

    fn end(&mut self, result: ToolResult) {
        let (progress, logs) = self.heard.take().map(Heard::take).unwrap_or_default();
        self.ended = Some(TestResult {
            tool: self.tool.clone(),
            args: self.args.clone(),
            result,
            asked: lock(&self.asker.approval).take(),
            progress,
            logs,
        });
    }

    /// Where the task stands: ended (how), waiting for answers, or running.
    #[must_use]
    pub fn state(&self) -> TaskState {
        if self.cancelled {
            return TaskState::Cancelled;
        }
        match &self.ended {
            Some(ended) => {
                let meta = ended.result.neuralis_meta();
                if meta.is_some_and(|m| m.contains_key("panic")) {
                    TaskState::Failed
                } else if meta.is_some_and(|m| m.get("cancelled") == Some(&Value::Bool(true))) {
                    TaskState::Cancelled
                } else {
                    TaskState::Completed
                }
            }
            None if lock(&self.asker.questions).open.is_empty() => TaskState::Working,
            None => TaskState::InputRequired,
        }
    }

    /// The keys of the questions the task waits on, in order.
    #[must_use]
    pub fn questions(&self) -> Vec<String> {
        lock(&self.asker.questions).open.keys().cloned().collect()
    }

    /// The open question under `key`.
    #[must_use]
    pub fn question(&self, key: &str) -> Option<Question> {
        lock(&self.asker.questions).open.get(key).cloned()
    }

    /// Answers the open question `key` (as `tasks/update` does); whether the task asked
    /// it. The task goes on at the next [`run`](Self::run).
    pub fn answer(&mut self, key: &str, answer: Answer) -> bool {
        let mut questions = lock(&self.asker.questions);
        if !questions.open.contains_key(key) {
            return false;
        }
        questions.answers.insert(key.to_owned(), answer);
        for waker in questions.wakers.drain(..) {
            waker.wake();
        }
        true
    }

    /// Accepts the form `key` with `content` (an object; anything else is `{}`).
    pub fn accept(&mut self, key: &str, content: Value) -> bool {
        let content = match content {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        self.answer(key, Answer::Elicit(Elicited::Accept(content)))
    }

    /// Cancels the task (as `tasks/cancel` does): it is `cancelled` from now on; a
    /// cancellable handler's abort signal fires, and the next [`run`](Self::run) ends it.
    pub fn cancel(&mut self) {
        self.cancelled = true;
        self.controller.abort();
        for waker in lock(&self.asker.questions).wakers.drain(..) {
            waker.wake();
        }
    }

    /// The handler's last progress message: the task's `statusMessage` while it runs, kept
    /// here after it ended (a server drops it from an ended task).
    #[must_use]
    pub fn status_message(&self) -> Option<String> {
        let last = |reports: &[neuralis_core::dispatch::Progress]| {
            reports.iter().rev().find_map(|p| p.message.clone())
        };
        match (&self.heard, &self.ended) {
            (Some(heard), _) => last(&lock(&heard.progress)),
            (None, Some(ended)) => last(&ended.progress),
            (None, None) => None,
        }
    }

    /// What the task ended with, once it ended (a cancelled task's too, once its handler
    /// returned).
    #[must_use]
    pub fn result(&self) -> Option<&TestResult> {
        self.ended.as_ref()
    }
}
