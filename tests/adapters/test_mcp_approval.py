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


def call(mode: str, name: str, answer: str | None) -> tuple[types.CallToolResult, list[str]]:
    """Call `name` with title "draft"; the client answers an elicitation with `answer`, if any."""
    asked: list[str] = []

    async def on_elicitation(_ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        assert answer is not None
        return types.ElicitResult(action=answer, content={} if answer == "accept" else None)  # type: ignore[arg-type]

    options: dict[str, Any] = {} if answer is None else {"elicitation_callback": on_elicitation}

    async def go() -> types.CallToolResult:
        server = mcp_server(registry, lambda _ctx: Careful(), name="notes")
        async with Client(server, mode=mode, **options) as client:
            return await client.call_tool(name, {"title": "draft"})

    return asyncio.run(go()), asked


def text_of(result: types.CallToolResult) -> str:
    [content] = result.content
    assert isinstance(content, types.TextContent)
    return content.text


def test_on_a_handshake_connection_the_user_is_asked_and_approves() -> None:
    result, asked = call("legacy", "note_delete", "accept")
    assert len(asked) == 1
    assert "note_delete" in asked[0]
    assert result.is_error is not True
    assert text_of(result) == "deleted draft"
    assert ran == ["draft"]


@pytest.mark.parametrize("answer", ["decline", "cancel"])
def test_a_decline_or_cancel_never_runs_the_tool(answer: str) -> None:
    result, asked = call("legacy", "note_delete", answer)
    assert len(asked) == 1
    assert result.is_error is True
    refusal = parse_refusal_body(text_of(result))
    assert refusal is not None
    assert refusal.code == "not-approved"
    assert "was not run" in refusal.message
    assert ran == []


def test_a_call_that_needs_no_approval_is_not_asked_about() -> None:
    result, asked = call("legacy", "note_read", "accept")
    assert asked == []
    assert text_of(result) == "read draft"


@pytest.mark.parametrize(("mode", "answer"), [("legacy", None), ("auto", "accept")])
def test_where_the_client_cannot_be_asked_the_model_reads_needs_approval(
    mode: str, answer: str | None
) -> None:
    result, asked = call(mode, "note_delete", answer)
    assert asked == []
    assert result.is_error is True
    refusal = parse_refusal_body(text_of(result))
    assert refusal is not None
    assert refusal.code == "needs-approval"
    assert ran == []
