"""docs/callers.md's server: the SDK's token verifier over streamable HTTP on 127.0.0.1.

Without a token the SDK answers 401; a `notes:read` token lists and calls the read tool alone;
a `notes:write` token lists and calls both. With the official SDK's client, on both eras.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx2
import pytest
from needs import TESTS, missing

pytest.importorskip("mcp", reason=missing("mcp"))

import mcp_served
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client

from adecore_tools import parse_refusal_body

pytestmark = [pytest.mark.peers, pytest.mark.slow]


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("mcp_auth") / "stderr.log"
    with mcp_served.listening(TESTS / "auth_served.py", log=log) as address:
        yield address


def test_a_request_without_a_valid_token_is_refused_401(url):
    assert mcp_served.post_initialize(url, {}) == 401
    assert mcp_served.post_initialize(url, {"Authorization": "Bearer wrong"}) == 401


async def _session(url: str, token: str, mode: str) -> tuple[list[str], str, str]:
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        Client(streamable_http_client(url, http_client=http), mode=mode) as client,
    ):
        listed = [t.name for t in (await client.list_tools()).tools]
        read = await client.call_tool("notes_list", {})
        added = await client.call_tool("note_add", {"text": "hi"})
    texts = []
    for result in (read, added):
        block = result.content[0] if result.content else types.TextContent(text="")
        assert isinstance(block, types.TextContent)
        texts.append(block.text)
    return listed, texts[0], texts[1]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_reader_token_lists_and_calls_only_the_read_tool(url, mode):
    listed, _, added = asyncio.run(_session(url, "reader-token", mode))
    assert listed == ["notes_list"]
    refusal = parse_refusal_body(added)
    assert refusal is not None
    assert refusal.code == "unknown-tool"
    assert refusal.lines == ("tools\tnotes_list",)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_writer_token_lists_and_calls_both(url, mode):
    listed, _, added = asyncio.run(_session(url, "writer-token", mode))
    assert listed == ["notes_list", "note_add"]
    assert added == "added"
