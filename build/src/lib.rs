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
//! use neuralis_build::Profile;
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
//! - `cargo:warning=rule-id: message --> /path/to/src/file.rs:line:col` for each warning
//!   (of the contract, a `stale-tool-file`, a path that names no dependency), sorted by
//!   file and line, each once; paths are absolute, so a terminal or an editor opens them
//!   from wherever cargo runs;
//! - `cargo::metadata=neuralis_table=<OUT_DIR>/neuralis_table.json` when the crate
//!   declares `links`: its type table, for the build scripts of the crates that depend on
//!   it (see below).
//!
//! A handler the macros reject for certain (the same model finds the error the macro
//! reports) is skipped and left to the compiler, which shows the spanned error; the old
//! file (if any) is kept. So is a handler whose input needs a path that names nothing the
//! package has (`use warehouse_types::Sku;` when `Cargo.toml` renamed the dependency to
//! `stock`): the compiler reports the unresolved path, and the build script adds one
//! warning naming the dependency it probably means. A `stale-tool-file` (a file no
//! handler produces) is removed instead when pruning is on; neither happens in a run
//! that skipped a handler, whose last good file is then not stale.
//!
//! It fails the build on a contract error in a document it produces (a tool is never
//! dropped from a green build), on `duplicate-tool`, on a type it cannot resolve with
//! certainty (naming the field and the fix), and under the `mcp-remote` profile on that
//! profile's errors. Then it prints every diagnostic of the run on stderr, as rustc
//! prints its own (the rule id, `--> path:line:col`, the source line with the token
//! underlined, `= help:`), and ends the build script with exit status 1: cargo shows
//! that text as one piece under "failed to run custom build command" (a `cargo::error=`
//! message is one line, and each line would be an error of its own).
//!
//! # Types of other crates
//!
//! A field may name a `ToolInput` type of another crate (nested, or through
//! `#[serde(flatten)]`) when that crate publishes its type table: it declares `links`
//! in its `Cargo.toml` and calls `emit()` in its `build.rs`. The table (written to its
//! `OUT_DIR`) says where its source is and with which features and `cfg` it is built;
//! cargo hands it to the direct dependents' build scripts (`DEP_<LINKS>_NEURALIS_TABLE`),
//! which read that source with the same model, and the tables it points to for its own
//! dependencies, so `pub use` chains across crates are followed. A renamed dependency
//! (`types = { package = "tracker-types", ... }`) is known by its key, read from
//! `Cargo.toml`. Tests and tools pass the tables with [`Builder::dependency_tables`].
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
//! bodies, `include!`d source, or what only `cfg(test)` builds contain. The types of a
//! crate that publishes no type table cannot be followed: a field of such a type is an
//! error naming the field and the fixes (`#[schema(with = T)]`, publishing the table, the
//! feature of a well-known crate). The table
//! names each handler's descriptor by its module path from the crate root, so a handler
//! must be reachable from there (`pub(crate)` modules suffice). The generated drift
//! tests catch what slips through.

#![allow(
    clippy::needless_doctest_main,
    reason = "the examples are whole build scripts"
)]

mod cfg;
mod compose;
mod deps;
mod diag;
mod discover;
mod frontmatter;
mod manifest;
mod resolve;
mod run;
mod skills;
mod table;
mod tool;
mod write;

use std::fmt;
use std::path::PathBuf;

pub use cfg::Cfg;
/// The rule set a package is checked against (see [`Builder::profile`]).
pub use neuralis_model::checker::Profile;

/// Writes `tools/*.json` for the crate being built, with the default options, and
/// prints the `cargo:` lines. See [`Builder`].
///
/// When something stops the build, it prints the report (every diagnostic, as rustc
/// prints its own) on stderr and ends the build script with exit status 1, with no panic
/// and no backtrace: call it as the whole of `build.rs`, `neuralis_build::emit();`. It
/// returns only when the build goes on, with what was done.
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
    skills_dir: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    profile: Profile,
    cards: Option<Vec<String>>,
    prune: bool,
    cfg: Option<Cfg>,
    tables: Option<Vec<PathBuf>>,
    dialects: Option<Vec<neuralis_model::dialect::Provider>>,
}

