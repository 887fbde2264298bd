#!/usr/bin/env bash
# One call through the pipeline, in instructions: core's `dispatch` bench run without
# criterion (`NEURALIS_BENCH_COUNT`) under valgrind, each scenario at each argument size,
# as ratios of the baseline `parse_and_validate` and of the hand-written `floor` (see
# core/benches/dispatch.rs). Instruction counts do not move with the load of a shared
# machine, as the criterion times do; they count work, not cache misses or stalls.
# Per call = (the count with CALLS calls - the count with none) / CALLS.
#
#   benches/dispatch_count.sh [CALLS]      (default 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
calls="${1:-2000}"
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
bin=$(cargo bench -p neuralis-core --bench dispatch --no-run --message-format=json 2>/dev/null \
  | jq -r 'select(.executable != null and .target.name == "dispatch") | .executable' | tail -1)
ir() { # size scenario calls -> instructions
  NEURALIS_BENCH_COUNT="$1:$2:$3" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$bin" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
scenarios=(pipeline pipeline_text floor parse_and_validate)
echo "| arguments | $(printf '%s | ' "${scenarios[@]}")pipeline / baseline | pipeline_text / baseline | pipeline / floor | pipeline_text / floor |"
echo "|---|$(printf -- '---:|%.0s' "${scenarios[@]}")---:|---:|---:|---:|"
for size in 0 1 2; do
  declare -A per=()
  for s in "${scenarios[@]}"; do
    zero=$(ir "$size" "$s" 0); many=$(ir "$size" "$s" "$calls")
    per[$s]=$(( (many - zero) / calls ))
  done
  label=("65 B" "197 B" "1,320 B")
  ratio() { python3 -c "print(f'{$1 / $2:.2f}x')"; }
  echo "| ${label[$size]} | $(for s in "${scenarios[@]}"; do printf '%s | ' "${per[$s]}"; done)$(ratio "${per[pipeline]}" "${per[parse_and_validate]}") | $(ratio "${per[pipeline_text]}" "${per[parse_and_validate]}") | $(ratio "${per[pipeline]}" "${per[floor]}") | $(ratio "${per[pipeline_text]}" "${per[floor]}") |"
  unset per
done
