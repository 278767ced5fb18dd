"""examples/mcp_server.py, driven end to end by the official MCP Python SDK's own client.

One server subprocess serves the whole module (started over stdio, driven by `ClientSession`);
the tests share its document, so each reads the revision it starts from instead of assuming one.
Two more tests run the same server in-process through the SDK's `Client`, where the test can
change what the caller may do or break the document.
"""

from __future__ import annotations

import asyncio
import copy
import importlib
import json
import logging
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any, TextIO

import pytest
from needs import PYTHONPATH, missing

pytest.importorskip("mcp", reason=missing("mcp"))

import mcp_served
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import Client, ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

from adecore_tools import ToolRefusal, parse_refusal_body
from adecore_tools.mcp import TOOL_FAILED

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SERVER = EXAMPLES / "mcp_server.py"


@asynccontextmanager
async def _session(errlog: TextIO) -> AsyncIterator[tuple[ClientSession, types.InitializeResult]]:
    params = StdioServerParameters(
        command=sys.executable, args=[str(SERVER)], env={"NOTES_MAY_WRITE": "1", **PYTHONPATH}
    )
    async with (
        stdio_client(params, errlog=errlog) as (read_stream, write_stream),
        ClientSession(read_stream, write_stream) as session,
    ):
        yield session, await session.initialize()


@dataclass
class Connection:
    portal: BlockingPortal
    session: ClientSession
    initialized: types.InitializeResult

    def list_tools(self) -> types.ListToolsResult:
        return self.portal.call(self.session.list_tools)

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> types.CallToolResult:
        return self.portal.call(self.session.call_tool, name, arguments)

    def text(self, name: str, arguments: dict[str, Any] | None = None) -> str:
        """The one text content of a call that must succeed."""
        result = self.call(name, arguments)
        assert result.is_error is False, result
        [content] = result.content
        assert isinstance(content, types.TextContent)
        return content.text

    def refusal(self, name: str, arguments: dict[str, Any] | None = None) -> ToolRefusal:
        """The refusal a call must come back with."""
        result = self.call(name, arguments)
        assert result.is_error is True, result
        [content] = result.content
        assert isinstance(content, types.TextContent)
        refusal = parse_refusal_body(content.text)
        assert refusal is not None, content.text
        return refusal

    def revision(self) -> int:
        first = self.text("note_read", {"limit": 1}).split("\n")[0]
        label, value = first.split("\t")
        assert label == "revision"
        return int(value)


