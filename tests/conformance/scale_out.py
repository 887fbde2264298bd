"""Stateless scale-out: two `neuralis-example-serve --http 127.0.0.1:0 --stateless`
replicas behind nginx (round robin), driven through it by the Python `mcp` 2.x client in
its default era (2026-07-28, stateless: no session ties a client to a replica).

    python scale_out.py --bin DIR --work DIR [--nginx PATH]

nginx runs in the foreground with a config generated in --work (under target/),
listening on 127.0.0.1, `proxy_buffering off`, its access log recording each request's
`$upstream_addr`, `$upstream_status` and `Mcp-Method` header. Both replicas share one
token table; nginx names them by one host (`Host: mcp.internal`, which each replica
accepts with `--allow-host`). The client lists and calls several times; nginx balances
each request (a stateless request needs no replica in particular). Checked: every call
succeeded (through the SDK, and in nginx's log: every request 200 from its replica);
lists and calls landed on both replicas; and each replica's answers are its own (the
in-memory store's revision counts the writes that replica took, 1, 2, 3... in the order
nginx sent them there).
"""

import argparse
import importlib.metadata
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import anyio

import hosted
from wire import MODERN, check

ROUNDS = 4
UPSTREAM_HOST = "mcp.internal"
LOG_FORMAT = "$upstream_addr $status $upstream_status $http_mcp_method $request_time"

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
    upstream replicas {{
        server {a};
        server {b};
    }}
    server {{
        listen 127.0.0.1:{port};
        location /mcp {{
            proxy_pass http://replicas;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host {host};
            proxy_buffering off;
            proxy_read_timeout 60s;
        }}
    }}
}}
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def authority(url):
    return url.split("//", 1)[1].split("/", 1)[0]


class Nginx:
    """nginx in the foreground (`daemon off`) with a generated config; stopped with
    SIGQUIT (graceful), after which its logs are complete."""

    def __init__(self, binary, work, upstreams):
        self.work = work = os.path.abspath(work)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(os.path.join(work, "tmp"))
        for attempt in range(3):
            self.port = free_port()
            with open(os.path.join(work, "nginx.conf"), "w", encoding="utf-8") as f:
                f.write(CONFIG.format(work=work, port=self.port, a=upstreams[0], b=upstreams[1],
                                      host=UPSTREAM_HOST, log_format=LOG_FORMAT))
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
        return [{"upstream": r[0], "status": r[1], "upstream_status": r[2], "method": r[3]}
                for r in rows]


async def drive(url, token):
    """Lists and calls through nginx; the revision each write answered, in order."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    revisions, listed = [], []
    headers = {"Authorization": f"Bearer {token}"}
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    args = parser.parse_args()
    try:
        check(os.access(args.nginx, os.X_OK), f"no nginx at {args.nginx} (apt-get install nginx)")
        with tempfile.TemporaryDirectory() as tmp:
            tokens = hosted.token_file(tmp)
            replica = ("--stateless", "--tokens", tokens, "--allow-host", UPSTREAM_HOST)
            with hosted.server(args.bin, "neuralis-example-serve", *replica) as a, \
                    hosted.server(args.bin, "neuralis-example-serve", *replica) as b:
                upstreams = [authority(a.url), authority(b.url)]
                nginx = Nginx(args.nginx, args.work, upstreams)
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
        print(f"ok   nginx round robin over 2 stateless replicas · python mcp {version} (auto, {MODERN}): "
              f"{len(rows)} requests, all 200; {summary}")
        return 0
    except Exception as e:  # noqa: BLE001 - reported as the run's failure
        while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
            e = e.exceptions[0]
        print(f"FAIL nginx scale-out: {type(e).__name__}: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
