#!/usr/bin/env bash
# The main job on the bundled examples: check every example package's tools/.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet -p neuralis-cli
status=0
for dir in examples/*/tools; do
  echo "== neuralis check $dir"
  ./target/debug/neuralis check "$dir" || status=$?
done
exit "$status"
