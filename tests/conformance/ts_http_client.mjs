// Drive the example servers over streamable HTTP with the MCP TypeScript SDK
// (`@modelcontextprotocol/client`, its `StreamableHTTPClientTransport`), for
// http_client.py, which starts the servers and their recording proxies and checks the wire.
//
//   node ts_http_client.mjs CONFIG_JSON
//
// CONFIG_JSON: {"mode": "auto" | "legacy", "urls": {"ada", "bob", "anonymous",
// "conformance"}, "tokens": {"ada", "bob"}, "plan": {...}} (see http_client.py). Prints
// one JSON object with what the SDK saw, in the shape http_client.py's Python driver
// gives.

import { Client, LOG_LEVEL_META_KEY, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const config = JSON.parse(process.argv[2]);
const { plan } = config;
const modern = () => client.getNegotiatedProtocolVersion() === "2026-07-28";
let client;

async function connect(url, token) {
  const c = new Client(
    { name: "neuralis-conformance", version: "0" },
    { versionNegotiation: { mode: config.mode } },
  );
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
}

function view(result) {
  return {
    isError: result.isError ?? false,
    structuredContent: result.structuredContent ?? null,
    text: (result.content ?? []).map((b) => b.text ?? "").join(" "),
  };
}

const call = async (step, options) =>
  view(await client.callTool({ name: step.tool, arguments: step.arguments }, options));
const names = async () => (await client.listTools()).tools.map((t) => t.name).sort();

// The service's run counters, once no rebuild runs any more.
async function runs() {
  let counts;
  for (let i = 0; i < 50; i++) {
    counts = (await call(plan.quick)).structuredContent.runs;
    if (counts.running === 0) return counts;
    await new Promise((r) => setTimeout(r, 100));
  }
  return counts;
}

const seen = {};

client = await connect(config.urls.ada, config.tokens.ada);
seen.era = client.getNegotiatedProtocolVersion();
const ada = (seen.ada = { tools: await names() });
ada.call = await call(plan.call);
const listed = (await client.listTools()).tools.find((t) => t.name === plan.typed.tool);
ada.typed = { ...(await call(plan.typed)), outputSchema: listed?.outputSchema ?? null };
ada.unknownArgument = await call({ ...plan.call, arguments: { ...plan.call.arguments, bogus: 1 } });
ada.unknownTool = await call({ tool: "nope_tool", arguments: {} });
ada.before = await runs();
{
  const controller = new AbortController();
  const pending = client.callTool(
    { name: plan.long.tool, arguments: plan.long.arguments },
    { signal: controller.signal },
  );
  const settled = pending.then(
    () => "resolved",
    (e) => `rejected (${e?.name ?? e})`,
  );
  await new Promise((r) => setTimeout(r, 500));
  controller.abort("conformance test");
  ada.cancel = await settled;
}
ada.after = await runs();
await client.close();

client = await connect(config.urls.bob, config.tokens.bob);
seen.bob = { tools: await names(), gated: await call(plan.gated) };
await client.close();

try {
  client = await connect(config.urls.anonymous, null);
  await names();
  seen.anonymous = { error: null };
  await client.close();
} catch (e) {
  seen.anonymous = { error: `${e?.name ?? "Error"}: ${e?.message ?? e}`.slice(0, 300) };
}

client = await connect(config.urls.conformance, null);
const messages = [];
client.setNotificationHandler("notifications/message", (n) => {
  messages.push({ level: n.params.level, logger: n.params.logger, data: n.params.data });
});
const values = [];
const progressed = await call(
  { tool: "test_tool_with_progress", arguments: {} },
  { onprogress: (p) => values.push(p.progress) },
);
seen.progress = { values, isError: progressed.isError };
let logged;
if (modern()) {
  logged = view(
    await client.callTool({
      name: "test_tool_with_logging",
      arguments: {},
      _meta: { [LOG_LEVEL_META_KEY]: "info" },
    }),
  );
} else {
  await client.setLoggingLevel("info");
  logged = await call({ tool: "test_tool_with_logging", arguments: {} });
}
// Notification handlers run in a microtask after the result settles (see ts_client.mjs),
// and a legacy session's log messages ride its GET stream, which can deliver them after
// the result (see http_client.py): wait for them, up to 2 s.
for (let waited = 0; messages.length < 3 && waited < 2000; waited += 20) {
  await new Promise((r) => setTimeout(r, 20));
}
seen.logging = { messages, isError: logged.isError };
await client.close();

process.stdout.write(JSON.stringify(seen) + "\n");
