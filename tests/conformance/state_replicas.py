"""Sealed `requestState`s across stateless replicas: two `neuralis-example-serve
--stateless` replicas behind nginx (round robin, scale_out.py's), given the same
`--request-state-key-file`, a short `--request-state-ttl` and the same
`--consumed-states-dir`, driven by the Python `mcp` 2.x client in its default era
(2026-07-28) with its manual multi-round-trip calls.

    python state_replicas.py --bin DIR --work DIR [--nginx PATH]

`notes_write` with `delete` asks for approval: its first call is an `InputRequiredResult`
with a sealed `requestState`. Checked, each read from the answer as sent and nginx's log:

- the confirmed retry completes on the other replica than the round's (they share the
  key), and the handler ran (the write's own result);
- that completed confirmed retry, sent again three times (reaching both replicas), is
  refused with `-32602` (`data.reason`: `replayed`): its confirm was used, recorded in
  the directory the pair shares (one file per confirm used);
- the same state sent by another caller (bob's token), for other arguments, altered by
  one character, or after its expiry, is refused with JSON-RPC `-32602` before anything
  runs (`data.reason`: `invalid`, or `expired`);
- a replica with another key refuses a state the pair sealed.

Then the same with the used confirms in a database: two `neuralis-example-incidents`
replicas sharing a key and a PostgreSQL server (scale_out.py's, started here), whose
`incidents_delete` asks on every call. A deletion confirmed through the pair runs once:
the incident is gone, the confirmed retry sent again three times (reaching both
replicas) is refused with `-32602` (`replayed`), and the `consumed_states` table holds
one row, read with `psql`.
"""

import argparse
import importlib.metadata
import os
import shutil
import subprocess
import sys
import tempfile
import time

import anyio

import hosted
from scale_out import UPSTREAM_HOST, Nginx, Postgres, authority, postgres_bindir
from wire import MODERN, check, report_failure

TTL = 3
REPLAYS = 3
DELETE = {"key": "plan", "delete": True}
APPROVAL = "neuralis.approval"
ACCEPT = {APPROVAL: {"action": "accept", "content": {}}}


def connect(url, token):
    """A 2026-07-28 client of `url` as the caller of `token`, declaring elicitation."""
    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def client():
        import httpx2
        import mcp.types as t
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client

        async def never(context, params):
            return t.ElicitResult(action="decline")

        headers = {"Authorization": f"Bearer {token}"}
        async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=60.0)) as http:
            async with Client(streamable_http_client(url, http_client=http), cache=None,
                              elicitation_callback=never) as c:
                check(c.protocol_version == MODERN, f"negotiated {c.protocol_version}")
                yield c
    return client()


async def call(client, arguments, tool="notes_write", **retry):
    """One `tools/call` of `tool`, the SDK driving no rounds: its result, an
    `InputRequiredResult`, or the protocol error's code and data."""
    from mcp import MCPError

    try:
        return await client.session.call_tool(tool, arguments, allow_input_required=True, **retry)
    except MCPError as e:
        return {"code": e.error.code, "data": e.error.data}


def state_of(round_):
    check(getattr(round_, "request_state", None) and APPROVAL in (round_.input_requests or {}),
          f"the delete is not an approval round: {round_}")
    return round_.request_state


def refused(answer, reason, what):
    check(isinstance(answer, dict) and answer.get("code") == -32602,
          f"{what}: not refused with -32602 but {answer}")
    got = (answer.get("data") or {}).get("reason")
    check(got == reason, f"{what}: refused for {got!r}, expected {reason!r}")


