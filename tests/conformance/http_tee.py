"""A recording HTTP proxy in front of an MCP server over streamable HTTP: the HTTP
counterpart of wire_tee.py.

    python http_tee.py DIR UPSTREAM_URL

Listens on 127.0.0.1 (a free port) and prints `listening on http://127.0.0.1:PORT/mcp`
on stderr once bound, as the servers do. Each request is passed to UPSTREAM_URL's host
and port (its `Host` header rewritten to the upstream's own, so the server's DNS
rebinding check sees a host it accepts), and its response streamed back as it comes
(SSE events are not held). Both connections close after one exchange. When the client
closes its connection before the response is over (how a client on 2026-07-28 abandons a
call), the upstream connection is closed at once, so the server sees it too.

Everything goes to DIR/<pid>.jsonl in wire_tee.py's form, which wire.py reads:
{"dir": "c2s" | "s2c", "t": seconds, "line": <one JSON-RPC message>, "conn": n} for each
JSON-RPC message (a POST body; a JSON response body; the data of each SSE event that has
some), and {"dir": "http", "t", "line": "", "conn": n, "what": ...} for the HTTP exchange
itself: `request` (method, path, headers), `response` (status, headers), `client-closed`
(the client went away before the response ended) and `done`.
"""

import asyncio
import itertools
import json
import os
import sys
import time
import urllib.parse

HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te",
              "trailer", "upgrade", "content-length", "host"}
MAX_HEAD = 64 * 1024


class Log:
    def __init__(self, directory):
        os.makedirs(directory, exist_ok=True)
        self.file = open(os.path.join(directory, f"{os.getpid()}.jsonl"), "a", encoding="utf-8")
        self.start = time.monotonic()

    def write(self, direction, line="", **fields):
        entry = {"dir": direction, "t": round(time.monotonic() - self.start, 4), "line": line, **fields}
        self.file.write(json.dumps(entry) + "\n")
        self.file.flush()

    def messages(self, direction, conn, text):
        """A JSON-RPC body or event: one entry per message (a batch is split)."""
        try:
            value = json.loads(text)
        except ValueError:
            self.write(direction, text, conn=conn)
            return
        for message in value if isinstance(value, list) else [value]:
            self.write(direction, json.dumps(message, separators=(",", ":")), conn=conn)


