"""Real MCP clients over streamable HTTP, each against the example servers started with
`--http 127.0.0.1:0`, every exchange read back from a recording proxy (http_tee.py).

    python http_client.py --bin DIR --client python --mode auto|legacy|v1
    python http_client.py --bin DIR --client ts --mode auto|legacy --node NODE

`--client python` drives the Python SDK this interpreter has: `mcp` 2.x (`mcp.Client`) in
its default era (`auto`: `server/discover`, 2026-07-28, stateless) or in legacy mode
(`initialize`, a session), or `mcp` 1.x (`--mode v1`: `ClientSession` over
`streamablehttp_client`). `--client ts` runs ts_http_client.mjs (the TypeScript SDK's
`StreamableHTTPClientTransport`) with NODE.

Against `neuralis-example-serve --tokens FILE` (two bearer tokens, two callers): as `ada`
(granted `weather.read`), list, call, a typed call, an unknown argument (isError, the
pointer in the text), an unknown tool (isError, the generic refusal) and a cancelled
`notes_reindex` (the service's `runs.cancelled` goes up by one, and nothing answers the
call); as `bob` (no grants), a list without `weather_forecast` and the generic refusal
when calling it; without a token, `401` and a Bearer challenge. Against
`neuralis-example-conformance`: progress notifications, on the call's own stream before
its result, and log messages (asked for with `logging/setLevel` before 2026-07-28, with
`_meta` on the call on 2026-07-28), on the call's stream or, in a legacy session, on the
session's GET stream (the step says which). Every step is checked on the wire as well as
through the SDK.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import hosted
import wire
from wire import MODERN, check, report_failure

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

PLAN = {
    "call": {"tool": "notes_write", "arguments": {"key": "launch", "text": "ship it"}},
    "typed": {"tool": "notes_list", "arguments": {}},
    "long": {"tool": "notes_reindex", "arguments": {"seconds": 30}},
    "quick": {"tool": "notes_reindex", "arguments": {"seconds": 0}},
    "gated": {"tool": "weather_forecast", "arguments": {"city": "Lisbon"}},
}
LOGGED = ["Tool execution started", "Tool processing data", "Tool execution completed"]


# --- the Python SDK ---------------------------------------------------------------

async def settle(done, timeout=2.0):
    """Waits until `done()` or `timeout`: for log messages that a legacy session sends on
    its standalone GET stream, which can arrive after the call's result (see
    check_progress_and_logging)."""
    import anyio

    with anyio.move_on_after(timeout):
        while not done():
            await anyio.sleep(0.02)


def result_view(result):
    """What the SDK made of a tools/call result, the same shape for both generations."""
    structured = getattr(result, "structured_content", None)
    if structured is None:
        structured = getattr(result, "structuredContent", None)
    is_error = getattr(result, "is_error", None)
    if is_error is None:
        is_error = getattr(result, "isError", False)
    text = " ".join(getattr(b, "text", "") or "" for b in result.content)
    return {"isError": bool(is_error), "structuredContent": structured, "text": text}


class PythonSdk:
    def __init__(self, mode):
        import importlib.metadata
        import logging
        import warnings

        # Logging is deprecated on 2026-07-28 (SEP-2577), and used here on purpose. The
        # SDK's warning about the DELETE's status is read off the wire instead.
        warnings.filterwarnings("ignore", message="The logging capability is deprecated")
        logging.getLogger("mcp.client.streamable_http").setLevel(logging.ERROR)

        self.mode = mode
        self.version = importlib.metadata.version("mcp")
        wanted = "1." if mode == "v1" else "2."
        check(self.version.startswith(wanted), f"--mode {mode} needs mcp {wanted}x, this is {self.version}")
        self.era = None

    def connect(self, url, token=None, on_log=None):
        from contextlib import asynccontextmanager

        headers = {"Authorization": f"Bearer {token}"} if token else {}
        sdk = self

        async def log_callback(params):
            if on_log is not None:
                on_log({"level": params.level, "logger": params.logger, "data": params.data})

        if self.mode == "v1":
            @asynccontextmanager
            async def session():
                from mcp import ClientSession
                from mcp.client.streamable_http import streamablehttp_client

                async with streamablehttp_client(url, headers=headers) as (read, write, _):
                    async with ClientSession(read, write, logging_callback=log_callback) as s:
                        init = await s.initialize()
                        sdk.era = init.protocolVersion
                        yield s
            return session()

        @asynccontextmanager
        async def client():
            import httpx2
            from mcp import Client
            from mcp.client.streamable_http import streamable_http_client

            # The SDK's own timeouts (30 s, 300 s to read a stream), with the token.
            timeout = httpx2.Timeout(30.0, read=300.0)
            async with httpx2.AsyncClient(headers=headers, timeout=timeout) as http:
                # No response cache: every list must reach the server, to be read on the wire.
                async with Client(streamable_http_client(url, http_client=http), mode=self.mode,
                                  cache=None, logging_callback=log_callback,
                                  log_level="info" if on_log else None) as c:
                    sdk.era = c.protocol_version
                    yield c
        return client()

    async def names(self, client):
        return sorted(t.name for t in (await client.list_tools()).tools)

    async def call(self, client, step, progress=None):
        return result_view(await client.call_tool(step["tool"], step["arguments"], progress_callback=progress))

    async def cancel(self, client, w, step):
        """Starts `step`, waits until it is on the wire and half a second more, then
        abandons it the SDK's way."""
        import anyio

        with anyio.move_on_after(20):
            async with anyio.create_task_group() as tg:
                scope = anyio.CancelScope()

                async def run():
                    with scope:
                        await client.call_tool(step["tool"], step["arguments"])

                tg.start_soon(run)
                request = await anyio.to_thread.run_sync(lambda: w.request(
                    "tools/call", lambda p: p.get("name") == step["tool"]
                    and (p.get("arguments") or {}) == step["arguments"]))
                await anyio.sleep(0.5)
                if self.mode == "v1":
                    # 1.x does not tell the server when a caller abandons a call: send
                    # notifications/cancelled for the request's id, as its docs say.
                    import mcp.types as t

                    await client.send_notification(t.ClientNotification(t.CancelledNotification(
                        params=t.CancelledNotificationParams(
                            requestId=request["message"]["id"], reason="conformance test"))))
                scope.cancel()
        return "abandoned"

    async def runs(self, client):
        """The service's run counters, once no rebuild runs any more (a cancelled one
        stops a moment after its caller let go)."""
        import anyio

        for _ in range(50):
            runs = (await self.call(client, PLAN["quick"]))["structuredContent"]["runs"]
            if runs["running"] == 0:
                return runs
            await anyio.sleep(0.1)
        return runs

    async def drive(self, stack):
        import anyio

        seen = {}
        ada = stack["ada"].wire
        async with self.connect(stack["ada"].url, hosted.ADA) as c:
            seen["era"] = self.era
            mine = seen["ada"] = {"tools": await self.names(c)}
            mine["call"] = await self.call(c, PLAN["call"])
            tools = (await c.list_tools()).tools
            listed = next(t for t in tools if t.name == PLAN["typed"]["tool"])
            schema = getattr(listed, "output_schema", None) or getattr(listed, "outputSchema", None)
            mine["typed"] = {**await self.call(c, PLAN["typed"]), "outputSchema": schema}
            bogus = {**PLAN["call"], "arguments": {**PLAN["call"]["arguments"], "bogus": 1}}
            mine["unknownArgument"] = await self.call(c, bogus)
            mine["unknownTool"] = await self.call(c, {"tool": "nope_tool", "arguments": {}})
            mine["before"] = await self.runs(c)
            mine["cancel"] = await self.cancel(c, ada, PLAN["long"])
            mine["after"] = await self.runs(c)
        async with self.connect(stack["bob"].url, hosted.BOB) as c:
            seen["bob"] = {"tools": await self.names(c), "gated": await self.call(c, PLAN["gated"])}
        try:
            with anyio.fail_after(15):
                async with self.connect(stack["anonymous"].url) as c:
                    await self.names(c)
            seen["anonymous"] = {"error": None}
        except Exception as e:  # noqa: BLE001 - whatever the SDK raises for a 401
            seen["anonymous"] = {"error": f"{type(e).__name__}: {e}"[:300]}
        logs = []
        async with self.connect(stack["conformance"].url, on_log=logs.append) as c:
            if self.era != MODERN:
                await c.set_logging_level("info")
            values = []

            async def progress(done, total, message):
                values.append(done)

            result = await self.call(c, {"tool": "test_tool_with_progress", "arguments": {}}, progress)
            seen["progress"] = {"values": values, "isError": result["isError"]}
            result = await self.call(c, {"tool": "test_tool_with_logging", "arguments": {}})
            await settle(lambda: len(logs) >= len(LOGGED))
            seen["logging"] = {"messages": logs, "isError": result["isError"]}
        return seen


