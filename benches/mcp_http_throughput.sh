#!/usr/bin/env bash
# Calls per second and p50/p99 latency over streamable HTTP, 64 concurrent clients each on
# one keep-alive connection, for a trivial tool: a neuralis package served by
# `neuralis-mcp` (single identity; hosted: every request's caller resolved from its
# bearer token; hosted-jwks-traced: from an RS256 bearer JWT verified with a key set
# fetched over HTTP, `JwtResolver::jwks`, with the tracing spans and events formatted at
# INFO) against a server written with rmcp's own `#[tool_router]`, both on rmcp's
# streamable HTTP service under the same axum stack, stateless (2026-07-28), measured in
# the same run, alternating round by round. Release builds. The clients run on the same
# machine as the server: the figures are for comparison, not capacity.
#
#   benches/mcp_http_throughput.sh [SECONDS] [CLIENTS] [ROUNDS]     (default 5 64 5)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-5}"; clients="${2:-64}"; rounds="${3:-5}"
target="$PWD/target/bench-mcp"
cargo build -q --release --manifest-path benches/mcp-throughput/Cargo.toml --target-dir "$target"
bin="$target/release"
"$bin/http_drive" "$seconds" "$clients" "$rounds" -- \
  "rmcp=$bin/rmcp" "neuralis=$bin/ours" "neuralis-hosted=$bin/ours --hosted+token" \
  "hosted-jwks-traced=$bin/ours --hosted-jwks+jwt"
