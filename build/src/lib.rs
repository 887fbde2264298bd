//! neuralis-build: `cargo build` writes the tool files of a package.
//!
//! Call [`emit`] from `build.rs`. It reads the crate's source from its root file
//! (`src/lib.rs`, else `src/main.rs`), finds every `#[tool]` handler and the
//! `#[derive(ToolInput)]` types they take, composes each tool's root schema with the same
//! renderer the derive uses, normalizes it, checks it against the contract, and writes
//! `tools/<name>.json` in canonical form, only when the bytes change.
//!
//! ```no_run
//! // build.rs
//! fn main() {
//!     neuralis_build::emit();
//! }
//! ```
//!
//! With options:
//!
//! ```no_run
//! use neuralis_build::Builder;
//! use neuralis_model::contract::Profile;
//!
//! Builder::new()
//!     .tools_dir("tools")
//!     .profile(Profile::McpRemote)
//!     .prune(true)
//!     .emit();
//! ```
//!
//! What it prints for cargo:
//! - `cargo:rerun-if-changed=` for every source file read and for the tools directory,
//!   so editing a source file or deleting `tools/` makes the next build write again;
//! - `cargo:warning=path:line:col: rule-id: message` for each warning of the contract;
//! - `cargo:warning=skipped <name>: ...` for a handler the macros reject for certain
//!   (the same model finds the error the macro reports): the compiler then shows the
//!   spanned error, and the old file (if any) is left alone;
//! - `cargo:warning=` for each `stale-tool-file` (a file no handler produces), which is
//!   removed instead when pruning is on; neither happens in a run that skipped a
//!   handler, whose last good file is then not stale;
//! - `cargo::error=path:line:col: rule-id: message` for each error, which fails the
//!   build (cargo 1.84 or newer).
//!
//! It fails the build on a contract error in a document it produces (a tool is never
//! dropped from a green build), on `duplicate-tool`, on a type it cannot resolve with
//! certainty (naming the field and the fix), and under the `mcp-remote` profile on that
//! profile's errors.
//!
//! It also writes `neuralis_package.rs` to `OUT_DIR`, brought in by
//! `neuralis::package!()` at the crate root: the tool names, handler paths and emitted
//! files (`include_str!`), the handlers' `#[tool]` descriptors, and a drift test per tool
//! that compares the file with the run-time composition (`ToolInput::schema()` and the
//! attribute's metadata) and names the first JSON pointer that differs.
//!
//! # Limits
//!
//! The build script reads source, as cxx-build does (with `#[cfg]` and `#[cfg_attr]`
//! evaluated for the build's features and target), so it does not see items made by
//! macros (`macro_rules!`, attribute macros), handlers in `impl` blocks or function
//! bodies, `include!`d source, or what only `cfg(test)` builds contain. Types of other crates cannot be followed: a field of such a type is an error
//! naming the field (use `#[schema(with = T)]` with a type of this crate). The table
//! names each handler's descriptor by its module path from the crate root, so a handler
//! must be reachable from there (`pub(crate)` modules suffice). The generated drift
//! tests catch what slips through.

#![allow(
    clippy::needless_doctest_main,
    reason = "the examples are whole build scripts"
)]

mod cfg;
mod compose;
mod diag;
mod discover;
mod literal;
mod resolve;
mod table;
mod tool;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use neuralis_model::contract::{CheckOptions, Profile, check_value_using};
use neuralis_model::schema::to_canonical_string;
use neuralis_model::{Diagnostic, RuleId, input};
use serde_json::{Map, Value};

pub use cfg::Cfg;

use crate::compose::{Composer, Problem, Site};
use crate::diag::Loc;
use crate::discover::Crate;

/// Writes `tools/*.json` for the crate being built, with the default options, and
/// prints the `cargo:` lines. See [`Builder`].
///
/// Every error is printed as a `cargo::error=path:line:col: rule-id: message` line, which
/// fails the build with that message and nothing else (no panic, no backtrace): call it
/// as the whole of `build.rs`, `neuralis_build::emit();`. The returned [`Summary`] says
/// what was done, [`Summary::errors`] what stops the build.
pub fn emit() -> Summary {
    Builder::new().emit()
}

