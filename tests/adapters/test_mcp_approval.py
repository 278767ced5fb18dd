"""Approval through adecore_tools.mcp: the person is asked through the client, where it can ask.

Driven in-process by the MCP SDK's own `Client`, on the handshake era (2025-11-25) and on
2026-07-28.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from needs import missing

pytest.importorskip("mcp", reason=missing("mcp"))

from approval_tools import Careful, ran, registry
from mcp import Client, types

from adecore_tools import parse_refusal_body
from adecore_tools.mcp import mcp_server

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer


@pytest.fixture(autouse=True)
def _clear() -> None:
    ran.clear()


KEY = b"k" * 32
"""The host's approval key: 32 bytes, as every process of a deployment would share it."""

ERAS = pytest.mark.parametrize(
    ("mode", "key"),
    [("legacy", None), ("legacy", KEY), ("auto", KEY)],
    ids=["handshake", "handshake-keyed", "2026-07-28"],
)
"""Where the client can be asked: elicitation on the handshake era, the retry on 2026-07-28."""


def call(
    mode: str, name: str, answer: str | None, key: bytes | None = None
) -> tuple[types.CallToolResult, list[str]]:
    """Call `name` with title "draft"; the client answers an elicitation with `answer`, if any."""
    asked: list[str] = []

    async def on_elicitation(_ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        assert answer is not None
        return types.ElicitResult(action=answer, content={} if answer == "accept" else None)  # type: ignore[arg-type]

    options: dict[str, Any] = {} if answer is None else {"elicitation_callback": on_elicitation}

    async def go() -> types.CallToolResult:
        server = mcp_server(registry, lambda _ctx: Careful(), name="notes", approval_key=key)
        async with Client(server, mode=mode, **options) as client:
            assert (client.protocol_version == "2026-07-28") == (mode == "auto")
            return await client.call_tool(name, {"title": "draft"})

    return asyncio.run(go()), asked


def text_of(result: types.CallToolResult) -> str:
    [content] = result.content
    assert isinstance(content, types.TextContent)
    return content.text


def refusal_of(result: types.CallToolResult) -> Any:
    assert result.is_error is True
    refusal = parse_refusal_body(text_of(result))
    assert refusal is not None
    return refusal


@ERAS
def test_the_user_is_asked_and_approves_and_the_tool_runs_once(mode: str, key: bytes) -> None:
    result, asked = call(mode, "note_delete", "accept", key)
    assert len(asked) == 1
    assert "note_delete" in asked[0]
    assert result.is_error is not True
    assert text_of(result) == "deleted draft"
    assert ran == ["draft"]


@ERAS
@pytest.mark.parametrize("answer", ["decline", "cancel"])
def test_a_decline_or_cancel_never_runs_the_tool(mode: str, key: bytes, answer: str) -> None:
    result, asked = call(mode, "note_delete", answer, key)
    assert len(asked) == 1
    refusal = refusal_of(result)
    assert refusal.code == "not-approved"
    assert "was not run" in refusal.message
    assert answer in refusal.message
    assert ran == []


@ERAS
def test_a_call_that_needs_no_approval_is_not_asked_about(mode: str, key: bytes) -> None:
    result, asked = call(mode, "note_read", "accept", key)
    assert asked == []
    assert text_of(result) == "read draft"


@pytest.mark.parametrize(
    ("mode", "answer", "key"),
    [("legacy", None, None), ("auto", "accept", None), ("auto", None, KEY)],
    ids=["no-elicitation", "2026-07-28-without-a-key", "2026-07-28-no-elicitation"],
)
def test_where_the_client_cannot_be_asked_the_model_reads_needs_approval(
    mode: str, answer: str | None, key: bytes | None
) -> None:
    result, asked = call(mode, "note_delete", answer, key)
    assert asked == []
    assert refusal_of(result).code == "needs-approval"
    assert ran == []


# --- 2026-07-28: the retry and its state -------------------------------------------------------


class Everything(Careful):
    """Asks before every tool, so that a state can be replayed for another tool that asks."""

    def needs_approval(self, tool: Any, arguments: dict[str, Any]) -> bool:  # noqa: ARG002 - any
        return True


def modern_server() -> Any:
    return mcp_server(registry, lambda _ctx: Everything(), name="notes", approval_key=KEY)


ACCEPT = {"approval": types.ElicitResult(action="accept", content={})}


def retried(
    name: str, arguments: dict[str, Any], alter: Any, responses: Any = None
) -> types.CallToolResult:
    """Ask for note_delete("draft"), then call `name` with the state `alter` makes of it."""

    async def go() -> types.CallToolResult:
        async with Client(modern_server(), mode="auto", elicitation_callback=ask_nobody) as client:
            first = await client.session.call_tool(
                "note_delete", {"title": "draft"}, allow_input_required=True
            )
            assert isinstance(first, types.InputRequiredResult)
            assert first.request_state is not None
            assert first.input_requests is not None
            [request] = first.input_requests.values()
            assert isinstance(request, types.ElicitRequest)
            return await client.call_tool(
                name,
                arguments,
                input_responses=ACCEPT if responses is None else responses,
                request_state=alter(first.request_state),
            )

    return asyncio.run(go())


async def ask_nobody(_ctx: Any, _params: types.ElicitRequestParams) -> types.ElicitResult:
    """A client that was asked again (the state was refused) answers no."""
    return types.ElicitResult(action="decline")


def same(state: str) -> str:
    return state


def test_the_state_retried_with_an_accept_runs_the_call_it_was_issued_for() -> None:
    result = retried("note_delete", {"title": "draft"}, same)
    assert text_of(result) == "deleted draft"
    assert ran == ["draft"]


def flip_last(state: str) -> str:
    return state[:-1] + ("A" if state[-1] != "A" else "B")


def later_issued(state: str) -> str:
    issued, _, signature = state.rpartition(".")
    head, _, when = issued.rpartition(".")
    return f"{head}.{int(when) + 1}.{signature}"


@pytest.mark.parametrize(
    ("name", "arguments", "alter"),
    [
        ("note_delete", {"title": "draft"}, flip_last),
        ("note_delete", {"title": "draft"}, later_issued),
        ("note_delete", {"title": "draft"}, lambda s: s + "x"),
        ("note_delete", {"title": "draft"}, lambda _s: "garbage"),
        ("note_delete", {"title": "draft"}, lambda _s: "é.😀.\udcff"),
        ("note_delete", {"title": "other"}, same),
        ("note_read", {"title": "draft"}, same),
    ],
    ids=["signature", "issue-time", "appended", "garbage", "not-ascii", "arguments", "tool"],
)
def test_an_altered_or_replayed_state_is_refused_and_never_runs(
    name: str, arguments: dict[str, Any], alter: Any
) -> None:
    refusal = refusal_of(retried(name, arguments, alter))
    assert refusal.code == "not-approved"
    assert "was not run" in refusal.message
    assert "call it again" in refusal.message
    assert ran == []


def test_an_expired_state_is_refused_and_a_fresh_one_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import adecore_tools.mcp as served  # noqa: PLC0415 - the module whose clock is set

    now = 1_000_000.0
    monkeypatch.setattr(served, "_now", lambda: now)

    def ten_minutes_on(state: str) -> str:
        nonlocal now
        now += 600
        return state

    refusal = refusal_of(retried("note_delete", {"title": "draft"}, ten_minutes_on))
    assert "10 min" in refusal.message
    assert ran == []

    def nearly_ten_minutes_on(state: str) -> str:
        nonlocal now
        now += 599
        return state

    assert text_of(retried("note_delete", {"title": "draft"}, nearly_ten_minutes_on)) == (
        "deleted draft"
    )
    assert ran == ["draft"]


@pytest.mark.parametrize(
    "responses",
    [{}, {"approval": types.ElicitResult(action="decline")}, {"other": ACCEPT["approval"]}],
    ids=["none", "decline", "other-key"],
)
def test_a_valid_state_without_an_accept_never_runs(responses: Any) -> None:
    refusal = refusal_of(retried("note_delete", {"title": "draft"}, same, responses))
    assert refusal.code == "not-approved"
    assert ran == []


def test_an_accept_without_a_state_is_asked_about_not_run() -> None:
    async def go() -> types.CallToolResult | types.InputRequiredResult:
        async with Client(modern_server(), mode="auto", elicitation_callback=ask_nobody) as client:
            return await client.session.call_tool(
                "note_delete",
                {"title": "draft"},
                input_responses=ACCEPT,
                allow_input_required=True,
            )

    assert isinstance(asyncio.run(go()), types.InputRequiredResult)
    assert ran == []


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"approval_key": "k" * 32}, TypeError),
        ({"approval_key": bytearray(32)}, TypeError),
        ({"approval_key": b"short"}, ValueError),
        ({"approval_key": KEY, "approval_ttl": 0}, ValueError),
        ({"approval_key": KEY, "approval_ttl": float("inf")}, ValueError),
        ({"approval_key": KEY, "approval_ttl": "600"}, TypeError),
    ],
    ids=["str", "bytearray", "short", "ttl-zero", "ttl-inf", "ttl-str"],
)
def test_a_wrong_key_or_time_limit_fails_loudly(options: dict[str, Any], error: type) -> None:
    with pytest.raises(error, match="approval_"):
        mcp_server(registry, lambda _ctx: Careful(), name="notes", **options)
