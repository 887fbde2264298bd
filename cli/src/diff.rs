//! `neuralis diff OLD NEW`: two revisions of a package's `tools/`, read the way a caller
//! lives with them. Each finding has a rule id, a class (`breaking`, `posture`,
//! `additive`, `cosmetic`), a JSON pointer and what a caller will see; each tool lists
//! every class its findings have, the most severe first (its `class`), or `none`
//! (`docs/changing.md`).

mod schema;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use neuralis_core::xn::{BLOCK_POINTER, KEYS, Key, Kind, Level, keys};
use serde::Serialize;
use serde_json::{Map, Value, json};

pub use schema::{Class, Finding, Side, Walk};

/// Arguments of `neuralis diff`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// `OLD NEW`: two tools directories (each may hold an `outputs.json`, as `neuralis
    /// outputs` prints it); with `--since`, at most one: the tools directory (default
    /// `tools`).
    pub dirs: Vec<PathBuf>,
    /// Read the old side from git at this revision (a commit, a tag, `HEAD~1`...), the
    /// new side from the directory as it is; no checkout needed. Also flags a breaking
    /// change whose package version (`Cargo.toml`) did not take a major step.
    #[arg(long, value_name = "REV")]
    pub since: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: DiffFormat,
    /// What does not fail the run (exit 0): `breaking` or `posture` (a tool's change of
    /// that class), or `version` (a breaking change without a major version step, with
    /// `--since`); repeatable, each only itself.
    #[arg(long, value_enum, value_name = "CLASS")]
    pub allow: Vec<Allow>,
}

/// `--allow` values of `neuralis diff`: each failure of the run, allowed on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Allow {
    /// A tool's breaking change.
    Breaking,
    /// A tool's posture change (who must approve or may call).
    Posture,
    /// A breaking change whose package version did not take a major step.
    Version,
    /// Never fails the run: accepted for command lines written before `version`.
    #[value(hide = true)]
    Additive,
    /// Never fails the run: accepted for command lines written before `version`.
    #[value(hide = true)]
    Cosmetic,
    /// Never fails the run: accepted for command lines written before `version`.
    #[value(hide = true)]
    None,
}

/// `--format` values of `neuralis diff`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// A line per finding, grouped by tool.
    #[default]
    Human,
    /// One JSON document.
    Json,
    /// A Markdown table, for a pull-request comment.
    Markdown,
}

/// One side: the tools by name and the output schemas when `outputs.json` is there.
#[derive(Debug, Default)]
struct Revision {
    tools: BTreeMap<String, Value>,
    outputs: Option<Map<String, Value>>,
}

/// One tool's verdict.
#[derive(Debug, Serialize)]
struct ToolDiff {
    name: String,
    /// The most severe class of its findings (`none` without any).
    class: Class,
    /// Every class its findings have, the most severe first (`[none]` without any).
    classes: Vec<Class>,
    findings: Vec<Finding>,
}

impl ToolDiff {
    fn has(&self, class: Class) -> bool {
        self.classes.contains(&class)
    }

