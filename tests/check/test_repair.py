"""Repair, opt-in: JSON text sent where a type admits no string is decoded before the checks.

Never where a string is a valid value; each kind only where that kind is taken; the decoded value
then goes through every ordinary check; each repair is logged at INFO.
"""

import asyncio
import dataclasses
import itertools
import json
import logging
import typing
from typing import Annotated, Any, Literal

import pytest
from annotated_types import Ge, MaxLen
from helpers import Color, Level
from hostile_values import Boom, Meddling, OneShot, boom, hostile_class
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from typing_extensions import TypedDict

from adecore_tools import ToolRefusal, create_tool_registry, define_toolkit, parse_tool_input, tool


class Item(TypedDict):
    name: str
    count: int


@dataclasses.dataclass
class Box:
    items: list[Item]
    tags: dict[str, int] | None = None


@tool("repair")
async def take(
    *,
    numbers: list[int] | None = None,
    item: Item | None = None,
    record: dict[str, float] | None = None,
    box: Box | None = None,
    count: Annotated[int, Ge(0)] | None = None,
    ratio: float | None = None,
    flag: bool | None = None,
    level: Level | None = None,
    exact: Literal[1, 2] | None = None,
    bounded: Annotated[list[int], MaxLen(2)] | None = None,
) -> None:
    """Take every kind a model stringifies."""


@tool("repair")
async def texts(
    *,
    text: str | None = None,
    maybe: str | None = None,
    choice: Literal["[1]", "b"] | None = None,
    color: Color | None = None,
    either: int | str | None = None,
    words: list[str] | None = None,
) -> None:
    """Take what a string is a valid value for."""


class Whole(TypedDict):
    x: int


class Text(TypedDict):
    x: str


@tool("repair")
async def either_kind(
    *,
    xs: list[int] | list[str] | None = None,
    box: Whole | Text | None = None,
    n: int | list[int] | None = None,
    boxes: list[Whole] | list[Text] | None = None,
) -> None:
    """Take unions whose branches differ where a string is taken."""


def repaired(data: Any, t: Any = take) -> dict[str, Any]:
    return {k: v for k, v in parse_tool_input(t, data, repair=True).items() if v is not None}


@pytest.mark.parametrize(
    ("field", "sent", "got"),
    [
        ("numbers", "[1, 2]", [1, 2]),
        ("item", '{"name": "a", "count": 2}', {"name": "a", "count": 2}),
        ("record", '{"a": 1.5}', {"a": 1.5}),
        ("count", "5", 5),
        ("count", " 5 ", 5),
        ("ratio", "0.5", 0.5),
        ("ratio", "2", 2.0),
        ("flag", "true", True),
        ("flag", "false", False),
        ("level", "2", Level.HIGH),
        ("exact", "1", 1),
        ("bounded", "[1]", [1]),
    ],
)
def test_json_text_is_decoded_where_the_type_takes_that_kind(field, sent, got):
    assert repaired({field: sent}) == {field: got}


def test_repairs_reach_every_depth():
    sent = {"box": '{"items": "[{\\"name\\": \\"a\\", \\"count\\": \\"3\\"}]", "tags": "{}"}'}
    assert repaired(sent) == {"box": Box(items=[{"name": "a", "count": 3}], tags={})}
    assert repaired({"numbers": ["1", "2"]}) == {"numbers": [1, 2]}


@pytest.mark.parametrize(
    ("field", "sent"),
    [
        ("numbers", "5"),  # a number's text for a list
        ("count", "[5]"),  # a list's text for an int
        ("item", "[1]"),  # a list's text for an object
        ("flag", "1"),  # a number's text for a bool
        ("count", "true"),  # a bool's text for an int
        ("count", "five"),  # no JSON at all
        ("ratio", "NaN"),  # not JSON either
        ("numbers", "[1, 2"),  # broken JSON
        ("item", '{"name": "a", "name": "b", "count": 1}'),  # a key given twice
        ("record", '{"a": 1, "a": 2}'),
        ("box", '{"items": [{"name": "a", "count": 1, "count": 2}]}'),
        ("numbers", "[1, NaN]"),
    ],
)
def test_text_of_another_kind_stays_as_sent_and_is_refused_as_usual(field, sent):
    with pytest.raises(ToolRefusal) as repaired_info:
        parse_tool_input(take, {field: sent}, repair=True)
    with pytest.raises(ToolRefusal) as plain_info:
        parse_tool_input(take, {field: sent})
    assert repaired_info.value == plain_info.value


