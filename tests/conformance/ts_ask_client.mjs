// The plan of ask_client.py with the MCP TypeScript SDK (`@modelcontextprotocol/client`),
// over stdio or streamable HTTP, in its default era (2026-07-28, whose `input_required`
// rounds the SDK fulfils through the same handler) or legacy mode.
//
//   node ts_ask_client.mjs CONFIG_JSON
//
// CONFIG_JSON: {"mode", "target": {"transport": "stdio", "command": [...]} | {"transport":
// "http", "url"}, "answers": ["decline", "accept"] | null (no elicitation capability),
// "write", "delete"}. Prints what the SDK saw, as ask_client.py's Python driver gives it.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const config = JSON.parse(process.argv[2]);
const queue = config.answers ? [...config.answers] : null;
const client = new Client(
  { name: "neuralis-conformance", version: "0" },
  {
    versionNegotiation: { mode: config.mode },
    capabilities: queue ? { elicitation: {} } : {},
  },
);
if (queue) {
  client.setRequestHandler("elicitation/create", async () => {
    const action = queue.shift();
    return action === "accept" ? { action, content: {} } : { action };
  });
}
const { target } = config;
const transport =
  target.transport === "stdio"
    ? new StdioClientTransport({ command: target.command[0], args: target.command.slice(1), stderr: "inherit" })
    : new StreamableHTTPClientTransport(new URL(target.url));
await client.connect(transport);

const view = (r) => ({
  isError: r.isError ?? false,
  structured: r.structuredContent ?? null,
  text: (r.content ?? []).map((b) => b.text ?? "").join(" "),
});
const call = async (name, args) => view(await client.callTool({ name, arguments: args }));
const notes = async () =>
  ((await call("notes_list", {})).structured?.notes ?? []).map((n) => n.key).sort();

const seen = { era: client.getNegotiatedProtocolVersion() };
seen.write = await call("notes_write", config.write);
seen.deletes = [];
for (const _ of config.answers ?? [null]) {
  const deleted = await call("notes_write", config.delete);
  deleted.notes = await notes();
  seen.deletes.push(deleted);
}
await client.close();
console.log(JSON.stringify(seen));
