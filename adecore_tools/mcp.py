"""An MCP server for a registry, on the official MCP Python SDK's low-level `Server`.

`pip install 'adecore_tools[mcp]'` installs the SDK (`mcp>=2.3,<3`) and uvicorn. The package
itself never imports this module: only a host that serves MCP does.

    from adecore_tools.mcp import mcp_server

    server = mcp_server(registry, make_call, name="notes")

`make_call(ctx)` is the host's: given the SDK's request context of one `tools/call` or
`tools/list`, it returns the call object (or `None`); it may be a plain or an `async` function.
It is where a host decides who is calling and what they may touch: `tools/list` lists only the
tools that call may use (`ToolCall.may_use`), and `tools/call` of another is refused as an
unknown tool. A `ToolRefusal` it raises is answered like the tool's own; on `tools/list`, that
caller holds no scopes, and sees the tools that need none (calling one, it reads the refusal).

Over stdio, with the SDK's transport:

    import anyio
    from mcp.server.stdio import stdio_server

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)

Over streamable HTTP, on 127.0.0.1 at `/mcp` (for a local host the SDK turns DNS-rebinding
protection on: a request whose `Host` or `Origin` is not local is refused):

    import uvicorn

    uvicorn.run(server.streamable_http_app(host="127.0.0.1"), host="127.0.0.1", port=8000)

What a client receives of a call: each block of `tool_result(tool, value)` as its MCP content
block, and `structuredContent` for a tool with an output model; a `ToolRefusal` (bad arguments
and unknown tools included) as an error result (`isError: true`) whose text is
`refusal_body(refusal)`; any other exception as an error result with the text `TOOL_FAILED`,
its traceback logged on the `adecore_tools` logger.

A call whose call object needs approval (`ToolCall.needs_approval`) is asked about through a
client that declared elicitation: on a handshake-era connection, with an elicitation request
during the call; on 2026-07-28, where the host passed `approval_key`, by answering `tools/call`
with an `InputRequiredResult` holding that request and a signed `requestState`, which the
client's retry carries back with the answer. Accepted, the call runs once; a decline or cancel
is the `not-approved` refusal, the tool never run. Where the client cannot be asked, it reads the
`needs-approval` refusal. The state is an HMAC-SHA256 under the key of its issue time, the
server's name, the tool, the arguments and the caller (the SDK's authenticated principal, when
there is auth): a retry whose state was altered, is for another call or caller, or is older than
`approval_ttl` seconds is refused `not-approved`, and never runs the tool.

    server = mcp_server(registry, make_call, name="notes", approval_key=key)  # 32+ secret bytes
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import math
import time
import typing
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

try:
    from mcp import types
    from mcp.server import Server, ServerRequestContext
    from mcp.server.request_state import authenticated_principal
    from mcp.shared.message import ServerMessageMetadata
    from mcp.types.version import HANDSHAKE_PROTOCOL_VERSIONS
except ModuleNotFoundError as _missing:
    if _missing.name != "mcp":  # the SDK is there, but something it needs is not
        raise
    raise ModuleNotFoundError(
        "adecore_tools.mcp needs the MCP Python SDK: pip install 'adecore_tools[mcp]'",
        name=_missing.name,
    ) from _missing

from ._host.seam import (
    NOT_APPROVED,
    Audio,
    Content,
    Image,
    Text,
    ToolRefusal,
    ToolRegistry,
    ToolResult,
    answer,
    not_approved,
    visible,
    waits_for_approval,
)

__all__ = ["LEVELS", "NOT_APPROVED", "TOOL_FAILED", "log_level", "logs_at", "mcp_server"]


TOOL_FAILED = "The tool failed on the server's side; the server logged the error. Tell the user."
"""What a client reads when a tool raised something other than a refusal: nothing of the error."""

LEVELS: tuple[types.LoggingLevel, ...] = typing.get_args(types.LoggingLevel)
"""MCP's log levels, least severe first (`debug` ... `emergency`)."""

_LEVEL_KEY = "adecore_tools.log_level"
"""Where the level a client set with `logging/setLevel` is kept, in its connection's state."""

_logger = logging.getLogger("adecore_tools")

_now = time.time
"""The clock an approval's state is issued and checked by (a test sets it)."""

_ASK = "approval"
"""The key of the one input request, the person's yes or no, in an `InputRequiredResult`."""

