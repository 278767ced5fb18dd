"""What `parse_tool_input` and `registry.run` accept and pass on, for every type and bound."""

import asyncio
import copy
import dataclasses
import enum
import inspect
import json
import sys
import traceback
import types
import typing
from collections.abc import Iterator, Mapping, Sequence
from typing import Annotated, Any, Literal, NewType, Optional, TypedDict, TypeVar

import annotated_types as at
import pytest
import typing_extensions as te
from helpers import Color, Level, refusal, refused, run
from hypothesis import given
from hypothesis import strategies as st
from typing_extensions import NotRequired, Required, TypeAliasType

from adecore_tools import (
    ToolCall,
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    parse_tool_input,
    required_field,
    tool,
    tool_input_schema,
    transform,
)
from adecore_tools._model import suggest as _suggest

# --- helpers ----------------------------------------------------------------------------------


class Mixed(enum.Enum):
    WHOLE = 1
    HALF = 1.5


class Switch(enum.Enum):
    ON = True
    OFF = False


class Small(enum.IntEnum):
    ONE = 1


# --- str ----------------------------------------------------------------------------------------


@tool("v")
async def takes_str(s: str) -> None:
    """Takes a string."""


@pytest.mark.parametrize("value", ["x", "", " ", "é\n\t"])
def test_str_accepts_strings_unchanged(value):
    out = parse_tool_input(takes_str, {"s": value})
    assert out == {"s": value}
    assert type(out["s"]) is str


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (1, "1"),
        (1.5, "1.5"),
        (True, "true"),
        (False, "false"),
        (b"x", "a value of type bytes"),
        (["x"], "an array"),
        (("x",), "an array"),
        ({"x": 1}, "an object"),
        (float("nan"), "NaN"),
        (float("inf"), "Infinity"),
        (float("-inf"), "-Infinity"),
        (10**100, "a very large integer"),
    ],
)
def test_str_refuses_everything_else(value, shown):
    assert refused(takes_str, {"s": value}) == f"s: expected a string, got {shown}"


def test_str_long_value_is_cut_in_the_echo():
    @tool("v")
    async def takes_int(n: int) -> None:
        """Takes an integer."""

    text = "abcdefghij" * 5
    assert refused(takes_int, {"n": text}) == (
        f'n: expected an integer, got "{text[:32]}…" (50 characters)'
    )
    # exactly 32 characters are echoed whole
    assert refused(takes_int, {"n": text[:32]}) == f'n: expected an integer, got "{text[:32]}"'


def test_echoed_string_cannot_break_the_line():
    @tool("v")
    async def takes_int(n: int) -> None:
        """Takes an integer."""

    found = refusal(takes_int, {"n": "a\nb\tc\r\u2028d"})
    assert found.message == 'n: expected an integer, got "a b c  d"'


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ('say "hi"', r'"say \"hi\""'),
        ("a\\b", r'"a\\b"'),
        ('"', r'"\""'),
        ("", '""'),
        ("plain words", '"plain words"'),
    ],
)
def test_short_echo_escapes_quotes_and_backslashes(value, shown):
    assert refused(takes_int, {"n": value}) == f"n: expected an integer, got {shown}"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("a" * 31 + "\n", '"' + "a" * 31 + ' "'),
        ('"' + "a" * 31, '"\\"' + "a" * 31 + '"'),
        ('"' + "a" * 32, '"\\"' + "a" * 31 + '…" (33 characters)'),
    ],
)
def test_an_echo_of_32_characters_is_whole_whatever_it_holds(value, shown):
    """The cut is at 32 characters for every string, not only for plain ones."""
    assert refused(takes_int, {"n": value}) == f"n: expected an integer, got {shown}"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (2**64 - 1, "18446744073709551615"),
        (-(2**64) + 1, "-18446744073709551615"),
        (2**64, "a very large integer"),
        (-(2**64), "a very large negative integer"),  # not read as too small a large one
    ],
)
def test_integers_beyond_64_bits_are_not_echoed(value, shown):
    assert refused(takes_str, {"s": value}) == f"s: expected a string, got {shown}"


# --- int ----------------------------------------------------------------------------------------


@tool("v")
async def takes_int(n: int) -> None:
    """Takes an integer."""


@pytest.mark.parametrize("value", [0, -7, 5, 10**100])
def test_int_accepts_ints(value):
    out = parse_tool_input(takes_int, {"n": value})
    assert out == {"n": value}
    assert type(out["n"]) is int


@pytest.mark.parametrize(("value", "expected"), [(2.0, 2), (-3.0, -3), (0.0, 0), (1e20, 10**20)])
def test_int_accepts_integral_floats_as_int(value, expected):
    out = parse_tool_input(takes_int, {"n": value})
    assert out == {"n": expected}
    assert type(out["n"]) is int


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (True, "true"),
        (False, "false"),
        (2.5, "2.5"),
        ("5", '"5"'),
        (float("nan"), "NaN"),
        (float("inf"), "Infinity"),
        ([1], "an array"),
        ({}, "an object"),
    ],
)
def test_int_refuses(value, shown):
    assert refused(takes_int, {"n": value}) == f"n: expected an integer, got {shown}"


# --- float --------------------------------------------------------------------------------------


@tool("v")
async def takes_float(x: float) -> None:
    """Takes a number."""


@pytest.mark.parametrize(("value", "expected"), [(1, 1.0), (0, 0.0), (-2, -2.0), (1.5, 1.5)])
def test_float_accepts_ints_as_float(value, expected):
    out = parse_tool_input(takes_float, {"x": value})
    assert out == {"x": expected}
    assert type(out["x"]) is float


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (True, "expected a number, got true"),
        ("1.5", 'expected a number, got "1.5"'),
        (None, "missing, expected a number"),
        (float("nan"), "expected a finite number, got NaN"),
        (float("inf"), "expected a finite number, got Infinity"),
        (float("-inf"), "expected a finite number, got -Infinity"),
        (10**400, "expected a number within ±1.7976931348623157e+308, got a very large integer"),
    ],
)
def test_float_refuses(value, text):
    assert refused(takes_float, {"x": value}) == f"x: {text}"


@pytest.mark.parametrize(
    "value", [2**1024, -(2**1024), 10**5000], ids=["2**1024", "-2**1024", "10**5000"]
)
def test_an_int_too_large_for_a_float_field_is_told_the_range_not_finiteness(value):
    """An int beyond a double's range is finite: "expected a finite number, got a very large
    integer" named as missing what the value has, and not the range a model must keep to."""
    message = refused(takes_float, {"x": value})
    assert message.startswith("x: expected a number within ±1.7976931348623157e+308, got a very")
    assert float(message.split("±")[1].split(",")[0]) == sys.float_info.max


class Name(str):
    __slots__ = ()


class Count(int):
    __slots__ = ()


class Money(float):
    __slots__ = ()


@pytest.mark.parametrize(
    ("t", "name", "value", "plain"),
    [
        (takes_str, "s", Name("ann"), "ann"),
        (takes_int, "n", Count(4), 4),
        (takes_int, "n", Small.ONE, 1),
        (takes_float, "x", Money(2.5), 2.5),
    ],
    ids=["str subclass", "int subclass", "IntEnum", "float subclass"],
)
def test_a_subclass_of_str_int_or_float_passes_as_the_plain_type(t, name, value, plain):
    out = parse_tool_input(t, {name: value})
    assert out == {name: plain}
    assert type(out[name]) is type(plain)


# --- bool ---------------------------------------------------------------------------------------


@tool("v")
async def takes_bool(b: bool) -> None:
    """Takes a boolean."""


@pytest.mark.parametrize("value", [True, False])
def test_bool_accepts_booleans(value):
    assert parse_tool_input(takes_bool, {"b": value})["b"] is value


@pytest.mark.parametrize(
    ("value", "shown"), [(1, "1"), (0, "0"), (1.0, "1.0"), ("true", '"true"'), ([], "an array")]
)
def test_bool_refuses_everything_else(value, shown):
    assert refused(takes_bool, {"b": value}) == f"b: expected a boolean, got {shown}"


# --- Literal and Enum ---------------------------------------------------------------------------


@tool("v")
async def takes_choices(
    *,
    word: Literal["a", "b"] | None = None,
    one: Literal["x"] | None = None,
    number: Literal[1, 2] | None = None,
    fraction: Literal[1.5, 2.5] | None = None,
    flag: Literal[True] | None = None,
    zero: Literal[0] | None = None,
    color: Color | None = None,
    level: Level | None = None,
    mixed: Mixed | None = None,
    switch: Switch | None = None,
) -> None:
    """Takes choices."""


def test_literal_and_enum_pass_the_value_or_member():
    out = parse_tool_input(
        takes_choices,
        {
            "word": "b",
            "one": "x",
            "number": 2,
            "fraction": 2.5,
            "flag": True,
            "zero": 0,
            "color": "green",
            "level": 2,
            "mixed": 1.5,
            "switch": False,
        },
    )
    assert out == {
        "word": "b",
        "one": "x",
        "number": 2,
        "fraction": 2.5,
        "flag": True,
        "zero": 0,
        "color": Color.GREEN,
        "level": Level.HIGH,
        "mixed": Mixed.HALF,
        "switch": Switch.OFF,
    }
    assert out["color"] is Color.GREEN
    assert out["level"] is Level.HIGH
    assert out["switch"] is Switch.OFF


def test_numbers_match_choices_by_value_and_become_the_declared_value():
    out = parse_tool_input(takes_choices, {"number": 1.0, "level": 1.0, "mixed": 1.0, "zero": 0.0})
    assert out["number"] == 1
    assert type(out["number"]) is int
    assert out["level"] is Level.LOW
    assert out["mixed"] is Mixed.WHOLE
    assert out["zero"] == 0
    assert type(out["zero"]) is int


def test_booleans_never_match_numbers_and_numbers_never_match_booleans():
    assert refused(takes_choices, {"number": True, "level": True, "zero": False}) == (
        "number: expected one of 1, 2, got true; zero: expected 0, got false; "
        "level: expected one of 1, 2, got true"
    )
    assert refused(takes_choices, {"flag": 1, "switch": 0}) == (
        "flag: expected true, got 1; switch: expected one of true, false, got 0"
    )


def test_choices_refuse_other_values():
    assert refused(
        takes_choices,
        {"word": "c", "one": "y", "number": 3, "fraction": 2, "color": "RED", "level": "1"},
    ) == (
        'word: expected one of "a", "b", got "c"; one: expected "x", got "y"; '
        "number: expected one of 1, 2, got 3; fraction: expected one of 1.5, 2.5, got 2; "
        'color: expected one of "red", "green", got "RED"; '
        'level: expected one of 1, 2, got "1"'
    )


