#!/usr/bin/env bash
# Every test of the workspace: unit, integration, doc and UI tests, the example packages
# as WASM modules in Node (scripts/wasm.sh), and the MCP conformance suite (real
# clients; installed by tests/conformance/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --all-targets
cargo test --workspace --doc
# `ToolInput` for well-known crates' types, behind features.
cargo test --test formats --features uuid,chrono,url,time
# neuralis-core alone, without the `jsonschema` feature the workspace turns on for the CLI
# and neuralis-mcp: a schema outside the built-in validator's subset is refused at build.
cargo test -p neuralis-core --test validator_build --test dispatch --test output_schema
# MCP over streamable HTTP, behind `neuralis-mcp`'s features `http` and `jwt` (and a package
# composed with an rmcp handler over it, and calls that ask over stateless HTTP).
cargo test -p neuralis-mcp --features jwt --test http --test headers --test compose --test ask --test listen --test server_card
cargo test -p neuralis-mcp --features introspection,rate-limit,cors --doc
# What a hosted service tells the operator (spans, events), its refusals, the rate limit.
cargo test -p neuralis-mcp --features rate-limit --test trace
# An imported tool outside the built-in validator's subset, with the general validator
# (`neuralis-mcp`'s feature `jsonschema`); the workspace run above has it through the CLI.
cargo test -p neuralis-mcp --features jsonschema --test import
# Bearer JWTs from a real OpenID provider (oidc-provider, `npm ci --prefix mcp/tests/oidc`),
# and the audience every token must name (JWTs and introspection answers).
cargo test -p neuralis-mcp --features introspection --test oidc --test audience
# The catalog and probe packages built to `.wasm` (release) and run in Node.
./scripts/wasm.sh
# Real MCP clients against every example package (skipped, unless CI is set, when
# tests/conformance/setup.sh has not installed them).
tests/conformance/run.sh
