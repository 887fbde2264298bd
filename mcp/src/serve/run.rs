//! The call runner: one `tools/call` from its request to its answer (the gate, the
//! handler, its progress and log relayed, a task started, the outcome recorded in the
//! call's span), and the calls in flight a cancel aborts.

use super::*;

impl McpServer {
    /// Runs one `tools/call`; `progress` receives the handler's reports and `log` its log
    /// messages when the client asked for them; the gate and the handler ask through
    /// `asker`.
    pub(super) async fn call(
        &self,
        request: CallToolRequestParams,
        session: &SessionContext,
        id: RequestId,
        progress: Option<ProgressSink>,
        log: Option<LogSink>,
        asker: Arc<dyn Asker>,
    ) -> ToolResult {
        let controller = AbortController::new();
        let approval = match self.approval {
            ApprovalPolicy::Host => ApprovalPolicy::Trust,
            other => other,
        };
        let mut options = CallOptions::new()
            .abort(controller.signal())
            .approval(approval)
            .shared_asker(asker);
        if let Some(sink) = progress {
            options = options.progress(sink);
        }
        if let Some(sink) = log {
            options = options.log(sink);
        }
        self.in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.clone(), controller);
        let _guard = InFlight {
            map: &self.in_flight,
            id,
        };
        let args = request.arguments.map_or(Value::Null, Value::Object);
        self.package
            .dispatch_with(&request.name, args, session, options)
            .await
    }

    /// `context` with the server's sealed-state key and the caller lent to the handler
    /// (`crate::handler_asking`); as it is when the request has no caller (the handler's own
    /// answer stands, and `asking` refuses).
    pub(super) fn lend(
        &self,
        mut context: RequestContext<RoleServer>,
    ) -> RequestContext<RoleServer> {
        if let Ok(session) = self.caller(&context) {
            context.extensions.insert(crate::handler_asking::Lent {
                states: self.states.clone(),
                session,
            });
        }
        context
    }

    /// Runs one `tools/call` for `session`, relaying its progress reports and log
    /// messages while it runs: how it ended (its result, its round suspended on a
    /// question for the client, or its task begun), its round, and whether the client
    /// cancelled it. `as_task`: the call becomes a task where its tool's task starts.
    pub(super) async fn run_call(
        &self,
        request: CallToolRequestParams,
        session: &SessionContext,
        context: &RequestContext<RoleServer>,
        as_task: bool,
    ) -> Result<(Ended, Option<Arc<Round>>, bool), ErrorData> {
        if let Some(refused) = self.mixed_refusal(&request, session, context) {
            return Ok((Ended::Result(refused), None, false));
        }
        let id = context.id.clone();
        // Questions: requests to the client during the call before 2026-07-28; on
        // 2026-07-28 a round that ends in an `InputRequiredResult` (see `rounds`).
        let capabilities = context.client_capabilities();
        let round: Option<Arc<Round>> = if context
            .protocol_version()
            .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
        {
            Some(Arc::new(self.states.open(
                &request,
                session,
                capabilities.clone(),
            )?))
        } else {
            None
        };
        let asker: Arc<dyn Asker> = match &round {
            Some(round) => Arc::new(RoundAsker(Arc::clone(round))),
            None => Arc::new(PeerAsker {
                peer: context.peer.clone(),
                capabilities,
            }),
        };
        // A call that becomes a task keeps the answers it was given for the task's run,
        // and ends its request where the task starts.
        let (asker, foreground): (Arc<dyn Asker>, _) = if as_task {
            let foreground = Arc::new(Foreground::new(asker));
            (Arc::clone(&foreground) as Arc<dyn Asker>, Some(foreground))
        } else {
            (asker, None)
        };
        // One channel for the call's progress reports and log messages, so that they go
        // out in the order the handler made them; none when the client asked for neither.
        let mut progress = context
            .meta
            .get_progress_token()
            .map(|token| ProgressRelay {
                token,
                peer: context.peer.clone(),
                last: None,
            });
        let log_level = self.log_level.for_call(context);
        let (reports, logs, mut relayed) = if progress.is_some() || log_level.is_some() {
            let (tx, rx) = mpsc::unbounded_channel();
            let reports = progress.is_some().then(|| {
                let tx = tx.clone();
                ProgressSink::new(move |report| {
                    let _ = tx.send(Relayed::Progress(report));
                })
            });
            let logs = log_level.map(|level| {
                LogSink::new(level, move |message| {
                    let _ = tx.send(Relayed::Log(message));
                })
            });
            (reports, logs, Some(rx))
        } else {
            (None, None, None)
        };
        let call = self.call(request, session, id.clone(), reports, logs, asker);
        tokio::pin!(call);
        let mut aborted = false;
        // rmcp cancels the request's token on `notifications/cancelled` (and when the
        // connection closes); `on_cancelled` aborts through the map as well. A round that
        // cannot answer a question suspends: the run is dropped (after every question it
        // asked in the same poll is in), and the round's questions answer the request.
        let result = loop {
            tokio::select! {
                biased;
                result = &mut call => break Ended::Result(result),
                () = async {
                    match &round {
                        Some(round) => round.suspended.notified().await,
                        None => std::future::pending().await,
                    }
                } => break Ended::Suspended,
                () = async {
                    match &foreground {
                        Some(foreground) => foreground.begun.notified().await,
                        None => std::future::pending().await,
                    }
                } => break Ended::Task(foreground.as_ref().map(|f| f.answered()).unwrap_or_default()),
                () = context.ct.cancelled(), if !aborted => {
                    aborted = true;
                    self.abort(&id);
                }
                Some(item) = async {
                    match relayed.as_mut() {
                        Some(rx) => rx.recv().await,
                        None => std::future::pending().await,
                    }
                } => relay(item, progress.as_mut(), &context.peer).await,
            }
        };
        // Every report and message the handler made goes out before its result.
        if let Some(mut rx) = relayed {
            rx.close();
            while let Ok(item) = rx.try_recv() {
                relay(item, progress.as_mut(), &context.peer).await;
            }
        }
        Ok((result, round, aborted))
    }

    /// Creates the task of a call whose request ended where its task starts, and runs the
    /// call in the background: the `CreateTaskResult`, once the task is kept (so that a
    /// `tasks/get` right after resolves).
    pub(super) async fn start_task(
        &self,
        request: CallToolRequestParams,
        session: SessionContext,
        capabilities: Option<ClientCapabilities>,
        answered: std::collections::BTreeMap<String, Answered>,
    ) -> Result<CallToolResponse, ErrorData> {
        let record = self
            .tasks
            .create(session.user_id(), &request.name, answered)
            .await?;
        let run = crate::task::Run {
            package: Arc::clone(&self.package),
            tasks: Arc::clone(&self.tasks),
            session,
            request,
            capabilities,
        };
        tokio::spawn(run.run(record.task_id.clone()));
        Ok(CreateTaskResult::new(record.task()).into())
    }

    /// The span of one `tools/call`: its tool, caller and era, the request id (`http`)
    /// and, with payload tracing on, its arguments; the rest is recorded as it ends.
    pub(super) fn call_span(
        &self,
        request: &CallToolRequestParams,
        session: &SessionContext,
        context: &RequestContext<RoleServer>,
    ) -> tracing::Span {
        let era = context
            .protocol_version()
            .map(|v| v.to_string())
            .unwrap_or_default();
        let span = tracing::info_span!(
            target: "neuralis_mcp::call",
            "mcp.call",
            tool = %request.name,
            caller = %session.user_id(),
            era = %era,
            request_id = tracing::field::Empty,
            outcome = tracing::field::Empty,
            refusal = tracing::field::Empty,
            duration_ms = tracing::field::Empty,
            arguments = tracing::field::Empty,
            result = tracing::field::Empty,
        );
        #[cfg(feature = "http")]
        if let Some(id) = crate::http::request_id_of(context) {
            span.record("request_id", id);
        }
        if self.trace_payloads {
            let args = request.arguments.as_ref().map(|a| Value::Object(a.clone()));
            span.record("arguments", args.unwrap_or(Value::Null).to_string());
        }
        span
    }

    /// Whether the call of `name` runs as a task; refused (recorded on `span`) when its
    /// tool runs only as one and the client did not opt in.
    pub(super) fn runs_as_task(
        &self,
        name: &str,
        session: &SessionContext,
        capabilities: Option<&ClientCapabilities>,
        span: &tracing::Span,
    ) -> Result<bool, ErrorData> {
        // A tool that may run as a task, which the caller may call: a task when the client
        // opted in to the extension (for the session or this request); refused, before
        // anything runs, when it must be one and the client did not.
        let mode = self.package.task_mode(name).unwrap_or_default();
        let opted_in = capabilities.is_some_and(ClientCapabilities::supports_tasks);
        let may_task =
            mode.support.allows_task() && self.package.catalog(session).any(|e| e.name == name);
        if may_task && mode.support == TaskSupport::Required && !opted_in {
            span.record("outcome", "refused");
            span.record(
                "refusal",
                "runs only as a task: the client did not opt in to tasks",
            );
            return Err(ErrorData::missing_required_client_capability(
                ClientCapabilities::builder().enable_tasks().build(),
            ));
        }
        Ok(may_task && opted_in)
    }

    /// How a call of `name` ended, for its span and log: the outcome and, for a refusal,
    /// why.
    pub(super) fn call_outcome(
        &self,
        ended: &Ended,
        aborted: bool,
        name: &str,
        session: &SessionContext,
    ) -> (&'static str, Option<&'static str>) {
        match ended {
            Ended::Suspended => ("input_required", None),
            Ended::Task(_) => ("task", None),
            Ended::Result(r) if !r.is_error => ("ok", None),
            Ended::Result(_) if aborted => ("aborted", None),
            Ended::Result(_) if self.package.tool(name).is_none() => {
                ("refused", Some("unknown tool"))
            }
            Ended::Result(_) if !self.package.catalog(session).any(|e| e.name == name) => (
                "refused",
                Some(
                    "not granted: the caller's grants do not satisfy the tool's `requires.features`",
                ),
            ),
            Ended::Result(_) => ("error", None),
        }
    }

    /// Records how a call ended on its span (with payload tracing on, its result) and
    /// logs it.
    pub(super) fn record_call(
        &self,
        span: &tracing::Span,
        ended: &Ended,
        outcome: &'static str,
        refusal: Option<&'static str>,
        started: std::time::Instant,
    ) {
        let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
        span.record("outcome", outcome);
        span.record("duration_ms", duration_ms);
        if let Some(refusal) = refusal {
            span.record("refusal", refusal);
        }
        if self.trace_payloads
            && let Ended::Result(result) = ended
        {
            span.record("result", serde_json::to_string(result).unwrap_or_default());
        }
        span.in_scope(|| {
            tracing::info!(target: "neuralis_mcp::call", outcome, duration_ms, refusal, "call");
        });
    }

    /// The answer to a `tools/call` that ended: its result, its suspended round, its
    /// task begun, or the refusal of a question the client could not answer.
    pub(super) async fn respond(
        &self,
        ended: Ended,
        round: Option<Arc<Round>>,
        task_request: Option<CallToolRequestParams>,
        session: SessionContext,
        capabilities: Option<ClientCapabilities>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A handler's question the client could not answer was an `AskError` to it; a
        // call that then failed ends with `-32021` naming what the client lacks.
        let unanswerable = match (&ended, &round) {
            (Ended::Result(result), Some(round)) => round.unanswerable(result.is_error),
            _ => None,
        };
        match unanswerable {
            Some(refusal) => Err(refusal),
            None => match (ended, round, task_request) {
                (Ended::Result(result), _, _) => Ok(crate::wire::call_tool_result(result).into()),
                (Ended::Suspended, Some(round), _) => self.states.suspend(&round).map(Into::into),
                (Ended::Task(answered), _, Some(request)) => {
                    self.start_task(request, session, capabilities, answered)
                        .await
                }
                _ => Err(ErrorData::internal_error(
                    "a call suspended with no round, or began a task it could not be",
                    None,
                )),
            },
        }
    }

    /// Fires the abort signal of the call `id`, if it is still running.
    pub(super) fn abort(&self, id: &RequestId) {
        if let Some(controller) = self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
        {
            controller.abort();
        }
    }
}

