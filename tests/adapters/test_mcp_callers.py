"""adecore_tools.mcp per caller: `tools/list` and `tools/call` follow `ToolCall.may_use`.

In process, with the official SDK's `Client`, on both protocol versions.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from needs import missing
from scoped_tools import Caller, note_read, note_write, registry

pytest.importorskip("mcp", reason=missing("mcp"))

from mcp import Client, types
from mcp.server import ServerRequestContext

from adecore_tools import (
    ToolCall,
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    parse_refusal_body,
    tool,
)
from adecore_tools.mcp import mcp_server

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

MODES = ("legacy", "auto")


def _server(scopes: frozenset[str], reg: Any = registry) -> Any:
    def make_call(_ctx: ServerRequestContext[Any, Any]) -> Caller:
        return Caller(scopes)

    return mcp_server(reg, make_call, name="notes")


async def _seen(server: Any, mode: str) -> tuple[types.ListToolsResult, str, str]:
    async with Client(server, mode=mode) as client:
        listed = await client.list_tools()
        read = await client.call_tool("note_read", {"title": "a"})
        write = await client.call_tool("note_write", {"title": "a"})
    [read_block], [write_block] = read.content, write.content
    assert isinstance(read_block, types.TextContent)
    assert isinstance(write_block, types.TextContent)
    return listed, read_block.text, write_block.text


@pytest.mark.parametrize("mode", MODES)
def test_a_reader_lists_and_calls_only_the_read_tool(mode):
    listed, read, write = asyncio.run(_seen(_server(frozenset({"notes:read"})), mode))
    assert [t.name for t in listed.tools] == ["note_read"]
    assert read == "read a"
    refusal = parse_refusal_body(write)
    assert refusal is not None
    assert refusal.code == "unknown-tool"
    assert refusal.lines == ("tools\tnote_read",)


@pytest.mark.parametrize("mode", MODES)
def test_a_writer_sees_what_it_holds_scopes_for(mode):
    scopes = frozenset({"notes:read", "notes:write"})
    listed, read, write = asyncio.run(_seen(_server(scopes), mode))
    assert [t.name for t in listed.tools] == ["note_read", "note_write"]
    assert (read, write) == ("read a", "wrote a")


def test_a_listing_that_varies_by_caller_is_private_to_caches_and_one_that_cannot_is_public():
    listed, _, _ = asyncio.run(_seen(_server(frozenset({"notes:read"})), "auto"))
    assert listed.cache_scope == "private"
    open_registry = create_tool_registry([define_toolkit("open", [tool("open")(note_read.fn)])])

    async def go() -> types.ListToolsResult:
        async with Client(_server(frozenset(), open_registry), mode="auto") as client:
            return await client.list_tools()

    assert asyncio.run(go()).cache_scope == "public"


class Rule(ToolCall):
    """A rule of its own, where no tool declares scopes: the listing can vary all the same."""

    def may_use(self, tool: Any) -> bool:
        return tool.name != "note_read"


def test_a_call_class_with_its_own_rule_lists_privately():
    open_registry = create_tool_registry(
        [define_toolkit("open", [tool("open")(note_read.fn), tool("open")(note_write.fn)])]
    )
    server = mcp_server(open_registry, lambda _ctx: Rule(), name="open")

    async def go() -> types.ListToolsResult:
        async with Client(server, mode="auto") as client:
            return await client.list_tools()

    listed = asyncio.run(go())
    assert [t.name for t in listed.tools] == ["note_write"]
    assert listed.cache_scope == "private"


@tool("notes")
async def note_help() -> str:
    """Say how notes work."""
    return "help"


@pytest.mark.parametrize("mode", MODES)
def test_a_caller_make_call_refuses_sees_only_the_tools_needing_no_scopes(mode):
    """Over its rate limit, say: it may list, and calling one it reads the refusal."""
    seen: list[str] = []
    kit = define_toolkit("notes", [note_read, note_write, note_help])

    async def make_call(ctx: ServerRequestContext[Any, Any]) -> Caller:
        seen.append("made")
        raise ToolRefusal("rate-limited", "Too many requests; wait a minute.")

    async def go() -> tuple[list[str], str]:
        server = mcp_server(create_tool_registry([kit]), make_call, name="n")
        async with Client(server, mode=mode) as client:
            listed = await client.list_tools()
            called = await client.call_tool("note_help", {})
        [block] = called.content
        assert isinstance(block, types.TextContent)
        return [t.name for t in listed.tools], block.text

    names, text = asyncio.run(go())
    assert seen == ["made", "made"]
    assert names == ["note_help"]
    refusal = parse_refusal_body(text)
    assert refusal is not None
    assert refusal.code == "rate-limited"
