# Helpers the bench scripts share (sourced, not run).

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# A snapshot of the toolkit at a revision (default HEAD) in $2, so edits in the work tree
# cannot skew a run.
snapshot() { # root, dir, [rev]
  mkdir -p "$2"
  git -C "$1" archive "${3:-HEAD}" | tar -x -C "$2"
}

# The units of a cargo `--timings` report, one JSON object a line:
# {"name", "version", "mode", "target", "duration"}.
timing_units() { # report
  python3 - "$1" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
start = text.index("const UNIT_DATA = ") + len("const UNIT_DATA = ")
data, _ = json.JSONDecoder().raw_decode(text[start:])
for u in data:
    print(json.dumps({k: u[k] for k in ("name", "version", "mode", "target", "duration")}))
PY
}