class Priority(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Rank(enum.IntEnum):
    FIRST = 1
    SECOND = 2


class Shade(str, enum.Enum):
    DARK = "dark"
    LIGHT = "light"


class Pick(TypedDict):
    rank: Rank


@tool("v")
async def takes_equal_choices(
    *,
    number: Literal[1, 2] | None = None,
    priority: Priority | None = None,
    rank: Rank | None = None,
    shade: Shade | None = None,
    word: Literal["dark", "light"] | None = None,
    ranks: list[Rank] | None = None,
    pick: Pick | None = None,
) -> None:
    """Takes choices whose values are equal to one another's."""


def test_int_and_str_enums_pass_their_members_even_when_values_are_equal():
    """An IntEnum member equals its value, and so do members of two such enums: types decide."""
    for sent in (2, 2.0):  # the generated fast path, then the checker
        out = parse_tool_input(
            takes_equal_choices,
            {
                "number": sent,
                "priority": sent,
                "rank": sent,
                "ranks": [sent],
                "pick": {"rank": sent},
            },
        )
        assert type(out["number"]) is int
        assert out["priority"] is Priority.HIGH
        assert out["rank"] is Rank.SECOND
        assert out["ranks"][0] is Rank.SECOND
        assert out["pick"]["rank"] is Rank.SECOND
    out = parse_tool_input(takes_equal_choices, {"shade": "dark", "word": "dark"})
    assert out["shade"] is Shade.DARK
    assert type(out["word"]) is str


@pytest.mark.parametrize("first_step", [2.0, 2], ids=["float first", "int first"])
def test_equal_bounds_of_another_type_never_share_a_node(first_step):
    """`MultipleOf(2) == MultipleOf(2.0)`, yet an int step is exact and a float one rounds."""
    other = 2 if type(first_step) is float else 2.0
    tools = {}
    for step in (first_step, other):
        for evict in range(300):  # typing's own cache would hand back the equal annotation
            Annotated[int, at.Ge(evict)]
        bounded = Annotated[int, at.MultipleOf(step)]
        namespace = {"A": bounded, "L": list[bounded]}
        exec("async def steps(*, n: A, ns: L) -> None: ...", namespace)  # noqa: S102
        tools[type(step)] = tool("v", description="Takes steps.")(namespace["steps"])
    odd = 2**60 + 1  # odd, yet `odd % 2.0 == 0.0`
    int_step = tools[int]
    assert type(int_step.input.fields[0].type.checks[0].multiple_of) is int
    assert refused(int_step, {"n": odd, "ns": [odd]}) == (
        f"n: expected a multiple of 2, got {odd}; ns[0]: expected a multiple of 2, got {odd}"
    )
    assert type(tools[float].input.fields[0].type.checks[0].multiple_of) is float


class Step(at.MultipleOf):
    """A bound of the host's own, derived from an annotated-types one."""


def test_a_derived_bound_keeps_the_type_of_its_step():
    for evict in range(300):  # typing's own cache would hand back an equal annotation
        Annotated[int, at.Ge(evict)]

    @tool("v")
    async def floats(n: Annotated[int, Step(2.0)]) -> None:
        """Takes a float step."""

    for evict in range(300):
        Annotated[int, at.Ge(evict)]

    @tool("v")
    async def ints(n: Annotated[int, Step(2)]) -> None:
        """Takes an int step."""

    assert refused(ints, {"n": 2**60 + 1}) == f"n: expected a multiple of 2, got {2**60 + 1}"


def test_a_default_member_is_checked_against_its_own_enum():
    @tool("v")
    async def first(number: Literal[1, 2] = 1) -> None:
        """Declares the plain choice first."""

    @tool("v")
    async def second(priority: Priority = Priority.LOW) -> None:
        """Then the IntEnum of the same values."""

    assert parse_tool_input(second, {}) == {"priority": Priority.LOW}
    assert parse_tool_input(first, {}) == {"number": 1}


def test_a_literal_mixing_a_plain_value_and_a_member_passes_each_as_declared():
    @tool("v")
    async def mixed(choice: Literal["x", Color.RED]) -> None:
        """Takes a mixed literal."""

    assert parse_tool_input(mixed, {"choice": "x"}) == {"choice": "x"}
    assert parse_tool_input(mixed, {"choice": "red"})["choice"] is Color.RED


def test_literal_none_in_a_union_is_none():
    @tool("v")
    async def f(x: int | Literal[None] = None) -> None:  # noqa: PYI061 - the spelling is the subject
        """Takes one."""

    assert parse_tool_input(f, {"x": None}) == {"x": None}
    assert parse_tool_input(f, {"x": 3}) == {"x": 3}
    assert f.input.fields[0].required is False


def test_a_literal_listing_one_number_twice_is_a_type_error():
    """`1` and `1.0` are one JSON number: which would the function get?"""

    async def f(x: Literal[1, 1.0]) -> None:
        """Takes one."""

    with pytest.raises(TypeError) as info:
        tool("v")(f)
    assert str(info.value) == (
        "field 'x' of tool 'f': the Literal lists one JSON value twice (1, 1.0): an Enum member "
        "stands for its value, and 1 and 1.0 are one number; list it once"
    )


def test_a_literal_listing_a_member_and_its_value_says_so():
    async def f(x: Literal[Color.RED, "red"]) -> None:
        """Takes red."""

    with pytest.raises(TypeError, match=r"one JSON value twice \('red', 'red'\): an Enum member"):
        tool("v")(f)


class Permission(enum.Flag):
    NONE = 0
    READ = 1
    WRITE = 2
    READ_WRITE = 3


def test_a_flag_offers_every_member_it_declares_on_every_python():
    """Python 3.11 stopped iterating a Flag's zero and multi-bit members; they are still members."""

    @tool("v")
    async def grant(*, permission: Permission = Permission.READ_WRITE) -> None:
        """Grants a permission."""

    assert tool_input_schema(grant)["properties"]["permission"]["enum"] == [0, 1, 2, 3]
    assert parse_tool_input(grant, {"permission": 0}) == {"permission": Permission.NONE}
    assert parse_tool_input(grant, {"permission": 3}) == {"permission": Permission.READ_WRITE}
    assert refused(grant, {"permission": 4}) == ("permission: expected one of 0, 1, 2, 3, got 4")


class Aliased(enum.Enum):
    ONE = 1
    UNO = 1  # noqa: PIE796 - an alias: the same member, offered once
    TWO = 2


def test_an_enum_alias_is_its_member_offered_once():
    @tool("v")
    async def pick(*, n: Aliased) -> None:
        """Picks."""

    assert tool_input_schema(pick)["properties"]["n"]["enum"] == [1, 2]
    assert parse_tool_input(pick, {"n": 1}) == {"n": Aliased.ONE}


class CaseBlind(str, enum.Enum):  # noqa: PLW1641 - the point: its members do not hash
    """Members compared without case: an Enum with its own `__eq__`, whose members do not hash."""

    RED = "red"
    BLUE = "blue"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and str.__eq__(self.value, other.lower())


def test_an_enum_whose_members_do_not_hash_is_read():
    @tool("v")
    async def paint(*, color: CaseBlind) -> None:
        """Paints."""

    assert parse_tool_input(paint, {"color": "red"}) == {"color": CaseBlind.RED}
    assert tool_input_schema(paint)["properties"]["color"]["enum"] == ["red", "blue"]


@pytest.mark.parametrize(
    ("annotation", "sent", "got"),
    [
        (set[tuple[int, ...]], [[1, 2], [1, 2], [3]], {(1, 2), (3,)}),
        (frozenset[frozenset[str]], [["a", "b"], ["b", "a"]], frozenset({frozenset({"a", "b"})})),
        (set[tuple[str, ...] | None], [["a"], None], {("a",), None}),
        (set[Annotated[list[int], transform(tuple)]], [[1], [1]], {(1,)}),
    ],
)
def test_sets_of_hashable_containers(annotation, sent, got):
    """A tuple or frozenset of hashable items is hashable: a set may hold them."""

    async def fn(x) -> None:
        """Takes x."""

    fn.__annotations__ = {"x": annotation, "return": None}
    t = tool("v", name="sets")(fn)
    assert parse_tool_input(t, {"x": sent}) == {"x": got}


@pytest.mark.parametrize(
    "annotation",
    [
        set[list[int]],
        set[tuple[list[int], ...]],
        frozenset[dict[str, int]],
        # members that do not hash: the set could not be built on any call
        set[CaseBlind],
        frozenset[CaseBlind | None],
        set[tuple[CaseBlind, ...]],
        # what the set holds is what the transform made
        set[Annotated[str, transform(list)]],
    ],
)
def test_sets_of_unhashable_containers_are_refused_at_declaration(annotation):
    async def fn(x) -> None:
        """Takes x."""

    fn.__annotations__ = {"x": annotation, "return": None}
    with pytest.raises(TypeError, match="items must be hashable"):
        tool("v", name="sets")(fn)


def test_enum_member_itself_is_not_input():
    assert refused(takes_choices, {"color": Color.RED}) == (
        'color: expected one of "red", "green", got a value of type Color'
    )


# --- arrays -------------------------------------------------------------------------------------


@tool("v")
async def takes_arrays(
    a_list: list[int] | None = None,
    a_sequence: Sequence[str] | None = None,
    a_tuple: tuple[str, ...] | None = None,
    a_set: set[int] | None = None,
    a_frozenset: frozenset[str] | None = None,
) -> None:
    """Takes arrays."""


@pytest.mark.parametrize("make", [list, tuple])
def test_arrays_build_the_annotated_kind(make):
    data = {
        "a_list": make([1, 2.0]),
        "a_sequence": make(["x", "y"]),
        "a_tuple": make(["p"]),
        "a_set": make([3, 1, 3]),
        "a_frozenset": make(["k", "k"]),
    }
    out = parse_tool_input(takes_arrays, data)
    assert out == {
        "a_list": [1, 2],
        "a_sequence": ["x", "y"],
        "a_tuple": ("p",),
        "a_set": {1, 3},
        "a_frozenset": frozenset({"k"}),
    }
    assert [type(out[name]) for name in data] == [list, list, tuple, set, frozenset]
    assert type(out["a_list"][1]) is int
    for name in ("a_list", "a_sequence"):
        assert out[name] is not data[name]


def test_array_subclass_input_passes_as_the_annotated_kind():
    class MyList(list):
        __slots__ = ()

    class MyTuple(tuple):
        __slots__ = ()

    out = parse_tool_input(takes_arrays, {"a_list": MyList([1]), "a_tuple": MyTuple(("a",))})
    assert type(out["a_list"]) is list
    assert type(out["a_tuple"]) is tuple
    assert out == {
        "a_list": [1],
        "a_sequence": None,
        "a_tuple": ("a",),
        "a_set": None,
        "a_frozenset": None,
    }


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ({1, 2}, "a value of type set"),
        (frozenset({1}), "a value of type frozenset"),
        ("12", '"12"'),
        ({"0": 1}, "an object"),
        (b"12", "a value of type bytes"),
        (1, "1"),
        (range(2), "a value of type range"),
    ],
)
def test_arrays_are_lists_or_tuples_only(value, shown):
    assert refused(takes_arrays, {"a_list": value}) == f"a_list: expected an array, got {shown}"


def test_array_item_problems_carry_their_index():
    assert refused(takes_arrays, {"a_list": [1, "b", 3, None], "a_set": [1, 1.5]}) == (
        'a_list[1]: expected an integer, got "b"; a_list[3]: expected an integer, got null; '
        "a_set[1]: expected an integer, got 1.5"
    )


def test_none_in_a_list_is_refused_unless_the_item_type_admits_it():
    @tool("v")
    async def lists(
        plain: list[str] | None = None,
        nullable: list[str | None] | None = None,
        bounded: list[Annotated[int | None, at.Ge(0)]] | None = None,
    ) -> None:
        """Takes lists."""

    assert refused(lists, {"plain": ["a", None]}) == "plain[1]: expected a string, got null"
    out = parse_tool_input(lists, {"nullable": [None, "a"], "bounded": [None, 0]})
    assert out == {"plain": None, "nullable": [None, "a"], "bounded": [None, 0]}
    assert refused(lists, {"bounded": [None, -1]}) == "bounded[1]: expected at least 0, got -1"


# --- records ------------------------------------------------------------------------------------


@tool("v")
async def takes_records(
    counts: dict[str, int] | None = None,
    names: Mapping[str, str] | None = None,
    maybe: dict[str, int | None] | None = None,
) -> None:
    """Takes records."""


def test_records_pass_a_new_dict():
    counts = {"a": 1, "b": 2.0}
    names = types.MappingProxyType({"x": "y"})
    out = parse_tool_input(takes_records, {"counts": counts, "names": names})
    assert out == {"counts": {"a": 1, "b": 2}, "names": {"x": "y"}, "maybe": None}
    assert type(out["counts"]) is dict
    assert type(out["names"]) is dict
    assert out["counts"] is not counts
    assert type(out["counts"]["b"]) is int


def test_record_str_subclass_keys_become_plain_str():
    class Key(str):
        __slots__ = ()

    out = parse_tool_input(takes_records, {"counts": {Key("k"): 1}})
    (key,) = out["counts"]
    assert type(key) is str
    assert key == "k"


def test_records_refuse_non_str_keys_and_non_mappings():
    assert refused(takes_records, {"counts": {1: 2}}) == (
        "counts: expected string keys, got 1 as a key"
    )
    assert refused(takes_records, {"counts": {(1, 2): 2}}) == (
        "counts: expected string keys, got an array as a key"
    )
    assert refused(takes_records, {"counts": [["a", 1]]}) == (
        "counts: expected an object, got an array"
    )
    assert refused(takes_records, {"names": "ab"}) == 'names: expected an object, got "ab"'


def test_record_values_are_values_not_fields():
    assert refused(takes_records, {"counts": {"a": None, "color": "red"}}) == (
        'counts["a"]: expected an integer, got null; '
        'counts["color"]: expected an integer, got "red"'
    )
    out = parse_tool_input(takes_records, {"maybe": {"a": None, "b": 1}})
    assert out["maybe"] == {"a": None, "b": 1}


