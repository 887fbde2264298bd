//! Approvals already used: where a server records the `requestState`s whose confirm has
//! let a call run, so that the same confirmed retry, sent again, does not run the call
//! again ([`ConsumedStates`], set with [`McpServer::with_consumed_states`]).
//!
//! [`McpServer::with_consumed_states`]: crate::McpServer::with_consumed_states

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use neuralis_core::dispatch::BoxFuture;

/// Why a ledger could not record a use (it is down, its directory is not writable...).
/// The call it would have approved does not run.
pub type ConsumeError = Box<dyn std::error::Error + Send + Sync>;

/// Where a server records the approvals already used (on MCP 2026-07-28).
///
/// Each `requestState` the server seals carries a fresh random nonce. When a retry's
/// state approves a call (it carries the person's confirm of the approval gate) and the
/// call is about to run, the server **consumes** the state's nonce here first: a nonce
/// consumed once is refused ever after (`-32602`, `data.reason` `"replayed"`), and the
/// handler does not run. So a confirm lets its call run once, however often the retry
/// is sent. A handler that asks again after the confirm gets a new state, with a new
/// nonce, carrying the confirm on to the next round.
///
/// [`consume`](Self::consume) must be atomic: of two calls with the same nonce, at the
/// same time or not, on this process or on any replica that shares the ledger, exactly
/// one gets `Ok(true)`. A nonce need be kept only until `expires`: the state that
/// carries it no longer opens after that.
///
/// The default, [`MemoryConsumedStates`], is one process's memory: right for one
/// replica. Stateless replicas behind a load balancer, which share the `requestState`
/// key ([`McpServer::with_request_state_key`]), share one ledger too, or a replayed
/// retry that reaches another replica runs the call again: [`DirConsumedStates`] (a
/// directory every replica mounts), or your own over the database the replicas share:
///
/// ```
/// use std::collections::HashSet;
/// use std::sync::Mutex;
/// use std::time::SystemTime;
/// use neuralis_core::dispatch::BoxFuture;
/// use neuralis_mcp::{ConsumeError, ConsumedStates};
///
/// /// Stands for a table with the nonce as its primary key:
/// /// `INSERT INTO consumed (nonce, expires) VALUES ($1, $2) ON CONFLICT DO NOTHING`
/// /// consumes when it inserted a row; `DELETE FROM consumed WHERE expires < now()`,
/// /// now and then, keeps it small.
/// struct Table(Mutex<HashSet<String>>);
///
/// impl ConsumedStates for Table {
///     fn consume<'a>(&'a self, nonce: &'a str, _expires: SystemTime)
///         -> BoxFuture<'a, Result<bool, ConsumeError>>
///     {
///         Box::pin(async move {
///             let mut rows = self.0.lock().map_err(|_| "the table is poisoned")?;
///             Ok(rows.insert(nonce.to_owned()))
///         })
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let table = Table(Mutex::default());
/// let later = SystemTime::now() + std::time::Duration::from_secs(60);
/// assert!(table.consume("n1", later).await.unwrap());
/// assert!(!table.consume("n1", later).await.unwrap(), "a nonce is consumed once");
/// # });
/// ```
///
/// [`McpServer::with_request_state_key`]: crate::McpServer::with_request_state_key
pub trait ConsumedStates: Send + Sync + 'static {
    /// Records `nonce` as used, to be kept until `expires`: `Ok(true)` when this call
    /// recorded it, `Ok(false)` when it was recorded already (the approval was used).
    ///
    /// # Errors
    ///
    /// The ledger could not tell (it is unreachable...): the call is refused unrun.
    fn consume<'a>(
        &'a self,
        nonce: &'a str,
        expires: SystemTime,
    ) -> BoxFuture<'a, Result<bool, ConsumeError>>;
}

/// One ledger for several servers of one process (replicas in a test, a server per
/// listener...).
impl<T: ConsumedStates + ?Sized> ConsumedStates for std::sync::Arc<T> {
    fn consume<'a>(
        &'a self,
        nonce: &'a str,
        expires: SystemTime,
    ) -> BoxFuture<'a, Result<bool, ConsumeError>> {
        (**self).consume(nonce, expires)
    }
}

/// The nonces consumed on this process, each dropped by the first `consume` after it
/// expires: memory holds the approvals used within one `requestState` lifetime, no
/// more. A server's default
/// ([`ConsumedStates`]); right for one replica only.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use neuralis_mcp::{ConsumedStates, MemoryConsumedStates};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let ledger = MemoryConsumedStates::default();
/// let expires = SystemTime::now() + Duration::from_secs(900);
/// assert!(ledger.consume("n1", expires).await.unwrap());
/// assert!(!ledger.consume("n1", expires).await.unwrap());
/// assert_eq!(ledger.len(), 1);
/// # });
/// ```
#[derive(Debug, Default)]
pub struct MemoryConsumedStates {
    inner: Mutex<Memory>,
}

#[derive(Debug, Default)]
struct Memory {
    nonces: HashSet<String>,
    /// The same nonces, soonest expiry first.
    expiries: BinaryHeap<Reverse<(SystemTime, String)>>,
}

impl MemoryConsumedStates {
    /// How many nonces are kept (those not yet expired, as of the last `consume`).
    #[must_use]
    pub fn len(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .nonces
            .len()
    }

