//! `neuralis result`: what the model and the card would receive from a result.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::ValueEnum;
use neuralis_core::result::{
    BoundCaps, bound_result, check_card, check_status, iframe_payload, normalize_result,
    resolve_card,
};
use serde_json::{Value, json};

/// Which view to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum View {
    /// What the model reads: `content` and `isError`, bounded, never `_meta`.
    Model,
    /// The card: its resolved type, the settled status and the iframe payload.
    Card,
}

/// Arguments of `neuralis result`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The tool file (`tools/<name>.json`); its stem is the tool name.
    pub tool: PathBuf,
    /// A result as a handler or an MCP server would return it.
    pub result: PathBuf,
    /// Print one view only (default: both, as `{"model": ..., "card": ...}`).
    #[arg(long, value_enum)]
    pub view: Option<View>,
    /// The call's input, for the card payload (default `{}`).
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// The card types the package declares (default: any candidate matches).
    #[arg(long, value_delimiter = ',')]
    pub cards: Option<Vec<String>>,
    /// Cap on the UTF-16 units of text in `content`.
    #[arg(long)]
    pub text_chars: Option<usize>,
    /// Cap on items per array.
    #[arg(long)]
    pub array_len: Option<usize>,
    /// Cap on the UTF-16 units of each string in `structuredContent`.
    #[arg(long)]
    pub string_chars: Option<usize>,
    /// Cap on the serialized bytes of `structuredContent`.
    #[arg(long)]
    pub structured_bytes: Option<usize>,
}

fn read_json(path: &Path) -> Result<Value, String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    serde_json::from_slice(&bytes).map_err(|e| {
        format!(
            "{}:{}:{}: error[json-syntax]: {e}",
            path.display(),
            e.line(),
            e.column()
        )
    })
}

/// Runs `neuralis result`.
pub fn run(args: &Args) -> ExitCode {
    match run_inner(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("neuralis result: {message}");
            ExitCode::from(crate::EXIT_USAGE)
        }
    }
}

fn run_inner(args: &Args) -> Result<(), String> {
    let tool = read_json(&args.tool)?;
    let raw = read_json(&args.result)?;
    let input = match &args.input {
        Some(p) => read_json(p)?,
        None => json!({}),
    };
    let name = args
        .tool
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let defaults = BoundCaps::default();
    let caps = BoundCaps {
        text_chars: args.text_chars.unwrap_or(defaults.text_chars),
        array_len: args.array_len.unwrap_or(defaults.array_len),
        string_chars: args.string_chars.unwrap_or(defaults.string_chars),
        structured_bytes: args.structured_bytes.unwrap_or(defaults.structured_bytes),
        ..defaults
    };
    let declared: Option<Vec<&str>> = args
        .cards
        .as_ref()
        .map(|c| c.iter().map(String::as_str).collect());

    let (result, mut diags) = normalize_result(raw);
    let (bounded, stats) = bound_result(&result, &caps);
    diags.extend(stats.diagnostics());
    if let Some(s) = &bounded.structured_content {
        diags.extend(check_status(s));
    }
    diags.extend(check_card(&name, &tool, &bounded, declared.as_deref()));
    let card = resolve_card(&name, &tool, &bounded, declared.as_deref());
    let payload = iframe_payload(&name, &input, &bounded);
    diags.extend(payload.diagnostics());

    let result_path = args.result.display();
    for d in &diags {
        eprintln!("{result_path}: {d}");
    }

    let model = bounded.for_model();
    let card_view = json!({
        "card": card.card,
        "source": card.source,
        "status": bounded.status(),
        "bytes": payload.json.len(),
        "payload": payload.value,
    });
    let out = match args.view {
        Some(View::Model) => model,
        Some(View::Card) => card_view,
        None => json!({"model": model, "card": card_view}),
    };
    let text =
        serde_json::to_string_pretty(&out).map_err(|e| format!("cannot print the result: {e}"))?;
    println!("{text}");
    Ok(())
}
