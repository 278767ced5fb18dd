"""Repair, opt-in: JSON text sent where a type admits no string is decoded before the checks.

Never where a string is a valid value; each kind only where that kind is taken; the decoded value
then goes through every ordinary check; each repair is logged at INFO.
"""

import asyncio
import dataclasses
import logging
from typing import Annotated, Any, Literal

import pytest
from annotated_types import Ge, MaxLen
from helpers import Color, Level
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


def repaired(data: dict[str, Any], t: Any = take) -> dict[str, Any]:
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


def test_each_repair_is_logged_at_info(caplog):
    with caplog.at_level(logging.INFO, logger="adecore_tools"):
        repaired({"numbers": "[1]", "box": '{"items": [{"name": "a", "count": "2"}]}'})
    assert [r.getMessage() for r in caplog.records] == [
        "tool 'take': repaired field 'numbers', sent an array as JSON text",
        "tool 'take': repaired field 'box', sent an object as JSON text",
        "tool 'take': repaired field 'box.items[].count', sent a number as JSON text",
    ]
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