def test_record_key_is_quoted_and_escaped_in_the_path():
    assert refused(takes_records, {"counts": {'say "hi"': "x"}}) == (
        'counts["say \\"hi\\""]: expected an integer, got "x"'
    )
    long_key = "k" * 40
    assert refused(takes_records, {"counts": {long_key: "x"}}) == (
        f'counts["{"k" * 32}…"]: expected an integer, got "x"'
    )


# --- TypedDict ----------------------------------------------------------------------------------


class Person(TypedDict):
    name: str
    age: int | None
    nick: NotRequired[str]
    email: Required[str | None]


class Loose(TypedDict, total=False):
    a: int
    b: Required[str]


@tool("v")
async def takes_typeddicts(person: Person | None = None, loose: Loose | None = None) -> None:
    """Takes TypedDicts."""


def test_typeddict_passes_a_new_dict():
    person = {"name": "Ann", "age": 3.0, "nick": "A", "email": "a@b"}
    out = parse_tool_input(takes_typeddicts, {"person": person})
    assert out["person"] == {"name": "Ann", "age": 3, "nick": "A", "email": "a@b"}
    assert type(out["person"]) is dict
    assert out["person"] is not person
    assert type(out["person"]["age"]) is int


def test_typeddict_keys_left_out_or_null_are_absent():
    out = parse_tool_input(
        takes_typeddicts, {"person": {"name": "Ann", "email": "e"}, "loose": {"b": "x"}}
    )
    assert out == {"person": {"name": "Ann", "email": "e"}, "loose": {"b": "x"}}
    out = parse_tool_input(
        takes_typeddicts,
        {"person": {"name": "Ann", "age": None, "nick": None, "email": "e"}, "loose": {"b": "x"}},
    )
    assert out["person"] == {"name": "Ann", "email": "e"}


def test_typeddict_missing_required_keys():
    assert refused(takes_typeddicts, {"person": {}, "loose": {"a": 1}}) == (
        "person.name: missing, expected a string; person.email: missing, expected a string; "
        "loose.b: missing, expected a string"
    )


def test_typeddict_explicit_required_nullable_key_must_be_sent_non_null():
    assert refused(takes_typeddicts, {"person": {"name": "A", "email": None}}) == (
        "person.email: missing, expected a string"
    )


def test_typeddict_unknown_keys_are_refused_even_when_null():
    assert refused(
        takes_typeddicts, {"person": {"name": "A", "email": "e", "nmae": None, "zzz": 1}}
    ) == ("person.nmae: unknown field (did you mean 'name'?); person.zzz: unknown field")


def test_typeddict_refuses_non_mappings():
    assert refused(takes_typeddicts, {"person": ["name"]}) == (
        "person: expected an object, got an array"
    )


# --- dataclasses --------------------------------------------------------------------------------


@dataclasses.dataclass
class Box:
    width: int
    label: str = "box"
    note: str | None = None
    tags: list[str] = dataclasses.field(default_factory=list)
    depth: Annotated[int, at.Ge(0)] = 1


@dataclasses.dataclass
class Span:
    lo: int
    hi: int

    def __post_init__(self) -> None:
        if self.lo > self.hi:
            raise ValueError("lo must not exceed hi")


@dataclasses.dataclass
class Window:
    span: int

    def __post_init__(self) -> None:
        if self.span < 0:
            raise ValueError("a window cannot be negative")


@tool("v")
async def takes_dataclasses(
    box: Box | None = None,
    span: Span | None = None,
    window: Window | None = None,
    spans: list[Span] | None = None,
) -> None:
    """Takes dataclasses."""


def test_dataclass_passes_an_instance():
    out = parse_tool_input(
        takes_dataclasses,
        {"box": {"width": 2.0, "label": "b", "note": "n", "tags": ("t",), "depth": 0}},
    )
    assert out["box"] == Box(width=2, label="b", note="n", tags=["t"], depth=0)
    assert type(out["box"]) is Box
    assert type(out["box"].width) is int
    assert type(out["box"].tags) is list


def test_dataclass_fields_left_out_or_null_get_their_defaults():
    first = parse_tool_input(takes_dataclasses, {"box": {"width": 1}})["box"]
    second = parse_tool_input(
        takes_dataclasses,
        {"box": {"width": 1, "label": None, "note": None, "tags": None, "depth": None}},
    )["box"]
    assert first == second == Box(width=1, label="box", note=None, tags=[], depth=1)
    assert first.tags is not second.tags


def test_dataclass_field_admitting_none_without_default_gets_none():
    @dataclasses.dataclass
    class Maybe:
        value: int | None

    @tool("v")
    async def takes_maybe(m: Maybe) -> None:
        """Takes one."""

    assert parse_tool_input(takes_maybe, {"m": {}}) == {"m": Maybe(value=None)}
    assert parse_tool_input(takes_maybe, {"m": {"value": None}}) == {"m": Maybe(value=None)}


def test_a_dataclass_field_not_in_its_init_is_the_class_own_not_an_input_field():
    @dataclasses.dataclass
    class Counted:
        name: str
        count: int = dataclasses.field(init=False, default=0)

    @tool("v")
    async def takes_counted(c: Counted) -> None:
        """Takes one."""

    schema = tool_input_schema(takes_counted)["properties"]["c"]
    assert list(schema["properties"]) == ["name"]
    assert parse_tool_input(takes_counted, {"c": {"name": "a"}}) == {"c": Counted("a")}
    assert refused(takes_counted, {"c": {"name": "a", "count": 3}}) == "c.count: unknown field"


@dataclasses.dataclass(frozen=True)
class Settled:
    """Fields set once, by `__init__`."""

    name: te.Final[str]
    size: te.Final[Annotated[int, at.Ge(0)]] = 1
    tag: Annotated[te.Final[str], at.MaxLen(3)] = "a"


def test_a_final_dataclass_field_is_a_field_of_its_type():
    """`Final[X]` on a dataclass field is a field (the typing spec); it was refused as no type."""

    @tool("v")
    async def settle(s: Settled) -> None:
        """Takes one."""

    assert tool_input_schema(settle)["properties"]["s"] == {
        "type": "object",
        "description": "Fields set once, by `__init__`.",
        "properties": {
            "name": {"type": "string"},
            "size": {"type": "integer"},
            "tag": {"type": "string"},
        },
        "required": ["name"],
    }
    assert parse_tool_input(settle, {"s": {"name": "n"}}) == {"s": Settled("n")}
    assert refused(settle, {"s": {"name": 1, "size": -1, "tag": "long"}}) == (
        "s.name: expected a string, got 1; s.size: expected at least 0, got -1; "
        "s.tag: expected at most 3 characters, got 4"
    )


def test_a_numeric_bound_on_int_or_float_holds_for_both():
    @tool("v")
    async def takes_number(x: Annotated[int | float, at.Ge(0), at.Le(10)]) -> None:
        """Takes a number."""

    assert parse_tool_input(takes_number, {"x": 5}) == {"x": 5}
    assert parse_tool_input(takes_number, {"x": 5.5}) == {"x": 5.5}
    assert refused(takes_number, {"x": -1}) == "x: expected at least 0, got -1"
    assert refused(takes_number, {"x": 10.5}) == "x: expected at most 10, got 10.5"


def test_dataclass_missing_unknown_and_bounds():
    assert refused(takes_dataclasses, {"box": {"depth": -1, "widht": 3, "other": None}}) == (
        "box.width: missing, expected an integer; box.depth: expected at least 0, got -1; "
        "box.widht: unknown field (did you mean 'width'?); box.other: unknown field"
    )


def test_dataclass_constructor_value_error_is_a_refusal():
    assert refused(takes_dataclasses, {"span": {"lo": 3, "hi": 1}}) == (
        "span: lo must not exceed hi"
    )
    assert refused(takes_dataclasses, {"spans": [{"lo": 0, "hi": 1}, {"lo": 3, "hi": 1}]}) == (
        "spans[1]: lo must not exceed hi"
    )
    # the field's own name stands in the host's text: no path in front
    assert refused(takes_dataclasses, {"window": {"span": -1}}) == "a window cannot be negative"


# --- null means left out ------------------------------------------------------------------------


@tool("v")
async def takes_optional(a: int | None = None, b: Optional[str] = None, c: int = 7) -> None:  # noqa: UP045 - Optional is what is tested
    """Takes optional fields."""


def test_null_means_left_out_at_the_top_level():
    assert parse_tool_input(takes_optional, {"a": None, "b": None, "c": None}) == {
        "a": None,
        "b": None,
        "c": 7,
    }
    assert parse_tool_input(takes_optional, {"a": 1, "b": "x", "c": 2}) == {
        "a": 1,
        "b": "x",
        "c": 2,
    }


def test_null_for_a_required_field_is_missing():
    assert refused(takes_int, {"n": None}) == "n: missing, expected an integer"
    assert refused(takes_int, {}) == "n: missing, expected an integer"


def test_unknown_field_is_refused_even_when_null():
    assert refused(takes_optional, {"d": None}) == "d: unknown field"


def test_none_as_the_whole_input_means_no_fields():
    assert parse_tool_input(takes_optional, None) == {"a": None, "b": None, "c": 7}
    assert refused(takes_int, None) == "n: missing, expected an integer"


@dataclasses.dataclass
class Deep:
    entries: list[Person]
    note: str = "n"


def test_null_means_left_out_at_every_object_depth():
    @tool("v")
    async def deep(d: Deep) -> None:
        """Takes a deep value."""

    out = parse_tool_input(
        deep,
        {"d": {"entries": [{"name": "a", "age": None, "email": "e", "nick": None}], "note": None}},
    )
    assert out == {"d": Deep(entries=[{"name": "a", "email": "e"}], note="n")}
    assert refused(deep, {"d": {"entries": [{"name": None, "email": "e"}]}}) == (
        "d.entries[0].name: missing, expected a string"
    )


# --- the whole input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "text"),
    [
        ([], "expected an object, got an array"),
        ((), "expected an object, got an array"),
        ("text", 'expected an object, got "text"'),
        (5, "expected an object, got 5"),
        (True, "expected an object, got true"),
        ({1, 2}, "expected an object, got a value of type set"),
        (b"{}", "expected an object, got a value of type bytes"),
    ],
)
def test_input_that_is_no_mapping(data, text):
    assert refused(takes_optional, data) == text


def test_non_dict_mapping_inputs_are_read():
    data = types.MappingProxyType({"a": 1, "c": 2})
    assert parse_tool_input(takes_optional, data) == {"a": 1, "b": None, "c": 2}


def test_mapping_that_cannot_be_read_is_refused():
    class Broken(Mapping):
        def __getitem__(self, key):
            raise KeyError(key)

        def __iter__(self) -> Iterator[str]:
            raise RuntimeError("no")

        def __len__(self) -> int:
            return 1

    assert refused(takes_optional, Broken()) == (
        "expected an object, got a mapping that could not be read"
    )
    assert refused(takes_typeddicts, {"person": Broken()}) == (
        "person: expected an object, got a mapping that could not be read"
    )


@tool("v")
async def takes_bounded_record(labels: Annotated[dict[str, int], at.MinLen(2)]) -> None:
    """Takes labels."""


def test_a_bounded_record_is_counted_on_what_was_read_once():
    """A bounded record's length is counted on what was read when its values were checked: a
    mapping that would fail a second reading is never read again."""

    class Once(Mapping):
        read = False

        def __getitem__(self, key):
            return "one"

        def __iter__(self) -> Iterator[str]:
            if self.read:
                raise RuntimeError("read once")
            self.read = True
            return iter(["a"])

        def __len__(self) -> int:
            return 1

    assert refused(takes_bounded_record, {"labels": Once()}) == (
        'labels: expected at least 2 keys, got 1; labels["a"]: expected an integer, got "one"'
    )


def test_a_mapping_that_could_not_be_read_is_read_once_for_its_length():
    """A bounded record's mapping that failed when read is refused for that alone: it is not read
    a second time to count it, which would run its code again and, had that reading worked, count
    entries the message says could not be read."""

    class FailsFirst(Mapping):
        reads = 0

        def __getitem__(self, key):
            return 1

        def __iter__(self) -> Iterator[str]:
            self.reads += 1
            if self.reads == 1:
                raise RuntimeError("first read fails")
            return iter(["a"])

        def __len__(self) -> int:
            return 1

    sent = FailsFirst()
    assert refused(takes_bounded_record, {"labels": sent}) == (
        "labels: expected an object, got a mapping that could not be read"
    )
    assert sent.reads == 1


