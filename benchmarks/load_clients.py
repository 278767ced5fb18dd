"""Raw MCP clients over streamable HTTP for benchmarks/load.py and the serving tests.

Each call sends `echo` a text no other call sends and checks the answer is that text: a lost,
failed or mixed-up call is counted, never mistaken for a result. The clients speak the wire
directly, as any client does: HTTP/1.1 on asyncio's streams, written and read by hand, one
connection per client. A general HTTP client (httpx) costs about as much CPU a call as the
servers do, so with it the clients, not the servers, set the pace; this one costs a fraction.

- `stateful`: a 2025-era client (`initialize`, then calls on its session), its own connection;
- `stateless`: a 2025-era client on a server that keeps no session; with `fresh=True` each call
  comes on a new connection with its own handshake, as behind a load balancer;
- `2026`: a 2026-07-28 client, one self-contained POST per call, no handshake.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

PATHS = ("stateful", "stateless", "2026")
LEGACY = "2025-11-25"
MODERN = "2026-07-28"
ACCEPT = "application/json, text/event-stream"
TIMEOUT = 60.0
"""Seconds a request may wait for its whole answer before it counts as an error."""
ERRORS = (
    RuntimeError,
    OSError,
    EOFError,
    ValueError,
    KeyError,
    IndexError,
    asyncio.LimitOverrunError,
)
"""What a failed call raises: a refused or broken connection, a timeout, an answer cut short or
malformed, a wrong status, a JSON-RPC error. Each is counted against its call."""
_ids = itertools.count(1)


@dataclass
class Outcome:
    """What a run of calls came to: answers checked against what was sent."""

    sent: int = 0
    answered: int = 0
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def lost(self) -> int:
        """Calls sent that got no right answer and no error either."""
        return self.sent - self.answered - len(self.errors)


@dataclass
class _Response:
    status: int
    headers: dict[str, str]
    body: bytes


class _Connection:
    """One HTTP/1.1 connection to a plain `http://` URL, opened when first needed and kept
    open between requests, unless `fresh`: then each request comes on a new one, which the
    server closes after its answer."""

    def __init__(self, url: str, *, fresh: bool) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or parts.hostname is None:
            msg = f"a plain http:// URL, got {url!r}"
            raise ValueError(msg)
        self.host, self.port, self.fresh = parts.hostname, parts.port or 80, fresh
        close = "connection: close\r\n" if fresh else ""
        self.head = f"POST {parts.path or '/'} HTTP/1.1\r\nhost: {parts.netloc}\r\n{close}"
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.expired = False

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None

    def _expire(self) -> None:
        self.expired = True
        if self.streams is not None:
            self.streams[1].transport.abort()  # the read waiting then fails

    async def post(self, message: dict[str, Any], headers: str) -> _Response:
        """POST `message` as JSON with `headers` (each `name: value\\r\\n`); the whole answer."""
        body = json.dumps(message).encode()
        request = f"{self.head}{headers}content-length: {len(body)}\r\n\r\n".encode() + body
        self.expired = False
        timer = asyncio.get_running_loop().call_later(TIMEOUT, self._expire)
        try:
            if self.streams is not None and self.streams[0].at_eof():
                self.close()  # the server closed it while idle: as any client, open another
            if self.streams is None:
                self.streams = await asyncio.open_connection(self.host, self.port)
            reader, writer = self.streams
            writer.write(request)
            response = await _read(reader)
        except BaseException:
            self.close()
            if self.expired:
                msg = f"no answer in {TIMEOUT:.0f} s"
                raise TimeoutError(msg) from None
            raise
        finally:
            timer.cancel()
        if self.fresh or response.headers.get("connection") == "close":
            self.close()
        return response


async def _read(reader: asyncio.StreamReader) -> _Response:
    """One HTTP/1.1 response: its status line and headers, then its body: none for a 1xx, 204
    or 304, else `content-length` bytes, or in chunks, or (with neither) up to the end of the
    connection."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split(" ", 2)[1])
    headers = {}
    for line in head[1:-2]:
        name, _, value = line.partition(":")
        headers[name.lower()] = value.strip()
    if status < 200 or status in (204, 304):
        body = b""
    elif "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        chunks = []
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            chunks.append((await reader.readexactly(size + 2))[:-2])
        while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers, up to the blank line
            pass
        body = b"".join(chunks)
    else:
        body = await reader.read()
    return _Response(status, headers, body)


