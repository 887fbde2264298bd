//! The call pipeline, stage by stage, both ways.
#![allow(clippy::unwrap_used, reason = "tests")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

use neuralis_core::dispatch::{
    AbortController, AbortSignal, Approval, AskReason, BuildProblem, CallOptions, Json, LogLevel,
    LogMessage, LogSink, Package, PackageBuilder, SessionContext, ToolContext, async_fn,
    async_fn_cx, block_on, sync_fn, sync_fn_cx,
};
use neuralis_core::result::{BoundCaps, ToolResult};
use serde::Deserialize;
use serde_json::{Value, json};

/// A tool file: the given properties, required keys and `x-neuralis` block.
fn tool(properties: Value, required: &[&str], xn: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "additionalProperties": false,
        "description": "A test tool.",
        "properties": properties,
        "required": required,
        "x-neuralis": xn,
    }))
    .unwrap()
}

fn read_tool() -> Vec<u8> {
    tool(
        json!({"text": {"type": "string", "maxLength": 20}}),
        &["text"],
        json!({"annotations": {"category": "read", "readOnlyHint": true}}),
    )
}

fn notes_tool() -> Vec<u8> {
    tool(
        json!({
            "title": {"type": "string", "minLength": 1, "maxLength": 50},
            "count": {"type": "integer", "minimum": 1, "maximum": 10},
            "delete": {"type": "boolean"}
        }),
        &["title"],
        json!({
            "defaults": {"count": 3},
            "annotations": {"category": "write", "destructiveHint": true},
            "requires": {"features": ["notes.write"]},
            "askOnKeys": ["delete"]
        }),
    )
}

#[derive(Deserialize)]
struct Echo {
    text: String,
}

#[derive(Deserialize)]
struct Note {
    title: String,
    count: u32,
    #[serde(default)]
    delete: bool,
}

/// Counts how often handlers are entered.
#[derive(Clone, Default)]
struct Counter(Arc<AtomicUsize>);

