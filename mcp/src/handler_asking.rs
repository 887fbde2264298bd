//! Asking from a prompt or a resource of a handler composed with
//! [`McpServer::with_handler`](crate::McpServer::with_handler): the asking API of tools
//! ([`ToolContext::elicit`], `sample`, `roots`, `confirm`), with the server's sealed
//! `requestState`, in every era.
//!
//! [`asking`] runs the handler's body with a [`ToolContext`] whose questions go where a
//! tool's go: before 2026-07-28, a request to the client while the body waits; on
//! 2026-07-28, an `InputRequiredResult` round (SEP-2322), whose state the server seals
//! with its key and binds to the caller, the prompt (or resource) and its arguments, and
//! the body runs again from the start on the retry, each question it asks again answered
//! by key. The server lends its key to the handler through the request's extensions
//! ([`Lent`]), so only a handler composed with an [`McpServer`](crate::McpServer) can ask.

use std::future::Future;

use neuralis_core::dispatch::{Asker, SessionContext, ToolContext};
use rmcp::model::{InputRequiredResult, ProtocolVersion};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use crate::questions::PeerAsker;
use crate::rounds::{Retried, RoundAsker, States};

/// What the server lends a handler's request: its sealed-state key and the caller.
#[derive(Clone)]
pub(crate) struct Lent {
    pub(crate) states: States,
    pub(crate) session: SessionContext,
}

/// A request whose handler may ask: a prompt's get or a resource's read (its
/// `inputResponses` and `requestState` read from it).
pub trait AskingRequest: Retried {}

impl AskingRequest for rmcp::model::GetPromptRequestParams {}
impl AskingRequest for rmcp::model::ReadResourceRequestParams {}

/// Runs `body` with a [`ToolContext`] that asks the client, as a tool's does, and gives
/// the request's answer: the body's, or (on 2026-07-28) the `InputRequiredResult` of the
/// questions the client must answer first; `R` is the method's response
/// (`GetPromptResponse`, `ReadResourceResponse`).
///
/// On 2026-07-28 the body runs again from the start on every round (its earlier
/// questions answered from the sealed state): ask before doing anything, and ask the same
/// question under the same key each time. A question the client cannot answer (it did not
/// declare the capability) is an `AskError::Unsupported` to the body on every era.
///
/// ```
/// use neuralis_core::dispatch::{Elicited, Form};
/// use rmcp::model::{GetPromptRequestParams, GetPromptResponse, GetPromptResult, PromptMessage, Role};
/// use rmcp::service::RequestContext;
/// use rmcp::{ErrorData, RoleServer};
///
/// // In the handler's `impl ServerHandler`: ask what to review, then write the prompt.
/// async fn get_prompt(
///     request: GetPromptRequestParams,
///     context: RequestContext<RoleServer>,
/// ) -> Result<GetPromptResponse, ErrorData> {
///     neuralis_mcp::asking(&context, &request, |cx| async move {
///         let form = Form::new(
///             "What should be reviewed?",
///             serde_json::json!({"type": "object", "properties": {"topic": {"type": "string"}}}),
///         );
///         let topic = match cx.elicit_form("topic", form).await {
///             Ok(Elicited::Accept(answer)) => answer["topic"].as_str().unwrap_or("it").to_owned(),
///             _ => "the last change".to_owned(),
///         };
///         GetPromptResult::new(vec![PromptMessage::new_text(Role::User, format!("Review {topic}."))])
///     })
///     .await
/// }
/// ```
///
/// # Errors
///
/// `-32603` when the request did not come through an [`McpServer`](crate::McpServer)
/// (nothing lent its state), `-32602` for a `requestState` that does not open for this
/// caller, request and arguments, or has expired.
pub async fn asking<R, T, F, Fut>(
    context: &RequestContext<RoleServer>,
    request: &impl AskingRequest,
    body: F,
) -> Result<R, ErrorData>
where
    R: From<T> + From<InputRequiredResult>,
    F: FnOnce(ToolContext) -> Fut,
    Fut: Future<Output = T>,
{
    let Some(lent) = context.extensions.get::<Lent>() else {
        return Err(ErrorData::internal_error(
            "`neuralis_mcp::asking` asks through the server's sealed state, which only a handler composed with `McpServer::with_handler` is lent",
            None,
        ));
    };
    let capabilities = context.client_capabilities();
    let target = request.target();
    let modern = context
        .protocol_version()
        .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28);
    if !modern {
        let asker = PeerAsker {
            peer: context.peer.clone(),
            capabilities,
        };
        return Ok(body(context_for(&target, lent, asker)).await.into());
    }
    let round = std::sync::Arc::new(lent.states.open(request, &lent.session, capabilities)?);
    let cx = context_for(&target, lent, RoundAsker(std::sync::Arc::clone(&round)));
    let run = body(cx);
    tokio::select! {
        biased;
        answer = run => Ok(answer.into()),
        () = round.suspended.notified() => lent.states.suspend(&round).map(Into::into),
    }
}

/// The context the body asks through: named after what it answers.
fn context_for(target: &str, lent: &Lent, asker: impl Asker) -> ToolContext {
    ToolContext::new(target, lent.session.clone()).with_asker(asker)
}
