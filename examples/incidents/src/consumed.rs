//! The confirms already used, in the database the replicas share: a `ConsumedStates`
//! over PostgreSQL (the `consumed_states` table of `incidents.rs`'s schema), so that a
//! confirmed MCP 2026-07-28 retry (an `incidents_delete` a person confirmed) runs once,
//! whichever replica it reaches, however often it is sent.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use neuralis::dispatch::BoxFuture;
use neuralis_mcp::{ConsumeError, ConsumedStates};
use tokio_postgres::Client;

/// The ledger, on the service's connection.
pub struct PgConsumedStates {
    db: Arc<Client>,
}

impl PgConsumedStates {
    /// The ledger on `db` (its table created by `Incidents::connect`).
    pub fn new(db: Arc<Client>) -> Self {
        Self { db }
    }
}

fn unix_millis(at: SystemTime) -> i64 {
    at.duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl ConsumedStates for PgConsumedStates {
    /// One statement: the rows whose states have expired deleted, the nonce inserted
    /// unless present. The primary key makes it atomic across replicas: a row inserted
    /// is the consume; none, the confirm was used.
    fn consume<'a>(
        &'a self,
        nonce: &'a str,
        expires: SystemTime,
    ) -> BoxFuture<'a, Result<bool, ConsumeError>> {
        Box::pin(async move {
            let inserted = self
                .db
                .execute(
                    "WITH swept AS (DELETE FROM consumed_states WHERE expires < $3) \
                     INSERT INTO consumed_states (nonce, expires) VALUES ($1, $2) \
                     ON CONFLICT (nonce) DO NOTHING",
                    &[
                        &nonce,
                        &unix_millis(expires),
                        &unix_millis(SystemTime::now()),
                    ],
                )
                .await?;
            Ok(inserted == 1)
        })
    }
}
