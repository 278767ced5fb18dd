"""Approval: a call whose call object asks for it runs only once a person approved it."""

from __future__ import annotations

from typing import Any

import pytest
from approval_tools import Careful, note_delete, ran, registry
from helpers import run

from adecore_tools import ToolCall, ToolRefusal, create_tool_registry, define_toolkit


class Plain(ToolCall):
    pass


@pytest.fixture(autouse=True)
def _clear() -> None:
    ran.clear()


def test_by_default_no_call_needs_approval() -> None:
    assert ToolCall().needs_approval(note_delete, {"title": "a"}) is False
    assert run(registry.run("note_delete", {"title": "a"}, Plain())) == "deleted a"
    assert run(registry.run("note_delete", {"title": "b"})) == "deleted b"
    assert ran == ["a", "b"]


def test_a_call_that_needs_approval_is_not_run_and_refused() -> None:
    call = Careful()
    with pytest.raises(ToolRefusal) as caught:
        run(registry.run("note_delete", {"title": "a"}, call))
    assert caught.value.code == "needs-approval"
    assert "was not run" in caught.value.message
    assert "approve" in caught.value.message
    assert "note_delete" in caught.value.message
    assert ran == []
    assert call.asked == [("note_delete", {"title": "a"})]


def test_the_arguments_asked_about_are_the_checked_ones() -> None:
    call = Careful()
    with pytest.raises(ToolRefusal) as caught:
        run(registry.run("note_delete", {"title": 3}, call))
    assert caught.value.code == "bad-arguments"
    assert call.asked == []


def test_approved_runs_it_once() -> None:
    call = Careful()
    assert run(registry.run("note_delete", {"title": "a"}, call, approved=True)) == "deleted a"
    assert ran == ["a"]


def test_a_call_that_needs_no_approval_runs() -> None:
    call = Careful()
    assert run(registry.run("note_read", {"title": "a"}, call)) == "read a"
    assert call.asked == [("note_read", {"title": "a"})]


def test_run_json_and_call_take_approved_too() -> None:
    with pytest.raises(ToolRefusal, match="was not run"):
        run(registry.run_json("note_delete", '{"title": "a"}', Careful()))
    assert run(registry.run_json("note_delete", '{"title": "b"}', Careful(), approved=True))
    refused = run(registry.call("note_delete", {"title": "c"}, Careful()))
    assert refused.is_error
    assert refused.refusal is not None
    assert refused.refusal.code == "needs-approval"
    done = run(registry.call("note_delete", '{"title": "d"}', Careful(), approved=True))
    assert done.text == "deleted d"
    assert ran == ["b", "d"]


@pytest.mark.parametrize("options", [{"repair": True}, {"trace": True}])
def test_every_way_of_running_asks(options: dict[str, bool]) -> None:
    if options.get("trace"):
        pytest.importorskip("opentelemetry")
    other = create_tool_registry([define_toolkit("notes", [note_delete])], **options)
    with pytest.raises(ToolRefusal, match="was not run"):
        run(other.run("note_delete", {"title": "a"}, Careful()))
    assert run(other.run("note_delete", {"title": "b"}, Careful(), approved=True))
    assert ran == ["b"]


def test_approved_is_true_or_false() -> None:
    with pytest.raises(TypeError, match="approved"):
        run(registry.run("note_delete", {"title": "a"}, Careful(), approved="yes"))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    assert ran == []


def test_a_scoped_call_still_asks() -> None:
    class Scoped(Careful):
        scopes = frozenset({"x"})

    with pytest.raises(ToolRefusal, match="was not run"):
        run(registry.run("note_delete", {"title": "a"}, Scoped()))
    assert ran == []


def test_what_needs_approval_raises_passes_through() -> None:
    class Broken(ToolCall):
        def needs_approval(self, tool: Any, arguments: dict[str, Any]) -> bool:
            raise KeyError(tool.name, arguments)

    with pytest.raises(KeyError):
        run(registry.run("note_delete", {"title": "a"}, Broken()))
    assert ran == []
