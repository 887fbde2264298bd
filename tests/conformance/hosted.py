"""What the suites over streamable HTTP share: the servers (`--http 127.0.0.1:0`, waited
for on their `listening on` line, stopped with SIGTERM), the recording proxy in front of
them (http_tee.py), the wire it records read per HTTP exchange, and the token table.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import wire
from wire import check

HERE = os.path.dirname(os.path.abspath(__file__))

# Two callers with different grants: `weather_forecast` requires `weather.read`.
TOKENS = {
    "tok-ada-7f3a": {"user": "ada", "grants": ["weather.read"]},
    "tok-bob-91c2": {"user": "bob", "grants": []},
}
ADA, BOB = "tok-ada-7f3a", "tok-bob-91c2"


def die_with_parent():
    """In the child, before exec: SIGTERM when the process that started it dies (Linux),
    so that no server outlives a suite that was killed (a `timeout`, say)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Process:
    """A process that prints `listening on URL` on stderr once it serves; its stderr goes
    to a file, read for that line and, at the end, for what it said."""

    def __init__(self, command, label, timeout=20.0):
        self.label = label
        self.err = tempfile.NamedTemporaryFile("w+", prefix="stderr-", suffix=".txt", delete=False)
        self.proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=self.err, preexec_fn=die_with_parent)
        deadline = time.monotonic() + timeout
        self.url = None
        while self.url is None:
            for line in self.stderr().splitlines():
                if line.startswith("listening on "):
                    self.url = line[len("listening on "):].strip()
            if self.url is None:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise wire.Failure(f"{label} did not start: {self.stderr()[-500:]}")
                time.sleep(0.02)

    def stderr(self):
        with open(self.err.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    def stop(self, graceful=False, timeout=15.0):
        """SIGTERM, then the exit; with `graceful`, a server must exit 0 having said
        `stopped` (its calls finished or cancelled within its grace period)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            status = None
        said = self.stderr()
        os.unlink(self.err.name)
        if graceful:
            check(status == 0 and "stopped" in said,
                  f"{self.label} did not stop cleanly on SIGTERM (exit {status}): {said[-300:]!r}")

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        # A failure inside is the one to report; otherwise the shutdown must be clean.
        self.stop(graceful=kind is None)


def server(bin_dir, name, *args):
    """`bin_dir/name --http 127.0.0.1:0 ARGS...`, started."""
    return Process([os.path.join(bin_dir, name), "--http", "127.0.0.1:0", *args], name)


class Tee(Process):
    """http_tee.py in front of `url`, recording into its own directory: its `wire`."""

    def __init__(self, url, label):
        self.dir = tempfile.mkdtemp(prefix="wire-")
        super().__init__([sys.executable, os.path.join(HERE, "http_tee.py"), self.dir, url],
                         f"the proxy for {label}")
        self.wire = HttpWire(self.dir)

    def __exit__(self, kind, value, tb):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def token_file(directory):
    path = os.path.join(directory, "tokens.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(TOKENS, f)
    return path


class HttpWire(wire.Wire):
    """wire.Wire over http_tee.py's log: an answer, and a request's notifications, are
    those of the same HTTP exchange (`conn`), which is where streamable HTTP sends them."""

    def exchange(self, request, what):
        return [e for e in self.entries()
                if e.get("conn") == request["conn"] and e["dir"] == "http" and e.get("what") == what]

    def head(self, request):
        """The HTTP request that carried `request` (method, path, headers)."""
        found = self.exchange(request, "request")
        check(found, f"no HTTP request for connection {request['conn']}")
        return found[0]

    def status(self, request):
        found = self.exchange(request, "response")
        return found[0] if found else None

    def response(self, request, timeout=10.0):
        deadline = time.monotonic() + timeout
        rid = request["message"]["id"]
        while True:
            for e in self.entries():
                m = e["message"]
                if (e.get("conn") == request["conn"] and e["dir"] == "s2c" and isinstance(m, dict)
                        and m.get("id") == rid and ("result" in m or "error" in m)):
                    return e
            check(time.monotonic() < deadline, f"no answer to request id {rid!r}")
            time.sleep(0.02)

    def notifications(self, request, method):
        return [e for e in self.entries()
                if e.get("conn") == request["conn"] and e["dir"] == "s2c"
                and isinstance(e["message"], dict) and e["message"].get("method") == method]

    def answered(self, request):
        """Whether anything answered `request` (on any exchange)."""
        rid = request["message"]["id"]
        return [e for e in self.entries()
                if e["dir"] == "s2c" and isinstance(e["message"], dict)
                and e["message"].get("id") == rid and ("result" in e["message"] or "error" in e["message"])]