# --- the TypeScript SDK -----------------------------------------------------------

class TsSdk:
    def __init__(self, mode, node):
        check(mode in ("auto", "legacy"), f"--client ts takes --mode auto or legacy, not {mode}")
        self.mode, self.node = mode, node
        package = os.path.join(HERE, "node_modules", "@modelcontextprotocol", "client", "package.json")
        with open(package, encoding="utf-8") as f:
            self.version = json.load(f)["version"]

    async def drive(self, stack):
        import anyio

        config = {
            "mode": self.mode,
            "urls": {k: v.url for k, v in stack.items()},
            "tokens": {"ada": hosted.ADA, "bob": hosted.BOB},
            "plan": PLAN,
        }
        run = await anyio.to_thread.run_sync(lambda: subprocess.run(
            [self.node, os.path.join(HERE, "ts_http_client.mjs"), json.dumps(config)],
            capture_output=True, text=True, timeout=120))
        check(run.returncode == 0, f"ts_http_client.mjs failed: {run.stderr.strip()[-800:]}")
        return json.loads(run.stdout.strip().splitlines()[-1])


# --- the checks on the wire -------------------------------------------------------

def check_era(w, era, expected):
    check(era == expected, f"negotiated {era}, expected {expected}")
    posts = [e for e in w.entries() if e["dir"] == "http" and e.get("what") == "request"
             and e["method"] == "POST"]
    if era == MODERN:
        discover = w.request("server/discover")
        versions = w.response(discover)["message"]["result"].get("supportedVersions", [])
        check(MODERN in versions, f"server/discover offers {versions}")
        check(not [e for e in w.entries() if (e["message"] or {}).get("method") == "initialize"],
              "an initialize on 2026-07-28")
        headers = {e["headers"].get("mcp-protocol-version") for e in posts}
        check(headers == {MODERN}, f"MCP-Protocol-Version headers {headers}")
        sessions = [e for e in w.entries() if e.get("what") == "response"
                    and "mcp-session-id" in e["headers"]]
        check(not sessions, "a session id on 2026-07-28 (stateless)")
    else:
        init = w.request("initialize")
        check(w.response(init)["message"]["result"]["protocolVersion"] == era, "initialize")
        check("mcp-session-id" in w.status(init)["headers"], "no Mcp-Session-Id for a legacy session")


