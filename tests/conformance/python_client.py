"""Drive every example package with the Python MCP SDK, as a user's client would.

    python python_client.py --root REPO --bin DIR --mode auto|legacy [--package NAME]

`--mode auto` and `--mode legacy` need `mcp` 2.x (its `Client`, in the default era,
which negotiates 2026-07-28 through `server/discover`, and in legacy mode, which runs the
`initialize` handshake); `--mode v1` needs `mcp` 1.x (`ClientSession`). For each package:
list the tools, call one with valid arguments, call a typed tool and validate its
`structuredContent` against the listed `outputSchema`, call with an unknown argument, an unknown
tool, receive progress notifications and cancel a cancellable call. Every step is
checked on the raw wire (see wire.py) as well as through the SDK, which must not raise.
"""

import argparse
import os
import sys
import tempfile

import anyio

import wire
from wire import check, report_failure

HERE = os.path.dirname(os.path.abspath(__file__))


def server_command(args, package, log_dir):
    command = [os.path.join(args.bin, package["command"][0]), *package["command"][1:]]
    return sys.executable, [os.path.join(HERE, "wire_tee.py"), log_dir, *command]


class Sdk:
    """What both SDK generations spell the same way."""

    @staticmethod
    async def list_tools(client):
        return (await client.list_tools()).tools

    @staticmethod
    async def call(client, name, arguments, progress=None):
        return await client.call_tool(name, arguments, progress_callback=progress)


class V2(Sdk):
    """`mcp` 2.x: `mcp.Client`."""

    def __init__(self, mode):
        self.mode = mode

    def connect(self, command, argv):
        from mcp import Client, StdioServerParameters

        return Client(StdioServerParameters(command=command, args=argv), mode=self.mode)

    @staticmethod
    def era(client):
        return client.protocol_version

    @staticmethod
    async def notify_cancelled(client, request_id):
        """Nothing to send: abandoning the call makes the SDK send notifications/cancelled."""


class V1(Sdk):
    """`mcp` 1.x: `ClientSession` over `stdio_client`."""

    era_value = None

    def connect(self, command, argv):
        from contextlib import asynccontextmanager

        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client

        outer = self

        @asynccontextmanager
        async def session():
            params = StdioServerParameters(command=command, args=argv)
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as s:
                    init = await s.initialize()
                    outer.era_value = init.protocolVersion
                    yield s

        return session()

    def era(self, client):
        return self.era_value

    @staticmethod
    async def notify_cancelled(client, request_id):
        """1.x does not notify the server when a caller abandons a call: send
        notifications/cancelled for the request's id (read off the wire), as its docs say."""
        import mcp.types as t

        await client.send_notification(t.ClientNotification(t.CancelledNotification(
            params=t.CancelledNotificationParams(requestId=request_id, reason="conformance test"))))


async def cancel(sdk, client, w, name, arguments, on_progress_first):
    """Start a long call, wait for its first progress report (or half a second), then
    abandon it the SDK's way; returns the call's request as it went over the wire."""
    started = anyio.Event()

    async def progress(done, total, message):
        started.set()

    with anyio.move_on_after(20):
        async with anyio.create_task_group() as tg:
            scope = anyio.CancelScope()

            async def run():
                with scope:
                    await sdk.call(client, name, arguments, progress)

            tg.start_soon(run)
            request = await anyio.to_thread.run_sync(lambda: w.request(
                "tools/call",
                lambda p: p.get("name") == name and (p.get("arguments") or {}) == arguments))
            if on_progress_first:
                await started.wait()
            else:
                await anyio.sleep(0.5)
            await sdk.notify_cancelled(client, request["message"]["id"])
            scope.cancel()
    return request


