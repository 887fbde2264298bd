"""Our refusals against FastMCP's, on the same invalid calls (issue 60).

    python refusals_fastmcp.py            # needs `fastmcp` (and `email-validator`)

`mcp/tests/refusals.rs` sends 16 invalid `tools/call`s to `deploy_release` and asserts the
refusal text our server returns. This script declares the same input for FastMCP, as a
Python user would (pydantic models: a discriminated union on `kind` for the internally
tagged `strategy`, on `via` for the adjacently tagged `notify`, a plain union for the
externally tagged `target` and the untagged `contact`, `Literal` for the plain enums, the
same bounds through `Field`, `EmailStr` and patterns for formats and patterns, every object
closed like `additionalProperties: false`), runs it as a FastMCP server on stdio (this
script, `--serve`), sends the same argument objects as raw JSON-RPC lines, and reads what a
model would read: `content[0].text` of the `isError` result, or the JSON-RPC error's
`message` when FastMCP answers with a protocol error (the `kind` column says which).

Per call it prints our text's length (the exact text refusals.rs expects, rebuilt below),
FastMCP's, and whether FastMCP's text names the faulty field(s) and the bound or allowed
values; then the median of each, taken as refusals.rs takes it (the upper median).
Not part of the suite: no Rust build is needed, nothing listens on the network, and every
read from the server has a deadline.
"""

import json
import os
import re
import subprocess
import sys
import threading
import time
from typing import Annotated, Literal, Optional, Union

TOOL = "deploy_release"
VERSION_PATTERN = r"^v[0-9]+\.[0-9]+\.[0-9]+$"
SMS_PATTERN = r"^\+[1-9][0-9]{6,14}$"
# JSON Schema's `hostname` format has no pydantic type: RFC 1123 labels, as a pattern.
HOSTNAME_PATTERN = (
    r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$"
)


# ---------------------------------------------------------------------------------------
# The server: deploy_release's input, as pydantic models.


def build_server():
    from fastmcp import FastMCP
    from pydantic import BaseModel, ConfigDict, EmailStr, Field

    class Closed(BaseModel):
        model_config = ConfigDict(extra="forbid")

    # strategy: internally tagged (`kind`).
    class Canary(Closed):
        kind: Literal["canary"]
        percent: Annotated[int, Field(ge=1, le=50)]

    class BlueGreen(Closed):
        kind: Literal["blue_green"]
        switch_after_s: Optional[Annotated[int, Field(ge=0, le=3600)]] = None

    class AllAtOnce(Closed):
        kind: Literal["all_at_once"]

    Strategy = Annotated[Union[Canary, BlueGreen, AllAtOnce], Field(discriminator="kind")]

    # target: externally tagged (a unit variant is a string, the others one-key objects).
    class Region(Closed):
        region: Annotated[str, Field(min_length=2, max_length=12)]

    class Hosts(Closed):
        hosts: Annotated[
            list[Annotated[str, Field(pattern=HOSTNAME_PATTERN)]], Field(min_length=1)
        ]

    Target = Union[Literal["everywhere"], Region, Hosts]

    # notify: adjacently tagged (`via` + `to`).
    class ByEmail(Closed):
        via: Literal["email"]
        to: EmailStr

    class BySms(Closed):
        via: Literal["sms"]
        to: Annotated[str, Field(pattern=SMS_PATTERN)]

    Notify = Annotated[Union[ByEmail, BySms], Field(discriminator="via")]

    # contact: untagged.
    class Person(Closed):
        name: Annotated[str, Field(min_length=1)]
        team: Optional[str] = None

    Contact = Union[EmailStr, Person]

    mcp = FastMCP("refusals")

    # The arguments as the function's parameters, so that the tool's input schema is the
    # argument object itself, as ours is; FastMCP closes it (`additionalProperties: false`)
    # and refuses an unknown top-level key itself.
    @mcp.tool(name=TOOL, description="Deploy a release.")
    def deploy_release(
        version: Annotated[str, Field(pattern=VERSION_PATTERN)],
        strategy: Strategy,
        target: Target,
        channel: Optional[Literal["stable", "beta"]] = None,
        dry_run: Optional[bool] = None,
        tags: Optional[Annotated[list[str], Field(max_length=5)]] = None,
        notify: Optional[Notify] = None,
        contact: Optional[Contact] = None,
    ) -> str:
        return "deployed"

    return mcp


def serve():
    build_server().run(transport="stdio", show_banner=False)


# ---------------------------------------------------------------------------------------
# The calls and our refusals: copied from mcp/tests/refusals.rs (`valid`, `with`, `cases`,
# `text`).


def valid():
    return {"version": "v1.2.3", "strategy": {"kind": "canary", "percent": 10},
            "target": {"region": "eu-west"}}


def with_(key, value):
    call = valid()
    call[key] = value
    return call