    /// Its classes, comma-separated.
    fn classes_text(&self) -> String {
        self.classes
            .iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The package versions of the two sides, with `--since`.
#[derive(Debug, Serialize)]
struct Versions {
    old: String,
    new: String,
    /// Whether the new version is a major step up (a minor one below 1.0, as cargo's
    /// semver compatibility has it).
    major_step: bool,
    /// A breaking change without a major step.
    flagged: bool,
}

/// Runs `neuralis diff`.
pub fn run(args: &Args) -> ExitCode {
    let (old, new, versions) = match sides(args) {
        Ok(sides) => sides,
        Err(message) => {
            eprintln!("neuralis diff: {message}");
            return ExitCode::from(crate::EXIT_USAGE);
        }
    };
    let tools = diff(&old, &new);
    let breaking = tools.iter().any(|t| t.has(Class::Breaking));
    let versions = versions.map(|(o, n)| {
        let major_step = major_step(&o, &n);
        Versions {
            flagged: breaking && !major_step,
            old: o,
            new: n,
            major_step,
        }
    });
    let text = match args.format {
        DiffFormat::Human => human(&tools, versions.as_ref()),
        DiffFormat::Json => {
            let doc = json!({"tools": tools, "summary": summary(&tools), "version": versions});
            let mut doc = doc;
            if versions.is_none()
                && let Value::Object(m) = &mut doc
            {
                m.remove("version");
            }
            serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
        }
        DiffFormat::Markdown => markdown(&tools, versions.as_ref()),
    };
    print!("{text}");
    let fails = |class: Class, allow: Allow| {
        !args.allow.contains(&allow) && tools.iter().any(|t| t.has(class))
    };
    let fails = fails(Class::Breaking, Allow::Breaking)
        || fails(Class::Posture, Allow::Posture)
        || (versions.as_ref().is_some_and(|v| v.flagged) && !args.allow.contains(&Allow::Version));
    ExitCode::from(u8::from(fails))
}

type Sides = (Revision, Revision, Option<(String, String)>);

fn sides(args: &Args) -> Result<Sides, String> {
    match (&args.since, args.dirs.as_slice()) {
        (None, [old, new]) => Ok((read_dir(old)?, read_dir(new)?, None)),
        (None, _) => Err("give two tools directories, `OLD NEW` (or `--since REV [DIR]`)".into()),
        (Some(rev), dirs) if dirs.len() <= 1 => {
            let dir = dirs
                .first()
                .cloned()
                .unwrap_or_else(|| PathBuf::from("tools"));
            let new = read_dir(&dir)?;
            let old = read_git(rev, &dir)?;
            let versions = versions(rev, &dir)?;
            Ok((old, new, versions))
        }
        (Some(_), _) => Err("with `--since REV`, give at most one tools directory".into()),
    }
}

fn parse(bytes: &[u8], what: &str) -> Result<Value, String> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(v) if v.is_object() => Ok(v),
        Ok(_) => Err(format!("{what} is not a JSON object")),
        Err(e) => Err(format!("{what} is not JSON: {e}")),
    }
}

fn add(rev: &mut Revision, file: &str, bytes: &[u8], what: &str) -> Result<(), String> {
    let Some(stem) = file.strip_suffix(".json") else {
        return Ok(());
    };
    let doc = parse(bytes, what)?;
    if neuralis_core::name::is_outputs_file(file, bytes) {
        rev.outputs = doc.as_object().cloned();
    } else {
        rev.tools.insert(stem.to_owned(), doc);
    }
    Ok(())
}

fn read_dir(dir: &Path) -> Result<Revision, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
    let mut rev = Revision::default();
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?
            .path();
        let Some(file) = path.file_name().and_then(|f| f.to_str()) else {
            continue;
        };
        if !path.is_file() || !file.ends_with(".json") {
            continue;
        }
        let bytes =
            std::fs::read(&path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        add(&mut rev, file, &bytes, &format!("`{}`", path.display()))?;
    }
    Ok(rev)
}

fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// The tools directory `dir` as it was at `rev`: `git ls-tree` and `git show`, paths
/// relative to `dir`. A directory git held nothing in at `rev` is an error: read as an
/// empty side, every tool would pass as new.
fn read_git(rev: &str, dir: &Path) -> Result<Revision, String> {
    if !dir.is_dir() {
        return Err(format!("cannot read `{}`: not a directory", dir.display()));
    }
    let listed = git(dir, &["ls-tree", "--name-only", rev, "--", "."])?;
    if listed.iter().all(u8::is_ascii_whitespace) {
        return Err(format!(
            "git has no file in `{}` at {rev}: the old side would be empty and every tool \
             read as new; commit the tools directory first, give the revision that has it, \
             or diff two directories (`neuralis diff OLD NEW`)",
            dir.display()
        ));
    }
    let mut rev_side = Revision::default();
    for file in String::from_utf8_lossy(&listed).lines() {
        let name = Path::new(file)
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or(file);
        if !name.ends_with(".json") {
            continue;
        }
        let bytes = git(dir, &["show", &format!("{rev}:./{name}")])?;
        add(&mut rev_side, name, &bytes, &format!("`{name}` at {rev}"))?;
    }
    Ok(rev_side)
}

