//! A call's questions on the wire: what each [`Question`] is as an MCP request
//! (`elicitation/create`, `sampling/createMessage`, `roots/list`), how a client's answer
//! reads back, and the asker of the session eras (before 2026-07-28), which sends the
//! request to the client through rmcp's [`Peer`] while the handler waits. The 2026-07-28
//! asker, which answers with an `InputRequiredResult` instead, is in `rounds`.

use neuralis_core::dispatch::{
    Answer, AskError, Asker, BoxFuture, Capability, Elicited, Question, Role, Root, Sampled,
};
use rmcp::model::{ClientCapabilities, InputRequest, ServerRequest};
use rmcp::service::Peer;
use rmcp::{RoleServer, ServiceError};
use serde_json::{Map, Value, json};

/// Whether `capabilities` (the client's, as declared) include `capability`.
pub(crate) fn declared(capabilities: Option<&ClientCapabilities>, capability: Capability) -> bool {
    let Some(c) = capabilities else {
        return false;
    };
    #[allow(
        deprecated,
        reason = "sampling and roots are deprecated by SEP-2577, not removed: 2026-07-28 still has them"
    )]
    match capability {
        Capability::Elicitation => c.elicitation.is_some(),
        Capability::Sampling => c.sampling.is_some(),
        Capability::Roots => c.roots.is_some(),
        _ => false,
    }
}

/// The client capabilities a question needs, as `-32021`'s `requiredCapabilities` names
/// them (`{"sampling": {}}`).
pub(crate) fn required(capabilities: &[Capability]) -> ClientCapabilities {
    let mut object = Map::new();
    for c in capabilities {
        object.insert(c.as_str().to_owned(), json!({}));
    }
    serde_json::from_value(Value::Object(object)).unwrap_or_default()
}

/// The question as an MCP request: `{"method": .., "params": ..}`.
pub(crate) fn request_json(question: &Question) -> Value {
    match question {
        Question::Approve(a) => json!({
            "method": "elicitation/create",
            "params": a.form.to_json(),
        }),
        Question::Elicit(f) => json!({
            "method": "elicitation/create",
            "params": f.to_json(),
        }),
        Question::Sample(s) => json!({"method": "sampling/createMessage", "params": s.to_json()}),
        _ => json!({"method": "roots/list", "params": {}}),
    }
}

/// The question in rmcp's model (an `InputRequiredResult`'s entry, or, converted, the
/// request of a session era).
///
/// # Errors
///
/// A form whose schema rmcp's elicitation model does not read (nested objects, an
/// unknown `format`...): the reason.
pub(crate) fn input_request(question: &Question) -> Result<InputRequest, AskError> {
    serde_json::from_value(request_json(question)).map_err(|e| {
        AskError::Failed(format!(
            "the question is not one MCP can carry (a form's schema must be an object of primitive properties): {e}"
        ))
    })
}

/// The client's `answer` to `question`.
///
/// # Errors
///
/// An answer that does not read as one to this question: the reason.
pub(crate) fn read_answer(question: &Question, answer: &Value) -> Result<Answer, String> {
    match question {
        Question::Approve(_) | Question::Elicit(_) => read_elicited(answer).map(Answer::Elicit),
        Question::Sample(_) => read_sampled(answer).map(Answer::Sample),
        _ => read_roots(answer).map(Answer::Roots),
    }
}

/// An answer as the client's result that [`read_answer`] reads back to it: what a task
/// keeps of an answer given within the call's request.
pub(crate) fn answer_json(answer: &Answer) -> Value {
    match answer {
        Answer::Elicit(Elicited::Accept(content)) => {
            json!({"action": "accept", "content": content})
        }
        Answer::Elicit(other) => json!({"action": other.action()}),
        Answer::Sample(s) => {
            let mut v = json!({
                "role": s.role.as_str(),
                "content": {"type": "text", "text": s.text},
                "model": s.model,
            });
            if let Some(reason) = &s.stop_reason {
                v["stopReason"] = json!(reason);
            }
            v
        }
        Answer::Roots(roots) => json!({
            "roots": roots
                .iter()
                .map(|r| match &r.name {
                    Some(name) => json!({"uri": r.uri, "name": name}),
                    None => json!({"uri": r.uri}),
                })
                .collect::<Vec<_>>(),
        }),
        _ => Value::Null,
    }
}

fn read_elicited(answer: &Value) -> Result<Elicited, String> {
    let object = answer
        .as_object()
        .ok_or("an elicitation result is an object")?;
    match object.get("action").and_then(Value::as_str) {
        Some("accept") => match object.get("content") {
            None | Some(Value::Null) => Ok(Elicited::Accept(Map::new())),
            Some(Value::Object(content)) => Ok(Elicited::Accept(content.clone())),
            Some(_) => Err("an accepted elicitation's `content` is an object".into()),
        },
        Some("decline") => Ok(Elicited::Decline),
        Some("cancel") => Ok(Elicited::Cancel),
        _ => Err("an elicitation result's `action` is `accept`, `decline` or `cancel`".into()),
    }
}

