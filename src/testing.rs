//! Testing tools without a client: call a package's tools as a caller would, through the
//! whole pipeline (gate, approval, defaults, validation, handler, bounding), and read what
//! the model, the card and the person watching would get.
//!
//! A [`TestClient`] holds a built [`Package`] and a caller (a user and the features
//! granted to it); [`TestClient::call`] returns a [`TestResult`]. The package comes from
//! the crate's generated table (`neuralis_package::package()`, or `builder()` with its
//! services, in a crate whose `build.rs` calls `neuralis_build::emit()`), or from the
//! handlers themselves with [`handlers!`] (each tool's document composed from its handler, as
//! the drift test checks it equals the emitted file), with no build script needed:
//!
//! ```
//! use neuralis::testing::{TestClient, handlers};
//! use neuralis::{ToolInput, tool};
//! use serde_json::json;
//!
//! #[derive(ToolInput, serde::Deserialize)]
//! pub struct Pick {
//!     /// How many.
//!     #[schema(minimum = 1)]
//!     pub count: u32,
//! }
//!
//! /// Pick some items.
//! #[tool(defaults(count = 3), annotations(read_only, category = "read"))]
//! pub fn pick(input: Pick) -> String {
//!     format!("picked {}", input.count)
//! }
//!
//! let client = TestClient::new(handlers!(pick).build().expect("a valid package"));
//! assert_eq!(client.call("pick", json!({})).text(), "picked 3", "the default reaches the handler");
//! client.call("pick", json!({"count": 0})).assert_invalid_at("/count");
//! ```
//!
//! Everything runs in the test's own process, with no runtime ([`TestClient::call`]
//! blocks on a std-only executor); a handler that needs tokio is called with
//! [`TestClient::call_async`] from a `#[tokio::test]`.
//!
//! **Approvals.** The client calls with the approval gate on
//! ([`ApprovalPolicy::Ask`], what the MCP server does
//! by default): a call whose posture asks (it sends a key of the tool's `askOnKeys`, or
//! the tool's category is `unknown`) needs a person's confirmation. By default the client
//! is one that cannot confirm: such a call gets the `isError` result saying it needs
//! approval and was not run, and the handler never runs. [`TestClient::approving`] makes
//! the client answer every ask: `true` confirms (the call runs), `false` declines (the
//! call is refused). [`TestResult::asked`] says whether the call asked, and why. A
//! handler's own questions (`cx.elicit`, `cx.confirm`, `cx.sample`, `cx.roots`) go to the
//! [`Asker`] given with [`TestClient::asker`].

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use neuralis_core::dispatch::output::ERROR_META;
use neuralis_core::dispatch::{
    ApprovalPolicy, AskReason, Asker, CallOptions, Capability, LogLevel, LogMessage, LogSink,
    Package, PackageBuilder, Progress, ProgressSink, SessionContext, block_on,
};
use neuralis_core::result::{BOUND_META, Content, ContentBlock, ToolResult, iframe_payload};
use neuralis_core::tool::ToolDescriptor;

mod asker;
mod task;

use asker::TestAsker;
pub use task::{TaskState, TestTask};

/// The descriptor of a `#[tool]` handler, by the handler's path: `descriptor!(pick)` for a
/// function (`descriptor!(crate::search::pick)` from elsewhere), `descriptor!(Notes::notes_add)` for
/// a method of a `#[neuralis::tools]` impl (from the module of the impl:
/// `descriptor!(store::Notes::notes_add)`). A segment that starts with an upper-case letter
/// before the last names the service type. It expands to a `&'static ToolDescriptor`.
///
/// ```
/// use neuralis::{ToolInput, tool};
///
/// #[derive(ToolInput, serde::Deserialize)]
/// pub struct Echo {
///     /// What to say.
///     pub text: String,
/// }
///
/// /// Say it back.
/// #[tool(annotations(read_only, category = "read"))]
/// pub fn echo(input: Echo) -> String {
///     input.text
/// }
///
/// let descriptor = neuralis::testing::descriptor!(echo);
/// assert_eq!(descriptor.name, "echo");
/// assert_eq!(descriptor.document()["description"], "Say it back.");
/// ```
#[cfg(feature = "derive")]
pub use neuralis_macros::testing_descriptor as descriptor;

