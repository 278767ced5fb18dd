"""The same `echo` tool served over streamable HTTP by each system benchmarks/load.py compares.

Each `*_app` is an app factory, for `uvicorn load_servers:adecore_app --factory`; it serves
statelessly when `LOAD_STATELESS=1` is in the environment. `adecore_server` is for
`adecore-tools serve`. Run as a script, it serves one app (`adecore` or `mcpserver`) in one
process under cProfile and writes the profile when stopped: what share of the server's CPU is
the adapter's own, and how many function calls a call costs each server.

    python benchmarks/load_servers.py profile APP PORT OUT
"""

from __future__ import annotations

import cProfile
import os
import signal
import sys
from typing import Any

from adecore_tools import create_tool_registry, define_toolkit, tool


@tool("load")
async def echo(text: str) -> str:
    """Say the text back."""
    return text


def _stateless() -> bool:
    return os.environ.get("LOAD_STATELESS") == "1"


def _adecore() -> Any:
    from adecore_tools.mcp import mcp_server  # noqa: PLC0415 - each system loads when used

    return mcp_server(
        create_tool_registry([define_toolkit("load", [echo])]), lambda _: None, name="load"
    )


adecore_server = _adecore()
"""For `adecore-tools serve benchmarks/load_servers.py:adecore_server`."""


def adecore_app() -> Any:
    return _adecore().streamable_http_app(stateless_http=_stateless(), host="127.0.0.1")


def mcpserver_app() -> Any:
    from mcp.server.mcpserver import MCPServer  # noqa: PLC0415

    server = MCPServer("load")

    @server.tool()
    async def echo(text: str) -> str:
        """Say the text back."""
        return text

    return server.streamable_http_app(stateless_http=_stateless(), host="127.0.0.1")


def fastmcp_app() -> Any:
    from fastmcp import FastMCP  # noqa: PLC0415

    server = FastMCP("load")

    @server.tool
    async def echo(text: str) -> str:
        """Say the text back."""
        return text

    return server.http_app(stateless_http=_stateless())


PROFILED = {"adecore": adecore_app, "mcpserver": mcpserver_app}
"""The apps `profile` serves, by the name its command line gives."""


def profile(app: str, port: int, out: str) -> None:
    """Serve `{app}_app` on asyncio and h11 under cProfile until stopped; write the profile."""
    import uvicorn  # noqa: PLC0415

    config = uvicorn.Config(
        PROFILED[app](), port=port, loop="asyncio", http="h11", log_level="warning"
    )
    profiler = cProfile.Profile()

    def finish(*_: object) -> None:
        # uvicorn shuts down on SIGTERM, then raises it again: here, once it has.
        profiler.disable()
        profiler.dump_stats(out)
        sys.exit(0)

    signal.signal(signal.SIGTERM, finish)
    profiler.enable()
    uvicorn.Server(config).run()
    finish()


if __name__ == "__main__":
    profile(sys.argv[2], int(sys.argv[3]), sys.argv[4])
