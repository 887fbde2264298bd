//! The `ServerHandler` of [`McpServer`]: each method family of MCP delegated to the room
//! that holds it (the projection, the call runner, tasks, skills, the composed handler).

use super::*;

/// MCP request methods whose params rmcp reads into a typed request: when they do not
/// read, rmcp hands the request over as a custom one, and the answer is `-32602`.
fn typed_params_error(method: &str, params: Option<&Value>) -> Option<ErrorData> {
    let reason = if method == CallToolRequestMethod::VALUE {
        let params = params.cloned().unwrap_or(Value::Null);
        match serde_json::from_value::<CallToolRequestParams>(params) {
            Err(e) => e.to_string(),
            Ok(_) => "they do not read as `tools/call` params".to_owned(),
        }
    } else if method == ListToolsRequestMethod::VALUE {
        "`params` must be an object with an optional string `cursor`".to_owned()
    } else {
        return None;
    };
    Some(ErrorData::invalid_params(
        format!("invalid params for `{method}`: {reason}"),
        None,
    ))
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        #[allow(
            deprecated,
            reason = "MCP logging is deprecated by SEP-2577, not removed: 2026-07-28 still has it"
        )]
        let mut capabilities = ServerCapabilities::builder()
            .enable_logging()
            .enable_tools()
            .build();
        // The tasks extension, when a tool may run as a task.
        if self.package.tools().any(|t| {
            self.package
                .task_mode(&t.name)
                .is_some_and(|m| m.support.allows_task())
        }) {
            capabilities
                .extensions
                .get_or_insert_default()
                .insert(TASKS_EXTENSION_ID.to_owned(), Map::new());
        }
        // The skills extension, with directory reads, when the package ships skills.
        if !self.skills.is_empty() {
            capabilities.resources = Some(ResourcesCapability::default());
            let skills = serde_json::to_value(SkillsCapability::new().with_directory_read());
            if let Ok(Value::Object(settings)) = skills {
                capabilities
                    .extensions
                    .get_or_insert_default()
                    .insert(SKILLS_EXTENSION_ID.to_owned(), settings);
            }
        }
        let config = ServerConfig::new(capabilities).with_server_info(self.info.clone());
        let config = match &self.instructions {
            Some(text) => config.with_instructions(text.clone()),
            None => config,
        };
        self.handler.compose_info(config)
    }

    // Every request and notification that is not about tools: the handler's.
    crate::compose::handed_over!(to_handler);

    // The package's skills first, then the handler's resources.
    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        if self.skills.is_empty() {
            return self.handler.other().list_resources(request, context).await;
        }
        let first = request.as_ref().and_then(|r| r.cursor.as_ref()).is_none();
        let mut result = if self.handler.other().info().capabilities.resources.is_some() {
            self.handler
                .other()
                .list_resources(request, context)
                .await?
        } else {
            ListResourcesResult::with_all_items(Vec::new())
        };
        if first {
            result
                .resources
                .splice(0..0, self.skills.resources().iter().cloned());
        }
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match self.skills.read(&request.uri) {
            Some(result) => Ok(result.into()),
            None => {
                let context = self.lend(context);
                self.handler.other().read_resource(request, context).await
            }
        }
    }

    // The handler's, lent the server's sealed state (`crate::handler_asking`).
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let context = self.lend(context);
        self.handler.other().get_prompt(request, context).await
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        if self.skills.is_empty() {
            return self.handler.other().list_skills(request, context).await;
        }
        Ok(self.skills.list())
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        if self.skills.is_empty() {
            return self.handler.other().get_skill(request, context).await;
        }
        self.skills.get(&request.uri)
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        match self.skills.directory(&request.uri) {
            Some(result) => result,
            None => {
                self.handler
                    .other()
                    .read_resource_directory(request, context)
                    .await
            }
        }
    }

    fn accepted_subscription_filter(
        &self,
        requested: &rmcp::model::SubscriptionFilter,
    ) -> Option<rmcp::model::SubscriptionFilter> {
        self.handler.other().accepted_subscription_filter(requested)
    }

    // What rmcp's HTTP transport checks a `tools/call`'s `Mcp-Param-*` headers against
    // (SEP-2243: refused with -32020 when a header and the body disagree): the tool as
    // served, whoever calls (the call itself is gated as any other). Only a tool that
    // mirrors an argument has one to check, so the others cost a call nothing here.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        if !neuralis_core::header::has_headers(self.package.headers(name)?) {
            return None;
        }
        let entry = self.package.tools().find(|t| t.name == name)?;
        serde_json::from_value(self.served_tool(entry, true, self.served)).ok()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let session = self.caller(&context)?;
        // `outputSchema` is part of MCP since 2025-06-18 (versions are dates: they sort).
        let output_schemas = context
            .protocol_version()
            .is_none_or(|v| v.to_string().as_str() >= "2025-06-18");
        let tools = self
            .tool_list_for(&session, output_schemas, self.served_in(&context))
            .into_iter()
            .map(serde_json::from_value::<Tool>)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| {
                ErrorData::internal_error(format!("a tool is not valid MCP: {e}"), None)
            })?;
        let list = ListToolsResult::with_all_items(tools);
        // The caching hints are 2026-07-28's (SEP-2549); earlier eras keep their shape.
        let hints = context
            .protocol_version()
            .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
        Ok(if hints {
            list.with_ttl_ms(self.list_ttl_ms())
                .with_cache_scope(self.list_cache_scope())
        } else {
            list
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let session = self.caller(&context)?;
        let request = self.read_back(request, self.served_in(&context));
        let started = std::time::Instant::now();
        let span = self.call_span(&request, &session, &context);
        let name = request.name.to_string();
        let capabilities = context.client_capabilities();
        let as_task = self.runs_as_task(&name, &session, capabilities.as_ref(), &span)?;
        let task_request = as_task.then(|| request.clone());
        let run = tracing::Instrument::instrument(
            self.run_call(request, &session, &context, as_task),
            span.clone(),
        );
        // A call's event stream in a legacy HTTP session, which the call may close
        // (`http::close_call_stream`); none for a call that may become a task.
        #[cfg(feature = "http")]
        let stream = crate::call_stream::of(&context).filter(|_| !as_task);
        #[cfg(feature = "http")]
        let run = async {
            match &stream {
                Some(stream) => Arc::clone(stream).scope(run).await,
                None => run.await,
            }
        };
        let (ended, round, aborted) = run.await?;
        let (outcome, refusal) = self.call_outcome(&ended, aborted, &name, &session);
        self.record_call(&span, &ended, outcome, refusal, started);
        let response = self
            .respond(ended, round, task_request, session, capabilities)
            .await;
        // rmcp delivers a result to a connected stream only: a call that closed its
        // stream answers once the client is back on it (or gave up waiting).
        #[cfg(feature = "http")]
        if let Some(stream) = stream {
            stream.until_resumed(&context.ct).await;
        }
        response
    }

    /// `tasks/get` (SEP-2663): the caller's task, with its questions, result or error.
    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let session = self.caller(&context)?;
        let task = self.tasks.get(&request.task_id, session.user_id()).await?;
        Ok(GetTaskResult::new(task))
    }

    /// `tasks/update` (SEP-2663): answers to the caller's task's questions.
    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let session = self.caller(&context)?;
        self.tasks
            .update(
                &request.task_id,
                session.user_id(),
                &request.input_responses,
            )
            .await
    }

    /// `tasks/cancel` (SEP-2663): the caller's task stopped (a finished one stays).
    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let session = self.caller(&context)?;
        self.tasks.cancel(&request.task_id, session.user_id()).await
    }

    /// `logging/setLevel`: the connection's later calls send their log messages from this
    /// level on (answered `{}`). Only a request before 2026-07-28 reads it: on 2026-07-28
    /// each request asks for its own messages in `_meta`.
    #[allow(
        deprecated,
        reason = "MCP logging is deprecated by SEP-2577, not removed: 2026-07-28 still has it"
    )]
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.log_level.set(&request);
        Ok(())
    }

    /// A `tools/call` or `tools/list` whose params rmcp could not read: `-32602`; any
    /// other method is the handler's (`-32601` without one).
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        match typed_params_error(&request.method, request.params.as_ref()) {
            Some(error) => Err(error),
            None => {
                self.handler
                    .other()
                    .on_custom_request(request, context)
                    .await
            }
        }
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        if let Some(id) = &notification.request_id {
            self.abort(id);
        }
        self.handler
            .other()
            .on_cancelled(notification, context)
            .await;
    }
}
