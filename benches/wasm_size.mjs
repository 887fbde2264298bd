// What takes the room in a WASM module: section sizes, then (when the module keeps its
// `name` section, as a build with `strip = false` does) code bytes per crate and the
// largest functions. `node benches/wasm_size.mjs module.wasm [top]`.
import fs from 'node:fs';

const bytes = fs.readFileSync(process.argv[2]);
const top = Number(process.argv[3] ?? 15);
let pos = 8;
const leb = () => {
  let result = 0, shift = 0, b;
  do { b = bytes[pos++]; result += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
  return result;
};
const names = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export',
  'start', 'element', 'code', 'data', 'data count', 'tag'];
const sections = [];
let imported = 0, bodies = [], fnNames = new Map();
while (pos < bytes.length) {
  const id = bytes[pos++], size = leb(), start = pos;
  let name = names[id] ?? `id ${id}`;
  if (id === 0) {
    const n = leb();
    name = `custom "${bytes.subarray(pos, pos + n).toString()}"`;
    pos += n;
    if (name === 'custom "name"') {
      while (pos < start + size) {
        const sub = bytes[pos++], subSize = leb(), subEnd = pos + subSize;
        if (sub === 1) {
          for (let count = leb(); count > 0; count--) {
            const index = leb(), len = leb();
            fnNames.set(index, bytes.subarray(pos, pos + len).toString());
            pos += len;
          }
        }
        pos = subEnd;
      }
    }
  } else if (id === 2) {
    for (let count = leb(); count > 0; count--) {
      pos += leb(); pos += leb();
      const kind = bytes[pos++];
      if (kind === 0) { leb(); imported++; } else if (kind === 1) { pos++; const f = leb(); leb(); if (f & 1) leb(); }
      else if (kind === 2) { const f = leb(); leb(); if (f & 1) leb(); } else { pos += 2; }
    }
  } else if (id === 10) {
    for (let count = leb(), i = 0; i < count; i++) {
      const len = leb();
      bodies.push({ index: imported + i, size: len });
      pos += len;
    }
  }
  sections.push({ name, size });
  pos = start + size;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`${process.argv[2]}: ${bytes.length} bytes (${kb(bytes.length)})`);
for (const s of sections.sort((a, b) => b.size - a.size)) {
  console.log(`  ${s.name.padEnd(28)} ${kb(s.size).padStart(12)}  ${(100 * s.size / bytes.length).toFixed(1)}%`);
}
if (fnNames.size === 0) process.exit(0);
// The crate of a mangled name: legacy `_ZN<len><crate>...` (or the type of an
// `<impl ...>` segment), v0 `_R...C<hash>_<len><crate>`.
const crateOf = (name) => {
  let m = /^_ZN(\d+)/.exec(name);
  if (m) {
    let seg = name.substr(m.index + m[0].length, Number(m[1]));
    const inner = /^_?\$LT\$(?:\$RF\$|\$u5b\$)*([a-z_][a-z0-9_]*)/.exec(seg);
    return inner ? inner[1] : seg;
  }
  m = /C(?:s[0-9a-zA-Z]*_)?(\d+)([a-zA-Z_][a-zA-Z0-9_]*)/.exec(name);
  if (m && name.startsWith('_R')) return m[2].substr(0, Number(m[1]));
  return name.split(/[:.]/)[0] || '?';
};
const perCrate = new Map();
let code = 0;
for (const b of bodies) {
  const c = crateOf(fnNames.get(b.index) ?? '?');
  perCrate.set(c, (perCrate.get(c) ?? 0) + b.size);
  code += b.size;
}
console.log(`\ncode by crate (${kb(code)} of function bodies):`);
for (const [c, size] of [...perCrate].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`  ${c.padEnd(28)} ${kb(size).padStart(12)}  ${(100 * size / code).toFixed(1)}%`);
}
console.log(`\nlargest functions:`);
for (const b of bodies.sort((a, b) => b.size - a.size).slice(0, top)) {
  console.log(`  ${kb(b.size).padStart(10)}  ${(fnNames.get(b.index) ?? '?').slice(0, 110)}`);
}
