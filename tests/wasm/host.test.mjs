// The example packages as WASM modules in Node's WebAssembly: `scripts/wasm.sh` builds
// them (release) and runs this file with `node --test`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { host } from './host.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = process.env.NEURALIS_WASM_DIR
  ?? path.join(root, 'target/wasm32-unknown-unknown/wasm-release');
const bytes = (pkg) => fs.readFileSync(path.join(dir, `neuralis_example_${pkg}.wasm`));
const session = { userId: 'user-1' };
const text = (response) => response.model.content[0].text;

// The raw ABI, for what the host hides: one instance, no restart after a trap.
async function raw(pkg) {
  let exports;
  const { instance } = await WebAssembly.instantiate(bytes(pkg), { neuralis: { fill_random(at, len) {
    crypto.getRandomValues(new Uint8Array(exports.memory.buffer, at, len));
    return 0;
  } } });
  exports = instance.exports;
  const write = (request) => {
    const data = new TextEncoder().encode(typeof request === 'string' ? request : JSON.stringify(request));
    const at = exports.neuralis_reserve(data.length) >>> 0;
    new Uint8Array(exports.memory.buffer, at, data.length).set(data);
    return data.length;
  };
  const read = () => JSON.parse(new TextDecoder().decode(new Uint8Array(exports.memory.buffer,
    exports.neuralis_output() >>> 0, exports.neuralis_output_len() >>> 0)));
  return { exports, write, read, call: (request) => { exports.neuralis_call(write(request)); return read(); } };
}

describe('catalog', async () => {
  const call = await host(bytes('catalog'));

  test('exports the ABI and imports only the host entropy', () => {
    const module = new WebAssembly.Module(bytes('catalog'));
    const functions = WebAssembly.Module.exports(module).filter((e) => e.kind === 'function').map((e) => e.name);
    for (const name of ['neuralis_abi_version', 'neuralis_reserve', 'neuralis_call', 'neuralis_output', 'neuralis_output_len']) {
      assert.ok(functions.includes(name), `${name} in ${functions}`);
    }
    assert.ok(WebAssembly.Module.exports(module).some((e) => e.name === 'memory' && e.kind === 'memory'));
    assert.deepEqual(WebAssembly.Module.imports(module), [{ module: 'neuralis', name: 'fill_random', kind: 'function' }]);
  });

  test('carries no contract checker: the build script checked the table\'s files', () => {
    // A message only the checker words (`root-closed`, model/src/checker/root.rs): it is in
    // the module when something links the checker in (a file given to the builder by hand).
    const data = Buffer.from(bytes('catalog')).toString('latin1');
    assert.ok(!data.includes('the root must be closed'), 'the run-time checker is linked in');
  });

  test('the catalog is what tools/ beside the module says', () => {
    const toolsDir = path.join(root, 'examples/catalog/tools');
    const files = fs.readdirSync(toolsDir).filter((f) => f.endsWith('.json')).sort();
    const { tools } = call({ op: 'catalog', session });
    assert.deepEqual(tools.map((t) => `${t.name}.json`), files);
    for (const tool of tools) {
      const file = JSON.parse(fs.readFileSync(path.join(toolsDir, `${tool.name}.json`), 'utf8'));
      assert.deepEqual(tool.schema, file, tool.name);
      assert.deepEqual(tool.meta.annotations, file['x-neuralis'].annotations, tool.name);
    }
  });

  test('a call returns the bounded result, with the defaults filled in', () => {
    const response = call({ name: 'catalog_list', arguments: {}, session });
    const listing = { ok: true, items: [{ id: '1', name: 'Lamp', status: 'active' }] };
    assert.deepEqual(response.ui.structuredContent, listing);
    assert.deepEqual(JSON.parse(text(response)), listing);
    assert.equal(response.model.isError, undefined);
    const all = call({ name: 'catalog_list', arguments: { filter: 'all' }, session });
    assert.equal(all.ui.structuredContent.items.length, 2);
  });

  test('invalid arguments are an isError result with the pointer', () => {
    const response = call({ name: 'catalog_list', arguments: { filter: 'bogus' }, session });
    assert.equal(response.model.isError, true);
    assert.match(text(response), /^invalid arguments for `catalog_list`.*\n- `\/filter`: /s);
    // `catalog_list` is typed (its output derives `ToolOutput`): its `isError` results carry
    // no `structuredContent`, which could not match the output schema; the text has it all.
    assert.equal(response.ui.structuredContent, undefined);
  });

  test('session fields come from the host, never from arguments', () => {
    const response = call({ name: 'catalog_list', arguments: { userId: 'someone-else' }, session });
    assert.equal(response.model.isError, true);
    assert.match(text(response), /\n- `\/userId`: /);
    assert.match(text(response), /verified session/);
  });

  test('an unknown tool gets the generic refusal', () => {
    const response = call({ name: 'catalog_nope', arguments: {}, session });
    assert.deepEqual(response.model, {
      content: [{ type: 'text', text: 'no tool named `catalog_nope` is available' }],
      isError: true,
    });
    assert.deepEqual(response.ui.structuredContent, { ok: false, error: 'unknown-tool' });
  });

  test('approval asks for a sent askOnKeys key', () => {
    assert.deepEqual(call({ op: 'approval', name: 'catalog_edit', arguments: { id: '1', delete: false }, session }),
      { approval: 'ask', reason: 'ask-on-keys', keys: ['delete'] });
    assert.deepEqual(call({ op: 'approval', name: 'catalog_list', arguments: {}, session }),
      { approval: 'floor', category: 'read' });
  });

  test('a request that is not one is an error for the shim', async () => {
    const m = await raw('catalog');
    assert.match(m.call('not json').error, /^malformed request/);
    assert.match(m.call({ name: 'catalog_list' }).error, /missing field `session`/);
    assert.match(m.call({ name: 'catalog_list', session, userId: 'x' }).error, /unknown field `userId`/);
  });

  test('the buffers: oversize reservations and short buffers are refused', async () => {
    const m = await raw('catalog');
    assert.equal(m.exports.neuralis_abi_version(), 1);
    assert.equal(m.exports.neuralis_reserve(16 * 1024 * 1024 + 1), 0);
    assert.notEqual(m.exports.neuralis_reserve(16 * 1024 * 1024), 0);
    const len = m.write({ name: 'catalog_list', arguments: {}, session });
    m.exports.neuralis_call(len + 1);
    assert.match(m.read().error, /the buffer holds/);
    const at = m.exports.neuralis_reserve(3) >>> 0;
    new Uint8Array(m.exports.memory.buffer, at, 3).set([0x22, 0xff, 0x22]);
    m.exports.neuralis_call(3);
    assert.match(m.read().error, /not UTF-8 at byte 1/);
  });
});

