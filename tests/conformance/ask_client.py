"""Approvals enforced when served, with clients nobody here wrote, read off the wire.

    python ask_client.py --bin DIR --client python|ts --mode auto|legacy [--node NODE]

`neuralis-example-serve`'s `notes_write` declares `ask_on_keys(delete)`. Over stdio (a
recording tee, wire_tee.py) and over streamable HTTP (a recording proxy, http_tee.py),
in the client's default era (2026-07-28) or its legacy mode (the `initialize`
handshake), the SDK (Python `mcp` 2.x, or the TypeScript SDK through ts_ask_client.mjs):

- writes a note (nothing asked), then deletes it with an elicitation handler that
  declines: on the wire an `elicitation/create` request during the call (legacy) or an
  `InputRequiredResult` naming `neuralis.approval` and its retry (2026-07-28); the call is
  an `isError` result saying it needs approval, and the note is still listed;
- deletes it again, the handler accepting: the note is gone;
- as a client with no elicitation capability: the delete is refused, nothing is asked on
  the wire, and the note stays.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import anyio

import hosted
import wire
from wire import MODERN, check

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = "neuralis-example-serve"
WRITE = {"key": "plan", "text": "ship it"}
DELETE = {"key": "plan", "delete": True}


class Python:
    """The Python SDK (`mcp` 2.x): one session per `run`, an elicitation callback that
    answers `answers` in order (none: no elicitation capability)."""

    def __init__(self, mode):
        self.mode = mode

    def run(self, target, answers):
        return anyio.run(self._run, target, answers)

    async def _run(self, target, answers):
        import mcp.types as t
        from mcp import Client, StdioServerParameters

        queue = list(answers) if answers is not None else None

        async def elicit(context, params):
            action = queue.pop(0)
            return t.ElicitResult(action=action, content={} if action == "accept" else None)

        callback = elicit if queue is not None else None
        seen = {}

        async def drive(client):
            seen["era"] = client.protocol_version
            seen["write"] = view(await client.call_tool("notes_write", WRITE))
            deletes = []
            for _ in answers or [None]:
                deletes.append(view(await client.call_tool("notes_write", DELETE)))
                deletes[-1]["notes"] = notes(await client.call_tool("notes_list", {}))
            seen["deletes"] = deletes

        if target["transport"] == "stdio":
            server = StdioServerParameters(command=target["command"][0], args=target["command"][1:])
            async with Client(server, mode=self.mode, elicitation_callback=callback, cache=None) as c:
                await drive(c)
        else:
            import httpx2
            from mcp.client.streamable_http import streamable_http_client

            async with httpx2.AsyncClient(timeout=httpx2.Timeout(30.0, read=300.0)) as http:
                async with Client(streamable_http_client(target["url"], http_client=http),
                                  mode=self.mode, elicitation_callback=callback, cache=None) as c:
                    await drive(c)
        return seen


class TypeScript:
    """The TypeScript SDK, through ts_ask_client.mjs (the same plan, its JSON back)."""

    def __init__(self, mode, node):
        self.mode, self.node = mode, node

    def run(self, target, answers):
        config = {"mode": self.mode, "target": target, "answers": answers,
                  "write": WRITE, "delete": DELETE}
        out = subprocess.run([self.node, os.path.join(HERE, "ts_ask_client.mjs"), json.dumps(config)],
                             capture_output=True, text=True, timeout=120, cwd=HERE)
        check(out.returncode == 0, f"ts_ask_client.mjs failed: {out.stderr[-1500:]}")
        return json.loads(out.stdout)


def view(result):
    return {"isError": bool(result.is_error),
            "structured": result.structured_content,
            "text": " ".join(getattr(b, "text", "") for b in result.content)}


def notes(result):
    return sorted(n["key"] for n in (result.structured_content or {}).get("notes", []))


def delete_requests(w):
    """Every `tools/call` of the delete that went over the wire, with its answer."""
    calls = [e for e in w.entries()
             if e["dir"] == "c2s" and isinstance(e["message"], dict)
             and e["message"].get("method") == "tools/call"
             and (e["message"].get("params") or {}).get("arguments") == DELETE]
    return [(c, w.response(c)) for c in calls]


def server_requests(w, method):
    return [e for e in w.entries()
            if e["dir"] == "s2c" and isinstance(e["message"], dict)
            and e["message"].get("method") == method and "id" in e["message"]]


def check_asked(w, era, answers):
    """The wire of a session whose client answered `answers` (decline, then accept)."""
    calls = delete_requests(w)
    if era == MODERN:
        check(not server_requests(w, "elicitation/create"),
              "a 2026-07-28 server sent an elicitation/create request")
        # One round per delete (input_required), then its retry with the answer.
        rounds = [(c, a) for c, a in calls if a["message"].get("result", {}).get("resultType") == "input_required"]
        retries = [(c, a) for c, a in calls if "requestState" in (c["message"].get("params") or {})]
        check(len(rounds) == len(answers) and len(retries) == len(answers),
              f"{len(rounds)} input_required rounds and {len(retries)} retries for {len(answers)} deletes")
        for (_, answer), (retry, final), action in zip(rounds, retries, answers):
            result = answer["message"]["result"]
            request = result.get("inputRequests", {}).get("neuralis.approval", {})
            check(request.get("method") == "elicitation/create", f"the round asks no confirm: {result}")
            message = request.get("params", {}).get("message", "")
            check("`notes_write`" in message and "`delete`" in message,
                  f"the confirm form does not name the tool and the key: {message!r}")
            check(isinstance(result.get("requestState"), str), "the round has no requestState")
            params = retry["message"]["params"]
            check(params["requestState"] == result["requestState"], "the retry altered the requestState")
            got = params.get("inputResponses", {}).get("neuralis.approval", {}).get("action")
            check(got == action, f"the retry answered {got!r}, the client said {action!r}")
            wire.check_result(final, era, is_error=(action != "accept"))
    else:
        asked = server_requests(w, "elicitation/create")
        check(len(asked) == len(answers), f"{len(asked)} elicitation/create requests for {len(answers)} deletes")
        for request in asked:
            message = request["message"]["params"]["message"]
            check("`notes_write`" in message and "`delete`" in message,
                  f"the confirm form does not name the tool and the key: {message!r}")
        for (_, final), action in zip(calls, answers):
            wire.check_result(final, era, is_error=(action != "accept"))


def check_unasked(w, era):
    check(not server_requests(w, "elicitation/create"), "a client without elicitation was asked")
    calls = delete_requests(w)
    check(len(calls) == 1, f"{len(calls)} deletes on the wire")
    answer = calls[0][1]
    check(answer["message"].get("result", {}).get("resultType") != "input_required",
          "a client without elicitation got an input_required round")
    result = wire.check_result(answer, era, is_error=True)
    text = " ".join(b.get("text", "") for b in result.get("content", []))
    check("needs approval" in text and "was not run" in text, f"the refusal says {text!r}")


def scenario(client, transport, args):
    """Both sessions of one transport: asked (decline, accept), and unasked."""
    expected = MODERN if args.mode == "auto" else None
    for answers in (["decline", "accept"], None):
        with tempfile.TemporaryDirectory() as log_dir:
            if transport == "stdio":
                w = wire.Wire(log_dir)
                target = {"transport": "stdio",
                          "command": [sys.executable, os.path.join(HERE, "wire_tee.py"), log_dir,
                                      os.path.join(args.bin, SERVER), "--mcp"]}
                seen = client.run(target, answers)
            else:
                with hosted.server(args.bin, SERVER) as served, hosted.Tee(served.url, SERVER) as tee:
                    w = tee.wire
                    seen = client.run({"transport": "http", "url": tee.url}, answers)
                    check_session(w, seen, answers, expected)
                continue
            check_session(w, seen, answers, expected)


def check_session(w, seen, answers, expected):
    era = seen["era"]
    if expected:
        check(era == expected, f"negotiated {era}, expected {expected}")
    else:
        check(era != MODERN, f"legacy mode negotiated {era}")
    check(not seen["write"]["isError"], f"the write failed: {seen['write']}")
    if answers is None:
        check_unasked(w, era)
        [refused] = seen["deletes"]
        check(refused["isError"] and "needs approval" in refused["text"], f"the SDK saw {refused}")
        check(refused["notes"] == ["plan"], f"the note is gone without a confirm: {refused['notes']}")
        return
    check_asked(w, era, answers)
    declined, accepted = seen["deletes"]
    check(declined["isError"] and "was not run: the person declined" in declined["text"],
          f"the SDK saw {declined}")
    check(declined["notes"] == ["plan"], f"the note is gone after a decline: {declined['notes']}")
    check(not accepted["isError"], f"the confirmed delete failed: {accepted}")
    check(accepted["notes"] == [], f"the note is still there after a confirm: {accepted['notes']}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin", required=True)
    p.add_argument("--client", choices=["python", "ts"], required=True)
    p.add_argument("--mode", choices=["auto", "legacy"], required=True)
    p.add_argument("--node")
    args = p.parse_args()
    client = Python(args.mode) if args.client == "python" else TypeScript(args.mode, args.node)
    label = f"approvals ({args.client}, {args.mode})"
    status = 0
    for transport in ("stdio", "http"):
        try:
            scenario(client, transport, args)
            print(f"ok   {label} over {transport}: confirm, decline, no elicitation")
        except (wire.Failure, subprocess.TimeoutExpired) as e:
            print(f"FAIL {label} over {transport}: {e}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
