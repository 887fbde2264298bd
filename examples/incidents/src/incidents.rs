//! `Incidents`: the package's service. It holds a connection to the database, not the
//! incidents: every call reads and writes the shared table, so a write through one
//! replica is read through any other.

use neuralis::{AbortSignal, ToolContext, ToolInput, ToolOutput, tool, tools};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, NoTls, Row};

/// The tables, created when missing (under an advisory lock, so that replicas starting
/// together do not race): the incidents, the confirms already used
/// ([`crate::consumed`]: one row per nonce, with the unix milliseconds after which its
/// `requestState` no longer opens), and the tasks ([`crate::tasks`]: one row per task,
/// its record as JSON).
const SCHEMA: &str = "
    SELECT pg_advisory_xact_lock(7231);
    CREATE TABLE IF NOT EXISTS incidents (
        id          BIGSERIAL PRIMARY KEY,
        title       TEXT NOT NULL,
        status      TEXT NOT NULL DEFAULT 'open',
        escalations INTEGER NOT NULL DEFAULT 0,
        opened_by   TEXT NOT NULL,
        closed_by   TEXT
    );
    CREATE TABLE IF NOT EXISTS consumed_states (
        nonce   TEXT PRIMARY KEY,
        expires BIGINT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS consumed_states_expires ON consumed_states (expires);
    CREATE TABLE IF NOT EXISTS tasks (
        id      TEXT PRIMARY KEY,
        expires BIGINT NOT NULL,
        version BIGINT NOT NULL,
        record  TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS tasks_expires ON tasks (expires);";

/// The columns of an [`Incident`], in its order.
const COLUMNS: &str = "id, title, status, escalations, opened_by, closed_by";

/// The service: the database connection every call shares (`tokio_postgres::Client`
/// pipelines concurrent statements over it).
pub struct Incidents {
    db: Arc<Client>,
}

impl Incidents {
    /// Connects to `database` and creates the table when missing.
    ///
    /// # Errors
    ///
    /// What PostgreSQL says when the connection or the table creation fails.
    pub async fn connect(database: &str) -> Result<Self, String> {
        let (mut db, connection) = tokio_postgres::connect(database, NoTls)
            .await
            .map_err(|e| format!("cannot connect to the database: {e}"))?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                eprintln!("error: the database connection ended: {e}");
            }
        });
        let tx = db
            .transaction()
            .await
            .map_err(|e| format!("cannot start a transaction: {e}"))?;
        tx.batch_execute(SCHEMA)
            .await
            .map_err(|e| format!("cannot create the incidents table: {e}"))?;
        tx.commit()
            .await
            .map_err(|e| format!("cannot create the incidents table: {e}"))?;
        Ok(Self { db: Arc::new(db) })
    }

    /// The incident `sql` (with `params`) returns, or that there is no incident `id`.
    async fn one(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
        id: i64,
    ) -> Result<Incident, String> {
        let row = self
            .db
            .query_opt(sql, params)
            .await
            .map_err(|e| failed(&e))?;
        let row = row.ok_or_else(|| format!("no incident #{id}"))?;
        Incident::from_row(&row)
    }

    /// The connection, for the ledger of used confirms to share.
    pub fn database(&self) -> Arc<Client> {
        Arc::clone(&self.db)
    }
}

/// One incident.
#[derive(Serialize, ToolOutput)]
pub struct Incident {
    /// Its number.
    pub id: i64,
    /// What happened.
    pub title: String,
    /// `open` or `closed`.
    pub status: String,
    /// How many times it was escalated.
    pub escalations: i32,
    /// Who opened it.
    pub opened_by: String,
    /// Who closed it, once closed.
    pub closed_by: Option<String>,
}

