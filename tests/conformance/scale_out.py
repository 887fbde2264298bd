"""Stateless scale-out: two replicas behind nginx (round robin), driven through it by the
Python `mcp` 2.x client in its default era (2026-07-28, stateless: no session ties a
client to a replica).

    python scale_out.py --bin DIR --work DIR [--nginx PATH] [--postgres BINDIR]

nginx runs in the foreground with the configuration docs/hosting.md shows ("Behind a
proxy"), read from that page with only its addresses replaced, inside a main config
generated in --work (under target/) whose access log records each request's
`$upstream_addr`, `$upstream_status` and `Mcp-Method` header. The replicas share one
token table and allow the public name the client uses (`Host: mcp.internal`, which nginx
passes on and each replica accepts with `--allow-host`).

1. `neuralis-example-serve --stateless`, whose `Notes` store lives in each process: the
   client lists and calls several times; every call succeeded (through the SDK, and in
   nginx's log); lists and calls landed on both replicas; and each replica's answers are
   its own (the in-memory revision counts the writes that replica took, 1, 2, 3... in
   the order nginx sent them there). State in a service value is per replica.
2. `neuralis-example-incidents --stateless --database ...`, whose state lives in
   PostgreSQL (the Debian package's server, started here on 127.0.0.1 in a temporary
   directory): an incident opened through one replica is read, closed and read again
   through the other (nginx's log says which replica answered each); two clients writing
   at once through both replicas lose nothing (every escalation counted, every incident
   opened listed, ids distinct).
3. `neuralis-example-serve` in session mode (legacy clients) behind the docs' sticky
   upstream (`hash $remote_addr consistent`): legacy sessions of the Python `mcp` 2.x
   client from six loopback addresses at once; every call answered, each session's
   requests (nginx's log has their `Mcp-Session-Id`) on one replica, both replicas used.
4. Tasks (MCP's tasks extension) shared by `neuralis-example-incidents` replicas through
   PostgreSQL, on the raw wire (JSON-RPC over HTTP as 2026-07-28 frames it: the Python SDK
   has no tasks client): `incidents_report` runs as a task on the replica that created
   it, and through the other replica (nginx's log says which answered) it is polled
   (`working` with its progress message, then `input_required` with its question),
   answered with `tasks/update`, read `completed` with its result from both replicas;
   another is cancelled through the other replica and reads `cancelled` from both; a
   third's replica is killed (SIGKILL) while it runs, and the survivor reads it `failed`
   within the lease (`--task-lease 2`) plus a poll, never `working` forever.
"""

import argparse
import glob
import importlib.metadata
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import anyio

import hosted
from wire import MODERN, check, report_failure

ROUNDS = 4
UPSTREAM_HOST = "mcp.internal"
LOG_FORMAT = ("$upstream_addr $status $upstream_status $http_mcp_method $request_time "
              "$http_mcp_session_id")
# Legacy sessions at once, each from its own loopback address (127.0.0.2...), each
# listing and calling this many times.
SESSIONS = 6
SESSION_CALLS = 4

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "..", "..", "docs", "hosting.md")

# The main config around the docs' `http`-level blocks: the test's own files and log.
CONFIG = """\
worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/error.log warn;
events {{ worker_connections 256; }}
http {{
    log_format upstreams '{log_format}';
    access_log {work}/access.log upstreams;
    client_body_temp_path {work}/tmp/body;
    proxy_temp_path {work}/tmp/proxy;
    fastcgi_temp_path {work}/tmp/fastcgi;
    uwsgi_temp_path {work}/tmp/uwsgi;
    scgi_temp_path {work}/tmp/scgi;
{documented}
}}
"""


def documented_config(port, upstreams, sessions=False):
    """The nginx configuration of docs/hosting.md, with the test's addresses; with
    `sessions`, its legacy-session upstream too (the page's second block), which the
    `location /mcp` then proxies to, as the page says."""
    with open(DOCS, encoding="utf-8") as f:
        page = f.read()
    blocks = re.findall(r"```nginx\n(.*?)```", page, re.S)
    check(len(blocks) >= 2, "docs/hosting.md has not its two ```nginx blocks")
    text = blocks[0]
    if sessions:
        proxied = "proxy_pass http://mcp_replicas;\n        # Streamed"
        check(proxied in text, "the docs' `location /mcp` lost its proxy_pass")
        text = text.replace(proxied, "proxy_pass http://mcp_sessions;\n        # Streamed", 1)
        text += blocks[1]
    for placeholder, actual in (("server 127.0.0.1:8081;", f"server {upstreams[0]};"),
                                ("server 127.0.0.1:8082;", f"server {upstreams[1]};"),
                                ("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{port};")):
        check(placeholder in text, f"the docs' nginx block lost `{placeholder}`")
        text = text.replace(placeholder, actual)
    return text


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def authority(url):
    return url.split("//", 1)[1].split("/", 1)[0]


