"""What the benchmark runs: the tools, the inputs, and each peer's equivalent of them.

`run.py` times these; `tests/test_benchmark_agreement.py` checks that every validator here decides
every benchmark input the way `parse_tool_input` does, so a number in the table always measures
the same work. Peers are optional: a function building a peer's side imports it when called, and
`installed(peer)` says whether it can.

The tool of the `validate`, `define`, `list` and `call` workloads has five fields: a required string
with length bounds, an optional non-negative int, an optional bool, a list of strings and a
two-value literal. The `scale` tool takes one list of small objects (a string and a bounded int).

No `from __future__ import annotations` here: the tools' hints carry per-tool bounds, so they must
be objects when the function is defined (the `exec` that defines one would inherit the import).
"""

import importlib.util
import itertools
from collections.abc import Callable, Coroutine, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from typing import Annotated, Any, Literal

import floor
from annotated_types import Ge, Lt, MaxLen, MinLen
from typing_extensions import NotRequired, TypedDict

from adecore_tools import (
    Tool,
    ToolRefusal,
    ToolRegistry,
    create_tool_registry,
    define_toolkit,
    parse_tool_input,
    tool,
)

TOOLKIT = "bench"
TOOL_COUNT = 200
"""Tools declared and listed by the `define` and `list` workloads."""
CALLED = "note_000"
"""The tool the `validate` and `call` workloads use (the first of the 200)."""
SCALE_SIZES = (10, 100, 1_000, 10_000, 100_000)
SCALE_COMPARED = (1_000, 100_000)
"""The two sizes whose per-item times the `scale` target compares."""

VALID: dict[str, Any] = {
    "text": "Write the weekly report",
    "limit": 10,
    "exact": True,
    "tags": ["work", "weekly"],
    "mode": "fast",
}
"""A typical valid input: every field sent, every value right."""

INVALID: dict[str, Any] = {
    "text": "Write the weekly report",
    "limit": "ten",
    "exact": True,
    "tags": ["work", "weekly"],
    "mode": "medium",
}
"""Two wrong fields: a string for the int, a value outside the literal."""

PEERS = ("pydantic", "msgspec", "mcp", "fastmcp")


def installed(peer: str) -> bool:
    """Whether a peer package can be imported here."""
    return importlib.util.find_spec(peer) is not None


def version_of(distribution: str) -> str | None:
    """The installed version of a distribution, or None."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


# --- the tools, as plain functions every system can declare --------------------------------------


ToolFunction = Callable[..., Coroutine[Any, Any, str]]


NOTE_FIELDS = ("text", "limit", "exact", "tags", "mode")
_PARAMETERS = {
    "text": "text: Annotated[str, MinLen(1), MaxLen(longest)]",
    "limit": "limit: Annotated[int, Ge(0)] | None = None",
    "exact": "exact: bool = False",
    "tags": "tags: list[str]",
    "mode": 'mode: Literal["fast", "slow"]',
}
NOTE_ORDERS = tuple(itertools.permutations(NOTE_FIELDS))
"""Every order of the five fields (120): the `define` workload's second case gives each tool one."""


def note_function(number: int, batch: int = 0, order: Sequence[str] = NOTE_FIELDS) -> ToolFunction:
    """A new five-field tool function, `note_<number>`, whose text bound is its own.

    The text's `MaxLen` differs for every (number, batch), so its hint is a type no system has
    seen before (typing caches equal `Annotated[...]` hints, and a library may cache by hint): a
    new batch costs what a first declaration costs. The other four fields share their types
    across tools, as real tools do. Batch 0, number 0 is the `validate` tool (text up to 200).
    The fields are keyword-only, so they may come in any `order`: the same tool, written so.
    """
    parameters = ", ".join(_PARAMETERS[name] for name in order)
    namespace: dict[str, Any] = {
        **{kind.__name__: kind for kind in (Annotated, Literal, MinLen, MaxLen, Ge)},
        "longest": floor.NOTE_TEXT_MAX + number + batch * TOOL_COUNT,
    }
    exec(f"async def note(*, {parameters}) -> str:\n    return 'ok'\n", namespace)
    note: ToolFunction = namespace["note"]
    note.__name__ = note.__qualname__ = f"note_{number:03d}"
    note.__doc__ = f"Write note number {number} of the benchmark."
    return note


def note_functions(batch: int) -> list[ToolFunction]:
    """The 200 distinct tool functions of the `define` and `list` workloads, batch `batch`."""
    return [note_function(number, batch) for number in range(TOOL_COUNT)]


def ordered_note_functions(batch: int) -> list[ToolFunction]:
    """120 tool functions as `note_functions` makes them, each with its fields in its own order.

    Each order is its own shape of input, so a library that generates code per shape of input
    compiles for every tool, as it does for a host whose tools all take different fields.
    """
    return [note_function(n, batch, order) for n, order in enumerate(NOTE_ORDERS)]


class Item(TypedDict):
    """One small object of the `scale` workload."""

    name: str
    count: Annotated[int, Ge(0), Lt(floor.ITEM_COUNT_BELOW)]


