"""Toolkits and the registry, and running a tool (not the refusal messages)."""

import asyncio
import copy
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any, Literal

import pytest
from annotated_types import Ge
from helpers import run
from typing_extensions import Doc

from adecore_tools import (
    ToolCall,
    Toolkit,
    ToolRefusal,
    ToolRegistry,
    create_tool_registry,
    define_toolkit,
    tool,
    tool_input_schema,
)


class NoteCall(ToolCall):
    def __init__(self, who: str = "host") -> None:
        self.who = who


class OtherCall(ToolCall):
    pass


# --- a small host ---------------------------------------------------------------------------------


@tool("note", read_only=True, idempotent=True, title="Read notes")
async def note_read(
    call: NoteCall, limit: Annotated[int, Ge(1), Doc("How many.")] = 10
) -> list[str]:
    """Read the latest notes."""
    return [f"{call.who}\t{limit}"]


@tool("note", destructive=True, open_world=False)
async def note_write(
    call: NoteCall,
    text: Annotated[str, Doc("The note text.")],
    mode: Literal["append", "replace"] = "append",
) -> list[str]:
    """Write a note."""
    return [f"{call.who}\t{text}\t{mode}"]


@tool("chat")
async def chat_open(title: str | None = None) -> str:
    """Open another chat."""
    return f"opened {title}"


@tool("task")
async def task_hand_over(call: NoteCall, task: str) -> str:
    """Hand a task over."""
    return f"{call.who} handed {task}"


NOTE = define_toolkit("note", [note_read, note_write])
CHAT = define_toolkit("chat", [chat_open])
TASK = define_toolkit("task", [task_hand_over])


def registry():
    return create_tool_registry([NOTE, CHAT, TASK])


# --- create_tool_registry -------------------------------------------------------------------------


def test_two_toolkits_with_the_same_name_is_a_value_error():
    @tool("note", name="note_other")
    async def other() -> None:
        """Other."""

    with pytest.raises(ValueError, match="note"):
        create_tool_registry([NOTE, define_toolkit("note", [other])])


def test_the_same_toolkit_twice_is_a_value_error():
    with pytest.raises(ValueError, match="merge them or rename one") as info:
        create_tool_registry([CHAT, CHAT])
    assert str(info.value) == "two toolkits are named 'chat'; merge them or rename one"


def test_the_same_tool_name_across_toolkits_is_a_value_error():
    @tool("chat", name="shared_name")
    async def one() -> None:
        """One."""

    @tool("task", name="shared_name")
    async def two() -> None:
        """Two."""

    with pytest.raises(ValueError, match="shared_name"):
        create_tool_registry([define_toolkit("chat", [one]), define_toolkit("task", [two])])


def test_registry_accepts_any_iterable_of_toolkits():
    reg = create_tool_registry(iter([NOTE, CHAT]))
    assert isinstance(reg, ToolRegistry)
    assert [kit.name for kit in reg.toolkits] == ["note", "chat"]


def test_empty_registry():
    reg = create_tool_registry([])
    assert len(reg) == 0
    assert tuple(reg.tools) == ()
    assert reg.mcp_tools() == []


# --- lookups --------------------------------------------------------------------------------------


def test_tools_in_toolkit_then_tool_order():
    assert tuple(registry().tools) == (note_read, note_write, chat_open, task_hand_over)
    reordered = create_tool_registry([TASK, CHAT, NOTE])
    assert tuple(reordered.tools) == (task_hand_over, chat_open, note_read, note_write)


def test_toolkits():
    kits = registry().toolkits
    assert [kit.name for kit in kits] == ["note", "chat", "task"]
    assert all(isinstance(kit, Toolkit) for kit in kits)
    assert tuple(kits[0].tools) == (note_read, note_write)
    assert tuple(kits[1].tools) == (chat_open,)


def test_get():
    reg = registry()
    assert reg.get("note_write") is note_write
    assert reg.get("chat_open") is chat_open
    assert reg.get("note_wirte") is None
    assert reg.get("") is None


def test_contains_by_tool_name():
    reg = registry()
    assert "note_read" in reg
    assert "task_hand_over" in reg
    assert "note" not in reg  # a toolkit, not a tool
    assert "nope" not in reg


@pytest.mark.parametrize("name", [["note_read"], None, 3, ("note_read",)])
def test_get_and_in_answer_none_and_false_for_anything_but_a_string(name):
    reg = registry()
    assert reg.get(name) is None
    assert name not in reg