def session_end(w):
    """How the client ended its legacy session: its DELETE and the answer's status."""
    deletes = [e for e in w.entries() if e.get("what") == "request" and e["method"] == "DELETE"]
    if not deletes:
        return "no DELETE"
    answer = w.status(deletes[-1])
    check(answer is not None and answer["status"] in (200, 204),
          f"the session's DELETE was answered {answer['status'] if answer else 'not at all'}")
    return f"DELETE {answer['status']}"


def check_caller(w, request, token):
    got = w.head(request)["headers"].get("authorization")
    check(got == f"Bearer {token}", f"the request carried {got!r}")


def check_ada(w, seen, era, files):
    mine = seen["ada"]
    listing = w.request("tools/list")
    check_caller(w, listing, hosted.ADA)
    raw_tools = w.response(listing)["message"]["result"]["tools"]
    wire.check_listing(raw_tools, files)
    check(mine["tools"] == sorted(files), f"the SDK listed {mine['tools']}")

    request, answer = w.call(PLAN["call"]["tool"], PLAN["call"]["arguments"])
    sent = wire.check_result(answer, era, is_error=False)
    check(sent.get("structuredContent") is not None, "no structuredContent")
    check(mine["call"]["structuredContent"] == sent["structuredContent"], "the SDK shows another result")

    _, answer = w.call(PLAN["typed"]["tool"], PLAN["typed"]["arguments"])
    sent = wire.check_result(answer, era, is_error=False)["structuredContent"]
    check(sent == mine["typed"]["structuredContent"], "the SDK shows another structuredContent")
    check(wire.check_output(raw_tools, PLAN["typed"]["tool"], sent) == mine["typed"]["outputSchema"],
          "the SDK's outputSchema is not the one sent")

    bogus = {**PLAN["call"]["arguments"], "bogus": 1}
    _, answer = w.call(PLAN["call"]["tool"], bogus)
    wire.check_unknown_argument(wire.check_result(answer, era, is_error=True),
                                typed=wire.has_output(raw_tools, PLAN["call"]["tool"]))
    check(mine["unknownArgument"]["isError"] and "`/bogus`" in mine["unknownArgument"]["text"],
          f"the SDK saw {mine['unknownArgument']}")

    _, answer = w.call("nope_tool", {})
    wire.check_unknown_tool(wire.check_result(answer, era, is_error=True), "nope_tool")
    check(mine["unknownTool"]["isError"], f"the SDK saw {mine['unknownTool']}")

    # The cancelled call: nothing answered it. On 2026-07-28 a client abandons a call by
    # closing its exchange (that era has no client notifications); before, it sends
    # notifications/cancelled.
    long = w.request("tools/call", lambda p: p.get("name") == PLAN["long"]["tool"]
                     and (p.get("arguments") or {}) == PLAN["long"]["arguments"])
    check(not w.answered(long), "a cancelled call was answered")
    rid = long["message"]["id"]
    notified = [e for e in w.entries() if e["dir"] == "c2s"
                and (e["message"] or {}).get("method") == "notifications/cancelled"
                and e["message"].get("params", {}).get("requestId") == rid]
    closed = w.exchange(long, "client-closed")
    if era == MODERN:
        check(closed and not notified, f"2026-07-28: closed {bool(closed)}, notified {bool(notified)}")
        how = "the client closed the call's exchange"
    else:
        check(notified, "the client sent no notifications/cancelled")
        how = "notifications/cancelled" + (", then the exchange closed" if closed else "")
    check(mine["cancel"] != "resolved", "the SDK's cancelled call resolved")
    before, after = mine["before"], mine["after"]
    check(after["cancelled"] == before["cancelled"] + 1 and after["running"] == 0,
          f"runs before the cancel {before}, after {after}")
    _, answer = w.call(PLAN["quick"]["tool"], PLAN["quick"]["arguments"])
    check(wire.check_result(answer, era, is_error=False)["structuredContent"]["runs"] == after,
          "the SDK shows other run counts than were sent")
    return how