async def load_items(*, items: list[Item]) -> str:
    """Load a batch of items."""
    return "ok"


def scale_input(size: int) -> dict[str, Any]:
    """A valid `scale` input of `size` items."""
    return {
        "items": [{"name": f"item {i}", "count": i % floor.ITEM_COUNT_BELOW} for i in range(size)]
    }


# --- adecore_tools ------------------------------------------------------------------------------


def ours_define(functions: Sequence[ToolFunction]) -> ToolRegistry:
    """Declare the tools and assemble the registry (validators, schemas and listing built)."""
    tools = [tool(TOOLKIT)(fn) for fn in functions]
    return create_tool_registry([define_toolkit(TOOLKIT, tools)])


@cache
def ours_note_tool() -> Tool[..., str]:
    """The tool of the `validate` workload."""
    return tool(TOOLKIT)(note_function(0))


@cache
def ours_scale_tool() -> Tool[..., str]:
    """The tool of the `scale` workload."""
    return tool(TOOLKIT)(load_items)


def ours_list(registry: ToolRegistry) -> list[dict[str, Any]]:
    """The MCP `tools/list` entries."""
    return registry.mcp_tools()


async def ours_call(registry: ToolRegistry) -> object:
    """Run the called tool on the valid input."""
    return await registry.run(CALLED, VALID)


# --- validators: one per system, the same shape for timing and for the agreement tests ------------


@dataclass(frozen=True, slots=True)
class Validator:
    """One system's check of one workload's input.

    `check(input)` returns the checked value or raises `refusal`; `message(exc)` is the text a
    caller would show (built by the check itself where the system does so).
    """

    system: str
    check: Callable[[Any], Any]
    refusal: type[Exception]
    message: Callable[[Exception], str]


def _refusal_message(exc: Exception) -> str:
    return exc.message  # type: ignore[attr-defined, no-any-return]


def note_validators() -> dict[str, Validator | None]:
    """Each system's validator of the five-field tool's input; None when the peer is missing."""
    note = ours_note_tool()
    return {
        "adecore_tools": Validator(
            "adecore_tools",
            lambda data: parse_tool_input(note, data),
            ToolRefusal,
            _refusal_message,
        ),
        "floor": Validator("floor", floor.check_note, floor.Refused, _refusal_message),
        "pydantic": _pydantic(note=True) if installed("pydantic") else None,
        "msgspec": _msgspec(note=True) if installed("msgspec") else None,
    }


def scale_validators() -> dict[str, Validator | None]:
    """Each system's validator of the `scale` tool's input; None when the peer is missing."""
    batch = ours_scale_tool()
    return {
        "adecore_tools": Validator(
            "adecore_tools",
            lambda data: parse_tool_input(batch, data),
            ToolRefusal,
            _refusal_message,
        ),
        "floor": Validator("floor", floor.check_batch, floor.Refused, _refusal_message),
        "pydantic": _pydantic(note=False) if installed("pydantic") else None,
        "msgspec": _msgspec(note=False) if installed("msgspec") else None,
    }


class PydanticNote(TypedDict):
    """The five-field input for pydantic (lax mode, its default): unknown keys refused."""

    __pydantic_config__ = {"extra": "forbid"}  # type: ignore[misc]  # noqa: RUF012 - pydantic reads it
    text: Annotated[str, MinLen(1), MaxLen(floor.NOTE_TEXT_MAX)]
    limit: NotRequired[Annotated[int, Ge(0)] | None]
    exact: NotRequired[bool]
    tags: list[str]
    mode: Literal["fast", "slow"]


class PydanticItem(TypedDict):
    """One `scale` item for pydantic."""

    __pydantic_config__ = {"extra": "forbid"}  # type: ignore[misc]  # noqa: RUF012 - pydantic reads it
    name: str
    count: Annotated[int, Ge(0), Lt(floor.ITEM_COUNT_BELOW)]


class PydanticBatch(TypedDict):
    """The `scale` input for pydantic."""

    __pydantic_config__ = {"extra": "forbid"}  # type: ignore[misc]  # noqa: RUF012 - pydantic reads it
    items: list[PydanticItem]


@cache
def _pydantic(*, note: bool) -> Validator:
    import pydantic  # noqa: PLC0415 - an optional peer, imported when used

    adapter = pydantic.TypeAdapter(PydanticNote if note else PydanticBatch)
    return Validator("pydantic", adapter.validate_python, pydantic.ValidationError, str)


@cache
def _msgspec(*, note: bool) -> Validator:
    import msgspec  # noqa: PLC0415 - an optional peer, imported when used

    text_type = Annotated[str, msgspec.Meta(min_length=1, max_length=floor.NOTE_TEXT_MAX)]
    natural = Annotated[int, msgspec.Meta(ge=0)]
    count_type = Annotated[int, msgspec.Meta(ge=0, lt=floor.ITEM_COUNT_BELOW)]

    class Note(msgspec.Struct, forbid_unknown_fields=True):
        text: text_type
        tags: list[str]
        mode: Literal["fast", "slow"]
        limit: natural | None = None
        exact: bool = False

    class ScaleItem(msgspec.Struct, forbid_unknown_fields=True):
        name: str
        count: count_type

    class Batch(msgspec.Struct, forbid_unknown_fields=True):
        items: list[ScaleItem]

    shape = Note if note else Batch
    return Validator(
        "msgspec", lambda data: msgspec.convert(data, shape), msgspec.ValidationError, str
    )