/// Options of the emitter.
///
/// [`Builder::emit`] is for `build.rs`; [`Builder::run`] does the same without printing,
/// for tests and tools:
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = tempfile::tempdir()?;
/// std::fs::create_dir_all(dir.path().join("src"))?;
/// std::fs::write(dir.path().join("src/lib.rs"), r#"
///     #[derive(ToolInput, Deserialize)]
///     pub struct Hello {
///         /// Who to greet.
///         pub name: String,
///     }
///
///     /// Say hello.
///     #[tool(annotations(read_only, category = "read"), ui(presentation = "inline"))]
///     pub fn hello(input: Hello) -> String {
///         format!("hello, {}", input.name)
///     }
/// "#)?;
/// let summary = neuralis_build::Builder::new()
///     .manifest_dir(dir.path())
///     .cfg(neuralis_build::Cfg::default())
///     .run()?;
/// assert_eq!(summary.tools, ["hello"]);
/// let file = std::fs::read_to_string(dir.path().join("tools/hello.json"))?;
/// assert!(file.contains(r#""description": "Say hello.""#));
///
/// // Same source, same bytes: nothing is written the second time.
/// let again = neuralis_build::Builder::new()
///     .manifest_dir(dir.path())
///     .cfg(neuralis_build::Cfg::default())
///     .run()?;
/// assert!(again.written.is_empty());
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Default)]
pub struct Builder {
    manifest_dir: Option<PathBuf>,
    root: Option<PathBuf>,
    tools_dir: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    profile: Profile,
    cards: Option<Vec<String>>,
    prune: bool,
    cfg: Option<Cfg>,
}

/// What one run did.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Every tool produced, in name order.
    pub tools: Vec<String>,
    /// Files whose bytes changed and were written.
    pub written: Vec<PathBuf>,
    /// Handlers skipped because the macros reject them, with the reason.
    pub skipped: Vec<String>,
    /// Files in the tools directory that no handler produces.
    pub stale: Vec<PathBuf>,
    /// Stale files removed (pruning on).
    pub removed: Vec<PathBuf>,
    /// Every `cargo:` line, in order (printed by [`Builder::emit`]).
    pub cargo_lines: Vec<String>,
    /// What stops the build, each `path:line:col: rule-id: message` with its help
    /// (printed by [`Builder::emit`] as `cargo::error=` lines).
    pub errors: Vec<String>,
}

/// Why the build stops: every error found, each `path:line:col: rule-id: message`.
#[derive(Clone)]
pub struct Error {
    /// The errors, one per entry, each with its location and help.
    pub messages: Vec<String>,
    /// What the run did besides (the `cargo:` lines are printed before the error).
    pub summary: Box<Summary>,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.messages.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            f.write_str(m)?;
        }
        Ok(())
    }
}

// A caller of `Builder::run` that ends in `.expect(...)` prints `Debug`: make that the
// readable text.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{self}\n")
    }
}

impl std::error::Error for Error {}