# Each case: the call, our faults (pointer, words), and per fault the words that count as
# "the bound or allowed values" in another server's text (any one of them, case-blind). For
# a key that is not accepted, that is a key that is (`canary` for the variant `percent`
# belongs to, `region`, `dry_run`; for `bogus`, the accepted list, checked by `dry_run`).
CASES = [
    (with_("strategy", {"kind": "canary", "percent": 80}),
     [("/strategy/percent", "at most 50")], [["50"]]),
    (with_("strategy", {"kind": "rolling"}),
     [("/strategy/kind", "one of `canary`, `blue_green`, `all_at_once`")],
     [["canary"]]),
    (with_("strategy", {"percent": 10}),
     [("/strategy/kind",
       "`kind` is required (it picks the variant): one of `canary`, `blue_green`, `all_at_once`")],
     [["canary"]]),
    (with_("strategy", {"kind": "all_at_once", "percent": 10}),
     [("/strategy/percent", "`percent` is not a field of `all_at_once`; it belongs to `canary`")],
     [["canary"]]),
    (with_("target", {"region": "x"}),
     [("/target/region", "at least 2 characters")], [["2 char"]]),
    (with_("target", {"hosts": ["a..b"]}),
     [("/target/hosts/0", "a host name")], [["host name", "hostname", "pattern"]]),
    (with_("target", {"regoin": "eu-west"}),
     [("/target/regoin", "`regoin` is not a variant here; did you mean `region`?")],
     [["region"]]),
    (with_("target", "nowhere"),
     [("/target", "`everywhere`, or an object with one key, the variant: one of `region`, `hosts`")],
     [["everywhere"]]),
    (with_("notify", {"via": "email", "to": "ops"}),
     [("/notify/to", "an email address")], [["email address"]]),
    (with_("notify", {"via": "sms", "to": "12"}),
     [("/notify/to", "matches `^\\+[1-9][0-9]{6,14}$`")], [[SMS_PATTERN]]),
    (with_("contact", {"name": ""}),
     [("/contact/name", "at least 1 character")], [["1 char"]]),
    (with_("contact", 7),
     [("/contact", "an email address, or an object with `name`")],
     [["email"]]),
    (with_("channel", "nightly"),
     [("/channel", "one of `stable`, `beta`")], [["stable"]]),
    (with_("tags", ["a", "b", "c", "d", "e", "f"]),
     [("/tags", "at most 5 items")], [["5 item"]]),
    ({"version": "1.2", "channel": 3, "dryrun": True, "tags": [1],
      "strategy": {"kind": "canary", "percent": 0},
      "target": {"hosts": []}},
     [("/version", "matches `^v[0-9]+\\.[0-9]+\\.[0-9]+$`"),
      ("/channel", "one of `stable`, `beta`"),
      ("/tags/0", "a string, not a number"),
      ("/strategy/percent", "at least 1"),
      ("/target/hosts", "at least 1 item"),
      ("/dryrun", "`dryrun` is not an argument here; did you mean `dry_run`?")],
     [[VERSION_PATTERN], ["stable"], ["string"], ["equal to 1", "at least 1"], ["1 item"],
      ["dry_run"]]),
    ({"strategy": {"kind": "canary", "percent": 5}, "target": "everywhere", "bogus": 1},
     [("/version", "`version` is required"),
      ("/bogus", "`bogus` is not an argument here; accepted: `version`, `channel`, "
                 "`dry_run`, `tags`, `strategy`, `target`, `notify`, `contact`")],
     [["required", "missing"], ["dry_run"]]),
]


def our_text(faults):
    text = f"invalid arguments for `{TOOL}`: they do not match the tool's schema"
    for pointer, message in faults:
        text += f"\n- `{pointer}`: {message}"
    return text


def median(lengths):
    """The upper median, as refusals.rs's `median` takes it."""
    return sorted(lengths)[len(lengths) // 2]


# ---------------------------------------------------------------------------------------
# The client: raw JSON-RPC lines to this script's `--serve`, each read with a deadline.


class Stdio:
    def __init__(self, argv, timeout=20.0):
        self.timeout = timeout
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, encoding="utf-8", bufsize=1,
        )
        self.lines = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        self.stderr = []
        threading.Thread(target=self._drain, daemon=True).start()
        self.next_id = 0

    def _read(self):
        for line in self.proc.stdout:
            with self.cond:
                self.lines.append(line)
                self.cond.notify_all()
        with self.cond:
            self.lines.append(None)
            self.cond.notify_all()

    def _drain(self):
        for line in self.proc.stderr:
            self.stderr.append(line)

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        rid = self.next_id
        self.proc.stdin.write(json.dumps(
            {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}) + "\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + self.timeout
        with self.cond:
            while True:
                for i, line in enumerate(self.lines):
                    if line is None:
                        raise RuntimeError("the server closed its stdout:\n" + "".join(self.stderr[-20:]))
                    try:
                        message = json.loads(line)
                    except ValueError:
                        continue
                    if message.get("id") == rid and ("result" in message or "error" in message):
                        del self.lines[i]
                        return message
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no answer to `{method}` in {self.timeout}s")
                self.cond.wait(left)

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)


