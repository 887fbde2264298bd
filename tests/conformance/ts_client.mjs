// Drive one example package with the MCP TypeScript SDK (`@modelcontextprotocol/client`,
// the SDK inside the MCP Inspector) for what the Inspector CLI cannot do in one shot:
// call an unknown tool (the CLI refuses it before asking the server), receive progress
// notifications, cancel a call through an AbortSignal, and call a typed tool after listing
// it (the SDK validates its structuredContent against the outputSchema it listed).
//
//   node ts_client.mjs ERA PACKAGE_JSON COMMAND [ARG...]
//
// ERA is `legacy` (initialize) or `auto` (server/discover, 2026-07-28). Prints one JSON
// object with what the SDK saw; python's inspector_client.py checks it and the raw wire.

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [era, packageJson, command, ...args] = process.argv.slice(2);
const pkg = JSON.parse(packageJson);
const client = new Client(
  { name: "neuralis-conformance", version: "0" },
  { versionNegotiation: { mode: era } },
);
await client.connect(new StdioClientTransport({ command, args, stderr: "inherit" }));
const out = { era: client.getNegotiatedProtocolVersion() };

if (pkg.typed) {
  // The SDK keeps the listed outputSchemas and validates a typed tool's structuredContent
  // against its own (callTool throws on a mismatch).
  const listed = await client.listTools();
  const tool = listed.tools.find((t) => t.name === pkg.typed.tool);
  const result = await client.callTool({ name: pkg.typed.tool, arguments: pkg.typed.arguments });
  out.typed = {
    outputSchema: tool?.outputSchema ?? null,
    structuredContent: result.structuredContent ?? null,
    isError: result.isError ?? false,
  };
}

const unknown = await client.callTool({ name: "nope_tool", arguments: {} });
out.unknownTool = { isError: unknown.isError, text: unknown.content?.[0]?.text };

if (pkg.long) {
  if (pkg.long.progress) {
    const seen = [];
    const result = await client.callTool(
      { name: pkg.long.tool, arguments: pkg.long.short },
      { onprogress: (p) => seen.push(p) },
    );
    out.progress = { seen, isError: result.isError ?? false };
  }
  const controller = new AbortController();
  const first = new Promise((resolve) => {
    if (!pkg.long.progress) setTimeout(resolve, 500);
    const call = client.callTool(
      { name: pkg.long.tool, arguments: pkg.long.arguments },
      { signal: controller.signal, onprogress: () => resolve() },
    );
    out.cancel = call.then(
      () => ({ settled: "resolved" }),
      (e) => ({ settled: "rejected", name: e?.name ?? String(e) }),
    );
  });
  await first;
  controller.abort("conformance test");
  out.cancel = await out.cancel;
  // The server is still there.
  const after = await client.callTool({ name: pkg.call.tool, arguments: pkg.call.arguments });
  out.afterCancel = { isError: after.isError ?? false };
}

await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