class Nginx:
    """nginx in the foreground (`daemon off`) with a generated config; stopped with
    SIGQUIT (graceful), after which its logs are complete."""

    def __init__(self, binary, work, upstreams, sessions=False):
        self.work = work = os.path.abspath(work)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(os.path.join(work, "tmp"))
        for attempt in range(3):
            self.port = free_port()
            with open(os.path.join(work, "nginx.conf"), "w", encoding="utf-8") as f:
                f.write(CONFIG.format(work=work, log_format=LOG_FORMAT,
                                      documented=documented_config(self.port, upstreams, sessions)))
            self.proc = subprocess.Popen(
                [binary, "-p", work, "-c", os.path.join(work, "nginx.conf"),
                 "-e", os.path.join(work, "error.log"), "-g", "daemon off;"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=open(os.path.join(work, "stderr.txt"), "w"), preexec_fn=hosted.die_with_parent)
            deadline = time.monotonic() + 10
            while self.proc.poll() is None and time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                    self.url = f"http://127.0.0.1:{self.port}/mcp"
                    return
                except OSError:
                    time.sleep(0.05)
            self.stop()
        check(False, f"nginx did not start: {self.errors()}")

    def errors(self):
        said = ""
        for name in ("stderr.txt", "error.log"):
            path = os.path.join(self.work, name)
            if os.path.exists(path):
                with open(path, encoding="utf-8", errors="replace") as f:
                    said += f.read()
        return said[-600:]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def access(self):
        with open(os.path.join(self.work, "access.log"), encoding="utf-8") as f:
            rows = [line.split() for line in f if line.strip()]
        return [{"upstream": r[0], "status": r[1], "upstream_status": r[2], "method": r[3],
                 "session": r[5] if len(r) > 5 else "-"} for r in rows]


async def drive(url, token):
    """Lists and calls through nginx; the revision each write answered, in order."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    revisions, listed = [], []
    # The public name, which nginx passes on (`proxy_set_header Host $host`).
    headers = {"Authorization": f"Bearer {token}", "Host": UPSTREAM_HOST}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=300.0)) as http:
        # No response cache: every list goes to a replica.
        async with Client(streamable_http_client(url, http_client=http), cache=None) as client:
            check(client.protocol_version == MODERN, f"negotiated {client.protocol_version}")
            for round_ in range(ROUNDS):
                listed.append(sorted(t.name for t in (await client.list_tools()).tools))
                for i in range(2):
                    result = await client.call_tool(
                        "notes_write", {"key": f"k{round_}-{i}", "text": "scaled"})
                    check(not result.is_error, f"a call failed: {result}")
                    revisions.append(result.structured_content["revision"])
    return listed, revisions


def notes_scenario(args, tmp):
    """Scenario 1: state in each process (`Notes`): each replica's answers are its own."""
    tokens = hosted.token_file(tmp)
    replica = ("--stateless", "--tokens", tokens, "--allow-host", UPSTREAM_HOST)
    with hosted.server(args.bin, "neuralis-example-serve", *replica) as a, \
            hosted.server(args.bin, "neuralis-example-serve", *replica) as b:
        upstreams = [authority(a.url), authority(b.url)]
        nginx = Nginx(args.nginx, os.path.join(args.work, "notes"), upstreams)
        try:
            listed, revisions = anyio.run(drive, nginx.url, hosted.ADA)
        finally:
            nginx.stop()
        rows = nginx.access()
    check(all(names == ["notes_list", "notes_reindex", "notes_write", "weather_forecast"]
              for names in listed), f"the lists: {listed}")
    bad = [r for r in rows if r["status"] != "200" or r["upstream_status"] != "200"]
    check(not bad, f"requests that did not succeed: {bad}")
    check({r["upstream"] for r in rows} <= set(upstreams), f"unknown upstreams in {rows}")
    per = {u: {"tools/list": 0, "tools/call": 0} for u in upstreams}
    for r in rows:
        if r["method"] in ("tools/list", "tools/call"):
            per[r["upstream"]][r["method"]] += 1
    calls = [r for r in rows if r["method"] == "tools/call"]
    check(len(calls) == len(revisions) == 2 * ROUNDS,
          f"{len(calls)} calls in nginx's log, {len(revisions)} answered")
    check(sum(c["tools/list"] for c in per.values()) == ROUNDS, f"lists per replica: {per}")
    for u in upstreams:
        check(per[u]["tools/list"] > 0 and per[u]["tools/call"] > 0,
              f"replica {u} got no list or no call: {per}")
        mine = [rev for r, rev in zip(calls, revisions) if r["upstream"] == u]
        check(mine == list(range(1, len(mine) + 1)),
              f"replica {u} answered revisions {mine}: not its own writes in order")
    summary = ", ".join(f"{u}: {c['tools/list']} lists, {c['tools/call']} calls"
                        for u, c in per.items())
    version = importlib.metadata.version("mcp")
    print(f"ok   nginx round robin over 2 stateless replicas, state per process · python mcp "
          f"{version} (auto, {MODERN}): {len(rows)} requests, all 200; {summary}")


def postgres_bindir(given):
    """The directory of PostgreSQL's server binaries (`initdb`, `postgres`, `pg_isready`):
    the Debian package's (/usr/lib/postgresql/<version>/bin), else the PATH's."""
    if given:
        return given
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                      key=lambda p: int(re.search(r"/(\d+)/bin", p).group(1)))
    if versions:
        return os.path.dirname(versions[-1])
    found = shutil.which("initdb")
    return os.path.dirname(found) if found else None


