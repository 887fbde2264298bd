//! The run: discover the crate, read each handler's `#[tool]`, compose and check each
//! tool's document, write the files and the package table.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use neuralis_model::checker::CheckOptions;
use neuralis_model::dialect::Provider;
use neuralis_model::schema::to_canonical_string;
use neuralis_model::{RuleId, input};
use serde_json::{Map, Value};

use crate::compose::{Problem, Site, StaticView};
use crate::diag::{Diag, Loc, Place, Run, Severity, Sites, one_line};
use crate::discover::{Crate, display_path};
use crate::{Builder, Cfg, Error, Summary, deps, manifest, table, tool};

impl Builder {
    /// Runs the emitter without printing (see [`Summary::cargo_lines`]).
    ///
    /// The run goes in stages, each taking what the one before produced: read the inputs
    /// (where the crate, its manifest and the outputs are), discover the crate (its
    /// source, and its dependencies' through their tables), compose each tool's document,
    /// check it against the contract, write `tools/` and the tables, and print the rerun
    /// lines. A run without inputs stops there; past that point a tool that fails a stage
    /// drops out of the next (its error collected, its file kept), so the tools that pass
    /// are still written, and the run fails at the end with every error found.
    ///
    /// # Errors
    ///
    /// A contract error in a produced document, `duplicate-tool`, a type that cannot be
    /// resolved with certainty, a tool with errors of the `mcp-remote` profile, or a file
    /// that cannot be written: every one found.
    pub fn run(&self) -> Result<Summary, Error> {
        let mut run = Run::default();
        let Some(inputs) = self.inputs(&mut run) else {
            return run.finish();
        };
        let found = self.discover(&mut run, &inputs);
        let decls = self.read_tools(&found.krate, &mut run, &inputs.tools_dir);
        let mut composed = compose(&mut run, &found.krate, decls, &inputs.tools_dir);
        let produced = check(&mut run, &found.krate, &inputs.options, &mut composed);
        let skills = crate::skills::read(&mut run, &inputs.skills_dir);
        self.write(&mut run, &inputs, &found, &composed, &produced, &skills);
        rerun_lines(&mut run, &inputs, &found, &composed.extra_files);
        run.summary.tools = produced.keys().cloned().collect();
        run.summary.skills = skills.into_iter().map(|s| s.name).collect();
        run.finish()
    }

    /// Stage 1: where the crate is (its manifest directory, manifest and root file), where
    /// the outputs go, and what it is built with; `None` outside a build script with no
    /// manifest directory given.
    fn inputs(&self, run: &mut Run) -> Option<Inputs> {
        let manifest_dir = match &self.manifest_dir {
            Some(d) => d.clone(),
            None => {
                let Some(d) = std::env::var_os("CARGO_MANIFEST_DIR") else {
                    run.diags.push(Diag::new(
                        Severity::Error,
                        None,
                        "neuralis-build: `CARGO_MANIFEST_DIR` is not set: call `emit()` from a build script, or set `Builder::manifest_dir`",
                    ));
                    return None;
                };
                PathBuf::from(d)
            }
        };
        let manifest = manifest::read(&manifest_dir).unwrap_or_else(|e| {
            run.warn(&format!(
                "neuralis-build: cannot read the manifest ({}); dependencies are known by their libraries' names only",
                one_line(&e)
            ));
            None
        });
        let root = match (
            &self.root,
            manifest.as_ref().and_then(|m| m.lib_path.as_ref()),
        ) {
            (Some(r), _) => manifest_dir.join(r),
            (None, Some(lib)) => manifest_dir.join(lib),
            (None, None) => {
                let lib = manifest_dir.join("src/lib.rs");
                if lib.is_file() {
                    lib
                } else {
                    manifest_dir.join("src/main.rs")
                }
            }
        };
        let tools_dir = self.tools_dir.as_deref().unwrap_or(Path::new("tools"));
        let skills_dir = self.skills_dir.as_deref().unwrap_or(Path::new("skills"));
        run.allow_weakened = allowed_weakened(run, manifest.as_ref());
        let dialects = self.dialects_for(run, manifest.as_ref());
        run.dialects.clone_from(&dialects);
        Some(Inputs {
            tools_dir: manifest_dir.join(tools_dir),
            skills_dir: manifest_dir.join(skills_dir),
            out_dir: (self.out_dir.clone())
                .or_else(|| std::env::var_os("OUT_DIR").map(PathBuf::from)),
            cfg: self.cfg.clone().unwrap_or_else(Cfg::from_env),
            options: CheckOptions {
                cards: self.cards.clone(),
                profile: self.profile,
                dialects,
            },
            manifest,
            root,
        })
    }