# --- the official MCP SDK (mcp.server.mcpserver.MCPServer) ----------------------------------------


def mcp_server() -> Any:
    """An empty MCP SDK server (built outside the timed part of `define`)."""
    from mcp.server.mcpserver import MCPServer  # noqa: PLC0415 - an optional peer, imported when used

    return MCPServer(TOOLKIT)


def mcp_define(server: Any, functions: Sequence[ToolFunction]) -> Any:
    """Declare the tools on the server with `server.tool()`."""
    for fn in functions:
        server.tool()(fn)
    return server


async def mcp_list(server: Any) -> list[Any]:
    """The MCP listing: `await server.list_tools()`."""
    return await server.list_tools()  # type: ignore[no-any-return]


async def mcp_call(server: Any) -> object:
    """The in-process call path: `await server.call_tool(name, arguments)`."""
    return await server.call_tool(CALLED, VALID)


# --- fastmcp -------------------------------------------------------------------------------------


def fastmcp_server() -> Any:
    """An empty fastmcp server (built outside the timed part of `define`)."""
    from fastmcp import FastMCP  # noqa: PLC0415 - an optional peer, imported when used

    return FastMCP(TOOLKIT)


def fastmcp_define(server: Any, functions: Sequence[ToolFunction]) -> Any:
    """Declare the tools on the server with `server.tool(fn)`."""
    for fn in functions:
        server.tool(fn)
    return server


async def fastmcp_list(server: Any) -> list[Any]:
    """The MCP listing, as its `tools/list` handler builds it (no middleware is installed)."""
    tools = await server.list_tools(run_middleware=False)
    return [t.to_mcp_tool(name=t.name) for t in tools]


async def fastmcp_call(server: Any) -> object:
    """The cheapest in-process call: `server.call_tool` without the (empty) middleware chain."""
    return await server.call_tool(CALLED, VALID, run_middleware=False)


# --- one tools/call round trip through the MCP SDK's own client ----------------------------------

RoundTrip = Callable[[], Coroutine[Any, Any, object]]
"""One `tools/call` of the called tool with the valid input, through a connected client."""


def ours_mcp_server(registry: ToolRegistry) -> Any:
    """The registry served by `adecore_tools.mcp` (the tools take no call object)."""
    from adecore_tools.mcp import mcp_server  # noqa: PLC0415 - needs the SDK, imported when used

    return mcp_server(registry, lambda _ctx: None, name=TOOLKIT)


def sdk_floor_server(registry: ToolRegistry) -> Any:
    """The least a server on the SDK can do per call: the same listing, a prebuilt answer.

    A low-level SDK `Server` whose `tools/call` handler returns the same text result, built
    once, without looking at the request: what is left of a round trip is the SDK's own.
    """
    from mcp import types  # noqa: PLC0415 - an optional peer, imported when used
    from mcp.server import Server  # noqa: PLC0415

    listed = types.ListToolsResult(
        tools=[types.Tool.model_validate(t) for t in ours_list(registry)]
    )
    answer = types.CallToolResult(content=[types.TextContent(text="ok")])

    async def on_list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return listed

    async def on_call_tool(_ctx: Any, _params: Any) -> types.CallToolResult:
        return answer

    return Server(TOOLKIT, on_list_tools=on_list_tools, on_call_tool=on_call_tool)


async def fastmcp_lowlevel(server: Any, stack: AsyncExitStack) -> Any:
    """fastmcp's own low-level server (an SDK `Server`), its lifespan entered on `stack`.

    The SDK's `Client` connects to an SDK `Server` in process; fastmcp builds one of its own
    for every FastMCP server, which its own in-memory client also runs.
    """
    await stack.enter_async_context(server._lifespan_manager())  # noqa: SLF001 - see above
    return server._mcp_server  # noqa: SLF001


async def round_trip(target: Any, mode: str, stack: AsyncExitStack) -> RoundTrip:
    """Connect the MCP SDK's `Client` to `target` in process; its call of the called tool.

    `mode="legacy"` is the `initialize` handshake (2025-11-25) over the SDK's in-memory
    transport (memory streams, JSON-RPC messages); `"auto"` lands on 2026-07-28, where the SDK
    hands each request to the server directly. The first call, which also lists the tools for
    the client to check structured content with, must answer the tool's text.
    """
    from mcp import Client, types  # noqa: PLC0415 - an optional peer, imported when used

    client = await stack.enter_async_context(Client(target, mode=mode))

    async def call() -> object:
        return await client.call_tool(CALLED, VALID)

    first = await call()
    assert isinstance(first, types.CallToolResult), first
    assert first.is_error is False, first
    assert isinstance(first.content[0], types.TextContent), first
    assert first.content[0].text == "ok", first
    return call
