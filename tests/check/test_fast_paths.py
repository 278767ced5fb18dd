"""The generated fast paths say yes only to what the checkers would pass, and say it the same way.

The validator of a tool reads exact types inline and hands anything else to the field's checker;
a list of plain objects is read item by item inline. Whatever it is given, its answer must be the
checker's answer: the same value, or the same problems.
"""

from typing import Annotated, Any

import pytest
from annotated_types import Ge, Lt, MaxLen, MinLen
from hostile_values import LyingDict
from hypothesis import given, settings
from hypothesis import strategies as st
from typing_extensions import NotRequired, TypedDict

from adecore_tools import ToolRefusal, parse_tool_input, tool
from adecore_tools._check import compile as _compile
from adecore_tools._model import problems as _problems


class Row(TypedDict):
    name: Annotated[str, MinLen(1), MaxLen(5)]
    count: Annotated[int, Ge(0), Lt(100)]
    on: bool


class Loose(TypedDict):
    name: str
    count: NotRequired[int]


@tool("fast")
async def rows(
    items: list[Row],
    bounded: Annotated[list[Row], MaxLen(3)] | None = None,
    fixed: tuple[Row, ...] | None = None,
    loose: list[Loose] | None = None,
) -> None:
    """Take rows."""


def _checked(field: str, value: object) -> object:
    """What the field's own checker, with no fast path in front, makes of `value`."""
    (f,) = [f for f in rows.input.fields if f.name == field]
    node = f.type.inner if hasattr(f.type, "inner") and not f.required else f.type
    found = _compile.checker(node)(value)
    if isinstance(found, _problems.Invalid):
        message = _problems.message(_problems.merge(None, field, found))
        return ("refused", message)
    return found


def _parsed(field: str, value: object) -> object:
    data = {"items": []} if field != "items" else {}
    data[field] = value
    try:
        return parse_tool_input(rows, data)[field]
    except ToolRefusal as refusal:
        return ("refused", refusal.message)


names = st.one_of(st.text(max_size=7), st.integers(), st.none())
counts = st.one_of(st.integers(-5, 120), st.floats(allow_nan=True), st.text(max_size=2), st.none())
items = st.one_of(
    st.fixed_dictionaries({"name": names, "count": counts, "on": st.booleans() | st.integers()}),
    st.dictionaries(st.sampled_from(["name", "count", "on", "extra", 5]), names | counts),
    st.builds(LyingDict, st.just({"name": "a", "count": 1, "on": True})),
    names,
)
lists = st.one_of(st.lists(items, max_size=5), st.lists(items, max_size=5).map(tuple))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["items", "bounded", "fixed", "loose"]), lists)
def test_a_list_of_objects_is_read_inline_as_its_checker_reads_it(field, value):
    assert _parsed(field, value) == _checked(field, value)


def test_a_list_of_plain_rows_is_new_and_holds_new_rows():
    sent = [{"name": "a", "count": 1, "on": True}, {"name": "b", "count": 2, "on": False}]
    out = parse_tool_input(rows, {"items": sent, "fixed": tuple(sent)})
    assert out["items"] == sent
    assert out["items"] is not sent
    assert all(got is not given for got, given in zip(out["items"], sent, strict=True))
    assert out["fixed"] == tuple(sent)
    assert type(out["fixed"]) is tuple


def test_a_key_that_lies_about_being_a_field_name_is_the_checkers_to_judge():
    class Liar(str):
        __slots__ = ()

        def __eq__(self, other: object) -> bool:
            raise RuntimeError("no")

        def __hash__(self) -> int:
            return hash("name")

    sent: list[Any] = [{Liar("x"): "a", "count": 1, "on": True}]
    with pytest.raises(ToolRefusal) as info:
        parse_tool_input(rows, {"items": sent})
    assert info.value.message == (
        "items[0].name: missing, expected a string; items[0].x: unknown field"
    )
