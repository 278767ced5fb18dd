"""Every file in examples/ runs as documented: `python examples/<name>.py`, exit status 0.

The provider examples talk to a model: here, to a `ProviderServer` on 127.0.0.1 standing in for
one, which their environment variables point them at.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from needs import missing
from provider_server import (
    ProviderServer,
    anthropic_call,
    anthropic_text,
    gemini_call,
    gemini_text,
    openai_call,
    openai_text,
    unsteered,
)

from adecore_tools import ToolRefusal

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
_OTEL_310 = "ignore:SelectableGroups dict interface is deprecated:DeprecationWarning"
NEEDS = {
    "mcp_server.py": "mcp",
    "openai_agents.py": "agents",
    "pydantic_ai_toolset.py": "pydantic_ai",
    "langchain_agent.py": "langchain",
    "google_adk_agent.py": "google.adk",
}


@dataclass(frozen=True)
class Served:
    """A provider example, and the model the recording server plays for it."""

    package: str
    env: Callable[[str], dict[str, str]]  # the variables it reads, from the server's URL
    replies: tuple[object, object]  # a call of note_write, then "Written."
    listing: str  # the registry's listing for this provider
    tools: Callable[[Any], Any]  # where a request lists the tools
    result: Callable[[Any], Any]  # where the second request holds the tool's result


WRITE = {"text": "Buy milk"}
SERVED = {
    "openai_responses.py": Served(
        "openai",
        lambda url: {"OPENAI_BASE_URL": f"{url}/v1", "OPENAI_API_KEY": "sk-test"},
        (
            openai_call("note_write", '{"text": "Buy milk", "revision": null, "dry_run": null}'),
            openai_text("Written."),
        ),
        "openai_tools",
        lambda body: body["tools"],
        lambda body: body["input"][0]["output"],
    ),
    "anthropic_messages.py": Served(
        "anthropic",
        lambda url: {"ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "sk-ant-test"},
        (anthropic_call("note_write", WRITE), anthropic_text("Written.")),
        "anthropic_tools",
        lambda body: body["tools"],
        lambda body: body["messages"][2]["content"][0]["content"],
    ),
    "gemini_generate.py": Served(
        "google.genai",
        lambda url: {"GEMINI_BASE_URL": url, "GEMINI_API_KEY": "test-key"},
        (gemini_call("note_write", WRITE), gemini_text("Written.")),
        "gemini_tools",
        lambda body: body["tools"][0]["functionDeclarations"],
        lambda body: body["contents"][2]["parts"][0]["functionResponse"]["response"]["output"],
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize(
    "script", sorted(p.name for p in EXAMPLES.glob("*.py") if p.name not in SERVED)
)
def test_example_runs(script):
    needed = NEEDS.get(script)
    # `google.adk`: its parent first, as find_spec of a submodule imports the parent
    if needed is not None and any(
        importlib.util.find_spec(name) is None for name in (needed.partition(".")[0], needed)
    ):
        pytest.skip(f"{script} {missing(needed)}")
    done = subprocess.run(  # noqa: S603 - our own example, run with this interpreter
        [sys.executable, str(EXAMPLES / script)],
        stdin=subprocess.DEVNULL,  # the MCP server reads stdio: closed input ends it
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    if script != "mcp_server.py":
        assert done.stdout.strip()


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(SERVED))
def test_a_provider_example_runs_one_turn_against_the_recording_server(script, monkeypatch):
    served = SERVED[script]
    # `google.genai`: its parent first, as find_spec of a submodule imports the parent
    top = served.package.partition(".")[0]
    if importlib.util.find_spec(top) is None or importlib.util.find_spec(served.package) is None:
        pytest.skip(f"{script} {missing(served.package)}")
    monkeypatch.syspath_prepend(str(EXAMPLES))
    listing = getattr(importlib.import_module("notes").registry, served.listing)()
    with ProviderServer(*served.replies) as server:
        done = subprocess.run(  # noqa: S603 - our own example, run with this interpreter
            # An SDK's warning fails the run, as it fails a test under the suite's filter, with
            # the filter's one exception (pyproject.toml: opentelemetry on Python 3.10)
            [sys.executable, "-W", "error", "-W", _OTEL_310, str(EXAMPLES / script)],
            env={**unsteered(os.environ), **served.env(server.url)},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    call, *rest = done.stdout.splitlines()
    assert call.startswith("> note_write {")
    assert rest == ["note\twritten", "revision\t1", "Written."]
    first, second = server.requests
    assert served.tools(first.body) == served.tools(second.body) == listing
    assert served.result(second.body) == "note\twritten\nrevision\t1"


def test_every_example_is_covered():
    assert set(NEEDS) | set(SERVED) <= {p.name for p in EXAMPLES.glob("*.py")}
    assert "notes.py" in {p.name for p in EXAMPLES.glob("*.py")}


def test_the_notes_example_answers_each_kind_of_call():
    done = subprocess.run(  # noqa: S603
        [sys.executable, str(EXAMPLES / "notes.py")], capture_output=True, text=True, check=True
    )
    out = done.stdout
    assert '"name": "note_write"' in out
    assert "note\twritten" in out
    assert "preview\tvalidated" in out
    assert "refused\tstale-revision" in out
    assert "refused\tnot-permitted" in out
    assert "refused\tbad-arguments\tnote_write needs text" in out


def test_a_note_another_caller_deletes_meanwhile_is_refused_not_a_crash(monkeypatch):
    """notes.py: another thread may delete between note_delete's read and its delete; left
    without a revision, that was an `IndexError` (a bug to the host), not the model's refusal.
    """
    monkeypatch.syspath_prepend(str(EXAMPLES))
    notes = importlib.import_module("notes")

    class Busy(notes.Document):
        def read(self) -> tuple[int, list[str]]:
            seen = super().read()
            if seen[1]:
                self.delete(len(seen[1]) - 1)  # another caller, right after this read
            return seen

    doc = Busy()
    doc.write("a")
    doc.write("b")
    call = notes.NoteCall(doc, may_write=True)
    with pytest.raises(ToolRefusal) as info:
        asyncio.run(notes.registry.run("note_delete", {"index": 1}, call))
    assert info.value == ToolRefusal(
        "no-such-note", "There is no note 1; the document has 1.", ["notes\t1"]
    )
