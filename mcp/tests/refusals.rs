//! Refusals a model can act on (issue 60), read off the wire as a model reads them: invalid
//! calls to a tool whose arguments hold each kind of enum that carries data (internally,
//! adjacently and externally tagged, untagged) name every fault at its deepest pointer,
//! with the rule in plain words and its bound; several faults at once; a near-miss key
//! gets the declared one. The same words in both protocol eras and from a tool that runs as a
//! task (refused before its task exists).

#![allow(clippy::unwrap_used, reason = "tests")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use neuralis_core::dispatch::{Package, SessionContext, TaskMode, TaskSupport, sync_fn, with_task};
use neuralis_mcp::{McpServer, TaskTiming};
use serde_json::{Value, json};

mod common;

use common::Lines;

const TASKS: &str = "io.modelcontextprotocol/tasks";

/// `deploy_release`'s input as `#[derive(ToolInput)]` writes it (see
/// `tests/snapshots/enums.json`): `strategy` internally tagged (`kind`), `target`
/// externally tagged, `notify` adjacently tagged (`via` + `to`), `contact` untagged.
fn deploy_release() -> String {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "description": "Deploy a release.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "version": {"type": "string", "pattern": "^v[0-9]+\\.[0-9]+\\.[0-9]+$"},
            "channel": {"type": "string", "enum": ["stable", "beta"]},
            "dry_run": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
            "strategy": {"oneOf": [
                {"type": "object", "additionalProperties": false,
                 "properties": {"kind": {"type": "string", "enum": ["canary"]},
                                "percent": {"type": "integer", "minimum": 1, "maximum": 50}},
                 "required": ["kind", "percent"]},
                {"type": "object", "additionalProperties": false,
                 "properties": {"kind": {"type": "string", "enum": ["blue_green"]},
                                "switch_after_s": {"type": "integer", "minimum": 0, "maximum": 3600}},
                 "required": ["kind"]},
                {"type": "object", "additionalProperties": false,
                 "properties": {"kind": {"type": "string", "enum": ["all_at_once"]}},
                 "required": ["kind"]}
            ]},
            "target": {"oneOf": [
                {"type": "string", "enum": ["everywhere"]},
                {"type": "object", "additionalProperties": false,
                 "properties": {"region": {"type": "string", "minLength": 2, "maxLength": 12}},
                 "required": ["region"]},
                {"type": "object", "additionalProperties": false,
                 "properties": {"hosts": {"type": "array", "minItems": 1,
                                          "items": {"type": "string", "format": "hostname"}}},
                 "required": ["hosts"]}
            ]},
            "notify": {"oneOf": [
                {"type": "object", "additionalProperties": false,
                 "properties": {"via": {"type": "string", "enum": ["email"]},
                                "to": {"type": "string", "format": "email"}},
                 "required": ["via", "to"]},
                {"type": "object", "additionalProperties": false,
                 "properties": {"via": {"type": "string", "enum": ["sms"]},
                                "to": {"type": "string", "pattern": "^\\+[1-9][0-9]{6,14}$"}},
                 "required": ["via", "to"]}
            ]},
            "contact": {"anyOf": [
                {"type": "string", "format": "email"},
                {"type": "object", "additionalProperties": false,
                 "properties": {"name": {"type": "string", "minLength": 1},
                                "team": {"type": "string"}},
                 "required": ["name"]}
            ]}
        },
        "required": ["version", "strategy", "target"],
        "x-neuralis": {"annotations": {"category": "execute"}}
    })
    .to_string()
}

/// A valid call, for the faults to be put into.
fn valid() -> Value {
    json!({"version": "v1.2.3", "strategy": {"kind": "canary", "percent": 10},
           "target": {"region": "eu-west"}})
}

fn with(key: &str, value: Value) -> Value {
    let mut call = valid();
    call[key] = value;
    call
}