    /// The dialects the package must serve: [`Builder::dialects`], else the manifest's
    /// `[package.metadata.neuralis] dialects`; a name that is no provider's stops the
    /// build.
    fn dialects_for(&self, run: &mut Run, manifest: Option<&manifest::Manifest>) -> Vec<Provider> {
        if let Some(dialects) = &self.dialects {
            return dialects.clone();
        }
        let names = manifest.map(|m| m.dialects.as_slice()).unwrap_or_default();
        providers_named(run, "dialects", names)
    }

    /// Stage 2: the crate's source as rustc would read it under its `cfg`, with its
    /// dependencies' published tables and source; what cannot be read is the compiler's
    /// to report.
    fn discover(&self, run: &mut Run, inputs: &Inputs) -> Found {
        let mut krate = Crate::read(&inputs.root, &inputs.cfg);
        let tables = self.tables.clone().unwrap_or_else(deps::tables_from_env);
        let loaded = deps::load(&mut krate, inputs.manifest.as_ref(), &tables);
        for w in &loaded.warnings {
            run.warn(&format!("neuralis-build: {w}"));
        }
        for u in &krate.unreadable {
            let reason = format!("not read: {}", one_line(&u.reason));
            let mut d = Diag::new(Severity::Warning, None, &reason)
                .at(Place::File(display_path(&u.path)))
                .note("the compiler reports why".into());
            d.compiler_reports = true;
            run.diags.push(d);
        }
        Found {
            krate,
            tables: loaded.files,
        }
    }