impl Incident {
    fn from_row(row: &Row) -> Result<Self, String> {
        let read = |e: tokio_postgres::Error| format!("an incident row does not read: {e}");
        Ok(Self {
            id: row.try_get(0).map_err(read)?,
            title: row.try_get(1).map_err(read)?,
            status: row.try_get(2).map_err(read)?,
            escalations: row.try_get(3).map_err(read)?,
            opened_by: row.try_get(4).map_err(read)?,
            closed_by: row.try_get(5).map_err(read)?,
        })
    }
}

/// The input of [`Incidents::incidents_open`].
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "Open Incident")]
pub struct OpenIncident {
    /// What happened.
    #[schema(min_length = 1, max_length = 200)]
    pub title: String,
}

/// The input of the tools that act on one incident.
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "Incident")]
pub struct ById {
    /// The incident's number.
    #[schema(minimum = 1)]
    pub id: i64,
}

/// The input of [`Incidents::incidents_list`].
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "List Incidents")]
pub struct ListIncidents {
    /// Only the incidents with this status (`open` or `closed`).
    #[schema(pattern = "^(open|closed)$")]
    pub status: Option<String>,
}

/// The input of [`Incidents::incidents_report`].
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "Report")]
pub struct ReportInput {
    /// How long compiling the report takes, in seconds (a report of a large history takes
    /// minutes).
    #[schema(minimum = 0, maximum = 3600)]
    pub seconds: u32,
}

/// What [`Incidents::incidents_report`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Report {
    /// How many incidents there are.
    pub total: i64,
    /// How many are open.
    pub open: i64,
    /// How many times incidents were escalated, in all.
    pub escalations: i64,
    /// Whether the person published it.
    pub published: bool,
    /// Who asked for it.
    pub by: String,
}

/// What [`Incidents::incidents_list`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Listed {
    /// Always `true`.
    pub ok: bool,
    /// How many incidents match (the list shows the 100 newest).
    pub total: i64,
    /// The incidents, newest first.
    #[schema(max_items = 100)]
    pub incidents: Vec<Incident>,
}

fn failed(e: &tokio_postgres::Error) -> String {
    format!("the database refused: {e}")
}

