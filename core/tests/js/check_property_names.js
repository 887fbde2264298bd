// Validates keys against a schema with ajv (draft-07, ECMA-262 regular expressions).
// Input on stdin: {"schema": <schema of one object>, "keys": ["k", ...]}.
// Output on stdout: [["k", valid, validWithoutU], ...]: whether an object with that one key
// is valid, with ajv's default `u` flag on patterns and without it (arrays, not an object,
// so that `__proto__` survives as data).
"use strict";
const Ajv = require("ajv").default;

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { schema, keys } = JSON.parse(input);
  const validate = new Ajv({ strict: false }).compile(schema);
  const validateNoU = new Ajv({ strict: false, unicodeRegExp: false }).compile(schema);
  const out = [];
  for (const key of keys) {
    // Built by JSON.parse, as a platform receives arguments: `__proto__` is an own key.
    const parsed = JSON.parse(JSON.stringify({ [key]: 1 }));
    if (!Object.prototype.hasOwnProperty.call(parsed, key)) throw new Error(`lost key ${key}`);
    out.push([key, validate(parsed), validateNoU(parsed)]);
  }
  process.stdout.write(JSON.stringify(out));
});
