//! handler-signature near-misses for methods: `#[tool]` on `&self` methods of a
//! `#[neuralis::tools]` impl, sync and async, with the context and the abort signal; two
//! services in one package, two impl blocks for one type, and a free function beside them.
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use neuralis::dispatch::{BuildProblem, Package, PackageBuilder, SessionContext};
use neuralis::tool::ToolDescriptor;
use neuralis::{AbortSignal, ToolContext, ToolInput, ToolResult, tool, tools};

#[derive(ToolInput, serde::Deserialize)]
pub struct Add {
    /// How much to add.
    pub by: u64,
}

#[derive(ToolInput, serde::Deserialize)]
pub struct Nothing {}

/// A counter: the first service.
#[derive(Default)]
pub struct Counter {
    total: AtomicU64,
}

#[tools]
impl Counter {
    /// Add to the counter.
    #[tool(annotations(category = "write"))]
    pub fn counter_add(&self, input: Add) -> u64 {
        self.total.fetch_add(input.by, Ordering::SeqCst) + input.by
    }

    /// Read the counter, asynchronously, with the call's context.
    #[tool(annotations(read_only, category = "read"), ui(presentation = "inline"))]
    async fn counter_read(&self, cx: &ToolContext, input: Nothing) -> String {
        let _ = input;
        format!("{} for {}", self.total.load(Ordering::SeqCst), cx.session().user_id())
    }

    /// Not a tool: an ordinary method stays as written.
    pub fn get(&self) -> u64 {
        self.total.load(Ordering::SeqCst)
    }
}

// A second impl block for the same type.
#[neuralis::tools]
impl Counter {
    /// Wait until aborted, then reset.
    #[tool(name = "counter-reset", annotations(category = "write", cancellable))]
    pub async fn reset(&self, input: Nothing, abort: AbortSignal) -> ToolResult {
        let _ = input;
        abort.cancelled().await;
        self.total.store(0, Ordering::SeqCst);
        ToolResult::text("reset")
    }
}

/// A log: the second service, with a method named like the first's.
#[derive(Default)]
pub struct Log {
    lines: Mutex<Vec<String>>,
}

#[tools]
impl Log {
    /// Append to the log; the signal by reference.
    #[tool(annotations(category = "write", cancellable))]
    pub fn log_add(&self, input: Add, abort: &AbortSignal) -> Result<usize, String> {
        if abort.is_aborted() {
            return Err("aborted".into());
        }
        let mut lines = self.lines.lock().map_err(|_| "poisoned".to_owned())?;
        lines.push(input.by.to_string());
        Ok(lines.len())
    }

    /// `get` like `Counter::get`: descriptors are named by type and method.
    #[tool(name = "log_get", annotations(read_only, category = "read"), ui(presentation = "inline"))]
    pub fn get(&self, input: Nothing) -> Vec<String> {
        let _ = input;
        self.lines.lock().map(|l| l.clone()).unwrap_or_default()
    }
}

/// A free function beside the services.
#[tool(annotations(read_only, category = "read"), ui(presentation = "inline"))]
pub fn ping(input: Nothing) -> &'static str {
    let _ = input;
    "pong"
}

fn builder() -> PackageBuilder {
    let tools: [&ToolDescriptor; 6] = [
        &__neuralis_tool_Counter__counter_add,
        &__neuralis_tool_Counter__counter_read,
        &__neuralis_tool_Counter__reset,
        &__neuralis_tool_Log__log_add,
        &__neuralis_tool_Log__get,
        &__neuralis_tool_ping,
    ];
    let mut builder = Package::builder();
    for d in tools {
        let file = d.document().to_string();
        builder = builder.tool(d.name, file.as_bytes(), *d);
    }
    builder
}

fn text(result: &ToolResult) -> String {
    result.for_model()["content"][0]["text"].as_str().unwrap_or_default().to_owned()
}

fn main() {
    assert_eq!(__neuralis_tool_Counter__counter_add.service.map(|s| s.name), Some("Counter"));
    assert!(__neuralis_tool_ping.service.is_none());

    // Without the services the package does not build, and says which are missing.
    let err = builder().build().expect_err("no services");
    let missing: Vec<(String, String)> = err
        .problems
        .iter()
        .filter_map(|p| match p {
            BuildProblem::NoService { tool, service } => Some((tool.clone(), service.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(missing.len(), 5, "{err}");
    assert!(missing.contains(&("log_get".to_owned(), "Log".to_owned())), "{err}");

    let package = builder()
        .service(Counter::default())
        .service(std::sync::Arc::new(Log::default()))
        .build()
        .expect("every service given");
    let session = SessionContext::builder("ada").build();
    let call = |name: &str, args: serde_json::Value| package.dispatch_blocking(name, args, &session);
    assert_eq!(call("counter_add", serde_json::json!({"by": 2})).structured_content, Some(serde_json::json!({"result": 2})));
    assert_eq!(call("counter_add", serde_json::json!({"by": 3})).structured_content, Some(serde_json::json!({"result": 5})));
    assert_eq!(text(&call("counter_read", serde_json::json!({}))), "5 for ada");
    assert_eq!(package.state().get::<Counter>().map(Counter::get), Some(5));
    assert_eq!(call("log_add", serde_json::json!({"by": 7})).structured_content, Some(serde_json::json!({"result": 1})));
    assert_eq!(call("log_get", serde_json::json!({})).structured_content, Some(serde_json::json!({"result": ["7"]})));
    assert_eq!(text(&call("ping", serde_json::json!({}))), "pong");
    let bad = call("counter_add", serde_json::json!({"by": "x"}));
    assert!(bad.is_error, "invalid arguments never reach the method");
}