def test_a_mapping_read_as_an_object_is_called_one_where_it_is_refused():
    """Any `Mapping` is read as an object, so a refusal calls it one, as it calls a dict: a model
    told `a value of type mappingproxy` learns a Python class name, not what it sent."""

    class Counts(Mapping):
        def __getitem__(self, key):
            return {"a": 1}[key]

        def __iter__(self) -> Iterator[str]:
            return iter(["a"])

        def __len__(self) -> int:
            return 1

    for mapping in (types.MappingProxyType({"a": 1}), Counts()):
        assert refused(takes_optional, {"a": mapping}) == "a: expected an integer, got an object"


def test_non_str_field_names_are_refused():
    assert refused(takes_optional, {1: 2, "a": 1}) == "expected field names, got 1 as a key"


def test_str_subclass_field_names_are_read():
    assert parse_tool_input(takes_optional, {Name("a"): 1}) == {"a": 1, "b": None, "c": 7}


# --- unions -------------------------------------------------------------------------------------


@tool("v")
async def takes_unions(
    *,
    float_int: float | int | None = None,  # noqa: PYI041 - the branch order is tested
    int_float: int | float | None = None,  # noqa: PYI041
    int_str: int | str | None = None,
    bounded_or_str: Annotated[int, at.Ge(0)] | str | None = None,
    list_or_str: list[Annotated[int, at.Ge(0)]] | str | None = None,
    int_or_auto: int | Literal["auto"] | None = None,
) -> None:
    """Takes unions."""


@pytest.mark.parametrize(
    ("name", "value", "expected", "kind"),
    [
        ("float_int", 1, 1, int),  # the int branch takes it unchanged
        ("float_int", 1.5, 1.5, float),
        ("float_int", 2.0, 2.0, float),
        ("int_float", 2.0, 2.0, float),  # the float branch takes it unchanged
        ("int_float", 2.5, 2.5, float),
        ("int_float", 3, 3, int),
        ("int_str", "5", "5", str),
        ("int_str", 5, 5, int),
        ("int_str", 5.0, 5, int),  # no branch takes it unchanged: the first that converts
        ("int_or_auto", "auto", "auto", str),
        ("int_or_auto", 4.0, 4, int),
    ],
)
def test_union_picks_the_first_unchanged_branch_else_the_first_converting(
    name, value, expected, kind
):
    out = parse_tool_input(takes_unions, {name: value})
    assert out[name] == expected
    assert type(out[name]) is kind


def test_a_union_takes_a_value_read_from_json_as_sent_where_it_equals_a_choice():
    """JSON text makes new objects: `"auto"` read from it equals the Literal's value without being
    it, and that branch takes it as sent, so no later branch (nor its transform) is tried."""
    tried: list[str] = []

    def shout(text: str) -> str:
        tried.append(text)
        return text.upper()

    @tool("v")
    async def takes_mode(
        mode: Literal["auto", "manual"] | Annotated[str, transform(shout)],
        size: Literal[1000, 2000] | Annotated[int, transform(lambda n: tried.append(n) or n)],
    ) -> None:
        """Takes a mode and a size."""

    got = parse_tool_input(takes_mode, json.loads('{"mode": "auto", "size": 1000}'))
    assert got == {"mode": "auto", "size": 1000}
    assert tried == []


def test_a_union_never_runs_the_eq_of_a_value_of_a_class_of_its_own():
    """A branch may hand on a new value of the input's own class (here its transform builds one):
    its `__eq__` is the input's own code, never run, so that counts as a conversion, and the next
    branch is tried for one taking the value as sent."""

    class Loud(str):
        __slots__ = ()
        __hash__ = str.__hash__

        def __eq__(self, other: object) -> bool:
            raise RuntimeError("compared")

    tried: list[str] = []

    @tool("v")
    async def takes_loud(
        name: Annotated[str, transform(Loud)] | Annotated[str, transform(tried.append)],
    ) -> None:
        """Takes a name."""

    got = parse_tool_input(takes_loud, {"name": Loud("ada")})["name"]
    assert type(got) is Loud
    assert str.__str__(got) == "ada"
    assert tried == ["ada"]


def test_union_refusals():
    assert refused(
        takes_unions,
        {"float_int": True, "int_str": 1.5, "int_or_auto": "x", "bounded_or_str": [1]},
    ) == (
        "float_int: expected a number, got true; "  # not "a number or an integer": one holds both
        "int_str: expected an integer or a string, got 1.5; "
        "bounded_or_str: expected an integer or a string, got an array; "
        'int_or_auto: expected an integer or "auto", got "x"'
    )


class Circle(TypedDict):
    radius: float


class Square(TypedDict):
    side: float


def test_a_union_says_each_thing_it_takes_once():
    @tool("v")
    async def draw(
        *, shape: Circle | Square | None = None, ids: list[int] | list[str] | None = None
    ) -> None:
        """Draws."""

    assert refused(draw, {"shape": [1], "ids": "x"}) == (
        'shape: expected an object, got an array; ids: expected an array, got "x"'
    )


def test_a_union_of_objects_refuses_with_the_problems_of_the_closest_branch():
    """The first branch's problems told a model sending a square that `side` is unknown."""

    @tool("v")
    async def draw(*, shape: Circle | Square, shapes: list[Circle | Square] | None = None) -> None:
        """Draws."""

    assert refused(draw, {"shape": {"side": "2"}, "shapes": [{"radius": 1, "side": 1}, {}]}) == (
        'shape.side: expected a number, got "2"; '
        "shapes[0].side: unknown field; "  # as close to either: the first branch's
        "shapes[1].radius: missing, expected a number"
    )


def test_a_choice_names_its_values_whole_however_large():
    @tool("v")
    async def pick(*, n: Literal[0, 10**20]) -> None:
        """Picks."""

    assert refused(pick, {"n": 5}) == "n: expected one of 0, 100000000000000000000, got 5"


def test_a_refusal_names_twenty_choices_then_counts_them():
    many = enum.Enum("Many", {f"V{n}": f"v{n}" for n in range(25)})  # type: ignore[misc]

    @tool("v")
    async def pick(*, m: many) -> None:  # type: ignore[valid-type]
        """Picks."""

    named = ", ".join(f'"v{n}"' for n in range(20))
    assert refused(pick, {"m": "x"}) == f'm: expected one of {named}, … (25 choices), got "x"'


def test_a_union_names_the_choices_of_its_branches_as_one_list():
    shade = enum.Enum("Shade", {"DARK": "dark", "LIGHT": "light"})  # type: ignore[misc]

    @tool("v")
    async def pick(
        *,
        c: Color | shade,  # type: ignore[valid-type]
        n: Literal[1, 2] | Literal["x"] | bool,  # noqa: PYI030 - two branches of two JSON types
        same: Literal["red"] | Color,
    ) -> None:
        """Picks."""

    assert refused(pick, {"c": "blue", "n": "y", "same": "blue"}) == (
        'c: expected one of "red", "green", "dark", "light", got "blue"; '
        'n: expected one of 1, 2, "x" or a boolean, got "y"; '
        'same: expected one of "red", "green", got "blue"'
    )


def test_a_union_of_many_large_enums_names_twenty_choices_then_counts_them():
    """As for one choice: 100 enums of 25 values once made a 313 KB message."""
    enums = [
        enum.Enum(f"E{i}", {f"V{j}": f"value-{i}-{j}" for j in range(25)})  # type: ignore[misc]
        for i in range(100)
    ]
    union: Any = typing.Union[tuple(enums)]  # noqa: UP007 - built from a list

    @tool("v")
    async def pick(*, u: union) -> None:  # type: ignore[valid-type]
        """Picks."""

    named = ", ".join(f'"value-0-{j}"' for j in range(20))
    assert refused(pick, {"u": "x"}) == f'u: expected one of {named}, … (2500 choices), got "x"'


def test_a_declared_string_choice_is_named_whole_however_long():
    """A model cannot send a choice it was only shown cut: what the host declared is whole."""
    long = "a-very-long-choice-value-that-exceeds-thirty-two-characters"

    @tool("v")
    async def pick(
        *, a: Literal["a-very-long-choice-value-that-exceeds-thirty-two-characters", "b"]
    ) -> None:
        """Picks."""

    assert refused(pick, {"a": "x"}) == f'a: expected one of "{long}", "b", got "x"'


def test_union_reports_the_problems_of_a_branch_the_type_fit():
    assert refused(takes_unions, {"bounded_or_str": -1, "list_or_str": [1, -2]}) == (
        "bounded_or_str: expected at least 0, got -1; list_or_str[1]: expected at least 0, got -2"
    )


# --- NewType and TypeAliasType ------------------------------------------------------------------

UserId = NewType("UserId", int)
Tags = TypeAliasType("Tags", list[str])


def test_newtype_and_type_alias_act_as_their_base():
    @tool("v")
    async def aliases(user: UserId, tags: Tags) -> None:
        """Takes aliases."""

    out = parse_tool_input(aliases, {"user": 3.0, "tags": ("a",)})
    assert out == {"user": 3, "tags": ["a"]}
    assert type(out["user"]) is int
    assert type(out["tags"]) is list
    assert refused(aliases, {"user": "x", "tags": "a"}) == (
        'user: expected an integer, got "x"; tags: expected an array, got "a"'
    )


Score = te.NewType("Score", int)


def test_a_typing_extensions_newtype_acts_as_its_base():
    @tool("v")
    async def rate(score: Score) -> None:
        """Takes a score."""

    assert parse_tool_input(rate, {"score": 3.0}) == {"score": 3}


Handle = NewType("Handle", str)
Key = TypeAliasType("Key", str)


def test_a_record_keyed_by_an_alias_of_str_takes_string_keys():
    @tool("v")
    async def scores(by_handle: dict[Handle, int], by_key: Mapping[Key, int]) -> None:
        """Takes scores."""

    out = parse_tool_input(scores, {"by_handle": {"ann": 1}, "by_key": {"bob": 2.0}})
    assert out == {"by_handle": {"ann": 1}, "by_key": {"bob": 2}}
    assert scores.input.fields[0].type == scores.input.fields[1].type
    assert refused(scores, {"by_handle": {1: 1}, "by_key": {}}) == (
        "by_handle: expected string keys, got 1 as a key"
    )


K = TypeVar("K")
V = TypeVar("V")
Pairs = TypeAliasType("Pairs", dict[str, list[V]], type_params=(V,))
Swapped = TypeAliasType("Swapped", dict[str, tuple[V, ...]] | list[K], type_params=(K, V))
LaterItems = TypeAliasType("LaterItems", list["LaterItem"])
LaterItemsText = TypeAliasType("LaterItemsText", "list[LaterItem]")


class LaterItem(TypedDict):
    """Defined after the alias that names it."""

    name: str


def test_a_generic_alias_given_arguments_acts_as_its_base_with_them():
    @tool("v")
    async def f(pairs: Pairs[int], swapped: Swapped[str, bool] | None = None) -> None:
        """Takes generic aliases."""

    assert parse_tool_input(f, {"pairs": {"a": [1.0]}}) == {"pairs": {"a": [1]}, "swapped": None}
    assert parse_tool_input(f, {"pairs": {}, "swapped": {"k": [True]}})["swapped"] == {"k": (True,)}
    assert parse_tool_input(f, {"pairs": {}, "swapped": ["s"]})["swapped"] == ["s"]
    assert refused(f, {"pairs": {"a": ["x"]}}) == 'pairs["a"][0]: expected an integer, got "x"'


Row = TypeAliasType("Row", list[V], type_params=(V,))
Grid = TypeAliasType("Grid", Row[Row[V]], type_params=(V,))


def test_a_generic_alias_given_itself_as_its_argument_is_no_cycle():
    @tool("v")
    async def f(matrix: Row[Row[float]], grid: Grid[int]) -> None:
        """Takes nested rows."""

    assert parse_tool_input(f, {"matrix": [[1]], "grid": [[2.0]]}) == {
        "matrix": [[1.0]],
        "grid": [[2]],
    }
    assert tool_input_schema(f)["properties"]["grid"] == {
        "type": "array",
        "items": {"type": "array", "items": {"type": "integer"}},
    }
    assert (
        refused(f, {"matrix": [[1]], "grid": [["x"]]}) == 'grid[0][0]: expected an integer, got "x"'
    )


