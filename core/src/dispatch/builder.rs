//! [`PackageBuilder`]: tool files and handlers in, a checked [`Package`] out.

use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::de::defaults_pass;
use super::output::{MismatchSink, Output, OutputSchema};
use super::package::ToolIndex;
use super::validation::Checker;
use super::{DuplicateState, Handler, OutputMismatch, Package, Slot, StateMap};
use crate::contract::CheckOptions;
use crate::load::{FileReport, Loader};
use crate::result::BoundCaps;
use neuralis_model::skill::Skill;
use neuralis_model::validate::CompileError;

/// Builds a [`Package`] from tool files and handlers; see [`Package::builder`].
///
/// A tool file given with [`tool`](Self::tool) or [`tool_file`](Self::tool_file) is
/// checked against the contract when the package is built, and a handler is made by
/// [`sync_fn`](super::sync_fn), [`sync_fn_cx`](super::sync_fn_cx),
/// [`async_fn`](super::async_fn) or [`async_fn_cx`](super::async_fn_cx). The package
/// table's `neuralis_package::builder()` adds the emitted `tools/<name>.json` files, which
/// the build script checked, with their handlers' descriptors.
#[must_use]
pub struct PackageBuilder {
    sources: Vec<Source>,
    handlers: Vec<(String, Box<dyn Handler>)>,
    caps: BoundCaps,
    state: StateMap,
    duplicate_state: Vec<DuplicateState>,
    options: CheckOptions,
    outputs: Vec<(String, Output)>,
    mismatch: MismatchSink,
    skills: Vec<Skill>,
}

impl fmt::Debug for PackageBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PackageBuilder")
            .field(
                "tools",
                &self.sources.iter().map(Source::name).collect::<Vec<_>>(),
            )
            .field(
                "handlers",
                &self.handlers.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            )
            .field("caps", &self.caps)
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

/// A tool file given to the builder.
enum Source {
    /// Given by hand: checked when the package is built, by `check`. The checker is named
    /// where a file is given, so a package built from its table alone (a WASM module)
    /// never links it.
    Given {
        name: String,
        bytes: Vec<u8>,
        check: fn(&mut Loader, &str, &[u8], &CheckOptions),
    },
    /// The package table's: the build script checked it and wrote it.
    Checked {
        name: &'static str,
        text: &'static str,
    },
}

impl Source {
    fn name(&self) -> &str {
        match self {
            Source::Given { name, .. } => name,
            Source::Checked { name, .. } => name,
        }
    }
}

impl Package {
    /// Starts a package.
    pub fn builder() -> PackageBuilder {
        PackageBuilder {
            sources: Vec::new(),
            handlers: Vec::new(),
            caps: BoundCaps::default(),
            state: StateMap::new(),
            duplicate_state: Vec::new(),
            options: CheckOptions::default(),
            outputs: Vec::new(),
            mismatch: MismatchSink::default(),
            skills: Vec::new(),
        }
    }
}

impl PackageBuilder {
    /// Adds a tool: its name (the file stem), the bytes of its `tools/<name>.json`, and its
    /// handler.
    pub fn tool(
        self,
        name: impl Into<String>,
        file: impl AsRef<[u8]>,
        handler: impl Handler,
    ) -> Self {
        let name = name.into();
        self.tool_file(name.clone(), file).handler(name, handler)
    }

    /// Adds a tool file alone; its handler comes with [`handler`](Self::handler).
    pub fn tool_file(mut self, name: impl Into<String>, file: impl AsRef<[u8]>) -> Self {
        self.sources.push(Source::Given {
            name: name.into(),
            bytes: file.as_ref().to_vec(),
            check: Loader::push_source,
        });
        self
    }

    /// Adds a tool of the package table: a `tools/<name>.json` the build script checked
    /// against the contract and wrote, embedded as it is, and its handler. The file is
    /// parsed and typed when the package is built, not checked again. For the generated
    /// `neuralis_package::builder()` only: a file given by hand goes through
    /// [`tool`](Self::tool), which checks it.
    #[doc(hidden)]
    pub fn checked_tool(
        mut self,
        name: &'static str,
        file: &'static str,
        handler: impl Handler,
    ) -> Self {
        self.sources.push(Source::Checked { name, text: file });
        self.handler(name, handler)
    }