def check_bob(w, seen, era, files):
    mine = seen["bob"]
    listing = w.request("tools/list")
    check_caller(w, listing, hosted.BOB)
    names = sorted(t["name"] for t in w.response(listing)["message"]["result"]["tools"])
    expected = sorted(n for n in files if n != PLAN["gated"]["tool"])
    check(names == expected, f"bob's tools/list has {names}, expected {expected}")
    check(mine["tools"] == expected, f"the SDK listed {mine['tools']} for bob")
    request, answer = w.call(PLAN["gated"]["tool"], PLAN["gated"]["arguments"])
    check_caller(w, request, hosted.BOB)
    wire.check_unknown_tool(wire.check_result(answer, era, is_error=True), PLAN["gated"]["tool"])
    check(mine["gated"]["isError"], f"the SDK saw {mine['gated']} calling a tool bob is not granted")


def check_anonymous(w, seen):
    answers = [e for e in w.entries() if e["dir"] == "http" and e.get("what") == "response"]
    check(answers, "the client sent nothing without a token")
    statuses = [e["status"] for e in answers]
    check(set(statuses) == {401}, f"without a token: {statuses}")
    challenge = answers[0]["headers"].get("www-authenticate", "")
    check(challenge.startswith("Bearer"), f"the challenge is {challenge!r}")
    check(not [e for e in w.entries() if e["dir"] == "s2c" and "result" in (e["message"] or {})],
          "a result without a token")
    check(seen["anonymous"]["error"], "the SDK connected without a token")
    return statuses[0], challenge


