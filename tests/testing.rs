//! The test kit (`neuralis::testing`), through its public API only: a package of
//! macro-built tools called as a caller would, each view of the result read back.
#![allow(missing_docs)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use neuralis::dispatch::{
    APPROVAL_KEY, Answer, AskError, AskReason, Asker, BoxFuture, Elicited, LogLevel, Question,
};
use neuralis::result::BoundCaps;
use neuralis::testing::{TestClient, descriptor, handlers};
use neuralis::{ToolContext, ToolInput, ToolOutput, tool};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(ToolInput, Deserialize)]
pub struct Nothing {}

/// List the reports.
#[tool(annotations(read_only, category = "read"))]
pub fn reports_list(_: Nothing) -> &'static str {
    "2 reports"
}

/// Export the reports.
#[tool(
    annotations(read_only, category = "read"),
    requires(features("reports.export"))
)]
pub fn reports_export(_: Nothing) -> &'static str {
    "exported"
}

/// Audit the reports.
#[tool(
    annotations(read_only, category = "read"),
    requires(features("reports.export", "reports.audit"))
)]
pub fn reports_audit(_: Nothing) -> &'static str {
    "audited"
}

#[derive(ToolInput, Deserialize)]
pub struct Page {
    /// What to look for.
    #[schema(min_length = 1)]
    pub query: String,
    /// Which page, from 1.
    #[schema(minimum = 1)]
    pub page: Option<u32>,
    /// Where.
    pub filter: Option<Filter>,
}

#[derive(ToolInput, Deserialize)]
pub struct Filter {
    /// At most this many days old.
    #[schema(maximum = 365)]
    pub days: u32,
}

/// Search, a page at a time.
#[tool(defaults(page = 1), annotations(read_only, category = "read"))]
pub fn search(input: Page) -> Result<String, String> {
    if input.query == "missing" {
        return Err(format!("nothing matches `{}`", input.query));
    }
    Ok(format!(
        "page {} of `{}`",
        input.page.unwrap_or(0),
        input.query
    ))
}

/// How many removals ran.
static REMOVED: AtomicUsize = AtomicUsize::new(0);

#[derive(ToolInput, Deserialize)]
pub struct Remove {
    /// The secret.
    pub name: String,
    /// Erase it for good.
    pub purge: Option<bool>,
}

/// Remove a secret.
#[tool(annotations(destructive, category = "write"), ask_on_keys(purge))]
pub fn vault_remove(input: Remove) -> String {
    REMOVED.fetch_add(1, Ordering::SeqCst);
    format!("removed {}", input.name)
}

#[derive(ToolOutput, Serialize)]
pub struct Rows {
    /// The rows.
    pub rows: Vec<u32>,
    /// How many there are in all.
    pub total: usize,
}

/// Dump many rows.
#[tool(annotations(read_only, category = "read"))]
pub fn rows_dump(_: Nothing) -> Rows {
    Rows {
        rows: (0..500).collect(),
        total: 500,
    }
}

#[derive(ToolInput, Deserialize)]
pub struct Steps {
    /// How many steps.
    #[schema(minimum = 1, maximum = 10)]
    pub steps: u32,
}

/// Work in steps, reporting each, after waiting on a tokio timer.
#[tool(annotations(read_only, category = "read"))]
pub async fn work(input: Steps, cx: &ToolContext) -> String {
    cx.info("starting");
    for step in 1..=input.steps {
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        cx.progress(
            f64::from(step),
            Some(f64::from(input.steps)),
            Some(&format!("step {step}")),
        );
    }
    cx.debug(format_args!("{} steps", input.steps));
    format!("{} steps done", input.steps)
}

/// Work in steps without a runtime: a future that is pending once, woken at once.
#[tool(annotations(read_only, category = "read"))]
pub async fn work_plain(input: Steps, cx: &ToolContext) -> String {
    for step in 1..=input.steps {
        yield_once().await;
        cx.progress(f64::from(step), None, None);
    }
    "done".to_owned()
}

