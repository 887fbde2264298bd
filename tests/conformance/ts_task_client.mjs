// Run examples/conformance's task tools to their end with the MCP tasks extension's own
// client, `@modelcontextprotocol/ext-tasks` (its `createTaskSessionFromClient` over the
// TypeScript SDK's `Client`), over streamable HTTP, in both eras:
//
//   node ts_task_client.mjs URL
//
// - 2026-07-28: the session drives tasks (`io.modelcontextprotocol/tasks`): a task that
//   completes (with its `working` status message seen), one that asks (answered through
//   `tasks/update`), one cancelled (`tasks/cancel`), one whose tool fails (`completed`
//   with `isError`), and a required-task tool whose question comes before its task.
//   ext-tasks sends a 2026-07-28 task's requests through a dispatcher the host gives it
//   (`rawDispatch`, with the request's `_meta` framing): here one `fetch` per request,
//   reading a JSON or an SSE answer, as its README says to.
// - 2025-11-25: no task generation the package speaks is declared there (ours rides the
//   extension; ext-tasks reads a legacy server's `capabilities.tasks`), so an optional
//   task tool runs within its request and a required one is refused with -32021.
//
// Prints one line per check (`ok ...` or `FAIL ...`) and exits 1 on a failure.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  JsonRpcResponseError,
  createTaskSessionFromClient,
  resultFromTaskOutcome,
} from "@modelcontextprotocol/ext-tasks/client";

const url = new URL(process.argv[2]);
const clientInfo = { name: "neuralis-ext-tasks", version: "0" };
const clientCapabilities = { elicitation: { form: {} } };
let failed = 0;

function check(name, ok, detail) {
  if (ok) {
    console.log(`ok   ext-tasks · ${name}`);
  } else {
    failed += 1;
    console.log(`FAIL ext-tasks · ${name}: ${JSON.stringify(detail)}`.slice(0, 2000));
  }
}

const text = (result) => (result?.content ?? []).map((b) => b.text ?? "").join(" ");

// One JSON-RPC request, POSTed as a 2026-07-28 client sends it; the answer from a JSON
// body or from the SSE stream's message with the request's id.
let nextId = 1;
async function rawDispatch(request, options = {}) {
  const message = { jsonrpc: "2.0", id: nextId++, ...request };
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": message.method,
    ...(options.context?.headers ?? {}),
  };
  if (message.method === "tools/call") headers["mcp-name"] = message.params.name;
  const response = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify(message),
    signal: options.signal,
  });
  const body = await response.text();
  let answer;
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    for (const event of body.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trimStart())
        .join("\n");
      if (!data) continue;
      const parsed = JSON.parse(data);
      if (parsed.id === message.id) answer = parsed;
    }
  } else if (body) {
    answer = JSON.parse(body);
  }
  if (!answer) throw new Error(`no answer to ${message.method} (HTTP ${response.status}): ${body.slice(0, 300)}`);
  return answer.error ? { kind: "error", error: answer.error } : { kind: "result", result: answer.result };
}

