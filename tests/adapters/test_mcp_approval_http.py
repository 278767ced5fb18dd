"""Approval through adecore_tools.mcp over streamable HTTP on 127.0.0.1, behind bearer tokens.

The SDK's own `Client` on both eras: elicitation during the call on the handshake era, and the
`InputRequiredResult` retry on 2026-07-28, whose state is bound to the caller (the token's
subject): another user's retry of it is refused.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from needs import TESTS, missing

pytest.importorskip("mcp", reason=missing("mcp"))

import mcp_served
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client

from adecore_tools import parse_refusal_body

pytestmark = [pytest.mark.peers, pytest.mark.slow]

ACCEPT = {"approval": types.ElicitResult(action="accept", content={})}


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("mcp_approval") / "stderr.log"
    with mcp_served.listening(TESTS / "approval_served.py", log=log) as address:
        yield address


def client(url: str, token: str, mode: str, http: httpx2.AsyncClient, answer: str) -> Client:
    async def on_elicitation(_ctx: Any, _params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action=answer, content={} if answer == "accept" else None)  # type: ignore[arg-type]

    http.headers["Authorization"] = f"Bearer {token}"
    return Client(
        streamable_http_client(url, http_client=http),
        mode=mode,
        elicitation_callback=on_elicitation,
    )


def text_of(result: types.CallToolResult) -> str:
    [content] = result.content
    assert isinstance(content, types.TextContent)
    return content.text


async def ran_since(url: str) -> list[str]:
    async with httpx2.AsyncClient() as http, client(url, "ann-token", "auto", http, "cancel") as c:
        ran: list[str] = json.loads(text_of(await c.call_tool("ran_since", {})))
    return ran


def call(url: str, mode: str, answer: str) -> tuple[types.CallToolResult, list[str]]:
    async def go() -> tuple[types.CallToolResult, list[str]]:
        async with httpx2.AsyncClient() as http, client(url, "ann-token", mode, http, answer) as c:
            result = await c.call_tool("note_delete", {"title": "draft"})
        return result, await ran_since(url)

    return asyncio.run(go())


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_an_approved_call_runs_once(url: str, mode: str) -> None:
    result, ran = call(url, mode, "accept")
    assert text_of(result) == "deleted draft"
    assert ran == ["draft"]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_declined_call_never_runs(url: str, mode: str) -> None:
    result, ran = call(url, mode, "decline")
    refusal = parse_refusal_body(text_of(result))
    assert refusal is not None
    assert refusal.code == "not-approved"
    assert ran == []


def test_a_state_retried_by_another_user_is_refused_and_never_runs(url: str) -> None:
    async def retry(token: str, state: str) -> types.CallToolResult:
        async with httpx2.AsyncClient() as http, client(url, token, "auto", http, "cancel") as c:
            return await c.call_tool(
                "note_delete", {"title": "draft"}, input_responses=ACCEPT, request_state=state
            )

    async def go() -> tuple[types.CallToolResult, list[str], types.CallToolResult, list[str]]:
        async with (
            httpx2.AsyncClient() as http,
            client(url, "ann-token", "auto", http, "cancel") as c,
        ):
            asked = await c.session.call_tool(
                "note_delete", {"title": "draft"}, allow_input_required=True
            )
        assert isinstance(asked, types.InputRequiredResult)
        assert asked.request_state is not None
        bobs = await retry("bob-token", asked.request_state)
        after_bob = await ran_since(url)
        anns = await retry("ann-token", asked.request_state)
        return bobs, after_bob, anns, await ran_since(url)

    bobs, after_bob, anns, after_ann = asyncio.run(go())
    refusal = parse_refusal_body(text_of(bobs))
    assert refusal is not None
    assert refusal.code == "not-approved"
    assert "call it again" in refusal.message
    assert after_bob == []
    assert text_of(anns) == "deleted draft"
    assert after_ann == ["draft"]