_FORMAT = "a1"
"""The first part of an approval's `requestState`: its format, which its signature covers too."""


def mcp_server(  # noqa: PLR0913 - the server's name and options are keywords
    registry: ToolRegistry,
    make_call: Callable[[ServerRequestContext[Any, Any]], object],
    *,
    name: str,
    version: str | None = None,
    instructions: str | None = None,
    approval_key: bytes | None = None,
    approval_ttl: float = 600.0,
) -> Server[Any]:
    """A low-level MCP `Server` that lists and runs the tools of `registry`.

    Both `tools/list` and `tools/call` build the call object with `make_call(ctx)` (awaited when
    it returns an awaitable). `tools/list` answers the entries of `registry.mcp_tools()` that
    call may use, converted to the SDK's types once, here; where what a caller sees can vary (a
    tool declares scopes, or the call's class overrides `may_use`), the listing says
    `cacheScope: "private"` to a 2026-07-28 client, and `"public"` otherwise. `tools/call`
    answers what `registry.call` gives.
    `logging/setLevel` keeps the client's level for `log_level(ctx)` to read.

    `approval_key` (at least 32 secret bytes every process of the deployment shares) lets a
    2026-07-28 client be asked to approve a call, the question answerable for `approval_ttl`
    seconds; without it, such a client reads `needs-approval`.

    `name`, `version` and `instructions` are what the client reads on `initialize`. The server
    is the SDK's own: serve it with the SDK's transports (the module's docstring shows stdio
    and HTTP), and add handlers or middleware to it as to any.
    """
    if not isinstance(registry, ToolRegistry):
        msg = f"mcp_server takes a ToolRegistry, got {type(registry).__name__}"
        raise TypeError(msg)
    if not callable(make_call):
        msg = "make_call is a function of the request context returning the call object"
        raise TypeError(msg)
    if not isinstance(name, str):
        msg = f"name is the server's name, a str; got {name!r}"
        raise TypeError(msg)
    approvals = _approvals(approval_key, approval_ttl, name)
    listing = registry.mcp_tools()
    entries = [types.Tool.model_validate(entry) for entry in listing]
    public = types.ListToolsResult(tools=entries, cache_scope="public")
    by_name = {entry.name: entry for entry in entries}
    schemas: dict[str, Any] = {entry["name"]: entry["inputSchema"] for entry in listing}

    async def on_list_tools(
        ctx: ServerRequestContext[Any, Any], _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        shown, varies = await visible(registry, lambda: make_call(ctx))
        if not varies:
            return public
        tools = [by_name[t.name] for t in shown.tools]
        return types.ListToolsResult(tools=tools, cache_scope="private")

    async def on_call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        def run(*, approved: bool = False) -> Awaitable[ToolResult]:
            return answer(
                registry, params.name, params.arguments, lambda: make_call(ctx), approved=approved
            )

        try:
            # A refusal (bad arguments, an unknown tool, the tool's own) is an error result the
            # model reads, with its advice rows, and can act on.
            result: ToolResult | types.InputRequiredResult = await run()
            if isinstance(result, ToolResult) and waits_for_approval(result):
                result = await _asked(approvals, ctx, params, lambda: run(approved=True), result)
        except Exception:
            # A bug on the host's side: the details are for the server's log, not the model.
            _logger.exception("MCP tools/call of %r failed", params.name)
            return types.CallToolResult(
                content=[types.TextContent(text=TOOL_FAILED)], is_error=True
            )
        return result if isinstance(result, types.InputRequiredResult) else _sent(result)

    server: Server[Any] = Server(
        name,
        version="" if version is None else version,
        instructions=instructions,
        # Read where the SDK checks a call's `Mcp-Param-*` headers (HTTP, 2026-07-28), which
        # would otherwise run `tools/list` before every call.
        get_tool_input_schema=schemas.get,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )
    # Registered by method: the SDK's `on_set_logging_level=` warns that logging is deprecated
    # in 2026-07-28, which every handshake-era client still uses.
    server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, _set_level)
    return server