/// The package's version at `rev` and now: the nearest `Cargo.toml` above `dir` with a
/// `[package]` version (`None` when there is none).
fn versions(rev: &str, dir: &Path) -> Result<Option<(String, String)>, String> {
    let start =
        std::fs::canonicalize(dir).map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
    for ancestor in start.ancestors() {
        let manifest = ancestor.join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let Some(new) = crate::manifest::package_version(&text) else {
            continue;
        };
        let old = git(ancestor, &["show", &format!("{rev}:./Cargo.toml")])
            .ok()
            .and_then(|b| crate::manifest::package_version(&String::from_utf8_lossy(&b)));
        return Ok(old.map(|old| (old, new)));
    }
    Ok(None)
}

/// Whether `new` is a major step up from `old`: the first non-zero of major, minor,
/// patch grew (cargo's semver compatibility: `0.1.x` to `0.2.0` is one).
fn major_step(old: &str, new: &str) -> bool {
    let parts = |v: &str| -> Vec<u64> {
        v.split(['-', '+'])
            .next()
            .unwrap_or_default()
            .split('.')
            .map(|p| p.parse().unwrap_or(0))
            .collect()
    };
    let (o, n) = (parts(old), parts(new));
    let at = |v: &[u64], i: usize| v.get(i).copied().unwrap_or(0);
    for i in 0..3 {
        if at(&o, i) != 0 || i == 2 {
            return at(&n, i) > at(&o, i) || (0..i).any(|j| at(&n, j) > at(&o, j));
        }
        if at(&n, i) > 0 {
            return true;
        }
    }
    false
}

fn diff(old: &Revision, new: &Revision) -> Vec<ToolDiff> {
    let names: BTreeSet<&String> = old.tools.keys().chain(new.tools.keys()).collect();
    names
        .into_iter()
        .map(|name| {
            let findings = match (old.tools.get(name), new.tools.get(name)) {
                (Some(_), None) => vec![Finding {
                    rule: "tool-removed",
                    class: Class::Breaking,
                    pointer: String::new(),
                    message: format!(
                        "`{name}` is gone: a call of it is refused as an unknown tool"
                    ),
                }],
                (None, Some(_)) => vec![Finding {
                    rule: "tool-added",
                    class: Class::Additive,
                    pointer: String::new(),
                    message: format!("`{name}` is new"),
                }],
                (Some(a), Some(b)) => tool(name, a, b, old, new),
                (None, None) => Vec::new(),
            };
            let mut classes: Vec<Class> = findings.iter().map(|f| f.class).collect();
            classes.sort_unstable();
            classes.dedup();
            if classes.is_empty() {
                classes.push(Class::None);
            }
            ToolDiff {
                name: name.clone(),
                class: classes[0],
                classes,
                findings,
            }
        })
        .collect()
}

/// The findings of one tool present on both sides.
fn tool(
    name: &str,
    old: &Value,
    new: &Value,
    old_rev: &Revision,
    new_rev: &Revision,
) -> Vec<Finding> {
    let strip = |doc: &Value| {
        let mut m = doc.as_object().cloned().unwrap_or_default();
        m.remove("$schema");
        let block = m.remove(neuralis_core::xn::BLOCK);
        (Value::Object(m), block.unwrap_or(Value::Null))
    };
    let (old_schema, old_block) = strip(old);
    let (new_schema, new_block) = strip(new);
    let mut walk = Walk::new(Side::Input, &old_schema, &new_schema, "");
    walk.schema(&old_schema, &new_schema, "");
    let mut findings = walk.findings;
    findings.extend(block(&old_block, &new_block, &old_schema));
    findings.extend(outputs(name, old_rev, new_rev));
    findings
}

