"""A registry of every kind of result and back-channel use, served with `adecore_tools.mcp`.

Imported by the MCP tests (in-process), and run as a script for the clients that start a server
themselves:

    python tests/mcp_served.py             # over stdio
    python tests/mcp_served.py --http      # streamable HTTP on 127.0.0.1, a free port
    python tests/mcp_served.py --http --json   # the same, answering JSON rather than SSE

Over HTTP it prints the server's URL on stdout once it is listening, then serves until killed;
`listening(script)` starts such a script for a test and gives its URL.
"""

from __future__ import annotations

import argparse
import asyncio
import enum
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from annotated_types import Ge, Le
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.shared.message import ServerMessageMetadata

from adecore_tools import (
    Audio,
    Content,
    Image,
    Resource,
    ToolCall,
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    tool,
)
from adecore_tools.mcp import log_level, logs_at, mcp_server

PNG = b"\x89PNG\r\n\x1a\n not really a picture"
WAV = b"RIFF\x00\x00\x00\x00WAVE not really a sound"
BLOB = bytes(range(8))
FAILURE = "disk on fire at /srv/private/notes.db"
UNDECODABLE = b"report-\xff.txt".decode("utf-8", "surrogateescape")
"""A file name as `os.listdir` gives one that is no UTF-8: it holds a lone surrogate."""


@dataclass
class ServedCall(ToolCall):
    """The SDK's request context of the call, for the tools that log, report or ask."""

    ctx: ServerRequestContext[Any, Any]


class Status(enum.Enum):
    OPEN = "open"
    DONE = "done"


@dataclass
class Task:
    title: str
    status: Status = Status.OPEN
    owner: str | None = None


@tool("served")
async def echo(text: str) -> str:
    """Say the text back."""
    return text


@tool("served")
async def task_get(title: str, done: bool = False) -> Task:
    """Get a task by its title."""
    return Task(title, Status.DONE if done else Status.OPEN)


@tool("served")
async def count_words(text: str) -> int:
    """Count the words of a text."""
    return len(text.split())


@tool("served")
async def snapshot() -> list[Content | str]:
    """Every kind of content block: text, an image, audio and two embedded resources."""
    return [
        "A snapshot:",
        Image(PNG, "image/png"),
        Audio(WAV, "audio/wav"),
        Resource("test://served/readme", text="Read me.", mime_type="text/plain"),
        Resource("test://served/blob", blob=BLOB, mime_type="application/octet-stream"),
    ]


@tool("served")
async def file_name() -> str:
    """The name of a file, as the file system gave it."""
    return UNDECODABLE


@tool("served")
async def file_sizes() -> dict[str, int]:
    """The size of each file, by its name."""
    return {UNDECODABLE: 5}


@tool("served")
async def crash() -> str:
    """Fail with an error that must stay on the server."""
    raise RuntimeError(FAILURE)


@tool("served")
async def guarded(secret: Annotated[int, Ge(0), Le(9)]) -> str:
    """Refuse every secret but 7."""
    if secret != 7:
        raise ToolRefusal("wrong-secret", "That is not the secret.", ["hint\tit is odd"])
    return "opened"


async def log(call: ServedCall, level: types.LoggingLevel, data: str) -> bool:
    """Send a log message on this request's stream if the client wants that level."""
    if not logs_at(call.ctx, level):
        return False
    params = types.LoggingMessageNotificationParams(level=level, data=data, logger="served")
    await call.ctx.session.send_notification(
        types.LoggingMessageNotification(params=params), related_request_id=call.ctx.request_id
    )
    return True


@tool("served")
async def chatty(call: ServedCall) -> str:
    """Log at debug, info and error, each where the client wants it; say what was sent."""
    sent = [level for level in ("debug", "info", "error") if await log(call, level, f"a {level}")]
    return f"level {log_level(call.ctx)}; sent {' '.join(sent) or 'nothing'}"


@tool("served")
async def steps(call: ServedCall, count: Annotated[int, Ge(1), Le(10)] = 3) -> str:
    """Report progress step by step."""
    for step in range(1, count + 1):
        await call.ctx.session.report_progress(step, count, f"step {step}")
    return f"{count} steps"


def _back_channel(call: ServedCall) -> None:
    if not call.ctx.session.can_send_request:
        raise ToolRefusal(
            "no-back-channel",
            "This connection cannot ask the client mid-call (MCP 2026-07-28); "
            "connect with the initialize handshake.",
        )