    /// Adds the handler of the tool `name`.
    pub fn handler(mut self, name: impl Into<String>, handler: impl Handler) -> Self {
        self.handlers.push((name.into(), Box::new(handler)));
        self
    }

    /// Adds the skills the package ships (MCP's skills extension), which
    /// `neuralis-mcp` serves beside the tools. The package table's
    /// `neuralis_package::builder()` adds the ones the build script checked and embedded
    /// from `skills/`; a package registered by hand gives its own.
    pub fn skills(mut self, skills: &[Skill]) -> Self {
        self.skills.extend_from_slice(skills);
        self
    }

    /// The caps every result is bounded to (default: [`BoundCaps::default`]).
    pub fn caps(mut self, caps: BoundCaps) -> Self {
        self.caps = caps;
        self
    }

    /// State every handler can read with [`ToolContext::state`](super::ToolContext::state)
    /// (a client, a cache...): one value per type, any number of types, shared by every
    /// call behind an [`Arc`].
    ///
    /// `T` and `Arc<T>` are one slot (see [`StateMap`]): `state(db)` and
    /// `state(Arc::new(db))` both answer `cx.state::<Db>()` and `cx.state::<Arc<Db>>()`;
    /// registering a type twice, or a type and its `Arc`, makes [`build`](Self::build)
    /// fail with [`BuildProblem::DuplicateState`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use neuralis_core::dispatch::{Package, SessionContext, ToolContext, sync_fn_cx};
    ///
    /// struct Greeting(&'static str);
    /// struct Punctuation(char);
    /// #[derive(serde::Deserialize)]
    /// struct Greet { name: String }
    ///
    /// let tool = br#"{"type": "object", "additionalProperties": false, "description": "Greet.",
    ///   "properties": {"name": {"type": "string"}}, "required": ["name"],
    ///   "x-neuralis": {"annotations": {"category": "read"}}}"#;
    /// let package = Package::builder()
    ///     .tool("greet", &tool[..], sync_fn_cx(|g: Greet, cx: &ToolContext| {
    ///         let (Some(hello), Some(p)) = (cx.state::<Greeting>(), cx.state::<Punctuation>()) else {
    ///             return "no state".to_owned();
    ///         };
    ///         format!("{}, {}{}", hello.0, g.name, p.0)
    ///     }))
    ///     .state(Greeting("hello"))
    ///     .state(Arc::new(Punctuation('!')))
    ///     .build()
    ///     .expect("a valid package");
    /// let session = SessionContext::builder("u").build();
    /// let result = package.dispatch_blocking("greet", serde_json::json!({"name": "Ada"}), &session);
    /// assert_eq!(result.for_model()["content"][0]["text"], "hello, Ada!");
    ///
    /// let twice = Package::builder().state(Greeting("a")).state(Arc::new(Greeting("b"))).build();
    /// assert!(twice.is_err());
    /// ```
    pub fn state<T: Any + Send + Sync>(mut self, state: T) -> Self {
        if let Err(e) = self.state.insert(state) {
            self.duplicate_state.push(e);
        }
        self
    }

