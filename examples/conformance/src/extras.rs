//! What the conformance suite asks of a server besides tools: prompts, resources (a
//! template among them), subscriptions and completion, written with rmcp's own macros and
//! types and served beside the package's tools (`McpServer::with_handler`).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::handler::server::prompt::PromptContext;
use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, ContentBlock, ElicitRequest,
    ElicitRequestParams, ElicitationSchema, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, InputRequest, InputRequiredResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams, Prompt,
    PromptMessage, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Reference,
    Resource, ResourceContents, ResourceTemplate, Role, ServerCapabilities, ServerConfig,
    SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, prompt, prompt_router};
use serde::Deserialize;

use crate::tools::RED_PIXEL_PNG;

/// The resource a client may subscribe to.
const WATCHED: &str = "test://watched-resource";

/// The resources (not the template's).
const RESOURCES: [&str; 3] = ["test://static-text", "test://static-binary", WATCHED];

/// The resource template, and the prefix and suffix around its `{id}`.
const TEMPLATE: &str = "test://template/{id}/data";
const TEMPLATE_HEAD: &str = "test://template/";
const TEMPLATE_TAIL: &str = "/data";

/// The prompt that asks the client for input first (2026-07-28): not the router's, since
/// it reads the request's `inputResponses`.
const ASKS: &str = "test_input_required_result_prompt";

/// The handler: its prompts (a router), and the URIs subscribed to, shared by the clones
/// the server makes for each connection.
#[derive(Clone)]
pub struct Extras {
    prompt_router: PromptRouter<Self>,
    subscribed: Arc<Mutex<BTreeSet<String>>>,
}

/// `test_prompt_with_arguments`'s arguments.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct TwoArguments {
    /// First test argument.
    arg1: String,
    /// Second test argument.
    arg2: String,
}

/// `test_prompt_with_embedded_resource`'s argument.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResourceUri {
    /// The URI of the resource to embed.
    resource_uri: String,
}

#[prompt_router]
impl Extras {
    pub fn new() -> Self {
        Self {
            prompt_router: Self::prompt_router(),
            subscribed: Arc::default(),
        }
    }

    /// A simple prompt without arguments.
    #[prompt(name = "test_simple_prompt")]
    fn simple(&self) -> Vec<PromptMessage> {
        vec![PromptMessage::new_text(
            Role::User,
            "This is a simple prompt for testing.",
        )]
    }

    /// A prompt with two required arguments.
    #[prompt(name = "test_prompt_with_arguments")]
    fn with_arguments(
        &self,
        Parameters(TwoArguments { arg1, arg2 }): Parameters<TwoArguments>,
    ) -> Vec<PromptMessage> {
        vec![PromptMessage::new_text(
            Role::User,
            format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"),
        )]
    }

    /// A prompt that embeds a resource.
    #[prompt(name = "test_prompt_with_embedded_resource")]
    fn with_embedded_resource(
        &self,
        Parameters(ResourceUri { resource_uri }): Parameters<ResourceUri>,
    ) -> Vec<PromptMessage> {
        vec![
            PromptMessage::new(
                Role::User,
                ContentBlock::resource(
                    ResourceContents::text("Embedded resource content for testing.", resource_uri)
                        .with_mime_type("text/plain"),
                ),
            ),
            PromptMessage::new_text(Role::User, "Please process the embedded resource above."),
        ]
    }

    /// A prompt with an image: a 1x1 red pixel (PNG).
    #[prompt(name = "test_prompt_with_image")]
    fn with_image(&self) -> Vec<PromptMessage> {
        vec![
            PromptMessage::new(Role::User, ContentBlock::image(RED_PIXEL_PNG, "image/png")),
            PromptMessage::new_text(Role::User, "Please analyze the image above."),
        ]
    }
}

/// The elicitation `test_input_required_result_prompt` sends first, under `user_context`.
fn ask_for_context() -> Result<InputRequiredResult, ErrorData> {
    let schema = ElicitationSchema::builder()
        .required_string("context")
        .build()
        .map_err(|e| ErrorData::internal_error(e, None))?;
    let request = ElicitRequest::new(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: "What context should the prompt use?".to_owned(),
        requested_schema: schema,
    });
    Ok(InputRequiredResult::from_input_requests(BTreeMap::from([
        (
            "user_context".to_owned(),
            InputRequest::Elicitation(request),
        ),
    ])))
}