def test_a_tool_is_in_a_registry_that_holds_it_as_iterating_says():
    """`in` agrees with iterating (a registry iterates its tools); a namesake tool is another."""
    reg = create_tool_registry([CHAT, TASK])
    assert chat_open in reg
    assert chat_open in list(reg)
    assert note_read not in reg

    @tool("chat", name="chat_open")
    async def namesake() -> str:
        """Opens another chat."""
        return ""

    assert namesake not in reg
    assert "chat_open" in reg


def test_select_names_toolkits_one_by_one():
    with pytest.raises(TypeError, match="select"):
        registry().select(["note"])  # type: ignore[arg-type]


def test_len_counts_tools():
    assert len(registry()) == 4
    assert len(create_tool_registry([CHAT])) == 1


def test_iterating_a_registry_gives_its_tools_in_order():
    reg = create_tool_registry([TASK, NOTE])
    assert list(reg) == list(reg.tools) == [task_hand_over, note_read, note_write]


def test_a_registry_shows_its_toolkit_names_in_order():
    assert repr(registry()) == "ToolRegistry(['note', 'chat', 'task'])"


# --- select ---------------------------------------------------------------------------------------


def test_select_a_subset():
    sub = registry().select("task", "note")
    assert isinstance(sub, ToolRegistry)
    assert [kit.name for kit in sub.toolkits] == ["note", "task"]  # the registry's order
    assert tuple(sub.tools) == (note_read, note_write, task_hand_over)
    assert len(sub) == 3
    assert "chat_open" not in sub
    assert sub.get("chat_open") is None
    assert [entry["name"] for entry in sub.mcp_tools()] == [
        "note_read",
        "note_write",
        "task_hand_over",
    ]


def test_select_keeps_the_registry_order_and_the_very_toolkits_tools_and_entries():
    """Whatever order the names come in, or how often; no names is a registry of no tools."""
    reg = registry()
    sub = reg.select("task", "note", "task")
    assert [id(kit) for kit in sub.toolkits] == [id(reg.toolkits[0]), id(reg.toolkits[2])]
    assert all(sub.get(t.name) is t for t in sub.tools)
    entries = {entry["name"]: entry for entry in reg.mcp_tools()}
    assert all(entry == entries[entry["name"]] for entry in sub.mcp_tools())
    empty = reg.select()
    assert (empty.toolkits, empty.tools, empty.mcp_tools(), len(empty)) == ((), (), [], 0)


def test_select_does_not_change_the_registry():
    reg = registry()
    reg.select("chat")
    assert len(reg) == 4
    assert [kit.name for kit in reg.toolkits] == ["note", "chat", "task"]


def test_selected_registry_refuses_a_tool_left_out():
    sub = registry().select("chat")
    assert run(sub.run("chat_open", {"title": "x"})) == "opened x"
    with pytest.raises(ToolRefusal) as info:
        run(sub.run("note_read", {}, NoteCall()))
    assert info.value.code == "unknown-tool"
    assert tuple(info.value.lines) == ("tools\tchat_open",)


@pytest.mark.parametrize("names", [("nope",), ("note", "nope"), ("Note",), ("note_read",)])
def test_select_an_unknown_toolkit_is_a_value_error(names):
    with pytest.raises(ValueError, match="no toolkit named"):
        registry().select(*names)


@pytest.mark.parametrize(
    ("name", "hint"),
    [("notes", "did you mean 'note'?"), ("zzzz", "there are ['chat', 'note', 'task']")],
)
def test_an_unknown_toolkit_gets_the_closest_name_or_the_list(name, hint):
    with pytest.raises(ValueError, match="no toolkit named") as info:
        registry().select(name)
    assert str(info.value) == f"no toolkit named {name!r}; {hint}"


def test_an_unknown_toolkit_is_told_the_first_of_the_closest_in_the_registry_order():
    """Names equally close: the registry's own order decides, not a set's, which varies by run."""
    kits = [define_toolkit(name, []) for name in ("notes", "noted", "notep", "noter", "notea")]
    for order in (kits, kits[::-1]):
        with pytest.raises(ValueError, match="no toolkit named") as info:
            create_tool_registry(order).select("notez")
        assert str(info.value) == f"no toolkit named 'notez'; did you mean {order[0].name!r}?"


