"""Run an MCP server over stdio and record the raw wire, both ways.

    python wire_tee.py DIR COMMAND [ARG...]

The server's stdin and stdout pass through unchanged; every line is also appended,
as it was sent, to DIR/<pid>.jsonl as {"dir": "c2s" | "s2c", "t": seconds, "line": text}
(bytes that are not UTF-8 are kept as U+FFFD). One file per tee process, because a
client may start a server more than once (the TypeScript SDK probes on a sibling).
The server's stderr is inherited. The exit status is the server's.
"""

import json
import os
import subprocess
import sys
import threading
import time


def main() -> int:
    out_dir, command = sys.argv[1], sys.argv[2:]
    os.makedirs(out_dir, exist_ok=True)
    log = open(os.path.join(out_dir, f"{os.getpid()}.jsonl"), "a", encoding="utf-8")
    lock = threading.Lock()
    start = time.monotonic()

    def record(direction: str, line: bytes) -> None:
        entry = {
            "dir": direction,
            "t": round(time.monotonic() - start, 4),
            "line": line.rstrip(b"\r\n").decode("utf-8", "replace"),
        }
        with lock:
            log.write(json.dumps(entry) + "\n")
            log.flush()

    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def client_to_server() -> None:
        stdin = sys.stdin.buffer
        try:
            for line in iter(stdin.readline, b""):
                record("c2s", line)
                server.stdin.write(line)
                server.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        finally:
            try:
                server.stdin.close()
            except OSError:
                pass

    def server_to_client() -> None:
        stdout = sys.stdout.buffer
        for line in iter(server.stdout.readline, b""):
            record("s2c", line)
            try:
                stdout.write(line)
                stdout.flush()
            except (BrokenPipeError, OSError):
                break

    threading.Thread(target=client_to_server, daemon=True).start()
    pump = threading.Thread(target=server_to_client)
    pump.start()
    status = server.wait()
    pump.join()
    return status


if __name__ == "__main__":
    sys.exit(main())
