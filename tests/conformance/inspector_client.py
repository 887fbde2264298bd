"""Drive every example package with the MCP Inspector CLI and its TypeScript SDK.

    python inspector_client.py --root REPO --bin DIR --node NODE [--package NAME]

(`npm ci` in this directory installs the Inspector, its SDK and Node 22.)

For each package and each protocol era (the CLI's `legacy` and `modern`, the SDK's
`legacy` and `auto`): `tools/list --strict` must report no portability finding; a call
with valid arguments and one with an unknown argument; then, through the SDK
(`ts_client.mjs`), an unknown tool, progress notifications and a cancelled call. Every
step is checked on the raw wire (wire.py).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import wire
from wire import check

HERE = os.path.dirname(os.path.abspath(__file__))
ERAS = [("legacy", "legacy", "2025-11-25"), ("modern", "auto", wire.MODERN)]


def tee(args, package, log_dir):
    command = [os.path.join(args.bin, package["command"][0]), *package["command"][1:]]
    return [sys.executable, os.path.join(HERE, "wire_tee.py"), log_dir, *command]


def inspector(args, era, log_dir, package, *method):
    cli = os.path.join(args.modules, "@modelcontextprotocol", "inspector", "clients",
                       "launcher", "build", "index.js")
    run = subprocess.run(
        [args.node, cli, "--cli", "--protocol-era", era, "--format", "json", *method,
         *tee(args, package, log_dir)],
        capture_output=True, text=True, timeout=120,
    )
    return run


def run_package(args, package):
    files = wire.load_tools(args.root, package["tools"])
    done = []
    for cli_era, sdk_era, version in ERAS:
        with tempfile.TemporaryDirectory() as log_dir:
            w = wire.Wire(log_dir)
            listed = inspector(args, cli_era, log_dir, package, "--method", "tools/list", "--strict")
            check(listed.returncode == 0,
                  f"tools/list --strict exited {listed.returncode}: {listed.stderr.strip()[:500]}")
            check(listed.stderr.strip() == "",
                  f"tools/list --strict reported: {listed.stderr.strip()[:500]}")
            findings = json.loads(listed.stdout).get("schemaFindings")
            check(not findings, f"tools/list --strict found: {json.dumps(findings)[:500]}")
            answer = w.response(w.request("tools/list"))
            wire.check_listing(answer["message"]["result"]["tools"], files)
            if version == wire.MODERN:
                meta = (w.request("tools/list")["message"].get("params") or {}).get("_meta", {})
                check(meta.get("io.modelcontextprotocol/protocolVersion") == version,
                      f"the CLI's tools/list is not on {version}: {meta}")
            else:
                w.request("initialize")

            call = package["call"]
            ran = inspector(args, cli_era, log_dir, package, "--method", "tools/call",
                            "--tool-name", call["tool"], "--tool-args-json",
                            json.dumps(call["arguments"]))
            check(ran.returncode == 0, f"tools/call exited {ran.returncode}: {ran.stdout[:300]}")
            _, answer = w.call(call["tool"], call["arguments"])
            result = wire.check_result(answer, version, is_error=False)
            check(json.loads(ran.stdout)["result"]["structuredContent"]
                  == result["structuredContent"], "the CLI shows another result than was sent")

            typed = package.get("typed")
            if typed:
                ran = inspector(args, cli_era, log_dir, package, "--method", "tools/call",
                                "--tool-name", typed["tool"], "--tool-args-json",
                                json.dumps(typed["arguments"]))
                check(ran.returncode == 0, f"tools/call {typed['tool']} exited {ran.returncode}")
                shown = json.loads(ran.stdout)["result"]["structuredContent"]
                cli_tools = json.loads(listed.stdout)["result"]["tools"]
                wire.check_output(cli_tools, typed["tool"], shown)
                _, answer = w.call(typed["tool"], typed["arguments"])
                sent = wire.check_result(answer, version, is_error=False)["structuredContent"]
                check(sent == shown, "the CLI shows another structuredContent than was sent")

            bogus = {**call["arguments"], "bogus": 1}
            ran = inspector(args, cli_era, log_dir, package, "--method", "tools/call",
                            "--tool-name", call["tool"], "--tool-args-json", json.dumps(bogus))
            # The CLI shows the result and exits 5 (`tool_is_error`) for an isError result.
            check(ran.returncode == 5 and json.loads(ran.stdout)["result"]["isError"] is True,
                  f"the CLI did not see an isError result ({ran.returncode}): {ran.stdout[:300]}")
            _, answer = w.call(call["tool"], bogus)
            wire.check_unknown_argument(
                wire.check_result(answer, version, is_error=True),
                typed=wire.has_output(json.loads(listed.stdout)["result"]["tools"], call["tool"]))

            sdk = subprocess.run(
                [args.node, os.path.join(HERE, "ts_client.mjs"), sdk_era, json.dumps(package),
                 *tee(args, package, log_dir)],
                capture_output=True, text=True, timeout=120,
            )
            check(sdk.returncode == 0, f"ts_client.mjs failed: {sdk.stderr.strip()[-800:]}")
            seen = json.loads(sdk.stdout.strip().splitlines()[-1])
            check(seen["era"] == version, f"the SDK negotiated {seen['era']}, expected {version}")
            check(seen["unknownTool"]["isError"] is True, "unknown tool is not isError")
            _, answer = w.call("nope_tool", {})
            wire.check_unknown_tool(wire.check_result(answer, version, is_error=True), "nope_tool")
            if typed:
                t = seen.get("typed") or {}
                check(t.get("isError") is False and t.get("outputSchema"),
                      f"the SDK did not call {typed['tool']} as a typed tool: {t}")
                wire.check_output([{"name": typed["tool"], "outputSchema": t["outputSchema"]}],
                                  typed["tool"], t["structuredContent"])
            long = package.get("long")
            if long and long["progress"]:
                short = long["short"]
                batches = short["batches"]
                request, answer = w.call(long["tool"], short)
                wire.check_result(answer, version, is_error=False)
                wire.check_progress(w, request, answer, batches)
                # The wire has every report before the result (checked above). The SDK
                # (2.3.1) runs notification handlers in a microtask but settles responses at
                # once, so a last report that arrives in the same read as the result can be
                # dropped after the request's progress handler is gone: allow that one.
                values = [p["progress"] for p in seen["progress"]["seen"]]
                check(values == list(range(1, len(values) + 1)) and len(values) >= batches - 1,
                      f"the SDK saw {seen['progress']}")
            if long:
                check(seen["cancel"]["settled"] == "rejected", f"cancel: {seen['cancel']}")
                check(seen["afterCancel"]["isError"] is False, "the call after the cancel")
                request = w.request("tools/call", lambda p: p.get("name") == long["tool"]
                                    and (p.get("arguments") or {}) == long["arguments"])
                wire.check_cancelled(w, request, long["progress"])
            w.stdout_is_json_rpc()
        steps = ["list --strict", "call", *(["typed output"] if package.get("typed") else []),
                 "unknown argument", "unknown tool"]
        if long and long["progress"]:
            steps.append("progress")
        if long:
            steps.append("cancel")
        done.append(f"{cli_era}: {', '.join(steps)}")
    return done


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--node", required=True)
    parser.add_argument("--modules", default=os.path.join(HERE, "node_modules"))
    parser.add_argument("--package")
    args = parser.parse_args()
    packages = wire.packages(args.package)
    failed = 0
    for package in packages:
        label = f"inspector 2.12.0 · {package['name']}"
        try:
            print(f"ok   {label}: {'; '.join(run_package(args, package))}")
        except Exception as e:  # noqa: BLE001 - every failure is reported, then the next package runs
            failed += 1
            print(f"FAIL {label}: {type(e).__name__}: {e}")
    return failed


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
