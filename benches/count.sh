#!/usr/bin/env bash
# A core bench's scenarios in instructions: the bench binary run without criterion
# (`NEURALIS_BENCH_COUNT=<size>:<scenario>:<runs>`, core/benches/support/count.rs, in
# dispatch.rs and load_package.rs) under valgrind, each scenario at each size, as ratios
# of baselines counted in the same run. Instruction counts do not move with the load of a shared
# machine, as criterion's times do; they count work, not cache misses or stalls.
# Per run = (the count with RUNS runs - the count with none) / RUNS.
#
#   benches/count.sh BENCH RUNS BASELINES "SIZES" "SCENARIOS"
#
#   benches/count.sh dispatch 1000 parse_and_validate,floor "0 1 2" \
#     "pipeline pipeline_text floor parse_and_validate"
#   benches/count.sh load_package 2 parse,parse_keep_all "100 1000" \
#     "load_package_from_sources parse parse_keep_all"
#
# (dispatch sizes 0, 1, 2 are its 65 B, 197 B and 1.3 KB arguments; load_package sizes
# are tool counts.) `FEATURES=jsonschema` builds the bench's package with those features, as
# `neuralis-mcp` builds neuralis-core (the path an MCP call takes); `PACKAGE=neuralis` runs
# a bench of the facade crate (`benches/mcp_path.rs`: macro-built and hand-registered
# tools) instead of neuralis-core's.
set -euo pipefail
cd "$(dirname "$0")/.."
bench="$1"; runs="$2"; IFS=, read -r -a baselines <<<"$3"; read -r -a sizes <<<"$4"
read -r -a scenarios <<<"$5"
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
bin=$(cargo bench -p "${PACKAGE:-neuralis-core}" --bench "$bench" ${FEATURES:+--features "$FEATURES"} --no-run \
  --message-format=json 2>/dev/null \
  | jq -r --arg b "$bench" 'select(.executable != null and .target.name == $b) | .executable' | tail -1)
ir() { # size scenario runs -> instructions
  NEURALIS_BENCH_COUNT="$1:$2:$3" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$bin" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '| size |'; printf ' %s |' "${scenarios[@]}"
for s in "${scenarios[@]}"; do for b in "${baselines[@]}"; do
  [ "$s" != "$b" ] && printf ' %s / %s |' "$s" "$b"; done; done; echo
printf '|---|'; for s in "${scenarios[@]}"; do printf -- '---:|'; done
for s in "${scenarios[@]}"; do for b in "${baselines[@]}"; do
  [ "$s" != "$b" ] && printf -- '---:|'; done; done; echo
for size in "${sizes[@]}"; do
  declare -A per=()
  for s in "${scenarios[@]}"; do
    zero=$(ir "$size" "$s" 0); many=$(ir "$size" "$s" "$runs")
    per[$s]=$(( (many - zero) / runs ))
  done
  printf '| %s |' "$size"; for s in "${scenarios[@]}"; do printf ' %s |' "${per[$s]}"; done
  for s in "${scenarios[@]}"; do for b in "${baselines[@]}"; do
    [ "$s" != "$b" ] && printf ' %s |' "$(python3 -c "print(f'{${per[$s]} / ${per[$b]}:.2f}x')")"
  done; done; echo
  unset per
done