def test_a_registry_of_something_that_is_no_toolkit_says_what_to_make():
    with pytest.raises(TypeError, match="is not a toolkit") as info:
        create_tool_registry(["notes"])
    assert str(info.value) == "'notes' is not a toolkit; make one with define_toolkit(name, tools)"


# --- immutability ---------------------------------------------------------------------------------


@pytest.mark.parametrize("attribute", ["tools", "toolkits", "extra", "get", "run"])
def test_registry_refuses_attribute_changes(attribute):
    reg = registry()
    with pytest.raises(AttributeError):
        setattr(reg, attribute, ())
    assert len(reg) == 4
    assert tuple(reg.tools) == (note_read, note_write, chat_open, task_hand_over)


@pytest.mark.parametrize("attribute", ["tools", "toolkits"])
def test_registry_refuses_attribute_deletion(attribute):
    reg = registry()
    with pytest.raises(AttributeError):
        delattr(reg, attribute)
    assert len(getattr(reg, attribute)) in (3, 4)


def test_registry_tools_and_toolkits_cannot_be_changed_in_place():
    reg = registry()
    with pytest.raises((TypeError, AttributeError)):
        reg.tools.append(chat_open)
    with pytest.raises((TypeError, AttributeError)):
        reg.toolkits.append(CHAT)
    assert len(reg.tools) == 4


# --- mcp_tools ------------------------------------------------------------------------------------

EXPECTED_ENTRIES = [
    {
        "name": "note_read",
        "title": "Read notes",
        "description": "Read the latest notes.",
        "inputSchema": {
            "type": "object",
            "properties": {"limit": {"type": "integer", "description": "How many."}},
        },
        "annotations": {
            "readOnlyHint": True,
            "destructiveHint": False,
            "idempotentHint": True,
            "title": "Read notes",
        },
    },
    {
        "name": "note_write",
        "description": "Write a note.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "The note text."},
                "mode": {"type": "string", "enum": ["append", "replace"]},
            },
            "required": ["text"],
        },
        "annotations": {
            "readOnlyHint": False,
            "destructiveHint": True,
            "openWorldHint": False,
        },
    },
    {
        "name": "chat_open",
        "description": "Open another chat.",
        "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}},
        "annotations": {"readOnlyHint": False, "destructiveHint": False},
    },
    {
        "name": "task_hand_over",
        "description": "Hand a task over.",
        "inputSchema": {
            "type": "object",
            "properties": {"task": {"type": "string"}},
            "required": ["task"],
        },
        "annotations": {"readOnlyHint": False, "destructiveHint": False},
    },
]


def test_mcp_tools_entries():
    entries = registry().mcp_tools()
    assert entries == EXPECTED_ENTRIES
    assert json.dumps(entries) == json.dumps(EXPECTED_ENTRIES)  # key order too


def test_mcp_tools_all_annotations_set():
    @tool(
        "kit",
        read_only=True,
        idempotent=False,
        open_world=True,
        title="Look it up",
    )
    async def look_up() -> None:
        """Look something up."""

    (entry,) = create_tool_registry([define_toolkit("kit", [look_up])]).mcp_tools()
    assert entry["annotations"] == {
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": False,
        "openWorldHint": True,
        "title": "Look it up",
    }
    assert list(entry["annotations"]) == [
        "readOnlyHint",
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
        "title",
    ]


def test_mcp_input_schema_is_the_tool_input_schema():
    for entry, t in zip(registry().mcp_tools(), registry().tools, strict=True):
        assert entry["inputSchema"] == tool_input_schema(t)


def test_mcp_tools_is_json_serialisable_and_stable():
    reg = registry()
    first = json.dumps(reg.mcp_tools())
    assert json.dumps(reg.mcp_tools()) == first
    assert json.dumps(registry().mcp_tools()) == first
    assert json.loads(first) == reg.mcp_tools()


def test_mcp_entries_are_the_callers_own_copies():
    reg = registry()
    before = json.dumps(reg.mcp_tools())
    entry = reg.mcp_tools()[1]
    entry["name"] = "other"
    entry["annotations"]["readOnlyHint"] = True
    entry["annotations"].pop("destructiveHint")
    entry["inputSchema"]["properties"]["text"]["type"] = "integer"
    entry["inputSchema"]["required"].append("mode")
    assert json.dumps(reg.mcp_tools()) == before
    assert json.dumps(tool_input_schema(note_write)) == json.dumps(
        EXPECTED_ENTRIES[1]["inputSchema"]
    )


