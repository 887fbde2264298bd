#!/usr/bin/env bash
# Every test of the workspace: unit, integration, doc and UI tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --all-targets
cargo test --workspace --doc
