#!/usr/bin/env bash
# The build script's cost: a 100-tool package built with `neuralis_build::emit()` in its
# build.rs, against the same package without build.rs, in the same run.
#
# Generates two packages with the same 100 tools (10 files of 10 handlers, each with an
# input struct with doc comments, `rename_all`, constraints, an `Option`, a `Vec` of a
# nested struct and an enum): `with` has build.rs and `neuralis::package!()`, `without`
# has neither. For each, from cargo's `--timings` data:
#   clean   a clean build (own target directory): wall time; the units only the `with`
#           package has (neuralis-build and what it alone pulls in, the build script's
#           compile and run) and their share of the build
#   touch   the rebuild after editing one doc comment in one of the ten files (median of
#           three): wall time, the build script's run and the crate's compile
# Builds the committed state (HEAD) of the toolkit, offline, with the workspace's
# Cargo.lock. Usage: benches/build_script.sh [workdir]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-${TMPDIR:-/tmp}/neuralis-build-bench}"
rm -rf "$work"
mkdir -p "$work/neuralis-src"
git -C "$root" archive HEAD | tar -x -C "$work/neuralis-src"
src="$work/neuralis-src"

gen_pkg() { # variant: with | without
  local v="$1" dir="$work/$1"
  mkdir -p "$dir/src"
  local build_dep="" package=""
  if [ "$v" = with ]; then
    build_dep="[build-dependencies]
neuralis-build = { path = \"$src/build\" }"
    package="neuralis::package!();"
    printf 'fn main() {\n    neuralis_build::emit();\n}\n' >"$dir/build.rs"
  fi
  cat >"$dir/Cargo.toml" <<TOML
[package]
name = "bench-$v"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
neuralis = { path = "$src" }
serde = { version = "1", features = ["derive"] }

$build_dep

[workspace]
TOML
  cp "$root/Cargo.lock" "$dir/Cargo.lock"
  : >"$dir/src/lib.rs"
  for f in $(seq 0 9); do
    echo "pub mod m$f;" >>"$dir/src/lib.rs"
    local file="$dir/src/m$f.rs"
    printf 'use neuralis::{ToolInput, tool};\nuse serde::Deserialize;\n' >"$file"
    for s in $(seq 0 9); do
      local n=$((f * 10 + s))
      cat >>"$file" <<RS

/// The kind of tool $n.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind$n {
    /// First.
    Alpha,
    /// Second.
    Beta,
    /// Third.
    Gamma,
}

/// Nested value $n.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Item$n {
    /// A label.
    #[schema(min_length = 1, max_length = 80)]
    pub label_text: String,
    /// A weight.
    #[schema(minimum = 0, maximum = 100)]
    pub weight: Option<u8>,
}

/// The input of tool $n.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "camelCase")]
#[schema(root)]
pub struct Input$n {
    /// What to look for.
    #[schema(min_length = 1, max_length = 200)]
    pub query_text: String,
    /// How many results.
    #[schema(minimum = 1, maximum = 50)]
    pub max_results: Option<u32>,
    /// The items.
    pub items: Vec<Item$n>,
    /// The kind.
    pub kind: Option<Kind$n>,
}

/// Tool number $n: look things up.
#[tool(
    family = "bench",
    operation = "bench.t$n",
    transport = "embedded",
    annotations(title = "Tool $n", read_only, destructive = false, category = "read"),
    ui(presentation = "inline")
)]
pub fn tool_$n(input: Input$n) -> String {
    input.query_text
}
RS
    done
  done
  echo "$package" >>"$dir/src/lib.rs"
}

now() { date +%s.%N; }

# cargo build --timings in $1 with target dir $2; prints the wall time, leaves the
# timing report path in $work/last-report
timed_build() {
  local dir="$1" target="$2" t0 t1
  t0=$(now)
  (cd "$dir" && CARGO_TARGET_DIR="$target" cargo build --offline --quiet --timings 2>/dev/null)
  t1=$(now)
  ls -t "$target"/cargo-timings/cargo-timing-*.html | head -1 >"$work/last-report"
  python3 -c "print(f'{$t1 - $t0:.2f}')"
}