    /// Stage 5: the tool files that passed (`tools/`, stamped with the newest input's
    /// time), the package table (with the skills that passed) and the crate's type table
    /// in `OUT_DIR`.
    fn write(
        &self,
        run: &mut Run,
        inputs: &Inputs,
        found: &Found,
        composed: &Composed,
        produced: &BTreeMap<String, Produced>,
        skills: &[crate::skills::Checked],
    ) {
        // Written files take the time of the newest input, not the clock: cargo stamps a
        // build script's run with its start time and would see its own output as a
        // change, rerunning the script and recompiling the crate on the next build.
        let stamp = (found.krate.sources.iter().map(|s| s.path.as_path()))
            .chain(composed.extra_files.iter().map(PathBuf::as_path))
            .filter_map(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
            .max();
        let tools_dir = &inputs.tools_dir;
        run.write_tools(tools_dir, produced, &composed.claimed, self.prune, stamp);
        if let Some(out) = &inputs.out_dir {
            let tables = table::package(tools_dir, produced, skills);
            run.write_if_changed(&out.join(table::FILE), tables.as_bytes(), false);
            self.publish(run, &found.krate, inputs, out);
        }
    }

    /// Writes the crate's type table to `OUT_DIR` and, when the crate declares `links`,
    /// hands it to the dependents' build scripts (`deps`).
    fn publish(&self, run: &mut Run, krate: &Crate, inputs: &Inputs, out: &Path) {
        // Outside cargo (no manifest) nothing can depend on the crate.
        let Some(manifest) = &inputs.manifest else {
            return;
        };
        let path = out.join(deps::TABLE_FILE);
        let Some(text) = deps::table_text(krate, manifest, &inputs.root, &inputs.cfg) else {
            run.warn(&format!(
                "neuralis-build: no type table for dependents: a path is not UTF-8, or `Cargo.toml` names no package ({})",
                inputs.root.display()
            ));
            return;
        };
        run.write_if_changed(&path, text.as_bytes(), false);
        if std::env::var_os("CARGO_MANIFEST_LINKS").is_some() {
            run.lines.push(format!(
                "cargo::metadata={}={}",
                deps::METADATA_KEY,
                path.display()
            ));
        }
    }

    /// The `#[tool]` declarations by tool name; a handler the macros reject is skipped
    /// (the compiler reports it) and its name claimed, and so is one this build's `cfg`
    /// leaves out (its file in `tools_dir`, if any, kept and said so).
    fn read_tools(&self, krate: &Crate, run: &mut Run, tools_dir: &Path) -> Decls {
        let mut decls = Decls::default();
        for (index, tf) in krate.tools.iter().enumerate() {
            let file = krate.modules[tf.module].file;
            match tool::read(tf, file) {
                Ok(decl) => decls
                    .by_name
                    .entry(decl.name.clone())
                    .or_default()
                    .push(Indexed { index, decl }),
                Err(rejected) => {
                    let place = rejected.loc.place(krate);
                    run.skip(&rejected.name, &rejected.reason, Some(place));
                    decls.claimed.insert(rejected.name);
                }
            }
        }
        // A handler this build's features leave out keeps its file (another feature set
        // writes it), said where the file is.
        for (tf, cfg) in &krate.compiled_out {
            let file = krate.modules[tf.module].file;
            let name = match tool::read(tf, file) {
                Ok(decl) => decl.name,
                Err(rejected) => rejected.name,
            };
            if decls.by_name.contains_key(&name)
                || !decls.claimed.insert(name.clone())
                || !tools_dir.join(format!("{name}.json")).is_file()
            {
                continue;
            }
            let loc = crate::diag::Loc {
                file,
                span: syn::spanned::Spanned::span(&tf.func.sig.ident),
            };
            run.compiled_out(&name, cfg, loc.place(krate));
        }
        decls
    }
}

/// What the run reads and where it writes (stage 1).
struct Inputs {
    manifest: Option<manifest::Manifest>,
    root: PathBuf,
    tools_dir: PathBuf,
    skills_dir: PathBuf,
    out_dir: Option<PathBuf>,
    cfg: Cfg,
    options: CheckOptions,
}

/// The crate as discovered (stage 2), and the dependencies' tables read.
struct Found {
    krate: Crate,
    tables: Vec<PathBuf>,
}

/// The handlers' declarations, by tool name, and the names of those skipped.
#[derive(Default)]
struct Decls {
    by_name: BTreeMap<String, Vec<Indexed>>,
    claimed: BTreeSet<String>,
}

/// The tools composed (stage 3), before the check.
struct Composed {
    tools: Vec<ComposedTool>,
    /// Tool names whose file must be kept even though nothing is produced now.
    claimed: BTreeSet<String>,
    /// Files read besides the crate's source (`include_str!` docs).
    extra_files: Vec<PathBuf>,
}

/// The dialects whose `dialect-weakened` the package allows everywhere
/// (`[package.metadata.neuralis] allow_weakened`: `true` for all, or their names); a
/// name that is no provider's stops the build.
fn allowed_weakened(run: &mut Run, manifest: Option<&manifest::Manifest>) -> Vec<Provider> {
    let names = manifest
        .map(|m| m.allow_weakened.as_slice())
        .unwrap_or_default();
    if names.iter().any(|n| n == "*") {
        return Provider::ALL.to_vec();
    }
    providers_named(run, "allow_weakened", names)
}

/// The providers `names` (the list `[package.metadata.neuralis] <key>`) name, each once;
/// a name that is no provider's stops the build.
fn providers_named(run: &mut Run, key: &str, names: &[String]) -> Vec<Provider> {
    let mut out = Vec::new();
    for name in names {
        match Provider::from_name(name) {
            Some(p) if !out.contains(&p) => out.push(p),
            Some(_) => {}
            None => run.diags.push(Diag::new(
                Severity::Error,
                None,
                &format!(
                    "neuralis-build: `[package.metadata.neuralis] {key}` names `{name}`, which is no provider's dialect: write one of {}",
                    Provider::ALL.map(|p| format!("`{p}`")).join(", ")
                ),
            )),
        }
    }
    out
}

/// One tool's document, where its parts came from, and its handler.
struct ComposedTool {
    name: String,
    doc: Value,
    locations: Vec<(String, Loc)>,
    /// Pointers under which `dialect-weakened` is silenced (`#[schema(allow_weakened)]`).
    quiet: Vec<String>,
    /// Which bounds each field's author wrote (the others are the type's).
    bounds: Vec<crate::compose::FieldBounds>,
    module: usize,
    decl: tool::ToolDecl,
    /// The file's text as its author wrote it (an input that implements `ToolInput` by
    /// hand), kept as it is.
    written: Option<String>,
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
    /// For a method, its service type as written on the impl.
    pub(crate) service: Option<String>,
    /// `crate = "..."` of the handler's `#[tool]`.
    pub(crate) krate: Option<String>,
}

/// Stage 3: each declared tool's document, from the static view of its input type and
/// its handler; a name claimed twice is `duplicate-tool`, and a tool whose types cannot
/// be read is skipped or refused (its name claimed).
fn compose(run: &mut Run, krate: &Crate, decls: Decls, tools_dir: &Path) -> Composed {
    let mut composed = Composed {
        tools: Vec::new(),
        claimed: decls.claimed,
        extra_files: Vec::new(),
    };
    for (name, mut group) in decls.by_name {
        if group.len() > 1 {
            duplicate(run, krate, &name, &group);
            composed.claimed.insert(name);
            continue;
        }
        let Indexed { index, decl } = group.remove(0);
        let module = krate.tools[index].module;
        let mut view = StaticView::new(krate);
        match compose_tool(&mut view, module, &decl) {
            Ok((doc, mut locations)) => {
                composed.extra_files.append(&mut view.extra_files);
                locations.extend(decl.locations.iter().cloned());
                composed.tools.push(ComposedTool {
                    name,
                    doc,
                    locations,
                    quiet: std::mem::take(&mut view.quiet),
                    bounds: std::mem::take(&mut view.bounds),
                    module,
                    decl,
                    written: None,
                });
            }
            Err(Problem::HandWritten { loc, ty }) => match hand_written(tools_dir, &name) {
                Ok((text, doc)) => composed.tools.push(ComposedTool {
                    locations: decl.locations.clone(),
                    name,
                    doc,
                    quiet: Vec::new(),
                    bounds: Vec::new(),
                    module,
                    decl,
                    written: Some(text),
                }),
                Err(why) => {
                    let file = display_path(&tools_dir.join(format!("{name}.json")));
                    run.error(
                        krate,
                        &loc,
                        RuleId::UnsupportedType,
                        &format!("`{ty}` implements `ToolInput` by hand, so the build script cannot write the schema of tool `{name}`, and its file {why}"),
                        &format!("write {file} yourself: `{ty}::schema()`'s properties under the tool's description and `x-neuralis` block (`cargo test`'s drift test compares it with the run-time composition); the build checks it and serves it as written"),
                    );
                    composed.claimed.insert(name);
                }
            },
            Err(problem) => {
                not_composed(run, krate, &name, problem);
                composed.claimed.insert(name);
            }
        }
    }
    composed
}

/// `duplicate-tool`: every handler that claims `name`, at the second one.
fn duplicate(run: &mut Run, krate: &Crate, name: &str, group: &[Indexed]) {
    let places: Vec<String> = group
        .iter()
        .map(|d| {
            let at = d.decl.name_loc.display(krate);
            format!("`{}` ({at})", d.decl.handler_display())
        })
        .collect();
    run.error(
        krate,
        &group[1].decl.name_loc,
        RuleId::DuplicateTool,
        &format!("tool `{name}` is claimed by {}", places.join(" and ")),
        RuleId::DuplicateTool.rule().hint,
    );
}

/// Why the tool `name` has no document: skipped (the compiler reports it), left to the
/// compiler with one warning, or refused (`unsupported-type`).
fn not_composed(run: &mut Run, krate: &Crate, name: &str, problem: Problem) {
    match problem {
        Problem::Skip { reason, loc } => run.skip(name, &reason, Some(loc.place(krate))),
        Problem::Unlinked {
            loc,
            first,
            message,
        } => {
            let mut d = Diag::new(Severity::Warning, None, &message).at(loc.place(krate));
            d.once = Some(format!("unlinked {first}"));
            run.summary
                .skipped
                .push(format!("skipped {name}: {}", d.line()));
            run.diags.push(d);
        }
        Problem::Unresolved { loc, message, help } => {
            run.error(krate, &loc, RuleId::UnsupportedType, &message, &help);
        }
        // `compose` reads the author's file instead.
        Problem::HandWritten { .. } => {}
    }
}

/// The tool file an author wrote for a tool whose input implements `ToolInput` by hand:
/// its text and its JSON; why not (`is missing`, `is not JSON: ...`), to end a message.
fn hand_written(tools_dir: &Path, name: &str) -> Result<(String, Value), String> {
    let path = tools_dir.join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => "is missing".to_owned(),
        _ => format!("cannot be read: {e}"),
    })?;
    let doc = serde_json::from_str(&text).map_err(|e| format!("is not JSON: {e}"))?;
    Ok((text, doc))
}

