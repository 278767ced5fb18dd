"""An MCP server over stdio serving notes, with `adecore_tools.mcp` on the official MCP Python SDK.

An MCP client starts it and speaks to it on stdin and stdout:

    python examples/mcp_server.py

It serves the `note` toolkit of `examples/notes.py`, on one in-memory document that lives as long
as the process. `mcp_server` does the MCP side: it lists `registry.mcp_tools()`, runs each call
with `registry.call` and answers the `ToolResult` it gives; a refusal comes back as an error result
(`isError: true`) whose text is `refusal_body(...)`, and any other exception is logged on stderr
and answered with a short generic text. What is left here is the host's: who may write.

`server` is the SDK's low-level `Server`. The SDK's `mcp run` command finds it but runs only
the SDK's own `MCPServer`, so run this file with `python` instead.

Stdout is the transport, so the logs go to stderr. The caller may read; set `NOTES_MAY_WRITE=1` in
the environment the client starts the server with to let it write and delete too.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

import anyio
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

# `examples/` is not a package: Python puts a script's own folder first on `sys.path`, so this
# import finds `examples/notes.py` however the server is started (`python examples/mcp_server.py`
# from the repository root, or a test starting it as a subprocess by its full path).
from notes import Document, NoteCall, registry

from adecore_tools.mcp import mcp_server

logger = logging.getLogger("notes-mcp")


def caller_may_write(ctx: ServerRequestContext[Any, Any]) -> bool:
    """Decide, for one request, whether its caller may change the document.

    This is where a host checks who is calling. Over stdio the caller is whoever started this
    process, so the people who configure the client decide, through its environment. Over HTTP a
    host would read the user the SDK's auth middleware verified (an access token) and look up what
    that user may do. The client's own `clientInfo` name says which program is calling, not who:
    good for the log, not for a decision.
    """
    client = ctx.session.client_params
    logger.debug("call from %s", client.client_info.name if client else "an unnamed client")
    return os.environ.get("NOTES_MAY_WRITE") == "1"


def create_server(doc: Document) -> Server[Any]:
    """The server for one document: each call gets a call object for that document."""
    return mcp_server(
        registry,
        lambda ctx: NoteCall(doc, may_write=caller_may_write(ctx)),
        name="adecore-notes",
        version="1",
    )


server = create_server(Document())
"""The server of this process's document."""


async def serve() -> None:
    """Serve one client on stdin and stdout until it goes away."""
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main() -> None:
    """Log to stderr, then serve."""
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="%(levelname)s %(name)s: %(message)s"
    )
    anyio.run(serve)


if __name__ == "__main__":
    main()
