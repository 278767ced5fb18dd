"""adecore_tools.mcp bounding a call: cancellation and a tool's own `CancelledError`.

In process, with the official SDK's `Client`, on both protocol versions.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys

import pytest
from needs import missing

pytest.importorskip("mcp", reason=missing("mcp"))

from mcp import Client, types

from adecore_tools import create_tool_registry, define_toolkit, tool
from adecore_tools.mcp import TOOL_FAILED, mcp_server

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

MODES = ("legacy", "auto")
events: dict[str, asyncio.Event] = {}


@tool("slow")
async def slow() -> str:
    """Take ten seconds."""
    events["started"].set()
    try:
        await asyncio.sleep(10)
    finally:
        events["ended"].set()
    return "late"


@tool("slow")
async def self_cancelled() -> str:
    """Raise CancelledError while nothing cancelled the call."""
    raise asyncio.CancelledError


@tool("slow")
async def echo(text: str) -> str:
    """Say the text back."""
    return text


server = mcp_server(
    create_tool_registry([define_toolkit("slow", [slow, self_cancelled, echo])]),
    lambda _ctx: None,
    name="slow",
)


def _text(result: types.CallToolResult) -> str:
    [block] = result.content
    assert isinstance(block, types.TextContent)
    return block.text


@pytest.mark.parametrize("mode", MODES)
def test_cancelling_a_slow_call_ends_the_tool_and_the_server_goes_on(mode):
    async def go() -> str:
        events.update(started=asyncio.Event(), ended=asyncio.Event())
        async with Client(server, mode=mode) as client:
            call = asyncio.ensure_future(client.call_tool("slow", {}))
            await asyncio.wait_for(events["started"].wait(), 5)
            call.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await call
            await asyncio.wait_for(events["ended"].wait(), 5)  # the tool's coroutine ended
            return _text(await client.call_tool("echo", {"text": "still here"}))

    assert asyncio.run(go()) == "still here"


@pytest.mark.skipif(sys.version_info < (3, 11), reason="a task says it is cancelled from 3.11")
@pytest.mark.parametrize("mode", MODES)
def test_a_tool_own_cancelled_error_is_a_failed_call_and_the_session_lives_on(mode, caplog):
    async def go() -> tuple[types.CallToolResult, str]:
        async with Client(server, mode=mode) as client:
            failed = await client.call_tool("self_cancelled", {})
            return failed, _text(await client.call_tool("echo", {"text": "next"}))

    failed, after = asyncio.run(go())
    assert failed.is_error
    assert _text(failed) == TOOL_FAILED
    assert after == "next"
    assert "raised CancelledError while nothing cancelled its call" in caplog.text


def test_the_legacy_session_is_the_one_the_sdk_would_end():
    """The same session carries on: checked above on the handshake (2025-11-25) era."""

    async def go() -> str:
        async with Client(server, mode="legacy") as client:
            return client.protocol_version or ""

    assert asyncio.run(go()) == "2025-11-25"
