"""benchmarks/load_clients.py reads HTTP/1.1 answers by hand: every way a body may come, and the
JSON-RPC answer out of a JSON or an SSE body. No server here: the bytes are as uvicorn sends them.
"""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import load_clients  # benchmarks/ is not a package

SSE = b'event: message\r\ndata: {"jsonrpc":"2.0","id":7,"result":{"content":[]}}\r\n\r\n'


def read(raw: bytes) -> load_clients._Response:
    async def go() -> load_clients._Response:
        reader = asyncio.StreamReader()
        reader.feed_data(raw)
        reader.feed_eof()
        return await load_clients._read(reader)

    return asyncio.run(go())


def test_a_chunked_sse_body_in_pieces_with_trailers():
    head = (
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
        b"Transfer-Encoding: chunked\r\nmcp-session-id: abc\r\n\r\n"
    )
    pieces = b"".join(b"%x;ext=1\r\n%s\r\n" % (len(p), p) for p in (SSE[:9], SSE[9:]))
    response = read(head + pieces + b"0\r\nx-trailer: 1\r\n\r\n")
    assert (response.status, response.body) == (200, SSE)
    assert response.headers["mcp-session-id"] == "abc"
    assert load_clients._answer(response, 7) == {"content": []}


def test_a_content_length_body_leaves_the_next_answer_unread():
    body = b'{"jsonrpc":"2.0","id":8,"result":{"ok":true}}'
    first = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n"

    async def go() -> list[load_clients._Response]:
        reader = asyncio.StreamReader()
        reader.feed_data((first % len(body)) + body + b"HTTP/1.1 202 Accepted\r\n")
        reader.feed_data(b"content-length: 0\r\n\r\n")
        return [await load_clients._read(reader), await load_clients._read(reader)]

    answered, accepted = asyncio.run(go())
    assert load_clients._answer(answered, 8) == {"ok": True}
    assert (accepted.status, accepted.body) == (202, b"")


def test_a_body_without_length_runs_to_the_close_and_a_204_has_none():
    assert read(b"HTTP/1.1 200 OK\r\n\r\nall of it").body == b"all of it"
    assert read(b"HTTP/1.1 204 No Content\r\n\r\n").body == b""


@pytest.mark.parametrize(
    ("status", "body", "said"),
    [
        (b"404 Not Found", b"gone", "HTTP 404: gone"),
        (b"200 OK", b"{}", "no response to request 7"),
        (b"200 OK", b'{"jsonrpc":"2.0","id":7,"error":{"code":1}}', "JSON-RPC error {'code': 1}"),
    ],
)
def test_a_wrong_answer_is_an_error_that_says_what_came(status, body, said):
    raw = b"HTTP/1.1 %s\r\ncontent-length: %d\r\n\r\n%s" % (status, len(body), body)
    with pytest.raises(RuntimeError, match=f"^{re.escape(said)}$"):
        load_clients._answer(read(raw), 7)


def test_an_answer_cut_short_is_an_error():
    with pytest.raises(asyncio.IncompleteReadError):
        read(b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nshort")
    assert issubclass(asyncio.IncompleteReadError, load_clients.ERRORS)


def test_a_connection_the_server_closed_while_idle_is_opened_again():
    answer = b'{"jsonrpc":"2.0","id":1,"result":{}}'

    async def once(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        await reader.readexactly(length)
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: %d\r\n\r\n%s" % (len(answer), answer))
        writer.close()  # one answer a connection, as a keep-alive timeout ends one

    async def go() -> list[int]:
        server = await asyncio.start_server(once, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        http = load_clients._Connection(f"http://127.0.0.1:{port}/mcp", fresh=False)
        statuses = []
        for _ in range(2):
            statuses.append((await http.post({"id": 1}, "")).status)
            await asyncio.sleep(0.05)  # idle: the close arrives
        http.close()
        server.close()
        return statuses

    assert asyncio.run(go()) == [200, 200]