async def run_package(sdk, args, package, expected_era):
    files = wire.load_tools(args.root, package["tools"])
    with tempfile.TemporaryDirectory() as log_dir:
        w = wire.Wire(log_dir)
        command, argv = server_command(args, package, log_dir)
        async with sdk.connect(command, argv) as client:
            era = sdk.era(client)
            check(era == expected_era, f"negotiated {era}, expected {expected_era}")

            await sdk.list_tools(client)
            listing = w.response(w.request("tools/list"))
            wire.check_listing(listing["message"]["result"]["tools"], files)

            call = package["call"]
            await sdk.call(client, call["tool"], call["arguments"])
            _, answer = w.call(call["tool"], call["arguments"])
            result = wire.check_result(answer, era, is_error=False)
            check(result.get("structuredContent") is not None, "no structuredContent")

            typed = package.get("typed")
            if typed:
                # The SDK validates a typed tool's structuredContent against the
                # outputSchema it listed (and raises on a mismatch); so do we, with
                # `jsonschema`, on what the SDK modelled and on the wire.
                import jsonschema

                tools = await sdk.list_tools(client)
                raw_tools = w.response(w.request("tools/list"))["message"]["result"]["tools"]
                modelled = next(t for t in tools if t.name == typed["tool"])
                schema = getattr(modelled, "outputSchema", None) or getattr(modelled, "output_schema", None)
                check(schema is not None, f"the SDK has no outputSchema for {typed['tool']}")
                got = await sdk.call(client, typed["tool"], typed["arguments"])
                structured = getattr(got, "structuredContent", None)
                if structured is None:
                    structured = getattr(got, "structured_content", None)
                check(structured is not None, "the SDK saw no structuredContent")
                jsonschema.Draft7Validator(schema).validate(structured)
                _, answer = w.call(typed["tool"], typed["arguments"])
                sent = wire.check_result(answer, era, is_error=False)["structuredContent"]
                check(sent == structured, "the SDK shows another structuredContent than was sent")
                check(wire.check_output(raw_tools, typed["tool"], sent) == schema,
                      "the SDK's outputSchema is not the one sent")

            bogus = {**call["arguments"], "bogus": 1}
            await sdk.call(client, call["tool"], bogus)
            _, answer = w.call(call["tool"], bogus)
            wire.check_unknown_argument(
                wire.check_result(answer, era, is_error=True),
                typed=wire.has_output(listing["message"]["result"]["tools"], call["tool"]))

            await sdk.call(client, "nope_tool", {})
            _, answer = w.call("nope_tool", {})
            wire.check_unknown_tool(wire.check_result(answer, era, is_error=True), "nope_tool")

            long = package.get("long")
            steps = ["list", "call", *(["typed output"] if typed else []),
                     "unknown argument", "unknown tool"]
            if long and long["progress"]:
                seen = []

                async def progress(done, total, message):
                    seen.append((done, total, message))

                short = long["short"]
                await sdk.call(client, long["tool"], short, progress)
                request, answer = w.call(long["tool"], short)
                wire.check_result(answer, era, is_error=False)
                batches = short["batches"]
                check([s[0] for s in seen] == list(range(1, batches + 1)),
                      f"the SDK saw progress {seen}")
                wire.check_progress(w, request, answer, batches)
                steps.append("progress")
            if long:
                request = await cancel(sdk, client, w, long["tool"], long["arguments"],
                                       long["progress"])
                wire.check_cancelled(w, request, long["progress"])
                # The server is still there, and answers the next call.
                await sdk.call(client, call["tool"], call["arguments"])
                steps.append("cancel")
        w.stdout_is_json_rpc()
    return steps


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--mode", choices=["auto", "legacy", "v1"], required=True)
    parser.add_argument("--package")
    args = parser.parse_args()
    packages = wire.packages(args.package)
    import importlib.metadata

    version = importlib.metadata.version("mcp")
    if args.mode == "v1":
        check(version.startswith("1."), f"--mode v1 needs mcp 1.x, this is {version}")
        sdk, expected = V1(), "2025-11-25"
    else:
        check(version.startswith("2."), f"--mode {args.mode} needs mcp 2.x, this is {version}")
        sdk, expected = V2(args.mode), (wire.MODERN if args.mode == "auto" else "2025-11-25")
    failed = 0
    for package in packages:
        label = f"python mcp {version} ({args.mode}) · {package['name']}"
        try:
            steps = await run_package(sdk, args, package, expected)
            print(f"ok   {label}: {', '.join(steps)}")
        except Exception as e:  # noqa: BLE001 - every failure is reported, then the next package runs
            failed += 1
            report_failure(label, e)
    return failed


if __name__ == "__main__":
    sys.exit(1 if anyio.run(main) else 0)