Item = te.TypeVar("Item", default=int)
Batch = TypeAliasType("Batch", dict[str, list[Item]], type_params=(K, Item))


Kind = te.TypeVar("Kind")
Same = te.TypeVar("Same", default=Kind)
Many = te.TypeVar("Many", default=list[Kind])
Index = TypeAliasType("Index", dict[str, Same], type_params=(Kind, Same))
Groups = TypeAliasType("Groups", dict[str, Many], type_params=(Kind, Many))


def test_a_default_naming_an_earlier_type_parameter_takes_its_argument():
    """PEP 696: `Same` defaults to whatever `Kind` was given, not to the type variable."""

    @tool("v")
    async def f(index: Index[int], groups: Groups[int]) -> None:  # type: ignore[type-arg]
        """Takes an index."""

    assert parse_tool_input(f, {"index": {"a": 1.0}, "groups": {"b": [2.0]}}) == {
        "index": {"a": 1},
        "groups": {"b": [2]},
    }


def test_a_generic_alias_fills_a_type_parameter_left_out_with_its_default():
    @tool("v")
    async def f(batch: Batch[str]) -> None:
        """Takes a batch of ints by default."""

    assert parse_tool_input(f, {"batch": {"a": [1.0]}}) == {"batch": {"a": [1]}}
    assert refused(f, {"batch": {"a": ["x"]}}) == 'batch["a"][0]: expected an integer, got "x"'


@pytest.mark.skipif(sys.version_info < (3, 11), reason="3.10 does not look inside list[...]")
def test_names_quoted_inside_an_alias_are_resolved():
    @tool("v")
    async def f(items: LaterItems) -> None:
        """Takes items named before their class was defined."""

    assert parse_tool_input(f, {"items": [{"name": "a"}]}) == {"items": [{"name": "a"}]}


def test_an_alias_of_a_quoted_type_is_resolved():
    @tool("v")
    async def f(items: LaterItemsText) -> None:
        """Takes items named before their class was defined."""

    assert parse_tool_input(f, {"items": [{"name": "a"}]}) == {"items": [{"name": "a"}]}


def test_a_name_quoted_inside_an_alias_and_never_defined_names_the_field_at_the_toolkit():
    Missing = TypeAliasType("Missing", "list[NeverDefinedHere]")  # noqa: F821 - the subject

    @tool("v")
    async def f(items: Missing) -> None:
        """Takes items of a class that does not exist."""

    with pytest.raises(TypeError, match=r"(?s)(?=.*'items').*NeverDefinedHere"):
        create_tool_registry([define_toolkit("v", [f])])


@pytest.mark.skipif(sys.version_info < (3, 12), reason="the `type` statement is Python 3.12+")
def test_a_type_statement_naming_a_later_class_resolves_when_the_toolkit_is_built():
    namespace: dict[str, Any] = {"tool": tool, "TypedDict": TypedDict}
    exec(  # noqa: S102 - our own source text; the `type` statement needs 3.12 to parse
        "type Box[T] = list[T]\n"
        "type Later = Thing\n"
        "async def f(boxes: Box[int], later: Later) -> None:\n"
        "    'Takes aliases.'\n"
        "t = tool('v')(f)\n"
        "class Thing(TypedDict):\n"
        "    n: int\n",
        namespace,
    )
    t = namespace["t"]
    create_tool_registry([define_toolkit("v", [t])])
    assert parse_tool_input(t, {"boxes": [1], "later": {"n": 2}}) == {
        "boxes": [1],
        "later": {"n": 2},
    }


@pytest.mark.skipif(sys.version_info < (3, 12), reason="the `type` statement is Python 3.12+")
def test_a_type_statement_quoting_its_own_type_parameter_resolves():
    namespace: dict[str, Any] = {"tool": tool}
    exec(  # noqa: S102 - our own source text; the `type` statement needs 3.12 to parse
        'type Pairs[T] = "list[T]"\n'
        "async def f(pairs: Pairs[int]) -> None:\n"
        "    'Takes a quoted generic alias.'\n"
        "t = tool('v')(f)\n",
        namespace,
    )
    t = namespace["t"]
    assert parse_tool_input(t, {"pairs": [1, 2]}) == {"pairs": [1, 2]}
    assert refused(t, {"pairs": ["x"]}) == 'pairs[0]: expected an integer, got "x"'


@pytest.mark.skipif(sys.version_info >= (3, 11), reason="3.11 resolves names inside list[...]")
def test_a_quoted_name_inside_list_on_python_3_10_says_to_quote_the_whole_annotation():
    async def f(items: list["LaterItem"]) -> None:
        """Takes items."""

    with pytest.raises(TypeError, match="quote the whole annotation"):
        tool("v")(f)


# --- bounds -------------------------------------------------------------------------------------


@tool("v")
async def takes_bounds(
    *,
    gt: Annotated[int, at.Gt(0)] = 1,
    ge: Annotated[int, at.Ge(0)] = 0,
    lt: Annotated[float, at.Lt(1)] = 0,
    le: Annotated[int, at.Le(3)] = 0,
    step: Annotated[int, at.MultipleOf(5)] = 0,
    text: Annotated[str, at.MaxLen(3)] = "",
    one: Annotated[str, at.MaxLen(1)] = "",
    items: Annotated[list[int], at.MaxLen(5)] = (),
    some: Annotated[list[int], at.MinLen(1)] = (0,),
    keys: Annotated[dict[str, int], at.MaxLen(1)] | None = None,
    pair: Annotated[dict[str, int], at.MinLen(2)] | None = None,
) -> None:
    """Takes bounded values."""


def test_bound_messages():
    assert refused(
        takes_bounds,
        {
            "gt": 0,
            "ge": -1,
            "lt": 1,
            "le": 4,
            "step": 7,
            "text": "abcd",
            "one": "ab",
            "items": [1] * 7,
            "some": [],
        },
    ) == (
        "gt: expected more than 0, got 0; ge: expected at least 0, got -1; "
        "lt: expected less than 1, got 1.0; le: expected at most 3, got 4; "
        "step: expected a multiple of 5, got 7; "
        "text: expected at most 3 characters, got 4; one: expected at most 1 character, got 2; "
        "items: expected at most 5 items, got 7; some: expected at least 1 item, got 0"
    )
    assert refused(takes_bounds, {"keys": {"a": 1, "b": 2}, "pair": {"a": 1}}) == (
        "keys: expected at most 1 key, got 2; pair: expected at least 2 keys, got 1"
    )


def test_bounds_at_their_edges_are_accepted():
    out = parse_tool_input(
        takes_bounds,
        {
            "gt": 1,
            "ge": 0,
            "lt": 0.999,
            "le": 3,
            "step": -10,
            "text": "abc",
            "one": "a",
            "items": [1] * 5,
            "some": [1],
            "keys": {"a": 1},
            "pair": {"a": 1, "b": 2},
        },
    )
    assert out["step"] == -10
    assert out["items"] == [1, 1, 1, 1, 1]


def test_field_named_like_the_unit_still_carries_its_path():
    # decision 2: the library's own messages always carry the path
    assert refused(takes_bounds, {"items": [0] * 6}) == "items: expected at most 5 items, got 6"


def test_several_bounds_of_one_value_are_all_listed():
    @tool("v")
    async def multi(n: Annotated[int, at.Ge(10), at.MultipleOf(3)]) -> None:
        """Takes one."""

    assert refused(multi, {"n": 4}) == (
        "n: expected at least 10, got 4; n: expected a multiple of 3, got 4"
    )


# --- fine points --------------------------------------------------------------------------------


def test_float_bound_sees_the_converted_float():
    @tool("v")
    async def f(x: Annotated[float, at.Ge(0.5)]) -> None:
        """Takes one."""

    assert refused(f, {"x": 0}) == "x: expected at least 0.5, got 0.0"
    out = parse_tool_input(f, {"x": 1})
    assert out == {"x": 1.0}
    assert type(out["x"]) is float


def test_a_numeric_bound_holds_on_a_union_of_numbers():
    @tool("v")
    async def f(x: Annotated[int | float, at.Ge(0), at.Lt(10)] = 0) -> None:
        """Takes one."""

    assert parse_tool_input(f, {"x": 1}) == {"x": 1}
    assert parse_tool_input(f, {"x": 1.5}) == {"x": 1.5}
    assert refused(f, {"x": -1}) == "x: expected at least 0, got -1"
    assert refused(f, {"x": 10.0}) == "x: expected less than 10, got 10.0"
    assert refused(f, {"x": "1"}) == 'x: expected a number, got "1"'


@pytest.mark.parametrize(
    ("annotation", "says"),
    [
        (Annotated[int | str, at.Ge(0)], "cannot apply to union"),
        (Annotated[Literal[1, 2, 3], at.Ge(2)], "list only the values it allows"),
    ],
)
def test_a_numeric_bound_on_anything_but_numbers_is_a_type_error(annotation, says):
    namespace = {"A": annotation}
    exec("async def f(x: A) -> None:\n    'Takes one.'", namespace)  # noqa: S102 - our own text
    with pytest.raises(TypeError, match=rf"(?s)(?=.*field 'x' of tool 'f').*{says}"):
        tool("v")(namespace["f"])


def test_set_length_is_counted_after_duplicates_merge():
    @tool("v")
    async def f(
        most: Annotated[set[int], at.MaxLen(2)] | None = None,
        least: Annotated[frozenset[str], at.MinLen(3)] | None = None,
    ) -> None:
        """Takes sets."""

    assert parse_tool_input(f, {"most": [1, 1, 2, 2]})["most"] == {1, 2}
    assert refused(f, {"least": ["a", "a", "b"]}) == (
        "least: expected at least 3 distinct items, got 2"  # a model sent three: say why two
    )
    # the int 1 and the float 1.0 are one set member once converted; a set is built only until
    # it holds more than its bound (items sharing a hash are quadratic to build), so the count
    # past it is not known
    assert parse_tool_input(f, {"most": [1, 1.0, 2]})["most"] == {1, 2}
    assert refused(f, {"most": [1, 1.0, 2, 3]}) == (
        "most: expected at most 2 distinct items, got more than 2"
    )


def test_a_length_bound_is_listed_with_the_problems_of_the_items():
    """Every problem is listed: a model fixing a thousand items learns the length too."""

    @tool("v")
    async def take(
        *,
        few: Annotated[list[Annotated[int, at.Ge(0)]], at.MaxLen(2)] | None = None,
        some: Annotated[dict[str, int], at.MinLen(3)] | None = None,
    ) -> None:
        """Takes a few."""

    assert refused(take, {"few": [-1] * 1_000}) == (
        "few: expected at most 2 items, got 1000; "
        + "; ".join(f"few[{i}]: expected at least 0, got -1" for i in range(9))
        + "; and 991 more"
    )
    assert refused(take, {"few": [1, 2, "x"], "some": {"a": "x"}}) == (
        'few: expected at most 2 items, got 3; few[2]: expected an integer, got "x"; '
        'some: expected at least 3 keys, got 1; some["a"]: expected an integer, got "x"'
    )
    assert refused(take, {"few": [1, "x"]}) == 'few[1]: expected an integer, got "x"'


ShortList = TypeAliasType("ShortList", Annotated[list[int], at.MaxLen(3)])
LowerTags = TypeAliasType(
    "LowerTags", Annotated[frozenset[str], transform(lambda t: frozenset(x.lower() for x in t))]
)


