#!/usr/bin/env bash
# The example packages: `cargo build` writes their `tools/`, which must be exactly the
# committed files (no change, no new file), and every tools dir passes `neuralis check`.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=()
for dir in examples/*/; do
  packages+=(-p "neuralis-example-$(basename "$dir")")
done
cargo build "${packages[@]}"
if ! git diff --exit-code -- 'examples/*/tools'; then
  echo "examples/*/tools changed in the build: commit what \`cargo build\` wrote" >&2
  exit 1
fi
untracked="$(git ls-files --others --exclude-standard -- 'examples/*/tools')"
if [ -n "$untracked" ]; then
  echo "the build wrote tool files that are not committed:" >&2
  echo "$untracked" >&2
  exit 1
fi
for dir in examples/*/tools; do
  cargo run -q -p neuralis-cli -- check "$dir"
  cargo run -q -p neuralis-cli -- check --profile mcp-remote "$dir" >/dev/null
done