impl Counter {
    fn hit(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
    fn get(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// A package with an open read tool (`echo`) and a gated write tool (`notes_write`), both
/// counting their entries.
fn package(counter: &Counter) -> Package {
    builder(counter).build().unwrap()
}

fn builder(counter: &Counter) -> PackageBuilder {
    let (c1, c2) = (counter.clone(), counter.clone());
    Package::builder()
        .tool(
            "echo",
            read_tool(),
            sync_fn(move |e: Echo| {
                c1.hit();
                e.text
            }),
        )
        .tool(
            "notes_write",
            notes_tool(),
            sync_fn(move |n: Note| {
                c2.hit();
                Json(json!({"ok": true, "title": n.title, "count": n.count, "delete": n.delete}))
            }),
        )
}

fn user() -> SessionContext {
    SessionContext::builder("user-1").build()
}

fn writer() -> SessionContext {
    SessionContext::builder("user-1")
        .grant("notes.write")
        .build()
}

fn call(p: &Package, name: &str, args: Value, session: &SessionContext) -> ToolResult {
    p.dispatch_blocking(name, args, session)
}

/// The pointers an invalid-arguments result lists.
fn pointers(r: &ToolResult) -> Vec<String> {
    r.structured_content.as_ref().unwrap()["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap().to_owned())
        .collect()
}

fn text(r: &ToolResult) -> String {
    r.for_model()["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned()
}

// ---- gate ----

#[test]
fn a_granted_tool_runs_and_an_open_tool_runs_for_anyone() {
    let counter = Counter::default();
    let p = package(&counter);
    let r = call(&p, "echo", json!({"text": "hi"}), &user());
    assert!(!r.is_error);
    assert_eq!(text(&r), "hi");
    let r = call(&p, "notes_write", json!({"title": "t"}), &writer());
    assert!(!r.is_error, "{r:?}");
    assert_eq!(counter.get(), 2);
}

#[test]
fn not_granted_and_unknown_tools_get_byte_identical_refusals() {
    let counter = Counter::default();
    let p = package(&counter);
    // The same name, once on a package that has it (not granted), once on one that
    // does not (unknown).
    let gated = call(&p, "notes_write", json!({"title": "t"}), &user());
    let without = Package::builder()
        .tool("echo", read_tool(), sync_fn(|e: Echo| e.text))
        .build()
        .unwrap();
    let unknown = call(&without, "notes_write", json!({"title": "t"}), &user());
    assert!(gated.is_error);
    assert_eq!(
        serde_json::to_string(&gated.for_ui()).unwrap(),
        serde_json::to_string(&unknown.for_ui()).unwrap()
    );
    assert_eq!(
        serde_json::to_string(&gated.for_model()).unwrap(),
        serde_json::to_string(&unknown.for_model()).unwrap()
    );
    // The approval look-up refuses both the same way too.
    assert_eq!(
        p.approval("notes_write", &json!({}), &user()).unwrap_err(),
        without
            .approval("notes_write", &json!({}), &user())
            .unwrap_err()
    );
    assert_eq!(counter.get(), 0);
}

#[test]
fn a_refusal_never_echoes_a_name_that_is_not_wire_safe() {
    let p = package(&Counter::default());
    let long = "x".repeat(10_000);
    let r = call(&p, &long, json!({}), &user());
    assert!(r.is_error);
    assert!(!text(&r).contains("xxx"));
    assert_eq!(text(&r), "no tool by that name is available");
    assert_eq!(
        text(&call(&p, "nope", json!({}), &user())),
        "no tool named `nope` is available"
    );
}

#[test]
fn catalog_lists_only_tools_whose_features_are_granted() {
    let p = package(&Counter::default());
    let names = |s: &SessionContext| p.catalog(s).map(|t| t.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&user()), ["echo"]);
    assert_eq!(names(&writer()), ["echo", "notes_write"]);
    // A grant of another feature does not open the gate.
    let other = SessionContext::builder("u").grant("notes.read").build();
    assert_eq!(names(&other), ["echo"]);
}

// ---- approval ----

#[test]
fn sending_an_ask_on_key_asks_whatever_its_value() {
    let p = package(&Counter::default());
    // A strict model's `null` for the optional key is the key not sent: quiet.
    assert_eq!(
        p.approval(
            "notes_write",
            &json!({"title": "t", "delete": null}),
            &writer()
        ),
        Ok(Approval::Floor(neuralis_core::catalog::Category::Write))
    );
    for value in [json!(false), json!(true)] {
        assert_eq!(
            p.approval(
                "notes_write",
                &json!({"title": "t", "delete": value}),
                &writer()
            ),
            Ok(Approval::Ask(AskReason::Keys(vec!["delete".into()])))
        );
    }
    // Not sent: the declaration adds no ask, the category floor decides.
    let posture = p
        .approval("notes_write", &json!({"title": "t"}), &writer())
        .unwrap();
    assert!(!posture.asks());
    assert_eq!(
        posture,
        Approval::Floor(neuralis_core::catalog::Category::Write)
    );
}

#[test]
fn category_unknown_always_asks() {
    let file = tool(
        json!({"x": {"type": "string"}}),
        &[],
        json!({"annotations": {"category": "unknown"}}),
    );
    let p = Package::builder()
        .tool("imported", file, sync_fn(|_: Value| "ran"))
        .build()
        .unwrap();
    assert_eq!(
        p.approval("imported", &json!({}), &user()),
        Ok(Approval::Ask(AskReason::UnknownCategory))
    );
    let p2 = package(&Counter::default());
    assert!(
        !p2.approval("echo", &json!({"text": "x"}), &user())
            .unwrap()
            .asks()
    );
}

// ---- the closed root, defaults, validation ----

#[test]
fn a_session_field_in_arguments_is_refused_before_any_handler_runs() {
    let counter = Counter::default();
    let p = package(&counter);
    for (name, base) in [
        ("echo", json!({"text": "hi"})),
        ("notes_write", json!({"title": "t"})),
    ] {
        for key in neuralis_core::contract::rules::RESERVED_INPUT_KEYS {
            let mut args = base.clone();
            args[*key] = json!("x");
            let r = call(&p, name, args, &writer());
            assert!(r.is_error, "{name} {key}");
            assert_eq!(pointers(&r), [format!("/{key}")]);
            assert!(text(&r).contains("verified session"), "{}", text(&r));
        }
    }
    // The minimal case of the issue: `{"userId": "x"}` alone.
    let r = call(&p, "echo", json!({"userId": "x"}), &user());
    assert!(r.is_error);
    assert!(pointers(&r).contains(&"/userId".to_owned()));
    assert_eq!(counter.get(), 0, "no handler was entered");
    // The near miss: the same name nested is a legitimate domain field.
    let nested = tool(
        json!({"members": {"type": "array", "items": {
            "type": "object", "additionalProperties": false,
            "properties": {"userId": {"type": "string"}}}}}),
        &[],
        json!({"annotations": {"category": "read"}}),
    );
    let c = counter.clone();
    let p = Package::builder()
        .tool(
            "team",
            nested,
            sync_fn(move |v: Value| {
                c.hit();
                v["members"][0]["userId"].as_str().unwrap_or("").to_owned()
            }),
        )
        .build()
        .unwrap();
    let r = call(&p, "team", json!({"members": [{"userId": "u9"}]}), &user());
    assert!(!r.is_error, "{r:?}");
    assert_eq!(text(&r), "u9");
    assert_eq!(counter.get(), 1);
}

#[test]
fn defaults_fill_absent_keys_and_leave_sent_ones() {
    let p = package(&Counter::default());
    let r = call(&p, "notes_write", json!({"title": "t"}), &writer());
    assert_eq!(r.structured_content.as_ref().unwrap()["count"], 3);
    let r = call(
        &p,
        "notes_write",
        json!({"title": "t", "count": 5}),
        &writer(),
    );
    assert_eq!(r.structured_content.as_ref().unwrap()["count"], 5);
}

#[test]
fn a_schema_violation_is_an_error_with_the_pointer_and_no_handler_call() {
    let counter = Counter::default();
    let p = package(&counter);
    let r = call(
        &p,
        "notes_write",
        json!({"title": "t", "count": 20}),
        &writer(),
    );
    assert!(r.is_error);
    assert_eq!(pointers(&r), ["/count"]);
    assert!(text(&r).contains("`/count`"), "{}", text(&r));
    // Several failures, each with its pointer; a missing required key at the root.
    let r = call(
        &p,
        "notes_write",
        json!({"count": 0, "delete": "yes"}),
        &writer(),
    );
    let mut ps = pointers(&r);
    ps.sort();
    assert_eq!(ps, ["/count", "/delete", "/title"]);
    assert!(
        text(&r).contains("- `/title`: `title` is required"),
        "{}",
        text(&r)
    );
    // Not an object at all.
    let r = call(&p, "echo", json!([1, 2]), &user());
    assert!(r.is_error);
    assert_eq!(pointers(&r), [""]);
    assert_eq!(counter.get(), 0);
    // The near miss passes.
    let r = call(
        &p,
        "notes_write",
        json!({"title": "t", "count": 10}),
        &writer(),
    );
    assert!(!r.is_error);
    assert_eq!(counter.get(), 1);
}

#[test]
fn null_arguments_read_as_an_empty_object() {
    let file = tool(
        json!({"n": {"type": "integer"}}),
        &[],
        json!({"defaults": {"n": 7}, "annotations": {"category": "read"}}),
    );
    #[derive(Deserialize)]
    struct N {
        n: i64,
    }
    let p = Package::builder()
        .tool("n", file, sync_fn(|i: N| i.n.to_string()))
        .build()
        .unwrap();
    assert_eq!(text(&call(&p, "n", Value::Null, &user())), "7");
    assert!(call(&p, "n", json!("str"), &user()).is_error);
}

// ---- deserialization ----

#[test]
fn a_deserialization_failure_is_an_error_with_the_pointer() {
    // The schema accepts any number; the input type wants a small unsigned one.
    let file = tool(
        json!({"rows": {"type": "array", "items": {
            "type": "object", "additionalProperties": false,
            "properties": {"n": {"type": "number"}}}}}),
        &["rows"],
        json!({"annotations": {"category": "read"}}),
    );
    #[derive(Deserialize)]
    struct Row {
        n: u8,
    }
    #[derive(Deserialize)]
    struct Rows {
        rows: Vec<Row>,
    }
    let counter = Counter::default();
    let c = counter.clone();
    let p = Package::builder()
        .tool(
            "rows",
            file,
            sync_fn(move |r: Rows| {
                c.hit();
                r.rows
                    .iter()
                    .map(|r| u32::from(r.n))
                    .sum::<u32>()
                    .to_string()
            }),
        )
        .build()
        .unwrap();
    let r = call(&p, "rows", json!({"rows": [{"n": 1}, {"n": 300}]}), &user());
    assert!(r.is_error);
    assert_eq!(pointers(&r), ["/rows/1/n"]);
    assert!(text(&r).contains("input type"), "{}", text(&r));
    assert_eq!(counter.get(), 0);
    let r = call(&p, "rows", json!({"rows": [{"n": 1}, {"n": 200}]}), &user());
    assert_eq!(text(&r), "201");
    assert_eq!(counter.get(), 1);
}

#[test]
fn text_in_calls_as_the_parsed_tree_does() {
    let counter = Counter::default();
    let p = package(&counter);
    let cases: [(&str, &str, &SessionContext); 6] = [
        ("notes_write", r#"{"title": "a"}"#, &writer()),
        (
            "notes_write",
            r#"{"title": "a", "count": 9, "delete": false}"#,
            &writer(),
        ),
        ("notes_write", r#"{"title": "", "count": 11}"#, &writer()),
        ("notes_write", r#"{"title": "a"}"#, &user()),
        ("echo", r#"{"text": "hi", "extra": 1}"#, &user()),
        ("nope", r#"{"text": "hi"}"#, &user()),
    ];
    for (name, args, session) in cases {
        let tree: Value = serde_json::from_str(args).unwrap();
        assert_eq!(
            p.dispatch_text_blocking(name, args, session),
            call(&p, name, tree, session),
            "{name} {args}"
        );
    }
    // A repeated key keeps its last value, as serde_json's tree does.
    let r = p.dispatch_text_blocking("echo", r#"{"text": "a", "text": "b"}"#, &user());
    assert_eq!(text(&r), "b");
    // No text and `null` are `{}`: the defaults apply, the required key is missing.
    for args in ["", " \n", "null"] {
        let r = p.dispatch_text_blocking("notes_write", args, &writer());
        assert_eq!(pointers(&r), ["/title"], "{args:?}");
        assert_eq!(r, call(&p, "notes_write", json!({}), &writer()));
    }
    let entered = counter.get();
    let r = p.dispatch_text_blocking("echo", r#"{"text": "#, &user());
    assert!(r.is_error);
    assert!(text(&r).contains("not JSON"), "{}", text(&r));
    assert_eq!(counter.get(), entered, "the handler never runs");
    // The gate comes first: an unknown tool is the refusal, whatever the text.
    assert_eq!(
        p.dispatch_text_blocking("nope", "{", &user()),
        call(&p, "nope", json!({}), &user())
    );
}

// ---- handlers ----

#[test]
fn sync_and_async_handlers_with_and_without_context() {
    async fn who(_: Value, cx: &ToolContext) -> String {
        format!("{} via {}", cx.session().user_id(), cx.tool_name())
    }
    let open = |name: &str| {
        (
            name.to_owned(),
            tool(json!({}), &[], json!({"annotations": {"category": "read"}})),
        )
    };
    let (a, fa) = open("a");
    let (b, fb) = open("b");
    let (c, fc) = open("c");
    let (d, fd) = open("d");
    let p = Package::builder()
        .tool(a, fa, sync_fn(|_: Value| "sync"))
        .tool(
            b,
            fb,
            sync_fn_cx(|_: Value, cx: &ToolContext| cx.session().user_id().to_owned()),
        )
        .tool(c, fc, async_fn(|_: Value| async { "async" }))
        .tool(d, fd, async_fn_cx(who))
        .build()
        .unwrap();
    let s = SessionContext::builder("ada").build();
    assert_eq!(text(&call(&p, "a", json!({}), &s)), "sync");
    assert_eq!(text(&call(&p, "b", json!({}), &s)), "ada");
    assert_eq!(text(&call(&p, "c", json!({}), &s)), "async");
    assert_eq!(text(&call(&p, "d", json!({}), &s)), "ada via d");
}

#[test]
fn results_convert_from_json_results_errors_and_raw_values() {
    let open = || tool(json!({}), &[], json!({"annotations": {"category": "read"}}));
    let p = Package::builder()
        .tool("ok", open(), sync_fn(|_: Value| Json(json!({"ok": true, "n": 1}))))
        .tool(
            "err",
            open(),
            sync_fn(|_: Value| -> Result<String, String> { Err("city not found".into()) }),
        )
        .tool(
            "raw",
            open(),
            sync_fn(|_: Value| json!({"content": [{"type": "text", "text": "raw"}, {"type": "hologram"}]})),
        )
        .tool("unit", open(), sync_fn(|_: Value| ()))
        .build()
        .unwrap();
    let r = call(&p, "ok", json!({}), &user());
    assert_eq!(r.structured_content, Some(json!({"ok": true, "n": 1})));
    assert_eq!(text(&r), r#"{"ok":true,"n":1}"#);
    let r = call(&p, "err", json!({}), &user());
    assert!(r.is_error);
    assert_eq!(text(&r), "city not found");
    // Raw JSON is normalized: the unknown block type is dropped and counted.
    let r = call(&p, "raw", json!({}), &user());
    assert_eq!(r.blocks().len(), 1);
    assert_eq!(
        r.neuralis_meta().unwrap().get("droppedBlocks"),
        Some(&json!(1))
    );
    assert_eq!(
        call(&p, "unit", json!({}), &user()).structured_content,
        Some(json!({"ok": true}))
    );
}

#[test]
fn a_panicking_handler_is_an_internal_error_and_the_message_stays_off_the_model() {
    let open = || tool(json!({}), &[], json!({"annotations": {"category": "read"}}));
    let p = Package::builder()
        .tool(
            "boom",
            open(),
            sync_fn(|_: Value| -> String { panic!("secret detail") }),
        )
        .tool(
            "aboom",
            open(),
            async_fn(|_: Value| async { panic!("async secret") as String }),
        )
        .build()
        .unwrap();
    for (name, detail) in [("boom", "secret detail"), ("aboom", "async secret")] {
        let r = call(&p, name, json!({}), &user());
        assert!(r.is_error);
        assert!(text(&r).contains("internal error"));
        assert!(!r.for_model().to_string().contains(detail));
        assert_eq!(r.neuralis_meta().unwrap()["panic"], detail);
    }
    // The package still serves calls after a panic.
    assert!(call(&p, "boom", json!({}), &user()).is_error);
}

#[test]
fn state_reaches_handlers() {
    struct Greeting(&'static str);
    let p = Package::builder()
        .tool(
            "greet",
            tool(json!({}), &[], json!({"annotations": {"category": "read"}})),
            sync_fn_cx(|_: Value, cx: &ToolContext| {
                cx.state::<Greeting>().map_or("none", |g| g.0).to_owned()
            }),
        )
        .state(Greeting("hello"))
        .build()
        .unwrap();
    assert_eq!(text(&call(&p, "greet", json!({}), &user())), "hello");
}

// ---- cancellation ----

fn cancellable_tool(cancellable: bool) -> Vec<u8> {
    let mut annotations = json!({"category": "read"});
    if cancellable {
        annotations["cancellable"] = json!(true);
    }
    tool(json!({}), &[], json!({"annotations": annotations}))
}

/// Aborts `controller` from another thread once `entered` has been hit.
fn abort_when_entered(controller: AbortController, entered: Counter) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        while entered.get() == 0 {
            thread::sleep(Duration::from_millis(1));
        }
        controller.abort();
    })
}

#[test]
fn a_cancelled_cancellable_handler_stops() {
    let entered = Counter::default();
    let e = entered.clone();
    let p = Package::builder()
        .tool(
            "wait",
            cancellable_tool(true),
            async_fn_cx(move |_: Value, cx: &ToolContext| {
                let e = e.clone();
                let signal = cx.abort().cloned();
                async move {
                    assert!(signal.is_some(), "a cancellable tool gets the signal");
                    e.hit();
                    // Waits forever: only the abort can end this call.
                    std::future::pending::<()>().await;
                    "never"
                }
            }),
        )
        .build()
        .unwrap();
    let controller = AbortController::new();
    let aborter = abort_when_entered(controller.clone(), entered.clone());
    let r = block_on(p.dispatch("wait", json!({}), &user(), controller.signal())).unwrap();
    aborter.join().unwrap();
    assert!(r.is_error);
    assert_eq!(r.neuralis_meta().unwrap()["cancelled"], true);
    assert_eq!(entered.get(), 1);
}

#[test]
fn a_cancellable_sync_handler_polls_the_signal() {
    let entered = Counter::default();
    let e = entered.clone();
    let p = Package::builder()
        .tool(
            "spin",
            cancellable_tool(true),
            sync_fn_cx(move |_: Value, cx: &ToolContext| {
                e.hit();
                while !cx.is_aborted() {
                    thread::sleep(Duration::from_millis(1));
                }
                "stopped"
            }),
        )
        .build()
        .unwrap();
    let controller = AbortController::new();
    let aborter = abort_when_entered(controller.clone(), entered.clone());
    let r = block_on(p.dispatch("spin", json!({}), &user(), controller.signal())).unwrap();
    aborter.join().unwrap();
    assert_eq!(text(&r), "stopped");
}

#[test]
fn an_undeclared_handler_runs_to_completion_when_aborted() {
    let entered = Counter::default();
    let finished = Counter::default();
    let release = AbortController::new();
    let (e, f, gate) = (entered.clone(), finished.clone(), release.signal());
    let p = Package::builder()
        .tool(
            "work",
            cancellable_tool(false),
            async_fn_cx(move |_: Value, cx: &ToolContext| {
                let (e, f, gate) = (e.clone(), f.clone(), gate.clone());
                let signal = cx.abort().cloned();
                async move {
                    assert!(signal.is_none(), "an undeclared tool gets no signal");
                    e.hit();
                    gate.cancelled().await; // released only after the run is aborted
                    f.hit();
                    "finished"
                }
            }),
        )
        .build()
        .unwrap();
    let run = AbortController::new();
    let (run2, release2, entered2) = (run.clone(), release.clone(), entered.clone());
    let driver = thread::spawn(move || {
        while entered2.get() == 0 {
            thread::sleep(Duration::from_millis(1));
        }
        run2.abort();
        thread::sleep(Duration::from_millis(20));
        release2.abort();
    });
    let r = block_on(p.dispatch("work", json!({}), &user(), run.signal())).unwrap();
    driver.join().unwrap();
    assert!(run.is_aborted());
    assert!(!r.is_error, "{r:?}");
    assert_eq!(text(&r), "finished");
    assert_eq!(finished.get(), 1);
}

#[test]
fn a_call_aborted_before_it_starts_never_enters_the_handler() {
    let counter = Counter::default();
    let p = package(&counter);
    let controller = AbortController::new();
    controller.abort();
    let r =
        block_on(p.dispatch("echo", json!({"text": "x"}), &user(), controller.signal())).unwrap();
    assert!(r.is_error);
    assert_eq!(counter.get(), 0);
    // The near miss: a live signal lets it run.
    let r = block_on(p.dispatch(
        "echo",
        json!({"text": "x"}),
        &user(),
        AbortController::new().signal(),
    ))
    .unwrap();
    assert!(!r.is_error);
    assert_eq!(counter.get(), 1);
    assert!(!AbortSignal::never().is_aborted());
}

// ---- bounding ----

#[test]
fn results_are_bounded_to_the_package_caps() {
    let open = tool(json!({}), &[], json!({"annotations": {"category": "read"}}));
    let caps = BoundCaps {
        text_chars: 100,
        array_len: 3,
        ..BoundCaps::default()
    };
    let p = Package::builder()
        .tool(
            "big",
            open,
            sync_fn(|_: Value| {
                ToolResult::text("y".repeat(1000))
                    .with_structured(json!({"ok": true, "rows": [1, 2, 3, 4, 5]}))
            }),
        )
        .caps(caps)
        .build()
        .unwrap();
    let r = call(&p, "big", json!({}), &user());
    assert_eq!(
        r.structured_content,
        Some(json!({"ok": true, "rows": [1, 2, 3]}))
    );
    let t = text(&r);
    assert!(t.chars().count() <= 100, "{}", t.len());
    assert!(
        t.contains("1000"),
        "the marker states the original count: {t}"
    );
    assert!(r.neuralis_meta().unwrap().contains_key("bound"));
    // The near miss: a small result passes untouched.
    let p = package(&Counter::default());
    let r = call(&p, "echo", json!({"text": "short"}), &user());
    assert!(r.meta.is_none());
}

// ---- building ----

#[test]
fn a_tool_file_with_errors_is_refused_at_build_time_with_its_diagnostics() {
    let bad = tool(
        json!({"userId": {"type": "string"}}),
        &[],
        json!({"annotations": {"category": "read"}}),
    );
    let err = Package::builder()
        .tool("bad", bad, sync_fn(|_: Value| "x"))
        .tool("echo", read_tool(), sync_fn(|e: Echo| e.text))
        .build()
        .unwrap_err();
    assert_eq!(err.problems.len(), 1, "{err}");
    let BuildProblem::File(report) = &err.problems[0] else {
        panic!("{err}")
    };
    assert_eq!(report.name, "bad");
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.rule.as_str() == "reserved-input-key" && d.pointer == "/properties/userId")
    );
    assert!(err.to_string().contains("reserved-input-key"), "{err}");
}

#[test]
fn handlers_and_tools_must_match_one_to_one() {
    let err = Package::builder()
        .tool_file("echo", read_tool())
        .handler("ghost", sync_fn(|_: Value| "x"))
        .tool("notes_write", notes_tool(), sync_fn(|_: Value| "x"))
        .handler("notes_write", sync_fn(|_: Value| "y"))
        .build()
        .unwrap_err();
    let kinds: Vec<String> = err.problems.iter().map(ToString::to_string).collect();
    assert_eq!(err.problems.len(), 3, "{err}");
    assert!(
        kinds
            .iter()
            .any(|k| k.contains("duplicate-tool") && k.contains("notes_write"))
    );
    assert!(kinds.iter().any(|k| k.contains("`echo` has no handler")));
    assert!(
        kinds
            .iter()
            .any(|k| k.contains("`ghost`") && k.contains("no tool file"))
    );
    // Warnings do not fail a build; they are kept in `files`.
    let warned = tool(
        json!({}),
        &[],
        json!({"annotations": {"category": "read", "readOnlyHint": true}}),
    );
    let p = Package::builder()
        .tool("w", warned, sync_fn(|_: Value| "x"))
        .build()
        .unwrap();
    assert!(
        p.files()[0]
            .diagnostics
            .iter()
            .any(|d| d.rule.as_str() == "presentation-implicit")
    );
}

/// The package table's files (`checked_tool`: the build script checked them) load as the
/// same tools as the files given by hand, which the builder checks; and one that is not a
/// tool file still fails the build, led by its rule, without a panic.
#[test]
fn a_table_file_loads_as_the_same_tool_unchecked() {
    let file: &'static str = String::leak(String::from_utf8(notes_tool()).unwrap());
    let given = Package::builder()
        .tool("notes", file.as_bytes(), sync_fn(|_: Value| "x"))
        .build()
        .unwrap();
    let table = Package::builder()
        .checked_tool("notes", file, sync_fn(|_: Value| "x"))
        .build()
        .unwrap();
    let (given, table) = (given.tool("notes").unwrap(), table.tool("notes").unwrap());
    assert_eq!(given.schema, table.schema);
    assert_eq!(given.meta, table.meta);
    assert!(table.schema["properties"].is_object());

    for (bad, rule) in [
        ("{\"type\": ", "json-syntax"),
        ("{\"type\": \"object\"}", "xn-missing"),
    ] {
        let err = Package::builder()
            .checked_tool("bad", bad, sync_fn(|_: Value| "x"))
            .build()
            .unwrap_err();
        let BuildProblem::File(report) = &err.problems[0] else {
            panic!("{err}");
        };
        assert_eq!(report.diagnostics[0].rule.as_str(), rule, "{bad}");
        assert!(!report.loaded);
    }
}

// ---- call_json ----

#[test]
fn call_json_calls_lists_and_asks() {
    let p = package(&Counter::default());
    let out =
        |req: Value| -> Value { serde_json::from_str(&p.call_json(&req.to_string())).unwrap() };
    let session = json!({"userId": "u", "grantedFeatures": ["notes.write"]});
    let r = out(json!({"name": "echo", "arguments": {"text": "hi"}, "session": session}));
    assert_eq!(
        r["model"],
        json!({"content": [{"type": "text", "text": "hi"}]})
    );
    assert_eq!(r["ui"]["content"][0]["text"], "hi");
    let r = out(json!({"op": "catalog", "session": {"userId": "u"}}));
    assert_eq!(r["tools"].as_array().unwrap().len(), 1);
    assert_eq!(r["tools"][0]["name"], "echo");
    let r = out(
        json!({"op": "approval", "name": "notes_write", "arguments": {"title": "t", "delete": false}, "session": session}),
    );
    assert_eq!(
        r,
        json!({"approval": "ask", "reason": "ask-on-keys", "keys": ["delete"]})
    );
    let r = out(
        json!({"op": "approval", "name": "notes_write", "arguments": {}, "session": {"userId": "u"}}),
    );
    assert_eq!(
        r,
        json!({"refused": "no tool named `notes_write` is available"})
    );
    // The session rides the host's side only; in arguments it is refused.
    let r = out(
        json!({"name": "echo", "arguments": {"text": "hi", "userId": "evil"}, "session": session}),
    );
    assert_eq!(r["model"]["isError"], true);
    // Malformed requests are errors for the shim.
    for bad in [
        json!({"name": "echo"}),
        json!({"session": {"userId": "u"}}),
        json!({"name": "echo", "session": {"userId": "u", "admin": true}}),
    ] {
        let r = out(bad.clone());
        assert!(
            r["error"]
                .as_str()
                .unwrap()
                .starts_with("malformed request"),
            "{bad}: {r}"
        );
    }
    assert!(p.call_json("not json").contains("malformed request"));
}

#[test]
fn validation_answers_stay_the_same_across_many_calls() {
    // Many calls, alternating valid and invalid, give the same answers throughout.
    let p = package(&Counter::default());
    for i in 0..50 {
        let r = call(&p, "echo", json!({"text": "x".repeat(i % 30)}), &user());
        assert_eq!(r.is_error, i % 30 > 20, "{i}");
    }
}

// ---- the signal, block_on, Send ----

#[test]
fn every_waiter_wakes_on_abort_and_a_dropped_waiter_leaves_nothing_behind() {
    let controller = AbortController::new();
    let signal = controller.signal();
    let clone = signal.clone();
    // A waiter dropped before the abort.
    {
        let waiter = signal.cancelled();
        let mut waiter = std::pin::pin!(waiter);
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        assert!(std::future::Future::poll(waiter.as_mut(), &mut cx).is_pending());
    }
    let waiters: Vec<_> = (0..3)
        .map(|_| {
            let s = clone.clone();
            thread::spawn(move || block_on(s.cancelled()))
        })
        .collect();
    thread::sleep(Duration::from_millis(10));
    controller.abort();
    controller.abort(); // twice is harmless
    for w in waiters {
        assert_eq!(w.join().unwrap(), Some(()));
    }
    assert!(signal.is_aborted() && clone.is_aborted());
    // The near miss: another controller's signal is untouched.
    assert!(!AbortController::new().signal().is_aborted());
}

#[test]
fn dispatch_futures_are_send_and_packages_are_shared() {
    fn assert_send<T: Send>(_: &T) {}
    fn assert_sync<T: Send + Sync>() {}
    assert_sync::<Package>();
    assert_sync::<SessionContext>();
    assert_sync::<AbortSignal>();
    let p = package(&Counter::default());
    let s = user();
    let future = p.dispatch("echo", json!({"text": "x"}), &s, AbortSignal::never());
    assert_send(&future);
    assert_eq!(text(&block_on(future).unwrap()), "x");
    // One package serves calls from several threads at once.
    let p = Arc::new(p);
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let p = Arc::clone(&p);
            thread::spawn(move || {
                text(&call(&p, "echo", json!({"text": format!("t{i}")}), &user()))
            })
        })
        .collect();
    for (i, h) in handles.into_iter().enumerate() {
        assert_eq!(h.join().unwrap(), format!("t{i}"));
    }
}

// ---- properties ----

mod props {
    use super::*;
    use neuralis_core::contract::rules::RESERVED_INPUT_KEYS;
    use proptest::prelude::*;

    fn key() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => Just("text".to_owned()),
            3 => proptest::sample::select(RESERVED_INPUT_KEYS).prop_map(str::to_owned),
            2 => "[a-zA-Z_$]{0,8}",
        ]
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            ".{0,30}".prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                proptest::collection::btree_map("[a-z]{0,4}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whatever the model sends, nothing panics, and a root key the schema does not
        /// declare (a session field above all) never reaches the handler.
        #[test]
        fn undeclared_root_keys_never_reach_a_handler(
            args in proptest::collection::btree_map(key(), value(), 0..5),
            tool in prop_oneof![Just("echo"), Just("notes_write"), Just("nope")],
        ) {
            let counter = Counter::default();
            let p = package(&counter);
            let args = Value::Object(args.into_iter().collect());
            let r = call(&p, tool, args.clone(), &writer());
            let declared: &[&str] = match tool {
                "echo" => &["text"],
                "notes_write" => &["title", "count", "delete"],
                _ => &[],
            };
            let stray: Vec<&String> = args
                .as_object()
                .unwrap()
                .keys()
                .filter(|k| !declared.contains(&k.as_str()))
                .collect();
            if !stray.is_empty() || tool == "nope" {
                prop_assert!(r.is_error);
                prop_assert_eq!(counter.get(), 0);
            }
            if tool != "nope" && !stray.is_empty() {
                let listed = pointers(&r);
                for key in stray {
                    let pointer = neuralis_core::contract::push_pointer("", key);
                    prop_assert!(listed.contains(&pointer), "{} not in {:?}", pointer, listed);
                }
            }
        }
    }
}

#[test]
fn a_result_that_cannot_be_serialized_is_an_error() {
    use std::collections::BTreeMap;
    let open = || tool(json!({}), &[], json!({"annotations": {"category": "read"}}));
    let p = Package::builder()
        .tool(
            "bad",
            open(),
            // JSON object keys must be strings: a map keyed by pairs does not serialize.
            sync_fn(|_: Value| Json(BTreeMap::from([((1, 2), "x")]))),
        )
        .tool(
            "good",
            open(),
            sync_fn(|_: Value| Json(BTreeMap::from([("k", "x")]))),
        )
        .build()
        .unwrap();
    let r = call(&p, "bad", json!({}), &user());
    assert!(r.is_error);
    assert!(text(&r).contains("could not be serialized"), "{}", text(&r));
    let r = call(&p, "good", json!({}), &user());
    assert_eq!(r.structured_content, Some(json!({"k": "x"})));
}

#[test]
fn every_required_feature_must_be_granted() {
    let file = tool(
        json!({}),
        &[],
        json!({"annotations": {"category": "read"},
               "requires": {"features": ["a.read", "b.read"], "escalations": ["c.admin"]}}),
    );
    let p = Package::builder()
        .tool("two", file, sync_fn(|_: Value| "ran"))
        .build()
        .unwrap();
    for (grants, sees) in [
        (vec!["a.read"], false),
        (vec!["b.read", "c.admin"], false),
        (vec!["a.read", "b.read"], true),
    ] {
        let s = SessionContext::builder("u").grants(grants.clone()).build();
        assert_eq!(p.catalog(&s).count() == 1, sees, "{grants:?}");
        assert_eq!(!call(&p, "two", json!({}), &s).is_error, sees, "{grants:?}");
        let entry = p.tool("two").unwrap();
        assert_eq!(
            entry.features_satisfied(&grants),
            sees,
            "agrees with the catalog type"
        );
    }
}

async fn logging_echo(e: Echo, cx: &ToolContext) -> String {
    cx.debug(format_args!("echoing {} characters", e.text.len()));
    cx.info(format_args!("echo: {}", e.text));
    cx.log_data(LogLevel::Warning, &json!({"echoed": e.text}));
    e.text
}

/// A handler's log messages reach the host's sink through `CallOptions::log`, from the
/// sink's threshold on, under the tool's name and in order; the plain `dispatch` has no
/// sink, and the same handler's logging is a no-op.
#[test]
fn log_messages_reach_the_hosts_sink_from_its_threshold_on() {
    let p = Package::builder()
        .tool("echo", read_tool(), async_fn_cx(logging_echo))
        .build()
        .unwrap();
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = {
        let seen = Arc::clone(&seen);
        LogSink::new(LogLevel::Info, move |m: LogMessage| {
            seen.lock().unwrap().push(m);
        })
    };
    let options = CallOptions::new().log(sink);
    let r = block_on(p.dispatch_with("echo", json!({"text": "hi"}), &user(), options)).unwrap();
    assert_eq!(text(&r), "hi");
    let seen = seen.lock().unwrap();
    let got: Vec<(LogLevel, &str, &Value)> = seen
        .iter()
        .map(|m| (m.level, &*m.logger, &m.data))
        .collect();
    assert_eq!(
        got,
        [
            (LogLevel::Info, "echo", &json!("echo: hi")),
            (LogLevel::Warning, "echo", &json!({"echoed": "hi"})),
        ]
    );
    let plain = call(&p, "echo", json!({"text": "hi"}), &user());
    assert_eq!(text(&plain), "hi");
}
