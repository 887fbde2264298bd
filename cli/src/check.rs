//! `neuralis check`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use neuralis_core::contract::{
    CheckOptions, Diagnostic, Location, Profile, Report, RuleId, check_bytes_with,
};
use neuralis_core::dialect::Provider;
use serde_json::{Value, json};

use crate::Format;

/// Arguments of `neuralis check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Tools directories (each holding `*.json`), or single tool files.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// The card types the package declares (enables `card-type-unmatched`).
    #[arg(long, value_delimiter = ',')]
    pub cards: Option<Vec<String>>,
    /// The rule set: `neuralis` (the platform's package loader, the default), `mcp-remote`
    /// (adds the rules of platforms that consume MCP servers), or a model provider's
    /// dialect, `openai`, `anthropic` or `gemini` (adds what its own tool definition
    /// loses); repeatable, each adding its rules. A constraint a dialect can only say in
    /// words is `dialect-weakened`: `#[schema(allow_weakened)]` on the field silences it
    /// in the build.
    #[arg(long, value_enum)]
    pub profile: Vec<ProfileArg>,
    /// Also check the dialects a package's `Cargo.toml` names in `[package.metadata.neuralis]
    /// dialects` (a manifest, or the folder holding one). Without `--profile` or this
    /// flag, `./Cargo.toml`'s list is read when there is one.
    #[arg(long, value_name = "CARGO_TOML")]
    pub dialects_from: Option<PathBuf>,
    /// Also print each tool's contract digest (`sha256:` of its canonical text, what
    /// `neuralis-mcp` serves in the tool's `_meta` as `io.neuralis/digest`), for a client
    /// or a CI job to pin.
    #[arg(long)]
    pub digests: bool,
}

/// `--profile` values.
#[derive(Debug, Clone, Copy, Default, clap::ValueEnum)]
pub enum ProfileArg {
    /// The platform's package-load contract.
    #[default]
    Neuralis,
    /// The package-load contract plus the `mcp-remote` profile.
    McpRemote,
    /// The package-load contract plus what OpenAI strict function calling loses
    /// (`dialect-refused`, `dialect-weakened`).
    #[value(name = "openai")]
    OpenAi,
    /// The package-load contract plus what Anthropic strict tool use loses.
    Anthropic,
    /// The package-load contract plus what Gemini function declarations lose.
    Gemini,
}

impl ProfileArg {
    /// The checker's profile.
    pub const fn profile(self) -> Profile {
        match self {
            Self::Neuralis => Profile::Neuralis,
            Self::McpRemote => Profile::McpRemote,
            Self::OpenAi => Profile::OpenAi,
            Self::Anthropic => Profile::Anthropic,
            Self::Gemini => Profile::Gemini,
        }
    }
}

/// One checked file.
struct Checked {
    path: PathBuf,
    bytes: Vec<u8>,
    report: Report,
}

/// Runs `neuralis check`.
pub fn run(args: &Args) -> ExitCode {
    let files = match collect(&args.dirs) {
        Ok(files) => files,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(crate::EXIT_USAGE);
        }
    };
    let (options, allowed) = match options(args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(crate::EXIT_USAGE);
        }
    };
    let mut checked = Vec::with_capacity(files.len());
    for path in files {
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("error: cannot read `{}`: {e}", path.display());
                return ExitCode::from(crate::EXIT_USAGE);
            }
        };
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut report = check_bytes_with(&name, &bytes, &options);
        // The package's `allow_weakened`, as its build honours it.
        report.diagnostics.retain(|d| {
            d.rule != RuleId::DialectWeakened
                || d.message
                    .split_whitespace()
                    .next()
                    .and_then(Provider::from_name)
                    .is_none_or(|p| !allowed.contains(&p))
        });
        checked.push(Checked {
            path,
            bytes,
            report,
        });
    }
    let errors = count(&checked, true);
    let output = match args.format {
        Format::Json => json_output(&checked, args.digests),
        Format::Human => human_output(&checked, args.digests),
    };
    print!("{output}");
    ExitCode::from(u8::from(errors > 0))
}

