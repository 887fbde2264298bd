//! `Package::call_json`: the JSON-in/JSON-out entry a WASM host shim calls.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::session::SessionWire;
use super::{Approval, AskReason, Package, SessionContext};
use crate::result::ToolResult;

/// A request to [`Package::call_json`]. The arguments stay text, borrowed from the
/// request: a call parses them after the gate, sized for the tool (`dispatch_text`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Request<'a> {
    #[serde(default)]
    pub(crate) op: Op,
    #[serde(default)]
    name: Option<String>,
    #[serde(default, borrow)]
    arguments: Option<&'a RawValue>,
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
pub(crate) fn parse(request: &str) -> Result<Request<'_>, String> {
    serde_json::from_str(request).map_err(|e| error(format!("malformed request: {e}")))
}

/// What the model reads of a result ([`ToolResult::for_model`]), serialized in place.
#[derive(Serialize)]
struct ForModel<'a> {
    content: &'a crate::result::Content,
    #[serde(rename = "isError", skip_serializing_if = "std::ops::Not::not")]
    is_error: bool,
}

/// The response to a `call`: what the model reads and the whole bounded result,
/// `{"model": ..., "ui": ...}`, written straight from the result (no copy of its
/// content): the blocks' `_meta` are set aside while the model's half is written.
pub(crate) fn call_response(mut result: ToolResult) -> String {
    use crate::result::{Content, ContentBlock};
    type Meta = Option<serde_json::Map<String, Value>>;
    /// A block's `_meta` and, for a resource, its contents' `_meta`.
    fn metas(block: &mut ContentBlock) -> (&mut Meta, Option<&mut Meta>) {
        match block {
            ContentBlock::Text(t) => (&mut t.meta, None),
            ContentBlock::Image(x) | ContentBlock::Audio(x) => (&mut x.meta, None),
            ContentBlock::Resource(r) => (&mut r.meta, Some(&mut r.resource.meta)),
        }
    }
    let mut saved: Vec<(Meta, Meta)> = Vec::new();
    if let Content::Blocks(blocks) = &mut result.content {
        saved.reserve(blocks.len());
        for block in blocks.iter_mut() {
            let (own, inner) = metas(block);
            saved.push((own.take(), inner.and_then(Option::take)));
        }
    }
    let mut out = Vec::with_capacity(256);
    out.extend_from_slice(b"{\"model\":");
    let model = ForModel {
        content: &result.content,
        is_error: result.is_error,
    };
    let wrote = serde_json::to_writer(&mut out, &model);
    if let Content::Blocks(blocks) = &mut result.content {
        for (block, (own, inner)) in blocks.iter_mut().zip(saved) {
            let (own_slot, inner_slot) = metas(block);
            *own_slot = own;
            if let Some(slot) = inner_slot {
                *slot = inner;
            }
        }
    }
    out.extend_from_slice(b",\"ui\":");
    let wrote = wrote.and_then(|()| serde_json::to_writer(&mut out, &result));
    out.push(b'}');
    match wrote.map(|()| String::from_utf8(out)) {
        Ok(Ok(text)) => text,
        // Neither can happen for a result (string keys, valid UTF-8); say so if it did.
        _ => error("the result could not be written as JSON"),
    }
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
    pub(crate) fn answer(&self, request: Request<'_>) -> String {
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
                let arguments = request.arguments.map_or("", RawValue::get);
                if let Op::Approval = request.op {
                    let arguments = match arguments {
                        "" => Value::Null,
                        text => serde_json::from_str(text).unwrap_or(Value::Null),
                    };
                    return approval_json(self, &name, &arguments, &session);
                }
                call_response(self.dispatch_text_blocking(&name, arguments, &session))
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

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use super::call_response;
    use crate::result::{Content, ContentBlock, ToolResult};

    fn meta(tag: &str) -> Option<Map<String, Value>> {
        json!({ "neuralis": { "tag": tag } }).as_object().cloned()
    }

    /// The response written in place is `{"model": for_model(), "ui": for_ui()}`, the
    /// blocks' `_meta` left out of the model's half only.
    #[test]
    fn the_call_response_is_the_model_and_the_ui_views() {
        let mut text = ContentBlock::text("hello");
        let mut image = ContentBlock::image("iVBORw0KGgo=", "image/png");
        let mut resource =
            ContentBlock::resource_text("file:///a.txt", Some("text/plain".into()), "a");
        if let ContentBlock::Text(t) = &mut text {
            t.meta = meta("text");
        }
        if let ContentBlock::Image(x) = &mut image {
            x.meta = meta("image");
        }
        if let ContentBlock::Resource(r) = &mut resource {
            r.meta = meta("block");
            r.resource.meta = meta("resource");
        }
        let blocks = ToolResult::from_blocks(vec![text, image, resource])
            .with_structured(json!({"ok": true}))
            .with_neuralis_meta("bound", json!(true));
        let mut failed = ToolResult::error("no such city");
        failed.content = Content::Text("no such city".into());
        for result in [
            blocks,
            failed,
            ToolResult::text("plain"),
            ToolResult::default(),
        ] {
            let written: Value =
                serde_json::from_str(&call_response(result.clone())).expect("JSON");
            assert_eq!(
                written,
                json!({"model": result.for_model(), "ui": result.for_ui()}),
                "{result:?}"
            );
        }
    }
}