/// The calls and the refusal each gets: every fault's pointer and words.
fn cases() -> Vec<(Value, Vec<(&'static str, &'static str)>)> {
    vec![
        // Internally tagged: the tag picks the variant, its faults are inside it.
        (
            with("strategy", json!({"kind": "canary", "percent": 80})),
            vec![("/strategy/percent", "at most 50")],
        ),
        (
            with("strategy", json!({"kind": "rolling"})),
            vec![(
                "/strategy/kind",
                "one of `canary`, `blue_green`, `all_at_once`",
            )],
        ),
        (
            with("strategy", json!({"percent": 10})),
            vec![(
                "/strategy/kind",
                "`kind` is required (it picks the variant): one of `canary`, `blue_green`, `all_at_once`",
            )],
        ),
        (
            with("strategy", json!({"kind": "all_at_once", "percent": 10})),
            vec![(
                "/strategy/percent",
                "`percent` is not a field of `all_at_once`; it belongs to `canary`",
            )],
        ),
        // Externally tagged: the one key is the variant.
        (
            with("target", json!({"region": "x"})),
            vec![("/target/region", "at least 2 characters")],
        ),
        (
            with("target", json!({"hosts": ["a..b"]})),
            vec![("/target/hosts/0", "a host name")],
        ),
        (
            with("target", json!({"regoin": "eu-west"})),
            vec![(
                "/target/regoin",
                "`regoin` is not a variant here; did you mean `region`?",
            )],
        ),
        (
            with("target", json!("nowhere")),
            vec![(
                "/target",
                "`everywhere`, or an object with one key, the variant: one of `region`, `hosts`",
            )],
        ),
        // Adjacently tagged: the tag picks the content's rule.
        (
            with("notify", json!({"via": "email", "to": "ops"})),
            vec![("/notify/to", "an email address")],
        ),
        (
            with("notify", json!({"via": "sms", "to": "12"})),
            vec![("/notify/to", "matches `^\\+[1-9][0-9]{6,14}$`")],
        ),
        // Untagged: the closest branch.
        (
            with("contact", json!({"name": ""})),
            vec![("/contact/name", "at least 1 character")],
        ),
        (
            with("contact", json!(7)),
            vec![("/contact", "an email address, or an object with `name`")],
        ),
        // Plain rules, and several faults at once.
        (
            with("channel", json!("nightly")),
            vec![("/channel", "one of `stable`, `beta`")],
        ),
        (
            with("tags", json!(["a", "b", "c", "d", "e", "f"])),
            vec![("/tags", "at most 5 items")],
        ),
        (
            json!({"version": "1.2", "channel": 3, "dryrun": true, "tags": [1],
                   "strategy": {"kind": "canary", "percent": 0},
                   "target": {"hosts": []}}),
            vec![
                ("/version", "matches `^v[0-9]+\\.[0-9]+\\.[0-9]+$`"),
                ("/channel", "one of `stable`, `beta`"),
                ("/tags/0", "a string, not a number"),
                ("/strategy/percent", "at least 1"),
                ("/target/hosts", "at least 1 item"),
                (
                    "/dryrun",
                    "`dryrun` is not an argument here; did you mean `dry_run`?",
                ),
            ],
        ),
        (
            json!({"strategy": {"kind": "canary", "percent": 5}, "target": "everywhere",
                   "bogus": 1}),
            vec![
                ("/version", "`version` is required"),
                (
                    "/bogus",
                    "`bogus` is not an argument here; accepted: `version`, `channel`, \
                     `dry_run`, `tags`, `strategy`, `target`, `notify`, `contact`",
                ),
            ],
        ),
    ]
}

/// The text a model reads for `faults`.
fn text(faults: &[(&str, &str)]) -> String {
    let mut text =
        "invalid arguments for `deploy_release`: they do not match the tool's schema".to_owned();
    for (pointer, message) in faults {
        text.push_str(&format!("\n- `{pointer}`: {message}"));
    }
    text
}

fn server(ran: &Arc<AtomicUsize>) -> McpServer {
    let (plain, tasked) = (Arc::clone(ran), Arc::clone(ran));
    let package = Package::builder()
        .tool(
            "deploy_release",
            deploy_release(),
            sync_fn(move |_: Value| {
                plain.fetch_add(1, Ordering::SeqCst);
                "deployed"
            }),
        )
        .tool(
            "deploy_later",
            deploy_release(),
            with_task(
                sync_fn(move |_: Value| {
                    tasked.fetch_add(1, Ordering::SeqCst);
                    "deployed"
                }),
                TaskMode::new(TaskSupport::Optional),
            ),
        )
        .build()
        .unwrap();
    McpServer::new(package, SessionContext::builder("u").build())
        .with_task_timing(TaskTiming::default().with_poll(Duration::from_millis(20)))
}

fn no_requests(request: &Value) -> Value {
    panic!("the server sent a request: {request}")
}