fn one_line(s: &str) -> String {
    s.split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

impl Builder {
    /// The default options: `tools/` under the manifest directory, profile `neuralis`,
    /// no pruning, the configuration cargo gives the build script.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The directory of the tool files, relative to the manifest directory (default
    /// `tools`).
    #[must_use]
    pub fn tools_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.tools_dir = Some(dir.into());
        self
    }

    /// The rule set: [`Profile::Neuralis`] (default), or [`Profile::McpRemote`], whose
    /// errors stop the build and whose warnings are printed at the field.
    #[must_use]
    pub fn profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// The card types the package declares, for `card-type-unmatched`.
    #[must_use]
    pub fn cards<I: IntoIterator<Item = S>, S: Into<String>>(mut self, cards: I) -> Self {
        self.cards = Some(cards.into_iter().map(Into::into).collect());
        self
    }

    /// Whether files in the tools directory that no handler produces are removed
    /// (default: reported as `stale-tool-file` and kept).
    #[must_use]
    pub fn prune(mut self, prune: bool) -> Self {
        self.prune = prune;
        self
    }

    /// The package directory (default: `CARGO_MANIFEST_DIR`).
    #[must_use]
    pub fn manifest_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.manifest_dir = Some(dir.into());
        self
    }

    /// The crate's root file, relative to the manifest directory (default:
    /// `src/lib.rs`, else `src/main.rs`).
    #[must_use]
    pub fn root(mut self, file: impl Into<PathBuf>) -> Self {
        self.root = Some(file.into());
        self
    }

    /// Where `neuralis_package.rs` goes (default: `OUT_DIR`; none outside a build
    /// script).
    #[must_use]
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// The `#[cfg]` configuration (default: [`Cfg::from_env`]).
    #[must_use]
    pub fn cfg(mut self, cfg: Cfg) -> Self {
        self.cfg = Some(cfg);
        self
    }

    /// Runs the emitter and prints its `cargo:` lines, then each error as
    /// `cargo::error=` lines, which fail the build with their text alone (see [`emit`]).
    pub fn emit(self) -> Summary {
        let summary = match self.run() {
            Ok(s) => s,
            Err(e) => {
                let mut summary = *e.summary;
                summary.errors = e.messages;
                summary
            }
        };
        for line in &summary.cargo_lines {
            println!("{line}");
        }
        for error in &summary.errors {
            for line in error.lines() {
                println!("cargo::error={line}");
            }
        }
        summary
    }

    /// Runs the emitter without printing (see [`Summary::cargo_lines`]).
    ///
    /// # Errors
    ///
    /// A contract error in a produced document, `duplicate-tool`, a type that cannot be
    /// resolved with certainty, a tool with errors of the `mcp-remote` profile, or a file
    /// that cannot be written: every one found.
    pub fn run(&self) -> Result<Summary, Error> {
        let mut run = Run::default();
        let manifest_dir = match &self.manifest_dir {
            Some(d) => d.clone(),
            None => match std::env::var_os("CARGO_MANIFEST_DIR") {
                Some(d) => PathBuf::from(d),
                None => {
                    return Err(Error {
                        messages: vec![
                            "neuralis-build: `CARGO_MANIFEST_DIR` is not set: call `emit()` from a build script, or set `Builder::manifest_dir`".into(),
                        ],
                        summary: Box::default(),
                    });
                }
            },
        };
        let root = match &self.root {
            Some(r) => manifest_dir.join(r),
            None => {
                let lib = manifest_dir.join("src/lib.rs");
                if lib.is_file() {
                    lib
                } else {
                    manifest_dir.join("src/main.rs")
                }
            }
        };
        let tools_dir = manifest_dir.join(self.tools_dir.as_deref().unwrap_or(Path::new("tools")));
        let out_dir = self
            .out_dir
            .clone()
            .or_else(|| std::env::var_os("OUT_DIR").map(PathBuf::from));
        let cfg = self.cfg.clone().unwrap_or_else(Cfg::from_env);
        let krate = Crate::read(&root, &manifest_dir, &cfg);
        let options = CheckOptions {
            cards: self.cards.clone(),
            profile: self.profile,
        };
        for u in &krate.unreadable {
            run.warn(format!(
                "{}: not read ({}); the compiler reports why",
                relative(&u.path, &manifest_dir),
                one_line(&u.reason)
            ));
        }

        let mut extra_files = Vec::new();
        // Tool names whose file must be kept even though nothing was produced now.
        let mut claimed = BTreeSet::new();
        let mut produced: BTreeMap<String, Produced> = BTreeMap::new();
        let decls = self.read_tools(&krate, &mut run, &mut claimed);
        for (name, group) in &decls {
            if group.len() > 1 {
                let places: Vec<String> = group
                    .iter()
                    .map(|d| {
                        format!(
                            "`{}` ({})",
                            krate.tools[d.index].func.sig.ident,
                            d.decl.name_loc.display(&krate)
                        )
                    })
                    .collect();
                run.error(
                    &krate,
                    &group[1].decl.name_loc,
                    RuleId::DuplicateTool,
                    &format!("tool `{name}` is claimed by {}", places.join(" and ")),
                    RuleId::DuplicateTool.rule().hint,
                );
                claimed.insert(name.clone());
                continue;
            }
            let d = &group[0];
            let module = krate.tools[d.index].module;
            let mut composer = Composer::new(&krate);
            match compose_tool(&mut composer, module, &d.decl) {
                Ok((doc, locations)) => {
                    extra_files.append(&mut composer.extra_files);
                    let locations: Vec<(String, Loc)> = locations
                        .into_iter()
                        .chain(d.decl.locations.clone())
                        .collect();
                    match run.check(&krate, name, &doc, &locations, &d.decl.name_loc, &options) {
                        Ok(()) => {
                            produced.insert(
                                name.clone(),
                                Produced {
                                    text: to_canonical_string(&doc),
                                    handler: handler_path(&krate, module, &d.decl.handler),
                                    descriptor: format!(
                                        "{}::{}",
                                        krate.module_name(module),
                                        table::descriptor_ident(&d.decl.handler)
                                    ),
                                    krate: d.decl.krate.clone(),
                                },
                            );
                        }
                        Err(()) => {
                            claimed.insert(name.clone());
                        }
                    }
                }
                Err(Problem::Skip { item, reason }) => {
                    run.skip(name, &format!("`{item}`: {}", one_line(&reason)));
                    claimed.insert(name.clone());
                }
                Err(Problem::Unresolved { loc, message, help }) => {
                    run.error(&krate, &loc, RuleId::UnsupportedType, &message, &help);
                    claimed.insert(name.clone());
                }
            }
        }

        // Written files take the time of the newest input, not the clock: cargo stamps a
        // build script's run with its start time and would see its own output as a
        // change, rerunning the script and recompiling the crate on the next build.
        let stamp = krate
            .sources
            .iter()
            .map(|s| s.path.as_path())
            .chain(extra_files.iter().map(PathBuf::as_path))
            .filter_map(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
            .max();
        run.write_tools(
            &tools_dir,
            &produced,
            &claimed,
            self.prune,
            stamp,
            &manifest_dir,
        );
        if let Some(out) = &out_dir {
            let tables = table::package(&tools_dir, &produced);
            run.write_if_changed(&out.join(table::FILE), tables.as_bytes(), false);
        }
        for s in &krate.sources {
            run.lines
                .push(format!("cargo:rerun-if-changed={}", s.path.display()));
        }
        for u in &krate.unreadable {
            run.lines
                .push(format!("cargo:rerun-if-changed={}", u.path.display()));
        }
        for f in &extra_files {
            run.lines
                .push(format!("cargo:rerun-if-changed={}", f.display()));
        }
        // A path that does not exist would make cargo rerun the script on every build.
        if tools_dir.exists() {
            run.lines
                .push(format!("cargo:rerun-if-changed={}", tools_dir.display()));
        }
        run.summary.tools = produced.keys().cloned().collect();
        run.finish()
    }

    fn read_tools(
        &self,
        krate: &Crate,
        run: &mut Run,
        claimed: &mut BTreeSet<String>,
    ) -> BTreeMap<String, Vec<Indexed>> {
        let mut by_name: BTreeMap<String, Vec<Indexed>> = BTreeMap::new();
        for (index, tf) in krate.tools.iter().enumerate() {
            let file = krate.modules[tf.module].file;
            match tool::read(tf, file) {
                Ok(decl) => by_name
                    .entry(decl.name.clone())
                    .or_default()
                    .push(Indexed { index, decl }),
                Err(rejected) => {
                    run.skip(
                        &rejected.name,
                        &format!("{}: {}", rejected.loc.display(krate), rejected.reason),
                    );
                    claimed.insert(rejected.name);
                }
            }
        }
        by_name
    }
}

