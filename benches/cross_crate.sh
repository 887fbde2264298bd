#!/usr/bin/env bash
# The cost of reading another crate's types in the build script, against the build script
# before it could (BASE, default the commit before build/src/deps.rs was added), in one run.
#
# 100 tools (10 files of 10 handlers), each input with a nested struct and an enum:
#   before   BASE's toolkit; the nested types are in the tool package (the only way
#            BASE can emit them)
#   local    this toolkit (REV, default HEAD), the same single package
#   shared   this toolkit; the 200 nested types in a types crate (`links`, build.rs) that
#            the tool package depends on under another name (`types = { package = ... }`)
# For each, debug builds; `before` in its own target directory, `local` and `shared` in
# one (the same toolkit: its dependencies compile once, the packages have their own names):
#   clean      the first build (wall; clean for `before` and `local`, dependencies built
#              for `shared`), and the build scripts' run time from cargo's --timings
#   no-change  `cargo build` with nothing changed, median of RUNS (wall)
#   touch      the rebuild after editing one nested type's doc comment (for `shared`, in
#              the types crate), median of RUNS: wall, and the run time of our build
#              scripts (for `shared`, the types crate's and the tool package's)
# Ratios are against `before` in the same run. Offline, with the workspace's Cargo.lock;
# the generated crates go under target/ (never committed).
# Usage: benches/cross_crate.sh [workdir]   (RUNS=3, REV=HEAD, BASE=<rev>, KEEP=1 keeps
# the workdir; REUSE=1 keeps its target directories, so the first builds are not clean)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=benches/lib.sh
. "$root/benches/lib.sh"
work="${1:-$root/target/bench-cross-crate}"
runs="${RUNS:-3}"
# The toolkit before this build script read other crates: the parent of the commit that
# added build/src/deps.rs.
added="$(git -C "$root" log --format=%H --diff-filter=A -1 -- build/src/deps.rs)"
base="${BASE:-$added~1}"
if [ -n "${REUSE:-}" ]; then
  rm -rf "$work/before" "$work/local" "$work/shared" "$work/src-before" "$work/src-after"
else
  rm -rf "$work"
fi
snapshot "$root" "$work/src-before" "$base"
snapshot "$root" "$work/src-after" "${REV:-HEAD}"

nested() { # n: the nested types of tool n
  cat <<RS

/// The kind of tool $1.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind$1 {
    /// First.
    Alpha,
    /// Second.
    Beta,
}

/// Nested value $1.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Item$1 {
    /// A label of $1.
    #[schema(min_length = 1, max_length = 80)]
    pub label_text: String,
    /// A weight.
    #[schema(minimum = 0, maximum = 100)]
    pub weight: Option<u8>,
}
RS
}

tool() { # n prefix: a tool whose nested types are named with prefix
  cat <<RS

/// The input of tool $1.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "camelCase")]
#[schema(root)]
pub struct Input$1 {
    /// What to look for.
    #[schema(min_length = 1, max_length = 200)]
    pub query_text: String,
    /// The items.
    pub items: Vec<$2Item$1>,
    /// The kind.
    pub kind: Option<$2Kind$1>,
}

/// Tool number $1: look things up.
#[tool(annotations(title = "Tool $1", read_only, category = "read"), ui(presentation = "inline"))]
pub fn tool_$1(input: Input$1) -> String {
    input.query_text
}
RS
}

manifest() { # name src deps links (the name is prefixed with `bench-`)
  cat <<TOML
[package]
name = "bench-$1"
version = "0.1.0"
edition = "2024"
publish = false
$4

[dependencies]
neuralis = { path = "$2" }
serde = { version = "1", features = ["derive"] }
$3

[build-dependencies]
neuralis-build = { path = "$2/build" }
TOML
}

header='use neuralis::{ToolInput, tool};
use serde::Deserialize;'

gen_single() { # dir src name
  local dir="$1"
  mkdir -p "$dir/src"
  manifest "$3" "$2" "" "" >"$dir/Cargo.toml"
  printf '[workspace]\n' >>"$dir/Cargo.toml"
  printf 'fn main() {\n    neuralis_build::emit();\n}\n' >"$dir/build.rs"
  : >"$dir/src/lib.rs"
  for f in $(seq 0 9); do
    echo "pub mod m$f;" >>"$dir/src/lib.rs"
    echo "$header" >"$dir/src/m$f.rs"
    for s in $(seq 0 9); do
      nested $((f * 10 + s)) >>"$dir/src/m$f.rs"
      tool $((f * 10 + s)) "" >>"$dir/src/m$f.rs"
    done
  done
  echo "neuralis::package!();" >>"$dir/src/lib.rs"
  cp "$root/Cargo.lock" "$dir/Cargo.lock"
}