def _answer(response: _Response, request_id: int) -> dict[str, Any]:
    """The JSON-RPC response of `request_id` in a JSON or an SSE body."""
    if response.status != 200:
        msg = f"HTTP {response.status}: {response.body[:120].decode(errors='replace')}"
        raise RuntimeError(msg)
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        bodies = [
            json.loads(line[5:])
            for line in response.body.splitlines()
            if line.startswith(b"data:") and line[5:].strip()
        ]
    else:
        bodies = [json.loads(response.body)]
    for body in bodies:
        if body.get("id") == request_id:
            if "error" in body:
                msg = f"JSON-RPC error {body['error']}"
                raise RuntimeError(msg)
            result: dict[str, Any] = body["result"]
            return result
    msg = f"no response to request {request_id}"
    raise RuntimeError(msg)


def _request(method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": next(_ids), "method": method, "params": params}


def _lines(headers: dict[str, str]) -> str:
    return "".join(f"{name}: {value}\r\n" for name, value in headers.items())


class _Legacy:
    """A 2025-era client: the handshake once, then calls (with the session's id, if it has one)."""

    def __init__(self, http: _Connection) -> None:
        self.http = http
        self.headers = {"accept": ACCEPT, "content-type": "application/json"}
        self.lines = _lines(self.headers)

    async def start(self) -> None:
        params = {
            "protocolVersion": LEGACY,
            "capabilities": {},
            "clientInfo": {"name": "load", "version": "0"},
        }
        sent = _request("initialize", params)
        response = await self.http.post(sent, self.lines)
        _answer(response, sent["id"])
        self.headers["mcp-protocol-version"] = LEGACY
        if "mcp-session-id" in response.headers:
            self.headers["mcp-session-id"] = response.headers["mcp-session-id"]
        self.lines = _lines(self.headers)
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        acknowledged = await self.http.post(note, self.lines)
        if acknowledged.status != 202:
            said = acknowledged.body[:120].decode(errors="replace")
            msg = f"HTTP {acknowledged.status} to initialized: {said}"
            raise RuntimeError(msg)

    async def echo(self, text: str) -> dict[str, Any]:
        sent = _request("tools/call", {"name": "echo", "arguments": {"text": text}})
        return _answer(await self.http.post(sent, self.lines), sent["id"])


class _Modern:
    """A 2026-07-28 client: each call one POST carrying its own protocol envelope."""

    lines = _lines(
        {
            "accept": ACCEPT,
            "content-type": "application/json",
            "mcp-protocol-version": MODERN,
            "mcp-method": "tools/call",
            "mcp-name": "echo",
        }
    )

    def __init__(self, http: _Connection) -> None:
        self.http = http

    async def start(self) -> None:
        """Nothing to do: 2026-07-28 has no handshake."""

    async def echo(self, text: str) -> dict[str, Any]:
        meta = {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
        }
        params = {"name": "echo", "arguments": {"text": text}, "_meta": meta}
        sent = _request("tools/call", params)
        return _answer(await self.http.post(sent, self.lines), sent["id"])


async def _client(
    url: str, path: str, number: int, calls: int, outcome: Outcome, *, fresh: bool
) -> None:
    kind = _Modern if path == "2026" else _Legacy
    # `fresh`: the server closes the connection after each answer, so each call (and each of
    # its handshake's requests) comes on a new one, which any worker may accept.
    http = _Connection(url, fresh=fresh)
    session = None
    try:
        for call in range(calls):
            text = f"client {number} call {call}"
            outcome.sent += 1
            started = time.perf_counter()
            try:
                if session is None or fresh:  # for a 2025-era client, a new handshake too
                    session = kind(http)
                    await session.start()
                result = await session.echo(text)
            except ERRORS as error:
                outcome.errors.append(f"{type(error).__name__}: {error}"[:200])
                session = None
                continue
            got = [block.get("text") for block in result.get("content", [])]
            if result.get("isError") or got != [text]:
                outcome.errors.append(f"sent {text!r}, answered {result!r}"[:200])
                continue
            outcome.latencies.append(time.perf_counter() - started)
            outcome.answered += 1
    finally:
        http.close()


async def load(url: str, path: str, clients: int, calls: int, *, fresh: bool = False) -> Outcome:
    """`clients` concurrent clients of `path`, each making `calls` calls of `echo`."""
    if path not in PATHS:
        msg = f"path is one of {PATHS}, got {path!r}"
        raise ValueError(msg)
    outcome = Outcome()
    started = time.perf_counter()
    await asyncio.gather(
        *(_client(url, path, n, calls, outcome, fresh=fresh) for n in range(clients))
    )
    outcome.seconds = time.perf_counter() - started
    return outcome
