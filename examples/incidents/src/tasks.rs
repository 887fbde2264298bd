//! The tasks of the tools that run as tasks (`incidents_report`), in the database the
//! replicas share: a `TaskStore` over PostgreSQL (the `tasks` table of `incidents.rs`'s
//! schema), so that any replica answers `tasks/get`, `tasks/update` and `tasks/cancel` for
//! a task another runs, and a task whose replica died reads as failed once its lease runs
//! out.
//!
//! Each task is one row: its record as JSON, its expiry (for the sweep) and a version. A
//! change reads the row, applies the change and writes it back only if the version is
//! still the one it read (otherwise another replica changed it in between, and the change
//! is applied again to what that one wrote): atomic on the shared connection, without a
//! transaction held open.

use std::sync::Arc;

use neuralis::dispatch::BoxFuture;
use neuralis_mcp::{TaskRecord, TaskStore, TaskStoreError};
use tokio_postgres::Client;

/// How many times a change is applied again when other replicas keep changing its task.
const RETRIES: usize = 16;

/// The store, on the service's connection.
pub struct PgTaskStore {
    db: Arc<Client>,
}

impl PgTaskStore {
    /// The store on `db` (its table created by `Incidents::connect`).
    pub fn new(db: Arc<Client>) -> Self {
        Self { db }
    }
}

fn expires(record: &TaskRecord) -> i64 {
    i64::try_from(record.expires_ms()).unwrap_or(i64::MAX)
}

fn read(text: &str) -> Result<TaskRecord, TaskStoreError> {
    serde_json::from_str(text).map_err(|e| format!("a task row does not read: {e}").into())
}

impl TaskStore for PgTaskStore {
    fn insert<'a>(&'a self, record: &'a TaskRecord) -> BoxFuture<'a, Result<(), TaskStoreError>> {
        Box::pin(async move {
            let text = serde_json::to_string(record)?;
            self.db
                .execute(
                    "INSERT INTO tasks (id, expires, version, record) VALUES ($1, $2, 0, $3)",
                    &[&record.task_id, &expires(record), &text],
                )
                .await?;
            Ok(())
        })
    }

    fn load<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        Box::pin(async move {
            let row = self
                .db
                .query_opt("SELECT record FROM tasks WHERE id = $1", &[&id])
                .await?;
            row.map(|row| read(row.try_get::<_, &str>(0)?)).transpose()
        })
    }

    fn modify<'a>(
        &'a self,
        id: &'a str,
        change: &'a (dyn Fn(&mut TaskRecord) + Send + Sync),
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        Box::pin(async move {
            for _ in 0..RETRIES {
                let Some(row) = self
                    .db
                    .query_opt("SELECT record, version FROM tasks WHERE id = $1", &[&id])
                    .await?
                else {
                    return Ok(None);
                };
                let mut record = read(row.try_get::<_, &str>(0)?)?;
                let version: i64 = row.try_get(1)?;
                change(&mut record);
                let text = serde_json::to_string(&record)?;
                let written = self
                    .db
                    .execute(
                        "UPDATE tasks SET record = $2, expires = $3, version = version + 1 \
                         WHERE id = $1 AND version = $4",
                        &[&id, &text, &expires(&record), &version],
                    )
                    .await?;
                if written == 1 {
                    return Ok(Some(record));
                }
            }
            Err(
                format!("the task `{id}` kept changing under {RETRIES} attempts to change it")
                    .into(),
            )
        })
    }

    fn sweep(&self, now_ms: u64) -> BoxFuture<'_, Result<u64, TaskStoreError>> {
        Box::pin(async move {
            let now = i64::try_from(now_ms).unwrap_or(i64::MAX);
            Ok(self
                .db
                .execute("DELETE FROM tasks WHERE expires < $1", &[&now])
                .await?)
        })
    }
}
