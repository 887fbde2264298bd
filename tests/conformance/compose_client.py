"""A package composed with an rmcp handler, over stdio, driven by the Python MCP SDK.

    python compose_client.py --bin DIR --mode auto|legacy|v1

`neuralis-example-conformance --mcp` serves the conformance suite's tools (the package)
and its prompts, resources and completion (an rmcp handler, `McpServer::with_handler`).
`--mode auto` and `--mode legacy` need `mcp` 2.x (`Client`: 2026-07-28 through
`server/discover`, or the `initialize` handshake); `--mode v1` needs `mcp` 1.x
(`ClientSession`). Each run: the server declares both sides' capabilities; prompts are
listed and got with their arguments; resources, templates and a templated read;
completion; the package's tools listed and called beside them. On 2026-07-28 also: the
handler's prompt that asks first (an `InputRequiredResult` the SDK answers through its
elicitation callback and retries), and the SDK's response cache honouring `tools/list`'s
caching hints (a second listing served from the cache, no second request on the wire).
Every step is read back from the raw wire (wire_tee.py) as well as through the SDK.
"""

import argparse
import os
import sys
import tempfile

import anyio

import wire
from wire import check, report_failure

HERE = os.path.dirname(os.path.abspath(__file__))

PROMPTS = [
    "test_input_required_result_prompt",
    "test_prompt_with_arguments",
    "test_prompt_with_embedded_resource",
    "test_prompt_with_image",
    "test_simple_prompt",
]


def command(args, log_dir):
    server = os.path.join(args.bin, "neuralis-example-conformance")
    return sys.executable, [os.path.join(HERE, "wire_tee.py"), log_dir, server, "--mcp"]


def connect(mode, command, argv, asked):
    """The SDK's client for `mode`, answering an elicitation with a context."""
    if mode == "v1":
        from contextlib import asynccontextmanager

        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client

        @asynccontextmanager
        async def session():
            params = StdioServerParameters(command=command, args=argv)
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as s:
                    await s.initialize()
                    yield s

        return session()

    from mcp import Client, StdioServerParameters
    import mcp.types as t

    async def elicit(context, params):
        asked.append(params.message)
        return t.ElicitResult(action="accept", content={"context": "release notes"})

    return Client(StdioServerParameters(command=command, args=argv), mode=mode,
                  elicitation_callback=elicit)


def result_of(w, method, predicate=lambda p: True):
    answer = w.response(w.request(method, predicate))["message"]
    check("result" in answer, f"`{method}` was answered with {answer.get('error')}")
    return answer["result"]