/// What one run did.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Every tool produced, in name order.
    pub tools: Vec<String>,
    /// Every skill of the skills directory that passed its checks and is embedded in the
    /// package table, in name order.
    pub skills: Vec<String>,
    /// Files whose bytes changed and were written.
    pub written: Vec<PathBuf>,
    /// Handlers skipped because the macros reject them, with the reason.
    pub skipped: Vec<String>,
    /// Files in the tools directory that no handler produces.
    pub stale: Vec<PathBuf>,
    /// Stale files removed (pruning on).
    pub removed: Vec<PathBuf>,
    /// Every `cargo:` line, in order (printed by [`Builder::emit`]): the warnings, one
    /// line each (`cargo:warning=rule-id: message --> path:line:col`), then the others.
    pub cargo_lines: Vec<String>,
}

/// Why the build stops: every error found, as rustc shows its own.
#[derive(Clone)]
pub struct Error {
    /// The errors in the report's order (by file, line and column), each a block:
    /// `error: rule-id: message`, `--> /path/to/file.rs:line:col`, the source line with
    /// the token underlined, then its `= note:` and `= help:` lines.
    pub messages: Vec<String>,
    /// Every diagnostic of the run, the warnings too, in that order and form, separated
    /// by blank lines: what [`Builder::emit`] prints on stderr.
    pub report: String,
    /// What the run did besides (its `cargo:` lines are not printed when it fails: cargo
    /// would show them with the report, and reruns a failed build script anyway).
    pub summary: Box<Summary>,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.report)
    }
}

// A caller of `Builder::run` that ends in `.expect(...)` prints `Debug`: make that the
// readable text.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{self}")
    }
}

impl std::error::Error for Error {}

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

    /// The directory of the skills the package ships (MCP's skills extension), relative
    /// to the manifest directory (default `skills`): each folder in it is a skill with its
    /// `SKILL.md` at the top, checked by the `skill-*` rules and embedded in the package
    /// table, which `neuralis-mcp` serves (`docs/skills.md`). A package without the
    /// directory ships no skill.
    #[must_use]
    pub fn skills_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.skills_dir = Some(dir.into());
        self
    }

    /// The rule set: [`Profile::Neuralis`] (default), or [`Profile::McpRemote`], whose
    /// errors stop the build and whose warnings are printed at the field.
    #[must_use]
    pub fn profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// The model providers whose dialects every tool must be served in (default: the
    /// manifest's `[package.metadata.neuralis] dialects`, a list of `openai`,
    /// `anthropic`, `gemini`): a construct one refuses is `dialect-refused`, an error at
    /// the field's token; a constraint one moves into words is `dialect-weakened`, a
    /// warning there (see `docs/dialects.md`).
    #[must_use]
    pub fn dialects<I: IntoIterator<Item = neuralis_model::dialect::Provider>>(
        mut self,
        dialects: I,
    ) -> Self {
        self.dialects = Some(dialects.into_iter().collect());
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

    /// The crate's root file, relative to the manifest directory (default: `lib.path`
    /// of `Cargo.toml`, else `src/lib.rs`, else `src/main.rs`).
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

    /// The type tables of the crate's direct dependencies (default: what cargo hands
    /// the build script, `DEP_<LINKS>_NEURALIS_TABLE` of each dependency that declares
    /// `links` and calls `emit()`). Each is the `neuralis_table.json` that run wrote to
    /// its `OUT_DIR`.
    #[must_use]
    pub fn dependency_tables<I: IntoIterator<Item = P>, P: Into<PathBuf>>(
        mut self,
        tables: I,
    ) -> Self {
        self.tables = Some(tables.into_iter().map(Into::into).collect());
        self
    }

    /// Runs the emitter and prints its `cargo:` lines; when something stops the build,
    /// prints the report on stderr instead and ends the process with exit status 1 (see
    /// [`emit`]).
    pub fn emit(self) -> Summary {
        match self.run() {
            Ok(summary) => {
                for line in &summary.cargo_lines {
                    println!("{line}");
                }
                summary
            }
            Err(e) => {
                // Nothing on stdout: cargo shows a failed build script's stdout beside its
                // stderr, and reruns it on the next build whatever it said.
                eprint!("{}", e.report);
                std::process::exit(1);
            }
        }
    }
}