/// How a call's request ended.
pub(super) enum Ended {
    /// With the call's result.
    Result(ToolResult),
    /// With its round suspended on questions for the client (2026-07-28).
    Suspended,
    /// Where its task starts, with the answers it was given so far.
    Task(std::collections::BTreeMap<String, Answered>),
}

/// What a call's sinks push into the channel that `call_tool` drains while the call runs:
/// its progress reports and log messages, in the order the handler made them.
pub(super) enum Relayed {
    Progress(Progress),
    Log(LogMessage),
}

/// Sends one report or message of a call to the client: a report through the call's
/// [`ProgressRelay`] (there is one whenever its sink exists).
async fn relay(item: Relayed, progress: Option<&mut ProgressRelay>, peer: &Peer<RoleServer>) {
    match item {
        Relayed::Progress(report) => {
            if let Some(progress) = progress {
                progress.send(report).await;
            }
        }
        Relayed::Log(message) => crate::logging::send(peer, message).await,
    }
}

/// The progress reports of one call, on their way to the client in order: the handler's
/// sink pushes them into a channel that `call_tool` drains while the call runs.
pub(super) struct ProgressRelay {
    token: ProgressToken,
    peer: Peer<RoleServer>,
    last: Option<f64>,
}

impl ProgressRelay {
    /// Sends `report` when it moves forward (MCP: `progress` increases with every
    /// notification) and is a finite number.
    async fn send(&mut self, report: Progress) {
        if !report.done.is_finite() || self.last.is_some_and(|last| report.done <= last) {
            return;
        }
        self.last = Some(report.done);
        let mut param = ProgressNotificationParam::new(self.token.clone(), report.done);
        if let Some(total) = report.total.filter(|t| t.is_finite()) {
            param = param.with_total(total);
        }
        if let Some(message) = report.message {
            param = param.with_message(message);
        }
        // A client that went away gets nothing more; the call's own answer says the rest.
        let _ = self.peer.notify_progress(param).await;
    }
}
