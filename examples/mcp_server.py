"""An MCP server over stdio, on the official MCP Python SDK's low-level `Server`, serving notes.

An MCP client starts it and speaks to it on stdin and stdout:

    python examples/mcp_server.py

It serves the `note` toolkit of `examples/notes.py`, on one in-memory document that lives as long
as the process:

- `tools/list` answers with `registry.mcp_tools()`, as the library wrote them;
- `tools/call` runs `registry.run` with a call object built for that one request; the tool's lines
  come back as one text content, a `ToolRefusal` as an error result (`isError: true`) whose text is
  `refusal_body(...)`, and any other exception is logged on stderr and answered with a short
  generic text, never its traceback.

Stdout is the transport, so the logs go to stderr. The caller may read; set `NOTES_MAY_WRITE=1` in
the environment the client starts the server with to let it write and delete too.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

import anyio
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

# `examples/` is not a package: Python puts a script's own folder first on `sys.path`, so this
# import finds `examples/notes.py` however the server is started (`python examples/mcp_server.py`
# from the repository root, or a test starting it as a subprocess by its full path).
from notes import Document, NoteCall, registry

from adecore_tools import ToolRefusal, refusal_body

logger = logging.getLogger("notes-mcp")

FAILED = "The tool failed on the server's side; the server logged the error. Tell the user."
"""What a caller reads when a tool raised something other than a refusal: nothing of the error."""


def caller_may_write(ctx: ServerRequestContext[Any]) -> bool:
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


def text_result(text: str, *, is_error: bool = False) -> types.CallToolResult:
    """One text content: how every answer of this server reaches the model."""
    return types.CallToolResult(content=[types.TextContent(text=text)], is_error=is_error)


def create_server(doc: Document) -> Server[Any]:
    """The server for one document: a tool listing and a tool call handler, nothing else."""
    # Converted once: the listing never changes.
    tools = [types.Tool.model_validate(entry) for entry in registry.mcp_tools()]

    async def on_list_tools(
        _ctx: ServerRequestContext[Any], _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def on_call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        call = NoteCall(doc, may_write=caller_may_write(ctx))
        try:
            lines = await registry.run(params.name, params.arguments, call)
        except ToolRefusal as refusal:
            # Bad arguments, an unknown tool, a stale revision, a caller who may not write:
            # the model reads the refusal, with its advice rows, and can act on it.
            return text_result(refusal_body(refusal), is_error=True)
        except Exception:
            # A bug on our side: the details are for the server's log, not for the model.
            logger.exception("tool %r failed", params.name)
            return text_result(FAILED, is_error=True)
        return text_result("\n".join(lines))

    return Server(
        "adecore-notes", version="1", on_list_tools=on_list_tools, on_call_tool=on_call_tool
    )


async def serve() -> None:
    """Serve one client on stdin and stdout until it goes away."""
    server = create_server(Document())
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
