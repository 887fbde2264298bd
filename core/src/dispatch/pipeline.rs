//! [`Package::dispatch`]: gate, defaults, validation, deserialization, handler, result
//! (see the [module docs](super)).

use std::future::{Future, poll_fn};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::pin;
use std::sync::Arc;
use std::task::Poll;

use serde_json::{Map, Value};

use super::approval::{may_ask, posture};
use super::ask::{NotApproved, form_answer, not_approved_result};
use super::de::Fields;
use super::failed::{ArgumentError, arguments_result, cancelled_result, panic_result};
use super::output::{self, OutputMismatch, mismatch_result};
use super::package::Slot;
use super::validation::Checker;
use super::{
    APPROVAL_KEY, AbortSignal, Approval, ApprovalPolicy, ApprovalRequest, Arguments, AskError,
    Asker, BoxFuture, Call, CallOptions, Elicited, LogSink, Package, ProgressSink, Question,
    SessionContext, TaskStart, ToolContext, block_on,
};
use crate::contract::json;
use crate::dialect::absent_nulls;
use crate::result::{ToolResult, TypedBound, bound_result_owned};

impl Package {
    /// Runs one call through the pipeline (see the [module docs](super)) and returns the
    /// bounded result. Never panics on any `name`, `args` or handler.
    ///
    /// `args` `null` reads as `{}` (clients that send no arguments); `abort` is the run's
    /// signal ([`AbortSignal::never`] when there is none).
    pub async fn dispatch(
        &self,
        name: &str,
        args: Value,
        session: &SessionContext,
        abort: AbortSignal,
    ) -> ToolResult {
        self.dispatch_with(name, args, session, CallOptions::new().abort(abort))
            .await
    }

    /// [`dispatch`](Self::dispatch) with the host's [`CallOptions`]: the abort signal, a
    /// [`ProgressSink`](super::ProgressSink) for the handler's [`ToolContext::progress`]
    /// reports, a [`LogSink`](super::LogSink) for its [`ToolContext::log`] messages, the
    /// [`ApprovalPolicy`] and the [`Asker`](super::Asker) the gate and the handler ask
    /// through (see the [module docs](super), "Approval").
    ///
    /// ```
    /// use neuralis_core::dispatch::{
    ///     Answer, ApprovalPolicy, AskError, Asker, BoxFuture, CallOptions, Elicited, Package,
    ///     Question, SessionContext, block_on, sync_fn,
    /// };
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Purge { key: String, force: Option<bool> }
    /// let tool = br#"{"type":"object","additionalProperties":false,"description":"Purge.",
    ///   "properties":{"key":{"type":"string"},"force":{"type":"boolean"}},"required":["key"],
    ///   "x-neuralis":{"annotations":{"category":"write","destructiveHint":true},"askOnKeys":["force"]}}"#;
    /// let package = Package::builder()
    ///     .tool("purge", &tool[..], sync_fn(|p: Purge| format!("purged {}", p.key)))
    ///     .build()
    ///     .expect("valid");
    /// let session = SessionContext::builder("u").build();
    ///
    /// /// A person who declines everything.
    /// struct No;
    /// impl Asker for No {
    ///     fn ask<'a>(&'a self, _: &'a str, _: Question) -> BoxFuture<'a, Result<Answer, AskError>> {
    ///         Box::pin(async { Ok(Answer::Elicit(Elicited::Decline)) })
    ///     }
    /// }
    /// let ask = || CallOptions::new().approval(ApprovalPolicy::Ask).asker(No);
    /// let args = serde_json::json!({"key": "k", "force": true});
    /// let declined = block_on(package.dispatch_with("purge", args.clone(), &session, ask()))
    ///     .expect("ready");
    /// assert!(declined.is_error);
    /// // No key of `askOnKeys` sent: nobody is asked.
    /// let quiet = block_on(package.dispatch_with("purge", serde_json::json!({"key": "k"}), &session, ask()))
    ///     .expect("ready");
    /// assert_eq!(quiet.for_model()["content"][0]["text"], "purged k");
    /// ```
    pub async fn dispatch_with(
        &self,
        name: &str,
        args: Value,
        session: &SessionContext,
        options: CallOptions,
    ) -> ToolResult {
        let slot = match self.admit(name, session) {
            Ok(slot) => slot,
            Err(refused) => return *refused,
        };
        self.call_slot(slot, args, session, options).await
    }

