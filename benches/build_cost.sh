#!/usr/bin/env bash
# Build cost of a 100-tool crate, three ways, in one run:
#   ours      `#[derive(ToolInput)]`, `#[tool]`, build.rs (`neuralis_build::emit()`) and
#             `neuralis::package!()`
#   rmcp      rmcp's `#[tool_router]` + `#[tool]` over `schemars::JsonSchema` inputs
#   schemars  the same structs deriving `schemars::JsonSchema` only, plain functions
# The same structs, constraints and doc comments in each (10 files of 10 tools; every
# tool has an input struct, three in four a nested struct, three in five an enum).
# For each, in the same run, debug builds (the default dev profile), each variant in its
# own target directory:
#   clean   a clean build, dependencies included (with cargo's --timings report)
#   crate   the crate alone, dependencies built (`cargo clean -p`), median of RUNS
#   edit    the rebuild after editing one doc comment in one file, median of RUNS
# and, from the clean build's timing report of `ours`, the units compiled for
# `jsonschema` (one, for the target: the macros and the build script never compile it).
# Generated crates and their target directories go under target/ (never committed);
# the toolkit is the committed state of REV (default HEAD). Offline, with the lock files
# of the workspace and of benches/mcp-throughput.
# Usage: benches/build_cost.sh [workdir]   (RUNS=3, REV=HEAD, KEEP=1 keeps the workdir)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=benches/lib.sh
. "$root/benches/lib.sh"
work="${1:-$root/target/bench-build-cost}"
rm -rf "$work"
snapshot "$root" "$work/neuralis-src" "${REV:-HEAD}"
src="$work/neuralis-src"

# One tool's types, with `$derive`, `$attr` (the constraint attribute) and the constraint
# syntax of the variant.
types() { # n
  local n="$1"
  if [ $((n % 5)) -lt 3 ]; then
    cat <<RS

/// The kind of tool $n.
#[derive($derive)]
#[serde(rename_all = "lowercase")]
pub enum Kind$n {
    /// First.
    Alpha,
    /// Second.
    Beta,
    /// Third.
    Gamma,
}
RS
  fi
  if [ $((n % 4)) -lt 3 ]; then
    cat <<RS

/// Nested value $n.
#[derive($derive)]
#[serde(rename_all = "camelCase")]
pub struct Item$n {
    /// A label.
    #[$attr($(len 1 80))]
    pub label_text: String,
    /// A weight.
    #[$attr($(range 0 100))]
    pub weight: Option<u8>,
}
RS
  fi
  cat <<RS

/// The input of tool $n.
#[derive($derive)]
#[serde(rename_all = "camelCase")]$root_marker
pub struct Input$n {
    /// What to look for.
    #[$attr($(len 1 200))]
    pub query_text: String,
    /// How many results.
    #[$attr($(range 1 50))]
    pub max_results: Option<u32>,
    /// Tags to match.
    pub tags: Vec<String>,
    /// Whether to explain the results.
    pub verbose: Option<bool>,
RS
  [ $((n % 4)) -lt 3 ] && printf '    /// The items.\n    pub items: Vec<Item%s>,\n' "$n"
  [ $((n % 5)) -lt 3 ] && printf '    /// The kind.\n    pub kind: Option<Kind%s>,\n' "$n"
  printf '}\n'
}

gen() { # variant
  local v="$1" dir="$work/$1"
  mkdir -p "$dir/src"
  local deps lock
  case "$v" in
    ours)
      deps="neuralis = { path = \"$src\" }
serde = { version = \"1\", features = [\"derive\"] }

[build-dependencies]
neuralis-build = { path = \"$src/build\" }"
      lock="$root/Cargo.lock"
      derive="ToolInput, Deserialize" attr=schema root_marker=$'\n#[schema(root)]'
      len() { echo "min_length = $1, max_length = $2"; }
      range() { echo "minimum = $1, maximum = $2"; }
      printf 'fn main() {\n    neuralis_build::emit();\n}\n' >"$dir/build.rs"
      ;;
    rmcp | schemars)
      deps="schemars = \"1\"
serde = { version = \"1\", features = [\"derive\"] }"
      [ "$v" = rmcp ] && deps="$deps
rmcp = { version = \"3.11\", default-features = false, features = [\"server\", \"macros\"] }"
      lock="$root/benches/mcp-throughput/Cargo.lock"
      derive="Deserialize, schemars::JsonSchema" attr=schemars root_marker=""
      len() { echo "length(min = $1, max = $2)"; }
      range() { echo "range(min = $1, max = $2)"; }
      ;;
  esac
  cat >"$dir/Cargo.toml" <<TOML
[package]
name = "bench-$v"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
$deps

[workspace]
TOML
  cp "$lock" "$dir/Cargo.lock"
  : >"$dir/src/lib.rs"
  for f in $(seq 0 9); do
    echo "pub mod m$f;" >>"$dir/src/lib.rs"
    local file="$dir/src/m$f.rs" handlers=""
    case "$v" in
      ours) printf 'use neuralis::{ToolInput, tool};\nuse serde::Deserialize;\n' >"$file" ;;
      rmcp) printf 'use rmcp::handler::server::wrapper::Parameters;\nuse rmcp::{schemars, tool, tool_router};\nuse serde::Deserialize;\n' >"$file" ;;
      schemars) printf 'use serde::Deserialize;\n' >"$file" ;;
    esac
    for s in $(seq 0 9); do
      local n=$((f * 10 + s))
      types "$n" >>"$file"
      case "$v" in
        ours) cat >>"$file" <<RS

