"""Hostile input, second round: each case here broke a promise before its fix.

- A container is read once, from a snapshot: nothing the input defines can change what is read
  while it is checked, nor make the work grow without bound.
- A mapping that is no dict is read once per value, whatever the union or bound around it.
- A default a factory makes is as isolated as a written one: no call shares it with another.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

import pytest
from annotated_types import MaxLen
from hostile_values import Meddling, OneShot
from typing_extensions import TypedDict

from adecore_tools import (
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    parse_tool_input,
    tool,
)


class Leaf(TypedDict):
    value: int


def refused(t: Any, data: object) -> str:
    with pytest.raises(ToolRefusal) as info:
        parse_tool_input(t, data)
    assert info.value.code == "bad-arguments"
    return info.value.message


@tool("round")
async def records(rec: dict[str, Leaf]) -> None:
    """Take a record of leaves."""


@tool("round")
async def nested_records(rec: dict[str, dict[str, int]]) -> None:
    """Take a record of records."""


@tool("round")
async def union_records(rec: dict[str, Leaf | int]) -> None:
    """Take a record of leaves or numbers."""


@tool("round")
async def leaves(items: list[Leaf]) -> None:
    """Take a list of leaves."""


@tool("round")
async def either(either: Leaf | dict[str, int]) -> None:
    """Take a leaf or a record."""


@tool("round")
async def counted(rec: Annotated[dict[str, int], MaxLen(1)]) -> None:
    """Take a small record."""


# --- a container is read once, from a snapshot -------------------------------------------------


@pytest.mark.parametrize("t", [records, nested_records, union_records])
def test_a_record_whose_value_changes_it_while_it_is_read_is_read_as_it_was(t):
    """Before: `RuntimeError: dictionary changed size during iteration` came out."""
    outer: dict[str, Any] = {}
    outer["a"] = Meddling(lambda: outer.setdefault("added", 1), [("value", 1)])
    result = parse_tool_input(t, {"rec": outer})
    assert list(result["rec"]) == ["a"]  # the key added while reading is not read


def test_an_item_that_appends_to_its_list_does_not_make_the_read_go_on():
    """Before: each item appended another, and the read went on until the caller gave up."""
    items: list[Any] = []
    appended = 0

    def grow() -> None:
        nonlocal appended
        appended += 1
        items.append(Meddling(grow, [("value", 1)]))

    items.append(Meddling(grow, [("value", 1)]))
    result = parse_tool_input(leaves, {"items": items})
    assert result["items"] == [{"value": 1}]
    assert appended == 1


def test_an_item_that_deletes_the_rest_cannot_hide_a_bad_item():
    """Before: `[M(l), "not an object"]` was accepted as `[{'value': 1}]`."""
    items: list[Any] = []
    items.append(Meddling(lambda: items.__delitem__(slice(1, None)), [("value", 1)]))
    items.append("not an object")
    assert refused(leaves, {"items": items}) == 'items[1]: expected an object, got "not an object"'


# --- a mapping that is no dict is read once ----------------------------------------------------


def test_a_one_shot_mapping_in_a_union_is_refused_as_a_dict_would_be():
    """Before: the first branch read it, the second read nothing and accepted `{}`."""
    sent = OneShot([("value", "x")])
    assert refused(either, {"either": sent}) == refused(either, {"either": {"value": "x"}})
    assert sent.reads == 1


def test_a_mapping_in_a_union_is_read_once_whatever_the_branches():
    sent = Meddling(lambda: None, [("value", 5)])
    assert parse_tool_input(either, {"either": sent}) == {"either": {"value": 5}}
    assert sent.reads == 1


def test_a_bounded_record_whose_values_were_refused_is_not_read_again_to_count_it():
    sent = Meddling(lambda: None, [("a", "x"), ("b", 2)])
    message = refused(counted, {"rec": sent})
    assert message == 'rec: expected at most 1 key, got 2; rec["a"]: expected an integer, got "x"'
    assert sent.reads == 1


def test_a_mapping_no_union_branch_takes_is_not_read_at_all():
    @tool("round")
    async def scalar(x: int | str) -> None:
        """Take a number or a text."""

    sent = Meddling(lambda: None, [("value", 1)])
    assert refused(scalar, {"x": sent}) == "x: expected an integer or a string, got an object"
    assert sent.reads == 0


# --- a default made by a factory is isolated ---------------------------------------------------


@dataclasses.dataclass(eq=False)
class Pad:
    lines: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Page:
    pad: Pad = Pad()  # noqa: RUF009 - the class default every `Page()` shares: the point


@dataclasses.dataclass
class Book:
    page: Page = dataclasses.field(default_factory=Page)


@tool("round")
async def scribble(book: Book) -> list[str]:
    """Scribble on the book's page."""
    book.page.pad.lines.append("scribble")
    return book.page.pad.lines


def test_a_default_a_factory_builds_from_a_class_default_is_new_for_each_call():
    """Before: the second call returned `['scribble', 'scribble']`, Page's class default changed."""
    registry = create_tool_registry([define_toolkit("round", [scribble])])
    import asyncio  # noqa: PLC0415

    assert asyncio.run(registry.run("scribble", {"book": {}})) == ["scribble"]
    assert asyncio.run(registry.run("scribble", {"book": {}})) == ["scribble"]
    assert Page.pad.lines == []
    first = parse_tool_input(scribble, {"book": {}})["book"]
    second = parse_tool_input(scribble, {"book": {}})["book"]
    assert first.page is not second.page
    assert first.page.pad is not second.page.pad


class Uncopyable(list[int]):
    """What a factory may make that no copy can be made of (a handle, a lock)."""

    def __deepcopy__(self, memo: object) -> None:
        raise TypeError("no copies")


@dataclasses.dataclass
class Holder:
    handle: list[int] = dataclasses.field(default_factory=Uncopyable)


def test_a_factory_default_that_cannot_be_copied_is_passed_as_made():
    @tool("round")
    async def hold(holder: Holder) -> None:
        """Hold it."""

    first = parse_tool_input(hold, {"holder": {}})["holder"].handle
    second = parse_tool_input(hold, {"holder": {}})["holder"].handle
    assert type(first) is Uncopyable
    assert first is not second  # each made by its own call of the factory
