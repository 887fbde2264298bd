#!/usr/bin/env bash
# Bounding 1, 10 and 50 MB results through `bound_result_owned` (the dispatch funnel's
# path) as ratios of `serde_json::to_vec` of the same value, measured in the same run:
# `bound_owned_half` (structuredContent cut to half its size, issue 19's target <= 1.5x)
# and `bound_owned_fits` (caps above the result: one read-only pass), plus the borrowed
# `bound_half` for reference. Each round runs core's criterion bench `bound` once and
# reads criterion's median estimates; the last lines are the medians over the rounds.
#
#   benches/bound_ratios.sh [ROUNDS] [BASELINE_BENCH_BINARY]     (default 3)
#
# With a second argument (a `bound` bench binary built from another commit, for example
# copied from target/release/deps/bound-* before a change), every round runs it right
# after this tree's binary, so both are measured under the same load.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"; baseline="${2:-}"
filter='bound_(1|10|50)MB/(to_vec/|bound_owned_half|bound_owned_fits|bound_half/)'
args=(--warm-up-time 1 --measurement-time 5 --sample-size 10)
bin=$(cargo bench -p neuralis-core --bench bound --no-run --message-format=json 2>/dev/null \
  | jq -r 'select(.executable != null and .target.name == "bound") | .executable' | tail -1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
est() { jq '.median.point_estimate' "$1"/bound_"$2"MB/"$3"/*/new/estimates.json; }

run() { # name binary round
  local home="$work/$1"
  CRITERION_HOME="$home" "$2" --bench "$filter" "${args[@]}" >"$work/$1.log" 2>&1
  for mb in 1 10 50; do
    local base; base=$(est "$home" "$mb" to_vec)
    for id in bound_owned_half bound_owned_fits bound_half; do
      local t; t=$(est "$home" "$mb" "$id")
      echo "$1 $mb $id $(jq -n "$t / $base") $base $t" >>"$work/ratios"
    done
  done
  rm -rf "$home"
}

for r in $(seq "$rounds"); do
  run this "$bin"
  [ -n "$baseline" ] && run baseline "$baseline"
  echo "round $r:"; awk -v r="$r" 'NR > (r-1)*n' n=$([ -n "$baseline" ] && echo 18 || echo 9) "$work/ratios" \
    | awk '{printf "  %-8s %2s MB %-17s %5.2fx  (to_vec %.1f ms, %.1f ms)\n", $1, $2, $3, $4, $5/1e6, $6/1e6}'
done
echo "medians over $rounds rounds (ratio to to_vec, same run):"
for name in this baseline; do
  for mb in 1 10 50; do
    for id in bound_owned_half bound_owned_fits bound_half; do
      m=$(awk -v n="$name" -v mb="$mb" -v id="$id" '$1==n && $2==mb && $3==id {print $4}' "$work/ratios" | median)
      [ -n "$m" ] && printf "  %-8s %2s MB %-17s %5.2fx\n" "$name" "$mb" "$id" "$m"
    done
  done
done
