#!/usr/bin/env bash
# The example packages as WASM modules in a real host: build `catalog` and `probe` for
# wasm32-unknown-unknown (profile `wasm-release`: size-optimized, LTO), then run
# tests/wasm/host.test.mjs in Node's built-in WebAssembly. Without node or the target
# this prints `skipped`, and fails when `CI` is set.
set -euo pipefail
cd "$(dirname "$0")/.."

skip() {
  if [ -n "${CI:-}" ]; then
    echo "error: $1 (CI needs it for the WASM host test)" >&2
    exit 1
  fi
  echo "skipped: the WASM host test: $1"
  exit 0
}
command -v node >/dev/null || skip "node is not installed"
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
  && ! timeout 120 rustup target add wasm32-unknown-unknown >/dev/null 2>&1; then
  skip "the wasm32-unknown-unknown target is not installed and could not be added"
fi

# `RUSTFLAGS` replaces the target's rustflags in .cargo/config.toml: keep the host's
# entropy for `getrandom` (docs/wasm.md).
if [ -n "${RUSTFLAGS:-}" ]; then
  export RUSTFLAGS="$RUSTFLAGS --cfg getrandom_backend=\"custom\""
fi
for package in catalog probe; do
  cargo rustc -q -p "neuralis-example-$package" --profile wasm-release \
    --target wasm32-unknown-unknown --crate-type cdylib
done
out=target/wasm32-unknown-unknown/wasm-release
ls -l "$out"/neuralis_example_catalog.wasm "$out"/neuralis_example_probe.wasm
NEURALIS_WASM_DIR="$out" node --test tests/wasm/
# Size and cold start, printed (benches/README.md has the measured history).
node benches/wasm_cold.mjs "$out"/neuralis_example_catalog.wasm