struct Indexed {
    index: usize,
    decl: tool::ToolDecl,
}

/// A tool composed and checked: its file's text and its handler's path.
pub(crate) struct Produced {
    pub(crate) text: String,
    pub(crate) handler: String,
    /// The path of the `ToolDescriptor` that `#[tool]` puts beside the handler.
    pub(crate) descriptor: String,
    /// `crate = "..."` of the handler's `#[tool]`.
    pub(crate) krate: Option<String>,
}

/// `path` relative to the package, as cargo shows paths.
fn relative(path: &Path, manifest_dir: &Path) -> String {
    path.strip_prefix(manifest_dir)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Best effort: a file system that refuses only costs one more build-script run.
fn set_mtime(path: &Path, time: SystemTime) {
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.set_modified(time);
    }
}

fn pointer_note(pointer: &str) -> String {
    if pointer.is_empty() {
        String::new()
    } else {
        format!(" (at `{pointer}`)")
    }
}

fn handler_path(krate: &Crate, module: usize, ident: &syn::Ident) -> String {
    format!("{}::{ident}", krate.module_name(module))
}

/// The root document of one tool: the input's schema, the handler's description, the
/// `x-neuralis` block.
fn compose_tool(
    composer: &mut Composer,
    module: usize,
    decl: &tool::ToolDecl,
) -> Result<(Value, Vec<(String, Loc)>), Problem> {
    let (root, locations) = match &decl.input {
        Some(ty) => {
            let site = Site {
                owner: format!("fn {}", decl.handler),
                field: "input".into(),
                loc: decl.name_loc.clone(),
            };
            let c = composer.root(ty, module, &site)?;
            (c.schema, c.locations)
        }
        None => (
            input::root_document(serde_json::json!({ "type": "object" }), Map::new()),
            Vec::new(),
        ),
    };
    let description =
        composer.doc_text(&decl.docs.parts, module, &format!("fn {}", decl.handler))?;
    let doc = input::tool_document(root, description, decl.x_neuralis.clone());
    Ok((doc, locations))
}

#[derive(Default)]
struct Run {
    lines: Vec<String>,
    errors: Vec<String>,
    summary: Summary,
}