    /// Whether no nonce is kept.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn consume_at(&self, nonce: &str, expires: SystemTime, now: SystemTime) -> bool {
        let mut memory = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        while let Some(Reverse((at, _))) = memory.expiries.peek()
            && *at < now
        {
            if let Some(Reverse((_, gone))) = memory.expiries.pop() {
                memory.nonces.remove(&gone);
            }
        }
        if !memory.nonces.insert(nonce.to_owned()) {
            return false;
        }
        memory.expiries.push(Reverse((expires, nonce.to_owned())));
        true
    }
}

impl ConsumedStates for MemoryConsumedStates {
    fn consume<'a>(
        &'a self,
        nonce: &'a str,
        expires: SystemTime,
    ) -> BoxFuture<'a, Result<bool, ConsumeError>> {
        let fresh = self.consume_at(nonce, expires, SystemTime::now());
        Box::pin(async move { Ok(fresh) })
    }
}

/// The nonces consumed by every replica that mounts one directory: one empty file per
/// nonce, `<expiry>-<nonce>`, created with `create_new` (`O_CREAT | O_EXCL`, atomic on
/// a local file system and on NFS v3 and later), so that of two replicas consuming the
/// same nonce one creates the file and the other finds it. Files whose expiry has passed
/// are removed, at most once a minute per process, by whichever replica consumes next.
/// The replicas' clocks agree within a minute (the `requestState` expiry asks as much).
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use neuralis_mcp::{ConsumedStates, DirConsumedStates};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let dir = std::env::temp_dir().join(format!("consumed-doc-{}", std::process::id()));
/// let a = DirConsumedStates::new(&dir).unwrap();
/// let b = DirConsumedStates::new(&dir).unwrap(); // another replica
/// let expires = SystemTime::now() + Duration::from_secs(900);
/// assert!(a.consume("n1", expires).await.unwrap());
/// assert!(!b.consume("n1", expires).await.unwrap());
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # });
/// ```
#[derive(Debug)]
pub struct DirConsumedStates {
    dir: PathBuf,
    /// When this process last removed expired files (unix seconds).
    swept: AtomicU64,
}

/// How often a process removes a shared directory's expired files.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

impl DirConsumedStates {
    /// The ledger in `dir`, created if missing.
    ///
    /// # Errors
    ///
    /// `dir` cannot be created, or is not a directory.
    pub fn new(dir: impl Into<PathBuf>) -> std::io::Result<Self> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir)?;
        Ok(Self {
            dir,
            swept: AtomicU64::new(0),
        })
    }

    /// The directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl ConsumedStates for DirConsumedStates {
    fn consume<'a>(
        &'a self,
        nonce: &'a str,
        expires: SystemTime,
    ) -> BoxFuture<'a, Result<bool, ConsumeError>> {
        Box::pin(async move {
            if nonce.is_empty()
                || !nonce
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_')
            {
                return Err(format!("`{nonce}` is not a nonce this server seals").into());
            }
            let now = unix_secs(SystemTime::now());
            let last = self.swept.load(Ordering::Relaxed);
            let sweep = now >= last.saturating_add(SWEEP_EVERY.as_secs())
                && self
                    .swept
                    .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok();
            let dir = self.dir.clone();
            let name = format!("{}-{nonce}", unix_secs(expires));
            let consumed = tokio::task::spawn_blocking(move || {
                if sweep {
                    remove_expired(&dir, now);
                }
                match std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(dir.join(&name))
                {
                    Ok(_) => Ok(true),
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
                    Err(e) => Err(format!(
                        "cannot record a used approval in {}: {e}",
                        dir.display()
                    )),
                }
            })
            .await
            .map_err(|e| format!("the ledger's task failed: {e}"))??;
            Ok(consumed)
        })
    }
}

/// Removes the files of `dir` whose expiry (the name's prefix) is before `now`.
fn remove_expired(dir: &Path, now: u64) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let expiry = name
            .to_str()
            .and_then(|n| n.split_once('-'))
            .and_then(|(at, _)| at.parse::<u64>().ok());
        if expiry.is_some_and(|at| at < now) {
            // Another replica may have removed it first.
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn unix_secs(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_drops_nonces_at_their_expiry() {
        let ledger = MemoryConsumedStates::default();
        let t0 = UNIX_EPOCH + Duration::from_secs(1_000);
        let soon = t0 + Duration::from_secs(10);
        let late = t0 + Duration::from_secs(100);
        assert!(ledger.consume_at("a", soon, t0));
        assert!(ledger.consume_at("b", late, t0));
        assert!(!ledger.consume_at("a", soon, t0));
        assert_eq!(ledger.len(), 2);
        // After `a`'s expiry: `a` is gone (its state no longer opens), `b` stays.
        assert!(ledger.consume_at("c", late, soon + Duration::from_secs(1)));
        assert_eq!(ledger.len(), 2);
        assert!(!ledger.consume_at("b", late, soon + Duration::from_secs(1)));
        assert!(ledger.consume_at("d", late, late + Duration::from_secs(1)));
        assert_eq!(ledger.len(), 1);
    }

    #[tokio::test]
    async fn a_directory_is_shared_and_swept() {
        let dir = std::env::temp_dir().join(format!("neuralis-consumed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let a = DirConsumedStates::new(&dir).expect("dir");
        let b = DirConsumedStates::new(&dir).expect("dir");
        let later = SystemTime::now() + Duration::from_secs(600);
        // An expired file another replica left.
        std::fs::write(dir.join("5-old"), b"").expect("write");
        assert!(a.consume("n1", later).await.expect("consumed"));
        assert!(!b.consume("n1", later).await.expect("consumed"));
        assert!(b.consume("n2", later).await.expect("consumed"));
        assert!(!dir.join("5-old").exists(), "swept");
        assert!(a.consume("../x", later).await.is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