    /// [`dispatch_with`](Self::dispatch_with) for arguments that arrive as JSON text (a
    /// WASM shim's request, a queue's message).
    ///
    /// After the gate, a handler that reads its input through [`Arguments`] (every
    /// `#[tool]` and [`sync_fn`](super::sync_fn)-built one) gets it straight from the
    /// text, checked against the tool's schema as it is read, with no tree in between
    /// ([`Handler::call_text`](super::Handler::call_text)). When that reading gives up
    /// (arguments that do not pass, a repeated key...), or the call may ask a person
    /// (`askOnKeys`, whose gate reads the keys as sent), the text is parsed into objects
    /// and arrays allocated at their final size, the top-level object at the size of the
    /// schema's root properties (so the defaults fit without growing it), a repeated key
    /// keeping its last value as `serde_json` has it, and the call goes on as
    /// [`dispatch_with`](Self::dispatch_with)'s. Either way the handler gets the same
    /// input and a refusal is the same. Text that is not JSON is the model's `isError`
    /// result, and the handler never runs. Empty text (or only whitespace) and `null`
    /// read as `{}`.
    ///
    /// ```
    /// use neuralis_core::dispatch::{Package, SessionContext, sync_fn};
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Echo { text: String }
    /// let tool = br#"{"type":"object","additionalProperties":false,"description":"Echo.",
    ///   "properties":{"text":{"type":"string"}},"required":["text"],
    ///   "x-neuralis":{"annotations":{"category":"read"}}}"#;
    /// let package = Package::builder()
    ///     .tool("echo", &tool[..], sync_fn(|e: Echo| e.text))
    ///     .build()
    ///     .expect("valid");
    /// let session = SessionContext::builder("u").build();
    /// let r = package.dispatch_text_blocking("echo", r#"{"text": "hi"}"#, &session);
    /// assert_eq!(r.for_model()["content"][0]["text"], "hi");
    /// let r = package.dispatch_text_blocking("echo", r#"{"text": "#, &session);
    /// assert!(r.is_error);
    /// ```
    pub async fn dispatch_text(
        &self,
        name: &str,
        args: &str,
        session: &SessionContext,
        options: CallOptions,
    ) -> ToolResult {
        let slot = match self.admit(name, session) {
            Ok(slot) => slot,
            Err(refused) => return *refused,
        };
        // Read straight into the input, checked on the way; the tree when that gives up.
        let options = match self.text_fields(slot, &options) {
            Some(fields) => match self.run_text(slot, args, fields, session, options).await {
                Ok(result) => return self.settle(slot, result),
                Err(options) => options,
            },
            None => options,
        };
        let args = if args.trim_ascii().is_empty() {
            Value::Null
        } else {
            match json::parse_arguments(args, slot.root_members) {
                Ok(args) => args,
                Err(e) => {
                    let error = ArgumentError {
                        pointer: String::new(),
                        message: e.to_string(),
                    };
                    let refused = arguments_result(&slot.name, "they are not JSON", &[error]);
                    return bound_result_owned(refused, &slot.caps).0;
                }
            }
        };
        self.call_slot(slot, args, session, options).await
    }

    /// [`dispatch_text`](Self::dispatch_text) for sync callers, as
    /// [`dispatch_blocking`](Self::dispatch_blocking) is for [`dispatch`](Self::dispatch).
    pub fn dispatch_text_blocking(
        &self,
        name: &str,
        args: &str,
        session: &SessionContext,
    ) -> ToolResult {
        drive(self.dispatch_text(name, args, session, CallOptions::new()))
    }