/// Stage 4: each composed document against the contract (with the build script's
/// draft-07 subset), each diagnostic at its token; a tool with an error is not produced,
/// and its name is claimed.
fn check(
    run: &mut Run,
    krate: &Crate,
    options: &CheckOptions,
    composed: &mut Composed,
) -> BTreeMap<String, Produced> {
    let mut produced = BTreeMap::new();
    for t in &composed.tools {
        let checked = run.check(
            krate,
            &t.name,
            &t.doc,
            &Sites {
                locations: &t.locations,
                quiet: &t.quiet,
                bounds: &t.bounds,
                fallback: &t.decl.name_loc,
            },
            options,
        );
        if checked.is_err() {
            composed.claimed.insert(t.name.clone());
            continue;
        }
        let module = krate.module_name(t.module);
        let service = t.decl.service.as_ref();
        let descriptor =
            neuralis_syntax::tool::descriptor_name(&t.decl.handler, service.map(|(i, _)| i));
        let tool = Produced {
            text: t
                .written
                .clone()
                .unwrap_or_else(|| to_canonical_string(&t.doc)),
            handler: format!("{module}::{}", t.decl.handler_display()),
            descriptor: format!("{module}::{descriptor}"),
            service: service.map(|(_, s)| s.clone()),
            krate: t.decl.krate.clone(),
        };
        produced.insert(t.name.clone(), tool);
    }
    produced
}