@pytest.mark.parametrize(
    ("field", "sent"),
    [
        ("text", "[1, 2]"),
        ("maybe", '{"a": 1}'),
        ("choice", "[1]"),
        ("either", "5"),
    ],
)
def test_nothing_is_repaired_where_a_string_is_a_valid_value(field, sent):
    assert repaired({field: sent}, texts) == {field: sent}


def test_a_list_of_strings_takes_no_string_itself_so_its_text_is_decoded():
    """Clients stringify arrays of strings most of all: the list takes no string, its items do."""
    assert repaired({"words": '["a", "[1]"]'}, texts) == {"words": ["a", "[1]"]}


def test_an_enum_of_strings_is_never_decoded():
    with pytest.raises(ToolRefusal) as info:
        parse_tool_input(texts, {"color": '"red"'}, repair=True)
    assert info.value.message == 'color: expected one of "red", "green", got "\\"red\\""'


def test_the_decoded_value_goes_through_every_ordinary_check():
    with pytest.raises(ToolRefusal) as info:
        parse_tool_input(take, {"count": "-1", "bounded": "[1, 2, 3]"}, repair=True)
    assert info.value.message == (
        "count: expected at least 0, got -1; bounded: expected at most 2 items, got 3"
    )


def test_each_repair_is_logged_at_info_with_the_path_a_refusal_would_name(caplog):
    """Before: the log named `box.items[].count`, no item at all."""
    items = '[{"name": "a", "count": 1}, {"name": "b", "count": "2"}]'
    with caplog.at_level(logging.INFO, logger="adecore_tools"):
        repaired({"numbers": "[1]", "box": '{"items": ' + json.dumps(items) + "}"})
        repaired({"record": {"a": 1, "b c": "2.5"}})
    assert [r.getMessage() for r in caplog.records] == [
        "tool 'take': repaired field 'numbers', sent an array as JSON text",
        "tool 'take': repaired field 'box', sent an object as JSON text",
        "tool 'take': repaired field 'box.items', sent an array as JSON text",
        "tool 'take': repaired field 'box.items[1].count', sent a number as JSON text",
        "tool 'take': repaired field 'record[\"b c\"]', sent a number as JSON text",
    ]
    with pytest.raises(ToolRefusal) as info:
        parse_tool_input(take, {"box": {"items": [{"name": "a", "count": 1}, {"name": "b"}]}})
    assert info.value.message.startswith("box.items[1].count: ")
    assert {r.levelno for r in caplog.records} == {logging.INFO}


def test_without_repair_nothing_changes(caplog):
    with caplog.at_level(logging.INFO, logger="adecore_tools"), pytest.raises(ToolRefusal) as info:
        parse_tool_input(take, {"numbers": "[1]"})
    assert info.value.message == 'numbers: expected an array, got "[1]"'
    assert caplog.records == []


def test_a_registry_repairs_when_asked_and_keeps_it_when_it_selects():
    kit = define_toolkit("repair", [take, texts])
    plain, repairing = create_tool_registry([kit]), create_tool_registry([kit], repair=True)
    assert not plain.repair
    assert repairing.repair
    assert repairing.select("repair").repair
    asyncio.run(repairing.run("take", {"numbers": "[1]"}))
    asyncio.run(repairing.run_json("take", '{"numbers": "[1]"}'))
    with pytest.raises(ToolRefusal):
        asyncio.run(plain.run("take", {"numbers": "[1]"}))


def test_repair_leaves_the_input_unchanged_and_reads_hostile_input_safely():
    sent = {"numbers": "[1]", "item": {"name": "a", "count": "2"}}
    parse_tool_input(take, sent, repair=True)
    assert sent == {"numbers": "[1]", "item": {"name": "a", "count": "2"}}
    for odd in (None, "text", [1], {1: "[1]"}, {"numbers": object()}):
        with pytest.raises(ToolRefusal):
            parse_tool_input(take, odd if odd is not None else {"count": object()}, repair=True)


