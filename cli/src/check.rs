//! `neuralis check`.

use std::path::PathBuf;
use std::process::ExitCode;

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
}

/// Runs `neuralis check`.
pub fn run(args: &Args) -> ExitCode {
    let _ = args;
    eprintln!("neuralis check: not built yet");
    ExitCode::from(crate::EXIT_USAGE)
}