/// Stage 6: `cargo:rerun-if-changed` for every file the run read (the crate's source, the
/// unreadable ones, `include_str!` docs, the dependencies' tables, the manifests) and the
/// tools and skills directories when they exist (a path that does not would make cargo rerun the script
/// on every build).
fn rerun_lines(run: &mut Run, inputs: &Inputs, found: &Found, extra_files: &[PathBuf]) {
    let krate = &found.krate;
    let files = (krate.sources.iter().map(|s| &s.path))
        .chain(krate.unreadable.iter().map(|u| &u.path))
        .chain(extra_files)
        .chain(&found.tables)
        .chain(inputs.manifest.iter().flat_map(|m| &m.files));
    for f in files {
        run.lines
            .push(format!("cargo:rerun-if-changed={}", f.display()));
    }
    // A directory is watched whole: cargo looks at every file below it.
    for dir in [&inputs.tools_dir, &inputs.skills_dir] {
        if dir.exists() {
            run.lines
                .push(format!("cargo:rerun-if-changed={}", dir.display()));
        }
    }
}

/// The root document of one tool: the input's schema, the handler's description, the
/// `x-neuralis` block.
fn compose_tool(
    composer: &mut StaticView,
    module: usize,
    decl: &tool::ToolDecl,
) -> Result<(Value, Vec<(String, Loc)>), Problem> {
    let (root, locations) = match &decl.input {
        Some(ty) => {
            let site = Site {
                owner: format!("fn {}", decl.handler_display()),
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
    let description = composer.doc_text(
        &decl.docs.parts,
        module,
        &format!("fn {}", decl.handler_display()),
    )?;
    let doc = input::tool_document(root, description, decl.x_neuralis.clone());
    Ok((doc, locations))
}
