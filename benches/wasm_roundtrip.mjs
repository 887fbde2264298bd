// The WASM half of benches/wasm_roundtrip.sh: the catalog module in Node's WebAssembly,
// `catalog_list {}` per call, in nanoseconds, as one JSON line:
// - `host_ns`: the whole round trip of tests/wasm/host.mjs (JSON.stringify, encode, copy
//   into the module, call, decode, JSON.parse);
// - `module_ns`: reserve, copy and `neuralis_call` only (the request encoded once, the
//   response left unread): the module's own work;
// - `cold_ns`: compile, instantiate and the first call (the package is built then), of
//   which `compile_ns` is `WebAssembly.compile` alone.
// `node benches/wasm_roundtrip.mjs path/to/neuralis_example_catalog.wasm`
import fs from 'node:fs';
import { host } from '../tests/wasm/host.mjs';

const bytes = fs.readFileSync(process.argv[2]);
const request = { name: 'catalog_list', arguments: {}, session: { userId: 'user-1' } };

const perCall = (n, batches, f) => {
  const samples = [];
  for (let b = 0; b < batches; b++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) f();
    samples.push(Number(process.hrtime.bigint() - start) / n);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
};

const compileStart = process.hrtime.bigint();
await WebAssembly.compile(bytes);
const compile = Number(process.hrtime.bigint() - compileStart);
const coldStart = process.hrtime.bigint();
const call = await host(bytes);
const first = call(request);
const cold = Number(process.hrtime.bigint() - coldStart);
if (first.ui?.structuredContent?.ok !== true) throw new Error(JSON.stringify(first));

let exports;
const { instance } = await WebAssembly.instantiate(bytes, { neuralis: { fill_random(at, len) {
  crypto.getRandomValues(new Uint8Array(exports.memory.buffer, at, len));
  return 0;
} } });
exports = instance.exports;
const text = new TextEncoder().encode(JSON.stringify(request));
const moduleCall = () => {
  const at = exports.neuralis_reserve(text.length) >>> 0;
  new Uint8Array(exports.memory.buffer, at, text.length).set(text);
  exports.neuralis_call(text.length);
};
moduleCall();

const [n, batches] = [2000, 7];
const hostNs = perCall(n, batches, () => call(request));
const moduleNs = perCall(n, batches, moduleCall);
console.log(JSON.stringify({ side: 'wasm', host_ns: Math.round(hostNs), module_ns: Math.round(moduleNs), cold_ns: cold, compile_ns: compile }));