/// The files to check: each directory's `*.json` (directly in it, sorted), or the file.
/// The checker's options: the profiles given (and the dialects of `--dialects-from`, or
/// by default of `./Cargo.toml` when no `--profile` is given), `mcp-remote` when any asks
/// for it, every provider's dialect once.
fn options(args: &Args) -> Result<(CheckOptions, Vec<Provider>), String> {
    let mut dialects = Vec::new();
    let mut allowed = Vec::new();
    let mut profile = Profile::Neuralis;
    for p in &args.profile {
        match p.profile().provider() {
            Some(provider) if !dialects.contains(&provider) => dialects.push(provider),
            Some(_) => {}
            None if matches!(p, ProfileArg::McpRemote) => profile = Profile::McpRemote,
            None => {}
        }
    }
    let manifest = match &args.dialects_from {
        Some(path) => Some(path.clone()),
        None if args.profile.is_empty() && Path::new("Cargo.toml").is_file() => {
            Some(PathBuf::from("Cargo.toml"))
        }
        None => None,
    };
    if let Some(path) = manifest {
        // The dialects as the build checks them (`mcp-remote` among them: what its served
        // dialect refuses or says in words).
        let names = crate::manifest::dialect_names(&path, "dialects")?.unwrap_or_default();
        for provider in providers(&path, "dialects", &names)? {
            if !dialects.contains(&provider) {
                dialects.push(provider);
            }
        }
        let allow = crate::manifest::dialect_names(&path, "allow_weakened")?.unwrap_or_default();
        allowed = if allow.iter().any(|n| n == "*") {
            Provider::ALL.to_vec()
        } else {
            providers(&path, "allow_weakened", &allow)?
        };
        if !names.is_empty() {
            eprintln!(
                "note: checking the dialects `{}` names: {}",
                path.display(),
                names.join(", ")
            );
        }
    }
    let options = CheckOptions {
        cards: args.cards.clone(),
        profile,
        dialects,
    };
    Ok((options, allowed))
}

/// The dialects `names` (`[package.metadata.neuralis] <key>` of the manifest at `path`)
/// name.
fn providers(path: &Path, key: &str, names: &[String]) -> Result<Vec<Provider>, String> {
    names
        .iter()
        .map(|name| {
            Provider::from_name(name).ok_or_else(|| {
                format!(
                    "`{}`: `[package.metadata.neuralis] {key}` names `{name}`, which is no \
                     dialect: write one of {}",
                    path.display(),
                    Provider::ALL.map(|p| format!("`{p}`")).join(", ")
                )
            })
        })
        .collect()
}