def refusal(answer):
    """(kind, text) of what a model reads from the answer to a refused call."""
    if "error" in answer:
        return "rpc-error", answer["error"].get("message", "")
    result = answer["result"]
    content = result.get("content") or [{}]
    text = content[0].get("text", "")
    return ("isError" if result.get("isError") else "NOT-REFUSED"), text


def names_field(text, pointer):
    """Does `text` name the faulty field: its last key, with its path when nested (in any
    notation: `strategy.canary.percent`, `/strategy/percent`, ...)."""
    parts = [p for p in pointer.split("/") if p]
    if not parts:
        return False
    leaf = parts[-1]
    if leaf.isdigit():  # an item: the array's name and the index
        return bool(re.search(rf"\b{re.escape(parts[-2])}\b.*\b{leaf}\b", text))
    if not re.search(rf"\b{re.escape(leaf)}\b", text):
        return False
    return all(re.search(rf"\b{re.escape(p)}\b", text) for p in parts[:-1] if not p.isdigit())


def names_bound(text, hints):
    lower = text.lower()
    return any(h.lower() in lower for h in hints)


def listed(text):
    """How many faults FastMCP's text lists (pydantic's `N validation error(s)` line)."""
    m = re.match(r"(\d+) validation errors? for", text)
    return int(m.group(1)) if m else 0


def without_urls(text):
    """The text less pydantic's `For further information visit ...` lines (what
    `PYDANTIC_ERRORS_INCLUDE_URL=0` would leave)."""
    return "\n".join(l for l in text.split("\n")
                     if not l.lstrip().startswith("For further information visit"))


def yes_no(flags):
    """`yes`, `no`, or `k/n` when a call has several faults."""
    if len(flags) == 1:
        return "yes" if flags[0] else "no"
    return f"{sum(flags)}/{len(flags)}"


def main():
    import importlib.metadata as md

    version = md.version("fastmcp")
    server = Stdio([sys.executable, os.path.abspath(__file__), "--serve"])
    try:
        init = server.request("initialize", {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "refusals_fastmcp", "version": "0"}})
        if "error" in init:
            raise RuntimeError(f"initialize failed: {init['error']}")
        era = init["result"].get("protocolVersion")
        server.notify("notifications/initialized")
        tools = server.request("tools/list", {})["result"]["tools"]
        schema = next(t for t in tools if t["name"] == TOOL)["inputSchema"]
        ok = server.request("tools/call", {"name": TOOL, "arguments": valid()})
        kind, text = refusal(ok)
        if kind != "NOT-REFUSED" or text != "deployed":
            raise RuntimeError(f"the valid call was refused: {ok}")

        rows, ours, theirs, theirs_bare = [], [], [], []
        for n, (call, faults, bounds) in enumerate(CASES, 1):
            answer = server.request("tools/call", {"name": TOOL, "arguments": call})
            kind, text = refusal(answer)
            mine = our_text(faults)
            ours.append(len(mine))
            theirs.append(len(text))
            fields = [names_field(text, p) for p, _ in faults]
            bound = [names_bound(text, h) for h in bounds]
            bare = len(without_urls(text))
            theirs_bare.append(bare)
            rows.append((n, json.dumps(call, separators=(",", ":")), len(mine), len(text),
                         bare, f"{len(faults)}/{listed(text)}", kind, yes_no(fields),
                         yes_no(bound), text))
    finally:
        server.close()

    print(f"fastmcp {version} (mcp {md.version('mcp')}, pydantic {md.version('pydantic')}), "
          f"stdio, protocol {era}; our texts from mcp/tests/refusals.rs")
    print(f"additionalProperties in FastMCP's input schema: {schema.get('additionalProperties')!r}")
    print()
    print("ours/fastmcp: characters; -url: FastMCP's less its `For further information` lines;")
    print("faults: ours/FastMCP's count; field, bound: FastMCP's text names the faulty field,")
    print("the bound or allowed values (k/n of the faults when there are several)")
    print()
    print(f"{'#':>2} {'ours':>5} {'fastmcp':>7} {'-url':>5} {'faults':>6} {'kind':<8} "
          f"{'field':<5} {'bound':<5} call")
    for n, call, mine, them, bare, count, kind, field, bound, _ in rows:
        print(f"{n:>2} {mine:>5} {them:>7} {bare:>5} {count:>6} {kind:<8} {field:<5} "
              f"{bound:<5} {call}")
    print()
    print(f"median refusal: ours {median(ours)} characters, "
          f"FastMCP {version} {median(theirs)} characters ({median(theirs_bare)} less its "
          f"URL lines); upper median of {len(rows)} calls")
    if "-v" in sys.argv:
        for n, call, *_, kind, _, _, text in rows:
            print(f"\n--- {n} ({kind}) {call}\n{text}")
    bad = [r for r in rows if r[6] != "isError"]
    if bad:
        print(f"\nFastMCP did not answer {len(bad)} of the calls with an isError result: "
              + ", ".join(f"{r[0]} ({r[6]})" for r in bad))


if __name__ == "__main__":
    if "--serve" in sys.argv:
        serve()
    else:
        main()