/// Pending once (waking itself), then ready.
async fn yield_once() {
    let mut yielded = false;
    std::future::poll_fn(|cx| {
        if yielded {
            std::task::Poll::Ready(())
        } else {
            yielded = true;
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    })
    .await;
}

mod store {
    use super::*;

    #[derive(Default)]
    pub struct Notes {
        pub items: Mutex<Vec<String>>,
    }

    #[derive(ToolInput, Deserialize)]
    pub struct Add {
        /// The note.
        pub text: String,
    }

    #[neuralis::tools]
    impl Notes {
        /// Add a note.
        #[tool(annotations(category = "write"))]
        pub fn notes_add(&self, input: Add, cx: &ToolContext) -> String {
            let mut items = self.items.lock().unwrap_or_else(|e| e.into_inner());
            items.push(input.text);
            format!("{} notes for {}", items.len(), cx.session().user_id())
        }
    }
}

fn reports() -> TestClient {
    TestClient::new(
        handlers!(reports_list, reports_export, reports_audit)
            .build()
            .expect("a valid package"),
    )
}

#[test]
fn the_list_follows_the_grants() {
    assert_eq!(reports().list(), ["reports_list"]);
    assert_eq!(
        reports().grants(["reports.export"]).list(),
        ["reports_list", "reports_export"]
    );
    assert_eq!(
        reports()
            .grants(["reports.audit"])
            .grants(["reports.export"])
            .list(),
        ["reports_list", "reports_export", "reports_audit"]
    );
    assert_eq!(
        reports()
            .grants(["reports.export"])
            .call("reports_export", json!({}))
            .text(),
        "exported"
    );
}

#[test]
fn a_gated_tool_is_refused_like_an_unknown_one() {
    let client = reports();
    let gated = client.call("reports_export", json!({}));
    let unknown = client.call("reports_exporter", json!({}));
    assert!(gated.is_error());
    assert_eq!(gated.refusal(), Some("unknown-tool"));
    assert_eq!(gated.text(), "no tool named `reports_export` is available");
    // The same result, but for the name it echoes.
    assert_eq!(
        serde_json::to_string(gated.result())
            .expect("json")
            .replace("reports_export", "NAME"),
        serde_json::to_string(unknown.result())
            .expect("json")
            .replace("reports_exporter", "NAME"),
    );
    assert_eq!(gated.asked(), None);
}

fn searcher() -> TestClient {
    TestClient::new(handlers!(search).build().expect("a valid package"))
}

#[test]
fn defaults_reach_the_handler() {
    let r = searcher().call("search", json!({"query": "rust"}));
    assert!(!r.is_error(), "{r:?}");
    assert_eq!(r.text(), "page 1 of `rust`");
    assert_eq!(r.refusal(), None);
    assert!(r.invalid_pointers().is_empty());
}

#[test]
fn an_invalid_argument_is_refused_at_its_pointer() {
    let client = searcher();
    let r = client.call(
        "search",
        json!({"query": "", "page": 0, "filter": {"days": 400}}),
    );
    assert_eq!(r.refusal(), Some("invalid-arguments"));
    assert_eq!(r.invalid_pointers(), ["/query", "/page", "/filter/days"]);
    r.assert_invalid_at("/filter/days")
        .assert_invalid_at("/query");
    // A session field is refused at its own key, a missing property at its name.
    client
        .call("search", json!({"query": "x", "userId": "u"}))
        .assert_invalid_at("/userId");
    client.call("search", json!({})).assert_invalid_at("/query");
}

/// How a release rolls out: internally tagged.
#[derive(ToolInput, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Strategy {
    /// A share of the hosts first.
    Canary {
        /// The share, in percent.
        #[schema(minimum = 1, maximum = 50)]
        percent: u8,
    },
    /// Everything at once.
    AllAtOnce,
}

/// Where: externally tagged.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// One region.
    Region(#[schema(min_length = 2)] String),
    /// Every region.
    Everywhere,
}