units() { # report -> JSON lines: name mode target features duration
  python3 - "$1" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
start = text.index("const UNIT_DATA = ") + len("const UNIT_DATA = ")
data, _ = json.JSONDecoder().raw_decode(text[start:])
for u in data:
    # The two packages are one crate under two names.
    name = "bench" if u["name"] in ("bench-with", "bench-without") else u["name"]
    print(json.dumps({"key": [name, u["mode"], u["target"], sorted(u["features"])],
                      "name": u["name"], "target": u["target"], "duration": u["duration"]}))
PY
}

gen_pkg with
gen_pkg without

echo "== clean builds (each in its own target directory)"
declare -A clean
for v in without with; do
  clean[$v]=$(timed_build "$work/$v" "$work/target-$v")
  units "$(cat "$work/last-report")" >"$work/units-clean-$v.jsonl"
  echo "$v: ${clean[$v]}s"
done
python3 - "$work" "${clean[with]}" "${clean[without]}" <<'PY'
import json, sys
work, wall_with, wall_without = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
load = lambda v: [json.loads(l) for l in open(f"{work}/units-clean-{v}.jsonl")]
with_u, without_u = load("with"), load("without")
base = {json.dumps(u["key"]) for u in without_u}
extra = [u for u in with_u if json.dumps(u["key"]) not in base]
total_with = sum(u["duration"] for u in with_u)
extra_sum = sum(u["duration"] for u in extra)
run = sum(u["duration"] for u in with_u if u["name"] == "bench-with" and "run" in u["target"])
print(f"units only the build.rs package has: {len(extra)}, {extra_sum:.2f}s of {total_with:.2f}s summed unit time ({100 * extra_sum / total_with:.1f}%)")
for u in sorted(extra, key=lambda u: -u["duration"])[:8]:
    print(f"  {u['name']}{u['target']}: {u['duration']:.2f}s")
print(f"build script run: {run:.2f}s")
print(f"wall: with {wall_with:.2f}s, without {wall_without:.2f}s, difference {wall_with - wall_without:+.2f}s ({100 * (wall_with - wall_without) / wall_with:.1f}% of the build.rs package's clean build)")
print("(wall times of clean builds swing with other load on the machine; the summed unit times above do not depend on scheduling)")
PY

echo "== one-file rebuilds (a doc comment edited in src/m5.rs), median of 3"
for v in without with; do
  : >"$work/touch-$v.txt"
done
for i in 1 2 3; do
  for v in without with; do
    sed -i "s|/// Tool number 55: look things up.*|/// Tool number 55: look things up (edit $i).|" "$work/$v/src/m5.rs"
    wall=$(timed_build "$work/$v" "$work/target-$v")
    report=$(cat "$work/last-report")
    python3 - "$report" "$v" "$wall" >>"$work/touch-$v.txt" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
start = text.index("const UNIT_DATA = ") + len("const UNIT_DATA = ")
data, _ = json.JSONDecoder().raw_decode(text[start:])
name = f"bench-{sys.argv[2]}"
run = sum(u["duration"] for u in data if u["name"] == name and "run" in u["target"])
crate = sum(u["duration"] for u in data if u["name"] == name and u["target"] == "")
print(f"{sys.argv[3]} {run:.2f} {crate:.2f}")
PY
  done
done
for v in without with; do
  sort -n "$work/touch-$v.txt" | sed -n 2p | {
    read -r wall run crate
    echo "$v: wall ${wall}s, build script run ${run}s, crate compile ${crate}s"
  }
done
if [ -f "$work/with/tools/tool_55.json" ]; then
  grep -q "edit 3" "$work/with/tools/tool_55.json" && echo "(tools/tool_55.json follows the edit)"
  echo "tool files: $(ls "$work/with/tools" | wc -l)"
fi
