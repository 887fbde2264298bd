// What `scripts/wasm.sh` prints after the host test: the catalog module's size (raw and
// gzipped) and its cold start in Node, compile + instantiate + the first call (the
// package is built then), the median of 5 fresh starts. A measurement, not a test.
// `node benches/wasm_cold.mjs path/to/neuralis_example_catalog.wasm`
import fs from 'node:fs';
import zlib from 'node:zlib';
import { host } from '../tests/wasm/host.mjs';

const bytes = fs.readFileSync(process.argv[2]);
const request = { name: 'catalog_list', arguments: {}, session: { userId: 'user-1' } };
const starts = [];
for (let i = 0; i < 5; i++) {
  const start = process.hrtime.bigint();
  const call = await host(bytes);
  const first = call(request);
  starts.push(Number(process.hrtime.bigint() - start) / 1e6);
  if (first.ui?.structuredContent?.ok !== true) throw new Error(JSON.stringify(first));
}
starts.sort((a, b) => a - b);
const gz = zlib.gzipSync(bytes, { level: 9 }).length;
console.log(`catalog module: ${bytes.length} bytes (${gz} gzipped); cold start (compile, instantiate, first call): ${starts[2].toFixed(1)} ms median of 5`);
