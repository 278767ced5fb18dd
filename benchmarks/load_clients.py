"""Raw MCP clients over streamable HTTP for benchmarks/load.py and the serving tests.

Each call sends `echo` a text no other call sends and checks the answer is that text: a lost,
failed or mixed-up call is counted, never mistaken for a result. The clients speak the wire
directly (httpx), as any client does, so what is measured is the server:

- `stateful`: a 2025-era client (`initialize`, then calls on its session), its own connection;
- `stateless`: a 2025-era client on a server that keeps no session; with `fresh=True` each call
  comes on a new connection with its own handshake, as behind a load balancer;
- `2026`: a 2026-07-28 client, one self-contained POST per call, no handshake.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import ssl
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

PATHS = ("stateful", "stateless", "2026")
LEGACY = "2025-11-25"
MODERN = "2026-07-28"
ACCEPT = "application/json, text/event-stream"
_ids = itertools.count(1)
_TLS = ssl.create_default_context()
"""One TLS context for every client: httpx makes one per client otherwise, which costs more CPU
than the calls themselves (the URLs are plain HTTP, it is never used)."""


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


def _answer(response: httpx.Response, request_id: int) -> dict[str, Any]:
    """The JSON-RPC response of `request_id` in a JSON or an SSE body."""
    if response.status_code != 200:
        msg = f"HTTP {response.status_code}: {response.text[:120]}"
        raise RuntimeError(msg)
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        bodies = [
            json.loads(line[5:])
            for line in response.text.splitlines()
            if line.startswith("data:") and line[5:].strip()
        ]
    else:
        bodies = [response.json()]
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


class _Legacy:
    """A 2025-era client: the handshake once, then calls (with the session's id, if it has one)."""

    def __init__(self, http: httpx.AsyncClient, url: str) -> None:
        self.http, self.url = http, url
        self.headers = {"accept": ACCEPT, "content-type": "application/json"}

    async def start(self) -> None:
        params = {
            "protocolVersion": LEGACY,
            "capabilities": {},
            "clientInfo": {"name": "load", "version": "0"},
        }
        sent = _request("initialize", params)
        response = await self.http.post(self.url, json=sent, headers=self.headers)
        _answer(response, sent["id"])
        self.headers["mcp-protocol-version"] = LEGACY
        if "mcp-session-id" in response.headers:
            self.headers["mcp-session-id"] = response.headers["mcp-session-id"]
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        acknowledged = await self.http.post(self.url, json=note, headers=self.headers)
        if acknowledged.status_code != 202:
            msg = f"HTTP {acknowledged.status_code} to initialized: {acknowledged.text[:120]}"
            raise RuntimeError(msg)

    async def echo(self, text: str) -> dict[str, Any]:
        sent = _request("tools/call", {"name": "echo", "arguments": {"text": text}})
        return _answer(await self.http.post(self.url, json=sent, headers=self.headers), sent["id"])


class _Modern:
    """A 2026-07-28 client: each call one POST carrying its own protocol envelope."""

    def __init__(self, http: httpx.AsyncClient, url: str) -> None:
        self.http, self.url = http, url
        self.headers = {
            "accept": ACCEPT,
            "content-type": "application/json",
            "mcp-protocol-version": MODERN,
            "mcp-method": "tools/call",
            "mcp-name": "echo",
        }

    async def start(self) -> None:
        """Nothing to do: 2026-07-28 has no handshake."""

    async def echo(self, text: str) -> dict[str, Any]:
        meta = {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
        }
        params = {"name": "echo", "arguments": {"text": text}, "_meta": meta}
        sent = _request("tools/call", params)
        return _answer(await self.http.post(self.url, json=sent, headers=self.headers), sent["id"])


async def _client(
    url: str, path: str, number: int, calls: int, outcome: Outcome, *, fresh: bool
) -> None:
    kind = _Modern if path == "2026" else _Legacy
    # `fresh`: the server closes the connection after each answer, so each call (and each of
    # its handshake's requests) comes on a new one, which any worker may accept.
    headers = {"connection": "close"} if fresh else {}
    async with httpx.AsyncClient(timeout=60, headers=headers, verify=_TLS) as http:
        session = None
        for call in range(calls):
            text = f"client {number} call {call}"
            outcome.sent += 1
            started = time.perf_counter()
            try:
                if session is None or fresh:  # for a 2025-era client, a new handshake too
                    session = kind(http, url)
                    await session.start()
                result = await session.echo(text)
            except (RuntimeError, httpx.HTTPError, ValueError, KeyError) as error:
                outcome.errors.append(f"{type(error).__name__}: {error}"[:200])
                session = None
                continue
            got = [block.get("text") for block in result.get("content", [])]
            if result.get("isError") or got != [text]:
                outcome.errors.append(f"sent {text!r}, answered {result!r}"[:200])
                continue
            outcome.latencies.append(time.perf_counter() - started)
            outcome.answered += 1


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