gen_shared() { # dir src
  local dir="$1"
  mkdir -p "$dir/types/src" "$dir/tools/src"
  printf '[workspace]\nmembers = ["types", "tools"]\nresolver = "3"\n' >"$dir/Cargo.toml"
  manifest types "$2" "" 'links = "bench-types"' >"$dir/types/Cargo.toml"
  manifest shared "$2" 'types = { package = "bench-types", path = "../types" }' "" \
    >"$dir/tools/Cargo.toml"
  for c in types tools; do
    printf 'fn main() {\n    neuralis_build::emit();\n}\n' >"$dir/$c/build.rs"
    : >"$dir/$c/src/lib.rs"
  done
  for f in $(seq 0 9); do
    echo "pub mod m$f;" >>"$dir/types/src/lib.rs"
    echo "pub use m$f::*;" >>"$dir/types/src/lib.rs"
    echo "pub mod m$f;" >>"$dir/tools/src/lib.rs"
    echo "use neuralis::ToolInput;
use serde::Deserialize;" >"$dir/types/src/m$f.rs"
    echo "$header" >"$dir/tools/src/m$f.rs"
    for s in $(seq 0 9); do
      nested $((f * 10 + s)) >>"$dir/types/src/m$f.rs"
      tool $((f * 10 + s)) "types::" >>"$dir/tools/src/m$f.rs"
    done
  done
  echo "neuralis::package!();" >>"$dir/tools/src/lib.rs"
  cp "$root/Cargo.lock" "$dir/Cargo.lock"
}

gen_single "$work/before" "$work/src-before" before
gen_single "$work/local" "$work/src-after" local
gen_shared "$work/shared" "$work/src-after"

target() { case "$1" in before) echo "$work/target-before" ;; *) echo "$work/target-after" ;; esac; }

# cargo build of variant $1, --timings; prints the wall time and leaves the report's path
# in $work/last-report.
build() {
  local t0 t1
  t0=$(now)
  (cd "$work/$1" && CARGO_TARGET_DIR="$(target "$1")" cargo build --offline --quiet --timings -p "bench-$1" 2>/dev/null)
  t1=$(now)
  ls -t "$(target "$1")"/cargo-timings/cargo-timing-*.html | head -1 >"$work/last-report"
  secs "$t0" "$t1"
}

# The build scripts' run time (seconds) of the packages whose name starts with $1, in
# the last report.
script_runs() {
  timing_units "$(cat "$work/last-report")" | python3 -c '
import json, sys
prefix = sys.argv[1]
print("%.2f" % sum(u["duration"] for u in map(json.loads, sys.stdin)
                   if u["name"].startswith(prefix) and "run" in u["target"]))' "$1"
}

# The file whose doc comment the touch edits.
touch_file() { case "$1" in shared) echo "$work/shared/types/src/m5.rs" ;; *) echo "$work/$1/src/m5.rs" ;; esac; }

variants=(before local shared)
declare -A clean clean_runs nochange touch touch_run
echo "== clean builds"
for v in "${variants[@]}"; do
  clean[$v]=$(build "$v")
  clean_runs[$v]=$(script_runs "bench-")
  echo "$v: ${clean[$v]}s, build scripts ${clean_runs[$v]}s"
done
echo "== no-change rebuilds and touches (interleaved, $runs each)"
declare -A nc_samples t_samples r_samples
for i in $(seq 1 "$runs"); do
  for v in "${variants[@]}"; do
    nc_samples[$v]+=" $(build "$v")"
    sed -i "s|/// A label of 55.*|/// A label of 55, edit $i.|" "$(touch_file "$v")"
    t_samples[$v]+=" $(build "$v")"
    r_samples[$v]+=" $(script_runs "bench-")"
  done
done
for v in "${variants[@]}"; do
  # shellcheck disable=SC2086
  nochange[$v]=$(median ${nc_samples[$v]})
  # shellcheck disable=SC2086
  touch[$v]=$(median ${t_samples[$v]})
  # shellcheck disable=SC2086
  touch_run[$v]=$(median ${r_samples[$v]})
done
for f in "$work/local/tools/tool_55.json" "$work/shared/tools/tools/tool_55.json"; do
  grep -q "A label of 55, edit $runs." "$f" && echo "(${f#"$work"/}: follows the edit)"
done
echo
echo "| step | before (local types) | local types | shared types crate | local / before | shared / before |"
echo "|---|---:|---:|---:|---:|---:|"
row() { echo "| $1 | $2 | $3 | $4 | $(ratio "$3" "$2") | $(ratio "$4" "$2") |"; }
row "first build, wall (s)" "${clean[before]}" "${clean[local]}" "${clean[shared]}"
row "first build, build scripts' run (s)" "${clean_runs[before]}" "${clean_runs[local]}" "${clean_runs[shared]}"
row "no-change rebuild, wall (s)" "${nochange[before]}" "${nochange[local]}" "${nochange[shared]}"
row "touch rebuild, wall (s)" "${touch[before]}" "${touch[local]}" "${touch[shared]}"
row "touch rebuild, build scripts' run (s)" "${touch_run[before]}" "${touch_run[local]}" "${touch_run[shared]}"
[ -n "${KEEP:-}" ] || rm -rf "$work"
