"""adecore_tools.mcp over real transports, to clients that start or reach a real server.

`tests/mcp_served.py` is the server: over stdio (each client starts it as a subprocess) and over
streamable HTTP on 127.0.0.1 (one subprocess for the module). Its clients:

- the official MCP Python SDK's `Client`, over stdio and HTTP, on both protocol versions;
- fastmcp's `Client`, over stdio;
- the MCP Inspector's command-line mode (`tests/inspector`, pinned), over stdio and HTTP;
- the official TypeScript SDK (`tests/ts_client/calls.mjs`), over stdio.

The Node.js clients need Node.js and `npm ci` in their folder; without them their tests skip,
saying so.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from needs import PYTHONPATH, TESTS, missing, missing_node

pytest.importorskip("mcp", reason=missing("mcp"))

import mcp_served
from mcp import Client, StdioServerParameters, types
from mcp.client.stdio import stdio_client

from adecore_tools import ToolRefusal, parse_refusal_body
from adecore_tools.mcp import TOOL_FAILED

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

SERVED = TESTS / "mcp_served.py"
SERVER = StdioServerParameters(
    command=sys.executable,
    args=[str(SERVED)],
    env=PYTHONPATH,
)
LISTING = json.loads(json.dumps(mcp_served.registry.mcp_tools()))
TASK = {"title": "Write", "status": "open"}
REFUSAL = ToolRefusal("wrong-secret", "That is not the secret.", ["hint\tit is odd"])


def _dumped(tools: list[types.Tool]) -> list[dict[str, Any]]:
    return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]


def _text(content: list[Any]) -> str:
    [block] = content
    assert isinstance(block, types.TextContent)
    return block.text


def _served_http(tmp_path_factory: pytest.TempPathFactory, *options: str) -> Iterator[str]:
    log = tmp_path_factory.mktemp("mcp_http") / "stderr.log"
    with mcp_served.listening(SERVED, "--http", *options, log=log) as address:
        yield address
    # The server logged the tracebacks of the crashes it answered, and no other.
    logged = log.read_text()
    assert logged.count("Traceback") == logged.count(f"RuntimeError: {mcp_served.FAILURE}")


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The served registry over streamable HTTP on 127.0.0.1, for the whole module."""
    yield from _served_http(tmp_path_factory)


