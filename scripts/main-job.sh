#!/usr/bin/env bash
# The main job on the bundled examples: `cargo build` emits every example package's
# tools/ (which must equal the committed files), `neuralis check` checks them under both
# profiles, and each package answers a sample call through the pipeline, printing its
# catalog and the bounded result the model and the card receive.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/examples.sh
echo "== sample calls"
cargo run -q -p neuralis-example-run
echo "== output schemas a built package serves (neuralis outputs, over MCP)"
cargo run -q -p neuralis-cli -- outputs --tool notes_list -- \
  "$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug/neuralis-example-serve" --mcp