    /// The output schema of the tool `name` (MCP `outputSchema`): the shape of the
    /// `structuredContent` of its successful results, in place of the one its handler
    /// declares (a `#[tool]` handler declares its return type's). A result that breaks it
    /// never reaches the caller (see [`output`](super::output)). The schema must be a valid
    /// draft-07 schema; one that is not an object schema is wrapped as the `result`
    /// property, and so is the handler's value (see [`Output::from_schema`]).
    ///
    /// ```
    /// use neuralis_core::dispatch::{Package, SessionContext, sync_fn};
    /// use serde_json::{Value, json};
    ///
    /// let file = br#"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
    ///   "additionalProperties": false, "description": "Count.", "properties": {},
    ///   "x-neuralis": {"annotations": {"category": "read"}}}"#;
    /// let package = Package::builder()
    ///     .tool("count", &file[..], sync_fn(|_: Value| json!({"structuredContent": {"n": "three"},
    ///         "content": [{"type": "text", "text": "three"}]})))
    ///     .output_schema("count", json!({"type": "object", "properties": {"n": {"type": "integer"}},
    ///         "required": ["n"]}))
    ///     .on_output_mismatch(|m| assert_eq!(m.pointer, "/structuredContent/n"))
    ///     .build()
    ///     .expect("a valid package");
    /// let result = package.dispatch_blocking("count", json!({}), &SessionContext::builder("u").build());
    /// assert!(result.is_error);
    /// assert_eq!(result.structured_content, None);
    /// assert!(result.for_model()["content"][0]["text"].as_str().unwrap().contains("internal error"));
    /// ```
    pub fn output_schema(mut self, name: impl Into<String>, schema: Value) -> Self {
        self.outputs
            .push((name.into(), Output::from_schema(schema)));
        self
    }

    /// Where the package reports a result that broke its tool's output schema (the
    /// tool's bug: the caller only gets a generic `isError` result). By default a line on
    /// standard error.
    pub fn on_output_mismatch(
        mut self,
        report: impl Fn(&OutputMismatch) + Send + Sync + 'static,
    ) -> Self {
        self.mismatch = MismatchSink(Arc::new(report));
        self
    }

    /// The service value of a `#[neuralis::tools]` impl: the `&self` of its tool methods,
    /// shared by every call (concurrent calls too, so it is `Send + Sync`, with its
    /// mutable parts behind a `Mutex`, an `RwLock` or atomics). Give it as `T` or as an
    /// `Arc<T>` when the host keeps a handle of its own.
    ///
    /// A service is package state like any other (this is [`state`](Self::state) under
    /// the name the methods read it by), so `cx.state::<T>()` finds it too. A package
    /// whose tools include a method of a service it was not given does not build
    /// ([`BuildProblem::NoService`]).
    pub fn service<T: Any + Send + Sync>(self, service: T) -> Self {
        self.state(service)
    }

    /// The checker options the tool files given with [`tool`](Self::tool) are checked
    /// with (the declared cards). The package table's files were checked by the build
    /// script, with the cards the crate declares.
    pub fn check_options(mut self, options: CheckOptions) -> Self {
        self.options = options;
        self
    }

