//! [`Package`]: the package a host serves, its tools and their handlers, and the
//! look-ups that do not run a call (the gate, the catalog, the tools). Building one is
//! `builder.rs`, running a call `pipeline.rs`.

use std::fmt;
use std::sync::Arc;

use super::validation::Checker;
use super::{Handler, Refusal, SessionContext, StateMap, output};
use crate::catalog::ToolEntry;
use crate::load::FileReport;
use crate::result::BoundCaps;

/// A package a host serves: its tools and their handlers, ready to dispatch calls.
///
/// Built with [`Package::builder`]. Cheap to share (`Arc<Package>`): every method takes
/// `&self`, and the per-tool validators are compiled once, when the package is built.
pub struct Package {
    pub(super) tools: Vec<Slot>,
    pub(super) index: ToolIndex,
    pub(super) caps: BoundCaps,
    pub(super) state: Arc<StateMap>,
    pub(super) files: Vec<FileReport>,
    pub(super) mismatch: output::MismatchSink,
    pub(super) skills: Vec<neuralis_model::skill::Skill>,
}

/// One tool of a package.
pub(super) struct Slot {
    pub(super) entry: ToolEntry,
    /// The root's declared properties: at most this many members pass validation.
    pub(super) root_members: usize,
    pub(super) name: Arc<str>,
    pub(super) handler: Box<dyn Handler>,
    pub(super) cancellable: bool,
    /// How its calls run as tasks (`Handler::task`).
    pub(super) task: super::TaskMode,
    /// The input's properties mirrored in HTTP headers (`Handler::headers`).
    pub(super) headers: &'static [neuralis_model::header::Header],
    pub(super) validator: Checker,
    /// Whether a text call may be read straight into the input: the built-in validator,
    /// and defaults that pass where they go (`de::defaults_pass`).
    pub(super) reads_text: bool,
    pub(super) output: Option<output::OutputSchema>,
    /// The package's caps with the tool's own (`Handler::bound`).
    pub(super) caps: BoundCaps,
    /// The argument that asks for more, which a typed result's marker names.
    pub(super) more: Option<&'static str>,
    /// Whether the marker says the next offset to send in `more` (`ToolBound::more_offset`).
    pub(super) more_offset: bool,
}

impl fmt::Debug for Package {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Package")
            .field(
                "tools",
                &self.tools.iter().map(|s| &*s.name).collect::<Vec<_>>(),
            )
            .field("caps", &self.caps)
            .field("state", &*self.state)
            .finish_non_exhaustive()
    }
}

/// The tools by name: sorted, found by binary search (a call's look-up compares a few
/// names where a `HashMap` would hash the name with SipHash).
#[derive(Debug, Default)]
pub(super) struct ToolIndex(Vec<(Box<str>, usize)>);

impl ToolIndex {
    pub(super) fn new(mut names: Vec<(Box<str>, usize)>) -> Self {
        neuralis_model::sort::sort_by(&mut names, |a, b| a.0.cmp(&b.0));
        ToolIndex(names)
    }

    #[inline]
    pub(super) fn get(&self, name: &str) -> Option<&usize> {
        let i = self.0.binary_search_by(|(k, _)| (**k).cmp(name)).ok()?;
        Some(&self.0[i].1)
    }
}

/// The feature gate ([`ToolMeta::features_granted`](crate::catalog::ToolMeta::features_granted))
/// asked of the session's grants.
fn granted(entry: &ToolEntry, session: &SessionContext) -> bool {
    entry.meta.features_granted(|f| session.is_granted(f))
}

impl Package {
    /// Every tool file's report (warnings included), in load order.
    #[must_use]
    pub fn files(&self) -> &[FileReport] {
        &self.files
    }

    /// The caps results are bounded to.
    #[must_use]
    pub fn caps(&self) -> &BoundCaps {
        &self.caps
    }

    /// The package's state: its services and the values given to
    /// [`PackageBuilder::state`](super::PackageBuilder::state), shared by every call.
    #[must_use]
    pub fn state(&self) -> &StateMap {
        &self.state
    }

    /// The tool `name` if the session may call it: `None` both for an unknown tool and for
    /// one whose `requires.features` are not all granted.
    pub(super) fn gated(&self, name: &str, session: &SessionContext) -> Result<&Slot, Refusal> {
        self.index
            .get(name)
            .map(|&i| &self.tools[i])
            .filter(|s| granted(&s.entry, session))
            .ok_or_else(|| Refusal::new(name))
    }

