"""examples/mcp_server.py, driven by a second, independent client: the official TypeScript SDK.

`tests/ts_client/client.mjs` starts the server over stdio with `@modelcontextprotocol/sdk`, lists
its tools and calls them, and prints what came back as JSON. It needs Node.js and the packages
of `tests/ts_client/package-lock.json`: `npm ci --prefix tests/ts_client`.
"""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from needs import missing, missing_node

from adecore_tools import ToolRefusal, parse_refusal_body

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

pytest.importorskip("mcp", reason=missing("mcp"))

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "tests" / "ts_client"
SERVER = ROOT / "examples" / "mcp_server.py"


@pytest.fixture(scope="module")
def output() -> dict[str, Any]:
    reason = missing_node("ts_client", "@modelcontextprotocol/sdk")
    if reason is not None:
        pytest.skip(reason)
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run(  # noqa: S603 - our own script, our own arguments
        [node, str(CLIENT / "client.mjs"), sys.executable, str(SERVER)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def registry_listing() -> list[dict[str, Any]]:
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(ROOT / "examples"))
        notes = importlib.import_module("notes")
    return json.loads(json.dumps(notes.registry.mcp_tools()))


def _text(result: dict[str, Any]) -> str:
    [content] = result["content"]
    assert content["type"] == "text"
    return content["text"]


def test_the_ts_client_meets_the_server(output):
    assert output["server"]["name"] == "adecore-notes"


def test_the_ts_client_lists_exactly_the_registry_listing(output, registry_listing):
    assert output["tools"] == registry_listing


def test_the_ts_client_calls_read_write_read(output):
    calls = output["calls"]
    assert calls["before"]["isError"] is False
    assert _text(calls["before"]) == "revision\t0\nnotes\tnone"
    assert calls["write"]["isError"] is False
    assert _text(calls["write"]) == "note\twritten\nrevision\t1"
    assert _text(calls["after"]) == "revision\t1\nnote\t0\tBuy milk"


def test_the_ts_client_reads_a_refusal_as_an_error_result(output):
    bad = output["calls"]["bad"]
    assert bad["isError"] is True
    assert parse_refusal_body(_text(bad)) == ToolRefusal(
        "bad-arguments",
        "note_write needs text; revision: expected at least 0, got -1; "
        "dryrun: unknown field (did you mean 'dry_run'?)",
        ["fields\ttext\trevision\tdry_run"],
    )