async function connect(mode) {
  const client = new Client(clientInfo, {
    versionNegotiation: { mode },
    capabilities: clientCapabilities,
  });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

// Settles an execution, keeping the statuses it went through.
async function settle(execution) {
  const statuses = [];
  const { outcome } = await execution.settle({
    onEvent: (event) => {
      if (event.type === "task") statuses.push([event.task.status, event.task.statusMessage ?? null]);
    },
  });
  return { outcome, statuses };
}

// The modern era: tasks through the extension.
{
  const client = await connect("auto");
  const era = client.getNegotiatedProtocolVersion();
  check("2026-07-28 negotiated", era === "2026-07-28", era);
  const asked = [];
  const session = createTaskSessionFromClient(client, {
    endpointId: "neuralis-conformance",
    rawDispatch,
    v2RequestFraming: { protocolVersion: "2026-07-28", clientInfo, clientCapabilities },
    onInputRequest: async (request) => {
      asked.push(request);
      if (request.kind !== "elicitation") throw new Error(`unexpected ${request.kind}`);
      const properties = request.params.requestedSchema?.properties ?? {};
      if ("confirm" in properties && !("name" in properties)) {
        return { action: "accept", content: { confirm: true } };
      }
      return { action: "accept", content: { name: "Ada", confirm: true } };
    },
  });
  try {
    // A task that completes: created, working with the handler's progress message, done.
    {
      const execution = await session.callTool(
        "slow_compute",
        { seconds: 3, label: "ledger" },
        { task: { preference: "require" } },
      );
      const { outcome, statuses } = await settle(execution);
      const result = outcome.status === "completed" ? resultFromTaskOutcome(outcome) : null;
      check(
        "slow_compute runs as a task to completion",
        execution.kind === "task" &&
          outcome.status === "completed" &&
          text(result) === "computed `ledger` in 3 seconds" &&
          !result.isError,
        { kind: execution.kind, outcome },
      );
      check(
        "slow_compute's progress is its working status message, gone once it ends",
        statuses.some(([s, m]) => s === "working" && m === "computing") &&
          statuses.every(([s, m]) => s === "working" || m === null),
        statuses,
      );
    }
    // A task that asks: input_required until the answer comes through tasks/update.
    {
      const before = asked.length;
      const execution = await session.callTool("confirm_delete", { filename: "notes.txt" }, {
        task: { preference: "require" },
      });
      const { outcome } = await settle(execution);
      const result = outcome.status === "completed" ? resultFromTaskOutcome(outcome) : null;
      check(
        "confirm_delete's question answered through the task",
        execution.kind === "task" && text(result) === "deleted notes.txt" && asked.length === before + 1,
        { kind: execution.kind, outcome, asked: asked.slice(before) },
      );
    }
    // Two questions at once, both answered.
    {
      const execution = await session.callTool("multi_input", {}, { task: { preference: "require" } });
      const { outcome } = await settle(execution);
      const result = outcome.status === "completed" ? resultFromTaskOutcome(outcome) : null;
      check("multi_input's two questions answered", text(result) === "Ada then Ada", outcome);
    }
    // A task cancelled while it works.
    {
      const execution = await session.callTool("slow_compute", { seconds: 60, label: "long" }, {
        task: { preference: "require" },
      });
      const settling = settle(execution);
      await new Promise((r) => setTimeout(r, 300));
      await execution.cancel();
      const { outcome } = await settling;
      check("slow_compute cancelled through tasks/cancel", outcome.status === "cancelled", outcome);
    }
    // A tool's own error: the task completes, with isError.
    {
      const execution = await session.callTool("failing_job", {});
      const { outcome } = await settle(execution);
      const result = outcome.status === "completed" ? outcome.result : null;
      check(
        "failing_job's task completes with isError",
        execution.kind === "task" && result?.isError === true && /the job failed/.test(text(result)),
        outcome,
      );
    }
    // A protocol error: the task fails.
    {
      const execution = await session.callTool("protocol_error_job", {}, { task: { preference: "require" } });
      const { outcome } = await settle(execution);
      check("protocol_error_job's task fails", outcome.status === "failed", outcome);
    }
    // A required task whose question comes within the request, before the task.
    {
      const before = asked.length;
      const execution = await session.callTool("test_tool_with_task", {});
      const { outcome } = await settle(execution);
      const result = outcome.status === "completed" ? resultFromTaskOutcome(outcome) : null;
      check(
        "test_tool_with_task asks within the request, then runs as a task",
        execution.kind === "task" && /^Hello, Ada!/.test(text(result)) && asked.length === before + 1,
        { kind: execution.kind, outcome },
      );
    }
  } finally {
    await session.close();
    await client.close();
  }
}

// The legacy era: no task generation ext-tasks reads, so calls run within the request.
{
  const client = await connect("legacy");
  const era = client.getNegotiatedProtocolVersion();
  check("2025-11-25 negotiated", era === "2025-11-25", era);
  const session = createTaskSessionFromClient(client, { endpointId: "neuralis-conformance-legacy" });
  try {
    const execution = await session.callTool("slow_compute", { seconds: 0, label: "inline" });
    const { outcome } = await execution.settle();
    check(
      "2025-11-25: slow_compute runs within its request",
      execution.kind === "immediate" && text(outcome.result) === "computed `inline` in 0 seconds",
      { kind: execution.kind, outcome },
    );
    let refused;
    try {
      await session.callTool("failing_job", {});
    } catch (e) {
      refused = e;
    }
    check(
      "2025-11-25: failing_job (task required) refused with -32021",
      refused instanceof JsonRpcResponseError && refused.code === -32021,
      { refused: String(refused), code: refused?.code },
    );
  } finally {
    await session.close();
    await client.close();
  }
}

process.exit(failed ? 1 : 0);
