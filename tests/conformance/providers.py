"""What each model provider's own SDK makes of every tool the example packages serve.

Each example package runs as an MCP server over stdio; its `tools/list` is read off the
wire (raw JSON-RPC, no client library in between), and every tool goes through the
functions the providers' SDKs run on an MCP tool (PyPI: `openai`, `openai-agents`,
`anthropic`, `google-genai`):

- google-genai: `_mcp_utils.mcp_to_gemini_tool` (what an MCP session or tool passed in
  `tools=[...]` becomes; it filters the schema, then `types.Schema.from_json_schema`):
  it must not raise, and every integer bound it writes must be exact (a float past 2^53
  is not);
- openai-agents: `MCPUtil.to_function_tool(..., convert_schemas_to_strict=True)` (the
  Agents SDK's MCP tools in strict mode, `strict_schema.ensure_strict_json_schema` with
  open objects refused): the tool must come out strict, and every property strict mode
  makes required must admit `null` (else the model must invent a value);
- openai: `openai.lib._pydantic.to_strict_json_schema`'s sibling for raw schemas is the
  same function (`agents.strict_schema` is adapted from it): covered above;
- openai-agents: `FunctionTool(params_json_schema=..., strict_json_schema=True)` and
  openai's own `lib._pydantic._ensure_strict_json_schema`: the same two conditions;
- anthropic: `lib.tools.mcp.mcp_tool` (with and without `strict=True`): sent as is, so its
  `input_schema` must be the served schema unchanged; `lib._parse._transform.transform_schema`
  (the strict grammar's transform, applied to structured outputs) must not refuse it;
- google-genai: `types.FunctionDeclaration(parameters=<served schema>)` (a tool declared
  by hand from the served schema): must not refuse it, and its integer bounds exact.

Then a strict model's habit over the wire: the served schema's optional keys sent as
`null` are accepted by the server as not sent (checked per package on a tool that has
one: `weather_forecast`'s `days` takes its default, `catalog_edit`'s `delete: null` does
not ask).

Prints one line per SDK path with the counts, and exits 1 when any tool is refused or
changed in meaning. Usage: providers.py --bin DIR
"""

import argparse
import asyncio
import copy
import json
import math
import subprocess
import sys

from agents import FunctionTool
from agents.mcp import MCPServerStdio, MCPUtil
from anthropic.lib._parse._transform import transform_schema
from anthropic.lib.tools.mcp import mcp_tool as anthropic_mcp_tool
from google.genai import _mcp_utils, types
from mcp.types import Tool as McpTool
from openai.lib._pydantic import _ensure_strict_json_schema as openai_strict

PACKAGES = [
    ("weather", ["neuralis-example-run", "--mcp", "weather"]),
    ("catalog", ["neuralis-example-run", "--mcp", "catalog"]),
    ("todos", ["neuralis-example-run", "--mcp", "todos"]),
    ("tracker", ["neuralis-example-run", "--mcp", "tracker"]),
    ("triage", ["neuralis-example-run", "--mcp", "triage"]),
    ("serve", ["neuralis-example-serve", "--mcp", "--grant", "weather.read", "--grant", "notes.write"]),
    ("conformance", ["neuralis-example-conformance", "--mcp"]),
]

SAFE_INTEGER = 2**53 - 1