fn read_sampled(answer: &Value) -> Result<Sampled, String> {
    let object = answer.as_object().ok_or("a sampling result is an object")?;
    let role = match object.get("role").and_then(Value::as_str) {
        Some("assistant") => Role::Assistant,
        Some("user") => Role::User,
        _ => return Err("a sampling result's `role` is `assistant` or `user`".into()),
    };
    // One content block, or (2025-11-25) an array of them: the text of the text blocks.
    let blocks: Vec<&Value> = match object.get("content") {
        Some(Value::Array(blocks)) => blocks.iter().collect(),
        Some(block @ Value::Object(_)) => vec![block],
        _ => return Err("a sampling result has `content`".into()),
    };
    let text = blocks
        .iter()
        .filter(|b| b["type"] == "text")
        .filter_map(|b| b["text"].as_str())
        .collect::<Vec<_>>()
        .join("");
    let model = object
        .get("model")
        .and_then(Value::as_str)
        .ok_or("a sampling result names its `model`")?
        .to_owned();
    let stop_reason = object
        .get("stopReason")
        .and_then(Value::as_str)
        .map(str::to_owned);
    Ok(Sampled {
        role,
        text,
        model,
        stop_reason,
    })
}

fn read_roots(answer: &Value) -> Result<Vec<Root>, String> {
    let roots = answer
        .get("roots")
        .and_then(Value::as_array)
        .ok_or("a roots result has a `roots` array")?;
    roots
        .iter()
        .map(|r| {
            let uri = r
                .get("uri")
                .and_then(Value::as_str)
                .ok_or("every root has a `uri`")?;
            Ok(Root {
                uri: uri.to_owned(),
                name: r.get("name").and_then(Value::as_str).map(str::to_owned),
            })
        })
        .collect()
}

/// The asker of a call on a session era: each question a request to the client, sent
/// while the handler waits, when the client declared the capability it needs.
pub(crate) struct PeerAsker {
    pub(crate) peer: Peer<RoleServer>,
    pub(crate) capabilities: Option<ClientCapabilities>,
}