#[tools]
impl Incidents {
    /// Open an incident; the caller is its opener.
    #[tool(
        family = "incidents",
        operation = "incidents.open",
        transport = "embedded",
        annotations(title = "Open Incident", category = "write"),
        ui(presentation = "inline", icon = "siren")
    )]
    pub async fn incidents_open(
        &self,
        input: OpenIncident,
        cx: &ToolContext,
    ) -> Result<Incident, String> {
        let sql =
            format!("INSERT INTO incidents (title, opened_by) VALUES ($1, $2) RETURNING {COLUMNS}");
        let user = cx.session().user_id();
        let row = self
            .db
            .query_one(&sql, &[&input.title, &user])
            .await
            .map_err(|e| failed(&e))?;
        Incident::from_row(&row)
    }

    /// Escalate an incident: one more escalation, counted by the database (two callers
    /// escalating at once both count).
    #[tool(
        family = "incidents",
        operation = "incidents.escalate",
        transport = "embedded",
        annotations(title = "Escalate Incident", category = "write"),
        ui(presentation = "inline", icon = "arrow-up")
    )]
    pub async fn incidents_escalate(&self, input: ById) -> Result<Incident, String> {
        let sql = format!(
            "UPDATE incidents SET escalations = escalations + 1 WHERE id = $1 RETURNING {COLUMNS}"
        );
        self.one(&sql, &[&input.id], input.id).await
    }

    /// Close an incident; the caller is its closer. Closing a closed incident changes
    /// nothing.
    #[tool(
        family = "incidents",
        operation = "incidents.close",
        transport = "embedded",
        annotations(title = "Close Incident", idempotent, category = "write"),
        ui(presentation = "inline", icon = "check")
    )]
    pub async fn incidents_close(&self, input: ById, cx: &ToolContext) -> Result<Incident, String> {
        let sql = format!(
            "UPDATE incidents SET status = 'closed', closed_by = COALESCE(closed_by, $2) \
             WHERE id = $1 RETURNING {COLUMNS}"
        );
        let user = cx.session().user_id();
        self.one(&sql, &[&input.id, &user], input.id).await
    }

    /// Delete an incident for good. A person confirms every deletion.
    // It asks on `id`, which every call sends; served over MCP, a confirm lets one
    // deletion run (the confirms used are recorded in the database, for every replica).
    #[tool(
        family = "incidents",
        operation = "incidents.delete",
        transport = "embedded",
        annotations(title = "Delete Incident", destructive, category = "write"),
        ask_on_keys(id),
        ui(presentation = "inline", icon = "trash")
    )]
    pub async fn incidents_delete(&self, input: ById) -> Result<Incident, String> {
        let sql = format!("DELETE FROM incidents WHERE id = $1 RETURNING {COLUMNS}");
        self.one(&sql, &[&input.id], input.id).await
    }

    /// Compile a report of every incident: it takes `seconds`, then a person decides
    /// whether to publish it. Runs as a task for a client that supports them (any replica
    /// answers for it); a cancelled report stops.
    #[tool(
        family = "incidents",
        operation = "incidents.report",
        transport = "embedded",
        annotations(title = "Incident Report", read_only, category = "read", cancellable),
        ui(presentation = "inline", icon = "report"),
        task = "optional"
    )]
    pub async fn incidents_report(
        &self,
        input: ReportInput,
        cx: &ToolContext,
        abort: AbortSignal,
    ) -> Result<Report, String> {
        for second in 0..input.seconds {
            let left = input.seconds - second;
            cx.progress(
                f64::from(second),
                Some(f64::from(input.seconds)),
                Some(&format!("compiling: {left} s left")),
            );
            tokio::select! {
                () = tokio::time::sleep(std::time::Duration::from_secs(1)) => {}
                _ = abort.cancelled() => return Err("the report was cancelled".to_owned()),
            }
        }
        let row = self
            .db
            .query_one(
                "SELECT count(*), count(*) FILTER (WHERE status = 'open'),                  COALESCE(sum(escalations), 0)::BIGINT FROM incidents",
                &[],
            )
            .await
            .map_err(|e| failed(&e))?;
        let read = |e: tokio_postgres::Error| failed(&e);
        let (total, open, escalations): (i64, i64, i64) = (
            row.try_get(0).map_err(read)?,
            row.try_get(1).map_err(read)?,
            row.try_get(2).map_err(read)?,
        );
        cx.progress(
            f64::from(input.seconds),
            Some(f64::from(input.seconds)),
            Some("waiting for a decision"),
        );
        let published = cx
            .confirm(
                "publish",
                format!("Publish the report of {total} incidents?"),
            )
            .await
            .map_err(|e| format!("the report was not published: {e}"))?;
        Ok(Report {
            total,
            open,
            escalations,
            published,
            by: cx.session().user_id().to_owned(),
        })
    }

    /// List the incidents, newest first, optionally only the open or the closed ones.
    #[tool(
        family = "incidents",
        operation = "incidents.list",
        transport = "embedded",
        annotations(title = "List Incidents", read_only, category = "read"),
        ui(presentation = "explored", icon = "list")
    )]
    pub async fn incidents_list(&self, input: ListIncidents) -> Result<Listed, String> {
        let sql = format!(
            "SELECT {COLUMNS}, count(*) OVER () FROM incidents \
             WHERE $1::TEXT IS NULL OR status = $1 ORDER BY id DESC LIMIT 100"
        );
        let rows = self
            .db
            .query(&sql, &[&input.status])
            .await
            .map_err(|e| failed(&e))?;
        let total = match rows.first() {
            Some(row) => row.try_get(6).map_err(|e| failed(&e))?,
            None => 0,
        };
        let incidents = rows
            .iter()
            .map(Incident::from_row)
            .collect::<Result<_, _>>()?;
        Ok(Listed {
            ok: true,
            total,
            incidents,
        })
    }
}