def test_a_length_bound_is_listed_only_for_a_value_of_its_own_kind():
    """Not counted on what is no list or mapping (nor twice through an alias of a bounded list)."""

    @tool("v")
    async def take(
        *,
        xs: Annotated[list[int], at.MaxLen(2)] | None = None,
        rec: Annotated[dict[str, int], at.MaxLen(2)] | None = None,
        either: Annotated[list[int], at.MaxLen(2)] | str | None = None,
        again: Annotated[ShortList, at.MaxLen(3)] | None = None,
        tags: Annotated[LowerTags, at.MaxLen(2)] | None = None,
    ) -> None:
        """Takes things."""

    three = {"a": 1, "b": 2, "c": 3}
    assert refused(take, {"xs": three}) == "xs: expected an array, got an object"
    assert refused(take, {"rec": [1, 2, 3]}) == "rec: expected an object, got an array"
    assert refused(take, {"either": three}) == (
        "either: expected an array or a string, got an object"
    )
    assert refused(take, {"again": [1, 2, 3, 4]}) == "again: expected at most 3 items, got 4"
    proxy = types.MappingProxyType({"a": "x", "b": 1, "c": 2})  # any mapping is counted
    assert refused(take, {"rec": proxy}) == (
        'rec: expected at most 2 keys, got 3; rec["a"]: expected an integer, got "x"'
    )
    # the bound around an alias with a transform holds on what the transform made
    assert parse_tool_input(take, {"tags": ["A", "a", "b"]})["tags"] == frozenset({"a", "b"})


Positive = TypeAliasType("Positive", Annotated[int, at.Gt(0)])


def test_bounds_around_an_alias_of_bounds_are_tested_with_the_alias_own():
    """Every problem is listed: a model sending four items learns both bounds at once."""

    @tool("v")
    async def take(
        *,
        tighter: Annotated[ShortList, at.MaxLen(2)] | None = None,
        longer: Annotated[ShortList, at.MinLen(2)] | None = None,
        even: Annotated[Positive, at.MultipleOf(2)] | None = None,
    ) -> None:
        """Takes things."""

    assert refused(take, {"tighter": [1, 2, 3, 4], "longer": ["x"], "even": -1}) == (
        "tighter: expected at most 3 items, got 4; tighter: expected at most 2 items, got 4; "
        'longer: expected at least 2 items, got 1; longer[0]: expected an integer, got "x"; '
        "even: expected more than 0, got -1; even: expected a multiple of 2, got -1"
    )
    assert refused(take, {"tighter": [1, 2, 3]}) == "tighter: expected at most 2 items, got 3"


NonEmpty = TypeAliasType("NonEmpty", Annotated[list[int], at.MinLen(1)])


def test_a_predicate_around_an_alias_sees_only_what_the_alias_passed():
    """A predicate may rely on the bounds it refines: `xs[0]` on an empty list is a refusal,
    not an `IndexError` out of `registry.run`.
    """

    @tool("v")
    async def take(xs: Annotated[NonEmpty, at.Predicate(lambda xs: xs[0] > 0)]) -> None:
        """Takes a list whose first item is positive."""

    assert refused(take, {"xs": []}) == "xs: expected at least 1 item, got 0"
    assert refused(take, {"xs": [-1]}) == "xs: expected a value passing its check, got an array"


def test_a_predicate_may_rely_on_the_checks_before_it():
    """Within one `Annotated` too: every problem is listed, but a predicate that fails on a value
    the checks before it refused (`xs[0]` on an empty list) adds none, and nothing escapes.
    """

    def first_positive(xs: list[int]) -> bool:
        return xs[0] > 0

    def no_leading_zero(s: str) -> bool:
        return s[0] != "0"

    @tool("v")
    async def take(
        xs: Annotated[list[int], at.MinLen(1), at.Predicate(first_positive), at.MaxLen(2)],
        code: Annotated[str, at.MinLen(1), at.Predicate(no_leading_zero), at.MaxLen(3)],
    ) -> None:
        """Takes a list whose first item is positive, and a code."""

    assert refused(take, {"xs": [], "code": ""}) == (
        "xs: expected at least 1 item, got 0; code: expected at least 1 character, got 0"
    )
    assert refused(take, {"xs": [-1, 2, 3], "code": "0123"}) == (
        "xs: expected a value passing first_positive, got an array; "
        "xs: expected at most 2 items, got 3; "
        'code: expected a value passing no_leading_zero, got "0123"; '
        "code: expected at most 3 characters, got 4"
    )


def test_a_predicate_failing_on_a_value_no_check_refused_is_the_host_bug():
    @tool("v")
    async def take(xs: Annotated[list[int], at.Predicate(lambda xs: xs[0] > 0)]) -> None:
        """Takes a list whose first item is positive."""

    with pytest.raises(IndexError):
        parse_tool_input(take, {"xs": []})


@pytest.mark.parametrize(
    ("step", "value", "ok"),
    [
        (0.5, 1.5, True),
        (0.5, 1.25, False),
        (0.1, 0.3, 0.3 % 0.1 == 0),  # False: `value % m == 0` taken literally
        (0.25, -0.75, True),
        (3, 9.0, True),
        (3, 10.0, False),
    ],
)
def test_multiple_of_means_modulo_is_zero(step, value, ok):
    @tool("v")
    async def f(x: Annotated[float, at.MultipleOf(step)]) -> None:
        """Takes one."""

    if ok:
        assert parse_tool_input(f, {"x": value}) == {"x": value}
    else:
        assert refused(f, {"x": value}) == f"x: expected a multiple of {step}, got {value!r}"


def test_none_never_reaches_a_bound_or_a_transform():
    seen = []

    def keep(value):
        seen.append(value)
        return value

    @tool("v")
    async def f(
        n: Annotated[int | None, at.Ge(0), transform(keep)] = None,
        m: Annotated[int, at.Ge(0), transform(keep)] | None = None,
        xs: list[Annotated[int | None, at.Ge(0), transform(keep)]] | None = None,
    ) -> None:
        """Takes optional bounded values."""

    assert parse_tool_input(f, {"n": None, "m": None, "xs": [None, 2]}) == {
        "n": None,
        "m": None,
        "xs": [None, 2],
    }
    assert seen == [2]
    assert refused(f, {"n": -1, "m": -2}) == (
        "n: expected at least 0, got -1; m: expected at least 0, got -2"
    )
    assert seen == [2]


def test_true_never_matches_an_int_field_or_a_float_field():
    assert refused(takes_int, {"n": True}) == "n: expected an integer, got true"
    assert refused(takes_float, {"x": False}) == "x: expected a number, got false"


def test_length_bounds_count_items_through_an_optional_inner_annotation():
    @tool("v")
    async def f(
        a: Annotated[Annotated[list[int], at.MinLen(1)] | None, at.MaxLen(2)] = None,
    ) -> None:
        """Takes a short list."""

    assert refused(f, {"a": [1, 2, 3]}) == "a: expected at most 2 items, got 3"


def test_a_host_check_on_a_whole_list_holds():
    @tool("v")
    async def pairs(xs: Annotated[list[int], at.Predicate(lambda v: len(v) % 2 == 0)]) -> None:
        """Takes an even number of items."""

    assert parse_tool_input(pairs, {"xs": [1, 2]}) == {"xs": [1, 2]}
    assert refused(pairs, {"xs": [1]}) == "xs: expected a value passing its check, got an array"


# --- transforms ---------------------------------------------------------------------------------


def tenfold_even(value: int) -> int:
    if value % 2:
        raise ValueError("value must be even")
    return value * 10


def test_transform_replaces_the_checked_value():
    @tool("v")
    async def f(value: Annotated[int, at.Ge(0), transform(tenfold_even)] = 0) -> None:
        """Takes one."""

    out = parse_tool_input(f, {"value": 4.0})
    assert out == {"value": 40}


def test_transform_runs_after_every_bound():
    seen = []

    def keep(value):
        seen.append(value)
        return value

    @tool("v")
    async def f(
        n: Annotated[int, transform(keep), at.Ge(0), at.Le(5)] = 0,
        s: Annotated[str, transform(keep), at.MinLen(2)] = "ab",
    ) -> None:
        """Takes one."""

    assert refused(f, {"n": 9, "s": "a"}) == (
        "n: expected at most 5, got 9; s: expected at least 2 characters, got 1"
    )
    assert seen == []
    parse_tool_input(f, {"n": 3, "s": "abc"})
    assert seen == [3, "abc"]


def test_a_transform_of_a_whole_list_replaces_it():
    @tool("v")
    async def total(xs: Annotated[list[int], transform(sum)]) -> None:
        """Takes numbers, as their sum."""

    assert parse_tool_input(total, {"xs": [1, 2]}) == {"xs": 3}


def test_the_schema_shows_the_type_a_transform_starts_from():
    """A list of numbers a transform sums to an int is still listed as a list of integers."""

    @tool("v")
    async def total(xs: Annotated[list[int], at.MinLen(1), transform(sum)]) -> None:
        """Takes numbers, as their sum."""

    assert tool_input_schema(total)["properties"]["xs"] == {
        "type": "array",
        "items": {"type": "integer"},
    }
    assert parse_tool_input(total, {"xs": [1, 2]}) == {"xs": 3}


def test_parse_tool_input_never_runs_the_function():
    ran = []

    @tool("v")
    async def record(n: int) -> None:
        """Records that it ran."""
        ran.append(n)

    assert parse_tool_input(record, {"n": 1}) == {"n": 1}
    with pytest.raises(ToolRefusal):
        parse_tool_input(record, {"n": "x"})
    assert ran == []
    asyncio.run(record.fn(n=2))
    assert ran == [2]  # the function itself records, so the check above could fail


def test_transforms_run_in_order():
    @tool("v")
    async def f(
        s: Annotated[str, transform(str.strip), transform(str.upper), transform(len)],
    ) -> None:
        """Takes one."""

    assert parse_tool_input(f, {"s": "  ab "}) == {"s": 2}


def test_transform_value_error_text_follows_the_whole_word_rule():
    @tool("v")
    async def f(
        value: Annotated[int, transform(tenfold_even)] = 0,
        other: Annotated[int, transform(tenfold_even)] = 0,
        values: list[Annotated[int, transform(tenfold_even)]] | None = None,
        labels: dict[str, Annotated[int, transform(tenfold_even)]] | None = None,
    ) -> None:
        """Takes values."""

    assert refused(f, {"value": 1, "other": 3, "values": [2, 5], "labels": {"color": 1}}) == (
        "value must be even; other: value must be even; values[1]: value must be even; "
        'labels["color"]: value must be even'
    )


def test_transform_value_error_naming_the_list_field_drops_the_path():
    def check_tag(tag: str) -> str:
        if not tag.islower():
            raise ValueError("tags must be lowercase")
        return tag

    @tool("v")
    async def f(tags: list[Annotated[str, transform(check_tag)]]) -> None:
        """Takes tags."""

    # the last named part of `tags[1]` is `tags`, and it stands in the message
    assert refused(f, {"tags": ["a", "B"]}) == "tags must be lowercase"


def test_transform_other_exceptions_pass_through():
    def boom(value):
        raise KeyError(value)

    @tool("v")
    async def f(n: Annotated[int, transform(boom)] = 0) -> None:
        """Takes one."""

    with pytest.raises(KeyError):
        parse_tool_input(f, {"n": 1})
    registry = create_tool_registry([define_toolkit("v", [f])])
    with pytest.raises(KeyError):
        run(registry.run("f", {"n": 1}))


def test_transform_decimal_needs_its_error_turned_into_a_value_error():
    """docs/types.md: `Decimal("x")` raises `InvalidOperation`, an `ArithmeticError`, which passes
    through; a transform that turns it into a `ValueError` refuses the input."""
    import decimal  # noqa: PLC0415 - this test's alone

    def to_decimal(text: str) -> decimal.Decimal:
        try:
            return decimal.Decimal(text)
        except decimal.InvalidOperation:
            raise ValueError("expected a decimal number such as 12.50") from None

    @tool("v")
    async def bare(price: Annotated[str, transform(decimal.Decimal)]) -> None:
        """Takes a price."""

    @tool("v")
    async def wrapped(price: Annotated[str, transform(to_decimal)]) -> None:
        """Takes a price."""

    assert not issubclass(decimal.InvalidOperation, ValueError)
    with pytest.raises(decimal.InvalidOperation):
        parse_tool_input(bare, {"price": "twelve"})
    assert refused(wrapped, {"price": "twelve"}) == (
        "price: expected a decimal number such as 12.50"
    )
    assert parse_tool_input(wrapped, {"price": "12.50"}) == {"price": decimal.Decimal("12.50")}


def test_a_traceback_through_a_validator_shows_its_source_lines():
    """A host's exception passing through the generated validator reads like any other frame."""

    def boom(value):
        raise KeyError(value)

    @tool("v")
    async def f(n: Annotated[int, transform(boom)] = 0) -> None:
        """Takes one."""

    with pytest.raises(KeyError) as info:
        parse_tool_input(f, {"n": 1})
    frames = [
        frame
        for frame in traceback.extract_tb(info.value.__traceback__)
        if frame.filename.startswith("<adecore_tools validator")
    ]
    assert frames
    assert all(frame.line for frame in frames)


