#!/usr/bin/env bash
# One of core's criterion benches, in rounds, as ratios of a baseline measured in the same
# run: every function of every group matched by FILTER, divided by the group's BASELINE
# function (criterion's median estimates). Each round runs the bench once; the last table
# gives the median ratio over the rounds, and the median times.
#
#   benches/ratios.sh BENCH FILTER BASELINE [ROUNDS] [CRITERION ARGS...]
#
#   benches/ratios.sh load_package 'load_' parse_keep_all 3
#   benches/ratios.sh dispatch 'dispatch_' baseline 5
#
# BASELINE may be several ids separated by commas (each gets its own ratio column).
# The load average at the start of each round is printed: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
bench="$1"; filter="$2"; baselines="$3"; rounds="${4:-3}"; shift $(( $# < 4 ? $# : 4 ))
# Extra arguments replace the default timing.
args=(--warm-up-time 1 --measurement-time 3)
[ $# -gt 0 ] && args=("$@")
bin=$(cargo bench -p neuralis-core --bench "$bench" --no-run --message-format=json 2>/dev/null \
  | jq -r --arg b "$bench" 'select(.executable != null and .target.name == $b) | .executable' | tail -1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for r in $(seq "$rounds"); do
  echo "round $r, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  CRITERION_HOME="$work/c$r" "$bin" --bench "$filter" "${args[@]}" >"$work/round$r.log" 2>&1 \
    || { tail -20 "$work/round$r.log"; exit 1; }
done

python3 - "$work" "$rounds" "$baselines" <<'PY'
import json, os, statistics, sys
work, rounds, baselines = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")
times = {}  # (group, function) -> [ns per round]
for r in range(1, rounds + 1):
    home = os.path.join(work, f"c{r}")
    for group in sorted(os.listdir(home)):
        if group == "report":
            continue
        for dirpath, _, files in os.walk(os.path.join(home, group)):
            if dirpath.endswith("/new") and "estimates.json" in files:
                function = os.path.relpath(os.path.dirname(dirpath), os.path.join(home, group))
                with open(os.path.join(dirpath, "estimates.json")) as f:
                    ns = json.load(f)["median"]["point_estimate"]
                times.setdefault((group, function), []).append(ns)

def show(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"

groups = sorted({g for g, _ in times}, key=lambda g: [int(t) if t.isdigit() else t for t in g.replace("_", " ").split()])
head = "| group | function | median time | " + " | ".join(f"/ {b}" for b in baselines) + " |"
print(head)
print("|" + "---|" * (3 + len(baselines)))
for group in groups:
    for (g, function), ns in sorted(times.items()):
        if g != group:
            continue
        cells = []
        for b in baselines:
            base = times.get((group, b))
            if not base or len(base) != len(ns):
                cells.append("")
                continue
            ratios = [t / s for t, s in zip(ns, base)]
            cells.append(f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})")
        print(f"| {group} | {function} | {show(statistics.median(ns))} | " + " | ".join(cells) + " |")
PY
