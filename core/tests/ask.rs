//! The approval gate (each [`ApprovalPolicy`]) and the handler's asking methods, through
//! a recording [`Asker`].
#![allow(clippy::unwrap_used, reason = "tests")]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use neuralis_core::dispatch::{
    AbortController, Answer, ApprovalPolicy, AskError, AskReason, Asker, BoxFuture, CallOptions,
    Capability, ElicitForm, Elicited, Form, Package, Question, Role, Root, Sampled,
    SamplingRequest, SessionContext, ToolContext, async_fn_cx, block_on, sync_fn, sync_fn_cx,
};
use neuralis_core::input::{Composer, ToolInput};
use neuralis_core::result::ToolResult;
use serde::Deserialize;
use serde_json::{Value, json};

fn tool(properties: Value, xn: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "type": "object",
        "additionalProperties": false,
        "description": "A test tool.",
        "properties": properties,
        "required": ["key"],
        "x-neuralis": xn,
    }))
    .unwrap()
}

#[derive(Deserialize)]
struct Purge {
    key: String,
}

/// A package of `purge` (asks on `force`), `imported` (category `unknown`) and `ask`
/// (a handler given by the test); `runs` counts the handler runs of the first two.
fn package(runs: &Arc<AtomicUsize>, ask: impl neuralis_core::dispatch::Handler) -> Package {
    let props = json!({"key": {"type": "string"}, "force": {"type": "boolean"}, "count": {"type": "integer"}});
    let (r1, r2) = (Arc::clone(runs), Arc::clone(runs));
    Package::builder()
        .tool(
            "purge",
            tool(
                props.clone(),
                json!({"annotations": {"category": "write", "destructiveHint": true}, "askOnKeys": ["force"],
                       "defaults": {"force": false, "count": 1}}),
            ),
            sync_fn(move |p: Purge| {
                r1.fetch_add(1, Ordering::SeqCst);
                format!("purged {}", p.key)
            }),
        )
        .tool(
            "imported",
            tool(props.clone(), json!({"annotations": {"category": "unknown"}})),
            sync_fn(move |p: Purge| {
                r2.fetch_add(1, Ordering::SeqCst);
                format!("ran {}", p.key)
            }),
        )
        .tool(
            "ask",
            tool(props, json!({"annotations": {"category": "read"}})),
            ask,
        )
        .build()
        .unwrap()
}

fn no_handler() -> impl neuralis_core::dispatch::Handler {
    sync_fn(|_: Value| "unused")
}

/// Answers from a script, in order, and records every question.
#[derive(Clone, Default)]
struct Script {
    answers: Arc<Mutex<Vec<Result<Answer, AskError>>>>,
    asked: Arc<Mutex<Vec<Question>>>,
    keys: Arc<Mutex<Vec<String>>>,
}

impl Script {
    fn new(answers: Vec<Result<Answer, AskError>>) -> Self {
        let mut answers = answers;
        answers.reverse();
        Self {
            answers: Arc::new(Mutex::new(answers)),
            asked: Arc::default(),
            keys: Arc::default(),
        }
    }
    fn asked(&self) -> Vec<Question> {
        self.asked.lock().unwrap().clone()
    }
    fn keys(&self) -> Vec<String> {
        self.keys.lock().unwrap().clone()
    }
}

impl Asker for Script {
    fn ask<'a>(
        &'a self,
        key: &'a str,
        question: Question,
    ) -> BoxFuture<'a, Result<Answer, AskError>> {
        self.keys.lock().unwrap().push(key.to_owned());
        self.asked.lock().unwrap().push(question);
        let answer = self
            .answers
            .lock()
            .unwrap()
            .pop()
            .unwrap_or(Err(AskError::Failed("the script ran out".into())));
        Box::pin(async move { answer })
    }
}

fn accept(content: Value) -> Result<Answer, AskError> {
    Ok(Answer::Elicit(Elicited::Accept(
        content.as_object().cloned().unwrap_or_default(),
    )))
}

fn session() -> SessionContext {
    SessionContext::builder("u").build()
}

