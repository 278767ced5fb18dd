"""adecore_tools.mcp's callers, time limits and cancellation over real transports.

The official SDK's `Client`, on both protocol versions, reaches `tests/transport_server.py` over
stdio (a subprocess per session) and over streamable HTTP on 127.0.0.1 (a subprocess per caller
kind, for the module): the same checks as the in-process tests, across a process boundary.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from needs import PYTHONPATH, TESTS, missing

pytest.importorskip("mcp", reason=missing("mcp"))

import mcp_served
from mcp import Client, StdioServerParameters, types
from mcp.client.stdio import stdio_client

from adecore_tools import parse_refusal_body, refusal_body
from adecore_tools.mcp import TOOL_FAILED

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

SERVED = TESTS / "transport_server.py"
SCOPES = {"reader": ("notes:read",), "writer": ("notes:read", "notes:write")}
MODES = ("legacy", "auto")
TRANSPORTS = (pytest.param("stdio", marks=pytest.mark.slow), "http")
T = TypeVar("T")
UNCANCELLED = "raised CancelledError while nothing cancelled its call"


@pytest.fixture(scope="module")
def http_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the HTTP servers write their stderr, a file per caller kind."""
    return tmp_path_factory.mktemp("transports")


@pytest.fixture(scope="module")
def urls(http_logs: Path) -> Iterator[dict[str, str]]:
    """One server per caller kind over streamable HTTP on 127.0.0.1, for the whole module."""
    with contextlib.ExitStack() as stack:
        yield {
            kind: stack.enter_context(
                mcp_served.listening(SERVED, "--http", "--scopes", *scopes, log=http_logs / kind)
            )
            for kind, scopes in SCOPES.items()
        }


@pytest.fixture
def reach(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[str], Any]]:
    """A `Client` target for a caller kind over the test's transport (`transport` parameter)."""
    if request.node.callspec.params["transport"] == "http":
        urls = request.getfixturevalue("urls")
        yield lambda kind: urls[kind]
        return
    with (tmp_path / "stderr.log").open("w") as errlog:

        def target(kind: str) -> Any:
            args = [str(SERVED), "--scopes", *SCOPES[kind]]
            server = StdioServerParameters(command=sys.executable, args=args, env=PYTHONPATH)
            return stdio_client(server, errlog)

        yield target


@pytest.fixture
def reader_log(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """The stderr of the reader's server the test reaches."""
    if request.node.callspec.params["transport"] == "http":
        return Path(request.getfixturevalue("http_logs")) / "reader"
    return tmp_path / "stderr.log"


def _within(seconds: float, work: Awaitable[T]) -> T:
    """Run `work` to its end, failing past `seconds`: a dead server must not hang the suite."""

    async def bounded() -> T:
        return await asyncio.wait_for(work, seconds)

    return asyncio.run(bounded())


def _text(result: types.CallToolResult) -> str:
    [block] = result.content
    assert isinstance(block, types.TextContent)
    return block.text


async def _until(client: Client, state: str) -> None:
    """Ask `slow_state` until it says `state`: a hundred times at most, 0.05 s apart."""
    for _ in range(100):
        if _text(await client.call_tool("slow_state", {})) == state:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"slow never said {state!r}")


async def _then_echo(target: Any, mode: str, name: str) -> tuple[types.CallToolResult, str]:
    """Call tool `name`, then `echo` on the same session: the result, and what echo said."""
    async with Client(target, mode=mode) as client:
        result = await client.call_tool(name, {})
        return result, _text(await client.call_tool("echo", {"text": "next"}))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_reader_lists_and_calls_only_what_its_scopes_allow(transport, mode, reach):
    async def go() -> tuple[list[str], str, str]:
        async with Client(reach("reader"), mode=mode) as client:
            listed = await client.list_tools()
            read = await client.call_tool("note_read", {"title": "a"})
            write = await client.call_tool("note_write", {"title": "a"})
        assert write.is_error
        return (
            [t.name for t in listed.tools if t.name.startswith("note")],
            _text(read),
            _text(write),
        )

    names, read, write = _within(60, go())
    assert names == ["note_read"]
    assert read == "read a"
    refusal = parse_refusal_body(write)
    assert refusal is not None
    assert refusal.code == "unknown-tool"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_writer_lists_and_calls_both_note_tools(transport, mode, reach):
    async def go() -> tuple[list[str], str]:
        async with Client(reach("writer"), mode=mode) as client:
            listed = await client.list_tools()
            write = await client.call_tool("note_write", {"title": "a"})
        return [t.name for t in listed.tools if t.name.startswith("note")], _text(write)

    assert _within(60, go()) == (["note_read", "note_write"], "wrote a")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("transport", TRANSPORTS)
def test_cancelling_a_slow_call_ends_the_tool_and_the_server_goes_on(transport, mode, reach):
    async def go() -> str:
        async with Client(reach("reader"), mode=mode) as client:
            call = asyncio.ensure_future(client.call_tool("slow", {}))
            await _until(client, "started")
            call.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await call
            await _until(client, "cancelled")  # the tool's coroutine unwound, cancelled
            return _text(await client.call_tool("echo", {"text": "still here"}))

    assert _within(60, go()) == "still here"


@pytest.mark.skipif(sys.version_info < (3, 11), reason="a task says it is cancelled from 3.11")
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_tool_own_cancelled_error_is_a_failed_call_and_the_session_lives_on(
    transport, mode, reach, reader_log
):
    logged = reader_log.read_text().count(UNCANCELLED)
    failed, after = _within(60, _then_echo(reach("reader"), mode, "self_cancelled"))
    assert failed.is_error
    assert _text(failed) == TOOL_FAILED
    assert after == "next"
    assert reader_log.read_text().count(UNCANCELLED) == logged + 1  # this call's, logged


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_tool_past_its_time_limit_is_refused_timed_out(transport, mode, reach):
    late, after = _within(60, _then_echo(reach("reader"), mode, "overdue"))
    assert late.is_error
    refusal = parse_refusal_body(_text(late))
    assert refusal is not None
    assert refusal.code == "timed-out"
    assert "0.2 seconds" in refusal.message
    assert _text(late) == refusal_body(refusal)
    assert after == "next"
