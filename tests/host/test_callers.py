"""Callers: who sees and calls which tool (`scopes`, `ToolCall.may_use`, `visible_to`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from helpers import run
from hypothesis import given
from hypothesis import strategies as st

from adecore_tools import (
    ToolCall,
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    tool,
)


@tool("notes", read_only=True, scopes=("notes:read",))
async def note_read(title: str) -> str:
    """Read a note."""
    return f"read {title}"


@tool("notes", scopes=("notes:read", "notes:write"))
async def note_write(title: str, text: str) -> str:
    """Write a note."""
    return f"wrote {title}"


@tool("notes")
async def note_help() -> str:
    """Say how notes work."""
    return "help"


@tool("admin", scopes=["admin"])
async def note_wipe() -> str:
    """Wipe every note."""
    return "wiped"


registry = create_tool_registry(
    [
        define_toolkit("notes", [note_read, note_write, note_help]),
        define_toolkit("admin", [note_wipe]),
    ]
)


@dataclass
class Caller(ToolCall):
    """A dataclass call object declaring its scopes as a field."""

    user: str
    scopes: frozenset[str] = field(default_factory=frozenset)


def _names(listing: list[dict[str, object]]) -> list[object]:
    return [entry["name"] for entry in listing]


def _refusal(name: str, call: object, arguments: object = None) -> ToolRefusal:
    with pytest.raises(ToolRefusal) as info:
        run(registry.run(name, arguments, call))
    return info.value


# --- declaring ------------------------------------------------------------------------------------


def test_scopes_are_a_frozenset_empty_by_default():
    assert note_write.scopes == frozenset({"notes:read", "notes:write"})
    assert note_help.scopes == frozenset()
    assert isinstance(note_wipe.scopes, frozenset)


@pytest.mark.parametrize(
    "scopes",
    ["notes:read", ("",), ("notes read",), ("notes\t",), (3,), 5, (None,)],
    ids=["a bare string", "empty", "a space", "a tab", "a number", "no list", "None"],
)
def test_a_scope_is_a_non_empty_string_without_whitespace(scopes):
    async def guarded() -> str:
        """Guard."""
        return ""

    with pytest.raises(ValueError, match=r"tool 'guarded': .*scope"):
        tool("kit", scopes=scopes)(guarded)


# --- who holds what -------------------------------------------------------------------------------


def test_a_call_holds_no_scopes_by_default():
    assert ToolCall().scopes == frozenset()
    assert ToolCall().may_use(note_help)
    assert not ToolCall().may_use(note_read)


@dataclass
class Plain(ToolCall):
    """A dataclass whose field has no default: the base's class attribute must not stop it."""

    scopes: frozenset[str]


class ByAttribute(ToolCall):
    def __init__(self, scopes: frozenset[str]) -> None:
        self.scopes = scopes


class ByProperty(ToolCall):
    @property
    def scopes(self) -> frozenset[str]:
        return frozenset({"notes:read"})


@pytest.mark.parametrize(
    "call",
    [Plain(frozenset({"notes:read"})), ByAttribute(frozenset({"notes:read"})), ByProperty()],
    ids=["dataclass field", "attribute", "property"],
)
def test_a_host_call_class_sets_scopes_in_any_way(call):
    assert call.scopes == frozenset({"notes:read"})
    assert call.may_use(note_read)
    assert not call.may_use(note_write)
    assert _names(registry.visible_to(call).mcp_tools()) == ["note_read", "note_help"]


# --- one rule for listing and calling -------------------------------------------------------------


def test_visible_to_lists_only_what_the_caller_may_use_with_the_same_options():
    strict = create_tool_registry(registry.toolkits, repair=True, bounds_in_words=True, timeout=5)
    reader = strict.visible_to(Caller("ann", frozenset({"notes:read"})))
    assert [t.name for t in reader] == ["note_read", "note_help"]
    assert [kit.name for kit in reader.toolkits] == ["notes"]  # no empty toolkit
    assert (reader.repair, reader.bounds_in_words, reader.timeout) == (True, True, 5)
    for listing in (
        reader.mcp_tools(),
        reader.openai_tools(),
        reader.anthropic_tools(),
        reader.gemini_tools(),
    ):
        assert _names(listing) == ["note_read", "note_help"]
    assert all(row["tool"] in {"note_read", "note_help"} for row in reader.portability())


