//! `neuralis lower`: what a platform that consumes MCP servers makes of one tool, a
//! model provider's own definition of it (`--profile openai|anthropic|gemini`), or the
//! `inputSchema` a server serves for it (`--served portable|contract|mcp-remote`).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use neuralis_core::contract::{Diagnostic, Location, RuleId};
use neuralis_core::dialect;
use neuralis_core::remote::{self, Dropped, Lowered, Sanitized};
use serde::Serialize;
use serde_json::Value;

use crate::Format;

/// Arguments of `neuralis lower`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The tool files (`tools/<name>.json`; the name is the file stem), or tools
    /// directories (each `*.json` but `outputs.json`). With more than one tool, a JSON
    /// output is an array of each tool's, in path order, and the human reports follow
    /// one another.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Output format (for `mcp-remote`; a provider's definition is always JSON).
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Whose view: `mcp-remote` (a platform that consumes MCP servers: the provider
    /// subset, what it drops, the description it stores), or a model provider's own tool
    /// definition, `openai` (strict function calling), `anthropic` (strict tool use) or
    /// `gemini` (a function declaration), printed as one JSON object, with what the
    /// dialect loses on stderr (`dialect-refused`, `dialect-weakened`).
    #[arg(long, value_enum, default_value_t)]
    pub profile: LowerProfile,
    /// Print instead the `inputSchema` an MCP server serves for the file in this served
    /// dialect (`--served-dialect`): `portable`, `contract` or `mcp-remote`, one JSON
    /// object, what goes over the wire; the file's errors on stderr (exit 1).
    #[arg(long, value_name = "DIALECT", value_parser = ["portable", "contract", "mcp-remote"], conflicts_with = "profile")]
    pub served: Option<String>,
}

/// What `lower` shows of one tool, and its exit status (0, or 1 for a refusal or an
/// error in the file).
struct Shown {
    output: Option<Output>,
    status: u8,
}

/// One tool's output: a JSON document, or the human report.
enum Output {
    Json(Value),
    Text(String),
}

/// The `inputSchema` served for the file in `dialect`: the file loaded as a server loads
/// it (checked, normalized, its defaults on their properties), in the served dialect.
fn served_input(dialect: &str, name: &str, bytes: &[u8], file: &str) -> Shown {
    let served = dialect::Served::from_name(dialect).unwrap_or_default();
    let package = neuralis_core::load::load_package_from_sources([(name, bytes)]);
    for (_, diag) in package.diagnostics() {
        eprintln!("{}", render(diag, file));
    }
    let Some(entry) = package.tool(name) else {
        return Shown {
            output: None,
            status: 1,
        };
    };
    let input = Value::Object(dialect::served_schema(&entry.input_schema(), served));
    Shown {
        output: Some(Output::Json(input)),
        status: 0,
    }
}

/// `--profile` values of `neuralis lower`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LowerProfile {
    /// A platform that consumes MCP servers.
    #[default]
    McpRemote,
    /// OpenAI strict function calling.
    #[value(name = "openai")]
    OpenAi,
    /// Anthropic strict tool use.
    Anthropic,
    /// A Gemini function declaration.
    Gemini,
}

impl LowerProfile {
    fn provider(self) -> Option<dialect::Provider> {
        match self {
            Self::McpRemote => None,
            Self::OpenAi => Some(dialect::Provider::OpenAi),
            Self::Anthropic => Some(dialect::Provider::Anthropic),
            Self::Gemini => Some(dialect::Provider::Gemini),
        }
    }
}

/// A provider's tool definition on stdout, what it loses on stderr (rustc-style, with
/// the rule ids); exit 1 when the provider refuses a construct.
fn provider_definition(
    provider: dialect::Provider,
    name: &str,
    schema: &Value,
    file: &str,
) -> Shown {
    let definition = dialect::tool_definition(provider, name, schema);
    for loss in &definition.losses {
        let diag =
            Diagnostic::new(loss.rule, loss.pointer.clone()).with_message(loss.message.clone());
        eprintln!("{}", render(&diag, file));
    }
    Shown {
        status: u8::from(definition.is_refused()),
        output: Some(Output::Json(definition.tool)),
    }
}

/// The description as written and as stored.
#[derive(Debug, Serialize)]
struct Description<'a> {
    original: &'a str,
    #[serde(flatten)]
    sanitized: Sanitized,
}

/// The JSON output.
#[derive(Debug, Serialize)]
struct Report<'a> {
    name: &'a str,
    schema: &'a Value,
    dropped: &'a [Dropped],
    description: Option<Description<'a>>,
    diagnostics: Vec<Diagnostic>,
}

/// Runs `neuralis lower`.
pub fn run(args: &Args) -> ExitCode {
    let files = match crate::check::collect(&args.files) {
        Ok(files) => files,
        Err(message) => {
            eprintln!("neuralis lower: {message}");
            return ExitCode::from(crate::EXIT_USAGE);
        }
    };
    let mut shown = Vec::with_capacity(files.len());
    let mut status = 0;
    for file in &files {
        match one(args, file) {
            Ok(one) => {
                status = status.max(one.status);
                shown.extend(one.output);
            }
            Err(code) => return code,
        }
    }
    let text = match (files.len(), shown.as_slice()) {
        (1, [Output::Json(value)]) => serde_json::to_string_pretty(value).map(|t| t + "\n"),
        (_, outputs) if outputs.iter().all(|o| matches!(o, Output::Json(_))) && files.len() > 1 => {
            let values: Vec<&Value> = outputs
                .iter()
                .filter_map(|o| match o {
                    Output::Json(v) => Some(v),
                    Output::Text(_) => None,
                })
                .collect();
            serde_json::to_string_pretty(&values).map(|t| t + "\n")
        }
        (_, outputs) => Ok(outputs
            .iter()
            .map(|o| match o {
                Output::Json(v) => serde_json::to_string_pretty(v).unwrap_or_default() + "\n",
                Output::Text(t) => t.clone(),
            })
            .collect::<Vec<_>>()
            .join("\n")),
    };
    match text {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprintln!("neuralis lower: cannot write JSON: {e}");
            return ExitCode::from(crate::EXIT_USAGE);
        }
    }
    ExitCode::from(status)
}

