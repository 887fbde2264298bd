//! What a served package answers besides its tools: an rmcp [`ServerHandler`] the author
//! writes with rmcp's own macros and types (prompts, resources and their templates,
//! completion, subscriptions...), composed with the package by
//! [`McpServer::with_handler`].
//!
//! The package keeps what is its own: `tools/list` and `tools/call` (listed, gated and
//! called by the package, whatever the handler says about tools), `logging/setLevel`,
//! and the lifecycle (`initialize`, `server/discover`, `ping`), whose answers carry the
//! union of both sides' capabilities. Every other request and notification goes to the
//! handler, which sees the same [`RequestContext`] (the peer, the request's `_meta`, the
//! HTTP request's parts): so `prompts/get` and `resources/read` may answer with rmcp's
//! own `InputRequiredResult` on 2026-07-28, and a handler with no prompts answers
//! `prompts/list` with `-32601`, as rmcp does.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use rmcp::model::{
    CancelledNotificationParam, CustomRequest, CustomResult, ServerCapabilities, ServerConfig,
    SubscriptionFilter,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::McpServer;

/// A boxed future of the handler's answer.
type Answer<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

impl McpServer {
    /// The server with `handler` answering every MCP request that is not about the
    /// package's tools: prompts, resources and resource templates, completion,
    /// subscriptions, tasks, skills, custom methods, and the notifications the client
    /// sends. Write it with rmcp's macros (`#[prompt_router]`, `#[prompt]`,
    /// `#[prompt_handler]`) or by implementing [`ServerHandler`]'s methods; its
    /// [`get_info`](ServerHandler::get_info) says what it serves.
    ///
    /// The package's tools stay the package's: `tools/list` and `tools/call` never reach
    /// the handler (a `#[tool_router]` in it is not served), nor do `logging/setLevel`,
    /// `initialize`, `server/discover` and `ping`. The capabilities the server declares
    /// are the union of the package's (`tools`, `logging`) and the handler's; the
    /// server's name, version and instructions are the server's
    /// ([`with_server_info`](Self::with_server_info),
    /// [`with_instructions`](Self::with_instructions)), the handler's instructions
    /// standing in when the server has none.
    ///
    /// Every connection gets its own clone of `handler`, as rmcp's HTTP service makes a
    /// handler per session: each HTTP session, each stateless HTTP request, the one stdio
    /// connection. Share state between them through an `Arc` in the handler. It works
    /// the same over every transport ([`serve_stdio`](Self::serve_stdio),
    /// [`http_service`](Self::http_service), `McpServer::hosted` with
    /// `Hosted::with_handler`) and in every protocol era.
    ///
    /// ```
    /// use neuralis_core::dispatch::{Package, SessionContext};
    /// use neuralis_mcp::McpServer;
    /// use rmcp::handler::server::wrapper::Parameters;
    /// use rmcp::model::{GetPromptResult, PromptMessage, Role, ServerCapabilities, ServerConfig};
    /// use rmcp::{ServerHandler, prompt, prompt_handler, prompt_router};
    ///
    /// /// The prompts served beside the package's tools.
    /// #[derive(Clone)]
    /// struct Prompts {
    ///     prompt_router: rmcp::handler::server::router::prompt::PromptRouter<Self>,
    /// }
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Topic {
    ///     /// What to review.
    ///     topic: String,
    /// }
    ///
    /// #[prompt_router]
    /// impl Prompts {
    ///     fn new() -> Self {
    ///         Self { prompt_router: Self::prompt_router() }
    ///     }
    ///
    ///     /// Review a topic with the package's tools.
    ///     #[prompt(name = "review")]
    ///     fn review(&self, Parameters(Topic { topic }): Parameters<Topic>) -> GetPromptResult {
    ///         GetPromptResult::new(vec![PromptMessage::new_text(
    ///             Role::User,
    ///             format!("Review {topic}, then report what you found."),
    ///         )])
    ///     }
    /// }
    ///
    /// #[prompt_handler(router = self.prompt_router)]
    /// impl ServerHandler for Prompts {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::new(ServerCapabilities::builder().enable_prompts().build())
    ///     }
    /// }
    ///
    /// # async fn run(package: Package) -> Result<(), neuralis_mcp::Error> {
    /// let session = SessionContext::builder("local-user").build();
    /// McpServer::new(package, session)
    ///     .with_handler(Prompts::new())
    ///     .serve_stdio()
    ///     .await
    /// # }
    /// ```
    #[must_use]
    pub fn with_handler<H: ServerHandler + Clone>(mut self, handler: H) -> Self {
        self.handler = Handler(Arc::new(handler));
        self
    }
}

/// The handler of a server: the author's, or [`Nothing`].
#[derive(Clone)]
pub(crate) struct Handler(Arc<dyn Other>);

impl Default for Handler {
    fn default() -> Self {
        Self(Arc::new(Nothing))
    }
}

impl Handler {
    /// The handler for one more connection: a clone of the author's.
    #[cfg(feature = "http")]
    pub(crate) fn fresh(&self) -> Self {
        Self(self.0.fresh())
    }