# --- required_field -----------------------------------------------------------------------------


class Entry(TypedDict):
    name: Annotated[str, required_field("a label is needed")]


@tool("v")
async def takes_required(
    text: Annotated[str, required_field("note_write needs text")],
    title: Annotated[str, required_field("please give a heading")],
    body: Annotated[str, required_field("somebody must write")],
    entries: list[Entry] | None = None,
) -> None:
    """Takes required strings."""


@pytest.mark.parametrize("blank", [None, "", " ", "\t\n ", "\u3000"])
def test_required_field_refuses_missing_empty_and_blank(blank):
    data = {"text": blank, "title": blank, "body": blank}
    if blank is None:
        data = {}
    assert refused(takes_required, data) == (
        "note_write needs text; title: please give a heading; body: somebody must write"
    )


def test_required_field_passes_the_value_unchanged():
    out = parse_tool_input(takes_required, {"text": " a ", "title": "\tT", "body": "b\n"})
    assert out == {"text": " a ", "title": "\tT", "body": "b\n", "entries": None}


def test_required_field_inside_nested_objects():
    assert (
        refused(
            takes_required,
            {"text": "t", "title": "t", "body": "b", "entries": [{"name": "a"}, {}, {"name": " "}]},
        )
        == "entries[1].name: a label is needed; entries[2].name: a label is needed"
    )


def test_required_field_still_checks_the_type():
    assert refused(takes_required, {"text": 5, "title": "t", "body": "b"}) == (
        "text: expected a string, got 5"
    )


MaybeText = Annotated[str | None, required_field("the note needs text")]


class NoteKeys(TypedDict):
    text: MaybeText


@dataclasses.dataclass
class NoteFields:
    text: MaybeText


@pytest.mark.parametrize("kind", [NoteKeys, NoteFields])
def test_required_field_makes_a_none_admitting_key_or_field_required(kind):
    """As for a parameter: `required_field` says the field must be sent, though it admits None."""

    @tool("v")
    async def write(*, note: kind, text: MaybeText) -> None:  # type: ignore[valid-type]
        """Writes."""

    assert refused(write, {"note": {}}) == "the note needs text; the note needs text"
    assert refused(write, {"note": {"text": None}, "text": " "}) == (
        "the note needs text; the note needs text"
    )
    assert parse_tool_input(write, {"note": {"text": "a"}, "text": "b"})["text"] == "b"


def test_required_field_under_not_required_is_a_contradiction():
    class Item(TypedDict):
        title: NotRequired[Annotated[str, required_field("a title is needed")]]

    with pytest.raises(ValueError, match="required_field"):

        @tool("v")
        async def f(item: Item) -> None:
            """Takes one."""


# --- problem order and count --------------------------------------------------------------------


@tool("v")
async def takes_eight(
    *,
    a: int = 0,
    b: int = 0,
    c: int = 0,
    d: int = 0,
    e: int = 0,
    f: int = 0,
    g: int = 0,
    h: int = 0,
) -> None:
    """Takes eight."""


def test_declared_names_are_never_cut_and_names_from_the_input_are():
    """Paths join the names; only what the input sent is cut (it could be anything)."""
    long_name = "maximum_number_of_results_to_return"
    namespace: dict[str, Any] = {"TypedDict": TypedDict}
    exec(  # noqa: S102 - our own source text
        "Spaced = TypedDict('Spaced', {'a key with spaces, declared by the host': int})\n"
        f"async def f({long_name}: int = 0, spaced: Spaced | None = None) -> None:\n"
        "    'Takes two.'",
        namespace,
    )
    t = tool("v")(namespace["f"])
    assert refused(t, {long_name: "x"}) == f'{long_name}: expected an integer, got "x"'
    assert refused(t, {"spaced": {"a key with spaces, declared by the host": "x"}}) == (
        'spaced["a key with spaces, declared by the host"]: expected an integer, got "x"'
    )
    sent = "an_unknown_name_sent_by_the_model_that_is_long"
    assert refused(t, {sent: 1}) == f'["{sent[:32]}…"]: unknown field'


def test_problems_in_field_order_then_unknown_fields_in_input_order():
    assert refused(takes_eight, {"zz": 1, "h": "x", "yy": 2, "a": "x", "ww": None}) == (
        'a: expected an integer, got "x"; h: expected an integer, got "x"; '
        "zz: unknown field; yy: unknown field; ww: unknown field"
    )


@pytest.mark.parametrize(
    ("extra", "more"), [(0, ""), (2, ""), (3, "; and 1 more"), (5, "; and 3 more")]
)
def test_at_most_ten_problems_then_a_count(extra, more):
    data: dict[str, Any] = dict.fromkeys("abcdefgh", "x")
    data.update({f"x{i}": 1 for i in range(extra)})
    listed = [f'{name}: expected an integer, got "x"' for name in "abcdefgh"]
    listed += [f"x{i}: unknown field" for i in range(min(extra, 2))]
    assert refused(takes_eight, data) == "; ".join(listed) + more


def test_more_than_ten_fields_wrong_or_missing_then_unknown_ones_are_all_counted():
    """Ten problems are listed, in field order (a missing field where it stands), then the
    count of the rest, unknown fields among them."""
    namespace: dict[str, object] = {}
    params = ", ".join(f"f{n:02d}: int" for n in range(12))
    exec(f'async def wide(*, {params}) -> None:\n    """Many fields."""\n', namespace)  # noqa: S102
    t = tool("v")(namespace["wide"])
    data: dict[str, Any] = {f"f{n:02d}": "x" for n in range(1, 12)}  # f00 missing
    data.update({"zz": 1, "yy": 2})
    listed = ["f00: missing, expected an integer"]
    listed += [f'f{n:02d}: expected an integer, got "x"' for n in range(1, 10)]
    assert refused(t, data) == "; ".join(listed) + "; and 4 more"


def test_count_includes_nested_problems_beyond_ten():
    @tool("v")
    async def f(xs: list[int]) -> None:
        """Takes many."""

    text = refused(f, {"xs": ["a"] * 25})
    parts = text.split("; ")
    assert parts[:10] == [f'xs[{i}]: expected an integer, got "a"' for i in range(10)]
    assert parts[10:] == ["and 15 more"]


def test_fields_line_lists_every_field_or_just_fields():
    @tool("v")
    async def nothing() -> None:
        """Takes nothing."""

    found = refusal(nothing, {"a": None})
    assert found.message == "a: unknown field"
    assert found.lines == ("fields",)
    found = refusal(takes_eight, {"a": "x"})
    assert found.lines == ("fields\ta\tb\tc\td\te\tf\tg\th",)


# --- suggestions --------------------------------------------------------------------------------


@tool("v")
async def takes_names(text: str = "", limit: int = 0, revision: int | None = None) -> None:
    """Takes names."""


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        ("txet", "text"),
        ("Text", "text"),
        ("texts", "text"),
        ("limt", "limit"),
        ("revison", "revision"),
        ("revsion", "revision"),
    ],
)
def test_unknown_field_names_the_closest_real_field(wrong, hint):
    assert refused(takes_names, {wrong: 1}) == f"{wrong}: unknown field (did you mean {hint!r}?)"


@pytest.mark.parametrize("wrong", ["zzz", "q", "completely_different", "x" * 200])
def test_unknown_field_far_from_every_name_has_no_suggestion(wrong):
    text = refused(takes_names, {wrong: 1})
    assert text.endswith(": unknown field")
    assert "did you mean" not in text


def test_unknown_long_field_name_is_cut():
    name = "q" * 60
    assert refused(takes_names, {name: 1}) == f'["{"q" * 32}…"]: unknown field'


def test_an_unknown_name_of_32_characters_is_shown_whole():
    assert refused(takes_names, {"q" * 32: 1}) == f"{'q' * 32}: unknown field"
    assert refused(takes_names, {"q" * 33: 1}) == f'["{"q" * 32}…"]: unknown field'


@tool("v")
async def takes_name(
    name: str = "", limit: int = 0, a_very_long_field_name: int = 0, ox: int = 0
) -> None:
    """Takes a name."""


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        ("nmae", "name"),  # two neighbours swapped: one edit
        ("nama", "name"),
        ("naxx", None),  # two edits in four characters: one edit per three allowed
        ("aeme", None),  # not a swap of neighbours: two edits
        ("limitltimit", None),  # six edits from limit: no swap wraps round the end of a name
        ("ilmti", None),  # two swaps are two edits: more than five characters allow
        ("xo", None),  # a swap is one edit: more than two characters allow
    ],
)
def test_suggestions_allow_one_edit_per_three_characters(wrong, hint):
    shown = "" if hint is None else f" (did you mean {hint!r}?)"
    assert refused(takes_name, {wrong: 1}) == f"{wrong}: unknown field{shown}"


def _plain_distance(a: str, b: str) -> int:
    """The edit distance the suggestions promise, worked out in full: the reference.

    The unrestricted Damerau-Levenshtein distance (Lowrance and Wagner's whole table): a swapped
    pair of neighbours may be edited between, so 'A_B' is two edits from 'ABA_'.
    """
    far = len(a) + len(b) + 1
    # `table[i + 1][j + 1]` is the distance of a[:i] to b[:j]; row and column 0 stand outside
    table = [[far] * (len(b) + 2) for _ in range(len(a) + 2)]
    for i in range(len(a) + 1):
        table[i + 1][1] = i
    for j in range(len(b) + 1):
        table[1][j + 1] = j
    last_row: dict[str, int] = {}
    for i in range(1, len(a) + 1):
        last_column = 0
        for j in range(1, len(b) + 1):
            k, m = last_row.get(b[j - 1], 0), last_column
            same = a[i - 1] == b[j - 1]
            if same:
                last_column = j
            table[i + 1][j + 1] = min(
                table[i][j] + (not same),
                table[i + 1][j] + 1,
                table[i][j + 1] + 1,
                table[k][m] + (i - k - 1) + 1 + (j - m - 1),
            )
        last_row[a[i - 1]] = i
    return table[len(a) + 1][len(b) + 1]


def _plain_closest(word: str, names: Sequence[str]) -> str | None:
    best, best_distance = None, None
    for name in names:
        distance = _plain_distance(word.lower(), name.lower())
        if distance <= min(len(word) // 3, len(name) // 3, 5) and (
            best_distance is None or distance < best_distance
        ):
            best, best_distance = name, distance
    return best


short_words = st.text(st.sampled_from("abcdeAB_İß"), max_size=9)


@given(short_words, short_words, st.integers(0, 4))
def test_the_bounded_distance_agrees_with_the_full_one_up_to_its_limit(a, b, limit):
    """Only part of the table is worked out; within the limit, the answer is the same."""
    full = _plain_distance(a, b)
    bounded = _suggest._distance(a, b, limit)
    assert bounded == full if full <= limit else bounded > limit


@given(short_words, st.lists(short_words, max_size=6))
def test_a_suggestion_is_the_one_the_full_search_finds(word, names):
    """The cheap bounds that skip names never skip the one the full search would name."""
    assert _suggest.closest(word, names) == _plain_closest(word, names)


long_words = st.text(st.sampled_from("abc_"), min_size=12, max_size=30)


@given(long_words, st.lists(long_words, max_size=4))
def test_a_suggestion_for_long_names_is_the_one_the_full_search_finds(word, names):
    """Long names allow up to five edits, where the cheap bounds have the most to skip."""
    assert _suggest.closest(word, names) == _plain_closest(word, names)


def test_an_extra_first_character_is_one_edit():
    assert _suggest.closest("xtitle", ["title"]) == "title"


def test_the_shorter_name_allows_one_edit_per_three_of_its_characters():
    """Two edits need six characters in both names: `labe`/`labels`, `titles_`/`title`."""
    assert _suggest.closest("labe", ["labels"]) is None
    assert _suggest.closest("titles_", ["title"]) is None
    assert _suggest.closest("titl", ["title"]) == "title"


def test_the_library_s_own_words_keep_the_path_when_they_say_the_field_name():
    """Only a host's message drops the path (docs); ours says `a string` of a field `string`."""

    @tool("v")
    async def takes_string(string: str) -> None:
        """Takes a field named like a word of the library's own messages."""

    assert refused(takes_string, {}) == "string: missing, expected a string"
    assert refused(takes_string, {"string": 1}) == "string: expected a string, got 1"


