#!/usr/bin/env bash
# Build cost of a SMALL package (the examples' size), ours against the same tools on
# rmcp, in one run (issue 64):
#   ours  a lib of 6 tools (`#[derive(ToolInput)]`, `#[tool]`, build.rs and
#         `neuralis::package!()`) and a 15-line bin serving it over stdio with
#         `neuralis-mcp` (`McpServer::new(..).serve_stdio()`)
#   rmcp  the same 6 tools on rmcp 3.11 (`#[tool_router]`/`#[tool]` over
#         `schemars::JsonSchema` inputs, `#[tool_handler]`) and a bin serving them over
#         rmcp's stdio transport
# The same inputs in both (bounded strings and numbers, an enum, `Option`s, a `Vec` of
# structs), the same tokio features. Default dev profile, each package in its own temp
# directory with its own target directory; the crates are fetched first, every build is
# `--offline`. Printed, in one run:
#   cold    `cargo build` from an empty target directory (with `--timings`)
#   edit    one field's bound changed in the lib (`max_length` of `notes_add`'s title), then
#           `cargo build`; median of RUNS, alternating ours / rmcp
#   crates  `cargo tree -e normal,build --prefix none | sort -u | wc -l`
# and the ratios ours / rmcp, then the costliest units of each cold build and of ours'
# last edit (cargo `--timings`).
# The toolkit is the committed state of REV (default HEAD), snapshotted with `git
# archive`; the lock files are the workspace's (ours) and benches/mcp-throughput's (rmcp).
# Usage: benches/build_cost_small.sh [workdir]
#   RUNS=3  edits per package;  REV=HEAD;  KEEP=1 keeps the workdir;
#   LIMIT=1500  seconds any one cargo command may take (the run is bounded by it).
set -euo pipefail
shopt -s inherit_errexit
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=benches/lib.sh
. "$root/benches/lib.sh"
work="${1:-$(mktemp -d "${TMPDIR:-/tmp}/neuralis-build-cost-small.XXXXXX")}"
cleanup() { [ -n "${KEEP:-}" ] || rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work"
snapshot "$root" "$work/neuralis-src" "${REV:-HEAD}"
src="$work/neuralis-src"
limit="${LIMIT:-1500}"
cargo_in() { # variant, cargo args...
  local v="$1"
  shift
  (cd "$work/$v" && CARGO_TARGET_DIR="$work/$v/target" timeout "$limit" cargo "$@")
}

# The input types of the six tools, with `$derive`, `$attr` and the variant's constraint
# syntax (`len`, `range`, `items`).
types() {
  cat <<RS

/// How urgent a note is.
#[derive($derive)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    /// Whenever.
    Low,
    /// Soon.
    Normal,
    /// Now.
    High,
}

/// A unit of temperature.
#[derive($derive)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
    /// Kelvin.
    Kelvin,
}

/// Add a note.
#[derive($derive)]
#[serde(rename_all = "camelCase")]$root_marker
pub struct NotesAdd {
    /// The note's title.
    #[$attr($(len 1 120))]
    pub title: String,
    /// The note's text.
    #[$attr($(len 0 4000))]
    pub body: String,
    /// How urgent it is.
    pub urgency: Option<Priority>,
    /// Tags to file it under.
    #[$attr($(items 0 10))]
    pub tags: Vec<String>,
}

/// Search the notes.
#[derive($derive)]
#[serde(rename_all = "camelCase")]$root_marker
pub struct NotesSearch {
    /// What to look for.
    #[$attr($(len 1 200))]
    pub query: String,
    /// How many notes at most.
    #[$attr($(range 1 50))]
    pub limit: Option<u32>,
    /// Only notes of this priority.
    pub urgency: Option<Priority>,
}

/// One line of an order.
#[derive($derive)]
#[serde(rename_all = "camelCase")]
pub struct Line {
    /// The article's code.
    #[$attr($(len 1 32))]
    pub sku: String,
    /// How many.
    #[$attr($(range 1 999))]
    pub quantity: u32,
}

/// Place an order.
#[derive($derive)]
#[serde(rename_all = "camelCase")]$root_marker
pub struct OrderCreate {
    /// Who orders.
    #[$attr($(len 1 80))]
    pub customer: String,
    /// What is ordered.
    #[$attr($(items 1 50))]
    pub lines: Vec<Line>,
    /// A note for the warehouse.
    #[$attr($(len 0 500))]
    pub note: Option<String>,
}

/// Forecast the weather.
#[derive($derive)]
#[serde(rename_all = "camelCase")]$root_marker
pub struct WeatherForecast {
    /// The city, for example "Lisbon".
    #[$attr($(len 1 120))]
    pub city: String,
    /// Days ahead.
    #[$attr($(range 1 14))]
    pub days: Option<u8>,
    /// The unit of the temperatures.
    pub unit: Option<Unit>,
}

/// Convert a temperature.
#[derive($derive)]
#[serde(rename_all = "camelCase")]$root_marker
pub struct Convert {
    /// The temperature.
    #[$attr($(range -1000 100000))]
    pub value: f64,
    /// Its unit.
    pub from: Unit,
    /// The unit wanted.
    pub to: Unit,
}