async def run(args, mode):
    import mcp.types as t

    asked = []
    steps = []
    with tempfile.TemporaryDirectory() as log_dir:
        w = wire.Wire(log_dir)
        cmd, argv = command(args, log_dir)
        async with connect(mode, cmd, argv, asked) as client:
            era = wire.MODERN if mode == "auto" else "2025-11-25"
            opening = "server/discover" if mode == "auto" else "initialize"
            capabilities = result_of(w, opening)["capabilities"]
            for key in ("tools", "logging", "prompts", "resources", "completions"):
                check(key in capabilities, f"{opening} declares no `{key}`: {capabilities}")
            check(capabilities["resources"].get("subscribe") is True,
                  f"the handler's resources.subscribe is not declared: {capabilities}")
            steps.append(f"{opening}: both sides' capabilities")

            listed = await client.list_prompts()
            check(sorted(p.name for p in listed.prompts) == PROMPTS,
                  f"the SDK lists {[p.name for p in listed.prompts]}")
            raw = result_of(w, "prompts/list")
            check(sorted(p["name"] for p in raw["prompts"]) == PROMPTS, f"prompts/list: {raw}")
            if era == wire.MODERN:
                check(raw.get("resultType") == "complete" and "ttlMs" in raw and "cacheScope" in raw,
                      f"prompts/list on 2026-07-28 without resultType or caching hints: {raw}")
            else:
                check("resultType" not in raw and "ttlMs" not in raw,
                      f"prompts/list before 2026-07-28 with 2026-07-28 fields: {raw}")
            got = await client.get_prompt("test_prompt_with_arguments",
                                          {"arg1": "alpha", "arg2": "beta"})
            text = got.messages[0].content.text
            check(text == "Prompt with arguments: arg1='alpha', arg2='beta'", f"the prompt reads {text!r}")
            image = await client.get_prompt("test_prompt_with_image")
            check(image.messages[0].content.type == "image", f"no image: {image.messages[0]}")
            steps.append("prompts")

            resources = await client.list_resources()
            check("test://static-text" in [str(r.uri) for r in resources.resources],
                  f"the SDK lists {resources.resources}")
            read = await client.read_resource("test://static-text")
            check(read.contents[0].text == "This is the content of the static text resource.",
                  f"read {read.contents}")
            templates = await client.list_resource_templates()
            listed = getattr(templates, "resourceTemplates", None) or getattr(templates, "resource_templates")
            uris = [getattr(x, "uriTemplate", None) or getattr(x, "uri_template") for x in listed]
            check(uris == ["test://template/{id}/data"], f"templates: {uris}")
            data = await client.read_resource("test://template/42/data")
            check('"id":"42"' in data.contents[0].text, f"the template read {data.contents}")
            raw = result_of(w, "resources/read", lambda p: p.get("uri") == "test://template/42/data")
            check(raw["contents"][0]["mimeType"] == "application/json", f"resources/read: {raw}")
            steps.append("resources and a template")

            completed = await client.complete(
                t.PromptReference(type="ref/prompt", name="test_prompt_with_arguments"),
                {"name": "arg1", "value": "pa"})
            check(completed.completion.values == ["paris", "park"],
                  f"completion: {completed.completion.values}")
            steps.append("completion")

            tools = await client.list_tools()
            names = [tool.name for tool in tools.tools]
            check("test_simple_text" in names and not any(n.startswith("test_prompt") for n in names),
                  f"tools: {names}")
            called = await client.call_tool("test_simple_text", {})
            check(called.content[0].text == "This is a simple text response for testing.",
                  f"call: {called.content}")
            steps.append("the package's tools beside them")

            if era == wire.MODERN:
                # The handler's prompt asks first: the SDK answers through its elicitation
                # callback and retries with the answer.
                asked_prompt = await client.get_prompt("test_input_required_result_prompt")
                check(asked == ["What context should the prompt use?"], f"asked {asked}")
                text = asked_prompt.messages[0].content.text
                check(text == "Use this context: release notes", f"the prompt reads {text!r}")
                rounds = [e for e in w.entries() if e["dir"] == "s2c"
                          and isinstance(e["message"], dict)
                          and (e["message"].get("result") or {}).get("resultType") == "input_required"]
                check(len(rounds) == 1, f"{len(rounds)} InputRequiredResult rounds on the wire")
                steps.append("a prompt's InputRequiredResult answered and retried")

                # The SDK caches `tools/list` for its `ttlMs`: a second listing is not sent.
                before = len([e for e in w.entries() if e["dir"] == "c2s"
                              and isinstance(e["message"], dict)
                              and e["message"].get("method") == "tools/list"])
                raw = result_of(w, "tools/list")
                check(raw.get("cacheScope") == "public" and raw.get("ttlMs") == 300000,
                      f"tools/list's hints: {raw.get('cacheScope')}, {raw.get('ttlMs')}")
                again = await client.list_tools()
                check([tool.name for tool in again.tools] == names, "the cached list differs")
                # A call after it: once its answer is on the wire, so is anything sent before.
                await client.call_tool("test_error_handling", {})
                w.response(w.request("tools/call", lambda p: p.get("name") == "test_error_handling"))
                after = len([e for e in w.entries() if e["dir"] == "c2s"
                             and isinstance(e["message"], dict)
                             and e["message"].get("method") == "tools/list"])
                check(after == before, f"tools/list was sent again ({before} then {after})")
                steps.append("tools/list served from the SDK's cache for its ttlMs")
        w.stdout_is_json_rpc()
    return steps


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--mode", choices=["auto", "legacy", "v1"], required=True)
    args = parser.parse_args()
    import importlib.metadata

    version = importlib.metadata.version("mcp")
    major = "1." if args.mode == "v1" else "2."
    check(version.startswith(major), f"--mode {args.mode} needs mcp {major}x, this is {version}")
    label = f"python mcp {version} ({args.mode}) · conformance package with an rmcp handler, stdio"
    try:
        steps = await run(args, args.mode)
        print(f"ok   {label}: {', '.join(steps)}")
        return 0
    except Exception as e:  # noqa: BLE001 - the failure is reported
        report_failure(label, e)
        return 1


if __name__ == "__main__":
    sys.exit(anyio.run(main))