def test_a_union_of_containers_takes_the_branch_that_keeps_every_item_unchanged():
    """`[2.0]` fits `list[float]` as it is, so `list[int]`, which would convert it, loses."""

    @tool("v")
    async def takes_numbers(
        items: list[int] | list[float] | None = None,
        scores: dict[str, int] | dict[str, float] | None = None,
    ) -> None:
        """Takes unions whose first branch converts what the second takes as it is."""

    got = parse_tool_input(takes_numbers, {"items": [2.0], "scores": {"a": 2.0}})
    assert (type(got["items"][0]), type(got["scores"]["a"])) == (float, float)
    exact = parse_tool_input(takes_numbers, {"items": [2], "scores": {"a": 2}})
    assert (type(exact["items"][0]), type(exact["scores"]["a"])) == (int, int)


def test_a_name_more_than_five_edits_away_is_not_suggested():
    """Though a third of a long name's length would allow more (seven edits here)."""
    name = "customer_invoice_record"  # 23 characters
    assert _suggest.closest("cusxomer_ixvoice_rxcxrx", [name]) == name  # five replaced
    assert _suggest.closest("cusxomer_ixvoixe_rxcxrx", [name]) is None  # six


# --- whole-word rule for host-written messages --------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "shown"),
    [
        ("text", "note_write needs text", "note_write needs text"),
        ("text", "text!", "text!"),
        ("text", "the context is empty", "text: the context is empty"),
        ("text", "texts are needed", "text: texts are needed"),
        ("text", "the text_body is needed", "text: the text_body is needed"),
        ("text", "Text is needed", "text: Text is needed"),
        ("dry_run", "say dry_run.", "say dry_run."),
        ("dry_run", "say dry run", "dry_run: say dry run"),
    ],
)
def test_host_message_starts_with_the_path_unless_the_name_is_a_whole_word(name, text, shown):
    f = tool("v", name="host_message")(
        _async_with_field(name, Annotated[str, required_field(text)])
    )
    assert refused(f, {}) == shown


def test_only_the_last_named_part_of_a_nested_path_can_stand_in_the_message():
    """The field's own name is the last named part of its path: a parent's name does not count."""

    class Address(TypedDict):
        city: Annotated[str, required_field("the address is incomplete")]
        zip: Annotated[str, required_field("each zip must be given")]

    @tool("v")
    async def ship(address: Address, stops: list[Address]):
        """Ships a parcel."""

    good = {"city": "Oslo", "zip": "0150"}
    assert refused(ship, {"address": {"city": "", "zip": "0150"}, "stops": []}) == (
        "address.city: the address is incomplete"
    )
    assert refused(ship, {"address": {"city": "Oslo", "zip": ""}, "stops": []}) == (
        "each zip must be given"
    )
    assert refused(ship, {"address": good, "stops": [good, {"city": "", "zip": "1"}]}) == (
        "stops[1].city: the address is incomplete"
    )


def test_an_empty_key_never_stands_in_a_message():
    """A `TypedDict` key may be empty; an empty word matches between any two non-word characters."""
    Form = TypedDict("Form", {"": Annotated[str, required_field("This is needed.")]})

    @tool("v")
    async def submit(form: Form) -> None:
        """Submits a form."""

    assert refused(submit, {"form": {"": ""}}) == 'form[""]: This is needed.'


def _async_with_field(name: str, hint: object):
    async def fn(**kwargs: Any) -> None:
        """Takes one field."""

    fn.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY)]
    )
    fn.__annotations__ = {name: hint}
    return fn


# --- defaults, copies, mutation -----------------------------------------------------------------


def test_defaults_are_filled_in():
    @tool("v")
    async def f(a: int = 3, b: str = "x", c: Color = Color.RED, d: Level | None = None) -> None:
        """Takes defaults."""

    assert parse_tool_input(f, {}) == {"a": 3, "b": "x", "c": Color.RED, "d": None}


def test_mutable_defaults_are_fresh_copies_each_call():
    default_list = ["a"]
    default_dict = {"k": [1]}

    @tool("v")
    async def f(
        tags: list[str] = default_list, nested: dict[str, list[int]] = default_dict
    ) -> None:
        """Takes defaults."""

    first = parse_tool_input(f, {})
    second = parse_tool_input(f, None)
    assert first == second == {"tags": ["a"], "nested": {"k": [1]}}
    assert first["tags"] is not second["tags"]
    assert first["tags"] is not default_list
    assert first["nested"] is not default_dict
    assert first["nested"]["k"] is not second["nested"]["k"]
    assert first["nested"]["k"] is not default_dict["k"]
    first["tags"].append("b")
    first["nested"]["k"].append(2)
    assert parse_tool_input(f, {}) == {"tags": ["a"], "nested": {"k": [1]}}
    assert default_list == ["a"]
    assert default_dict == {"k": [1]}


def test_defaults_are_not_transformed():
    @tool("v")
    async def f(n: Annotated[int, transform(lambda v: v * 10)] = 3) -> None:
        """Takes one."""

    assert parse_tool_input(f, {}) == {"n": 3}
    assert parse_tool_input(f, {"n": None}) == {"n": 3}
    assert parse_tool_input(f, {"n": 3}) == {"n": 30}


def test_dataclass_default_is_a_fresh_copy_each_call():
    default = Box(width=1, tags=["t"])

    @tool("v")
    async def f(box: Box = default) -> None:
        """Takes one."""

    first = parse_tool_input(f, {})["box"]
    second = parse_tool_input(f, {"box": None})["box"]
    assert first == second == default
    assert first is not default
    assert first is not second
    assert first.tags is not default.tags
    assert first.tags is not second.tags


@dataclasses.dataclass
class Holder:
    rows: list[Person]
    meta: dict[str, list[int]]
    groups: list[list[str]]


@tool("v")
async def takes_holder(holder: Holder, loose: dict[str, dict[str, int]] | None = None) -> None:
    """Takes a deep value."""


def _deep_input() -> dict[str, Any]:
    return {
        "holder": {
            "rows": [
                {"name": "a", "age": 1.0, "email": "e", "nick": None},
                {"name": "b", "email": None, "zz": 1},
            ],
            "meta": {"k": [1, 2.0]},
            "groups": [["x"], ("y",)],
        },
        "loose": {"o": {"p": 1}},
    }


def test_input_is_never_mutated_when_accepted_or_refused():
    accepted = _deep_input()
    accepted["holder"]["rows"][1] = {"name": "b", "email": "f"}
    before = copy.deepcopy(accepted)
    parse_tool_input(takes_holder, accepted)
    assert accepted == before
    refused_input = _deep_input()
    before = copy.deepcopy(refused_input)
    refused(takes_holder, refused_input)
    assert refused_input == before


def test_containers_passed_on_are_new_objects_at_every_depth():
    data = _deep_input()
    data["holder"]["rows"][1] = {"name": "b", "email": "f"}
    out = parse_tool_input(takes_holder, data)
    holder = out["holder"]
    given = data["holder"]
    assert holder == Holder(
        rows=[{"name": "a", "age": 1, "email": "e"}, {"name": "b", "email": "f"}],
        meta={"k": [1, 2]},
        groups=[["x"], ["y"]],
    )
    assert holder.rows is not given["rows"]
    assert holder.rows[0] is not given["rows"][0]
    assert holder.rows[1] is not given["rows"][1]
    assert holder.meta is not given["meta"]
    assert holder.meta["k"] is not given["meta"]["k"]
    assert holder.groups is not given["groups"]
    assert holder.groups[0] is not given["groups"][0]
    assert type(holder.groups[1]) is list
    assert out["loose"] == {"o": {"p": 1}}
    assert out["loose"] is not data["loose"]
    assert out["loose"]["o"] is not data["loose"]["o"]


def test_plain_list_of_plain_values_is_still_copied():
    @tool("v")
    async def f(xs: list[str], ys: list[Annotated[int, at.Ge(0)]], zs: tuple[int, ...]) -> None:
        """Takes lists."""

    xs, ys, zs = ["a", "b"], [1, 2], [3]
    out = parse_tool_input(f, {"xs": xs, "ys": ys, "zs": zs})
    assert out == {"xs": ["a", "b"], "ys": [1, 2], "zs": (3,)}
    assert out["xs"] is not xs
    assert out["ys"] is not ys
    out["xs"].append("c")
    assert xs == ["a", "b"]


# --- registry.run -------------------------------------------------------------------------------


class Caller(ToolCall):
    def __init__(self, who: str) -> None:
        self.who = who


@tool("v")
async def plain_tool(text: str, count: int = 1) -> list[str]:
    """Repeats text."""
    return [text] * count


@tool("v")
async def called_tool(call: Caller, text: str) -> list[str]:
    """Says who called."""
    return [f"{call.who}\t{text}"]


class HostError(Exception):
    pass


@tool("v")
async def failing_tool(code: int) -> None:
    """Always fails."""
    raise HostError(code)


registry = create_tool_registry([define_toolkit("v", [plain_tool, called_tool, failing_tool])])


def test_run_checks_then_awaits_the_function():
    assert run(registry.run("plain_tool", {"text": "a", "count": 2.0})) == ["a", "a"]
    assert run(registry.run("called_tool", {"text": "x"}, Caller("ann"))) == ["ann\tx"]


def test_run_ignores_a_call_for_a_tool_without_call_parameter():
    assert run(registry.run("plain_tool", {"text": "a"}, Caller("ann"))) == ["a"]
    assert run(registry.run("plain_tool", {"text": "a"}, object())) == ["a"]


def test_run_refuses_bad_arguments_like_parse_tool_input():
    with pytest.raises(ToolRefusal) as info:
        run(registry.run("plain_tool", {"text": 1, "cuont": 2}))
    refused = info.value
    assert (refused.code, refused.message, refused.lines) == (
        "bad-arguments",
        "text: expected a string, got 1; cuont: unknown field (did you mean 'count'?)",
        ("fields\ttext\tcount",),
    )
    with pytest.raises(ToolRefusal) as info:
        run(registry.run("plain_tool", None))
    assert info.value.message == "text: missing, expected a string"


def test_run_checks_input_before_the_call_object():
    # the call parameter is never an input field
    with pytest.raises(ToolRefusal) as info:
        run(registry.run("called_tool", {"text": "x", "call": "me"}, Caller("ann")))
    assert info.value.message == "call: unknown field"
    assert info.value.lines == ("fields\ttext",)


def test_parse_tool_input_leaves_out_the_call_parameter():
    assert parse_tool_input(called_tool, {"text": "x"}) == {"text": "x"}


def test_run_missing_or_wrong_call_object_is_a_type_error():
    with pytest.raises(TypeError, match="called_tool"):
        run(registry.run("called_tool", {"text": "x"}))
    with pytest.raises(TypeError, match="Caller"):
        run(registry.run("called_tool", {"text": "x"}, object()))


def test_run_lets_the_function_exception_pass_through():
    with pytest.raises(HostError) as info:
        run(registry.run("failing_tool", {"code": 3.0}))
    assert info.value.args == (3,)


@pytest.mark.parametrize("name", ["plain_tol", None, 5, ["plain_tool"]])
def test_run_unknown_tool_name(name):
    with pytest.raises(ToolRefusal) as info:
        run(registry.run(name, {"text": "a"}))  # type: ignore[arg-type]
    assert info.value.code == "unknown-tool"
    assert info.value.lines == ("tools\tplain_tool\tcalled_tool\tfailing_tool",)
    if name == "plain_tol":
        assert info.value.message == (
            "there is no tool named \"plain_tol\" (did you mean 'plain_tool'?)"
        )


def test_what_makes_a_name_follows_the_running_python_unicode():
    """A decision (docs/decisions.md): names read by the running Python's `str.isidentifier`, whose
    Unicode differs between 3.10 (13.0) and 3.13 (15.1); a letter newer than the oldest reads as
    a name only where Python knows it. U+0870 came with Unicode 14.0.
    """

    @tool("v")
    async def take(n: int) -> None:
        """Takes a number."""

    sent = "\u0870x"
    shown = sent if sent.isidentifier() else f'["{sent}"]'
    assert refused(take, {"n": 1, sent: 2}) == f"{shown}: unknown field"