def test_mcp_tools_list_itself_belongs_to_the_caller():
    reg = registry()
    mine = reg.mcp_tools()
    mine.clear()
    assert len(reg.mcp_tools()) == 4


def test_mcp_entries_deepcopy_to_plain_dicts():
    entry = copy.deepcopy(registry().mcp_tools()[0])
    entry["annotations"]["readOnlyHint"] = False
    entry["inputSchema"]["properties"]["limit"]["minimum"] = 1
    assert type(entry) is dict
    assert registry().mcp_tools()[0] == EXPECTED_ENTRIES[0]


# --- run: unknown tools ---------------------------------------------------------------------------


def test_unknown_tool_is_refused_with_the_tools_line_and_a_suggestion():
    with pytest.raises(ToolRefusal) as info:
        run(registry().run("note_wirte", {"text": "x"}, NoteCall()))
    refusal = info.value
    assert refusal.code == "unknown-tool"
    assert "note_wirte" in refusal.message
    assert "did you mean 'note_write'?" in refusal.message
    assert tuple(refusal.lines) == ("tools\tnote_read\tnote_write\tchat_open\ttask_hand_over",)


def test_unknown_tool_far_from_every_name_has_no_suggestion():
    with pytest.raises(ToolRefusal) as info:
        run(registry().run("zzzzzz"))
    assert info.value.code == "unknown-tool"
    assert "did you mean" not in info.value.message
    assert tuple(info.value.lines) == ("tools\tnote_read\tnote_write\tchat_open\ttask_hand_over",)


@pytest.mark.parametrize("name", [None, 5, "", ["note_read"], b"note_read", "note\tread\nx"])
def test_odd_tool_names_are_refused_as_unknown(name):
    with pytest.raises(ToolRefusal) as info:
        run(registry().run(name, {}, NoteCall()))
    assert info.value.code == "unknown-tool"
    assert tuple(info.value.lines) == ("tools\tnote_read\tnote_write\tchat_open\ttask_hand_over",)
    assert "\n" not in info.value.message
    assert "\t" not in info.value.message


def test_unknown_tool_in_an_empty_registry():
    with pytest.raises(ToolRefusal) as info:
        run(create_tool_registry([]).run("note_read"))
    assert info.value.code == "unknown-tool"
    assert tuple(info.value.lines) == ("tools",)


# --- run: the call object -------------------------------------------------------------------------


def test_call_of_the_wrong_class_is_a_type_error():
    with pytest.raises(TypeError, match="NoteCall"):
        run(registry().run("note_write", {"text": "x"}, OtherCall()))


@pytest.mark.parametrize("call", [None, object(), "call", NoteCall])
def test_missing_or_odd_call_is_a_type_error(call):
    with pytest.raises(TypeError):
        run(registry().run("note_write", {"text": "x"}, call))


def test_a_missing_call_is_a_type_error_even_when_the_input_is_bad_too():
    """The host's mistake is not hidden behind a refusal the model would only retry."""
    with pytest.raises(TypeError, match="NoteCall"):
        run(registry().run("note_write", {"text": 5, "unknown": 1}))


def test_missing_call_argument_is_a_type_error():
    with pytest.raises(TypeError):
        run(registry().run("note_write", {"text": "x"}))


def test_a_call_given_to_a_tool_without_a_call_parameter_is_ignored():
    reg = registry()
    assert run(reg.run("chat_open", {"title": "t"}, NoteCall())) == "opened t"
    assert run(reg.run("chat_open", {"title": "t"}, "anything")) == "opened t"
    assert run(reg.run("chat_open", {"title": "t"})) == "opened t"


def test_the_call_reaches_the_tool():
    reg = registry()
    assert run(reg.run("note_write", {"text": "hi"}, NoteCall("ann"))) == ["ann\thi\tappend"]
    assert run(reg.run("task_hand_over", {"task": "t1"}, NoteCall("bo"))) == "bo handed t1"


# --- run: results and exceptions ------------------------------------------------------------------


def _single(fn, toolkit="kit"):
    return create_tool_registry([define_toolkit(toolkit, [tool(toolkit)(fn)])])


def test_run_returns_exactly_what_the_tool_returns():
    sentinel = object()

    async def give_back() -> Any:
        """Give back."""
        return sentinel

    assert run(_single(give_back).run("give_back")) is sentinel