class Stdio:
    """An MCP server over stdio, spoken to in raw JSON-RPC lines."""

    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        self.next_id = 0

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the server closed its output before answering {method}")
            message = json.loads(line)
            if message.get("id") == self.next_id and ("result" in message or "error" in message):
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def send(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def open(self):
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "providers.py", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return self

    def tools(self):
        tools, cursor = [], None
        while True:
            result = self.request("tools/list", {"cursor": cursor} if cursor else {})
            tools.extend(result["tools"])
            cursor = result.get("nextCursor")
            if not cursor:
                return tools

    def close(self):
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def admits_null(root, schema):
    """Whether `null` may pass `schema` (type, enum, const, compositions, local $ref)."""
    if isinstance(schema, bool):
        return schema
    if not isinstance(schema, dict):
        return True
    if "$ref" in schema:
        ref = schema["$ref"]
        target = root
        if ref != "#":
            for part in ref[2:].split("/"):
                target = target.get(part.replace("~1", "/").replace("~0", "~"), {})
        return admits_null(root, target)
    t = schema.get("type")
    if isinstance(t, str) and t != "null":
        return False
    if isinstance(t, list) and "null" not in t:
        return False
    if "enum" in schema and None not in schema["enum"]:
        return False
    if "const" in schema and schema["const"] is not None:
        return False
    for key in ("anyOf", "oneOf"):
        if key in schema and not any(admits_null(root, b) for b in schema[key]):
            return False
    return all(admits_null(root, b) for b in schema.get("allOf", []))


def invented(served, strict):
    """The properties strict mode made required that do not admit `null`: pointers."""
    found = []

    def walk(before, after, pointer):
        if not isinstance(after, dict):
            return
        was = set((before or {}).get("required", [])) if isinstance(before, dict) else set()
        for key, prop in (after.get("properties") or {}).items():
            if key in after.get("required", []) and key not in was and not admits_null(strict, prop):
                found.append(f"{pointer}/properties/{key}")
            walk((before or {}).get("properties", {}).get(key) if isinstance(before, dict) else None,
                 prop, f"{pointer}/properties/{key}")
        if isinstance(after.get("items"), dict):
            walk((before or {}).get("items") if isinstance(before, dict) else None,
                 after["items"], f"{pointer}/items")
        for key in ("anyOf", "allOf", "oneOf"):
            # `oneOf` before is `anyOf` after (the strict transform rewrites it).
            was_branches = []
            if isinstance(before, dict):
                was_branches = before.get(key) or (before.get("oneOf") if key == "anyOf" else None) or []
            for i, branch in enumerate(after.get(key, [])):
                was_branch = was_branches[i] if i < len(was_branches) else None
                walk(was_branch, branch, f"{pointer}/{key}/{i}")
        for key in ("$defs", "definitions"):
            for name, d in (after.get(key) or {}).items():
                walk((before or {}).get(key, {}).get(name) if isinstance(before, dict) else None,
                     d, f"{pointer}/{key}/{name}")

    walk(served, strict, "")
    return found


def inexact_bounds(schema, pointer=""):
    """Integer bounds a float does not hold exactly, in what google-genai wrote."""
    found = []
    if isinstance(schema, dict):
        for key in ("minimum", "maximum"):
            v = schema.get(key)
            if isinstance(v, float) and (not math.isfinite(v) or abs(v) > SAFE_INTEGER):
                found.append(f"{pointer}/{key}")
        for key, v in schema.items():
            found.extend(inexact_bounds(v, f"{pointer}/{key}"))
    elif isinstance(schema, list):
        for i, v in enumerate(schema):
            found.extend(inexact_bounds(v, f"{pointer}/{i}"))
    return found


# A refusal docs/hosting.md states ("Arguments in headers"): printed, counted apart, and
# no failure.
DOCUMENTED = "documented: "


def only_header_marks_forbidden(error):
    """Whether `error` is pydantic refusing `x-mcp-header` keys and nothing else."""
    errors = getattr(error, "errors", None)
    if not callable(errors):
        return False
    try:
        found = errors()
    except Exception:
        return False
    return bool(found) and all(
        e.get("type") == "extra_forbidden" and e.get("loc", ())[-1:] == ("x-mcp-header",)
        for e in found)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    tally = {key: [0, []] for key in (
        "gemini mcp_to_gemini_tool", "openai-agents strict MCP tool",
        "openai-agents FunctionTool strict", "openai _ensure_strict_json_schema",
        "anthropic mcp_tool", "anthropic mcp_tool strict", "anthropic transform_schema",
        "gemini FunctionDeclaration(parameters=...)")}
    strict_server = MCPServerStdio(params={"command": "true"}, name="neuralis")
    for name, command in PACKAGES:
        server = Stdio([f"{args.bin}/{command[0]}", *command[1:]]).open()
        try:
            tools = server.tools()
        finally:
            server.close()
        for raw in tools:
            label = f"{name}/{raw['name']}"
            tool = McpTool.model_validate(raw)
            served = raw["inputSchema"]

            entry = tally["gemini mcp_to_gemini_tool"]
            entry[0] += 1
            try:
                gemini = _mcp_utils.mcp_to_gemini_tool(tool)
                parameters = gemini.function_declarations[0].parameters.model_dump(
                    mode="json", exclude_none=True)
                bad = inexact_bounds(parameters)
                if bad:
                    entry[1].append(f"{label}: integer bounds written inexactly at {bad}")
            except Exception as e:  # the SDK refuses the tool
                entry[1].append(f"{label}: refused: {type(e).__name__}: {e}")

            entry = tally["openai-agents strict MCP tool"]
            entry[0] += 1
            function = MCPUtil.to_function_tool(tool, strict_server, convert_schemas_to_strict=True)
            if not function.strict_json_schema:
                # A tool with no arguments cannot be both: the strict path refuses an
                # object without `additionalProperties: false`, which google-genai cannot
                # read. Non-strict, it has nothing for the model to invent.
                if served.get("properties"):
                    entry[1].append(f"{label}: not strict (the SDK fell back to a non-strict schema)")
            else:
                made_up = invented(served, function.params_json_schema)
                if made_up:
                    entry[1].append(f"{label}: required without admitting null: {made_up}")

            async def invoke(_ctx, _args):
                return ""

            entry = tally["openai-agents FunctionTool strict"]
            entry[0] += 1
            try:
                function = FunctionTool(name=raw["name"], description=raw.get("description", ""),
                                        params_json_schema=copy.deepcopy(served),
                                        on_invoke_tool=invoke, strict_json_schema=True)
                made_up = invented(served, function.params_json_schema)
                if made_up:
                    entry[1].append(f"{label}: required without admitting null: {made_up}")
            except Exception as e:
                if served.get("properties"):
                    entry[1].append(f"{label}: refused: {type(e).__name__}: {e}")

            entry = tally["openai _ensure_strict_json_schema"]
            entry[0] += 1
            try:
                mine = copy.deepcopy(served)
                made_up = invented(served, openai_strict(mine, path=(), root=mine))
                if made_up:
                    entry[1].append(f"{label}: required without admitting null: {made_up}")
            except Exception as e:
                entry[1].append(f"{label}: refused: {type(e).__name__}: {e}")

            entry = tally["anthropic transform_schema"]
            entry[0] += 1
            try:
                transform_schema(copy.deepcopy(served))
            except BaseException as e:  # it asserts on what it cannot read
                entry[1].append(f"{label}: refused: {type(e).__name__}: {e}")

            entry = tally["gemini FunctionDeclaration(parameters=...)"]
            entry[0] += 1
            try:
                declared = types.FunctionDeclaration(name=raw["name"], parameters=served)
                bad = inexact_bounds(declared.model_dump(mode="json", exclude_none=True))
                if bad:
                    entry[1].append(f"{label}: integer bounds written inexactly at {bad}")
            except Exception as e:
                if not only_header_marks_forbidden(e):
                    entry[1].append(f"{label}: refused: {type(e).__name__}: {str(e)[:200]}")
                else:
                    # SEP-2243's `x-mcp-header`, which the author asked for by marking the
                    # property: a declaration by hand forbids unknown keys (docs/hosting.md,
                    # "Arguments in headers"). Counted, and only this.
                    entry[1].append(f"{DOCUMENTED}{label}: refused for its x-mcp-header")

            for key, strict in (("anthropic mcp_tool", None), ("anthropic mcp_tool strict", True)):
                entry = tally[key]
                entry[0] += 1
                try:
                    sent = anthropic_mcp_tool(tool, None, strict=strict).to_dict()
                    if sent.get("input_schema") != served:
                        entry[1].append(f"{label}: input_schema changed")
                except Exception as e:
                    entry[1].append(f"{label}: refused: {type(e).__name__}: {e}")
    failed = False
    for path, (count, problems) in tally.items():
        known = [p for p in problems if p.startswith(DOCUMENTED)]
        also = f", {len(known)} refused as documented" if known else ""
        print(f"providers: {path}: {count - len(problems)} / {count} read as meant{also}")
        for p in problems:
            print(f"  {p}")
        failed = failed or len(known) < len(problems) or count == 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