impl Asker for PeerAsker {
    fn ask<'a>(
        &'a self,
        _key: &'a str,
        question: Question,
    ) -> BoxFuture<'a, Result<Answer, AskError>> {
        Box::pin(async move {
            question.supported_by(|c| self.supports(c))?;
            let request = match input_request(&question)? {
                InputRequest::Elicitation(r) => ServerRequest::ElicitRequest(r),
                InputRequest::CreateMessage(r) => ServerRequest::CreateMessageRequest(r),
                InputRequest::ListRoots(r) => ServerRequest::ListRootsRequest(r),
                _ => return Err(AskError::Failed("a question MCP has no request for".into())),
            };
            let answer = self.peer.send_request(request).await.map_err(|e| match e {
                ServiceError::McpError(e) => AskError::Failed(format!(
                    "the client answered with error {}: {}",
                    e.code.0, e.message
                )),
                other => AskError::Failed(format!("the client did not answer: {other}")),
            })?;
            let answer = serde_json::to_value(answer)
                .map_err(|e| AskError::Failed(format!("the answer does not read: {e}")))?;
            read_answer(&question, &answer).map_err(AskError::Failed)
        })
    }

    fn supports(&self, capability: Capability) -> bool {
        declared(self.capabilities.as_ref(), capability)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use neuralis_core::dispatch::{ApprovalRequest, AskReason, Form, SamplingRequest};

    #[test]
    fn an_answer_kept_as_json_reads_back_as_itself() {
        let form = Question::Elicit(Form::new(
            "Who?",
            json!({"type": "object", "properties": {}}),
        ));
        let sample = Question::Sample(SamplingRequest::user("Hi", 10));
        let cases = [
            (
                &form,
                json!({"action": "accept", "content": {"name": "Ada", "n": 2}}),
            ),
            (&form, json!({"action": "decline"})),
            (&form, json!({"action": "cancel"})),
            (
                &sample,
                json!({"role": "assistant", "content": {"type": "text", "text": "hello"}, "model": "m", "stopReason": "endTurn"}),
            ),
            (
                &sample,
                json!({"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "model": "m"}),
            ),
            (
                &Question::Roots,
                json!({"roots": [{"uri": "file:///a", "name": "a"}, {"uri": "file:///b"}]}),
            ),
        ];
        for (question, wire) in cases {
            let answer = read_answer(question, &wire).expect("reads");
            let kept = answer_json(&answer);
            assert_eq!(
                read_answer(question, &kept).expect("reads back"),
                answer,
                "{wire}"
            );
        }
    }

    #[test]
    fn every_question_is_an_mcp_request_rmcp_reads() {
        let approve = Question::Approve(ApprovalRequest::new(
            "notes_write",
            AskReason::Keys(vec!["delete".into()]),
        ));
        let form = Question::Elicit(Form::new(
            "Who?",
            json!({"type": "object", "properties": {"name": {"type": "string", "format": "email"}},
                   "required": ["name"]}),
        ));
        let sample = Question::Sample(SamplingRequest::user("Hi", 10));
        for (question, method) in [
            (approve, "elicitation/create"),
            (form, "elicitation/create"),
            (sample, "sampling/createMessage"),
            (Question::Roots, "roots/list"),
        ] {
            let request = input_request(&question).expect("reads");
            let wire = serde_json::to_value(&request).expect("writes");
            assert_eq!(wire["method"], method, "{wire}");
        }
        let nested = Question::Elicit(Form::new(
            "x",
            json!({"type": "object", "properties": {"a": {"type": "object"}}}),
        ));
        assert!(input_request(&nested).is_err());
    }

    /// The conformance suite's forms (SEP-1034 defaults, SEP-1330 enums) go out as they
    /// were written: rmcp's typed elicitation schema keeps every keyword of theirs.
    #[test]
    fn forms_with_defaults_and_every_enum_kind_go_out_unchanged() {
        let schemas = [
            json!({"type": "object", "properties": {
                "name": {"type": "string", "default": "John Doe"},
                "age": {"type": "integer", "default": 30},
                "score": {"type": "number", "default": 95.5},
                "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
                "verified": {"type": "boolean", "default": true}
            }}),
            json!({"type": "object", "properties": {
                "untitledSingle": {"type": "string", "enum": ["option1", "option2"]},
                "titledSingle": {"type": "string", "oneOf": [
                    {"const": "value1", "title": "First Option"},
                    {"const": "value2", "title": "Second Option"}]},
                "legacyEnum": {"type": "string", "enum": ["opt1", "opt2"],
                    "enumNames": ["Option One", "Option Two"]},
                "untitledMulti": {"type": "array",
                    "items": {"type": "string", "enum": ["option1", "option2"]}},
                "titledMulti": {"type": "array", "items": {"anyOf": [
                    {"const": "value1", "title": "First Choice"},
                    {"const": "value2", "title": "Second Choice"}]}}
            }, "required": ["untitledSingle"]}),
        ];
        for schema in schemas {
            let question = Question::Elicit(Form::new("x", schema.clone()));
            let wire =
                serde_json::to_value(input_request(&question).expect("reads")).expect("writes");
            assert_eq!(wire["params"]["requestedSchema"], schema, "{wire}");
        }
    }

    #[test]
    fn answers_read_back_by_the_question_they_answer() {
        let form = Question::Elicit(Form::new("x", json!({"type": "object", "properties": {}})));
        assert_eq!(
            read_answer(&form, &json!({"action": "accept", "content": {"a": 1}})),
            Ok(Answer::Elicit(Elicited::Accept(
                json!({"a": 1}).as_object().cloned().expect("object")
            )))
        );
        assert_eq!(
            read_answer(&form, &json!({"action": "decline"})),
            Ok(Answer::Elicit(Elicited::Decline))
        );
        assert!(read_answer(&form, &json!(12345)).is_err());
        assert!(read_answer(&form, &json!({"action": "maybe"})).is_err());
        let sample = Question::Sample(SamplingRequest::user("Hi", 10));
        let Ok(Answer::Sample(s)) = read_answer(
            &sample,
            &json!({"role": "assistant", "content": {"type": "text", "text": "Paris"},
                    "model": "m", "stopReason": "endTurn"}),
        ) else {
            panic!("a completion");
        };
        assert_eq!((s.text.as_str(), s.model.as_str()), ("Paris", "m"));
        assert_eq!(
            read_answer(
                &Question::Roots,
                &json!({"roots": [{"uri": "file:///r", "name": "R"}]})
            ),
            Ok(Answer::Roots(vec![Root {
                uri: "file:///r".into(),
                name: Some("R".into())
            }]))
        );
        assert!(read_answer(&Question::Roots, &json!({"roots": [{}]})).is_err());
    }

    #[test]
    fn required_capabilities_are_an_object_keyed_by_capability() {
        let caps = required(&[Capability::Sampling]);
        assert_eq!(
            serde_json::to_value(&caps).expect("writes"),
            json!({"sampling": {}})
        );
        assert!(declared(Some(&caps), Capability::Sampling));
        assert!(!declared(Some(&caps), Capability::Elicitation));
        assert!(!declared(None, Capability::Roots));
    }
}
