//! `neuralis normalize`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use neuralis_core::contract::{CheckOptions, Diagnostic, RuleId, check_bytes_with};
use neuralis_core::schema::{normalize, to_canonical_string};

/// Arguments of `neuralis normalize`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The tool file (`tools/<name>.json`; the tool name is the file stem).
    pub file: PathBuf,
}

/// Runs `neuralis normalize`: the normalized, canonical schema on stdout.
///
/// Exit status: 0 (warnings, if any, on stderr), 1 with the diagnostics on stderr when the
/// file has an error, 2 when it cannot be read.
pub fn run(args: &Args) -> ExitCode {
    let bytes = match read_capped(&args.file) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("error: cannot read `{}`: {e}", args.file.display());
            return ExitCode::from(crate::EXIT_USAGE);
        }
    };
    let name = tool_name(&args.file);
    let report = check_bytes_with(&name, &bytes, &CheckOptions::default());
    let mut diagnostics = report.diagnostics;
    let schema = match report.schema {
        Some(schema) if schema.is_object() => Some(schema),
        _ if diagnostics.iter().any(Diagnostic::is_error) => None,
        _ => {
            diagnostics.push(
                Diagnostic::new(RuleId::JsonSyntax, "")
                    .with_message("the file is not one JSON object"),
            );
            None
        }
    };
    for d in &diagnostics {
        print_diagnostic(&args.file, d);
    }
    let failed = diagnostics.iter().any(Diagnostic::is_error);
    let schema = match schema {
        Some(schema) if !failed => schema,
        _ => return ExitCode::from(1),
    };
    let mut schema = schema;
    normalize(&mut schema);
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(to_canonical_string(&schema).as_bytes())
        .and_then(|()| stdout.flush())
    {
        eprintln!("error: cannot write the output: {e}");
        return ExitCode::from(crate::EXIT_USAGE);
    }
    ExitCode::SUCCESS
}

/// Reads at most one byte past the contract's 4 MiB limit: the checker refuses more anyway.
fn read_capped(file: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(file)?
        .take(neuralis_core::load::MAX_READ_BYTES)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The tool name of a file: its stem.
fn tool_name(file: &Path) -> String {
    file.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// One diagnostic on stderr, rustc-style.
fn print_diagnostic(file: &Path, d: &Diagnostic) {
    eprintln!("{d}");
    match d.location {
        Some(at) => eprintln!("  --> {}:{}:{}", file.display(), at.line, at.column),
        None => eprintln!("  --> {}", file.display()),
    }
    if !d.hint.is_empty() {
        eprintln!("  = help: {}", d.hint);
    }
}
