//! An example package whose state lives in PostgreSQL: incidents opened, escalated,
//! closed and listed by many callers through any number of replicas.
//!
//! A service value (`.service(...)`) lives in one process: behind a proxy, each replica
//! has its own. State that every replica must see (what a user wrote, counters, ids)
//! belongs in a store the replicas share; here, a PostgreSQL database, and each tool is
//! one SQL statement, so two replicas writing at once lose nothing (the database
//! serializes the writes: `UPDATE ... SET escalations = escalations + 1 RETURNING ...`,
//! ids from a sequence). The service holds only the connection.
//!
//! ```text
//! neuralis-example-incidents --database "host=127.0.0.1 port=5432 user=app dbname=app" \
//!     --http 127.0.0.1:8080 --tokens tokens.json --stateless
//! ```
//!
//! Every flag of `neuralis-example-serve --http` applies (`--help`), each also from
//! `NEURALIS_<FLAG>`; `--database` is `NEURALIS_DATABASE` (a libpq connection string or
//! a `postgres://` URL).
//!
//! `incidents_delete` asks a person to confirm every deletion. On MCP 2026-07-28 the
//! confirm travels in a sealed `requestState` (give the replicas one
//! `--request-state-key-file`), and the confirms already used are recorded in the same
//! database (`consumed.rs`, table `consumed_states`, on the service's connection), so a
//! confirmed deletion runs once on whichever replica its retry reaches
//! (`--consumed-states-dir` records them in a directory instead).
//!
//! `incidents_report` takes as long as it is told and then asks whether to publish: for a
//! client that supports MCP's tasks extension it runs as a task, kept in the same database
//! (`tasks.rs`, table `tasks`), so any replica answers `tasks/get`, `tasks/update` and
//! `tasks/cancel` for it, and a task whose replica died reads as failed once its lease
//! runs out.

// `examples/serve`'s HTTP server and its options, compiled in here as well (as in
// `examples/conformance`).
#[path = "../../serve/src/asking.rs"]
mod asking;
mod consumed;
#[path = "../../serve/src/http.rs"]
mod http;
mod incidents;
mod tasks;

use neuralis::dispatch::SessionContext;
use neuralis_mcp::McpServer;
use neuralis_mcp::http::Hosted;

use asking::Asking;

neuralis::package!();

/// The command line.
#[derive(clap::Parser)]
#[command(
    name = "neuralis-example-incidents",
    version,
    about = "Incidents in PostgreSQL, served over MCP's streamable HTTP (--http ADDR)"
)]
struct Cli {
    /// The PostgreSQL database of the incidents: a connection string
    /// (`host=... user=... dbname=...`) or a `postgres://` URL.
    #[arg(long, value_name = "CONNECTION", env = "NEURALIS_DATABASE")]
    database: String,
    #[command(flatten)]
    asking: Asking,
    #[command(flatten)]
    http: http::Options,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = <Cli as clap::Parser>::parse();
    if cli.http.addr.is_none() {
        eprintln!("error: give `--http ADDR` (this example serves over HTTP only)");
        return std::process::ExitCode::from(2);
    }
    let service = match incidents::Incidents::connect(&cli.database).await {
        Ok(service) => service,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    // The confirms used, in the database unless `--consumed-states-dir` is given.
    let confirms = match cli.asking.consumed_states() {
        Ok(Some(_)) => Confirms(None, tasks::PgTaskStore::new(service.database())),
        Ok(None) => Confirms(
            Some(consumed::PgConsumedStates::new(service.database())),
            tasks::PgTaskStore::new(service.database()),
        ),
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let package = match neuralis_package::builder().service(service).build() {
        Ok(package) => package,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    // Without credentials (`--tokens`, `--issuer`), every request is this local caller.
    let session = SessionContext::builder("local-user").build();
    match http::serve(package, session, cli.http, &cli.asking, confirms).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The server with the database's ledger of used confirms, when it has one, and its
/// tasks in the database.
struct Confirms(Option<consumed::PgConsumedStates>, tasks::PgTaskStore);

impl http::Compose for Confirms {
    fn local(self, server: McpServer) -> McpServer {
        let server = server.with_task_store(self.1);
        match self.0 {
            Some(ledger) => server.with_consumed_states(ledger),
            None => server,
        }
    }

    fn hosted(self, hosted: Hosted) -> Hosted {
        let hosted = hosted.with_task_store(self.1);
        match self.0 {
            Some(ledger) => hosted.with_consumed_states(ledger),
            None => hosted,
        }
    }
}
