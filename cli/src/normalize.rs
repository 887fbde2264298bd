//! `neuralis normalize`.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `neuralis normalize`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The tool file.
    pub file: PathBuf,
}

/// Runs `neuralis normalize`.
pub fn run(args: &Args) -> ExitCode {
    let _ = args;
    eprintln!("neuralis normalize: not built yet");
    ExitCode::from(crate::EXIT_USAGE)
}