/// A [`PackageBuilder`] holding the tools of these handlers, by path (as for [`descriptor!`]):
/// `handlers!(pick)`, `handlers!(pick, Notes::notes_add)`. Give it services, state or caps,
/// then `build()`. Each tool's file is its handler's run-time composition
/// ([`ToolDescriptor::document`]), which the package's drift test holds equal to the
/// emitted `tools/<name>.json`. See [`package`].
///
/// ```
/// use neuralis::testing::{TestClient, handlers};
/// use neuralis::{ToolInput, tool};
///
/// #[derive(ToolInput, serde::Deserialize)]
/// pub struct Nothing {}
///
/// /// Say hello.
/// #[tool(annotations(read_only, category = "read"))]
/// pub fn hello(_: Nothing) -> &'static str {
///     "hello"
/// }
///
/// /// Say goodbye.
/// #[tool(annotations(read_only, category = "read"))]
/// pub fn goodbye(_: Nothing) -> &'static str {
///     "goodbye"
/// }
///
/// let client = TestClient::new(handlers!(hello, goodbye).build().expect("a valid package"));
/// assert_eq!(client.list(), ["hello", "goodbye"]);
/// ```
#[cfg(feature = "derive")]
pub use neuralis_macros::testing_handlers as handlers;

/// A [`PackageBuilder`] holding these descriptors' tools, each file composed at run time
/// from its handler ([`ToolDescriptor::document`]); what [`handlers!`] expands to.
///
/// ```
/// use neuralis::testing::{TestClient, descriptor, package};
/// use neuralis::{ToolInput, tool};
///
/// #[derive(ToolInput, serde::Deserialize)]
/// pub struct Nothing {}
///
/// /// Say hello.
/// #[tool(annotations(read_only, category = "read"))]
/// pub fn hello(_: Nothing) -> &'static str {
///     "hello"
/// }
///
/// let client = TestClient::new(package([descriptor!(hello)]).build().expect("a valid package"));
/// assert_eq!(client.call("hello", serde_json::json!({})).text(), "hello");
/// ```
pub fn package<'a>(descriptors: impl IntoIterator<Item = &'a ToolDescriptor>) -> PackageBuilder {
    descriptors
        .into_iter()
        .fold(Package::builder(), |builder, d| {
            builder.tool(d.name, d.document().to_string(), *d)
        })
}

/// A caller of a [`Package`], for tests: who calls (a user and the features granted to
/// it) and whether it answers approval requests. See the [module docs](self).
#[derive(Clone)]
#[must_use]
pub struct TestClient {
    package: Arc<Package>,
    user: String,
    grants: Vec<String>,
    approving: Option<bool>,
    asker: Option<Arc<dyn Asker>>,
    /// The capabilities this client did not declare ([`without`](Self::without)).
    missing: Vec<Capability>,
}

impl std::fmt::Debug for TestClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestClient")
            .field("package", &self.package)
            .field("user", &self.user)
            .field("grants", &self.grants)
            .field("approving", &self.approving)
            .field("missing", &self.missing)
            .field("asker", &self.asker.is_some())
            .finish()
    }
}

impl TestClient {
    /// A client of `package` (a [`Package`] or an `Arc` of one), calling as the user
    /// `"test-user"` with no features granted and no way to confirm an approval request.
    ///
    /// ```
    /// use neuralis::dispatch::Package;
    /// use neuralis::testing::TestClient;
    ///
    /// let client = TestClient::new(Package::builder().build().expect("an empty package"));
    /// assert!(client.list().is_empty());
    /// ```
    pub fn new(package: impl Into<Arc<Package>>) -> Self {
        Self {
            package: package.into(),
            user: "test-user".to_owned(),
            grants: Vec::new(),
            approving: None,
            asker: None,
            missing: Vec::new(),
        }
    }