async def drive(url, stranger_url):
    """The steps, in order: what each answered."""
    steps = []
    async with connect(url, hosted.ADA) as ada, connect(url, hosted.BOB) as bob:
        # Rounds and confirmed retries, two of each, so that one pair crosses replicas
        # whichever replica round robin starts with.
        for _ in range(2):
            round_ = await call(ada, DELETE)
            steps.append(("round", state_of(round_)))
            done = await call(ada, DELETE, input_responses=ACCEPT, request_state=round_.request_state)
            check(not isinstance(done, dict) and getattr(done, "result_type", "complete") == "complete"
                  and not done.is_error and (done.structured_content or {}).get("deleted") is not None,
                  f"the confirmed retry did not run the write: {done}")
            steps.append(("retry", done))
        state = steps[0][1]
        # The first confirmed retry, sent again: round robin takes the replays to both.
        for _ in range(REPLAYS):
            refused(await call(ada, DELETE, input_responses=ACCEPT, request_state=state),
                    "replayed", "a completed confirmed retry sent again")
        refused(await call(bob, DELETE, input_responses=ACCEPT, request_state=state),
                "invalid", "another caller's state")
        other = {"key": "other", "delete": True}
        refused(await call(ada, other, input_responses=ACCEPT, request_state=state),
                "invalid", "the state for other arguments")
        flip = "A" if state[-1] != "A" else "B"
        refused(await call(ada, DELETE, input_responses=ACCEPT, request_state=state[:-1] + flip),
                "invalid", "an altered state")
        round_ = await call(ada, DELETE)
        late = state_of(round_)
        await anyio.sleep(TTL + 1)
        refused(await call(ada, DELETE, input_responses=ACCEPT, request_state=late),
                "expired", "an expired state")
    async with connect(stranger_url, hosted.ADA) as stranger, connect(url, hosted.ADA) as ada:
        foreign = state_of(await call(stranger, DELETE))
        refused(await call(ada, DELETE, input_responses=ACCEPT, request_state=foreign),
                "invalid", "another key's state, retried through the pair")
    return steps


def completed(answer, what):
    check(not isinstance(answer, dict) and getattr(answer, "result_type", "complete") == "complete"
          and not answer.is_error, f"{what}: {answer}")
    return answer.structured_content or {}


async def drive_incidents(url):
    """Open an incident, delete it with a confirm, replay the confirmed retry."""
    async with connect(url, hosted.ADA) as ada:
        opened = completed(await call(ada, {"title": "a deletion to confirm"}, "incidents_open"),
                           "incidents_open")
        target = {"id": opened["id"]}
        state = state_of(await call(ada, target, "incidents_delete"))
        deleted = completed(await call(ada, target, "incidents_delete", input_responses=ACCEPT,
                                       request_state=state), "the confirmed deletion")
        check(deleted.get("id") == opened["id"], f"deleted {deleted}")
        for _ in range(REPLAYS):
            refused(await call(ada, target, "incidents_delete", input_responses=ACCEPT,
                               request_state=state), "replayed", "a confirmed deletion sent again")
        listed = completed(await call(ada, {}, "incidents_list"), "incidents_list")
        check(all(i["id"] != opened["id"] for i in listed["incidents"]), f"still listed: {listed}")


