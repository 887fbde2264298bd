#!/usr/bin/env bash
# A hosted server under abuse, with its default limits and with every limit off, in one
# run (tests/conformance/soak.py: 32 workers' 3,000 calls while 2,000 idle and 300
# slowloris connections and 3,000 legacy-session `initialize`s arrive). Prints a Markdown
# table: calls, failures, p99, peak memory, what the session flood added and per session,
# and how many abusive connections the server closed (and when the last one went).
#
#   benches/abuse.sh            # needs tests/conformance/setup.sh (the mcp2 virtualenv)
set -euo pipefail
cd "$(dirname "$0")/.."
python="$PWD/target/conformance/mcp2/bin/python"
[ -x "$python" ] || { echo "run tests/conformance/setup.sh first" >&2; exit 2; }
cargo build -q -p neuralis-example-serve
bin="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug"
out="$(mktemp -d)"
(cd tests/conformance && "$python" soak.py --bin "$bin" --json "$out/on.json" >/dev/null) || true
(cd tests/conformance && "$python" soak.py --bin "$bin" --json "$out/off.json" --limits-off >/dev/null)
python3 - "$out" <<'PY'
import json, os, sys
d = sys.argv[1]
rows = [("default limits", json.load(open(os.path.join(d, "on.json")))),
        ("limits off", json.load(open(os.path.join(d, "off.json"))))]
print("| server | calls (failed) | p99 baseline | p99 under abuse | peak before the flood | after | added | sessions opened | per session | abusive connections closed by the server | last closed |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name, f in rows:
    added = f["peak_mb_after_flood"] - f["peak_mb_before_flood"]
    opened = f["sessions"].get("200", 0)
    per = f"{added * 1024 / opened:.0f} KB" if opened else "-"
    print(f"| {name} | {f['calls']} ({f['failed']}) | {f['p99_ms_baseline']} ms | {f['p99_ms_under_abuse']} ms | "
          f"{f['peak_mb_before_flood']} MB | {f['peak_mb_after_flood']} MB | {added:.1f} MB | {opened} | {per} | "
          f"{f['closed_by_server']} / {f['abusive_connections']} | {f['closed_last_s']} s |")
PY
rm -rf "$out"