/// Tool number $n: look things up.
#[tool(
    family = "bench",
    operation = "bench.t$n",
    annotations(title = "Tool $n", read_only, category = "read"),
    ui(presentation = "inline")
)]
pub fn tool_$n(input: Input$n) -> String {
    input.query_text
}
RS
        ;;
        rmcp) handlers="$handlers
    /// Tool number $n: look things up.
    #[tool]
    fn tool_$n(&self, Parameters(input): Parameters<Input$n>) -> String {
        input.query_text
    }
" ;;
        schemars) cat >>"$file" <<RS

/// Tool number $n: look things up.
pub fn tool_$n(input: Input$n) -> String {
    input.query_text
}
RS
        ;;
      esac
    done
    if [ "$v" = rmcp ]; then
      printf '\n#[tool_router(router = router_m%s, vis = "pub(crate)")]\nimpl crate::Server {%s}\n' "$f" "$handlers" >>"$file"
    fi
  done
  case "$v" in
    ours) echo "neuralis::package!();" >>"$dir/src/lib.rs" ;;
    rmcp) cat >>"$dir/src/lib.rs" <<'RS'

/// The server: every file's tools in one router.
#[derive(Clone, Default)]
pub struct Server;

/// The tools of every file.
pub fn router() -> rmcp::handler::server::router::tool::ToolRouter<Server> {
    Server::router_m0()
        + Server::router_m1()
        + Server::router_m2()
        + Server::router_m3()
        + Server::router_m4()
        + Server::router_m5()
        + Server::router_m6()
        + Server::router_m7()
        + Server::router_m8()
        + Server::router_m9()
}

#[rmcp::tool_handler(router = crate::router())]
impl rmcp::ServerHandler for Server {}
RS
    ;;
  esac
}

build() { # variant [--timings] -> seconds of one `cargo build`
  local v="$1" t0 t1
  shift
  t0=$(now)
  (cd "$work/$v" && CARGO_TARGET_DIR="$work/$v/target" cargo build --quiet --offline "$@")
  t1=$(now)
  secs "$t0" "$t1"
}

variants=(ours rmcp schemars)
for v in "${variants[@]}"; do
  gen "$v"
done
echo "generated: 100 tools; $(grep -c '^pub enum' "$work"/ours/src/m*.rs | awk -F: '{ s += $2 } END { print s }') enums," \
  "$(grep -c '^pub struct Item' "$work"/ours/src/m*.rs | awk -F: '{ s += $2 } END { print s }') nested structs," \
  "$(awk '/^pub struct Input/,/^}/' "$work"/ours/src/m*.rs | grep -c '^    pub ') input fields"

declare -A clean crate edit
for v in "${variants[@]}"; do
  clean[$v]=$(build "$v" --timings)
  echo "clean $v: ${clean[$v]}s"
done
runs="${RUNS:-3}"
declare -A crate_runs edit_runs
for i in $(seq "$runs"); do
  for v in "${variants[@]}"; do
    (cd "$work/$v" && CARGO_TARGET_DIR="$work/$v/target" cargo clean --quiet --offline -p "bench-$v")
    crate_runs[$v]="${crate_runs[$v]:-} $(build "$v")"
  done
  for v in "${variants[@]}"; do
    sed -i "s|/// Tool number 35: look things up.*|/// Tool number 35: look things up (edit $i).|" "$work/$v/src/m3.rs"
    edit_runs[$v]="${edit_runs[$v]:-} $(build "$v")"
  done
done
for v in "${variants[@]}"; do
  # shellcheck disable=SC2086
  crate[$v]=$(median ${crate_runs[$v]})
  # shellcheck disable=SC2086
  edit[$v]=$(median ${edit_runs[$v]})
  echo "runs $v: crate${crate_runs[$v]} / edit${edit_runs[$v]}"
done

echo
echo "| step | ours | rmcp #[tool_router] + schemars | schemars derive only | ours / schemars | ours / rmcp |"
echo "|---|---:|---:|---:|---:|---:|"
for step in clean crate edit; do
  declare -n m="$step"
  echo "| $step | ${m[ours]} s | ${m[rmcp]} s | ${m[schemars]} s | $(ratio "${m[ours]}" "${m[schemars]}")x | $(ratio "${m[ours]}" "${m[rmcp]}")x |"
done

echo
echo "== ours, clean build: cargo --timings units of jsonschema, syn, and the toolkit"
report=$(ls -t "$work/ours/target/cargo-timings"/cargo-timing-*.html | head -1)
timing_units "$report" | python3 -c '
import json, sys
units = [json.loads(l) for l in sys.stdin]
total = sum(u["duration"] for u in units)
print(f"{len(units)} units, {total:.1f} s summed unit time")
for u in units:
    if u["name"].startswith(("jsonschema", "neuralis", "syn", "regex", "fancy-regex")) and u["mode"] != "run-custom-build":
        print(f"  {u['"'"'name'"'"']} {u['"'"'version'"'"']} {u['"'"'target'"'"'] or '"'"'lib'"'"'}: {u['"'"'duration'"'"']:.1f} s")
n = sum(1 for u in units if u["name"] == "jsonschema")
print(f"jsonschema compiled {n} time(s)")
'
[ -n "${KEEP:-}" ] || rm -rf "$work"