class FailsOnce(Meddling):
    """A mapping whose `items()` raises the first time it is called, and answers after."""

    def items(self) -> Any:
        if not self.reads:
            self.reads += 1
            raise Boom
        return super().items()


def _reads(make: Any, data: Any, *, repair: bool) -> tuple[str, int]:
    """What a check makes of `data` holding the mapping `make()`, and how often it was read."""
    sent = make()
    try:
        got = repr(parse_tool_input(take, data(sent), repair=repair))
    except ToolRefusal as refusal:
        got = refusal.message
    return got, sent.reads


@pytest.mark.parametrize(
    "make",
    [
        lambda: OneShot([("count", 5)]),
        lambda: OneShot([("count", 5), ("item", OneShot([("name", "a"), ("count", 2)]))]),
        lambda: Meddling(lambda: None, [("numbers", [1]), ("count", 2)]),
        lambda: FailsOnce(lambda: None, [("count", 5)]),
    ],
)
@pytest.mark.parametrize(
    "data",
    [
        lambda sent: sent,
        lambda sent: {"item": sent},
        lambda sent: {"box": {"items": [sent]}},
        lambda sent: {"record": sent},
    ],
)
def test_repair_reads_each_mapping_once_and_the_checks_read_what_it_read(make, data):
    """Before: repair read a one-shot mapping, the checks read it again, empty: `count` was None."""
    plain, plain_reads = _reads(make, data, repair=False)
    assert _reads(make, data, repair=True) == (plain, plain_reads)
    assert plain_reads == 1


@pytest.mark.parametrize(
    ("sent", "got"),
    [
        ([("x", 5)], {"x": 5}),
        ([("x", "5")], {"x": "5"}),
        ([("x", [5])], None),
    ],
)
def test_a_mapping_inside_a_union_is_read_once_by_repair_and_the_checks(sent, got):
    """Before: repair asked the union whether it took the list as sent, which read the mapping in
    it; the checks then read it again, empty."""
    boxes = [OneShot(sent)]
    if got is None:
        with pytest.raises(ToolRefusal):
            parse_tool_input(either_kind, {"boxes": boxes}, repair=True)
    else:
        assert repaired({"boxes": boxes}, either_kind) == {"boxes": [got]}
    assert boxes[0].reads == 1


def test_what_repair_decodes_in_a_one_shot_mapping_is_what_the_checks_read():
    sent = OneShot([("count", "5"), ("item", OneShot([("name", "a"), ("count", "2")]))])
    assert repaired(sent) == {"count": 5, "item": {"name": "a", "count": 2}}


class ComparesBadly(type):
    """A metaclass whose `__eq__` raises: a class compared with `in` or `==` raises."""

    __eq__ = boom
    __hash__ = type.__hash__


@pytest.mark.parametrize(
    "hostile",
    [hostile_class("__class__"), ComparesBadly("Odd", (), {})],
    ids=["__class__ raises", "its class's __eq__ raises"],
)
@pytest.mark.parametrize(
    "data",
    [
        lambda hostile: {"count": hostile},
        lambda hostile: {"numbers": [hostile, 1]},
        lambda hostile: {"item": hostile},
        lambda hostile: {"box": {"items": [hostile]}},
        lambda hostile: {"record": {"a": hostile}},
        lambda hostile: hostile,
    ],
)
@pytest.mark.parametrize("t", [take, either_kind])
def test_repair_reads_a_value_whose_class_is_hostile_as_the_checks_do(hostile, data, t):
    """Before: repair asked `isinstance`, which asks `__class__`, and compared classes with `in`:
    their exceptions came out."""
    sent = data(hostile())
    if t is not take:
        sent = {"xs": sent, "box": sent, "n": sent}
    with pytest.raises(ToolRefusal) as plain:
        parse_tool_input(t, sent)
    with pytest.raises(ToolRefusal) as with_repair:
        parse_tool_input(t, sent, repair=True)
    assert with_repair.value == plain.value