    /// The tools `session` may see and call (catalog, MCP listing, client snapshot): those
    /// whose `requires.features` the session's grants satisfy, in load order.
    pub fn catalog<'a>(
        &'a self,
        session: &'a SessionContext,
    ) -> impl Iterator<Item = &'a ToolEntry> + 'a {
        self.tools
            .iter()
            .map(|s| &s.entry)
            .filter(|e| granted(e, session))
    }

    /// Each tool `session` may see, as `provider`'s own tool definition (in
    /// [`catalog`](Self::catalog) order): for an agent that calls the provider's API
    /// directly, without MCP. Each [`Definition`](crate::dialect::Definition) says what the
    /// provider's dialect loses; one that [`is_refused`](crate::dialect::Definition::is_refused)
    /// cannot be given to the provider as it is meant. The model's calls go to
    /// [`dispatch`](Self::dispatch) as they come (a strict model's `null` for an optional
    /// key reads as the key not sent).
    ///
    /// ```
    /// use neuralis_core::dialect::Provider;
    /// use neuralis_core::dispatch::{Package, SessionContext, sync_fn};
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Echo { text: String, times: Option<u8> }
    /// let tool = br#"{"type":"object","additionalProperties":false,"description":"Echo.",
    ///   "properties":{"text":{"type":"string"},"times":{"type":"integer","minimum":1}},
    ///   "required":["text"],"x-neuralis":{"annotations":{"category":"read"}}}"#;
    /// let package = Package::builder()
    ///     .tool("echo", &tool[..], sync_fn(|e: Echo| e.text.repeat(e.times.unwrap_or(1).into())))
    ///     .build()
    ///     .expect("valid");
    /// let session = SessionContext::builder("u").build();
    /// let tools = package.tool_definitions(Provider::OpenAi, &session);
    /// assert_eq!(tools[0].tool["name"], "echo");
    /// assert_eq!(tools[0].tool["parameters"]["required"], serde_json::json!(["text", "times"]));
    /// // What a strict model sends for "nothing" reads as not sent.
    /// let r = package.dispatch_blocking("echo", serde_json::json!({"text": "hi", "times": null}), &session);
    /// assert_eq!(r.for_model()["content"][0]["text"], "hi");
    /// ```
    #[must_use]
    pub fn tool_definitions(
        &self,
        provider: crate::dialect::Provider,
        session: &SessionContext,
    ) -> Vec<crate::dialect::Definition> {
        self.catalog(session)
            .map(|e| crate::dialect::tool_definition(provider, &e.name, &e.schema))
            .collect()
    }

    /// The output schema of the tool `name` (MCP `outputSchema`), when it declares one
    /// (host-side, not gated). Its successful results' `structuredContent` match it.
    #[must_use]
    pub fn output_schema(&self, name: &str) -> Option<&serde_json::Value> {
        let slot = &self.tools[*self.index.get(name)?];
        slot.output.as_ref().map(|o| o.output.schema())
    }

    /// The tool `name`, when the package has it (whoever asks: a host-side look-up, not
    /// gated).
    #[must_use]
    pub fn tool(&self, name: &str) -> Option<&ToolEntry> {
        self.index.get(name).map(|&i| &self.tools[i].entry)
    }

    /// How the tool `name` runs as a task (`#[tool(task = "...")]`, or its handler's
    /// [`Handler::task`](super::Handler::task)); `None` for a tool the package does not
    /// have. Ungated, as [`tool`](Self::tool) is.
    ///
    /// ```
    /// use neuralis_core::dispatch::{Package, TaskSupport, sync_fn};
    ///
    /// let file = br#"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
    ///   "additionalProperties": false, "description": "Say hello.", "properties": {},
    ///   "x-neuralis": {"annotations": {"category": "read"}}}"#;
    /// let package = Package::builder()
    ///     .tool("hello", &file[..], sync_fn(|_: serde_json::Value| "hello"))
    ///     .build()
    ///     .expect("a valid package");
    /// assert_eq!(package.task_mode("hello").map(|m| m.support), Some(TaskSupport::Forbidden));
    /// assert_eq!(package.task_mode("nope"), None);
    /// ```
    #[must_use]
    pub fn task_mode(&self, name: &str) -> Option<super::TaskMode> {
        self.index.get(name).map(|&i| self.tools[i].task)
    }

    /// The root properties of tool `name`'s input that an MCP server mirrors in HTTP
    /// headers (`#[schema(header = "...")]`; see [`neuralis_model::header`]), or `None` for
    /// no such tool.
    #[must_use]
    pub fn headers(&self, name: &str) -> Option<&'static [neuralis_model::header::Header]> {
        self.index.get(name).map(|&i| self.tools[i].headers)
    }

    /// The skills the package ships ([`PackageBuilder::skills`](super::PackageBuilder::skills)),
    /// in the order given.
    #[must_use]
    pub fn skills(&self) -> &[neuralis_model::skill::Skill] {
        &self.skills
    }

    /// Every tool of the package, ungated, in load order (for the host's own listings).
    pub fn tools(&self) -> impl Iterator<Item = &ToolEntry> {
        self.tools.iter().map(|s| &s.entry)
    }
}
