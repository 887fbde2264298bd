#!/usr/bin/env bash
# A call's round trip in Node's WebAssembly against the same call natively, in one run:
# the catalog example built to `.wasm` (profile `wasm-release`) and natively (`cargo
# bench`), `catalog_list {}` timed on both sides, three alternating rounds, medians and
# ratios. Also the module's size, raw, gzipped and (when `wasm-opt` is on the PATH, for
# example from npm's `binaryen`) after `wasm-opt -Oz`. See benches/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${RUSTFLAGS:-}" ]; then
  export RUSTFLAGS="$RUSTFLAGS --cfg getrandom_backend=\"custom\""
fi
cargo rustc -q -p neuralis-example-catalog --profile wasm-release \
  --target wasm32-unknown-unknown --crate-type cdylib
module=target/wasm32-unknown-unknown/wasm-release/neuralis_example_catalog.wasm
cargo bench -q -p neuralis-example-catalog --bench roundtrip --no-run
results=$(mktemp)
for round in 1 2 3; do
  cargo bench -q -p neuralis-example-catalog --bench roundtrip 2>/dev/null | grep '"side"' >>"$results"
  node benches/wasm_roundtrip.mjs "$module" >>"$results"
done
echo "== size"
echo "$module: $(wc -c <"$module") bytes, $(gzip -9 -c "$module" | wc -c) gzipped"
if command -v wasm-opt >/dev/null; then
  wasm-opt -Oz --all-features "$module" -o "$results.opt.wasm"
  echo "after wasm-opt -Oz: $(wc -c <"$results.opt.wasm") bytes, $(gzip -9 -c "$results.opt.wasm" | wc -c) gzipped"
fi
echo "== round trip (median of 3 rounds, each a median of 7 batches of 2000 calls)"
node - "$results" <<'JS'
const lines = require('fs').readFileSync(process.argv[2], 'utf8').trim().split('\n').map(JSON.parse);
const med = (side, key) => {
  const v = lines.filter((l) => l.side === side).map((l) => l[key]).sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)];
};
const native = med('native', 'dispatch_blocking_ns'), nativeJson = med('native', 'call_json_ns');
const host = med('wasm', 'host_ns'), module = med('wasm', 'module_ns');
const us = (ns) => `${(ns / 1000).toFixed(1)} µs`;
console.log(`native Package::dispatch_blocking   ${us(native)}`);
console.log(`native Package::call_json            ${us(nativeJson)}`);
console.log(`wasm: module (reserve, copy, call)   ${us(module)}   ${(module / nativeJson).toFixed(2)}x native call_json`);
console.log(`wasm: host round trip (host.mjs)     ${us(host)}   ${(host / native).toFixed(2)}x native dispatch_blocking`);
console.log(`cold: native build + first call ${us(med('native', 'cold_ns'))}, wasm compile + instantiate + first call ${us(med('wasm', 'cold_ns'))} (compile alone ${us(med('wasm', 'compile_ns'))})`);
JS
rm -f "$results" "$results.opt.wasm"
