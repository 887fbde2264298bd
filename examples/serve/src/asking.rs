//! `--approval`, `--request-state-key-file`, `--request-state-ttl`,
//! `--consumed-states-dir`: how calls that ask are served, and `--served-dialect`: how
//! `tools/list` writes each input schema; over stdio and HTTP alike
//! (`examples/conformance` compiles this file in too).

use std::time::Duration;

use neuralis::dispatch::ApprovalPolicy;
use neuralis_mcp::{DirConsumedStates, McpServer, Served};

/// How calls that ask are served, over stdio and HTTP alike.
#[derive(clap::Args)]
pub struct Asking {
    /// What a call whose approval posture asks gets (an `askOnKeys` key sent, category
    /// `unknown`): `ask` a person through the client (a confirm form) and run it only on
    /// a confirm; `refuse` it unasked; or `trust` the platform in front of this server to
    /// run its own guard, and run it.
    #[arg(
        long,
        value_name = "POLICY",
        env = "NEURALIS_APPROVAL",
        default_value = "ask",
        value_parser = ["ask", "refuse", "trust"]
    )]
    approval: String,
    /// A file whose bytes (at least 32, surrounding whitespace trimmed) seal the
    /// `requestState` of MCP 2026-07-28 calls that ask. Without it, a random key per
    /// process: right for one replica; give every replica behind a load balancer the same
    /// file.
    #[arg(long, value_name = "FILE", env = "NEURALIS_REQUEST_STATE_KEY_FILE")]
    request_state_key_file: Option<std::path::PathBuf>,
    /// How long a `requestState` stays valid, in seconds.
    #[arg(
        long,
        value_name = "SECS",
        env = "NEURALIS_REQUEST_STATE_TTL",
        default_value_t = 900
    )]
    request_state_ttl: u64,
    /// A directory where the confirms already used are recorded (one empty file each,
    /// removed once its `requestState` has expired), so that a confirmed MCP 2026-07-28
    /// retry runs its call once, on whichever replica it reaches. Without it, this
    /// process's memory: right for one replica; give every replica behind a load
    /// balancer the same directory (a volume they all mount).
    #[arg(long, value_name = "DIR", env = "NEURALIS_CONSUMED_STATES_DIR")]
    consumed_states_dir: Option<std::path::PathBuf>,
    /// How `tools/list` writes each tool's input schema: `portable`, read as meant by
    /// every model provider's SDK (optional properties also admit `null`, which a call
    /// may send for "nothing"; closure enforced by the server), or `contract`, the tool
    /// file's draft-07 schema as checked, or `mcp-remote`, for a platform that consumes
    /// MCP servers and lowers each schema itself to the providers' common subset (what
    /// the subset cannot hold said in words, enum values as strings, read back). Calls
    /// are validated against the tool file either way.
    #[arg(
        long,
        value_name = "DIALECT",
        env = "NEURALIS_SERVED_DIALECT",
        default_value = "portable",
        value_parser = ["portable", "contract", "mcp-remote"]
    )]
    served_dialect: String,
}

/// A `requestState` key and how long its states stay valid.
type StateKey = (Vec<u8>, Duration);

impl Asking {
    /// The approval policy and the `requestState` key (when given) with its expiry.
    pub fn settings(&self) -> Result<(ApprovalPolicy, Option<StateKey>), String> {
        let policy = self.approval.parse::<ApprovalPolicy>()?;
        let key = match &self.request_state_key_file {
            None => None,
            Some(path) => {
                let bytes = std::fs::read(path).map_err(|e| {
                    format!("cannot read the requestState key {}: {e}", path.display())
                })?;
                let key = bytes.trim_ascii().to_vec();
                Some((key, Duration::from_secs(self.request_state_ttl)))
            }
        };
        Ok((policy, key))
    }

    /// The ledger of the confirms already used, when `--consumed-states-dir` is given.
    pub fn consumed_states(&self) -> Result<Option<DirConsumedStates>, String> {
        self.consumed_states_dir
            .as_ref()
            .map(|dir| {
                DirConsumedStates::new(dir)
                    .map_err(|e| format!("cannot use {} for used confirms: {e}", dir.display()))
            })
            .transpose()
    }

    /// The served dialect `--served-dialect` names.
    pub fn served(&self) -> Served {
        Served::from_name(&self.served_dialect).unwrap_or_default()
    }

    /// `server` with these settings.
    pub fn apply(&self, server: McpServer) -> Result<McpServer, String> {
        let (policy, key) = self.settings()?;
        let mut server = server
            .with_approval(policy)
            .with_served_dialect(self.served());
        if let Some((key, ttl)) = key {
            server = server
                .with_request_state_key(key, ttl)
                .map_err(|e| e.to_string())?;
        }
        if let Some(ledger) = self.consumed_states()? {
            server = server.with_consumed_states(ledger);
        }
        Ok(server)
    }
}