describe('probe', async () => {
  const call = await host(bytes('probe'));

  test('a tool not granted is refused like an unknown one, and is not listed', () => {
    const gated = call({ name: 'probe_gated', arguments: {}, session });
    const unknown = call({ name: 'probe_other', arguments: {}, session });
    assert.equal(text(gated), 'no tool named `probe_gated` is available');
    assert.equal(JSON.stringify(gated).replaceAll('probe_gated', 'probe_other'), JSON.stringify(unknown));
    const names = (s) => call({ op: 'catalog', session: s }).tools.map((t) => t.name);
    assert.ok(!names(session).includes('probe_gated'));
    const granted = { ...session, grantedFeatures: ['probe.secret'] };
    assert.ok(names(granted).includes('probe_gated'));
    assert.equal(text(call({ name: 'probe_gated', arguments: {}, session: granted })), 'granted');
  });

  test('a 10 MB result comes back bounded', () => {
    const response = call({ name: 'probe_big', arguments: {}, session });
    assert.ok(JSON.stringify(response).length < 200_000, `${JSON.stringify(response).length} characters`);
    const clipped = text(response);
    assert.ok(clipped.length <= 32_000, `${clipped.length}`);
    assert.match(clipped, /^x+… \[truncated: 10485760 → \d+ characters\]$/);
    assert.ok(response.ui._meta.neuralis.bound, JSON.stringify(response.ui._meta));
  });

  test('an async handler runs to completion on the executor, with the host session', () => {
    const response = call({ name: 'probe_whoami', arguments: {}, session: { userId: 'user-7', grantedFeatures: ['probe.secret'] } });
    assert.deepEqual(response.ui.structuredContent, { ok: true, userId: 'user-7', secret: true, polls: 4 });
  });

  test('a handler that waits on nothing the module can drive is an isError result', () => {
    const response = call({ name: 'probe_stuck', arguments: {}, session });
    assert.equal(response.model.isError, true);
    assert.match(text(response), /waiting on something this host cannot drive/);
  });

  test('a handler panic is an isError result, and the host goes on', () => {
    const response = call({ name: 'probe_panic', arguments: { message: 'boom' }, session });
    assert.equal(response.model.isError, true);
    assert.match(text(response), /internal error \(a bug in the tool, not in the arguments\)/);
    assert.ok(!JSON.stringify(response.model).includes('boom'));
    assert.equal(response.ui._meta.neuralis.panic, 'probe panic: boom');
    assert.deepEqual(response.ui.structuredContent, { ok: false, error: 'internal' });
    const next = call({ name: 'probe_whoami', arguments: {}, session });
    assert.equal(next.ui.structuredContent.userId, 'user-1');
  });

  test('the module traps on a panic, and a trapped instance refuses to go on', async () => {
    const m = await raw('probe');
    const len = m.write({ name: 'probe_panic', arguments: { message: 'boom' }, session });
    assert.throws(() => m.exports.neuralis_call(len), WebAssembly.RuntimeError);
    assert.equal(m.read().ui._meta.neuralis.panic, 'probe panic: boom');
    assert.match(m.call({ name: 'probe_whoami', arguments: {}, session }).error, /instantiate the module again/);
  });
});

test('docs/wasm.md shows the host this test runs', () => {
  const doc = fs.readFileSync(path.join(root, 'docs/wasm.md'), 'utf8');
  const block = /```js\n([\s\S]*?)```/.exec(doc);
  assert.ok(block, 'a ```js block in docs/wasm.md');
  assert.equal(block[1], fs.readFileSync(path.join(root, 'tests/wasm/host.mjs'), 'utf8'));
});