class Postgres:
    """A PostgreSQL server in a temporary directory, on 127.0.0.1 only, with a trusted
    superuser `app` and fsync off (a test's data). As root, it runs as the `postgres` user
    (initdb refuses root). Stopped with SIGINT (fast shutdown)."""

    def __init__(self, bindir):
        self.bindir = bindir
        self.dir = tempfile.mkdtemp(prefix="pg-")
        demote = hosted.die_with_parent
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            # Loaded here: the child, once `postgres`, may not read this Python's files;
            # and a change of user clears the parent-death signal, so it is set after.
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)

            def demote():
                os.setgroups([])
                os.setgid(user.pw_gid)
                os.setuid(user.pw_uid)
                libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        data = os.path.join(self.dir, "data")
        init = subprocess.run([os.path.join(bindir, "initdb"), "-D", data, "-U", "app",
                               "--auth=trust", "-E", "UTF8", "--no-sync"],
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              preexec_fn=demote, timeout=120)
        check(init.returncode == 0, f"initdb failed: {init.stderr[-500:]}")
        self.port = free_port()
        self.log = os.path.join(self.dir, "postgres.log")
        self.proc = subprocess.Popen(
            [os.path.join(bindir, "postgres"), "-D", data, "-h", "127.0.0.1",
             "-p", str(self.port), "-k", self.dir, "-c", "fsync=off",
             "-c", "max_connections=20"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(self.log, "w"), preexec_fn=demote)
        deadline = time.monotonic() + 30
        while True:
            ready = subprocess.run([os.path.join(bindir, "pg_isready"), "-h", "127.0.0.1",
                                    "-p", str(self.port)], capture_output=True)
            if ready.returncode == 0:
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                check(False, f"postgres did not start: {self.said()}")
            time.sleep(0.1)
        self.connection = f"host=127.0.0.1 port={self.port} user=app dbname=postgres"

    def said(self):
        try:
            with open(self.log, encoding="utf-8", errors="replace") as f:
                return f.read()[-600:]
        except OSError:
            return ""

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        self.stop()


WRITERS_ESCALATE = 10
WRITERS_OPEN = 5


async def incidents(url, token):
    """A client of the incidents replicas: `call(tool, args)` -> structuredContent."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}", "Host": UPSTREAM_HOST}
    http = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=120.0))
    client = Client(streamable_http_client(url, http_client=http), cache=None)
    return http, client


async def drive_incidents(url, nginx):
    """Write on one replica, read on the other; then two writers at once."""
    http, ada = await incidents(url, hosted.ADA)
    async with http, ada:
        async def call(client, tool, args):
            result = await client.call_tool(tool, args)
            check(not result.is_error, f"{tool} failed: {result}")
            return result.structured_content

        seen = [0]

        def last_upstream():
            """The replica that answered the last call (nginx logs a request once it has
            answered it: waited for)."""
            deadline = time.monotonic() + 5
            while True:
                calls = [r for r in nginx.access() if r["method"] == "tools/call"]
                if len(calls) > seen[0]:
                    seen[0] = len(calls)
                    return calls[-1]["upstream"]
                check(time.monotonic() < deadline, "nginx did not log the call")
                time.sleep(0.02)

        async def read_elsewhere(client, than, args):
            """A list answered by another replica than `than` (round robin gets there
            within a few requests, whatever else the client sends between)."""
            for _ in range(6):
                listed = await call(client, "incidents_list", args)
                if last_upstream() != than:
                    return listed
            check(False, f"every list went to {than}: no round robin")

        opened = await call(ada, "incidents_open", {"title": "the database is down"})
        wrote_on = last_upstream()
        listed = await read_elsewhere(ada, wrote_on, {"status": "open"})
        check([i["id"] for i in listed["incidents"]] == [opened["id"]],
              f"opened #{opened['id']} on {wrote_on}, not listed on the other replica: {listed}")
        http_b, bob = await incidents(url, hosted.BOB)
        async with http_b, bob:
            closed = await call(bob, "incidents_close", {"id": opened["id"]})
            closed_on = last_upstream()
            check(closed["status"] == "closed" and closed["closed_by"] == "bob", f"{closed}")
            again = await read_elsewhere(ada, closed_on, {})
            check(again["incidents"][0]["status"] == "closed"
                  and again["incidents"][0]["opened_by"] == "ada", f"{again}")

            # Two writers at once, through both replicas.
            target = (await call(ada, "incidents_open", {"title": "escalated twice over"}))["id"]
            ids = {"ada": [], "bob": []}

            async def writer(name, client):
                for i in range(WRITERS_ESCALATE):
                    await call(client, "incidents_escalate", {"id": target})
                    if i < WRITERS_OPEN:
                        ids[name].append((await call(client, "incidents_open",
                                                     {"title": f"{name} {i}"}))["id"])

            async with anyio.create_task_group() as group:
                group.start_soon(writer, "ada", ada)
                group.start_soon(writer, "bob", bob)
            final = await call(ada, "incidents_list", {})
    return final, target, ids


def incidents_scenario(args, tmp):
    """Scenario 2: state in PostgreSQL, shared by the replicas."""
    bindir = postgres_bindir(args.postgres)
    check(bindir, "PostgreSQL is not installed (apt-get install postgresql)")
    tokens = hosted.token_file(tmp)
    with Postgres(bindir) as db:
        replica = ("--stateless", "--tokens", tokens, "--allow-host", UPSTREAM_HOST,
                   "--database", db.connection)
        with hosted.server(args.bin, "neuralis-example-incidents", *replica) as a, \
                hosted.server(args.bin, "neuralis-example-incidents", *replica) as b:
            upstreams = [authority(a.url), authority(b.url)]
            nginx = Nginx(args.nginx, os.path.join(args.work, "incidents"), upstreams)
            try:
                final, target, ids = anyio.run(drive_incidents, nginx.url, nginx)
            finally:
                nginx.stop()
            rows = nginx.access()
    bad = [r for r in rows if r["status"] != "200" or r["upstream_status"] != "200"]
    check(not bad, f"requests that did not succeed: {bad}")
    escalations = [r for r in rows if r["method"] == "tools/call"]
    served = {u: sum(1 for r in escalations if r["upstream"] == u) for u in upstreams}
    check(all(n > 0 for n in served.values()), f"calls per replica: {served}")
    by_id = {i["id"]: i for i in final["incidents"]}
    check(by_id[target]["escalations"] == 2 * WRITERS_ESCALATE,
          f"{by_id[target]['escalations']} escalations of {2 * WRITERS_ESCALATE}: some were lost")
    opened = ids["ada"] + ids["bob"]
    check(len(set(opened)) == len(opened) == 2 * WRITERS_OPEN, f"ids: {ids}")
    check(all(i in by_id for i in opened), f"opened {opened}, listed {sorted(by_id)}")
    check(final["total"] == 2 + 2 * WRITERS_OPEN, f"total {final['total']}")
    print(f"ok   nginx round robin over 2 stateless replicas, state in PostgreSQL: written on "
          f"one replica and read on the other; 2 writers at once lost nothing "
          f"({2 * WRITERS_ESCALATE} escalations, {len(opened)} incidents opened); "
          f"{len(rows)} requests, all 200; calls per replica {served}")


TASKS = "io.modelcontextprotocol/tasks"
TASK_LEASE = 2


class TaskWire:
    """JSON-RPC requests of 2026-07-28 through nginx, each with the routing headers and the
    `_meta` envelope, declaring the tasks extension; answers read off the wire (a JSON
    body, or the SSE event that carries the response)."""

    def __init__(self, http, url):
        self.http, self.url, self.next_id = http, url, 0

    async def rpc(self, method, params, name):
        import json as json_
        self.next_id += 1
        meta = {"io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientInfo": {"name": "scale-out-tasks", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {
                    "elicitation": {}, "extensions": {TASKS: {}}}}
        body = {"jsonrpc": "2.0", "id": self.next_id, "method": method,
                "params": {**params, "_meta": meta}}
        headers = {"Mcp-Method": method, "Mcp-Name": name, "MCP-Protocol-Version": MODERN,
                   "Accept": "application/json, text/event-stream"}
        response = await self.http.post(self.url, json=body, headers=headers)
        check(response.status_code == 200, f"{method}: HTTP {response.status_code} {response.text[:300]}")
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            messages = [json_.loads(line[5:]) for line in response.text.splitlines()
                        if line.startswith("data:") and line[5:].strip()]
            answer = [m for m in messages if m.get("id") == self.next_id]
            check(answer, f"{method}: no response in the stream: {response.text[:300]}")
            message = answer[0]
        else:
            message = response.json()
        check("error" not in message, f"{method} failed: {message.get('error')}")
        return message["result"]

    async def call(self, tool, arguments):
        return await self.rpc("tools/call", {"name": tool, "arguments": arguments}, tool)

    async def get(self, task_id):
        return await self.rpc("tasks/get", {"taskId": task_id}, task_id)


async def drive_tasks(url, nginx, replicas):
    """Scenario 4's requests: see the module's docs."""
    import httpx2

    seen, last = [0], [None]

    def upstream_of_last():
        """The replica that answered the request just sent (nginx logs it once answered)."""
        deadline = time.monotonic() + 5
        while True:
            rows = [r for r in nginx.access() if r["method"] != "-"]
            if len(rows) > seen[0]:
                seen[0] = len(rows)
                last[0] = rows[-1]["upstream"]
                return last[0]
            check(time.monotonic() < deadline, "nginx did not log the request")
            time.sleep(0.02)

    headers = {"Authorization": f"Bearer {hosted.ADA}", "Host": UPSTREAM_HOST}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0)) as http:
        w = TaskWire(http, url)

        async def on_other(than, request):
            """`request()` answered by the replica other than `than`: a `tasks/get` first
            whenever the next request would reach `than` (round robin alternates)."""
            for _ in range(4):
                if last[0] == than:
                    answer = await request()
                    answered_on = upstream_of_last()
                    check(answered_on != than, f"round robin sent it to {than} twice")
                    return answer
                # The last request went elsewhere: the next goes to `than`; spend it.
                await w.get(task_id)
                upstream_of_last()
            check(False, "nginx did not alternate between the replicas")

        # 1. Created on one replica, polled, answered and read through the other.
        created = await w.call("incidents_report", {"seconds": 2})
        ran_on = upstream_of_last()
        check(created.get("resultType") == "task" and created.get("taskId"), f"not a task: {created}")
        check(created.get("status") == "working" and "result" not in created, f"{created}")
        task_id = created["taskId"]
        states, other_reads, message = [], 0, None
        deadline = time.monotonic() + 30
        while True:
            task = await w.get(task_id)
            on = upstream_of_last()
            other_reads += on != ran_on
            states.append(task["status"])
            message = message or task.get("statusMessage")
            check(task.get("resultType") == "complete", f"tasks/get: {task}")
            if task["status"] == "input_required":
                break
            check(task["status"] == "working", f"the report went {task['status']}: {task}")
            check(time.monotonic() < deadline, "the report never asked")
            await anyio.sleep(0.3)
        check(other_reads > 0, "every tasks/get reached the replica that runs the task")
        check(message and "compiling" in message, f"no progress message while working: {states}")
        asks = task["inputRequests"]
        check(list(asks) == ["publish"] and asks["publish"]["method"] == "elicitation/create",
              f"inputRequests {asks}")
        ack = await on_other(ran_on, lambda: w.rpc(
            "tasks/update", {"taskId": task_id,
                             "inputResponses": {"publish": {"action": "accept", "content": {}}}},
            task_id))
        check(ack == {"resultType": "complete"}, f"tasks/update ack {ack}")
        deadline = time.monotonic() + 15
        while (task := await w.get(task_id))["status"] != "completed":
            check(task["status"] in ("working", "input_required") and time.monotonic() < deadline,
                  f"after the answer: {task}")
            await anyio.sleep(0.2)
        report = task["result"]["structuredContent"]
        check(report["published"] is True and report["by"] == "ada", f"{task['result']}")
        # Round robin alternates over every request nginx proxies, the client's own
        # (notifications, a stream's GET) among them: read until both replicas answered,
        # at most 6 times.
        readers = set()
        for _ in range(6):
            again = await w.get(task_id)
            readers.add(upstream_of_last())
            check(again["status"] == "completed" and again["result"] == task["result"], f"{again}")
            if len(readers) == 2:
                break
        check(len(readers) == 2, f"the finished task was read from {readers} only")

        # 2. Cancelled through the other replica; cancelled on both.
        created = await w.call("incidents_report", {"seconds": 60})
        task_id = created["taskId"]
        cancel_on = upstream_of_last()
        ack = await on_other(cancel_on, lambda: w.rpc("tasks/cancel", {"taskId": task_id}, task_id))
        check(ack == {"resultType": "complete"}, f"tasks/cancel ack {ack}")
        for _ in range(2):
            check((await w.get(task_id))["status"] == "cancelled", "not cancelled")

        # 3. The replica that runs a task killed: the survivor fails it within its lease.
        created = await w.call("incidents_report", {"seconds": 60})
        task_id = created["taskId"]
        victim = upstream_of_last()
        check((await w.get(task_id))["status"] == "working", "the third report is not working")
        replicas[victim].proc.kill()
        replicas[victim].proc.wait()
        killed = time.monotonic()
        while True:
            task = await w.get(task_id)
            if task["status"] != "working":
                break
            check(time.monotonic() - killed < TASK_LEASE + 10,
                  f"still working {time.monotonic() - killed:.1f} s after its replica died")
            await anyio.sleep(0.25)
        failed_after = time.monotonic() - killed
        check(task["status"] == "failed" and "lease" in task["error"]["message"]
              and "result" not in task, f"after its replica died: {task}")
    return states, failed_after, victim


def tasks_scenario(args, tmp):
    """Scenario 4: tasks in PostgreSQL, answered for by any replica."""
    bindir = postgres_bindir(args.postgres)
    check(bindir, "PostgreSQL is not installed (apt-get install postgresql)")
    tokens = hosted.token_file(tmp)
    with Postgres(bindir) as db:
        replica = ("--stateless", "--tokens", tokens, "--allow-host", UPSTREAM_HOST,
                   "--database", db.connection, "--task-lease", str(TASK_LEASE))
        a = hosted.server(args.bin, "neuralis-example-incidents", *replica)
        b = None
        try:
            b = hosted.server(args.bin, "neuralis-example-incidents", *replica)
            replicas = {authority(a.url): a, authority(b.url): b}
            nginx = Nginx(args.nginx, os.path.join(args.work, "tasks"), list(replicas))
            try:
                states, failed_after, victim = anyio.run(drive_tasks, nginx.url, nginx, replicas)
            finally:
                nginx.stop()
            rows = nginx.access()
        finally:
            for p in (a, b):
                if p is not None:
                    p.stop()
    served = {u: sum(1 for r in rows if r["upstream"].startswith(u)) for u in replicas}
    check(all(n > 0 for n in served.values()), f"requests per replica: {served}")
    print(f"ok   tasks shared by 2 replicas through PostgreSQL: created on one, polled "
          f"({len(states)} tasks/get: {' -> '.join(dict.fromkeys(states))}), answered, read "
          f"completed from both; cancelled through the other; the replica running one "
          f"killed, the task failed {failed_after:.1f} s later (lease {TASK_LEASE} s); "
          f"{len(rows)} requests, per replica {served}")


async def drive_legacy(url, token, source):
    """One legacy session (the Python `mcp` 2.x client in its legacy mode, `initialize`
    and `Mcp-Session-Id`) from the loopback address `source`: lists and calls; how many
    calls were answered."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}", "Host": UPSTREAM_HOST}
    transport = httpx2.AsyncHTTPTransport(local_address=source)
    answered = 0
    async with httpx2.AsyncClient(headers=headers, transport=transport,
                                  timeout=httpx2.Timeout(30.0, read=120.0)) as http:
        async with Client(streamable_http_client(url, http_client=http), mode="legacy",
                          cache=None) as client:
            check(client.protocol_version != MODERN, f"a legacy session: {client.protocol_version}")
            for i in range(SESSION_CALLS):
                listed = await client.list_tools()
                check("notes_write" in [t.name for t in listed.tools], f"listed {listed}")
                result = await client.call_tool(
                    "notes_write", {"key": f"{source}-{i}", "text": "sticky"})
                check(not result.is_error, f"a call failed from {source}: {result}")
                answered += 1
    return answered


