//! The `neuralis` command.

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

mod check;
mod diff;
mod lower;
mod manifest;
mod normalize;
mod outputs;
mod result;
mod server_json;

/// Check, normalize and inspect neuralis tool packages.
#[derive(Debug, Parser)]
#[command(name = "neuralis", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check every tools/*.json in the given directories against the contract.
    ///
    /// Exit status: 0 with no errors (warnings allowed), 1 with any error, 2 on usage or
    /// I/O errors.
    Check(check::Args),
    /// Print the normalized, canonical form of one tool file.
    ///
    /// Exit status: 0, or 1 with the diagnostics on stderr when the file fails the checks.
    Normalize(normalize::Args),
    /// Show what a platform consuming MCP servers makes of one tool file (profile
    /// `mcp-remote`, the default): the schema lowered to the provider subset, every
    /// dropped construct, the description as stored, and the name and entitlement
    /// checks. With `--profile openai|anthropic|gemini`, that provider's own tool
    /// definition (a fixed point of its SDK), with what the dialect loses on stderr.
    ///
    /// Exit status: 0, 1 when the file is not a JSON object, its name would be refused
    /// (`remote-name`, `remote-reserved-name`) or the provider refuses a construct
    /// (`dialect-refused`), 2 on usage or I/O errors.
    Lower(lower::Args),
    /// Compare two revisions of a package's tools (`OLD NEW`, or `--since REV [DIR]`
    /// from git): each tool's class (`breaking`, `posture`, `additive`, `cosmetic`,
    /// `none`), every finding with its rule id, pointer and what a caller will see.
    ///
    /// Exit status: 0; 1 when a tool is `breaking` or its posture changed (unless
    /// `--allow`ed), or a breaking change comes without a major version step; 2 on usage
    /// errors or unreadable input.
    Diff(diff::Args),
    /// Show what the model and what the card would receive from a result, after
    /// normalization and bounding; warnings go to stderr.
    ///
    /// Exit status: 0, or 2 when a file cannot be read or is not JSON.
    Result(result::Args),
    /// Print the output schemas (MCP `outputSchema`) a built package serves, asking its
    /// MCP server over stdio (the command after `--`): `{ "<tool>": <schema or null> }`.
    ///
    /// Exit status: 0; 1 when `--tool` names a tool that is not listed or has no output
    /// schema; 2 when the command cannot be run or does not answer as an MCP server.
    Outputs(outputs::Args),
    /// Print the package's MCP Registry entry (`server.json`, schema 2025-12-11) from its
    /// Cargo.toml: `[package]` and `[package.metadata.neuralis.registry]` (the
    /// reverse-DNS `name`, `title`, `remotes`, `environmentVariables`,
    /// `packageArguments`): a `cargo` package over stdio, and the hosted endpoints.
    ///
    /// Exit status: 0; 1 when the registry would refuse the entry (each error names the
    /// Cargo.toml key), or with `--check FILE` when FILE differs from what would be
    /// printed or the README lacks the `mcp-name:` line; 2 when Cargo.toml or FILE cannot
    /// be read.
    ServerJson(server_json::Args),
}

/// Output format shared by the subcommands.
#[derive(Debug, Clone, Copy, Default, ValueEnum)]
pub enum Format {
    /// rustc-style text.
    #[default]
    Human,
    /// One JSON document.
    Json,
}

/// Exit status for usage and I/O errors.
pub const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Normalize(args) => normalize::run(&args),
        Command::Lower(args) => lower::run(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Result(args) => result::run(&args),
        Command::Outputs(args) => outputs::run(&args),
        Command::ServerJson(args) => server_json::run(&args),
    }
}