async def read_head(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    if len(head) > MAX_HEAD:
        raise ValueError("head too large")
    lines = head.decode("latin-1").split("\r\n")
    headers = []
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers.append((name.strip(), value.strip()))
    return lines[0], headers


def header(headers, name):
    return next((v for k, v in headers if k.lower() == name), None)


async def read_chunked(reader):
    """A chunked body, yielded chunk by chunk."""
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            while (await reader.readuntil(b"\r\n")) != b"\r\n":
                pass
            return
        yield await reader.readexactly(size)
        await reader.readexactly(2)


async def read_body(reader, headers, bodyless=False):
    """The body as it arrives: chunked, sized, or up to the close."""
    if bodyless:
        return
    if (header(headers, "transfer-encoding") or "").lower().endswith("chunked"):
        async for chunk in read_chunked(reader):
            yield chunk
        return
    length = header(headers, "content-length")
    if length is not None:
        left = int(length)
        while left > 0:
            chunk = await reader.read(min(left, 65536))
            if not chunk:
                raise ConnectionError("the body ended early")
            left -= len(chunk)
            yield chunk
        return
    while chunk := await reader.read(65536):
        yield chunk


class Sse:
    """SSE events, parsed as the bytes pass; each event's data is logged."""

    def __init__(self, log, conn):
        self.log, self.conn = log, conn
        self.buffer = b""
        self.data = []

    def feed(self, chunk):
        self.buffer += chunk
        while True:
            cut = self.buffer.find(b"\n")
            if cut < 0:
                return
            line, self.buffer = self.buffer[:cut].rstrip(b"\r"), self.buffer[cut + 1:]
            self.line(line.decode("utf-8", "replace"))

    def line(self, line):
        if line == "":
            if self.data and "".join(self.data).strip():
                self.log.messages("s2c", self.conn, "\n".join(self.data))
            self.data = []
        elif line.startswith(":"):
            pass
        else:
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "data":
                self.data.append(value)


async def respond(log, conn, method, up_reader, client_writer):
    """The upstream's response, streamed to the client and logged as it passes."""
    status_line, headers = await read_head(up_reader)
    status = int(status_line.split(" ")[1])
    log.write("http", conn=conn, what="response", status=status,
              headers={k.lower(): v for k, v in headers})
    kind = (header(headers, "content-type") or "").split(";")[0].strip().lower()
    bodyless = method == "HEAD" or status in (204, 304) or 100 <= status < 200
    out = [status_line, "Connection: close"]
    out += [f"{k}: {v}" for k, v in headers if k.lower() not in HOP_BY_HOP]
    if not bodyless:
        out.append("Transfer-Encoding: chunked")
    client_writer.write(("\r\n".join(out) + "\r\n\r\n").encode("latin-1"))
    await client_writer.drain()
    if kind == "application/json":
        # A JSON body is one answer: logged whole before the client can read it.
        body = b"".join([c async for c in read_body(up_reader, headers, bodyless)])
        log.messages("s2c", conn, body.decode("utf-8", "replace"))
        chunks = [body] if body else []
    else:
        chunks = read_body(up_reader, headers, bodyless)
    sse = Sse(log, conn) if kind == "text/event-stream" else None
    async for chunk in aiter_of(chunks):
        if sse:
            sse.feed(chunk)
        client_writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        await client_writer.drain()
    if not bodyless:
        client_writer.write(b"0\r\n\r\n")
        await client_writer.drain()


async def aiter_of(chunks):
    if isinstance(chunks, list):
        for chunk in chunks:
            yield chunk
    else:
        async for chunk in chunks:
            yield chunk


async def exchange(log, conn, upstream, client_reader, client_writer):
    request_line, headers = await read_head(client_reader)
    method, path, _ = request_line.split(" ", 2)
    sized = header(headers, "content-length") is not None or header(headers, "transfer-encoding")
    body = b"".join([c async for c in read_body(client_reader, headers, bodyless=not sized)])
    log.write("http", conn=conn, what="request", method=method, path=path,
              headers={k.lower(): v for k, v in headers})
    if body:
        log.messages("c2s", conn, body.decode("utf-8", "replace"))

    host, port = upstream.hostname, upstream.port or 80
    up_reader, up_writer = await asyncio.open_connection(host, port)
    try:
        out = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close"]
        out += [f"{k}: {v}" for k, v in headers if k.lower() not in HOP_BY_HOP]
        if body or method == "POST":
            out.append(f"Content-Length: {len(body)}")
        up_writer.write(("\r\n".join(out) + "\r\n\r\n").encode("latin-1") + body)
        await up_writer.drain()

        # Once its request is sent, a client reads nothing more from its side of the
        # connection: EOF there means it went away.
        responding = asyncio.ensure_future(respond(log, conn, method, up_reader, client_writer))
        gone = asyncio.ensure_future(client_reader.read(1))
        await asyncio.wait({responding, gone}, return_when=asyncio.FIRST_COMPLETED)
        if responding.done():
            gone.cancel()
            responding.result()
            log.write("http", conn=conn, what="done")
        else:
            responding.cancel()
            log.write("http", conn=conn, what="client-closed")
    finally:
        up_writer.close()


async def main():
    directory, url = sys.argv[1], sys.argv[2]
    upstream = urllib.parse.urlsplit(url)
    log = Log(directory)
    counter = itertools.count(1)

    async def handle(reader, writer):
        conn = next(counter)
        try:
            await exchange(log, conn, upstream, reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as e:
            log.write("http", conn=conn, what="error", error=f"{type(e).__name__}: {e}")
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0, limit=MAX_HEAD)
    port = server.sockets[0].getsockname()[1]
    print(f"listening on http://127.0.0.1:{port}{upstream.path}", file=sys.stderr, flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
