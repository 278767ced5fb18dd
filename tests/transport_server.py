"""Scoped, slow and self-cancelling tools, served with `adecore_tools.mcp` for one caller.

Run by tests/adapters/test_mcp_transports.py, one server per caller kind:

    python tests/transport_server.py --scopes notes:read            # over stdio
    python tests/transport_server.py --scopes notes:read --http     # streamable HTTP, 127.0.0.1

Every call is made by a caller holding the `--scopes` given (none without it). Over HTTP it
prints its URL once listening (`mcp_served.listening` reads it).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from mcp.server.stdio import stdio_server
from mcp_served import serve_http
from scoped_tools import Caller, note_read, note_write

from adecore_tools import create_tool_registry, define_toolkit, tool
from adecore_tools.mcp import mcp_server

state = ["idle"]
"""What the last `slow` run did: `started`, then `cancelled` as it unwinds, or `slept`."""


@tool("transport")
async def slow() -> str:
    """Take ten seconds."""
    state[0] = "started"
    try:
        await asyncio.sleep(10)
    except asyncio.CancelledError:
        state[0] = "cancelled"
        raise
    state[0] = "slept"
    return "late"


@tool("transport")
async def slow_state() -> str:
    """Say what the last slow run did."""
    return state[0]


@tool("transport")
async def self_cancelled() -> str:
    """Raise CancelledError while nothing cancelled the call."""
    raise asyncio.CancelledError


@tool("transport", timeout=0.2)
async def overdue() -> str:
    """Take ten seconds, past its limit of 0.2."""
    await asyncio.sleep(10)
    return "late"


@tool("transport")
async def echo(text: str) -> str:
    """Say the text back."""
    return text


registry = create_tool_registry(
    [
        define_toolkit("notes", [note_read, note_write]),
        define_toolkit("transport", [slow, slow_state, self_cancelled, overdue, echo]),
    ]
)


def main(argv: list[str] | None = None) -> None:
    """Serve, for a caller holding `--scopes`, over stdio or with `--http`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scopes", nargs="*", default=[], help="the scopes every caller holds")
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP on 127.0.0.1")
    args = parser.parse_args(argv)
    caller = Caller(frozenset(args.scopes))
    server = mcp_server(registry, lambda _ctx: caller, name="transport")
    if args.http:
        serve_http(server.streamable_http_app(host="127.0.0.1"))
        return

    async def stdio() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    asyncio.run(stdio())


if __name__ == "__main__":
    sys.exit(main())