/// What `lower` shows of the tool file at `path`; `Err` with the exit status when the
/// file cannot be read.
fn one(args: &Args, path: &std::path::Path) -> Result<Shown, ExitCode> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| {
        eprintln!("neuralis lower: cannot read `{file}`: {e}");
        ExitCode::from(crate::EXIT_USAGE)
    })?;
    let schema = match parse(&bytes) {
        Ok(schema) => schema,
        Err(diag) => {
            eprintln!("{}", render(&diag, &file));
            return Ok(Shown {
                output: None,
                status: 1,
            });
        }
    };
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(dialect) = &args.served {
        return Ok(served_input(dialect, &name, &bytes, &file));
    }
    if let Some(provider) = args.profile.provider() {
        return Ok(provider_definition(provider, &name, &schema, &file));
    }
    // The name rules and the entitlement lint; dropped constructs and the description
    // have their own sections of the output.
    let mut diagnostics: Vec<Diagnostic> = remote::check_name(&name).into_iter().collect();
    diagnostics.extend(remote::check_entitlements(&schema));
    let lowered = remote::lower(&schema);
    let description = schema
        .get("description")
        .and_then(Value::as_str)
        .map(|original| Description {
            original,
            sanitized: remote::sanitize_description(original),
        });
    let status = u8::from(diagnostics.iter().any(Diagnostic::is_error));
    let output = match args.format {
        Format::Json => {
            let report = Report {
                name: &name,
                schema: &lowered.schema,
                dropped: &lowered.dropped,
                description,
                diagnostics,
            };
            Output::Json(serde_json::to_value(&report).map_err(|e| {
                eprintln!("neuralis lower: cannot write JSON: {e}");
                ExitCode::from(crate::EXIT_USAGE)
            })?)
        }
        Format::Human => {
            for diag in &diagnostics {
                eprintln!("{}", render(diag, &file));
            }
            Output::Text(human(&name, &lowered, description.as_ref()))
        }
    };
    Ok(Shown {
        output: Some(output),
        status,
    })
}

/// The largest file read (`depth-limit`): 4 MiB.
const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

/// Parses the file as one JSON object, or says why not (`json-syntax`, or `depth-limit`
/// for a file over 4 MiB or nested past the parser's 128 levels).
fn parse(bytes: &[u8]) -> Result<Value, Diagnostic> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(
            Diagnostic::new(RuleId::DepthLimit, "").with_message(format!(
                "the file is {} bytes, more than 4 MiB",
                bytes.len()
            )),
        );
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(value) if value.is_object() => Ok(value),
        Ok(_) => Err(Diagnostic::new(RuleId::JsonSyntax, "")
            .with_message("the file is a JSON value but not an object")),
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => {
            Err(Diagnostic::new(RuleId::DepthLimit, "").at(Location {
                line: e.line(),
                column: e.column().max(1),
            }))
        }
        Err(e) => Err(Diagnostic::new(RuleId::JsonSyntax, "")
            .with_message(format!("the file is not one JSON object: {e}"))
            .at(Location {
                line: e.line(),
                // serde_json says column 0 for the end of a line; ours count from 1.
                column: e.column().max(1),
            })),
    }
}

/// rustc-style text for one diagnostic.
fn render(diag: &Diagnostic, file: &str) -> String {
    let mut out = format!("{diag}\n  --> {file}");
    if let Some(at) = diag.location {
        let _ = write!(out, ":{}:{}", at.line, at.column);
    }
    let _ = write!(out, "\n  = help: {}", diag.hint);
    out
}

/// The human report: lowered schema, dropped constructs, description.
fn human(name: &str, lowered: &Lowered, description: Option<&Description<'_>>) -> String {
    let mut out = String::new();
    let schema = serde_json::to_string_pretty(&lowered.schema).unwrap_or_default();
    let _ = writeln!(out, "`{name}` as the provider subset keeps it:\n{schema}\n");

    let reported = lowered
        .dropped
        .iter()
        .filter(|d| d.reason.is_reported())
        .count();
    if lowered.dropped.is_empty() {
        let _ = writeln!(out, "dropped: nothing");
    } else {
        let _ = writeln!(
            out,
            "dropped ({}, {reported} reported by `remote-dropped`):",
            lowered.dropped.len()
        );
        let width = lowered
            .dropped
            .iter()
            .map(|d| d.pointer.len())
            .max()
            .unwrap_or(0);
        for d in &lowered.dropped {
            let pointer = if d.pointer.is_empty() {
                "\"\""
            } else {
                &d.pointer
            };
            let mark = if d.reason.is_reported() {
                "warning"
            } else {
                "note"
            };
            let _ = writeln!(out, "  {pointer:width$}  {mark}: {}", d.describe());
        }
    }

    match description {
        None => {
            let _ = writeln!(out, "\ndescription: none");
        }
        Some(desc) if desc.sanitized.is_unchanged() => {
            let _ = writeln!(out, "\ndescription: stored unchanged");
        }
        Some(desc) => {
            let _ = writeln!(
                out,
                "\ndescription, as stored (`remote-description`):\n  {:?}\nrewrites:",
                desc.sanitized.text
            );
            for change in &desc.sanitized.changes {
                let _ = writeln!(out, "  - {change}");
            }
        }
    }
    out
}