@pytest.fixture(scope="module")
def json_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The same, answering each request with JSON rather than an SSE stream."""
    yield from _served_http(tmp_path_factory, "--json")


# --- the official Python client -------------------------------------------------------------------


async def _official_session(target: Any, mode: str) -> dict[str, Any]:
    """List, then call a structured tool, a refusal and a crash; on the handshake, ask too."""
    logs: list[str] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        logs.append(params.level)

    async def on_sampling(_ctx: Any, _params: Any) -> types.CreateMessageResult:
        answer = types.TextContent(text="forty-two")
        return types.CreateMessageResult(role="assistant", content=answer, model="test")

    async def on_elicitation(_ctx: Any, _params: Any) -> types.ElicitResult:
        return types.ElicitResult(action="decline")

    seen: dict[str, Any] = {}
    progress: list[float] = []

    async def on_progress(value: float, _total: float | None, _message: str | None) -> None:
        progress.append(value)

    async with Client(
        target,
        mode=mode,
        logging_callback=on_log,
        sampling_callback=on_sampling,
        elicitation_callback=on_elicitation,
    ) as client:
        seen["version"] = client.protocol_version
        seen["tools"] = _dumped((await client.list_tools()).tools)
        task = await client.call_tool("task_get", {"title": "Write"})
        seen["task"] = task.structured_content, _text(task.content)
        seen["refusal"] = parse_refusal_body(_text((await client.call_tool("guarded", {})).content))
        seen["crash"] = _text((await client.call_tool("crash", {})).content)
        steps = await client.call_tool("steps", {"count": 2}, progress_callback=on_progress)
        seen["steps"] = _text(steps.content), progress
        if mode == "legacy":
            params = types.SetLevelRequestParams(level="info")
            await client.session.send_request(
                types.SetLevelRequest(params=params), types.EmptyResult
            )
            seen["chatty"] = _text((await client.call_tool("chatty", {})).content), logs
            asked = await client.call_tool("ask_model", {"prompt": "?"})
            named = await client.call_tool("ask_user", {"question": "?"})
            seen["asked"] = _text(asked.content), _text(named.content)
    return seen


def _check_official(seen: dict[str, Any], mode: str) -> None:
    assert seen["version"] == {"legacy": "2025-11-25", "auto": "2026-07-28"}[mode]
    assert seen["tools"] == LISTING
    assert seen["task"] == (TASK, json.dumps(TASK, separators=(",", ":")))
    assert seen["refusal"].code == "bad-arguments"
    assert seen["crash"] == TOOL_FAILED
    assert seen["steps"] == ("2 steps", [1, 2])
    if mode == "legacy":
        assert seen["chatty"] == ("level info; sent info error", ["info", "error"])
        assert seen["asked"] == ("the model said: forty-two", "decline: None")


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_the_official_client_over_stdio(mode, tmp_path):
    log = tmp_path / "stderr.log"
    with log.open("w") as errlog:
        _check_official(asyncio.run(_official_session(stdio_client(SERVER, errlog), mode)), mode)
    # The crash's traceback went to the server's log, and only there.
    assert mcp_served.FAILURE in log.read_text()


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_the_official_client_over_streamable_http(mode, url):
    _check_official(asyncio.run(_official_session(url, mode)), mode)


# --- a result no UTF-8 can carry ------------------------------------------------------------------

READABLE = "report-\ufffd.txt"
"""The undecodable file name as a client reads it: its lone surrogate replaced by U+FFFD."""


async def _undecodable(target: Any, mode: str) -> list[Any]:
    """Ask for the undecodable name as text and as a key of structured content, then echo.

    Within a minute: a client whose server died may wait for its answer for ever.
    """

    async def ask() -> list[Any]:
        async with Client(target, mode=mode) as client:
            name = await client.call_tool("file_name", {})
            sizes = await client.call_tool("file_sizes", {})
            echo = await client.call_tool("echo", {"text": "still serving"})
        return [_text(name.content), sizes.structured_content, _text(echo.content)]

    return await asyncio.wait_for(ask(), 60)


UNDECODABLE_SEEN = [READABLE, {READABLE: 5}, "still serving"]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_result_holding_a_lone_surrogate_reaches_a_client_over_stdio(mode, tmp_path):
    with (tmp_path / "stderr.log").open("w") as errlog:
        assert asyncio.run(_undecodable(stdio_client(SERVER, errlog), mode)) == UNDECODABLE_SEEN


@pytest.mark.parametrize("mode", ["legacy", "auto"])
@pytest.mark.parametrize("answers", ["sse", "json"])
def test_a_result_holding_a_lone_surrogate_reaches_a_client_over_http(mode, answers, request):
    address = request.getfixturevalue("url" if answers == "sse" else "json_url")
    assert asyncio.run(_undecodable(address, mode)) == UNDECODABLE_SEEN


def test_http_on_127_0_0_1_refuses_another_host_or_origin(url):
    port = url.split(":")[2].split("/")[0]
    assert mcp_served.post_initialize(url, {}) == 200
    assert mcp_served.post_initialize(url, {"Host": f"localhost:{port}"}) == 200
    assert mcp_served.post_initialize(url, {"Host": "evil.example.com"}) == 421
    assert mcp_served.post_initialize(url, {"Origin": "http://evil.example.com"}) == 403


# --- fastmcp's client -----------------------------------------------------------------------------


def test_fastmcp_client_over_stdio():
    pytest.importorskip("fastmcp", reason=missing("fastmcp"))
    from fastmcp import Client as FastClient  # noqa: PLC0415 - an optional peer
    from fastmcp.client.transports import StdioTransport  # noqa: PLC0415
    from fastmcp.exceptions import ToolError  # noqa: PLC0415

    logs: list[str] = []

    async def on_log(message: Any) -> None:
        logs.append(message.level)

    async def on_sampling(_messages: Any, _params: Any, _context: Any) -> str:
        return "forty-two"

    async def go() -> dict[str, Any]:
        transport = StdioTransport(sys.executable, [str(SERVED)], keep_alive=False)
        seen: dict[str, Any] = {}
        async with FastClient(
            transport, mode="legacy", log_handler=on_log, sampling_handler=on_sampling
        ) as client:
            seen["tools"] = _dumped(await client.list_tools())
            task = await client.call_tool("task_get", {"title": "Write"})
            seen["task"] = task.structured_content, task.data
            count = await client.call_tool("count_words", {"text": "one two"})
            seen["count"] = count.structured_content, count.data
            with pytest.raises(ToolError) as raised:
                await client.call_tool("guarded", {"secret": 1})
            seen["refusal"] = parse_refusal_body(str(raised.value))
            crash = await client.call_tool("crash", {}, raise_on_error=False)
            seen["crash"] = crash.is_error, _text(crash.content)
            seen["chatty"] = _text((await client.call_tool("chatty", {})).content)
            seen["asked"] = _text((await client.call_tool("ask_model", {"prompt": "?"})).content)
        return seen

    seen = asyncio.run(go())
    assert seen["tools"] == LISTING
    structured, data = seen["task"]
    assert structured == TASK
    assert (data.title, data.status) == ("Write", "open")  # parsed into a type from outputSchema
    structured, data = seen["count"]
    assert structured == {"result": 2}
    assert data.result == 2
    assert seen["refusal"] == REFUSAL
    assert seen["crash"] == (True, TOOL_FAILED)
    assert seen["chatty"] == "level None; sent debug info error"
    assert logs == ["debug", "info", "error"]
    assert seen["asked"] == "the model said: forty-two"


# --- the MCP Inspector's command-line mode --------------------------------------------------------


def _inspector(*arguments: str) -> Any:
    reason = missing_node("inspector", "@modelcontextprotocol/inspector")
    if reason is not None:
        pytest.skip(reason)
    npx = shutil.which("npx")
    assert npx is not None
    done = subprocess.run(  # noqa: S603 - the pinned inspector, our arguments
        [npx, "--no-install", "@modelcontextprotocol/inspector", "--cli", *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=TESTS / "inspector",
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


STDIO = (sys.executable, str(SERVED))


def test_the_inspector_lists_the_registry_listing_over_stdio():
    assert _inspector(*STDIO, "--method", "tools/list") == {"tools": LISTING}


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        (
            "task_get",
            ["title=Write"],
            {
                "content": [{"type": "text", "text": '{"title":"Write","status":"open"}'}],
                "structuredContent": TASK,
                "isError": False,
            },
        ),
        (
            "guarded",
            ["secret=1"],
            {
                "content": [{"type": "text", "text": "refused\twrong-secret\t"}],
                "isError": True,
            },
        ),
        ("crash", [], {"content": [{"type": "text", "text": TOOL_FAILED}], "isError": True}),
    ],
)
def test_the_inspector_calls_over_stdio(tool, arguments, expected):
    pairs = [option for argument in arguments for option in ("--tool-arg", argument)]
    got = _inspector(*STDIO, "--method", "tools/call", "--tool-name", tool, *pairs)
    if tool == "guarded":
        assert parse_refusal_body(got["content"][0]["text"]) == REFUSAL
        got["content"][0]["text"] = got["content"][0]["text"][: len("refused\twrong-secret\t")]
    assert got == expected


def test_the_inspector_calls_over_streamable_http(url):
    got = _inspector(
        url,
        "--transport",
        "http",
        "--method",
        "tools/call",
        "--tool-name",
        "echo",
        "--tool-arg",
        "text=over HTTP",
    )
    assert got == {"content": [{"type": "text", "text": "over HTTP"}], "isError": False}


# --- the official TypeScript client ---------------------------------------------------------------


def test_the_typescript_client_checks_structured_content_and_reads_every_block():
    reason = missing_node("ts_client", "@modelcontextprotocol/sdk")
    if reason is not None:
        pytest.skip(reason)
    node = shutil.which("node")
    assert node is not None
    calls = [
        {"name": "task_get", "arguments": {"title": "Write"}},
        {"name": "count_words", "arguments": {"text": "one two"}},
        {"name": "snapshot", "arguments": {}},
        {"name": "guarded", "arguments": {"secret": 1}},
    ]
    done = subprocess.run(  # noqa: S603 - our own script, our own arguments
        [node, str(TESTS / "ts_client" / "calls.mjs"), *STDIO, json.dumps(calls)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert output["server"] == {"name": "served", "version": "1.0"}
    assert output["tools"] == LISTING
    task, count, snapshot, refused = (entry["result"] for entry in output["results"])
    assert task["structuredContent"] == TASK
    assert count["structuredContent"] == {"result": 2}
    assert [block["type"] for block in snapshot["content"]] == [
        "text",
        "image",
        "audio",
        "resource",
        "resource",
    ]
    assert refused["isError"] is True
    assert parse_refusal_body(refused["content"][0]["text"]) == REFUSAL


def test_every_client_folder_pins_its_packages():
    for folder in ("ts_client", "inspector", "conformance"):
        manifest = json.loads((TESTS / folder / "package.json").read_text())
        versions = manifest["dependencies"].values()
        assert all(version[0].isdigit() for version in versions), manifest
        assert (TESTS / folder / "package-lock.json").is_file()