@pytest.fixture(scope="module")
def examples() -> Iterator[SimpleNamespace]:
    """`examples/notes.py` and `examples/mcp_server.py`, imported as the server imports them."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(EXAMPLES))
        notes: ModuleType = importlib.import_module("notes")
        mcp_server: ModuleType = importlib.import_module("mcp_server")
        yield SimpleNamespace(notes=notes, mcp_server=mcp_server)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Connection]:
    log = tmp_path_factory.mktemp("mcp_server") / "stderr.log"
    with (
        log.open("w") as errlog,
        start_blocking_portal() as portal,
        portal.wrap_async_context_manager(_session(errlog)) as (session, initialized),
    ):
        yield Connection(portal, session, initialized)
    # The server logs on stderr only, and nothing here should have made it log an error.
    assert "ERROR" not in log.read_text()


def test_initialize_names_the_server_and_offers_tools(server):
    assert server.initialized.server_info.name == "adecore-notes"
    assert server.initialized.capabilities.tools is not None


def test_listing_is_the_registry_listing(server, examples):
    registry = examples.notes.registry
    listed = [
        tool.model_dump(mode="json", by_alias=True, exclude_none=True)
        for tool in server.list_tools().tools
    ]
    assert listed == json.loads(json.dumps(registry.mcp_tools()))


def test_registry_entries_are_valid_sdk_tools(examples):
    for entry in examples.notes.registry.mcp_tools():
        plain = copy.deepcopy(entry)
        tool = types.Tool.model_validate(plain)
        # Every key was understood: the SDK's model gives back exactly what it was given.
        assert tool.model_dump(mode="json", by_alias=True, exclude_none=True) == plain


def test_the_listing_says_what_a_client_must_not_assume(server):
    """MCP reads a missing hint as its default, and `openWorldHint` defaults to true: a client
    would warn that the notes tools reach outside entities, when they touch one in-memory document.
    """
    hints = {
        tool.name: tool.annotations.model_dump(by_alias=True, exclude_none=True)
        for tool in server.list_tools().tools
        if tool.annotations is not None
    }
    assert hints == {
        "note_read": {
            "title": "Read notes",
            "readOnlyHint": True,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": False,
        },
        "note_write": {
            "title": "Write a note",
            "readOnlyHint": False,
            "destructiveHint": False,
            "openWorldHint": False,
        },
        "note_delete": {
            "title": "Delete a note",
            "readOnlyHint": False,
            "destructiveHint": True,
            "openWorldHint": False,
        },
    }


def test_a_good_call_comes_back_as_one_text_of_the_tool_lines(server):
    revision = server.revision()
    result = server.call("note_write", {"text": "Buy milk", "revision": revision})
    assert result.is_error is False
    assert result.content == [types.TextContent(text=f"note\twritten\nrevision\t{revision + 1}")]
    assert server.text("note_read", {"limit": 100}).split("\n")[0] == f"revision\t{revision + 1}"


def test_bad_arguments_come_back_as_one_refusal_with_the_fields_line(server):
    refusal = server.refusal("note_write", {"text": "", "revision": -1, "dryrun": True})
    assert refusal == ToolRefusal(
        "bad-arguments",
        "note_write needs text; revision: expected at least 0, got -1; "
        "dryrun: unknown field (did you mean 'dry_run'?)",
        ["fields\ttext\trevision\tdry_run"],
    )


def test_arguments_left_out_altogether_are_no_fields(server):
    refusal = server.refusal("note_delete")
    assert refusal == ToolRefusal(
        "bad-arguments",
        "index: missing, expected an integer",
        ["fields\tindex\trevision\tdry_run"],
    )


def test_an_unknown_tool_is_refused_with_the_tools_line(server):
    refusal = server.refusal("note_wirte", {"text": "x"})
    assert refusal.code == "unknown-tool"
    assert "did you mean 'note_write'?" in refusal.message
    assert refusal.lines == ("tools\tnote_read\tnote_write\tnote_delete",)


def test_a_stale_revision_is_the_tool_own_refusal(server):
    revision = server.revision()
    refusal = server.refusal("note_write", {"text": "late", "revision": revision + 5})
    assert refusal == ToolRefusal(
        "stale-revision",
        f"The document is at revision {revision}; read it again before writing.",
        [f"revision\t{revision}"],
    )
    assert server.revision() == revision


def test_deleting_a_note_that_is_not_there_is_refused(server):
    refusal = server.refusal("note_delete", {"index": 10_000})
    assert refusal.code == "no-such-note"
    assert refusal.message.startswith("There is no note 10000;")
    assert refusal.lines[0].startswith("notes\t")


def test_a_dry_run_checks_and_writes_nothing(server):
    revision = server.revision()
    assert server.text("note_write", {"text": "Buy bread", "dry_run": True}) == "preview\tvalidated"
    assert server.revision() == revision


def test_a_dry_run_with_bad_arguments_is_still_refused(server):
    refusal = server.refusal("note_write", {"text": "x" * 2001, "dry_run": True})
    assert refusal.code == "bad-arguments"
    assert refusal.message == "text: expected at most 2000 characters, got 2001"


def test_stdout_carries_only_json_rpc_messages():
    """A raw client: every line the server writes on stdout is a JSON-RPC message."""
    lines = [
        mcp_served.INITIALIZE,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "note_write", "arguments": {"text": " "}},
        },
    ]
    process = subprocess.Popen(  # noqa: S603 - our interpreter, our script
        [sys.executable, str(SERVER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watchdog = threading.Timer(60, process.kill)
    watchdog.start()
    try:
        assert process.stdin is not None
        assert process.stdout is not None
        answers = []
        for message in lines:
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
            if "id" in message:
                answers.append(json.loads(process.stdout.readline()))
        process.stdin.close()
        rest = process.stdout.read()
        process.wait()
    finally:
        watchdog.cancel()
        process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()
    assert process.returncode == 0
    assert rest == ""
    assert [answer["id"] for answer in answers] == [1, 2]
    assert all(answer["jsonrpc"] == "2.0" and "result" in answer for answer in answers)
    assert answers[0]["result"]["serverInfo"]["name"] == "adecore-notes"
    assert answers[1]["result"] == {
        "content": [
            {
                "type": "text",
                "text": (
                    "refused\tbad-arguments\tnote_write needs text\nfields\ttext\trevision\tdry_run"
                ),
            }
        ],
        "isError": True,
    }


# In-process: the same `create_server`, reached through the SDK's `Client` (its in-memory
# transport), where a test can change the caller or the document.


def _run_in_process(server: Any, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
    async def go() -> types.CallToolResult:
        async with Client(server) as client:
            return await client.call_tool(name, arguments)

    return asyncio.run(go())


def test_a_caller_without_write_permission_is_refused(examples, monkeypatch):
    monkeypatch.delenv("NOTES_MAY_WRITE", raising=False)
    server = examples.mcp_server.create_server(examples.notes.Document())
    result = _run_in_process(server, "note_write", {"text": "Buy milk"})
    assert result.is_error is True
    [content] = result.content
    assert isinstance(content, types.TextContent)
    assert parse_refusal_body(content.text) == ToolRefusal(
        "not-permitted", "This caller may read this document but not change it."
    )


def test_any_other_exception_is_logged_and_answered_with_a_generic_text(examples, caplog):
    class BrokenDocument(examples.notes.Document):
        def read(self) -> tuple[int, list[str]]:
            msg = "disk on fire at /srv/secret/notes.db"
            raise RuntimeError(msg)

    server = examples.mcp_server.create_server(BrokenDocument())
    with caplog.at_level(logging.ERROR, logger="adecore_tools"):
        result = _run_in_process(server, "note_read", {})
    assert result.is_error is True
    assert result.content == [types.TextContent(text=TOOL_FAILED)]
    assert "secret" not in TOOL_FAILED
    [record] = [r for r in caplog.records if r.name == "adecore_tools"]
    assert record.levelno == logging.ERROR
    assert record.exc_info is not None
    assert "note_read" in record.getMessage()


def test_the_module_level_server_is_the_one_the_script_serves(examples):
    """The SDK's `mcp run` looks for a module-level `server`; it is there, and it is ours."""
    server = examples.mcp_server.server
    assert server.name == "adecore-notes"
    assert server.get_request_handler("tools/call") is not None
    assert server.get_request_handler("logging/setLevel") is not None
