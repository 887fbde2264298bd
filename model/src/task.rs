//! How a tool runs as a task (MCP's tasks extension, `io.modelcontextprotocol/tasks`): the
//! [`TaskMode`] a `#[tool(task = "...", task_start = "...")]` declares. The attribute's
//! parser reads its words here; `neuralis-core`'s dispatch re-exports the types, a
//! handler reports its mode (`Handler::task`) and the host reads it.
//!
//! The pipeline knows nothing of tasks beyond one point: where a call of a tool that may
//! run as a task becomes one. For a tool whose task starts with the call (the default),
//! that is after the approval gate and before the handler; for one whose task starts in
//! the handler ([`TaskStart::Handler`]), it is the handler's `ToolContext::begin_task`.
//! There the pipeline awaits `Asker::begin_task`: a host that makes tasks (the MCP
//! server, for a client that opted in) ends the call's request there and runs the call in
//! the background; every other asker returns at once and the call goes on as any call.
//!
//! ```
//! use neuralis_model::task::{TaskMode, TaskStart, TaskSupport};
//!
//! let mode: TaskMode = "required".parse().expect("a task support");
//! assert_eq!(mode.support, TaskSupport::Required);
//! assert_eq!(mode.start, TaskStart::Call);
//! assert!(TaskMode::default().support == TaskSupport::Forbidden);
//! assert!("sometimes".parse::<TaskSupport>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

/// Whether a tool's calls may, must or must not run as tasks (MCP: the tool's task
/// support).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum TaskSupport {
    /// Every call runs within its request (the default).
    #[default]
    Forbidden,
    /// A call runs as a task when the client opted in to the tasks extension, within
    /// its request otherwise.
    Optional,
    /// A call runs only as a task: a client that did not opt in is refused (MCP
    /// `-32021`, naming the extension), before the gate or the handler.
    Required,
}

impl TaskSupport {
    /// The words `#[tool(task = "...")]` takes, in order.
    pub const NAMES: [&'static str; 3] = ["forbidden", "optional", "required"];

    /// The support's name, as `#[tool(task = "...")]` spells it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }

    /// Whether a call may run as a task.
    #[must_use]
    pub fn allows_task(self) -> bool {
        !matches!(self, TaskSupport::Forbidden)
    }
}

impl fmt::Display for TaskSupport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for TaskSupport {
    type Err = String;

    /// `forbidden`, `optional` or `required`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "forbidden" => Ok(TaskSupport::Forbidden),
            "optional" => Ok(TaskSupport::Optional),
            "required" => Ok(TaskSupport::Required),
            other => Err(format!(
                "`{other}` is no task support: give `optional`, `required` or `forbidden`"
            )),
        }
    }
}

/// Where a call that runs as a task becomes one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum TaskStart {
    /// When the call starts: after the approval gate, before the handler. Every question
    /// the handler asks is the task's (`input_required`, answered by `tasks/update`).
    #[default]
    Call,
    /// When the handler calls `ToolContext::begin_task`: what it asks before
    /// is asked within the call's request (MCP 2026-07-28: `InputRequiredResult` rounds),
    /// what it asks after is the task's. A handler that never calls it answers within the
    /// request.
    Handler,
}

impl TaskStart {
    /// The words `#[tool(task_start = "...")]` takes, in order.
    pub const NAMES: [&'static str; 2] = ["call", "handler"];

    /// The start's name, as `#[tool(task_start = "...")]` spells it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStart::Call => "call",
            TaskStart::Handler => "handler",
        }
    }
}

impl FromStr for TaskStart {
    type Err = String;

    /// `call` or `handler`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "call" => Ok(TaskStart::Call),
            "handler" => Ok(TaskStart::Handler),
            other => Err(format!(
                "`{other}` is no task start: give `call` or `handler`"
            )),
        }
    }
}

/// How a tool runs as a task: `#[tool(task = "...", task_start = "...")]`. The toolkit's,
/// never in the tool's file or its `x-neuralis` block (the platform's contract has no
/// such key); the MCP server reads it from the package.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct TaskMode {
    /// Whether its calls may, must or must not run as tasks.
    pub support: TaskSupport,
    /// Where a call that runs as a task becomes one.
    pub start: TaskStart,
}

impl TaskMode {
    /// Calls never run as tasks.
    pub const FORBIDDEN: TaskMode = TaskMode {
        support: TaskSupport::Forbidden,
        start: TaskStart::Call,
    };

    /// A mode with `support`, its task starting with the call.
    #[must_use]
    pub const fn new(support: TaskSupport) -> Self {
        Self {
            support,
            start: TaskStart::Call,
        }
    }

    /// This mode with its task starting at `start`.
    #[must_use]
    pub const fn starting(mut self, start: TaskStart) -> Self {
        self.start = start;
        self
    }
}

impl FromStr for TaskMode {
    type Err = String;

    /// A [`TaskSupport`], its task starting with the call.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(TaskMode::new)
    }
}
