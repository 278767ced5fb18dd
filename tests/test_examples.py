"""Every file in examples/ runs as documented: `python examples/<name>.py`, exit status 0."""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from needs import missing

from adecore_tools import ToolRefusal

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NEEDS = {
    "mcp_server.py": "mcp",
    "openai_agents.py": "agents",
    "pydantic_ai_toolset.py": "pydantic_ai",
}


@pytest.mark.parametrize("script", sorted(p.name for p in EXAMPLES.glob("*.py")))
def test_example_runs(script):
    needed = NEEDS.get(script)
    if needed is not None and importlib.util.find_spec(needed) is None:
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


def test_every_example_is_covered():
    assert set(NEEDS) <= {p.name for p in EXAMPLES.glob("*.py")}
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