def test_run_returns_none_when_the_tool_does():
    async def nothing() -> None:
        """Nothing."""

    assert run(_single(nothing).run("nothing", {})) is None


@pytest.mark.parametrize(
    "error",
    [
        RuntimeError("boom"),
        KeyError("k"),
        ValueError("bad"),
        TypeError("host bug"),
        ToolRefusal("not-permitted", "No."),
        ToolRefusal("bad-arguments", "made by the tool", ["fields\tx"]),
    ],
)
def test_an_exception_from_the_tool_passes_through_unchanged(error):
    async def fails(call: NoteCall, x: int = 0) -> None:
        """Fail."""
        raise error

    with pytest.raises(type(error)) as info:
        run(_single(fails).run("fails", {"x": 1}, NoteCall()))
    assert info.value is error


@pytest.mark.skipif(sys.version_info < (3, 11), reason="a task says it is cancelled from 3.11")
def test_a_cancellation_the_tool_raises_by_itself_is_its_failure():
    error = asyncio.CancelledError()

    async def cancelled() -> None:
        """Cancel."""
        raise error

    with pytest.raises(RuntimeError, match="tool 'cancelled' raised CancelledError") as info:
        run(_single(cancelled).run("cancelled"))
    assert info.value.__cause__ is error


def test_cancelling_a_run_cancels_the_tool_and_nothing_is_refused():
    """docs/decisions.md: a cancelled run (or one past its `asyncio.timeout`) raises
    `CancelledError` from the tool's own await, which the tool sees; nothing makes it a refusal.
    """
    seen = []

    async def waits() -> None:
        """Wait for ever."""
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise

    reg = _single(waits)

    async def main() -> None:
        task = asyncio.create_task(reg.run("waits"))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert task.cancelled()

    started = asyncio.Event()  # bound to the loop that first waits on it
    run(main())
    assert seen == ["cancelled"]


_GROUPS = [ExceptionGroup("g", [ValueError("x")])] if sys.version_info >= (3, 11) else []  # noqa: F821


@pytest.mark.parametrize(
    "error",
    [KeyboardInterrupt(), SystemExit(3), StopAsyncIteration(), *_GROUPS],
    ids=lambda error: type(error).__name__,
)
def test_a_base_exception_or_a_group_from_the_tool_passes_through_unchanged(error):
    """Whatever the function raises passes through, not only `Exception`s."""

    async def fails() -> None:
        """Fail."""
        raise error

    with pytest.raises(type(error)) as info:
        run(_single(fails).run("fails"))
    assert info.value is error


def test_none_input_means_no_fields():
    reg = registry()
    assert run(reg.run("note_read", None, NoteCall("a"))) == ["a\t10"]
    assert run(reg.run("chat_open")) == "opened None"


def test_bad_input_is_refused_before_the_tool_runs():
    calls = []

    async def counted(n: Annotated[int, Ge(0)]) -> None:
        """Count."""
        calls.append(n)

    reg = _single(counted)
    with pytest.raises(ToolRefusal) as info:
        run(reg.run("counted", {"n": -1}))
    assert info.value.code == "bad-arguments"
    assert tuple(info.value.lines) == ("fields\tn",)
    assert calls == []
    run(reg.run("counted", {"n": 3}))
    assert calls == [3]


# --- concurrency ----------------------------------------------------------------------------------


def _echo_registry():
    @tool("echo")
    async def echo(call: NoteCall, n: int, label: str) -> Any:
        """Echo after yielding to the other tasks."""
        for _ in range(3):
            await asyncio.sleep(0)
        return (call.who, n, label)

    return create_tool_registry([define_toolkit("echo", [echo])])


def test_registry_shared_by_100_concurrent_tasks():
    reg = _echo_registry()

    async def main():
        return await asyncio.gather(
            *(reg.run("echo", {"n": i, "label": f"l{i}"}, NoteCall(f"c{i}")) for i in range(100))
        )

    results = run(main())
    assert results == [(f"c{i}", i, f"l{i}") for i in range(100)]


def test_registry_shared_by_threads():
    reg = _echo_registry()

    def one(i):
        return run(reg.run("echo", {"n": i, "label": str(i)}, NoteCall(str(i))))

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(one, range(40)))
    assert results == [(str(i), i, str(i)) for i in range(40)]
