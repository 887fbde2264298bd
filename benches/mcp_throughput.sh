#!/usr/bin/env bash
# Calls per second over stdio for a trivial tool: a neuralis package served by
# `neuralis-mcp` (the whole pipeline: gate, schema validation, deserialization, handler,
# bounding) against a server written with rmcp's own `#[tool_router]` (deserialization
# only), measured in the same run, alternating round by round. Release builds.
#
#   benches/mcp_throughput.sh [CALLS] [WINDOW] [ROUNDS]     (default 20000 64 5)
set -euo pipefail
cd "$(dirname "$0")/.."
calls="${1:-20000}"; window="${2:-64}"; rounds="${3:-5}"
target="$PWD/target/bench-mcp"
cargo build -q --release --manifest-path benches/mcp-throughput/Cargo.toml --target-dir "$target"
bin="$target/release"
"$bin/drive" "$calls" "$window" "$rounds" -- "rmcp=$bin/rmcp" "neuralis=$bin/ours"