@pytest.mark.parametrize(
    ("sent", "got"),
    [
        ({"xs": ["5"]}, {"xs": ["5"]}),
        ({"xs": ["5", "x"]}, {"xs": ["5", "x"]}),
        ({"xs": '["5"]'}, {"xs": ["5"]}),  # decoded for the list, taken by the list of strings
        ({"box": {"x": "5"}}, {"box": {"x": "5"}}),
        ({"box": '{"x": "5"}'}, {"box": {"x": "5"}}),
    ],
)
def test_a_union_branch_that_takes_the_value_as_sent_wins(sent, got):
    assert repaired(sent, either_kind) == got


def test_a_value_no_branch_takes_as_sent_is_repaired_for_a_branch_it_then_fits():
    assert repaired({"xs": [5, "6"], "box": {"x": 7}}, either_kind) == {
        "xs": [5, 6],
        "box": {"x": 7},
    }
    assert repaired({"xs": "[5, 6]"}, either_kind) == {"xs": [5, 6]}


# --- a property: repair never changes what is accepted without it ------------------------------

_NAMES = itertools.count()
_TEXTS = ["5", "1.5", "true", "[1]", '["5"]', '{"x": 1}', '{"x": "5"}', "x", ""]


@st.composite
def _shapes(draw: st.DrawFn, depth: int) -> tuple[Any, st.SearchStrategy[Any]]:
    """A type, and values for it: mostly of its own shape, with JSON text where models send it."""
    kind = draw(st.sampled_from(["leaf", "list", "dict", "object", "union"] if depth else ["leaf"]))
    if kind == "leaf":
        tp, sent = draw(st.sampled_from(_LEAVES))
    elif kind == "union":
        parts = draw(st.lists(_shapes(depth - 1), min_size=2, max_size=3))
        tp = typing.Union[tuple(p[0] for p in parts)]  # noqa: UP007 - built at run time
        sent = st.one_of([p[1] for p in parts])
    else:
        inner, inner_sent = draw(_shapes(depth - 1))
        if kind == "list":
            tp, sent = list[inner], st.lists(inner_sent, max_size=2)
        elif kind == "dict":
            tp, sent = dict[str, inner], st.dictionaries(st.sampled_from("ab"), inner_sent)
        else:
            name = f"Shape{next(_NAMES)}"
            if draw(st.booleans()):
                tp = TypedDict(name, {"x": inner})  # type: ignore[operator]  # noqa: UP013
            else:
                tp = dataclasses.make_dataclass(name, [("x", inner)])
            sent = st.fixed_dictionaries({"x": inner_sent})
    as_text = sent.map(json.dumps)
    return tp, st.one_of(sent, as_text, st.sampled_from(_TEXTS))


_LEAVES = [
    (int, st.sampled_from([0, 5, 1.0])),
    (float, st.sampled_from([1.5, 5])),
    (bool, st.booleans()),
    (str, st.sampled_from(_TEXTS)),
    (Literal[1, 5], st.sampled_from([1, 5])),
    (Literal["5", "x"], st.sampled_from(["5", "x"])),
]


def _outcome(t: Any, sent: object, *, repair: bool) -> str:
    """What is passed on, by its `repr` (so `1`, `1.0` and `True` differ), or the refusal."""
    try:
        return repr(parse_tool_input(t, {"value": sent}, repair=repair))
    except ToolRefusal as refusal:
        return f"refused: {refusal.message}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_what_is_accepted_without_repair_is_accepted_unchanged_with_it(data):
    tp, sent = data.draw(_shapes(3), label="type")
    note(repr(tp))

    async def generated(*, value: Any) -> None:
        """Take one generated value."""

    generated.__annotations__ = {"value": tp, "return": None}
    t = tool("repair")(generated)
    for value in data.draw(st.lists(sent, min_size=8, max_size=8), label="values"):
        plain = _outcome(t, value, repair=False)
        if not plain.startswith("refused: "):
            assert _outcome(t, value, repair=True) == plain, value