def legacy_scenario(args, tmp):
    """Scenario 3: legacy sessions on two replicas behind the docs' sticky rule (hash on
    the client's address): every call of every session answered, each session on one
    replica from its `initialize` on, and both replicas used."""
    tokens = hosted.token_file(tmp)
    replica = ("--tokens", tokens, "--allow-host", UPSTREAM_HOST,
               "--max-connections-per-peer", "0")
    with hosted.server(args.bin, "neuralis-example-serve", *replica) as a, \
            hosted.server(args.bin, "neuralis-example-serve", *replica) as b:
        upstreams = [authority(a.url), authority(b.url)]
        nginx = Nginx(args.nginx, os.path.join(args.work, "sessions"), upstreams, sessions=True)
        try:
            async def all_sessions():
                answered = []

                async def one(i):
                    answered.append(await drive_legacy(nginx.url, hosted.ADA, f"127.0.0.{i + 2}"))

                async with anyio.create_task_group() as group:
                    for i in range(SESSIONS):
                        group.start_soon(one, i)
                return answered

            answered = anyio.run(all_sessions)
        finally:
            nginx.stop()
        rows = nginx.access()
    check(answered == [SESSION_CALLS] * SESSIONS, f"calls answered per session: {answered}")
    bad = [r for r in rows if r["status"] not in ("200", "202", "204")]
    check(not bad, f"requests that did not succeed: {bad}")
    by_session = {}
    for r in rows:
        if r["session"] not in ("-", ""):
            by_session.setdefault(r["session"], set()).add(r["upstream"])
    check(len(by_session) == SESSIONS, f"{len(by_session)} sessions in nginx's log")
    check(all(len(u) == 1 for u in by_session.values()), f"a session on two replicas: {by_session}")
    used = set().union(*by_session.values())
    check(used == set(upstreams), f"replicas used: {used} of {upstreams}")
    print(f"ok   nginx sticky on the client's address over 2 replicas in session mode: "
          f"{SESSIONS} legacy sessions from {SESSIONS} addresses, {SESSIONS * SESSION_CALLS} "
          f"calls all answered, each session on one replica, both replicas used; "
          f"{len(rows)} requests")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    parser.add_argument("--postgres", help="PostgreSQL's bin directory (default: the Debian package's)")
    args = parser.parse_args()
    status = 0
    for name, scenario in (("nginx scale-out", notes_scenario),
                           ("nginx scale-out with PostgreSQL", incidents_scenario),
                           ("nginx sticky legacy sessions", legacy_scenario),
                           ("tasks shared by replicas", tasks_scenario)):
        try:
            check(os.access(args.nginx, os.X_OK), f"no nginx at {args.nginx} (apt-get install nginx)")
            with tempfile.TemporaryDirectory() as tmp:
                scenario(args, tmp)
        except Exception as e:  # noqa: BLE001 - reported as the run's failure
            report_failure(name, e)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