async def _asked(
    approvals: _Approvals | None,
    ctx: ServerRequestContext[Any, Any],
    params: types.CallToolRequestParams,
    run: Callable[[], Awaitable[ToolResult]],
    unasked: ToolResult,
) -> ToolResult | types.InputRequiredResult:
    """Ask the person through the client, the way this connection can; `unasked` where it cannot.

    On a handshake-era connection, an elicitation request during the call. On 2026-07-28, an
    `InputRequiredResult` whose signed state the client's retry carries back with the answer.
    """
    capabilities = ctx.session.client_capabilities
    if capabilities is None or capabilities.elicitation is None:
        return unasked
    if ctx.session.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
        return unasked if approvals is None else await approvals.ask(ctx, params, run)
    if not ctx.session.can_send_request:
        return unasked
    metadata = ServerMessageMetadata(related_request_id=ctx.request_id)
    question = _question(params.name, params.arguments or {})
    reply = await ctx.session.send_request(question, types.ElicitResult, metadata=metadata)
    return await _answered(params.name, reply.action, run)


def _question(name: str, arguments: dict[str, Any]) -> types.ElicitRequest:
    """The person's yes or no about one call: a form with no fields, accepted or not."""
    return types.ElicitRequest(
        params=types.ElicitRequestFormParams(
            message=f"Allow the tool {name!r} to run with {arguments!r}?",
            requested_schema={"type": "object", "properties": {}},
        )
    )


async def _answered(name: str, action: str, run: Callable[[], Awaitable[ToolResult]]) -> ToolResult:
    """Run the call once the person accepted; otherwise the `not-approved` refusal."""
    if action != "accept":
        return ToolResult.refused(not_approved(name, action))
    return await run()


def _approvals(key: object, ttl: object, server: str) -> _Approvals | None:
    """The approval questions of a server with this key and time limit; `None` without a key."""
    if isinstance(ttl, bool) or not isinstance(ttl, int | float):
        msg = f"approval_ttl is how long, in seconds, the person may take to answer; got {ttl!r}"
        raise TypeError(msg)
    if not (math.isfinite(ttl) and ttl > 0):
        msg = f"approval_ttl must be a positive, finite number of seconds; got {ttl!r}"
        raise ValueError(msg)
    if key is None:
        return None
    if not isinstance(key, bytes):
        msg = (
            "approval_key is a secret of at least 32 random bytes that every process of the "
            f"server shares, such as secrets.token_bytes(32); got {type(key).__name__}"
        )
        raise TypeError(msg)
    if len(key) < 32:
        msg = (
            "approval_key must be at least 32 random bytes, such as secrets.token_bytes(32); "
            f"got {len(key)}"
        )
        raise ValueError(msg)
    return _Approvals(key, ttl, server)


@dataclass(frozen=True)
class _Approvals:
    """Asks about a call in an `InputRequiredResult` (2026-07-28), and checks the retry's state.

    A state is `a1.<issued>.<signature>`: the issue time in whole seconds, and an HMAC-SHA256,
    under the host's key, of that time with the server's name, the tool, the arguments
    (canonical JSON) and the caller. Nothing is kept between the question and the retry: the
    retry is checked by signing what it carries again, so any process holding the key can.
    """

    key: bytes
    ttl: float
    server: str

    async def ask(
        self,
        ctx: ServerRequestContext[Any, Any],
        params: types.CallToolRequestParams,
        run: Callable[[], Awaitable[ToolResult]],
    ) -> ToolResult | types.InputRequiredResult:
        """The question, on the first call; on the retry, the call run once it was accepted."""
        name, arguments = params.name, params.arguments or {}
        # The SDK's principal of the request: its access token's client, issuer and subject.
        caller = authenticated_principal(ctx)
        if params.request_state is None:
            return types.InputRequiredResult(
                input_requests={_ASK: _question(name, arguments)},
                request_state=self._state(str(int(_now())), name, arguments, caller),
            )
        if not self._valid(params.request_state, name, arguments, caller):
            text = (
                f"tool {name!r} was not run: its approval was altered, is for another call, or "
                f"is older than {self.ttl / 60:g} min; call it again to ask the user"
            )
            return ToolResult.refused(ToolRefusal(NOT_APPROVED, text))
        reply = (params.input_responses or {}).get(_ASK)
        action = reply.action if isinstance(reply, types.ElicitResult) else "no answer"
        return await _answered(name, action, run)

    def _valid(self, state: str, name: str, arguments: dict[str, Any], caller: str | None) -> bool:
        """Whether `state` was issued by this deployment for this very call, within the limit."""
        issued = state.partition(".")[2].partition(".")[0]
        expected = self._state(issued, name, arguments, caller).encode()
        if not hmac.compare_digest(expected, state.encode(errors="replace")):
            return False
        age = _now() - int(issued)  # signed by this deployment, so digits
        return -60 <= age < self.ttl  # a minute's grace for a process whose clock is ahead

    def _state(self, issued: str, name: str, arguments: dict[str, Any], caller: str | None) -> str:
        """The state issued at `issued` for this call: `a1.<issued>.<signature>`."""
        signed = json.dumps(
            [_FORMAT, self.server, name, arguments, caller, issued],
            sort_keys=True,
            separators=(",", ":"),
        )
        digest = hmac.new(self.key, signed.encode(), hashlib.sha256).digest()
        return f"{_FORMAT}.{issued}.{base64.urlsafe_b64encode(digest).decode().rstrip('=')}"


