#!/usr/bin/env bash
# Every test of the workspace: unit, integration, doc and UI tests, and the MCP
# conformance suite (real clients; installed by tests/conformance/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --all-targets
cargo test --workspace --doc
# `ToolInput` for well-known crates' types, behind features.
cargo test --test formats --features uuid,chrono,url,time
# MCP over streamable HTTP, behind `neuralis-mcp`'s feature `http`.
cargo test -p neuralis-mcp --features http --test http
# Real MCP clients against every example package (skipped, unless CI is set, when
# tests/conformance/setup.sh has not installed them).
tests/conformance/run.sh