    /// The pipeline after the gate: the call, its output checked when the tool declares
    /// one, and bounding.
    async fn call_slot(
        &self,
        slot: &Slot,
        args: Value,
        session: &SessionContext,
        options: CallOptions,
    ) -> ToolResult {
        let result = self.run(slot, args, session, options).await;
        self.settle(slot, result)
    }

    /// A handler's result as it leaves: its output checked when the tool declares one,
    /// and bounded.
    fn settle(&self, slot: &Slot, result: ToolResult) -> ToolResult {
        let Some(output) = &slot.output else {
            return bound_result_owned(result, &slot.caps).0;
        };
        // The handler's own result first (a typed value arrives bounded: it was bounded
        // as it was serialized): a mismatch there is the tool's bug, unless it is where
        // that bounding cut. Then, only when bounding cuts something here, the result
        // that leaves.
        let result = output.shape(result);
        if let Some((pointer, message)) = output.violation(&result) {
            let after_bounding = output::cut_at(&result, &pointer);
            return self.output_mismatch(slot, pointer, message, after_bounding);
        }
        let (bounded, cuts) = bound_result_owned(result, &slot.caps);
        if !cuts.is_empty()
            && let Some((pointer, message)) = output.violation(&bounded)
        {
            return self.output_mismatch(slot, pointer, message, true);
        }
        bounded
    }

    /// The gate: the tool's slot, or the bounded refusal (unknown and not granted alike).
    fn admit(&self, name: &str, session: &SessionContext) -> Result<&Slot, Box<ToolResult>> {
        self.gated(name, session)
            .map_err(|refusal| Box::new(bound_result_owned(refusal.to_result(), &self.caps).0))
    }

    /// Tells the host, and gives the caller the generic result.
    fn output_mismatch(
        &self,
        slot: &Slot,
        pointer: String,
        message: String,
        after_bounding: bool,
    ) -> ToolResult {
        (self.mismatch.0)(&OutputMismatch {
            tool: slot.name.to_string(),
            pointer,
            message,
            after_bounding,
        });
        bound_result_owned(mismatch_result(after_bounding), &slot.caps).0
    }

    /// The pipeline of a tool the session may call, before bounding.
    async fn run(
        &self,
        slot: &Slot,
        args: Value,
        session: &SessionContext,
        options: CallOptions,
    ) -> ToolResult {
        let CallOptions {
            abort,
            progress,
            log,
            approval,
            asker,
        } = options;
        // A strict model's `null` for a key it does not require is the key not sent
        // (`dialect::absent_nulls`): before the gate, the defaults and the handler.
        let mut args = args;
        absent_nulls(&slot.entry.schema, &mut args);
        // The posture reads the keys as sent: defaults do not count.
        let asks = match approval {
            ApprovalPolicy::Ask | ApprovalPolicy::Refuse => {
                match posture(&slot.entry.meta, &args) {
                    Approval::Ask(reason) => Some(reason),
                    Approval::Floor(_) => None,
                }
            }
            ApprovalPolicy::Host | ApprovalPolicy::Trust => None,
        };
        let args = match self.prepare(slot, args) {
            Ok(args) => args,
            Err(refused) => return *refused,
        };
        if abort.is_aborted() {
            return cancelled_result();
        }
        if let Some(reason) = asks {
            let request = ApprovalRequest::new(&slot.name, reason);
            let outcome = match (approval, &asker) {
                (ApprovalPolicy::Refuse, _) => Err(NotApproved::Refused),
                (_, None) => Err(NotApproved::NoAnswer(AskError::NoAsker)),
                (_, Some(asker)) => {
                    let question = asker.ask(APPROVAL_KEY, Question::Approve(request.clone()));
                    // A run aborted while it waits for a person ends there.
                    let answer = {
                        let mut question = pin!(question);
                        let mut cancelled = pin!(abort.cancelled());
                        poll_fn(|task| {
                            if let Poll::Ready(answer) = question.as_mut().poll(task) {
                                return Poll::Ready(Some(answer));
                            }
                            cancelled.as_mut().poll(task).map(|()| None)
                        })
                        .await
                    };
                    match answer.map(form_answer) {
                        None => return cancelled_result(),
                        Some(Ok(Elicited::Accept(_))) => Ok(()),
                        Some(Ok(Elicited::Decline)) => Err(NotApproved::Declined),
                        Some(Ok(Elicited::Cancel)) => Err(NotApproved::Cancelled),
                        Some(Err(e)) => Err(NotApproved::NoAnswer(e)),
                    }
                }
            };
            if let Err(why) = outcome {
                return not_approved_result(&request, &why);
            }
        }
        Self::task_point(slot, asker.as_deref()).await;
        let mut cx = self.context(slot, session, &abort, progress, log, asker);
        if slot.more_offset {
            // The offset this call started from (with its default): the marker adds the
            // items kept.
            let from = slot
                .more
                .and_then(|key| args.get(key))
                .and_then(Value::as_u64);
            cx.bound.more_from = Some(from.unwrap_or(0));
        }
        let call = match catch_unwind(AssertUnwindSafe(|| slot.handler.call(args, &cx))) {
            Ok(call) => call,
            Err(payload) => return panic_result(&*payload),
        };
        match call {
            Call::Ready(result) => result,
            Call::Pending(future) => Self::complete(slot, future, &abort).await,
        }
    }

