#!/usr/bin/env bash
# Compile-time cost of `#[derive(ToolInput)]` against schemars' `#[derive(JsonSchema)]`.
#
# Generates two crates with the same 100 input structs (10 files of 10 structs, each
# with doc comments, `rename_all`, an `Option`, a `Vec`, a nested struct and range
# constraints), one deriving `neuralis::ToolInput`, the other `schemars::JsonSchema`, and
# measures in the same run, for each:
#   clean   a clean build of the crate and all its dependencies
#   crate   a build of the crate alone, dependencies already built
#   touch   the rebuild after touching one of the ten files
# Crate and touch builds are repeated RUNS times (default 3), interleaved, and the
# medians kept. Prints the times and the ratios neuralis/schemars. It builds the
# committed state (HEAD) of the toolkit; schemars comes from crates.io.
# Usage: benches/derive_vs_schemars.sh [workdir]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=benches/lib.sh
. "$root/benches/lib.sh"
work="${1:-${TMPDIR:-/tmp}/neuralis-derive-bench}"
rm -rf "$work"
snapshot "$root" "$work/neuralis-src"

gen_crate() { # name, dependency lines, derive path, attribute name, constraint syntax
  local name="$1" deps="$2" derive="$3" attr="$4" range="$5" len="$6"
  local dir="$work/$name"
  mkdir -p "$dir/src"
  cat >"$dir/Cargo.toml" <<TOML
[package]
name = "$name"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
serde = { version = "1", features = ["derive"] }
$deps

[workspace]
TOML
  : >"$dir/src/lib.rs"
  for f in $(seq 0 9); do
    echo "pub mod m$f;" >>"$dir/src/lib.rs"
    local file="$dir/src/m$f.rs"
    echo "use serde::Deserialize;" >"$file"
    for s in $(seq 0 9); do
      local n=$((f * 10 + s))
      cat >>"$file" <<RS

/// Nested value $n.
#[derive($derive, Deserialize)]
pub struct Inner$n {
    /// A label.
    pub label: String,
    pub weight: Option<u32>,
}

/// Input number $n: does one thing with a city.
#[derive($derive, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Input$n {
    /// City name, for example "Lisbon".
    #[$attr($len)]
    pub city_name: String,
    /// Days ahead.
    #[$attr($range)]
    pub days_ahead: Option<u8>,
    /// Tags.
    pub tags: Vec<String>,
    /// Whether to include details.
    pub verbose: bool,
    /// A nested value.
    pub inner: Inner$n,
    /// Extra values.
    pub extra: std::collections::BTreeMap<String, f64>,
}
RS
    done
  done
}

gen_crate bench_neuralis \
  "neuralis = { path = \"$work/neuralis-src\" }" \
  "neuralis::ToolInput" schema "minimum = 1, maximum = 14" "min_length = 1, max_length = 120"
gen_crate bench_schemars \
  'schemars = "1"' \
  "schemars::JsonSchema" schemars "range(min = 1, max = 14)" "length(min = 1, max = 120)"


build() { # crate -> seconds of one `cargo build`
  local dir="$work/$1" t0 t1
  t0=$(now)
  (cd "$dir" && CARGO_TARGET_DIR="$dir/target" cargo build --quiet --offline)
  t1=$(now)
  secs "$t0" "$t1"
}

clean_build() { # crate -> seconds of a clean build, dependencies included
  (cd "$work/$1" && CARGO_TARGET_DIR="$work/$1/target" cargo fetch --quiet)
  build "$1"
}

crate_build() { # crate -> seconds of a build of the crate alone
  (cd "$work/$1" && CARGO_TARGET_DIR="$work/$1/target" cargo clean --quiet -p "$1" --offline)
  build "$1"
}

touch_build() { # crate -> seconds of a rebuild after touching one file
  touch "$work/$1/src/m3.rs"
  build "$1"
}


# The machine may be shared: interleave the two crates and keep the median of `runs`.
runs="${RUNS:-3}"
n_clean=$(clean_build bench_neuralis)
s_clean=$(clean_build bench_schemars)
n_crate=() s_crate=() n_touch=() s_touch=()
for _ in $(seq "$runs"); do
  n_crate+=("$(crate_build bench_neuralis)")
  s_crate+=("$(crate_build bench_schemars)")
  n_touch+=("$(touch_build bench_neuralis)")
  s_touch+=("$(touch_build bench_schemars)")
done
echo "crate runs: neuralis ${n_crate[*]} / schemars ${s_crate[*]}"
echo "touch runs: neuralis ${n_touch[*]} / schemars ${s_touch[*]}"
n_crate=$(median "${n_crate[@]}") s_crate=$(median "${s_crate[@]}")
n_touch=$(median "${n_touch[@]}") s_touch=$(median "${s_touch[@]}")
printf '%-8s %10s %10s %8s\n' step neuralis schemars ratio
printf '%-8s %9ss %9ss %8s\n' clean "$n_clean" "$s_clean" "$(ratio "$n_clean" "$s_clean")"
printf '%-8s %9ss %9ss %8s\n' crate "$n_crate" "$s_crate" "$(ratio "$n_crate" "$s_crate")"
printf '%-8s %9ss %9ss %8s\n' touch "$n_touch" "$s_touch" "$(ratio "$n_touch" "$s_touch")"