#[derive(ToolInput, Deserialize)]
pub struct Release {
    /// How it rolls out.
    pub strategy: Strategy,
    /// Where.
    pub target: Target,
    /// Only say what would happen.
    pub dry_run: Option<bool>,
}

/// Deploy a release.
#[tool(annotations(category = "execute"))]
pub fn deploy(input: Release) -> String {
    format!("{}", input.dry_run.unwrap_or(false))
}

#[test]
fn a_refusal_names_each_fault_inside_the_enum_its_tag_picks() {
    let client = TestClient::new(handlers!(deploy).build().expect("a valid package"));
    let r = client.call(
        "deploy",
        json!({"strategy": {"kind": "canary", "percent": 80}, "target": {"region": "x"},
               "dryrun": true}),
    );
    assert_eq!(r.invalid_at("/strategy/percent"), ["at most 50"]);
    assert_eq!(r.invalid_at("/target/region"), ["at least 2 characters"]);
    assert_eq!(
        r.invalid_at("/dryrun"),
        ["`dryrun` is not an argument here; did you mean `dry_run`?"]
    );
    let r = client.call(
        "deploy",
        json!({"strategy": {"kind": "rolling"}, "target": "everywhere"}),
    );
    assert_eq!(
        r.invalid_at("/strategy/kind"),
        ["one of `canary`, `all_at_once`"]
    );
    let r = client.call(
        "deploy",
        json!({"strategy": {"kind": "all_at_once", "percent": 5}, "target": "everywhere"}),
    );
    assert_eq!(
        r.invalid_at("/strategy/percent"),
        ["`percent` is not a field of `all_at_once`; it belongs to `canary`"]
    );
    assert!(
        r.text()
            .contains("- `/strategy/percent`: `percent` is not a field")
    );
}

#[test]
#[should_panic(
    expected = "expected `search` refused for an invalid argument at `/page`, got a success"
)]
fn the_pointer_assertion_says_what_the_call_got() {
    searcher()
        .call("search", json!({"query": "x"}))
        .assert_invalid_at("/page");
}

#[test]
fn an_err_is_an_is_error_result_with_its_text() {
    let r = searcher().call("search", json!({"query": "missing"}));
    assert!(r.is_error());
    assert_eq!(r.text(), "nothing matches `missing`");
    assert_eq!(r.refusal(), None, "the tool's own error is no refusal");
    assert_eq!(r.structured(), None);
    assert_eq!(r.result().for_model()["isError"], true);
}

#[test]
fn an_ask_is_refused_declined_and_approved() {
    let client = TestClient::new(handlers!(vault_remove).build().expect("a valid package"));
    let purge = json!({"name": "db", "purge": false});
    let before = REMOVED.load(Ordering::SeqCst);

    let nobody = client.call("vault_remove", purge.clone());
    assert!(nobody.is_error());
    assert_eq!(nobody.refusal(), Some("approval-required"));
    assert_eq!(nobody.asked(), Some(&AskReason::Keys(vec!["purge".into()])));
    assert!(
        nobody
            .text()
            .contains("needs approval (it sends `purge`) and was not run"),
        "{}",
        nobody.text()
    );
    assert!(
        nobody
            .text()
            .contains("did not declare the `elicitation` capability"),
        "{}",
        nobody.text()
    );

    let declined = client
        .clone()
        .approving(false)
        .call("vault_remove", purge.clone());
    assert_eq!(declined.refusal(), Some("approval-required"));
    assert!(
        declined.text().ends_with("the person declined"),
        "{}",
        declined.text()
    );
    assert_eq!(REMOVED.load(Ordering::SeqCst), before, "no handler ran");

    let approved = client.clone().approving(true).call("vault_remove", purge);
    assert!(!approved.is_error(), "{approved:?}");
    assert_eq!(approved.text(), "removed db");
    assert_eq!(
        approved.asked(),
        Some(&AskReason::Keys(vec!["purge".into()]))
    );
    assert_eq!(REMOVED.load(Ordering::SeqCst), before + 1);

    // Invalid arguments are refused before anybody is asked.
    let invalid = client.call("vault_remove", json!({"purge": true}));
    assert_eq!(
        (invalid.refusal(), invalid.asked()),
        (Some("invalid-arguments"), None)
    );

    // Without the key the call does not ask, approving or not.
    let quiet = client.call("vault_remove", json!({"name": "db"}));
    assert_eq!((quiet.asked(), quiet.text().as_str()), (None, "removed db"));
}