    /// Plays a client that did not declare `capability` (MCP: `elicitation`, `sampling`,
    /// `roots`): a question that needs it is an `AskError::Unsupported` to the handler,
    /// whatever [`asker`](Self::asker) and [`approving`](Self::approving) would answer, and
    /// `cx.supports(capability)` is `false`, as on every MCP era (a call that then fails
    /// is what a 2026-07-28 server turns into `-32021`). Calls and tasks alike.
    ///
    /// ```
    /// # use neuralis::dispatch::{AskError, Capability, SamplingRequest};
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolContext, ToolInput, tool};
    /// # use serde_json::json;
    /// # #[derive(ToolInput, serde::Deserialize)]
    /// # pub struct Nothing {}
    /// /// Name the capital, with the client's model when it has one.
    /// #[tool(annotations(read_only, category = "read"))]
    /// pub async fn capital(_: Nothing, cx: &ToolContext) -> Result<String, AskError> {
    ///     match cx.sample("capital", SamplingRequest::user("Capital of France?", 10)).await {
    ///         Ok(sampled) => Ok(sampled.text),
    ///         Err(AskError::Unsupported(Capability::Sampling)) => Ok("Paris, I believe".into()),
    ///         Err(e) => Err(e),
    ///     }
    /// }
    ///
    /// let client = TestClient::new(handlers!(capital).build().expect("a valid package"));
    /// let r = client.without(Capability::Sampling).call("capital", json!({}));
    /// assert_eq!(r.text(), "Paris, I believe");
    /// ```
    pub fn without(mut self, capability: Capability) -> Self {
        if !self.missing.contains(&capability) {
            self.missing.push(capability);
        }
        self
    }

    /// Grants the caller these features (`grantedFeatures`, added to those granted
    /// before): a tool whose `requires(features(...))` they satisfy is listed and callable.
    ///
    /// ```
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolInput, tool};
    /// # #[derive(ToolInput, serde::Deserialize)]
    /// # pub struct Nothing {}
    /// /// Read the vault.
    /// #[tool(annotations(read_only, category = "read"), requires(features("vault.read")))]
    /// pub fn vault_read(_: Nothing) -> &'static str {
    ///     "secret"
    /// }
    ///
    /// let client = TestClient::new(handlers!(vault_read).build().expect("a valid package"));
    /// assert!(client.list().is_empty());
    /// assert_eq!(client.grants(["vault.read"]).list(), ["vault_read"]);
    /// ```
    pub fn grants<I, S>(mut self, features: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        for feature in features {
            let feature = feature.into();
            if !self.grants.contains(&feature) {
                self.grants.push(feature);
            }
        }
        self
    }

    /// The verified user the calls come from (`cx.session().user_id()` in a handler).
    ///
    /// ```
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolContext, ToolInput, tool};
    /// # #[derive(ToolInput, serde::Deserialize)]
    /// # pub struct Nothing {}
    /// /// Who am I?
    /// #[tool(annotations(read_only, category = "read"))]
    /// pub fn whoami(_: Nothing, cx: &ToolContext) -> String {
    ///     cx.session().user_id().to_owned()
    /// }
    ///
    /// let client = TestClient::new(handlers!(whoami).build().expect("a valid package"));
    /// assert_eq!(client.user("ada").call("whoami", serde_json::json!({})).text(), "ada");
    /// ```
    pub fn user(mut self, id: impl Into<String>) -> Self {
        self.user = id.into();
        self
    }

    /// Answers every approval request of the pipeline's gate
    /// ([`ApprovalPolicy::Ask`], as the MCP server
    /// asks by default): `true` confirms (the call runs), `false` declines (the call gets
    /// the gate's `isError` result and its handler never runs). Without it, the client is
    /// one that cannot confirm (no elicitation), and a call that asks gets the result
    /// such a client gets: needs approval, not run. The handler's own questions go to
    /// [`asker`](Self::asker).
    ///
    /// ```
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolInput, tool};
    /// # use serde_json::json;
    /// #[derive(ToolInput, serde::Deserialize)]
    /// pub struct Remove {
    ///     /// The secret.
    ///     pub name: String,
    ///     /// Erase it for good.
    ///     pub purge: Option<bool>,
    /// }
    ///
    /// /// Remove a secret.
    /// #[tool(annotations(destructive, category = "write"), ask_on_keys(purge))]
    /// pub fn vault_remove(input: Remove) -> String {
    ///     format!("removed {}", input.name)
    /// }
    ///
    /// let client = TestClient::new(handlers!(vault_remove).build().expect("a valid package"));
    /// let args = json!({"name": "db", "purge": true});
    /// assert!(client.call("vault_remove", args.clone()).is_error(), "nobody to confirm");
    /// assert!(client.clone().approving(false).call("vault_remove", args.clone()).is_error());
    /// assert_eq!(client.approving(true).call("vault_remove", args).text(), "removed db");
    /// ```
    pub fn approving(mut self, confirm: bool) -> Self {
        self.approving = Some(confirm);
        self
    }

    /// Answers the handler's own questions ([`ToolContext::elicit`](crate::ToolContext::elicit),
    /// `confirm`, `sample`, `roots`) with `asker`, and the approval gate's too unless
    /// [`approving`](Self::approving) answers them. Without one, the client declares no
    /// capability: every question fails with
    /// [`AskError::Unsupported`](neuralis_core::dispatch::AskError::Unsupported).
    ///
    /// ```
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolContext, ToolInput, tool};
    /// # use serde_json::json;
    /// use neuralis::dispatch::{Answer, AskError, Asker, BoxFuture, Elicited, Question};
    ///
    /// # #[derive(ToolInput, serde::Deserialize)]
    /// # pub struct Nothing {}
    /// /// Empty the bin, if the person agrees.
    /// #[tool(annotations(destructive, category = "write"))]
    /// pub async fn bin_empty(_: Nothing, cx: &ToolContext) -> Result<&'static str, String> {
    ///     match cx.confirm("empty", "Empty the bin?").await {
    ///         Ok(true) => Ok("emptied"),
    ///         Ok(false) => Ok("kept"),
    ///         Err(e) => Err(e.to_string()),
    ///     }
    /// }
    ///
    /// /// A person who says yes to every form.
    /// struct Yes;
    /// impl Asker for Yes {
    ///     fn ask<'a>(&'a self, _: &'a str, _: Question) -> BoxFuture<'a, Result<Answer, AskError>> {
    ///         Box::pin(async { Ok(Answer::Elicit(Elicited::Accept(Default::default()))) })
    ///     }
    /// }
    ///
    /// let client = TestClient::new(handlers!(bin_empty).build().expect("a valid package"));
    /// assert!(client.call("bin_empty", json!({})).is_error(), "nobody to ask");
    /// assert_eq!(client.asker(Yes).call("bin_empty", json!({})).text(), "emptied");
    /// ```
    pub fn asker(mut self, asker: impl Asker) -> Self {
        self.asker = Some(Arc::new(asker));
        self
    }

    /// The package the client calls.
    ///
    /// ```
    /// # use neuralis::dispatch::Package;
    /// # use neuralis::testing::TestClient;
    /// let client = TestClient::new(Package::builder().build().expect("an empty package"));
    /// assert_eq!(client.package().tools().count(), 0);
    /// ```
    #[must_use]
    pub fn package(&self) -> &Package {
        &self.package
    }

    /// The session the client's calls carry: its user and grants.
    ///
    /// ```
    /// # use neuralis::dispatch::Package;
    /// # use neuralis::testing::TestClient;
    /// let client = TestClient::new(Package::builder().build().expect("an empty package"))
    ///     .user("ada")
    ///     .grants(["reports"]);
    /// let session = client.session();
    /// assert_eq!(session.user_id(), "ada");
    /// assert!(session.is_granted("reports"));
    /// ```
    #[must_use]
    pub fn session(&self) -> SessionContext {
        SessionContext::builder(self.user.as_str())
            .grants(self.grants.iter().map(String::as_str))
            .build()
    }

    /// The names of the tools this caller sees, in the order they are served (the MCP
    /// `tools/list` order): a tool whose `requires.features` the grants do not satisfy is
    /// not listed.
    ///
    /// ```
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolInput, tool};
    /// # #[derive(ToolInput, serde::Deserialize)]
    /// # pub struct Nothing {}
    /// /// Say hello.
    /// #[tool(annotations(read_only, category = "read"))]
    /// pub fn hello(_: Nothing) -> &'static str {
    ///     "hello"
    /// }
    ///
    /// let client = TestClient::new(handlers!(hello).build().expect("a valid package"));
    /// assert_eq!(client.list(), ["hello"]);
    /// ```
    #[must_use]
    pub fn list(&self) -> Vec<String> {
        let session = self.session();
        self.package
            .catalog(&session)
            .map(|entry| entry.name.clone())
            .collect()
    }

    /// Calls the tool `name` with `args` and waits for its result, on the test's thread
    /// with no runtime. A handler that waits on a runtime's I/O or timers needs
    /// [`call_async`](Self::call_async) from that runtime instead.
    ///
    /// ```
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolInput, tool};
    /// # use serde_json::json;
    /// #[derive(ToolInput, serde::Deserialize)]
    /// pub struct Divide {
    ///     /// The dividend.
    ///     pub a: i64,
    ///     /// The divisor.
    ///     pub b: i64,
    /// }
    ///
    /// /// Divide two integers.
    /// #[tool(annotations(read_only, category = "read"))]
    /// pub fn divide(input: Divide) -> Result<String, String> {
    ///     input.a.checked_div(input.b).map(|q| q.to_string()).ok_or_else(|| "division by zero".into())
    /// }
    ///
    /// let client = TestClient::new(handlers!(divide).build().expect("a valid package"));
    /// assert_eq!(client.call("divide", json!({"a": 7, "b": 2})).text(), "3");
    /// let failed = client.call("divide", json!({"a": 7, "b": 0}));
    /// assert!(failed.is_error());
    /// assert_eq!(failed.text(), "division by zero");
    /// ```
    pub fn call(&self, name: &str, args: Value) -> TestResult {
        block_on(self.call_async(name, args)).unwrap_or_else(|| TestResult {
            tool: name.to_owned(),
            args: Value::Null,
            result: ToolResult::error(
                "the tool's handler is waiting on something this thread cannot drive; \
                 use `call_async` from the runtime it needs",
            ),
            asked: None,
            progress: Vec::new(),
            logs: Vec::new(),
        })
    }

    /// [`call`](Self::call) for async tests: the same call, awaited on the caller's
    /// runtime (the one a handler's tokio I/O or timers need).
    ///
    /// ```
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolContext, ToolInput, tool};
    /// # use serde_json::json;
    /// #[derive(ToolInput, serde::Deserialize)]
    /// pub struct Count {
    ///     /// Up to.
    ///     pub to: u32,
    /// }
    ///
    /// /// Count, reporting progress.
    /// #[tool(annotations(read_only, category = "read"))]
    /// pub async fn count(input: Count, cx: &ToolContext) -> String {
    ///     for n in 1..=input.to {
    ///         cx.progress(f64::from(n), Some(f64::from(input.to)), None);
    ///     }
    ///     format!("counted to {}", input.to)
    /// }
    ///
    /// let client = TestClient::new(handlers!(count).build().expect("a valid package"));
    /// # neuralis::dispatch::block_on(async {
    /// let r = client.call_async("count", json!({"to": 3})).await;
    /// assert_eq!(r.text(), "counted to 3");
    /// assert_eq!(r.progress().len(), 3);
    /// # });
    /// ```
    pub fn call_async(&self, name: &str, args: Value) -> impl Future<Output = TestResult> + '_ {
        let name = name.to_owned();
        async move {
            let session = self.session();
            let heard = Heard::default();
            let asker = TestAsker {
                approving: self.approving,
                inner: self.asker.clone(),
                approval: Mutex::new(None),
                missing: self.missing.clone(),
            };
            let asker = Arc::new(asker);
            let options = CallOptions::new()
                .approval(ApprovalPolicy::Ask)
                .shared_asker(Arc::clone(&asker) as Arc<dyn Asker>)
                .progress(heard.progress_sink())
                .log(heard.log_sink());
            let result = self
                .package
                .dispatch_with(&name, args.clone(), &session, options)
                .await;
            let (progress, logs) = heard.take();
            let asked = lock(&asker.approval).take();
            TestResult {
                tool: name,
                args,
                result,
                asked,
                progress,
                logs,
            }
        }
    }
}