/// The tool files `args` name: each file as given, each directory's `*.json` (but its
/// `outputs.json`), in path order; shared with `lower`.
pub(crate) fn collect(args: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for arg in args {
        let meta =
            std::fs::metadata(arg).map_err(|e| format!("cannot read `{}`: {e}", arg.display()))?;
        if !meta.is_dir() {
            files.push(arg.clone());
            continue;
        }
        let entries = std::fs::read_dir(arg)
            .map_err(|e| format!("cannot read directory `{}`: {e}", arg.display()))?;
        let mut found = Vec::new();
        for entry in entries {
            let path = entry
                .map_err(|e| format!("cannot read directory `{}`: {e}", arg.display()))?
                .path();
            if path.extension().is_some_and(|e| e == "json")
                && path.is_file()
                && !neuralis_core::name::is_outputs_path(&path)
            {
                found.push(path);
            }
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

fn count(checked: &[Checked], errors: bool) -> usize {
    checked
        .iter()
        .flat_map(|c| &c.report.diagnostics)
        .filter(|d| d.is_error() == errors)
        .count()
}

fn json_output(checked: &[Checked], digests: bool) -> String {
    let diagnostic = |d: &Diagnostic| {
        let mut o = json!({
            "rule": d.rule.as_str(),
            "pointer": d.pointer,
            "message": d.message,
            "hint": d.hint,
        });
        if let (Some(loc), Value::Object(map)) = (d.location, &mut o) {
            map.insert("line".to_owned(), loc.line.into());
            map.insert("column".to_owned(), loc.column.into());
        }
        o
    };
    let tools: Vec<Value> = checked
        .iter()
        .map(|c| {
            let (errors, warnings): (Vec<&Diagnostic>, Vec<&Diagnostic>) =
                c.report.diagnostics.iter().partition(|d| d.is_error());
            let mut tool = json!({
                "file": c.path.display().to_string(),
                "name": c.report.name,
                "errors": errors.into_iter().map(diagnostic).collect::<Vec<_>>(),
                "warnings": warnings.into_iter().map(diagnostic).collect::<Vec<_>>(),
            });
            if digests && let Value::Object(m) = &mut tool {
                m.insert(
                    "digest".into(),
                    digest(c).map_or(Value::Null, Value::String),
                );
            }
            tool
        })
        .collect();
    let out = json!({
        "tools": tools,
        "summary": {
            "files": checked.len(),
            "errors": count(checked, true),
            "warnings": count(checked, false),
        }
    });
    let mut text = serde_json::to_string_pretty(&out).unwrap_or_default();
    text.push('\n');
    text
}

/// The contract digest of a file that passes (normalized as the loader reads it).
fn digest(c: &Checked) -> Option<String> {
    if c.report.diagnostics.iter().any(Diagnostic::is_error) {
        return None;
    }
    let mut doc: Value = serde_json::from_slice(&c.bytes).ok()?;
    neuralis_core::schema::normalize(&mut doc);
    Some(neuralis_core::catalog::contract_digest(&doc))
}

fn human_output(checked: &[Checked], digests: bool) -> String {
    let mut out = String::new();
    for c in checked {
        for d in &c.report.diagnostics {
            render(&mut out, &c.path, &c.bytes, d);
        }
    }
    if digests {
        for c in checked {
            if let Some(d) = digest(c) {
                let _ = writeln!(out, "digest {} {d}", c.report.name);
            }
        }
    }
    let (errors, warnings) = (count(checked, true), count(checked, false));
    let _ = writeln!(
        out,
        "{}: checked {} {}: {} {}, {} {}",
        if errors > 0 { "error" } else { "ok" },
        checked.len(),
        plural(checked.len(), "file"),
        errors,
        plural(errors, "error"),
        warnings,
        plural(warnings, "warning"),
    );
    out
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_owned()
    } else {
        format!("{word}s")
    }
}

/// One diagnostic in rustc's style, with the offending line and a caret under the token.
fn render(out: &mut String, path: &Path, bytes: &[u8], d: &Diagnostic) {
    let _ = writeln!(out, "{}[{}]: {}", d.severity, d.rule, d.message);
    let source = d.location.and_then(|loc| source_line(bytes, loc));
    let gutter = d
        .location
        .map_or(1, |loc| loc.line.to_string().len())
        .max(1);
    let pad = " ".repeat(gutter);
    match d.location {
        Some(loc) => {
            let _ = writeln!(
                out,
                "{pad}--> {}:{}:{}",
                path.display(),
                loc.line,
                loc.column
            );
        }
        None => {
            let _ = writeln!(out, "{pad}--> {}", path.display());
        }
    }
    if let (Some(loc), Some((line, width))) = (d.location, source) {
        let _ = writeln!(out, "{pad} |");
        let _ = writeln!(out, "{} | {line}", loc.line);
        let _ = writeln!(
            out,
            "{pad} | {}{}",
            " ".repeat(loc.column.saturating_sub(1)),
            "^".repeat(width)
        );
    }
    if !d.pointer.is_empty() {
        let _ = writeln!(out, "{pad} = at: {}", d.pointer);
    }
    let _ = writeln!(out, "{pad} = help: {}", d.hint);
    out.push('\n');
}

/// The text of the location's line (tabs shown as spaces, so columns stay aligned) and
/// the width of the token that starts at the location.
fn source_line(bytes: &[u8], loc: Location) -> Option<(String, usize)> {
    let text = String::from_utf8_lossy(bytes);
    let line: String = text
        .lines()
        .nth(loc.line.checked_sub(1)?)?
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let rest: Vec<char> = line.chars().skip(loc.column.checked_sub(1)?).collect();
    let width = match rest.first() {
        Some('"') => {
            let mut escaped = false;
            let mut end = rest.len();
            for (i, &c) in rest.iter().enumerate().skip(1) {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    end = i + 1;
                    break;
                }
            }
            end
        }
        Some('{' | '[') | None => 1,
        Some(_) => rest
            .iter()
            .take_while(|c| !matches!(c, ',' | '}' | ']' | ' '))
            .count()
            .max(1),
    };
    Some((line, width))
}