impl Run {
    /// Checks one composed document: warnings printed at their source; any error stops
    /// the build (a tool is never dropped from a green build: the file in `tools/` is
    /// what runs).
    fn check(
        &mut self,
        krate: &Crate,
        name: &str,
        doc: &Value,
        locations: &[(String, Loc)],
        fallback: &Loc,
        options: &CheckOptions,
    ) -> Result<(), ()> {
        let locate = |pointer: &str| -> Loc {
            locations
                .iter()
                .filter(|(p, _)| {
                    pointer == p
                        || (pointer.starts_with(p.as_str()) && pointer[p.len()..].starts_with('/'))
                })
                .max_by_key(|(p, _)| p.len())
                .map_or_else(|| fallback.clone(), |(_, l)| l.clone())
        };
        let (errors, warnings): (Vec<_>, Vec<_>) =
            check_value_using(name, doc, options, Some(&literal::Subset))
                .into_iter()
                .partition(Diagnostic::is_error);
        for x in &warnings {
            self.warn(format!(
                "{}: {}: {}{}",
                locate(&x.pointer).display(krate),
                x.rule,
                one_line(&x.message),
                pointer_note(&x.pointer)
            ));
        }
        for x in &errors {
            self.error(
                krate,
                &locate(&x.pointer),
                x.rule,
                &format!("{}{}", one_line(&x.message), pointer_note(&x.pointer)),
                &x.hint,
            );
        }
        if errors.is_empty() { Ok(()) } else { Err(()) }
    }

    fn warn(&mut self, text: String) {
        self.lines
            .push(format!("cargo:warning={}", one_line(&text)));
    }

    fn skip(&mut self, name: &str, reason: &str) {
        let text = format!("skipped {name}: {}", one_line(reason));
        self.summary.skipped.push(text.clone());
        self.warn(text);
    }

    fn error(&mut self, krate: &Crate, loc: &Loc, rule: RuleId, message: &str, help: &str) {
        self.errors.push(format!(
            "{}: {rule}: {message}\n  = help: {help}",
            loc.display(krate)
        ));
    }

    fn write_if_changed(&mut self, path: &Path, bytes: &[u8], record: bool) {
        if std::fs::read(path).is_ok_and(|old| old == bytes) {
            return;
        }
        if let Some(dir) = path.parent()
            && let Err(e) = std::fs::create_dir_all(dir)
        {
            self.errors.push(format!(
                "{}: cannot create the directory: {e}",
                dir.display()
            ));
            return;
        }
        match std::fs::write(path, bytes) {
            Ok(()) => {
                if record {
                    self.summary.written.push(path.to_path_buf());
                }
            }
            Err(e) => self
                .errors
                .push(format!("{}: cannot write: {e}", path.display())),
        }
    }

    fn write_tools(
        &mut self,
        dir: &Path,
        produced: &BTreeMap<String, Produced>,
        claimed: &BTreeSet<String>,
        prune: bool,
        stamp: Option<SystemTime>,
        manifest_dir: &Path,
    ) {
        let before = self.summary.written.len();
        for (name, p) in produced {
            self.write_if_changed(&dir.join(format!("{name}.json")), p.text.as_bytes(), true);
        }
        if let Some(stamp) = stamp {
            for path in &self.summary.written[before..] {
                set_mtime(path, stamp);
            }
        }
        // A skipped handler produced nothing this run, and its last good file may have
        // another name than the one it now claims (an invalid `name = ...`): nothing is
        // stale until every handler is read.
        if !self.summary.skipped.is_empty() {
            return;
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut stale: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .filter(|p| {
                p.file_stem()
                    .and_then(|s| s.to_str())
                    .is_none_or(|s| !produced.contains_key(s) && !claimed.contains(s))
            })
            .collect();
        stale.sort();
        for path in stale {
            if prune {
                match std::fs::remove_file(&path) {
                    Ok(()) => self.summary.removed.push(path),
                    Err(e) => self.errors.push(format!(
                        "{}: cannot remove a stale file: {e}",
                        path.display()
                    )),
                }
            } else {
                self.warn(format!(
                    "{}: {}: {} (delete it, or call `.prune(true)` on `neuralis_build::Builder`)",
                    relative(&path, manifest_dir),
                    RuleId::StaleToolFile,
                    RuleId::StaleToolFile.rule().message
                ));
                self.summary.stale.push(path);
            }
        }
        if let Some(stamp) = stamp
            && (self.summary.written.len() > before || !self.summary.removed.is_empty())
        {
            set_mtime(dir, stamp);
        }
    }

    fn finish(mut self) -> Result<Summary, Error> {
        self.summary.cargo_lines = self.lines;
        if self.errors.is_empty() {
            Ok(self.summary)
        } else {
            Err(Error {
                messages: self.errors,
                summary: Box::new(self.summary),
            })
        }
    }
}
