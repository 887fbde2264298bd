// A host for a neuralis package module (docs/wasm.md): `const call = await host(bytes)`,
// then `call(request)` answers one request object with one response object.
export async function host(bytes) {
  const module = await WebAssembly.compile(bytes);
  const encoder = new TextEncoder(), decoder = new TextDecoder();
  let exports;
  const imports = { neuralis: { fill_random(at, len) {
    for (let i = 0; i < len; i += 65536) // getRandomValues fills at most 64 KiB at a time
      crypto.getRandomValues(new Uint8Array(exports.memory.buffer, at + i, Math.min(65536, len - i)));
    return 0;
  } } };
  const start = () => { exports = new WebAssembly.Instance(module, imports).exports; };
  const output = () => JSON.parse(decoder.decode(new Uint8Array(exports.memory.buffer,
    exports.neuralis_output() >>> 0, exports.neuralis_output_len() >>> 0)));
  start();
  if (exports.neuralis_abi_version() !== 1) throw new Error('not a neuralis ABI 1 module');
  return function call(request) {
    const text = encoder.encode(JSON.stringify(request));
    const at = exports.neuralis_reserve(text.length) >>> 0;
    if (at === 0) throw new Error(`the module cannot take a ${text.length}-byte request`);
    new Uint8Array(exports.memory.buffer, at, text.length).set(text); // after reserve: memory may grow
    try {
      exports.neuralis_call(text.length);
      return output();
    } catch (e) {
      if (!(e instanceof WebAssembly.RuntimeError)) throw e;
      // A trap (a panic aborts): take the answer the module wrote first, then start afresh.
      const answer = exports.neuralis_output_len() ? output() : { error: `the module trapped: ${e.message}` };
      start();
      return answer;
    }
  };
}