def test_none_sees_every_tool():
    assert registry.visible_to(None) is registry
    assert run(registry.run("note_wipe", None, None)) == "wiped"


def test_a_hidden_tool_is_refused_exactly_as_one_that_does_not_exist():
    reader = Caller("ann", frozenset({"notes:read"}))
    hidden = _refusal("note_write", reader, {"title": "t", "text": "x"})
    assert hidden.code == "unknown-tool"
    assert hidden.lines == ("tools\tnote_read\tnote_help",)
    missing = registry.visible_to(reader)
    with pytest.raises(ToolRefusal) as info:
        run(missing.run("note_write", {"title": "t", "text": "x"}, reader))
    assert (hidden.message, hidden.lines) == (info.value.message, info.value.lines)


def test_did_you_mean_never_names_a_hidden_tool_even_the_closest():
    reader = Caller("ann", frozenset({"notes:read"}))
    refusal = _refusal("note_wipes", reader)
    assert "note_wipe'" not in refusal.message
    admin = Caller("root", frozenset({"admin"}))
    assert "did you mean 'note_wipe'?" in _refusal("note_wipes", admin).message


def test_a_call_object_that_is_no_toolcall_holds_no_scopes():
    assert _refusal("note_read", object(), {"title": "t"}).code == "unknown-tool"
    assert run(registry.run("note_help", None, object())) == "help"
    assert [t.name for t in registry.visible_to(object())] == ["note_help"]


class Counting(ToolCall):
    """A rule of its own that counts how often it is asked."""

    def __init__(self, allowed: set[str]) -> None:
        self.allowed = allowed
        self.asked: list[str] = []

    def may_use(self, tool) -> bool:
        self.asked.append(tool.name)
        return tool.name in self.allowed


def test_may_use_runs_once_per_tool_per_listing_and_once_per_run():
    call = Counting({"note_help"})
    registry.visible_to(call)
    assert sorted(call.asked) == sorted(t.name for t in registry)
    call.asked.clear()
    assert run(registry.run("note_help", None, call)) == "help"
    assert call.asked == ["note_help"]
    call.asked.clear()
    _refusal("note_wipe", call)  # hidden: its own answer is reused for the tools row
    assert sorted(call.asked) == sorted(t.name for t in registry)


def test_an_overriding_rule_applies_even_where_no_tool_declares_scopes():
    kit = define_toolkit(
        "open", [tool("open", name="a")(note_help.fn), tool("open", name="b")(note_help.fn)]
    )
    open_registry = create_tool_registry([kit])
    call = Counting({"a"})
    assert [t.name for t in open_registry.visible_to(call)] == ["a"]
    refusal = _refusal_of(open_registry, "b", call)
    assert (refusal.code, refusal.lines) == ("unknown-tool", ("tools\ta",))


def _refusal_of(reg, name, call):
    with pytest.raises(ToolRefusal) as info:
        run(reg.run(name, None, call))
    return info.value


class Broken(ToolCall):
    def may_use(self, _tool) -> bool:
        raise KeyError("host bug")


def test_an_exception_from_may_use_passes_through():
    with pytest.raises(KeyError, match="host bug"):
        registry.visible_to(Broken())
    with pytest.raises(KeyError, match="host bug"):
        run(registry.run("note_help", None, Broken()))


def test_call_and_run_json_refuse_a_hidden_tool_too():
    reader = Caller("ann", frozenset({"notes:read"}))
    result = run(registry.call("note_write", '{"title": "t", "text": "x"}', reader))
    assert result.is_error
    assert result.refusal is not None
    assert result.refusal.code == "unknown-tool"
    with pytest.raises(ToolRefusal, match="there is no tool named"):
        run(registry.run_json("note_write", "{}", reader))


ALL_SCOPES = ("notes:read", "notes:write", "admin")


@given(
    held=st.frozensets(st.sampled_from(ALL_SCOPES)),
    name=st.sampled_from([*(t.name for t in registry), "note_wip", "nothing"]),
)
def test_listed_for_a_call_if_and_only_if_not_refused_unknown_tool(held, name):
    call = Caller("any", held)
    listed = name in _names(registry.visible_to(call).mcp_tools())
    try:
        run(registry.run(name, {"title": "t", "text": "x"}, call))
    except ToolRefusal as refusal:
        refused = refusal.code == "unknown-tool"
    else:
        refused = False
    assert listed == (not refused)