fn call(p: &Package, name: &str, args: Value, options: CallOptions) -> ToolResult {
    block_on(p.dispatch_with(name, args, &session(), options)).unwrap()
}

fn text(r: &ToolResult) -> String {
    r.for_model()["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn ask(script: &Script) -> CallOptions {
    CallOptions::new()
        .approval(ApprovalPolicy::Ask)
        .asker(script.clone())
}

#[test]
fn a_confirm_runs_the_call_after_one_question_naming_the_tool_and_keys() {
    let runs = Arc::default();
    let p = package(&runs, no_handler());
    let script = Script::new(vec![accept(json!({}))]);
    let r = call(
        &p,
        "purge",
        json!({"key": "k", "force": true}),
        ask(&script),
    );
    assert!(!r.is_error, "{:?}", r.for_model());
    assert_eq!(text(&r), "purged k");
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    let asked = script.asked();
    assert_eq!(asked.len(), 1);
    let Question::Approve(request) = &asked[0] else {
        panic!("not an approval: {asked:?}");
    };
    assert_eq!(request.tool, "purge");
    assert_eq!(request.keys(), ["force"]);
    assert!(request.form.message.contains("`purge`"));
    assert!(request.form.message.contains("`force`"));
    assert_eq!(asked[0].capability(), Capability::Elicitation);
    assert_eq!(script.keys(), [neuralis_core::dispatch::APPROVAL_KEY]);
}

#[test]
fn declined_cancelled_or_unanswered_the_handler_never_runs() {
    let runs = Arc::<AtomicUsize>::default();
    let p = package(&runs, no_handler());
    let args = json!({"key": "k", "force": false});
    for (answer, outcome) in [
        (Ok(Answer::Elicit(Elicited::Decline)), "declined"),
        (Ok(Answer::Elicit(Elicited::Cancel)), "cancelled"),
        (
            Err(AskError::Unsupported(Capability::Elicitation)),
            "unconfirmed",
        ),
        (Ok(Answer::Roots(Vec::new())), "unconfirmed"),
    ] {
        let script = Script::new(vec![answer]);
        let r = call(&p, "purge", args.clone(), ask(&script));
        assert!(r.is_error);
        assert!(
            text(&r).starts_with(
                "the call of `purge` needs approval (it sends `force`) and was not run"
            ),
            "{}",
            text(&r)
        );
        assert_eq!(r.structured_content.as_ref().unwrap()["outcome"], outcome);
        assert_eq!(
            r.structured_content.as_ref().unwrap()["error"],
            "approval-required"
        );
    }
    // No asker at all.
    let r = call(
        &p,
        "purge",
        args.clone(),
        CallOptions::new().approval(ApprovalPolicy::Ask),
    );
    assert!(r.is_error);
    assert!(text(&r).contains("nobody could confirm it"), "{}", text(&r));
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn refuse_asks_nobody_trust_and_host_run_unasked() {
    let runs = Arc::<AtomicUsize>::default();
    let p = package(&runs, no_handler());
    let args = json!({"key": "k", "force": true});
    let script = Script::new(Vec::new());
    let refused = call(
        &p,
        "purge",
        args.clone(),
        CallOptions::new()
            .approval(ApprovalPolicy::Refuse)
            .asker(script.clone()),
    );
    assert!(refused.is_error);
    assert_eq!(
        refused.structured_content.as_ref().unwrap()["outcome"],
        "refused"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    for policy in [ApprovalPolicy::Trust, ApprovalPolicy::Host] {
        let r = call(
            &p,
            "purge",
            args.clone(),
            CallOptions::new().approval(policy).asker(script.clone()),
        );
        assert_eq!(text(&r), "purged k");
    }
    // The default is `Host`: the plain pipeline gates nothing, as before.
    assert_eq!(
        text(&p.dispatch_blocking("purge", args, &session())),
        "purged k"
    );
    assert!(script.asked().is_empty());
    assert_eq!(runs.load(Ordering::SeqCst), 3);
}

#[test]
fn defaults_do_not_count_as_sent_and_unknown_always_asks() {
    let runs = Arc::<AtomicUsize>::default();
    let p = package(&runs, no_handler());
    let script = Script::new(vec![Ok(Answer::Elicit(Elicited::Decline))]);
    // `force` has a default but was not sent: no question.
    assert_eq!(
        text(&call(&p, "purge", json!({"key": "k"}), ask(&script))),
        "purged k"
    );
    assert!(script.asked().is_empty());
    let r = call(&p, "imported", json!({"key": "k"}), ask(&script));
    assert!(r.is_error);
    assert!(text(&r).contains("category `unknown`"), "{}", text(&r));
    let Question::Approve(request) = &script.asked()[0] else {
        panic!("not an approval");
    };
    assert_eq!(request.reason, AskReason::UnknownCategory);
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[test]
fn invalid_arguments_are_refused_before_anybody_is_asked() {
    let runs = Arc::<AtomicUsize>::default();
    let p = package(&runs, no_handler());
    let script = Script::new(vec![accept(json!({}))]);
    let r = call(&p, "purge", json!({"key": 1, "force": true}), ask(&script));
    assert!(r.is_error);
    assert!(text(&r).starts_with("invalid arguments"), "{}", text(&r));
    assert!(script.asked().is_empty());
}

#[test]
fn a_run_aborted_while_it_waits_for_a_person_ends_unrun() {
    /// Never answers.
    struct Silent;
    impl Asker for Silent {
        fn ask<'a>(&'a self, _: &'a str, _: Question) -> BoxFuture<'a, Result<Answer, AskError>> {
            Box::pin(std::future::pending())
        }
    }
    let runs = Arc::<AtomicUsize>::default();
    let p = package(&runs, no_handler());
    let controller = AbortController::new();
    let options = CallOptions::new()
        .approval(ApprovalPolicy::Ask)
        .asker(Silent)
        .abort(controller.signal());
    let session = session();
    let call = p.dispatch_with(
        "purge",
        json!({"key": "k", "force": true}),
        &session,
        options,
    );
    let aborter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(30));
        controller.abort();
    });
    let r = block_on(call).unwrap();
    aborter.join().unwrap();
    assert!(r.is_error);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

// ---- handlers that ask ----

#[derive(Deserialize, Debug, PartialEq)]
struct Reviewer {
    name: String,
    urgent: bool,
}

impl ToolInput for Reviewer {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Reviewer".into()
    }
    fn schema_in(_: &mut Composer) -> Value {
        json!({
            "type": "object", "additionalProperties": false,
            "properties": {"name": {"type": "string"}, "urgent": {"type": "boolean"}},
            "required": ["name", "urgent"]
        })
    }
}

impl ElicitForm for Reviewer {}

#[test]
fn elicit_sends_the_types_form_and_types_the_answer() {
    async fn handler(_: Value, cx: &ToolContext) -> String {
        match cx.elicit::<Reviewer>("reviewer", "Who reviews?").await {
            Ok(Elicited::Accept(r)) => format!("{} {}", r.name, r.urgent),
            Ok(other) => other.action().to_owned(),
            Err(e) => format!("error: {e}"),
        }
    }
    let p = package(&Arc::default(), async_fn_cx(handler));
    let script = Script::new(vec![
        accept(json!({"name": "Ada", "urgent": true})),
        Ok(Answer::Elicit(Elicited::Decline)),
        accept(json!({"name": 3})),
    ]);
    let run = || text(&call(&p, "ask", json!({"key": "k"}), ask(&script)));
    assert_eq!(run(), "Ada true");
    assert_eq!(run(), "decline");
    assert!(
        run().starts_with(
            "error: the question got no usable answer: the form's content does not fit"
        )
    );
    let Question::Elicit(form) = &script.asked()[0] else {
        panic!("not a form");
    };
    assert_eq!(form.message, "Who reviews?");
    // The form: the type's schema without what is the contract's.
    assert_eq!(
        form.schema,
        json!({"type": "object",
               "properties": {"name": {"type": "string"}, "urgent": {"type": "boolean"}},
               "required": ["name", "urgent"]})
    );
}

#[test]
fn sampling_roots_and_confirm_go_through_the_asker() {
    async fn handler(_: Value, cx: &ToolContext) -> String {
        let sampled = cx
            .sample("capital", SamplingRequest::user("Capital of France?", 50))
            .await
            .map(|s| s.text);
        let roots = cx
            .roots("roots")
            .await
            .map(|r| r.into_iter().map(|r| r.uri).collect::<Vec<_>>());
        let confirmed = cx.confirm("go", "Go on?").await;
        format!("{sampled:?} {roots:?} {confirmed:?}")
    }
    let p = package(&Arc::default(), async_fn_cx(handler));
    let script = Script::new(vec![
        Ok(Answer::Sample(Sampled {
            role: Role::Assistant,
            text: "Paris".into(),
            model: "m".into(),
            stop_reason: None,
        })),
        Ok(Answer::Roots(vec![Root {
            uri: "file:///w".into(),
            name: None,
        }])),
        Ok(Answer::Elicit(Elicited::Cancel)),
    ]);
    let r = call(&p, "ask", json!({"key": "k"}), ask(&script));
    assert_eq!(text(&r), r#"Ok("Paris") Ok(["file:///w"]) Ok(false)"#);
    let asked = script.asked();
    assert_eq!(
        asked.iter().map(Question::capability).collect::<Vec<_>>(),
        [
            Capability::Sampling,
            Capability::Roots,
            Capability::Elicitation
        ]
    );
    assert_eq!(
        asked[0].to_json()["sample"]["messages"][0]["content"]["text"],
        "Capital of France?"
    );
}

#[test]
fn two_asks_joined_are_both_put_and_both_answered() {
    async fn handler(_: Value, cx: &ToolContext) -> String {
        let first = cx.confirm("first", "first?");
        let second = cx.elicit_form(
            "second",
            Form::new("second?", json!({"type": "object", "properties": {}})),
        );
        // Joined by hand (no runtime here): both asked before either is awaited.
        let (a, b) = (first.await, second.await);
        format!("{a:?} {:?}", b.map(|e| e.action()))
    }
    let p = package(&Arc::default(), async_fn_cx(handler));
    let script = Script::new(vec![
        accept(json!({})),
        Ok(Answer::Elicit(Elicited::Decline)),
    ]);
    assert_eq!(
        text(&call(&p, "ask", json!({"key": "k"}), ask(&script))),
        r#"Ok(true) Ok("decline")"#
    );
    assert_eq!(script.keys(), ["first", "second"]);
}

#[test]
fn without_an_asker_every_question_is_an_error_the_handler_can_handle() {
    let handler = sync_fn_cx(|_: Value, cx: &ToolContext| {
        let answer = block_on(cx.confirm("sure", "sure?")).unwrap();
        match answer {
            Err(AskError::NoAsker) => "nobody to ask".to_owned(),
            other => format!("{other:?}"),
        }
    });
    let p = package(&Arc::default(), handler);
    assert!(!ToolContext::new("t", session()).supports(Capability::Elicitation));
    assert!(
        ToolContext::new("t", session())
            .with_asker(Script::default())
            .supports(Capability::Roots)
    );
    // The plain pipeline and `CallOptions::new()` give no asker.
    assert_eq!(
        text(&p.dispatch_blocking("ask", json!({"key": "k"}), &session())),
        "nobody to ask"
    );
    assert_eq!(
        AskError::Unsupported(Capability::Sampling).to_string(),
        "the client cannot answer this: it did not declare the `sampling` capability"
    );
}

#[test]
fn policies_read_and_print_as_their_names() {
    for policy in [
        ApprovalPolicy::Ask,
        ApprovalPolicy::Refuse,
        ApprovalPolicy::Trust,
        ApprovalPolicy::Host,
    ] {
        assert_eq!(policy.to_string().parse::<ApprovalPolicy>(), Ok(policy));
    }
    let err = "maybe".parse::<ApprovalPolicy>().unwrap_err();
    assert!(
        err.contains("give `ask`, `refuse`, `trust` or `host`"),
        "{err}"
    );
}