async def sample(ctx: ServerRequestContext[Any, Any], prompt: str, *, max_tokens: int) -> str:
    """Ask the client's model (sampling) on this request's stream; the text it answers.

    The SDK's own request: its `session.create_message` sends the same, but warns that sampling
    is deprecated in 2026-07-28, which this suite's warnings-as-errors makes a failure.
    """
    message = types.SamplingMessage(role="user", content=types.TextContent(text=prompt))
    request = types.CreateMessageRequest(
        params=types.CreateMessageRequestParams(messages=[message], max_tokens=max_tokens)
    )
    answer = await ctx.session.send_request(
        request,
        types.CreateMessageResult,
        metadata=ServerMessageMetadata(related_request_id=ctx.request_id),
    )
    content = answer.content
    return content.text if isinstance(content, types.TextContent) else f"({content.type})"


@tool("served")
async def ask_model(call: ServedCall, prompt: str) -> str:
    """Ask the client's model, through sampling."""
    _back_channel(call)
    return f"the model said: {await sample(call.ctx, prompt, max_tokens=50)}"


@tool("served")
async def ask_user(call: ServedCall, question: str) -> str:
    """Ask the user for a name, through elicitation."""
    _back_channel(call)
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    answer = await call.ctx.session.elicit_form(
        question, schema, related_request_id=call.ctx.request_id
    )
    return f"{answer.action}: {(answer.content or {}).get('name')}"


registry = create_tool_registry(
    [
        define_toolkit(
            "served",
            [
                echo,
                task_get,
                count_words,
                snapshot,
                file_name,
                file_sizes,
                crash,
                guarded,
                chatty,
                steps,
                ask_model,
                ask_user,
            ],
        )
    ]
)


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}
"""A raw client's first request: the handshake, at 2025-11-25."""


def make_call(ctx: ServerRequestContext[Any, Any]) -> ServedCall:
    """The call object of one request: its context, nothing else to decide here."""
    return ServedCall(ctx)


def create_server() -> Server[Any]:
    """The served registry's server."""
    return mcp_server(
        registry, make_call, name="served", version="1.0", instructions="Tools for the tests."
    )


async def _stdio() -> None:
    from mcp.server.stdio import stdio_server  # noqa: PLC0415 - only when serving stdio

    server = create_server()
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve_http(app: Any) -> None:
    """Serve `app` on a free port of 127.0.0.1, saying its URL once the port listens."""
    import uvicorn  # noqa: PLC0415 - only when serving HTTP

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen()  # a client may connect now: it waits in the backlog until uvicorn accepts
    sys.stdout.write(f"http://127.0.0.1:{sock.getsockname()[1]}/mcp\n")
    sys.stdout.flush()
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])


@contextmanager
def listening(script: Path, *arguments: str, log: Path) -> Iterator[str]:
    """Start `script` (a server that prints its URL), give the URL, stop it on leaving.

    Its stderr goes to `log`. A server that says no URL within a minute is killed.
    """
    with log.open("w") as errors:
        process = subprocess.Popen(  # noqa: S603 - our interpreter, our script
            [sys.executable, str(script), *arguments],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
        )
        watchdog = threading.Timer(60, process.kill)
        watchdog.start()
        try:
            assert process.stdout is not None
            url = process.stdout.readline().strip()
            watchdog.cancel()
            assert url.startswith("http://127.0.0.1:"), log.read_text()
            yield url
        finally:
            watchdog.cancel()
            stop(process)
            if process.stdout is not None:
                process.stdout.close()


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on, for a server a test starts."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(process: subprocess.Popen[Any], url: str, log: Path) -> None:
    """Wait until the server `process` started answers HTTP at `url`, for a minute at most."""
    import httpx  # noqa: PLC0415 - only the HTTP tests need it

    deadline = time.monotonic() + 60
    while True:
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline, log.read_text()
        try:
            httpx.get(url.rsplit("/", 1)[0], timeout=2)
        except httpx.TransportError:
            time.sleep(0.2)
        else:
            return


def stop(process: subprocess.Popen[Any], *, grace: float = 10) -> None:
    """Stop a server started for a test: asked first, killed if it has not gone in `grace` s."""
    process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def main(argv: list[str] | None = None) -> None:
    """Serve over stdio, or over HTTP with `--http`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP on 127.0.0.1")
    parser.add_argument("--json", action="store_true", help="over HTTP, answer JSON, not SSE")
    args = parser.parse_args(argv)
    if args.http:
        app = create_server().streamable_http_app(host="127.0.0.1", json_response=args.json)
        serve_http(app)
    else:
        asyncio.run(_stdio())


if __name__ == "__main__":
    sys.exit(main())


def post_initialize(url: str, headers: dict[str, str]) -> int:
    """The HTTP status of a raw `initialize` POSTed to `url` with `headers`."""
    request = urllib.request.Request(  # noqa: S310 - a 127.0.0.1 URL we started
        url,
        data=json.dumps(INITIALIZE).encode(),
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **headers,
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        with refused:  # its body is an open response: Python 3.14 warns when it is left open
            return refused.code