#[test]
fn a_bounded_result_says_so_and_the_card_sees_it() {
    let caps = BoundCaps {
        array_len: 20,
        ..BoundCaps::default()
    };
    let client = TestClient::new(handlers!(rows_dump).caps(caps).build().expect("valid"));
    let r = client.call("rows_dump", json!({}));
    assert!(r.bounded());
    let structured = r.structured().expect("structured content");
    assert_eq!(structured["rows"].as_array().map(Vec::len), Some(20));
    assert_eq!(structured["total"], 500);
    let card = r.card();
    assert_eq!(card["toolName"], "rows_dump");
    assert_eq!(card["structuredContent"], structured);
    assert_eq!(card["result"], r.result().for_model());

    let caps = BoundCaps {
        array_len: 500,
        ..BoundCaps::default()
    };
    let unbounded = TestClient::new(handlers!(rows_dump).caps(caps).build().expect("valid"));
    let r = unbounded.call("rows_dump", json!({}));
    assert!(!r.bounded());
    assert_eq!(r.structured().expect("structured")["rows"][499], 499);
}

#[tokio::test]
async fn an_async_tool_on_a_runtime_reports_progress_and_logs() {
    let client = TestClient::new(handlers!(work).build().expect("a valid package"));
    let r = client.call_async("work", json!({"steps": 3})).await;
    assert_eq!(r.text(), "3 steps done");
    let progress: Vec<_> = r
        .progress()
        .iter()
        .map(|p| (p.done, p.total, p.message.clone()))
        .collect();
    assert_eq!(
        progress,
        [
            (1.0, Some(3.0), Some("step 1".to_owned())),
            (2.0, Some(3.0), Some("step 2".to_owned())),
            (3.0, Some(3.0), Some("step 3".to_owned())),
        ]
    );
    let logs: Vec<_> = r.logs().iter().map(|m| (m.level, m.data.clone())).collect();
    assert_eq!(
        logs,
        [
            (LogLevel::Info, json!("starting")),
            (LogLevel::Debug, json!("3 steps"))
        ]
    );
    assert_eq!(&*r.logs()[0].logger, "work");
}

#[test]
fn an_async_tool_without_a_runtime_is_called_blocking() {
    let client = TestClient::new(handlers!(work_plain).build().expect("a valid package"));
    let r = client.call("work_plain", json!({"steps": 4}));
    assert_eq!(r.text(), "done");
    let done: Vec<f64> = r.progress().iter().map(|p| p.done).collect();
    assert_eq!(done, [1.0, 2.0, 3.0, 4.0]);
    assert!(r.logs().is_empty());
}

#[test]
fn a_method_is_named_through_its_service() {
    let notes = descriptor!(store::Notes::notes_add);
    assert_eq!(notes.name, "notes_add");
    let missing = handlers!(store::Notes::notes_add).build();
    assert!(missing.is_err(), "a method's package needs its service");
    let client = TestClient::new(
        handlers!(store::Notes::notes_add, search)
            .service(store::Notes::default())
            .build()
            .expect("a valid package"),
    )
    .user("ada");
    // A write tool without `ask_on_keys` asks nobody.
    client.call("notes_add", json!({"text": "a"}));
    let r = client.call("notes_add", json!({"text": "b"}));
    assert_eq!((r.asked(), r.text().as_str()), (None, "2 notes for ada"));
    assert_eq!(client.session().user_id(), "ada");
    assert_eq!(client.list(), ["notes_add", "search"]);
}