    /// Checks every tool file given by hand, types every tool file, and matches each with
    /// its handler.
    ///
    /// # Errors
    ///
    /// A [`BuildError`] listing every problem: a file with a contract error (with its
    /// diagnostics), a tool without a handler, a handler without a tool, two handlers for
    /// one tool, a tool method whose service was not given, a state type registered twice,
    /// a schema outside the built-in validator's subset without the `jsonschema` feature.
    /// Warnings do not fail the build: they are in [`Package::files`].
    pub fn build(self) -> Result<Package, BuildError> {
        let mut loader = Loader::default();
        for source in &self.sources {
            match source {
                Source::Given { name, bytes, check } => {
                    check(&mut loader, name, bytes, &self.options);
                }
                Source::Checked { name, text } => loader.push_checked(name, text),
            }
        }
        let loaded = loader.package;
        let mut problems: Vec<BuildProblem> = loaded
            .files
            .iter()
            .filter(|f| f.has_errors())
            .cloned()
            .map(BuildProblem::File)
            .collect();
        let mut handlers = by_name(self.handlers, &mut problems, BuildProblem::DuplicateHandler);
        let mut outputs = by_name(self.outputs, &mut problems, |name| {
            BuildProblem::OutputSchema(
                name,
                "two output schemas were given for it; keep one".to_owned(),
            )
        });
        let mut tools = Vec::with_capacity(loaded.tools.len());
        let mut index = Vec::with_capacity(loaded.tools.len());
        problems.extend(self.skills.iter().filter_map(|skill| {
            let reason = skill.problem()?;
            Some(BuildProblem::Skill {
                skill: skill.name.to_owned(),
                reason,
            })
        }));
        problems.extend(
            self.duplicate_state
                .into_iter()
                .map(|d| BuildProblem::DuplicateState(d.type_name.to_owned())),
        );
        for entry in loaded.tools {
            let Some(handler) = handlers.remove(&entry.name) else {
                outputs.remove(&entry.name);
                problems.push(BuildProblem::NoHandler(entry.name));
                continue;
            };
            let given = outputs.remove(&entry.name);
            if let Some(slot) = slot(
                entry,
                handler,
                given,
                (&self.state, &self.caps),
                &mut problems,
            ) {
                index.push((Box::from(&*slot.name), tools.len()));
                tools.push(slot);
            }
        }
        // What names no tool (a file that failed to load is reported as such already).
        let failed: std::collections::HashSet<&str> = loaded
            .files
            .iter()
            .filter(|f| !f.loaded)
            .map(|f| f.name.as_str())
            .collect();
        let left = |names: Vec<String>| {
            let mut names: Vec<String> = names
                .into_iter()
                .filter(|n| !failed.contains(n.as_str()))
                .collect();
            neuralis_model::sort::sort(&mut names);
            names
        };
        problems.extend(
            left(handlers.into_keys().collect())
                .into_iter()
                .map(BuildProblem::NoTool),
        );
        problems.extend(
            left(outputs.into_keys().collect()).into_iter().map(|name| {
                BuildProblem::OutputSchema(name, "no tool file has that name".to_owned())
            }),
        );
        if problems.is_empty() {
            Ok(Package {
                tools,
                index: ToolIndex::new(index),
                caps: self.caps,
                state: Arc::new(self.state),
                files: loaded.files,
                mismatch: self.mismatch,
                skills: self.skills,
            })
        } else {
            Err(BuildError { problems })
        }
    }
}

/// The slot of one loaded tool with its handler (and the output schema given for it, if
/// any); `None`, the problem recorded, when its output schema cannot be used or its schema
/// needs a general validator the build lacks. A service the package was not given is a
/// problem too, the slot kept (the build fails all the same).
fn slot(
    entry: crate::catalog::ToolEntry,
    handler: Box<dyn Handler>,
    given: Option<Output>,
    (state, caps): (&StateMap, &BoundCaps),
    problems: &mut Vec<BuildProblem>,
) -> Option<Slot> {
    if let Some(service) = handler.service()
        && !service.is_registered(state)
    {
        problems.push(BuildProblem::NoService {
            tool: entry.name.clone(),
            service: service.name.to_owned(),
        });
    }
    let output = match given.or_else(|| handler.output()).map(OutputSchema::new) {
        None => None,
        Some(Ok(output)) => Some(output),
        Some(Err(reason)) => {
            problems.push(BuildProblem::OutputSchema(entry.name, reason));
            return None;
        }
    };
    let validator = match Checker::new(&entry.schema) {
        Ok(validator) => validator,
        Err(error) => {
            problems.push(BuildProblem::NeedsGeneralValidator {
                tool: entry.name,
                error,
            });
            return None;
        }
    };
    let bound = handler.bound();
    // The next offset is read from the arguments as sent: a tree.
    let reads_text = !bound.more_offset
        && matches!(&validator, Checker::Builtin(v) if defaults_pass(v, &entry.meta.defaults));
    Some(Slot {
        reads_text,
        caps: bound.caps(caps),
        more: bound.more,
        more_offset: bound.more_offset,
        root_members: root_members(&entry.schema),
        name: Arc::from(entry.name.as_str()),
        cancellable: entry.meta.annotations.cancellable == Some(true),
        task: handler.task(),
        headers: handler.headers(),
        entry,
        handler,
        validator,
        output,
    })
}

/// `items` by name, each name once: a second one is the problem `twice` makes of it.
fn by_name<T>(
    items: Vec<(String, T)>,
    problems: &mut Vec<BuildProblem>,
    twice: impl Fn(String) -> BuildProblem,
) -> HashMap<String, T> {
    let mut out = HashMap::with_capacity(items.len());
    for (name, item) in items {
        match out.entry(name) {
            std::collections::hash_map::Entry::Occupied(e) => problems.push(twice(e.key().clone())),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(item);
            }
        }
    }
    out
}