/// The `x-neuralis` block, key by key of its one table (`neuralis_core::xn::KEYS`): defaults
/// change what a call means, posture who approves, the rest what people read;
/// `old_schema` is the old side's input schema (which keys it required). Findings come
/// grouped as [`Compare`] orders them, each group in the table's order.
fn block(old: &Value, new: &Value, old_schema: &Value) -> Vec<Finding> {
    let required: BTreeSet<String> = old_schema
        .as_object()
        .map(|root| {
            neuralis_core::schema::required_names(root)
                .into_iter()
                .collect()
        })
        .unwrap_or_default();
    let mut out: Vec<(Compare, Finding)> = Vec::new();
    for key in KEYS {
        let how = compare(key);
        let path = key_path(key);
        let found = match how {
            Compare::Defaults => block_defaults(old, new, &required),
            Compare::Posture { rule } => block_posture(old, new, rule, &path),
            Compare::Entries { rule } => block_entries(old, new, rule, &entries_what(key), &path),
            Compare::Cosmetic { rule } => block_cosmetic(old, new, rule, &path),
            Compare::Inside => Vec::new(),
        };
        out.extend(found.into_iter().map(|f| (how, f)));
    }
    out.sort_by_key(|(how, _)| how.rank());
    out.into_iter().map(|(_, f)| f).collect()
}