/// One person invited.
#[derive($derive)]
#[serde(rename_all = "camelCase")]
pub struct Attendee {
    /// Their address.
    #[$attr($(len 3 254))]
    pub email: String,
    /// Whether they may skip it.
    pub optional: Option<bool>,
}

/// Schedule a meeting.
#[derive($derive)]
#[serde(rename_all = "camelCase")]$root_marker
pub struct MeetingSchedule {
    /// What it is about.
    #[$attr($(len 1 120))]
    pub title: String,
    /// Who is invited.
    #[$attr($(items 1 20))]
    pub attendees: Vec<Attendee>,
    /// How long, in minutes.
    #[$attr($(range 15 480))]
    pub minutes: u16,
}
RS
}

# The six handlers' bodies, by tool: (name, input type, description, body).
tools=(
  "notes_add|NotesAdd|Add a note.|format!(\"added {} ({} tags)\", input.title, input.tags.len())"
  "notes_search|NotesSearch|Search the notes.|format!(\"{} notes for {}\", input.limit.unwrap_or(10), input.query)"
  "order_create|OrderCreate|Place an order.|format!(\"{}: {} lines\", input.customer, input.lines.iter().map(|l| l.quantity).sum::<u32>())"
  "weather_forecast|WeatherForecast|Forecast the weather for a city.|format!(\"sunny in {} for {} days\", input.city, input.days.unwrap_or(3))"
  "convert|Convert|Convert a temperature.|format!(\"{}\", if matches!((&input.from, &input.to), (Unit::Celsius, Unit::Fahrenheit)) { input.value * 1.8 + 32.0 } else { input.value })"
  "meeting_schedule|MeetingSchedule|Schedule a meeting.|format!(\"{} with {} people for {} min\", input.title, input.attendees.len(), input.minutes)"
)

gen() { # variant
  local v="$1" dir="$work/$1"
  mkdir -p "$dir/src"
  local deps lock
  local tokio='tokio = { version = "1", default-features = false, features = ["rt-multi-thread", "macros", "io-std"] }'
  case "$v" in
    ours)
      deps="neuralis = { path = \"$src\" }
neuralis-mcp = { path = \"$src/mcp\" }
serde = { version = \"1\", features = [\"derive\"] }
$tokio

[build-dependencies]
neuralis-build = { path = \"$src/build\" }"
      lock="$root/Cargo.lock"
      derive="ToolInput, Deserialize" attr=schema root_marker=$'\n#[schema(root)]'
      len() { echo "min_length = $1, max_length = $2"; }
      range() { echo "minimum = $1, maximum = $2"; }
      items() { echo "min_items = $1, max_items = $2"; }
      printf 'fn main() {\n    neuralis_build::emit();\n}\n' >"$dir/build.rs"
      ;;
    rmcp)
      deps="rmcp = { version = \"3.11\", default-features = false, features = [\"server\", \"macros\", \"transport-io\"] }
schemars = \"1\"
serde = { version = \"1\", features = [\"derive\"] }
$tokio"
      lock="$root/benches/mcp-throughput/Cargo.lock"
      derive="Deserialize, schemars::JsonSchema" attr=schemars root_marker=""
      len() { echo "length(min = $1, max = $2)"; }
      range() { echo "range(min = $1, max = $2)"; }
      items() { echo "length(min = $1, max = $2)"; }
      ;;
  esac
  cat >"$dir/Cargo.toml" <<TOML
[package]
name = "small-$v"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
$deps

[workspace]
TOML
  cp "$lock" "$dir/Cargo.lock"
  local lib="$dir/src/lib.rs" handlers="" t name ty doc body
  case "$v" in
    ours) printf '//! Six tools.\n\nuse neuralis::{ToolInput, tool};\nuse serde::Deserialize;\n' >"$lib" ;;
    rmcp) printf '//! Six tools.\n\nuse rmcp::handler::server::wrapper::Parameters;\nuse rmcp::{schemars, tool, tool_handler, tool_router};\nuse serde::Deserialize;\n' >"$lib" ;;
  esac
  types >>"$lib"
  for t in "${tools[@]}"; do
    IFS='|' read -r name ty doc body <<<"$t"
    case "$v" in
      ours) cat >>"$lib" <<RS

/// $doc
#[tool(
    family = "small",
    operation = "small.$name",
    annotations(title = "$doc", read_only, category = "read"),
    ui(presentation = "inline")
)]
pub fn $name(input: $ty) -> String {
    $body
}
RS
      ;;
      rmcp) handlers="$handlers
    /// $doc
    #[tool]
    fn $name(&self, Parameters(input): Parameters<$ty>) -> String {
        $body
    }
" ;;
    esac
  done
  case "$v" in
    ours)
      printf '\nneuralis::package!();\n' >>"$lib"
      cat >"$dir/src/main.rs" <<'RS'
//! The package over MCP on stdio.