/// Asserts the refusal `result` is the one for `faults`, in its text and in
/// `structuredContent`.
fn assert_refusal(result: &Value, faults: &[(&str, &str)], call: &Value) {
    assert_eq!(result["isError"], true, "{call} -> {result}");
    assert_eq!(
        result["content"][0]["text"].as_str().unwrap(),
        text(faults),
        "{call}"
    );
    let listed: Vec<Value> = faults
        .iter()
        .map(|(p, m)| json!({"pointer": p, "message": m}))
        .collect();
    assert_eq!(
        result["structuredContent"],
        json!({"ok": false, "error": "invalid-arguments", "errors": listed}),
        "{call}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_each_fault_is_named_at_its_place_in_plain_words() {
    let ran = Arc::default();
    let mut lines = Lines::legacy(server(&ran), json!({})).await;
    let (_, ok) = lines
        .send(
            "tools/call",
            json!({"name": "deploy_release", "arguments": valid()}),
            &no_requests,
        )
        .await;
    assert_eq!(ok["result"]["content"][0]["text"], "deployed", "{ok}");
    for (call, faults) in cases() {
        let (_, answer) = lines
            .send(
                "tools/call",
                json!({"name": "deploy_release", "arguments": call}),
                &no_requests,
            )
            .await;
        assert_refusal(&answer["result"], &faults, &call);
    }
    assert_eq!(
        ran.load(Ordering::SeqCst),
        1,
        "the handler ran for a refused call"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_the_same_words_and_a_task_tool_refuses_before_its_task() {
    let ran = Arc::default();
    let mut lines = Lines::start(server(&ran));
    let meta = common::meta(json!({"extensions": {TASKS: {}}}));
    for (call, faults) in cases() {
        let (_, answer) = lines
            .send(
                "tools/call",
                json!({"name": "deploy_release", "arguments": call, "_meta": meta}),
                &no_requests,
            )
            .await;
        assert_refusal(&answer["result"], &faults, &call);
        let (_, answer) = lines
            .send(
                "tools/call",
                json!({"name": "deploy_later", "arguments": call, "_meta": meta}),
                &no_requests,
            )
            .await;
        // Refused before a task exists (a task's result would carry the same words).
        assert_eq!(answer["result"]["resultType"], "complete", "{answer}");
        let result = task_result(&mut lines, &meta, &answer).await;
        let expected = text(&faults).replace("deploy_release", "deploy_later");
        assert_eq!(result["isError"], true, "{call} -> {result}");
        assert_eq!(result["content"][0]["text"].as_str().unwrap(), expected);
    }
    assert_eq!(
        ran.load(Ordering::SeqCst),
        0,
        "a handler ran for a refused call"
    );
}

/// The result of a call: inline, or the task's once it finished.
async fn task_result(lines: &mut Lines, meta: &Value, answer: &Value) -> Value {
    let result = &answer["result"];
    if result["resultType"] != "task" {
        return result.clone();
    }
    let id = result["taskId"].as_str().unwrap().to_owned();
    for _ in 0..250 {
        let (_, got) = lines
            .send(
                "tasks/get",
                json!({"taskId": id, "_meta": meta}),
                &no_requests,
            )
            .await;
        let task = got["result"].clone();
        if task.get("result").is_some() {
            return task["result"].clone();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("task {id} never finished")
}

/// The refusal text before issue 60 (`jsonschema`'s masked words, the branches of an enum
/// not looked into), rebuilt from the validator's `errors`, which still word them so.
fn old_text(schema: &Value, call: &Value) -> String {
    use neuralis_core::validate::{ErrorKind, Validator};
    let v = Validator::compile(schema).unwrap();
    let mut text =
        "invalid arguments for `deploy_release`: they do not match the tool's schema".to_owned();
    for e in v.errors(call) {
        let at = |key: &str| format!("{}/{key}", e.pointer);
        match &e.kind {
            ErrorKind::Required { property } => {
                text.push_str(&format!("\n- `{}`: `{property}` is required", at(property)));
            }
            ErrorKind::AdditionalProperties { unexpected } => {
                for key in unexpected {
                    text.push_str(&format!(
                        "\n- `{}`: `{key}` is not an argument here",
                        at(key)
                    ));
                }
            }
            _ => {
                let at = if e.pointer.is_empty() {
                    "(root)"
                } else {
                    &e.pointer
                };
                text.push_str(&format!("\n- `{at}`: {}", e.message));
            }
        }
    }
    text
}

fn median(mut lengths: Vec<usize>) -> usize {
    lengths.sort_unstable();
    lengths[lengths.len() / 2]
}

/// The refusals stay short: the median length, old words and new, on these calls (run
/// with `--nocapture` to read them).
#[test]
fn refusal_lengths_against_the_old_wording() {
    let schema: Value = serde_json::from_str(&deploy_release()).unwrap();
    let (mut old, mut new) = (Vec::new(), Vec::new());
    for (call, faults) in cases() {
        old.push(old_text(&schema, &call).chars().count());
        new.push(text(&faults).chars().count());
    }
    let (old, new) = (median(old), median(new));
    println!("median refusal: old {old} characters, new {new} characters");
    assert!(new <= 160, "the median refusal grew to {new} characters");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fault_up_to_the_cap_then_how_many_more() {
    let ran = Arc::default();
    let mut lines = Lines::legacy(server(&ran), json!({})).await;
    let call = with("tags", Value::Array(vec![json!(0); 20]));
    let (_, answer) = lines
        .send(
            "tools/call",
            json!({"name": "deploy_release", "arguments": call}),
            &no_requests,
        )
        .await;
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 16 + 1, "{text}");
    assert_eq!(lines[1], "- `/tags`: at most 5 items");
    assert_eq!(lines[2], "- `/tags/0`: a string, not a number");
    assert_eq!(lines[16], "- `/tags/14`: a string, not a number");
    assert_eq!(lines[17], "- and 5 more");
    let listed = answer["result"]["structuredContent"]["errors"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(listed, 16);
}