    /// `ours` (the package's server configuration) with the handler's capabilities
    /// added, and its instructions when `ours` has none.
    pub(crate) fn compose_info(&self, mut ours: ServerConfig) -> ServerConfig {
        let theirs = self.0.info();
        ours.capabilities = union(ours.capabilities, theirs.capabilities);
        if ours.instructions.is_none() {
            ours.instructions = theirs.instructions;
        }
        ours
    }
}

/// Every capability either side declares; where both declare one, the package's
/// (`tools` is the package's, whatever the handler says) but for `resources` (the
/// handler's, which says what its own resources do, when the package has skills too), and
/// the keys of both for the open maps (`experimental`, `extensions`).
fn union(ours: ServerCapabilities, mut theirs: ServerCapabilities) -> ServerCapabilities {
    let ServerCapabilities {
        experimental,
        extensions,
        logging,
        completions,
        prompts,
        resources,
        tools,
        ..
    } = ours;
    if let Some(ours) = experimental {
        theirs.experimental.get_or_insert_default().extend(ours);
    }
    if let Some(ours) = extensions {
        theirs.extensions.get_or_insert_default().extend(ours);
    }
    theirs.logging = logging.or(theirs.logging);
    theirs.completions = completions.or(theirs.completions);
    theirs.prompts = prompts.or(theirs.prompts);
    // The handler's own (with `subscribe`, `listChanged`) when it has resources too.
    theirs.resources = theirs.resources.or(resources);
    theirs.tools = tools;
    theirs
}

/// A server with no handler: rmcp's defaults (no capability, so `-32601` for every
/// method).
#[derive(Clone)]
struct Nothing;

impl ServerHandler for Nothing {}

/// Calls `$then!` with every method of [`ServerHandler`] that [`McpServer`] hands to its
/// handler as it is (`on_cancelled` and `on_custom_request` too, which the server reads
/// first): the one list that declares [`Other`], implements it for every handler, and
/// writes `McpServer`'s methods (expanded inside `impl ServerHandler for McpServer`).
macro_rules! handed_over {
    ($then:ident) => {
        $then! {
            fn complete(&self, request: ::rmcp::model::CompleteRequestParams, context: ::rmcp::service::RequestContext<::rmcp::RoleServer>) -> Result<::rmcp::model::CompleteResult, ::rmcp::ErrorData>;
            fn list_prompts(&self, request: Option<::rmcp::model::PaginatedRequestParams>, context: ::rmcp::service::RequestContext<::rmcp::RoleServer>) -> Result<::rmcp::model::ListPromptsResult, ::rmcp::ErrorData>;
            fn list_resource_templates(&self, request: Option<::rmcp::model::PaginatedRequestParams>, context: ::rmcp::service::RequestContext<::rmcp::RoleServer>) -> Result<::rmcp::model::ListResourceTemplatesResult, ::rmcp::ErrorData>;
            fn listen(&self, context: ::rmcp::service::SubscriptionContext) -> Result<(), ::rmcp::ErrorData>;
            fn subscribe(&self, request: ::rmcp::model::SubscribeRequestParams, context: ::rmcp::service::RequestContext<::rmcp::RoleServer>) -> Result<(), ::rmcp::ErrorData>;
            fn unsubscribe(&self, request: ::rmcp::model::UnsubscribeRequestParams, context: ::rmcp::service::RequestContext<::rmcp::RoleServer>) -> Result<(), ::rmcp::ErrorData>;
            fn on_progress(&self, notification: ::rmcp::model::ProgressNotificationParam, context: ::rmcp::service::NotificationContext<::rmcp::RoleServer>);
            fn on_initialized(&self, context: ::rmcp::service::NotificationContext<::rmcp::RoleServer>);
            fn on_roots_list_changed(&self, context: ::rmcp::service::NotificationContext<::rmcp::RoleServer>);
            fn on_custom_notification(&self, notification: ::rmcp::model::CustomNotification, context: ::rmcp::service::NotificationContext<::rmcp::RoleServer>);
        }
    };
}

pub(crate) use handed_over;

/// The methods of [`ServerHandler`] that [`McpServer`] writes by hand in its
/// `ServerHandler` before handing them to its handler: the ones it answers with the
/// package's skills first (`crate::skills`), and the ones whose handler may ask the client
/// ([`crate::handler_asking`], which finds the server's sealed state in the request's extensions).
/// Declared in [`Other`] and implemented for every handler as [`handed_over`]'s are.
macro_rules! written_here {
    ($then:ident) => {
        $then! {
            fn get_prompt(&self, request: ::rmcp::model::GetPromptRequestParams, context: ::rmcp::service::RequestContext<::rmcp::RoleServer>) -> Result<::rmcp::model::GetPromptResponse, ::rmcp::ErrorData>;
            fn list_resources(&self, request: Option<::rmcp::model::PaginatedRequestParams>, context: ::rmcp::service::RequestContext<::rmcp::RoleServer>) -> Result<::rmcp::model::ListResourcesResult, ::rmcp::ErrorData>;
            fn read_resource(&self, request: ::rmcp::model::ReadResourceRequestParams, context: ::rmcp::service::RequestContext<::rmcp::RoleServer>) -> Result<::rmcp::model::ReadResourceResponse, ::rmcp::ErrorData>;
            fn list_skills(&self, request: Option<::rmcp::model::PaginatedRequestParams>, context: ::rmcp::service::RequestContext<::rmcp::RoleServer>) -> Result<::rmcp::model::ListSkillsResult, ::rmcp::ErrorData>;
            fn get_skill(&self, request: ::rmcp::model::GetSkillRequestParams, context: ::rmcp::service::RequestContext<::rmcp::RoleServer>) -> Result<::rmcp::model::GetSkillResult, ::rmcp::ErrorData>;
            fn read_resource_directory(&self, request: ::rmcp::model::ReadResourceDirectoryRequestParams, context: ::rmcp::service::RequestContext<::rmcp::RoleServer>) -> Result<::rmcp::model::ReadResourceDirectoryResult, ::rmcp::ErrorData>;
        }
    };
}

/// `$t`, or `()` when there is none (a notification's answer).
macro_rules! or_unit {
    () => {
        ()
    };
    ($t:ty) => {
        $t
    };
}

/// [`handed_over`]'s methods as the declarations of [`Other`].
macro_rules! declare {
    ($(fn $name:ident(&self $(, $arg:ident: $ty:ty)*) $(-> $out:ty)?;)*) => {
        $(fn $name(&self $(, $arg: $ty)*) -> Answer<'_, or_unit!($($out)?)>;)*
    };
}

/// [`handed_over`]'s methods for every handler: its own [`ServerHandler`] method, boxed.
macro_rules! boxed {
    ($(fn $name:ident(&self $(, $arg:ident: $ty:ty)*) $(-> $out:ty)?;)*) => {
        $(
            fn $name(&self $(, $arg: $ty)*) -> Answer<'_, or_unit!($($out)?)> {
                Box::pin(ServerHandler::$name(self $(, $arg)*))
            }
        )*
    };
}

/// [`handed_over`]'s methods as `McpServer`'s: each the handler's.
macro_rules! to_handler {
    ($(fn $name:ident(&self $(, $arg:ident: $ty:ty)*) $(-> $out:ty)?;)*) => {
        $(
            async fn $name(&self $(, $arg: $ty)*) $(-> $out)? {
                self.handler.other().$name($($arg),*).await
            }
        )*
    };
}

pub(crate) use to_handler;

/// The methods of [`ServerHandler`] that [`McpServer`] hands to its handler, with boxed
/// futures so that any handler fits behind one pointer.
pub(crate) trait Other: Send + Sync + 'static {
    /// A clone of the handler, for one more connection.
    #[cfg(feature = "http")]
    fn fresh(&self) -> Arc<dyn Other>;
    fn info(&self) -> ServerConfig;
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter>;
    fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) -> Answer<'_, ()>;
    fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, Result<CustomResult, ErrorData>>;
    handed_over!(declare);
    written_here!(declare);
}

#[allow(
    deprecated,
    reason = "resources/subscribe and unsubscribe are legacy-only, not removed: a handler serves them to clients before 2026-07-28"
)]
impl<H: ServerHandler + Clone> Other for H {
    #[cfg(feature = "http")]
    fn fresh(&self) -> Arc<dyn Other> {
        Arc::new(self.clone())
    }

    fn info(&self) -> ServerConfig {
        ServerHandler::get_info(self)
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        ServerHandler::accepted_subscription_filter(self, requested)
    }

    boxed! {
        fn on_cancelled(&self, notification: CancelledNotificationParam, context: NotificationContext<RoleServer>);
        fn on_custom_request(&self, request: CustomRequest, context: RequestContext<RoleServer>) -> Result<CustomResult, ErrorData>;
    }

    handed_over!(boxed);
    written_here!(boxed);
}

impl Handler {
    /// The handler's methods.
    pub(crate) fn other(&self) -> &dyn Other {
        &*self.0
    }
}