use neuralis::dispatch::SessionContext;
use neuralis_mcp::McpServer;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let package = small_ours::neuralis_package::package()?;
    let session = SessionContext::builder("local").build();
    McpServer::new(package, session)
        .with_server_info("small", env!("CARGO_PKG_VERSION"))
        .serve_stdio()
        .await?;
    Ok(())
}
RS
      ;;
    rmcp)
      cat >>"$lib" <<RS

/// The server: the six tools.
#[derive(Clone, Default)]
pub struct Server;

#[tool_router]
impl Server {$handlers}

#[tool_handler]
impl rmcp::ServerHandler for Server {}
RS
      cat >"$dir/src/main.rs" <<'RS'
//! The tools over MCP on stdio.

use rmcp::ServiceExt;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = small_rmcp::Server
        .serve(rmcp::transport::stdio())
        .await?;
    service.waiting().await?;
    Ok(())
}
RS
      ;;
  esac
}

build() { # variant [cargo args] -> seconds of one `cargo build`
  local v="$1" t0 t1
  shift
  t0=$(now)
  cargo_in "$v" build --quiet --offline "$@" || { echo "the build of $v failed" >&2; return 1; }
  t1=$(now)
  secs "$t0" "$t1"
}

variants=(ours rmcp)
declare -A cold edit crates edit_runs
for v in "${variants[@]}"; do
  gen "$v"
  cargo_in "$v" fetch --quiet
  crates[$v]=$(cargo_in "$v" tree --offline -e normal,build --prefix none | sort -u | wc -l)
done
echo "generated in $work; load average: $(cut -d' ' -f1-3 /proc/loadavg)"

for v in "${variants[@]}"; do
  cold[$v]=$(build "$v" --timings)
  echo "cold $v: ${cold[$v]} s (load average $(cut -d' ' -f1-3 /proc/loadavg))"
done
runs="${RUNS:-3}"
bound=120
for i in $(seq "$runs"); do
  bound=$((bound + 1))
  for v in "${variants[@]}"; do
    # `notes_add`'s title: the first bounded field of the lib.
    case "$v" in
      ours) sed -i "0,/max_length = [0-9]*/s//max_length = $bound/" "$work/$v/src/lib.rs" ;;
      rmcp) sed -i "0,/length(min = 1, max = [0-9]*)/s//length(min = 1, max = $bound)/" "$work/$v/src/lib.rs" ;;
    esac
    grep -q "$bound" "$work/$v/src/lib.rs" || { echo "the edit of $v did not apply" >&2; exit 1; }
    extra=()
    [ "$i" = "$runs" ] && extra=(--timings)
    edit_runs[$v]="${edit_runs[$v]:-} $(build "$v" "${extra[@]}")"
  done
done
for v in "${variants[@]}"; do
  # shellcheck disable=SC2086
  edit[$v]=$(median ${edit_runs[$v]})
  echo "edits $v:${edit_runs[$v]}"
done

echo
echo "| | ours | rmcp | ours / rmcp |"
echo "|---|---:|---:|---:|"
echo "| cold build | ${cold[ours]} s | ${cold[rmcp]} s | $(ratio "${cold[ours]}" "${cold[rmcp]}")x |"
echo "| one field's bound edited (median of $runs, alternating) | ${edit[ours]} s | ${edit[rmcp]} s | $(ratio "${edit[ours]}" "${edit[rmcp]}")x |"
echo "| crates (normal + build) | ${crates[ours]} | ${crates[rmcp]} | |"

units() { # variant, nth report (1 = newest) -> the costliest units
  local report
  report=$(ls -t "$work/$1/target/cargo-timings"/cargo-timing-2*.html | sed -n "$2p")
  timing_units "$report" | python3 -c '
import json, sys
units = [json.loads(l) for l in sys.stdin]
total = sum(u["duration"] for u in units)
print(f"  {len(units)} units, {total:.1f} s summed unit time")
for u in sorted(units, key=lambda u: -u["duration"])[:int(sys.argv[1])]:
    print(f"  {u['"'"'name'"'"']} {u['"'"'version'"'"']} {u['"'"'target'"'"'].strip() or '"'"'lib'"'"'} {u['"'"'mode'"'"']}: {u['"'"'duration'"'"']:.2f} s")
' "$3"
}
for v in "${variants[@]}"; do
  echo
  echo "== $v, cold build: the costliest units"
  units "$v" 2 15
  echo "== $v, last edit: its units"
  units "$v" 1 6
done
echo
echo "== ours, cold build: the toolkit, the package, and the build script's dependencies"
timing_units "$(ls -t "$work/ours/target/cargo-timings"/cargo-timing-2*.html | sed -n 2p)" | python3 -c '
import json, sys
names = ("neuralis", "small-", "syn", "regex", "toml", "winnow", "serde_spanned", "annotate-snippets", "anstyle", "unicode-width")
for u in map(json.loads, sys.stdin):
    if u["name"].startswith(names) and u["mode"] != "run-custom-build":
        print(f"  {u['"'"'name'"'"']} {u['"'"'version'"'"']} {u['"'"'target'"'"'].strip() or '"'"'lib'"'"'}: {u['"'"'duration'"'"']:.2f} s")
'