/// Empty the bin, if the person agrees.
#[tool(annotations(destructive, category = "write"))]
pub async fn bin_empty(_: Nothing, cx: &ToolContext) -> Result<&'static str, String> {
    match cx.confirm("empty", "Empty the bin?").await {
        Ok(true) => Ok("emptied"),
        Ok(false) => Ok("kept"),
        Err(e) => Err(e.to_string()),
    }
}

/// Answers every form (accepts or declines), and records the keys it was asked by.
#[derive(Clone, Default)]
struct Person {
    keys: Arc<Mutex<Vec<String>>>,
    accept: bool,
}

impl Person {
    fn keys(&self) -> Vec<String> {
        self.keys.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Asker for Person {
    fn ask<'a>(&'a self, key: &'a str, _: Question) -> BoxFuture<'a, Result<Answer, AskError>> {
        self.keys
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(key.to_owned());
        let answer = if self.accept {
            Elicited::Accept(Default::default())
        } else {
            Elicited::Decline
        };
        Box::pin(async move { Ok(Answer::Elicit(answer)) })
    }
}

#[test]
fn a_handlers_questions_go_to_the_tests_asker() {
    let client = TestClient::new(handlers!(bin_empty).build().expect("a valid package"));
    let nobody = client.clone().approving(true).call("bin_empty", json!({}));
    assert!(
        nobody.is_error(),
        "approving answers the gate only: {nobody:?}"
    );
    assert!(nobody.text().contains("`elicitation`"), "{}", nobody.text());

    let person = Person {
        accept: true,
        ..Person::default()
    };
    let r = client
        .clone()
        .asker(person.clone())
        .call("bin_empty", json!({}));
    assert_eq!((r.text().as_str(), r.asked()), ("emptied", None));
    assert_eq!(person.keys(), ["empty"]);

    let no = Person::default();
    assert_eq!(client.asker(no).call("bin_empty", json!({})).text(), "kept");
}

#[test]
fn without_approving_the_gate_asks_the_tests_asker() {
    let person = Person {
        accept: true,
        ..Person::default()
    };
    let client = TestClient::new(handlers!(vault_remove).build().expect("a valid package"))
        .asker(person.clone());
    let purge = json!({"name": "x", "purge": true});
    let r = client.call("vault_remove", purge.clone());
    assert_eq!(r.text(), "removed x");
    assert_eq!(person.keys(), [APPROVAL_KEY]);
    // `approving` answers before the asker is asked.
    let r = client.approving(false).call("vault_remove", purge);
    assert_eq!(r.refusal(), Some("approval-required"));
    assert_eq!(person.keys().len(), 1);
}

// Tasks: a tool that runs as a task, run to its end, answered one question at a time,
// cancelled, failed by a panic, gated before it begins.

#[derive(ToolInput, Deserialize)]
pub struct Job {
    /// The job's name.
    pub name: String,
    /// Wipe the target first.
    pub wipe: Option<bool>,
}

/// Run a job that asks two things at once.
#[tool(
    annotations(destructive, category = "write", cancellable),
    ask_on_keys(wipe),
    task = "required"
)]
pub async fn job_run(
    input: Job,
    cx: &ToolContext,
    abort: neuralis::AbortSignal,
) -> Result<String, AskError> {
    cx.progress(1.0, Some(3.0), Some("asking"));
    let (first, second) = futures_lite_join(
        cx.confirm("first", "First step?"),
        cx.confirm("second", "Second step?"),
    )
    .await;
    let (first, second) = (first?, second?);
    cx.progress(2.0, Some(3.0), Some("running"));
    if first && !second {
        // Waits until cancelled.
        abort.cancelled().await;
        return Ok("stopped".to_owned());
    }
    if input.name == "boom" {
        panic!("the job blew up");
    }
    Ok(format!("{} ran: {first} {second}", input.name))
}