/// `test://template/{id}/data`'s `id`, when `uri` is one of its URIs.
fn template_id(uri: &str) -> Option<&str> {
    let id = uri
        .strip_prefix(TEMPLATE_HEAD)?
        .strip_suffix(TEMPLATE_TAIL)?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

impl ServerHandler for Extras {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_prompts()
                .enable_resources()
                .enable_resources_subscribe()
                .enable_completions()
                .build(),
        )
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let mut prompts = self.prompt_router.list_all();
        prompts.push(Prompt::new(
            ASKS,
            Some("A prompt that asks the client what context to use before it is returned"),
            None,
        ));
        prompts.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(ListPromptsResult::with_all_items(prompts))
    }

    /// The router's prompts; `test_input_required_result_prompt` asks first (an
    /// `InputRequiredResult`, 2026-07-28) and answers once the client sent what it asked.
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name == ASKS {
            let answered = request
                .input_responses
                .as_ref()
                .and_then(|responses| responses.get("user_context"))
                .and_then(|answer| answer["content"]["context"].as_str());
            return Ok(match answered {
                Some(context) => GetPromptResult::new(vec![PromptMessage::new_text(
                    Role::User,
                    format!("Use this context: {context}"),
                )])
                .into(),
                None => ask_for_context()?.into(),
            });
        }
        let prompt = PromptContext::new(self, request.name, request.arguments, context);
        self.prompt_router.get_prompt(prompt).await
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new("test://static-text", "static-text")
                .with_description("A static text resource")
                .with_mime_type("text/plain"),
            Resource::new("test://static-binary", "static-binary")
                .with_description("A static binary resource (a 1x1 PNG)")
                .with_mime_type("image/png"),
            Resource::new(WATCHED, "watched-resource")
                .with_description("A resource clients may subscribe to")
                .with_mime_type("text/plain"),
        ]))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(TEMPLATE, "template-data")
                .with_description("Data for an id")
                .with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        let contents = match uri.as_str() {
            "test://static-text" => {
                ResourceContents::text("This is the content of the static text resource.", &uri)
            }
            "test://static-binary" => {
                ResourceContents::blob(RED_PIXEL_PNG, &uri).with_mime_type("image/png")
            }
            WATCHED => ResourceContents::text("Watched resource content.", &uri),
            other => match template_id(other) {
                Some(id) => {
                    let data = serde_json::json!({
                        "id": id, "templateTest": true, "data": format!("Data for ID: {id}")
                    });
                    ResourceContents::text(data.to_string(), &uri)
                        .with_mime_type("application/json")
                }
                None => {
                    // rmcp sends `-32602` for this on 2026-07-28 (SEP-2164), `-32002` before.
                    return Err(ErrorData::resource_not_found(
                        format!("no resource at {uri}"),
                        Some(serde_json::json!({ "uri": uri })),
                    ));
                }
            },
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscribed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscribed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&request.uri);
        Ok(())
    }

    /// 2026-07-28's `subscriptions/listen`: updates of the resources it serves (rmcp
    /// acknowledges the subscription and holds it open until the client cancels it);
    /// the lists never change, so no `list_changed`.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::new();
        accepted.resource_subscriptions = requested.resource_subscriptions.as_ref().map(|uris| {
            uris.iter()
                .filter(|uri| RESOURCES.contains(&uri.as_str()) || template_id(uri).is_some())
                .cloned()
                .collect()
        });
        Some(accepted)
    }

    /// Completes `test_prompt_with_arguments`'s arguments and the template's `id` from a
    /// few values; anything else completes to nothing.
    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let candidates: &[&str] = match &request.r#ref {
            Reference::Prompt(p) if p.name == "test_prompt_with_arguments" => {
                &["test", "testing", "paris", "park"]
            }
            Reference::Resource(r) if r.uri == TEMPLATE => &["1", "123", "42"],
            _ => &[],
        };
        let values = candidates
            .iter()
            .filter(|v| v.starts_with(&request.argument.value))
            .map(|v| (*v).to_owned())
            .collect();
        let info = CompletionInfo::new(values).map_err(|e| ErrorData::internal_error(e, None))?;
        Ok(CompleteResult::new(info))
    }
}

#[cfg(test)]
mod tests {
    use super::template_id;

    #[test]
    fn the_template_reads_one_id() {
        assert_eq!(template_id("test://template/123/data"), Some("123"));
        assert_eq!(template_id("test://template//data"), None);
        assert_eq!(template_id("test://template/1/2/data"), None);
        assert_eq!(template_id("test://static-text"), None);
    }
}
