//! `Package::call_json`: the JSON-in/JSON-out entry a WASM host shim calls.

use serde::Deserialize;
use serde_json::{Value, json};

use super::session::SessionWire;
use super::{Approval, AskReason, Package, SessionContext};
use crate::result::ToolResult;

/// A request to [`Package::call_json`].
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Request {
    #[serde(default)]
    pub(crate) op: Op,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Value,
    session: SessionWire,
}

/// What a request asks for.
#[derive(Deserialize, Default, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Op {
    #[default]
    Call,
    Catalog,
    Approval,
}

/// The response to a request that is not one: `{ "error": ... }`.
pub(crate) fn error(message: impl Into<String>) -> String {
    json!({ "error": message.into() }).to_string()
}

/// Reads a request, or gives the `{ "error": ... }` response to it.
pub(crate) fn parse(request: &str) -> Result<Request, String> {
    serde_json::from_str(request).map_err(|e| error(format!("malformed request: {e}")))
}

/// The response to a `call`: what the model reads and the whole bounded result.
pub(crate) fn call_response(result: &ToolResult) -> String {
    json!({ "model": result.for_model(), "ui": result.for_ui() }).to_string()
}

impl Package {
    /// The JSON-in/JSON-out entry for a host shim (a WASM module's export): one request
    /// object in, one response object out, both as JSON text. Sync: the call is driven by
    /// [`dispatch_blocking`](Self::dispatch_blocking), with no abort signal.
    ///
    /// The request:
    ///
    /// ```json
    /// { "op": "call", "name": "greet", "arguments": { "name": "Ada" },
    ///   "session": { "userId": "user-1", "grantedFeatures": ["greet.use"] } }
    /// ```
    ///
    /// - `op`: `call` (the default), `catalog` or `approval`;
    /// - `name`, `arguments`: the tool and its arguments (`call`, `approval`; absent
    ///   arguments read as `{}`);
    /// - `session`: the caller's verified session, the host's side of the request, with
    ///   the platform's field names (`userId` required; `projectId`, `agentId`,
    ///   `conversationId`, `requestId`, `toolUseId`, `delegateRunId`, `delegateMode`,
    ///   `role`, `priority` strings; `grantedFeatures` strings; `llmRateLimitRpm` an
    ///   integer; `spendLimits`, `agentAccess`, `agentOwnership`, `session` any JSON).
    ///   Unknown keys are refused.
    ///
    /// The response:
    ///
    /// - `call`: `{ "model": <what the model reads>, "ui": <the whole bounded result> }`
    ///   (see [`ToolResult::for_model`](crate::result::ToolResult::for_model) and
    ///   [`for_ui`](crate::result::ToolResult::for_ui)); an unknown or not-granted tool,
    ///   invalid arguments and failures are `isError` results there;
    /// - `catalog`: `{ "tools": [ { "name", "schema", "meta", "outputSchema"? }, ... ] }`,
    ///   the tools the session may see (`outputSchema` when the tool declares one);
    /// - `approval`: `{ "approval": "ask", "reason": "category-unknown" }`,
    ///   `{ "approval": "ask", "reason": "ask-on-keys", "keys": [...] }`,
    ///   `{ "approval": "floor", "category": "write" }`, or for a tool that is unknown or
    ///   not granted `{ "refused": <the generic refusal> }`;
    /// - a request that is not one of these: `{ "error": <what is wrong> }` (a bug in the
    ///   shim, never shown to the model).
    ///
    /// ```
    /// use neuralis_core::dispatch::{Package, sync_fn};
    /// use serde_json::{Value, json};
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
    /// let out = package.call_json(r#"{"name":"echo","arguments":{"text":"hi"},"session":{"userId":"u"}}"#);
    /// let out: Value = serde_json::from_str(&out).expect("json");
    /// assert_eq!(out["model"], json!({"content": [{"type": "text", "text": "hi"}]}));
    /// ```
    #[must_use]
    pub fn call_json(&self, request: &str) -> String {
        match parse(request) {
            Ok(request) => self.answer(request),
            Err(error) => error,
        }
    }

    /// The response to a parsed request (see [`call_json`](Self::call_json)).
    pub(crate) fn answer(&self, request: Request) -> String {
        let session = request.session.into_session();
        match request.op {
            Op::Catalog => {
                let tools: Vec<Value> = self
                    .catalog(&session)
                    .map(|entry| {
                        let mut tool = serde_json::to_value(entry).unwrap_or(Value::Null);
                        if let (Value::Object(map), Some(output)) =
                            (&mut tool, self.output_schema(&entry.name))
                        {
                            map.insert("outputSchema".into(), output.clone());
                        }
                        tool
                    })
                    .collect();
                json!({ "tools": tools }).to_string()
            }
            Op::Call | Op::Approval => {
                let Some(name) = request.name else {
                    return error("malformed request: missing field `name`");
                };
                if let Op::Approval = request.op {
                    return approval_json(self, &name, &request.arguments, &session);
                }
                call_response(&self.dispatch_blocking(&name, request.arguments, &session))
            }
        }
    }
}

fn approval_json(package: &Package, name: &str, args: &Value, session: &SessionContext) -> String {
    let out = match package.approval(name, args, session) {
        Ok(Approval::Ask(AskReason::UnknownCategory)) => {
            json!({ "approval": "ask", "reason": "category-unknown" })
        }
        Ok(Approval::Ask(AskReason::Keys(keys))) => {
            json!({ "approval": "ask", "reason": "ask-on-keys", "keys": keys })
        }
        Ok(Approval::Floor(category)) => {
            json!({ "approval": "floor", "category": category.as_str() })
        }
        Err(refusal) => json!({ "refused": refusal.to_string() }),
    };
    out.to_string()
}