/// Why a [`Package`] could not be built: every problem found, in order.
#[derive(Debug, Clone)]
pub struct BuildError {
    /// The problems.
    pub problems: Vec<BuildProblem>,
}

/// One reason a [`Package`] could not be built.
#[derive(Debug, Clone)]
pub enum BuildProblem {
    /// A tool file with at least one contract error; its report has every diagnostic.
    File(FileReport),
    /// A tool file with no handler.
    NoHandler(String),
    /// A handler for a name no tool file has.
    NoTool(String),
    /// A second handler for one tool (`duplicate-tool`).
    DuplicateHandler(String),
    /// A tool's output schema that cannot be used: not a valid draft-07 schema, given
    /// twice, or given for a tool the package does not have (the tool, the reason).
    OutputSchema(String, String),
    /// A tool that is a method of a `#[neuralis::tools]` impl whose service value the
    /// package was not given ([`PackageBuilder::service`]).
    NoService {
        /// The tool.
        tool: String,
        /// The service type, as written on the impl.
        service: String,
    },
    /// A state type registered twice, or registered both as `T` and as `Arc<T>`
    /// ([`PackageBuilder::state`]); the type as `std::any::type_name` gives it.
    DuplicateState(String),
    /// A tool whose schema uses a draft-07 keyword outside the built-in validator's subset
    /// (`neuralis_model::validate`), in a package built without the `jsonschema` feature of
    /// `neuralis-core` (every macro-built tool's schema is inside the subset).
    NeedsGeneralValidator {
        /// The tool.
        tool: String,
        /// The keyword, where it is, and why it is outside the subset.
        error: CompileError,
    },
    /// A skill given to [`PackageBuilder::skills`] that cannot be served
    /// ([`Skill::problem`]).
    Skill {
        /// The skill's name.
        skill: String,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for BuildProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildProblem::File(report) => {
                write!(f, "`{}` has contract errors", report.file)?;
                for d in report.diagnostics.iter().filter(|d| d.is_error()) {
                    write!(f, "\n  {d}")?;
                }
                Ok(())
            }
            BuildProblem::NoHandler(name) => write!(
                f,
                "the tool `{name}` has no handler; register one with `handler(\"{name}\", ...)`"
            ),
            BuildProblem::NoTool(name) => write!(
                f,
                "a handler is registered for `{name}`, but no tool file has that name; add `tools/{name}.json`"
            ),
            BuildProblem::OutputSchema(name, reason) => {
                write!(f, "the output schema of `{name}` cannot be used: {reason}")
            }
            BuildProblem::DuplicateHandler(name) => write!(
                f,
                "duplicate-tool: two handlers claim the tool `{name}`; keep one"
            ),
            BuildProblem::NoService { tool, service } => write!(
                f,
                "the tool `{tool}` is a method of `{service}`, but the package holds no `{service}`; give it one with `.service(...)`"
            ),
            BuildProblem::DuplicateState(ty) => write!(
                f,
                "the state `{ty}` is registered twice (a value and an `Arc` of it are one slot); register it once"
            ),
            BuildProblem::NeedsGeneralValidator { tool, error } => write!(
                f,
                "the schema of `{tool}` needs a general draft-07 validator: {}",
                super::validation::needs_general(error)
            ),
            BuildProblem::Skill { skill, reason } => write!(
                f,
                "the skill `{skill}` cannot be served: {reason}; fix it in `skills/{skill}/` (the build script checks that folder)"
            ),
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the package has {} problem(s)", self.problems.len())?;
        for p in &self.problems {
            write!(f, "\n- {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for BuildError {}

/// How many members a valid call's top-level object can have: the closed root's declared
/// properties (the capacity text-in arguments are parsed into).
fn root_members(schema: &serde_json::Value) -> usize {
    schema
        .get("properties")
        .and_then(serde_json::Value::as_object)
        .map_or(0, serde_json::Map::len)
}