def incidents_scenario(args, tmp):
    """The used confirms in PostgreSQL, shared by two `neuralis-example-incidents`."""
    bindir = postgres_bindir(args.postgres)
    check(bindir, "PostgreSQL is not installed (apt-get install postgresql)")
    tokens = hosted.token_file(tmp)
    key = os.path.join(tmp, "state.key")
    with open(key, "w", encoding="utf-8") as f:
        f.write(os.urandom(32).hex() + "\n")
    with Postgres(bindir) as db:
        replica = ("--stateless", "--tokens", tokens, "--allow-host", UPSTREAM_HOST,
                   "--request-state-key-file", key, "--database", db.connection)
        with hosted.server(args.bin, "neuralis-example-incidents", *replica) as a, \
                hosted.server(args.bin, "neuralis-example-incidents", *replica) as b:
            upstreams = [authority(a.url), authority(b.url)]
            nginx = Nginx(args.nginx, os.path.join(args.work, "incidents"), upstreams)
            try:
                anyio.run(drive_incidents, nginx.url)
            finally:
                nginx.stop()
            rows = nginx.access()
        psql = subprocess.run(
            [os.path.join(bindir, "psql"), "-h", "127.0.0.1", "-p", str(db.port), "-U", "app",
             "-d", "postgres", "-tAc", "SELECT count(*) FROM consumed_states"],
            capture_output=True, text=True, timeout=30)
        check(psql.returncode == 0, f"psql failed: {psql.stderr}")
        check(psql.stdout.strip() == "1", f"consumed_states holds {psql.stdout.strip()} rows, not 1")
    calls = [r for r in rows if r["method"] == "tools/call"]
    # Open, round, confirmed retry, then the replays.
    replays = calls[3:3 + REPLAYS]
    check({r["upstream"] for r in replays} == set(upstreams),
          f"the replays did not reach both replicas: {replays}")
    print("ok   used confirms in PostgreSQL across 2 stateless incidents replicas behind nginx: "
          "a confirmed incidents_delete ran once, its replays refused on both (-32602 "
          "replayed), one consumed_states row")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    parser.add_argument("--postgres", help="PostgreSQL's bin directory (default: the Debian package's)")
    args = parser.parse_args()
    status = 0
    try:
        check(os.access(args.nginx, os.X_OK), f"no nginx at {args.nginx} (apt-get install nginx)")
        with tempfile.TemporaryDirectory() as tmp:
            tokens = hosted.token_file(tmp)
            key = os.path.join(tmp, "state.key")
            with open(key, "w", encoding="utf-8") as f:
                f.write(os.urandom(32).hex() + "\n")
            used = os.path.join(tmp, "used")
            replica = ("--stateless", "--tokens", tokens, "--allow-host", UPSTREAM_HOST,
                       "--request-state-key-file", key, "--request-state-ttl", str(TTL),
                       "--consumed-states-dir", used)
            # A third server with its own random key: the stranger.
            stranger = ("--stateless", "--tokens", tokens)
            with hosted.server(args.bin, "neuralis-example-serve", *replica) as a, \
                    hosted.server(args.bin, "neuralis-example-serve", *replica) as b, \
                    hosted.server(args.bin, "neuralis-example-serve", *stranger) as c:
                upstreams = [authority(a.url), authority(b.url)]
                nginx = Nginx(args.nginx, args.work, upstreams)
                try:
                    anyio.run(drive, nginx.url, c.url)
                finally:
                    nginx.stop()
                rows = nginx.access()
            # One file per confirm used: the two confirmed retries, not their replays.
            consumed = os.listdir(used)
            check(len(consumed) == 2, f"the shared directory holds {consumed}")
        calls = [r for r in rows if r["method"] == "tools/call"]
        # Round 1, retry 1, round 2, retry 2: one pair crossed replicas.
        crossed = [calls[i]["upstream"] != calls[i + 1]["upstream"] for i in (0, 2)]
        check(any(crossed), f"no confirmed retry reached the other replica: {calls[:4]}")
        check({r["upstream"] for r in calls} == set(upstreams), f"calls did not reach both: {calls}")
        replays = calls[4:4 + REPLAYS]
        check({r["upstream"] for r in replays} == set(upstreams),
              f"the replays did not reach both replicas: {replays}")
        version = importlib.metadata.version("mcp")
        print(f"ok   requestState across 2 stateless replicas behind nginx · python mcp {version}: "
              f"confirmed on the other replica; the confirmed retry replayed on both, another "
              f"caller's, other arguments', altered, expired and another key's states "
              f"refused (-32602)")
    except Exception as e:  # noqa: BLE001 - reported as the run's failure
        report_failure("requestState across replicas", e)
        status = 1
    try:
        with tempfile.TemporaryDirectory() as tmp:
            incidents_scenario(args, tmp)
    except Exception as e:  # noqa: BLE001 - reported as the run's failure
        report_failure("used confirms in PostgreSQL", e)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