def check_progress_and_logging(w, seen, era):
    request, answer = w.call("test_tool_with_progress", {})
    wire.check_result(answer, era, is_error=False)
    token = request["message"]["params"]["_meta"]["progressToken"]
    sent = [e for e in w.notifications(request, "notifications/progress")
            if e["message"]["params"].get("progressToken") == token]
    values = [e["message"]["params"]["progress"] for e in sent]
    check(values == [0, 50, 100], f"progress on the call's stream: {values}")
    check(all(e["message"]["params"].get("total") == 100 for e in sent), "total")
    check(all(e["t"] <= answer["t"] for e in sent), "a progress notification after the result")
    check(seen["progress"]["values"] == [0, 50, 100] and not seen["progress"]["isError"],
          f"the SDK saw progress {seen['progress']}")

    request, answer = w.call("test_tool_with_logging", {})
    wire.check_result(answer, era, is_error=False)
    if era == MODERN:
        level = request["message"]["params"]["_meta"].get("io.modelcontextprotocol/logLevel")
        check(level == "info", f"the call asks for log level {level!r}")
    else:
        set_level = w.request("logging/setLevel")
        check(set_level["message"]["params"] == {"level": "info"}, "logging/setLevel")
        check(w.response(set_level)["message"]["result"] in ({}, {"_meta": {}}), "setLevel's answer")
    # A call's log messages belong on its own stream. In a legacy session rmcp sends them
    # on the session's standalone GET stream when the client holds one open (it routes
    # only progress, by token, to the call's stream): taken as it is, and said.
    sent, where = w.notifications(request, "notifications/message"), "on the call's stream"
    if not sent and era != MODERN:
        gets = {e["conn"] for e in w.entries() if e.get("what") == "request" and e["method"] == "GET"}
        sent = [e for e in w.entries() if e.get("conn") in gets and e["dir"] == "s2c"
                and (e["message"] or {}).get("method") == "notifications/message"]
        where = "on the session's GET stream"
    got = [(e["message"]["params"]["level"], e["message"]["params"].get("logger"),
            e["message"]["params"]["data"]) for e in sent]
    check(got == [("info", "test_tool_with_logging", m) for m in LOGGED],
          f"log messages {where}: {got}")
    late = sum(e["t"] > answer["t"] for e in sent)
    if where == "on the call's stream":
        check(not late, "a log message after the result")
    elif late:
        # Across two streams the order is not kept: say so.
        where += f", {late} after the result"
    check([m["data"] for m in seen["logging"]["messages"]] == LOGGED,
          f"the SDK saw log messages {seen['logging']}")
    return where


async def run(sdk, args, expected_era):
    files = wire.load_tools(ROOT, "examples/serve/tools")
    with tempfile.TemporaryDirectory() as tmp:
        tokens = hosted.token_file(tmp)
        with hosted.server(args.bin, "neuralis-example-serve", "--tokens", tokens) as serve, \
                hosted.server(args.bin, "neuralis-example-conformance") as conformance, \
                hosted.Tee(serve.url, "ada") as ada, hosted.Tee(serve.url, "bob") as bob, \
                hosted.Tee(serve.url, "anonymous") as anonymous, \
                hosted.Tee(conformance.url, "conformance") as conf:
            stack = {"ada": ada, "bob": bob, "anonymous": anonymous, "conformance": conf}
            seen = await sdk.drive(stack)
            era = seen["era"]
            steps = []
            check_era(ada.wire, era, expected_era)
            how = check_ada(ada.wire, seen, era, files)
            steps += ["list", "call", "typed output", "unknown argument", "unknown tool",
                      f"cancel ({how})"]
            if era != MODERN:
                steps.append(f"session end: {session_end(ada.wire)}")
            check_era(bob.wire, era, expected_era)
            check_bob(bob.wire, seen, era, files)
            steps.append("bob's list and refusal")
            status, _ = check_anonymous(anonymous.wire, seen)
            steps.append(f"no token: {status}")
            check_era(conf.wire, era, expected_era)
            where = check_progress_and_logging(conf.wire, seen, era)
            steps += ["progress", f"logging ({where})"]
            for tee in (ada, bob, anonymous, conf):
                tee.wire.stdout_is_json_rpc()
    return era, steps


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--client", choices=["python", "ts"], required=True)
    parser.add_argument("--mode", choices=["auto", "legacy", "v1"], required=True)
    parser.add_argument("--node")
    args = parser.parse_args()
    if args.client == "python":
        sdk = PythonSdk(args.mode)
        label = f"python mcp {sdk.version} ({args.mode})"
    else:
        sdk = TsSdk(args.mode, args.node)
        label = f"typescript sdk {sdk.version} ({args.mode})"
    expected = MODERN if args.mode == "auto" else "2025-11-25"
    try:
        era, steps = await run(sdk, args, expected)
        print(f"ok   {label} over http · {era}: {', '.join(steps)}")
        return 0
    except Exception as e:  # noqa: BLE001 - reported as the run's failure
        report_failure(f"{label} over http", e)
        return 1


if __name__ == "__main__":
    import anyio

    sys.exit(anyio.run(main))