/// Where a call's progress reports and log messages go while it runs.
#[derive(Default)]
struct Heard {
    progress: Arc<Mutex<Vec<Progress>>>,
    logs: Arc<Mutex<Vec<LogMessage>>>,
}

impl Heard {
    fn progress_sink(&self) -> ProgressSink {
        let progress = Arc::clone(&self.progress);
        ProgressSink::new(move |p| lock(&progress).push(p))
    }

    /// Every level: a test reads what a client asking for `debug` would get.
    fn log_sink(&self) -> LogSink {
        let logs = Arc::clone(&self.logs);
        LogSink::new(LogLevel::Debug, move |m| lock(&logs).push(m))
    }

    /// What was sent, once the call is over.
    fn take(self) -> (Vec<Progress>, Vec<LogMessage>) {
        (
            std::mem::take(&mut *lock(&self.progress)),
            std::mem::take(&mut *lock(&self.logs)),
        )
    }
}

/// A recorder's value (a handler that panicked while sending leaves it usable).
fn lock<T>(value: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    value.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What one call of a [`TestClient`] gave: the result as the pipeline returned it
/// (bounded), with views of what the model, the card and the person watching get.
#[derive(Debug, Clone)]
pub struct TestResult {
    tool: String,
    args: Value,
    result: ToolResult,
    asked: Option<AskReason>,
    progress: Vec<Progress>,
    logs: Vec<LogMessage>,
}

impl TestResult {
    /// Whether the call failed (`isError`): a refusal (unknown or gated tool, invalid
    /// arguments, approval not given), a handler's `Err`, a panic, a cancellation.
    ///
    /// ```
    /// # use neuralis::dispatch::Package;
    /// # use neuralis::testing::TestClient;
    /// let client = TestClient::new(Package::builder().build().expect("an empty package"));
    /// assert!(client.call("nothing", serde_json::json!({})).is_error());
    /// ```
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.result.is_error
    }

    /// The text the model reads: the `content`'s text, its text blocks joined with
    /// newlines.
    ///
    /// ```
    /// # use neuralis::dispatch::Package;
    /// # use neuralis::testing::TestClient;
    /// let client = TestClient::new(Package::builder().build().expect("an empty package"));
    /// let r = client.call("nothing", serde_json::json!({}));
    /// assert_eq!(r.text(), "no tool named `nothing` is available");
    /// ```
    #[must_use]
    pub fn text(&self) -> String {
        match &self.result.content {
            Content::Text(text) => text.clone(),
            Content::Blocks(blocks) => blocks
                .iter()
                .filter_map(|b| match b {
                    ContentBlock::Text(t) => Some(t.text.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }

    /// The result's `structuredContent`, when it has one.
    ///
    /// ```
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolInput, ToolOutput, tool};
    /// # use serde_json::json;
    /// # #[derive(ToolInput, serde::Deserialize)]
    /// # pub struct Nothing {}
    /// #[derive(ToolOutput, serde::Serialize)]
    /// pub struct Total {
    ///     /// The sum.
    ///     pub total: u32,
    /// }
    ///
    /// /// Add up.
    /// #[tool(annotations(read_only, category = "read"))]
    /// pub fn add_up(_: Nothing) -> Total {
    ///     Total { total: 6 }
    /// }
    ///
    /// let client = TestClient::new(handlers!(add_up).build().expect("a valid package"));
    /// assert_eq!(client.call("add_up", json!({})).structured(), Some(json!({"total": 6})));
    /// ```
    #[must_use]
    pub fn structured(&self) -> Option<Value> {
        self.result.structured_content.clone()
    }

    /// What a sandboxed card receives: the iframe payload (`toolName`, `status`,
    /// `structuredContent`, `input`, `result` as the model reads it, and `truncated`
    /// when the card's budget cut something), built from the arguments as sent.
    ///
    /// ```
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolInput, tool};
    /// # use serde_json::json;
    /// # #[derive(ToolInput, serde::Deserialize)]
    /// # pub struct Nothing {}
    /// /// Check.
    /// #[tool(annotations(read_only, category = "read"))]
    /// pub fn check(_: Nothing) -> neuralis::Json<serde_json::Value> {
    ///     neuralis::Json(json!({"ok": true, "checked": 3}))
    /// }
    ///
    /// let client = TestClient::new(handlers!(check).build().expect("a valid package"));
    /// let card = client.call("check", json!({})).card();
    /// assert_eq!(card["toolName"], "check");
    /// assert_eq!(card["status"]["tone"], "success");
    /// assert_eq!(card["structuredContent"]["checked"], 3);
    /// ```
    #[must_use]
    pub fn card(&self) -> Value {
        iframe_payload(&self.tool, &self.args, &self.result).value
    }

    /// Whether bounding cut anything from the result (the package's
    /// [`BoundCaps`](crate::result::BoundCaps); what it cut is recorded under
    /// `_meta.neuralis.bound`).
    ///
    /// ```
    /// # use neuralis::result::BoundCaps;
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolInput, tool};
    /// # use serde_json::json;
    /// # #[derive(ToolInput, serde::Deserialize)]
    /// # pub struct Nothing {}
    /// /// Talk a lot.
    /// #[tool(annotations(read_only, category = "read"))]
    /// pub fn talk(_: Nothing) -> String {
    ///     "bla ".repeat(100)
    /// }
    ///
    /// let caps = BoundCaps { text_chars: 80, ..BoundCaps::default() };
    /// let client = TestClient::new(handlers!(talk).caps(caps).build().expect("a valid package"));
    /// let r = client.call("talk", json!({}));
    /// assert!(r.bounded());
    /// assert!(r.text().ends_with("… [truncated: 400 → 45 characters]"));
    /// ```
    #[must_use]
    pub fn bounded(&self) -> bool {
        self.result
            .neuralis_meta()
            .is_some_and(|own| own.contains_key(BOUND_META))
    }

    /// Whether the call asked for a person's approval, and why: `None` when its posture
    /// did not ask (or the tool is not available to the caller). See
    /// [`TestClient::approving`].
    ///
    /// ```
    /// # use neuralis::dispatch::AskReason;
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolInput, tool};
    /// # use serde_json::json;
    /// # #[derive(ToolInput, serde::Deserialize)]
    /// # pub struct Nothing {}
    /// /// Run something nobody classified.
    /// #[tool(annotations(category = "unknown"))]
    /// pub fn run_it(_: Nothing) -> &'static str {
    ///     "ran"
    /// }
    ///
    /// let client = TestClient::new(handlers!(run_it).build().expect("a valid package"));
    /// let r = client.approving(true).call("run_it", json!({}));
    /// assert_eq!(r.asked(), Some(&AskReason::UnknownCategory));
    /// assert_eq!(r.text(), "ran");
    /// ```
    #[must_use]
    pub fn asked(&self) -> Option<&AskReason> {
        self.asked.as_ref()
    }

    /// The progress reports the handler sent (`cx.progress(...)`), in order.
    ///
    /// ```
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolContext, ToolInput, tool};
    /// # #[derive(ToolInput, serde::Deserialize)]
    /// # pub struct Nothing {}
    /// /// Index.
    /// #[tool(annotations(read_only, category = "read"))]
    /// pub fn index(_: Nothing, cx: &ToolContext) -> &'static str {
    ///     cx.progress(1.0, Some(2.0), Some("half"));
    ///     "done"
    /// }
    ///
    /// let client = TestClient::new(handlers!(index).build().expect("a valid package"));
    /// let r = client.call("index", serde_json::json!({}));
    /// assert_eq!(r.progress()[0].message.as_deref(), Some("half"));
    /// ```
    #[must_use]
    pub fn progress(&self) -> &[Progress] {
        &self.progress
    }

    /// The log messages the handler sent (`cx.info(...)`, `cx.log_data(...)`), every level,
    /// in order.
    ///
    /// ```
    /// # use neuralis::dispatch::LogLevel;
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolContext, ToolInput, tool};
    /// # #[derive(ToolInput, serde::Deserialize)]
    /// # pub struct Nothing {}
    /// /// Sync.
    /// #[tool(annotations(read_only, category = "read"))]
    /// pub fn sync(_: Nothing, cx: &ToolContext) -> &'static str {
    ///     cx.debug("starting");
    ///     cx.warning(format_args!("{} items skipped", 2));
    ///     "synced"
    /// }
    ///
    /// let client = TestClient::new(handlers!(sync).build().expect("a valid package"));
    /// let r = client.call("sync", serde_json::json!({}));
    /// assert_eq!(r.logs()[1].level, LogLevel::Warning);
    /// assert_eq!(r.logs()[1].data, "2 items skipped");
    /// ```
    #[must_use]
    pub fn logs(&self) -> &[LogMessage] {
        &self.logs
    }

    /// The whole result, as the pipeline returned it (`for_model()`, `for_ui()`, `_meta`).
    ///
    /// ```
    /// # use neuralis::dispatch::Package;
    /// # use neuralis::testing::TestClient;
    /// let client = TestClient::new(Package::builder().build().expect("an empty package"));
    /// let r = client.call("nothing", serde_json::json!({}));
    /// assert_eq!(r.result().for_model()["isError"], true);
    /// ```
    #[must_use]
    pub fn result(&self) -> &ToolResult {
        &self.result
    }

    /// The id of the pipeline's refusal (`structuredContent.error` of an `isError`
    /// result): `"unknown-tool"` (an unknown tool and one the caller's grants do not
    /// reach, alike), `"invalid-arguments"`, `"approval-required"`, `"cancelled"`,
    /// `"internal"` (a panic); `None` for a success and for a handler's own error.
    ///
    /// ```
    /// # use neuralis::dispatch::Package;
    /// # use neuralis::testing::TestClient;
    /// let client = TestClient::new(Package::builder().build().expect("an empty package"));
    /// assert_eq!(client.call("nothing", serde_json::json!({})).refusal(), Some("unknown-tool"));
    /// ```
    #[must_use]
    pub fn refusal(&self) -> Option<&str> {
        self.details()?.get("error")?.as_str()
    }

    /// The details of an `isError` result: its `structuredContent`, or for a tool with an
    /// output schema, where the pipeline keeps them instead (`_meta.neuralis.error`).
    fn details(&self) -> Option<&Value> {
        if !self.result.is_error {
            return None;
        }
        self.result.structured_content.as_ref().or_else(|| {
            self.result
                .neuralis_meta()
                .and_then(|own| own.get(ERROR_META))
        })
    }

    /// The JSON pointers of the arguments that failed validation (or deserialization), in
    /// the order the result lists them; empty unless [`refusal`](Self::refusal) is
    /// `"invalid-arguments"`.
    ///
    /// ```
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolInput, tool};
    /// # use serde_json::json;
    /// #[derive(ToolInput, serde::Deserialize)]
    /// pub struct Page {
    ///     /// From 1.
    ///     #[schema(minimum = 1)]
    ///     pub page: u32,
    ///     /// At most 50.
    ///     #[schema(maximum = 50)]
    ///     pub size: u32,
    /// }
    ///
    /// /// List a page.
    /// #[tool(annotations(read_only, category = "read"))]
    /// pub fn list_page(input: Page) -> String {
    ///     format!("{}/{}", input.page, input.size)
    /// }
    ///
    /// let client = TestClient::new(handlers!(list_page).build().expect("a valid package"));
    /// let r = client.call("list_page", json!({"page": 0, "size": 99}));
    /// assert_eq!(r.invalid_pointers(), ["/page", "/size"]);
    /// ```
    #[must_use]
    pub fn invalid_pointers(&self) -> Vec<&str> {
        if self.refusal() != Some("invalid-arguments") {
            return Vec::new();
        }
        self.details()
            .and_then(|s| s.get("errors"))
            .and_then(Value::as_array)
            .map(|errors| {
                errors
                    .iter()
                    .filter_map(|e| e.get("pointer").and_then(Value::as_str))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// What the refusal says about the value at `pointer` (`""` for the arguments as a
    /// whole): each fault's words there, exactly as the model reads them ("at most 50",
    /// "one of `stable`, `beta`"); empty unless [`refusal`](Self::refusal) is
    /// `"invalid-arguments"`. See `docs/refusals.md` for the format.
    ///
    /// ```
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolInput, tool};
    /// # use serde_json::json;
    /// #[derive(ToolInput, serde::Deserialize)]
    /// pub struct Size {
    ///     /// At most 50.
    ///     #[schema(maximum = 50)]
    ///     pub size: u32,
    /// }
    ///
    /// /// Size it.
    /// #[tool(annotations(read_only, category = "read"))]
    /// pub fn size_it(input: Size) -> String {
    ///     input.size.to_string()
    /// }
    ///
    /// let client = TestClient::new(handlers!(size_it).build().expect("a valid package"));
    /// let r = client.call("size_it", json!({"size": 99}));
    /// assert_eq!(r.invalid_at("/size"), ["at most 50"]);
    /// ```
    #[must_use]
    pub fn invalid_at(&self, pointer: &str) -> Vec<&str> {
        if self.refusal() != Some("invalid-arguments") {
            return Vec::new();
        }
        self.details()
            .and_then(|s| s.get("errors"))
            .and_then(Value::as_array)
            .map(|errors| {
                errors
                    .iter()
                    .filter(|e| e.get("pointer").and_then(Value::as_str) == Some(pointer))
                    .filter_map(|e| e.get("message").and_then(Value::as_str))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Asserts that the call was refused for invalid arguments, one of them at `pointer`
    /// (`""` for the arguments as a whole); on failure the panic shows what the call got.
    ///
    /// # Panics
    ///
    /// When the call was not refused for invalid arguments, or no failing value is at
    /// `pointer`.
    ///
    /// ```
    /// # use neuralis::testing::{TestClient, handlers};
    /// # use neuralis::{ToolInput, tool};
    /// # use serde_json::json;
    /// # #[derive(ToolInput, serde::Deserialize)]
    /// # pub struct Search {
    /// #     /// What.
    /// #     #[schema(min_length = 1)]
    /// #     pub query: String,
    /// # }
    /// /// Search.
    /// #[tool(annotations(read_only, category = "read"))]
    /// pub fn search(input: Search) -> String {
    ///     input.query
    /// }
    ///
    /// let client = TestClient::new(handlers!(search).build().expect("a valid package"));
    /// client.call("search", json!({"query": ""})).assert_invalid_at("/query");
    /// ```
    #[track_caller]
    pub fn assert_invalid_at(&self, pointer: &str) -> &Self {
        let pointers = self.invalid_pointers();
        assert!(
            pointers.contains(&pointer),
            "expected `{}` refused for an invalid argument at `{pointer}`, got {} (refusal {:?}, invalid at {pointers:?}):\n{}",
            self.tool,
            if self.is_error() {
                "an error"
            } else {
                "a success"
            },
            self.refusal(),
            self.text(),
        );
        self
    }
}