def log_level(ctx: ServerRequestContext[Any, Any]) -> types.LoggingLevel | None:
    """The least severe log level the client wants for this request, or `None` if it set none.

    On a 2025-era connection (a client that sent `initialize`), the level of the connection's
    last `logging/setLevel`; on 2026-07-28, the level the request itself opted in to (its
    `_meta`). `logs_at(ctx, level)` applies the rule of each era.
    """
    asked: object = (ctx.meta or {}).get(types.LOG_LEVEL_META_KEY)
    if asked is None:
        state = _connection_state(ctx)
        asked = None if state is None else state.get(_LEVEL_KEY)
    return next((level for level in LEVELS if level == asked), None)


def logs_at(ctx: ServerRequestContext[Any, Any], level: types.LoggingLevel) -> bool:
    """Whether the client wants log messages of `level` during this request.

    At or above the level it set. With none set, every level on a 2025-era connection (where
    logging needs no opt-in) and none on 2026-07-28 (where a request that did not opt in must
    get no log message).
    """
    if level not in LEVELS:
        msg = f"level is one of {', '.join(LEVELS)}; got {level!r}"
        raise ValueError(msg)
    wanted = log_level(ctx)
    if wanted is None:
        return ctx.session.protocol_version in HANDSHAKE_PROTOCOL_VERSIONS
    return LEVELS.index(level) >= LEVELS.index(wanted)


async def _set_level(
    ctx: ServerRequestContext[Any, Any], params: types.SetLevelRequestParams
) -> types.EmptyResult:
    state = _connection_state(ctx)
    if state is not None:
        state[_LEVEL_KEY] = params.level
    return types.EmptyResult()


def _connection_state(ctx: ServerRequestContext[Any, Any]) -> dict[str, Any] | None:
    """The SDK's per-connection scratch `state`, or `None` where it cannot be found.

    mcp 2.3 keeps one `Connection` per client connection, with a `state` dict for exactly this;
    a request handler reaches it only through its session. Should a later SDK move it, the
    level is not kept, and `log_level` reads `None` (tests/adapters/test_mcp.py would fail first).
    """
    connection: object = getattr(ctx.session, "_connection", None)
    state: object = getattr(connection, "state", None)
    return typing.cast("dict[str, Any]", state) if isinstance(state, dict) else None


def _sent(result: ToolResult) -> types.CallToolResult:
    """What a client receives: each block as its MCP block, and any structured content."""
    return types.CallToolResult(
        content=[_block(block) for block in result.content],
        structured_content=result.structured,
        is_error=result.is_error,
    )


def _block(block: Content) -> types.ContentBlock:
    if isinstance(block, Text):
        return types.TextContent(text=block.text)
    if isinstance(block, Image):
        return types.ImageContent(data=_base64(block.data), mime_type=block.mime_type)
    if isinstance(block, Audio):
        return types.AudioContent(data=_base64(block.data), mime_type=block.mime_type)
    contents: types.TextResourceContents | types.BlobResourceContents
    if block.text is not None:
        contents = types.TextResourceContents(
            uri=block.uri, mime_type=block.mime_type, text=block.text
        )
    else:
        blob = typing.cast("bytes", block.blob)  # a Resource holds its text or its blob
        contents = types.BlobResourceContents(
            uri=block.uri, mime_type=block.mime_type, blob=_base64(blob)
        )
    return types.EmbeddedResource(resource=contents)


def _base64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