/// How `diff` compares one key of the block, as its kind and level say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Compare {
    /// Default arguments, each added, gone or changed (`default-changed`, or
    /// `default-added` on a key the old side required).
    Defaults,
    /// A value that says who must approve a call (`hint-changed`, `category-changed`).
    Posture { rule: &'static str },
    /// A set of entries that says who must approve or may call, each added or gone.
    Entries { rule: &'static str },
    /// A value people read, compared whole (`metadata-changed`, `ui-changed`).
    Cosmetic { rule: &'static str },
    /// Compared with what holds it: a level compared key by key, or a key of a level
    /// compared whole.
    Inside,
}

impl Compare {
    /// The group's place in the findings: defaults, hints, entries, then the rest.
    fn rank(self) -> u8 {
        match self {
            Compare::Defaults => 0,
            Compare::Posture { .. } => 1,
            Compare::Entries { .. } => 2,
            Compare::Cosmetic { .. } => 3,
            Compare::Inside => 4,
        }
    }
}

/// Whether `diff` compares a level of the block as one value (`ui`: how results render)
/// rather than key by key.
fn compared_whole(level: Level) -> bool {
    match level {
        Level::Ui => true,
        Level::Block | Level::Annotations | Level::Requires => false,
    }
}

/// How `diff` compares `key`. The MCP hints (`*Hint` flags) and the risk category say who
/// must approve; root keys and feature entries who must approve or may call; every other
/// value is read by people.
fn compare(key: &Key) -> Compare {
    if compared_whole(key.level) {
        return Compare::Inside;
    }
    match key.kind {
        Kind::Defaults => Compare::Defaults,
        Kind::Flag if key.name.ends_with("Hint") => Compare::Posture {
            rule: "hint-changed",
        },
        Kind::Category => Compare::Posture {
            rule: "category-changed",
        },
        Kind::Keys => Compare::Entries {
            rule: "ask-on-keys-changed",
        },
        Kind::Entries => Compare::Entries {
            rule: "features-changed",
        },
        Kind::Level(level) if compared_whole(level) => Compare::Cosmetic { rule: "ui-changed" },
        Kind::Level(_) => Compare::Inside,
        Kind::Text | Kind::Flag | Kind::Count | Kind::Presentation => Compare::Cosmetic {
            rule: "metadata-changed",
        },
    }
}

/// What a set of entries does, for its findings' messages (`now also {what} ...`).
fn entries_what(key: &Key) -> String {
    match *key {
        keys::ASK_ON_KEYS => "asks for approval when the call sends".into(),
        keys::FEATURES => "requires the features".into(),
        keys::ESCALATIONS => "lists the escalations".into(),
        _ => format!("lists in `{}`", key.name),
    }
}

/// `key`'s path inside the block: its level's key, then its own name.
fn key_path(key: &Key) -> Vec<&'static str> {
    let mut path: Vec<&'static str> = key.level.key().map(|k| k.name).into_iter().collect();
    path.push(key.name);
    path
}

/// The JSON pointer of `path` inside the `x-neuralis` block.
fn block_at(path: &[&str]) -> String {
    path.iter().fold(BLOCK_POINTER.to_owned(), |p, t| {
        neuralis_core::contract::push_pointer(&p, t)
    })
}

/// The value at `path` inside the block, `null` when it is not there.
fn block_get(v: &Value, path: &[&str]) -> Value {
    path.iter()
        .try_fold(v, |v, k| v.get(*k))
        .cloned()
        .unwrap_or(Value::Null)
}

/// A finding about the block at `path`.
fn block_finding(rule: &'static str, class: Class, path: &[&str], message: String) -> Finding {
    Finding {
        rule,
        class,
        pointer: block_at(path),
        message,
    }
}

/// Defaults: one added, gone or changed is breaking, a call that leaves the key out
/// now means something else; one added to a key the old side required (`required`) is
/// additive, since no valid call left it out.
fn block_defaults(old: &Value, new: &Value, required: &BTreeSet<String>) -> Vec<Finding> {
    let mut out = Vec::new();
    let empty = Map::new();
    let od = old
        .get(keys::DEFAULTS.name)
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let nd = new
        .get(keys::DEFAULTS.name)
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let names: BTreeSet<&String> = od.keys().chain(nd.keys()).collect();
    for key in names {
        let (a, b) = (od.get(key), nd.get(key));
        if a != b {
            let path = [keys::DEFAULTS.name, key.as_str()];
            if let (None, Some(b)) = (a, b)
                && required.contains(key)
            {
                out.push(block_finding(
                    "default-added",
                    Class::Additive,
                    &path,
                    schema::default_added(b),
                ));
                continue;
            }
            let what = match (a, b) {
                (Some(a), Some(b)) => format!("the default of `{key}` {a} became {b}"),
                (Some(a), None) => format!("the default of `{key}` ({a}) is gone"),
                (None, Some(b)) => format!("`{key}` now defaults to {b}"),
                (None, None) => continue,
            };
            out.push(block_finding(
                "default-changed",
                Class::Breaking,
                &path,
                format!("{what}: a call that leaves it out now means something else"),
            ));
        }
    }
    out
}

/// Posture: who must approve, who may call, as an annotation's hint or category says.
fn block_posture(old: &Value, new: &Value, rule: &'static str, path: &[&str]) -> Vec<Finding> {
    let (a, b) = (block_get(old, path), block_get(new, path));
    if a == b {
        return Vec::new();
    }
    let key = path[path.len() - 1];
    vec![block_finding(
        rule,
        Class::Posture,
        path,
        format!(
            "`{key}` {} became {}: who must approve a call may change",
            shown(&a),
            shown(&b)
        ),
    )]
}

/// Posture: the keys that ask for approval, the features and escalations required,
/// each entry added or gone.
fn block_entries(
    old: &Value,
    new: &Value,
    rule: &'static str,
    what: &str,
    path: &[&str],
) -> Vec<Finding> {
    let set = |v: Value| -> BTreeSet<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    let (a, b) = (set(block_get(old, path)), set(block_get(new, path)));
    let added: Vec<&String> = b.difference(&a).collect();
    let gone: Vec<&String> = a.difference(&b).collect();
    let mut out = Vec::new();
    if !added.is_empty() {
        out.push(block_finding(
            rule,
            Class::Posture,
            path,
            format!("now also {what} {}", quoted(&added)),
        ));
    }
    if !gone.is_empty() {
        out.push(block_finding(
            rule,
            Class::Posture,
            path,
            format!("no longer {what} {}", quoted(&gone)),
        ));
    }
    out
}

/// What people read: title, duration, cancellability, ui, family, operation, transport.
fn block_cosmetic(old: &Value, new: &Value, rule: &'static str, path: &[&str]) -> Vec<Finding> {
    let (a, b) = (block_get(old, path), block_get(new, path));
    if a == b {
        return Vec::new();
    }
    let key = path[path.len() - 1];
    vec![block_finding(
        rule,
        Class::Cosmetic,
        path,
        format!("`{key}` {} became {}", shown(&a), shown(&b)),
    )]
}

fn quoted(keys: &[&String]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn shown(v: &Value) -> String {
    match v {
        Value::Null => "absent".into(),
        other => other.to_string(),
    }
}

/// The output schemas of `outputs.json`, when both sides have one.
fn outputs(name: &str, old: &Revision, new: &Revision) -> Vec<Finding> {
    let (Some(o), Some(n)) = (&old.outputs, &new.outputs) else {
        return Vec::new();
    };
    let pointer = "/outputSchema".to_owned();
    match (o.get(name).filter(|v| !v.is_null()), n.get(name).filter(|v| !v.is_null())) {
        (None, None) => Vec::new(),
        (Some(_), None) => vec![Finding {
            rule: "output-removed",
            class: Class::Breaking,
            pointer,
            message: "the tool no longer declares an output schema: a client reading `structuredContent` by it gets no promise".into(),
        }],
        (None, Some(_)) => vec![Finding {
            rule: "output-added",
            class: Class::Additive,
            pointer,
            message: "the tool now declares an output schema".into(),
        }],
        (Some(a), Some(b)) => {
            let mut walk = Walk::new(Side::Output, a, b, "/outputSchema");
            walk.schema(a, b, "");
            walk.findings
        }
    }
}

/// How many tools have a finding of each class (a tool with a breaking and a posture
/// change counts in both), how many changed nothing, and how many findings in all.
fn summary(tools: &[ToolDiff]) -> Value {
    let mut counts = Map::new();
    for class in [
        Class::Breaking,
        Class::Posture,
        Class::Additive,
        Class::Cosmetic,
        Class::None,
    ] {
        let n = tools.iter().filter(|t| t.has(class)).count();
        counts.insert(class.as_str().into(), json!(n));
    }
    counts.insert(
        "findings".into(),
        json!(tools.iter().map(|t| t.findings.len()).sum::<usize>()),
    );
    Value::Object(counts)
}

fn summary_line(tools: &[ToolDiff]) -> String {
    let s = summary(tools);
    format!(
        "{} breaking, {} posture, {} additive, {} cosmetic, {} unchanged",
        s["breaking"], s["posture"], s["additive"], s["cosmetic"], s["none"]
    )
}

fn version_line(v: &Versions) -> String {
    if v.flagged {
        format!(
            "version: {} -> {} is not a major step, and a tool's change is breaking: take a major step (a minor one below 1.0)",
            v.old, v.new
        )
    } else {
        format!("version: {} -> {}", v.old, v.new)
    }
}

fn human(tools: &[ToolDiff], versions: Option<&Versions>) -> String {
    let mut out = String::new();
    for t in tools {
        let _ = writeln!(out, "{}: {}", t.name, t.classes_text());
        for f in &t.findings {
            let pointer = if f.pointer.is_empty() {
                "\"\""
            } else {
                &f.pointer
            };
            let _ = writeln!(
                out,
                "  {:<9} {:<24} {pointer}  {}",
                f.class.as_str(),
                f.rule,
                f.message
            );
        }
    }
    let _ = writeln!(out, "summary: {}", summary_line(tools));
    if let Some(v) = versions {
        let _ = writeln!(out, "{}", version_line(v));
    }
    out
}

fn markdown(tools: &[ToolDiff], versions: Option<&Versions>) -> String {
    let mut out = String::from("### Tool contract changes\n\n");
    let _ = writeln!(out, "{}\n", summary_line(tools));
    if let Some(v) = versions {
        let _ = writeln!(out, "{}\n", version_line(v));
    }
    let changed: Vec<&ToolDiff> = tools.iter().filter(|t| !t.findings.is_empty()).collect();
    if changed.is_empty() {
        out.push_str("No tool changed.\n");
        return out;
    }
    out.push_str(
        "| tool | class | finding | rule | pointer | what a caller sees |\n|---|---|---|---|---|---|\n",
    );
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    for t in changed {
        // The tool's classes, every row of it: a tool is as severe as its worst finding.
        let classes = t
            .classes
            .iter()
            .map(|c| format!("**{}**", c.as_str()))
            .collect::<Vec<_>>()
            .join(", ");
        for f in &t.findings {
            let _ = writeln!(
                out,
                "| `{}` | {classes} | {} | `{}` | `{}` | {} |",
                cell(&t.name),
                f.class.as_str(),
                f.rule,
                cell(&f.pointer),
                cell(&f.message)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_major_step_is_cargo_s() {
        assert!(major_step("1.2.3", "2.0.0"));
        assert!(!major_step("1.2.3", "1.3.0"));
        assert!(major_step("0.1.4", "0.2.0"));
        assert!(!major_step("0.1.4", "0.1.5"));
        assert!(major_step("0.0.3", "0.0.4"));
        assert!(major_step("0.3.0", "1.0.0"));
        assert!(!major_step("2.0.0", "2.0.0"));
    }

    /// A value of `kind`, `alt` choosing a second one.
    fn sample(kind: Kind, alt: bool) -> Value {
        let pick = |names: &[&str]| json!(names[usize::from(alt)]);
        match kind {
            Kind::Text => json!(if alt { "b" } else { "a" }),
            Kind::Flag => json!(!alt),
            Kind::Count => json!(if alt { 2 } else { 1 }),
            Kind::Category => pick(neuralis_core::xn::CATEGORIES),
            Kind::Presentation => pick(neuralis_core::xn::PRESENTATIONS),
            Kind::Defaults => json!({ "days": if alt { 2 } else { 1 } }),
            Kind::Keys | Kind::Entries => {
                if alt {
                    json!(["a", "b"])
                } else {
                    json!(["a"])
                }
            }
            Kind::Level(_) if alt => json!({}),
            Kind::Level(level) => full(level),
        }
    }

    /// A level with every one of its keys set.
    fn full(level: Level) -> Value {
        let mut m = Map::new();
        for key in level.keys() {
            m.insert(key.name.into(), sample(key.kind, false));
        }
        Value::Object(m)
    }

    /// Every key of the table is compared: changing it alone (or, for a key of a level
    /// compared whole, the level) gives a finding at its pointer.
    #[test]
    fn every_key_of_the_table_is_compared() {
        let old = full(Level::Block);
        for key in KEYS {
            let mut new = old.clone();
            let path = key_path(key);
            let (last, parents) = path.split_last().expect("a key has a name");
            let mut at = &mut new;
            for p in parents {
                at = &mut at[*p];
            }
            at[*last] = sample(key.kind, true);
            let findings = block(&old, &new, &Value::Null);
            let pointer = if compared_whole(key.level) {
                key.level.pointer()
            } else {
                key.pointer()
            };
            assert!(
                findings.iter().any(|f| f.pointer.starts_with(&pointer)),
                "{pointer}: {findings:?}"
            );
            assert!(block(&old, &old, &Value::Null).is_empty());
        }
    }
}