/// Both futures polled together, as `tokio::join!` would (the kit needs no runtime).
async fn futures_lite_join<A: std::future::Future, B: std::future::Future>(
    a: A,
    b: B,
) -> (A::Output, B::Output) {
    let (mut a, mut b) = (Box::pin(a), Box::pin(b));
    let (mut ra, mut rb) = (None, None);
    std::future::poll_fn(|cx| {
        if ra.is_none() {
            ra = a.as_mut().poll(cx).map(Some).ready_or_none();
        }
        if rb.is_none() {
            rb = b.as_mut().poll(cx).map(Some).ready_or_none();
        }
        if ra.is_some() && rb.is_some() {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    (ra.expect("ready"), rb.expect("ready"))
}

trait ReadyOrNone<T> {
    fn ready_or_none(self) -> Option<T>;
}

impl<T> ReadyOrNone<T> for std::task::Poll<Option<T>> {
    fn ready_or_none(self) -> Option<T> {
        match self {
            std::task::Poll::Ready(v) => v,
            std::task::Poll::Pending => None,
        }
    }
}

fn jobs() -> TestClient {
    TestClient::new(handlers!(job_run).build().expect("a valid package"))
}

#[test]
fn a_task_waits_for_each_answer_and_ends_with_its_result() {
    use neuralis::testing::TaskState;
    let mut task = jobs().task("job_run", json!({"name": "nightly"}));
    assert_eq!(task.state(), TaskState::Working, "nothing ran yet");
    assert_eq!(task.run(), TaskState::InputRequired);
    assert_eq!(task.questions(), ["first", "second"], "both asked at once");
    assert_eq!(task.status_message().as_deref(), Some("asking"));
    assert!(!task.accept("third", json!({})), "never asked");
    assert!(task.accept("second", json!({})));
    assert_eq!(task.run(), TaskState::InputRequired, "one still open");
    assert_eq!(task.questions(), ["first"]);
    assert!(task.answer("first", Answer::Elicit(Elicited::Decline)));
    assert_eq!(task.run(), TaskState::Completed);
    let result = task.result().expect("ended");
    assert_eq!(result.text(), "nightly ran: false true");
    assert_eq!(result.progress().len(), 2);
    assert!(task.questions().is_empty());
}

#[test]
fn a_cancelled_task_stops_and_stays_cancelled() {
    use neuralis::testing::TaskState;
    let mut task = jobs().task("job_run", json!({"name": "nightly"}));
    task.run();
    task.accept("first", json!({}));
    task.answer("second", Answer::Elicit(Elicited::Decline));
    assert_eq!(
        task.step(),
        TaskState::Working,
        "waits for its abort signal"
    );
    assert_eq!(task.step(), TaskState::Working);
    task.cancel();
    assert_eq!(task.run(), TaskState::Cancelled);
    assert_eq!(
        task.result().expect("its handler returned").text(),
        "stopped"
    );
}

#[test]
fn a_panicking_task_fails_and_a_tool_error_completes() {
    use neuralis::testing::TaskState;
    let mut task = jobs().task("job_run", json!({"name": "boom"}));
    task.run();
    task.accept("first", json!({}));
    task.accept("second", json!({}));
    assert_eq!(task.run(), TaskState::Failed);
    let mut refused = jobs().task("job_run", json!({"name": 3}));
    assert_eq!(
        refused.run(),
        TaskState::Completed,
        "a tool error is a result"
    );
    assert!(refused.result().expect("ended").is_error());
}

#[test]
fn the_gate_asks_before_the_task_begins() {
    use neuralis::testing::TaskState;
    let mut declined = jobs().task("job_run", json!({"name": "n", "wipe": true}));
    assert_eq!(declined.run(), TaskState::Completed);
    assert!(
        declined.result().expect("ended").is_error(),
        "nobody to confirm"
    );
    assert!(declined.questions().is_empty(), "the handler never ran");
    let mut approved = jobs()
        .approving(true)
        .task("job_run", json!({"name": "n", "wipe": true}));
    assert_eq!(approved.run(), TaskState::InputRequired);
    assert!(approved.result().is_none());
}

#[test]
#[should_panic(expected = "does not run as a task")]
fn a_tool_that_never_runs_as_a_task_is_refused_by_the_kit() {
    let _ = reports().task("reports_list", json!({}));
}
