//! The run: discover the crate, read each handler's `#[tool]`, compose and check each
//! tool's document, write the files and the package table.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use neuralis_model::contract::CheckOptions;
use neuralis_model::schema::to_canonical_string;
use neuralis_model::{RuleId, input};
use serde_json::{Map, Value};

use crate::compose::{Problem, Site, StaticView};
use crate::diag::{Diag, Loc, Place, Run, Severity, one_line};
use crate::discover::{Crate, display_path};
use crate::{Builder, Cfg, Error, Summary, deps, manifest, table, tool};

impl Builder {
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
                    run.diags.push(Diag::new(
                        Severity::Error,
                        None,
                        "neuralis-build: `CARGO_MANIFEST_DIR` is not set: call `emit()` from a build script, or set `Builder::manifest_dir`",
                    ));
                    return run.finish();
                }
            },
        };
        let manifest = match manifest::read(&manifest_dir) {
            Ok(m) => m,
            Err(e) => {
                run.warn(&format!(
                    "neuralis-build: cannot read the manifest ({}); dependencies are known by their libraries' names only",
                    one_line(&e)
                ));
                None
            }
        };
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
        let tools_dir = manifest_dir.join(self.tools_dir.as_deref().unwrap_or(Path::new("tools")));
        let out_dir = self
            .out_dir
            .clone()
            .or_else(|| std::env::var_os("OUT_DIR").map(PathBuf::from));
        let cfg = self.cfg.clone().unwrap_or_else(Cfg::from_env);
        let mut krate = Crate::read(&root, &cfg);
        let tables = self.tables.clone().unwrap_or_else(deps::tables_from_env);
        let loaded = deps::load(&mut krate, manifest.as_ref(), &tables);
        for w in &loaded.warnings {
            run.warn(&format!("neuralis-build: {w}"));
        }
        let options = CheckOptions {
            cards: self.cards.clone(),
            profile: self.profile,
        };
        for u in &krate.unreadable {
            let mut d = Diag::new(
                Severity::Warning,
                None,
                &format!("not read: {}", one_line(&u.reason)),
            )
            .at(Place::File(display_path(&u.path)))
            .note("the compiler reports why".into());
            d.compiler_reports = true;
            run.diags.push(d);
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
                            d.decl.handler_display(),
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
            let mut composer = StaticView::new(&krate);
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
                                    handler: format!(
                                        "{}::{}",
                                        krate.module_name(module),
                                        d.decl.handler_display()
                                    ),
                                    descriptor: format!(
                                        "{}::{}",
                                        krate.module_name(module),
                                        neuralis_syntax::tool::descriptor_name(
                                            &d.decl.handler,
                                            d.decl.service.as_ref().map(|(i, _)| i)
                                        )
                                    ),
                                    service: d.decl.service.as_ref().map(|(_, s)| s.clone()),
                                    krate: d.decl.krate.clone(),
                                },
                            );
                        }
                        Err(()) => {
                            claimed.insert(name.clone());
                        }
                    }
                }
                Err(Problem::Skip { reason, loc }) => {
                    run.skip(name, &reason, Some(loc.place(&krate)));
                    claimed.insert(name.clone());
                }
                Err(Problem::Unlinked {
                    loc,
                    first,
                    message,
                }) => {
                    let mut d = Diag::new(Severity::Warning, None, &message).at(loc.place(&krate));
                    d.once = Some(format!("unlinked {first}"));
                    run.summary
                        .skipped
                        .push(format!("skipped {name}: {}", d.line()));
                    run.diags.push(d);
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
        run.write_tools(&tools_dir, &produced, &claimed, self.prune, stamp);
        if let Some(out) = &out_dir {
            let tables = table::package(&tools_dir, &produced);
            run.write_if_changed(&out.join(table::FILE), tables.as_bytes(), false);
            self.publish(&mut run, &krate, manifest.as_ref(), &root, &cfg, out);
        }
        for s in &krate.sources {
            run.lines
                .push(format!("cargo:rerun-if-changed={}", s.path.display()));
        }
        for u in &krate.unreadable {
            run.lines
                .push(format!("cargo:rerun-if-changed={}", u.path.display()));
        }
        for f in extra_files
            .iter()
            .chain(&loaded.files)
            .chain(manifest.iter().flat_map(|m| &m.files))
        {
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

    /// Writes the crate's type table to `OUT_DIR` and, when the crate declares `links`,
    /// hands it to the dependents' build scripts (`deps`).
    fn publish(
        &self,
        run: &mut Run,
        krate: &Crate,
        manifest: Option<&manifest::Manifest>,
        root: &Path,
        cfg: &Cfg,
        out: &Path,
    ) {
        // Outside cargo (no manifest) nothing can depend on the crate.
        let Some(manifest) = manifest else {
            return;
        };
        let path = out.join(deps::TABLE_FILE);
        let Some(text) = deps::table_text(krate, manifest, root, cfg) else {
            run.warn(&format!(
                "neuralis-build: no type table for dependents: a path is not UTF-8, or `Cargo.toml` names no package ({})",
                root.display()
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
                        &rejected.reason,
                        Some(rejected.loc.place(krate)),
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
    /// For a method, its service type as written on the impl.
    pub(crate) service: Option<String>,
    /// `crate = "..."` of the handler's `#[tool]`.
    pub(crate) krate: Option<String>,
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