    /// Whether a text call of `slot` can be read straight into its input: a validator
    /// that checks piece by piece (the built-in one), and no person to ask, whose
    /// question depends on the keys as sent.
    fn text_fields<'s>(&self, slot: &'s Slot, options: &CallOptions) -> Option<Fields<'s>> {
        let Checker::Builtin(validator) = &slot.validator else {
            return None;
        };
        if !slot.reads_text {
            return None;
        }
        let may_ask = match options.approval {
            ApprovalPolicy::Ask | ApprovalPolicy::Refuse => may_ask(&slot.entry.meta),
            ApprovalPolicy::Host | ApprovalPolicy::Trust => false,
        };
        (!may_ask).then_some(Fields {
            validator,
            defaults: &slot.entry.meta.defaults,
        })
    }

    /// The pipeline of a text call (see [`text_fields`](Self::text_fields)), before
    /// bounding; the options back when the text must be read as a tree.
    async fn run_text(
        &self,
        slot: &Slot,
        text: &str,
        fields: Fields<'_>,
        session: &SessionContext,
        options: CallOptions,
    ) -> Result<ToolResult, CallOptions> {
        let CallOptions {
            abort,
            progress,
            log,
            approval,
            asker,
        } = options;
        if abort.is_aborted() {
            return Ok(cancelled_result());
        }
        Self::task_point(slot, asker.as_deref()).await;
        let cx = self.context(slot, session, &abort, progress, log, asker);
        let args = Arguments::text(text, fields);
        let started = match catch_unwind(AssertUnwindSafe(|| slot.handler.call_text(args, &cx))) {
            Ok(started) => started,
            Err(payload) => return Ok(panic_result(&*payload)),
        };
        match started {
            Some(Call::Ready(result)) => Ok(result),
            Some(Call::Pending(future)) => Ok(Self::complete(slot, future, &abort).await),
            None => {
                drop(started);
                let ToolContext {
                    progress,
                    log,
                    asker,
                    ..
                } = cx;
                Err(CallOptions {
                    abort,
                    progress,
                    log,
                    approval,
                    asker,
                })
            }
        }
    }

    /// Where a call of a tool whose task starts with the call becomes a task, after the
    /// gate and before the handler: a host that runs it as a task ends the request here
    /// (see [`TaskMode`](super::TaskMode)).
    async fn task_point(slot: &Slot, asker: Option<&dyn Asker>) {
        if slot.task.support.allows_task()
            && slot.task.start == TaskStart::Call
            && let Some(asker) = asker
        {
            asker.begin_task().await;
        }
    }

    /// The handler's context for one call.
    fn context(
        &self,
        slot: &Slot,
        session: &SessionContext,
        abort: &AbortSignal,
        progress: Option<ProgressSink>,
        log: Option<LogSink>,
        asker: Option<Arc<dyn Asker>>,
    ) -> ToolContext {
        ToolContext {
            tool: Arc::clone(&slot.name),
            session: session.clone(),
            abort: slot.cancellable.then(|| abort.clone()),
            state: Arc::clone(&self.state),
            progress,
            log,
            asker,
            bound: TypedBound {
                caps: slot.caps,
                wrapped: slot.output.as_ref().is_some_and(|o| o.output.is_wrapped()),
                more: slot.more,
                more_from: None,
            },
        }
    }

    /// A pending call to its result: polled (raced with the abort signal for a
    /// cancellable tool), a panic in it caught. (A ready one is its result: it never
    /// goes through this future.)
    async fn complete(
        slot: &Slot,
        mut future: BoxFuture<'_, ToolResult>,
        abort: &AbortSignal,
    ) -> ToolResult {
        // Once a poll has panicked, or the race is decided, the future is never polled again.
        if slot.cancellable {
            let mut cancelled = pin!(abort.cancelled());
            poll_fn(|task| {
                match catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(task))) {
                    Ok(Poll::Ready(result)) => return Poll::Ready(result),
                    Ok(Poll::Pending) => {}
                    Err(payload) => return Poll::Ready(panic_result(&*payload)),
                }
                match cancelled.as_mut().poll(task) {
                    Poll::Ready(()) => Poll::Ready(cancelled_result()),
                    Poll::Pending => Poll::Pending,
                }
            })
            .await
        } else {
            poll_fn(
                |task| match catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(task))) {
                    Ok(poll) => poll,
                    Err(payload) => Poll::Ready(panic_result(&*payload)),
                },
            )
            .await
        }
    }

    /// Defaults, then validation: the arguments the handler may see, or the `isError`
    /// result the model reads.
    fn prepare(&self, slot: &Slot, args: Value) -> Result<Value, Box<ToolResult>> {
        let mut args = match args {
            Value::Null => Value::Object(Map::new()),
            other => other,
        };
        if let Value::Object(map) = &mut args {
            for (key, value) in &slot.entry.meta.defaults {
                if !map.contains_key(key) {
                    map.insert(key.clone(), value.clone());
                }
            }
        }
        if let Some(why) = slot.validator.broken() {
            return Err(Box::new(ToolResult::error(format!(
                "the tool `{}` cannot validate its arguments: its schema does not compile ({why})",
                slot.name
            ))));
        }
        if slot.validator.is_valid(&args) {
            return Ok(args);
        }
        let errors = slot.validator.argument_errors(&args);
        Err(Box::new(arguments_result(
            &slot.name,
            "they do not match the tool's schema",
            &errors,
        )))
    }

    /// [`dispatch`](Self::dispatch) for sync callers, with no abort signal, driven by
    /// [`block_on`]. An async handler that waits on a specific runtime (tokio I/O or
    /// timers) needs that runtime: call `dispatch` from it instead.
    ///
    /// On `wasm32`, a handler whose future stays pending (nothing can wake it on one
    /// thread) gives an `isError` result instead of hanging.
    pub fn dispatch_blocking(
        &self,
        name: &str,
        args: Value,
        session: &SessionContext,
    ) -> ToolResult {
        drive(self.dispatch(name, args, session, AbortSignal::never()))
    }
}

/// Drives a dispatch future for a sync caller (see [`Package::dispatch_blocking`]).
/// In line: a call would move the whole future into its frame.
#[inline]
fn drive(future: impl Future<Output = ToolResult>) -> ToolResult {
    let mut future = pin!(future);
    // A sync handler completes on the first poll: no waker to allocate for it.
    if let Poll::Ready(result) = future
        .as_mut()
        .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()))
    {
        return result;
    }
    block_on(future).unwrap_or_else(|| {
        ToolResult::error(
            "the tool's handler is waiting on something this host cannot drive; \
             the host must call it asynchronously",
        )
    })
}
