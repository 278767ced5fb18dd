"""Hypothesis properties of validation, refusal text and schemas.

1. Whatever the input (any Python object, any depth), `parse_tool_input` returns or raises
   `ToolRefusal("bad-arguments")` with exactly the fields line; never another exception.
2. Every such refusal reads back from its text form, and nothing in the input adds a line or a tab.
3. Input built from the declared types and bounds is always accepted, converted as the guide says.
4. Whatever JSON value the validator accepts conforms to the tool's JSON Schema (`jsonschema`).
"""

import dataclasses
import enum
import math
import types
from typing import Annotated, Any, Literal, TypedDict

import annotated_types as at
import jsonschema
import pytest
from hostile_values import (
    BrokenMapping,
    LyingDict,
    LyingInt,
    LyingList,
    LyingStr,
    OddPairsMapping,
    hostile_class,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typing_extensions import NotRequired

from adecore_tools import (
    ToolRefusal,
    parse_refusal_body,
    parse_tool_input,
    refusal_body,
    refusal_rows,
    tool,
    tool_input_schema,
)

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class Kind(enum.Enum):
    A = "a"
    B = "b"


class Inner(TypedDict):
    label: Annotated[str, at.MaxLen(5)]
    size: NotRequired[Annotated[int, at.Ge(0)]]


@dataclasses.dataclass
class Point:
    x: float
    y: float = 0.0


@tool("prop")
async def everything(
    *,
    text: Annotated[str, at.MinLen(1), at.MaxLen(8)],
    count: Annotated[int, at.Ge(0)] | None = None,
    flag: bool = False,
    tags: list[str] | None = None,
    mode: Literal["fast", "slow"] = "fast",
    kind: Kind | None = None,
    inner: Inner | None = None,
    point: Point | None = None,
    scores: dict[str, float] | None = None,
    either: int | str | None = None,
    maybe: list[int | None] | None = None,
    ratio: Annotated[float, at.Gt(0), at.Lt(1)] | None = None,
    uniq: Annotated[set[int], at.MaxLen(3)] | None = None,
) -> None:
    """Takes a field of every kind."""


@tool("prop")
async def agreeable(
    *,
    text: Annotated[str, at.MinLen(1), at.MaxLen(8)],
    count: Annotated[int, at.Ge(0)] | None = None,
    flag: bool = False,
    tags: list[str] | None = None,
    mode: Literal["fast", "slow"] = "fast",
    kind: Kind | None = None,
    inner: Inner | None = None,
    point: Point | None = None,
    scores: dict[str, float] | None = None,
    ratio: Annotated[float, at.Gt(0), at.Lt(1)] | None = None,
    uniq: Annotated[set[int], at.MaxLen(3)] | None = None,
) -> None:
    """Takes a field of every kind whose schema lists every value it accepts.

    A union lists only its first branch and a nullable list item only its non-null type
    (the MCP schema), so those are left out here.
    """


FIELDS_LINE = "fields\t" + "\t".join(f.name for f in everything.input.fields)
NAMES = [f.name for f in everything.input.fields]

# --- any Python object --------------------------------------------------------------------------

# Characters that would end a field or a line if echoed as they are.
BREAKERS = "\t\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\x00\x7f"
texts = st.text(st.characters() | st.sampled_from(BREAKERS), max_size=40)


# An object whose every dunder the validator might be tempted to call raises.
Hostile = hostile_class("__eq__", "__len__", "__iter__", "__str__", "__repr__", "__bool__")


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**1100), max_value=2**1100),
    st.floats(),
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1e308, 2.0, 10.0**20]),
    texts,
)
junk = st.one_of(
    st.binary(max_size=5),
    st.builds(object),
    st.builds(Hostile),
    texts.map(LyingStr),
    st.integers().map(LyingInt),
    st.just(Kind.A),
    st.just(Point(1.0)),
    st.just(BrokenMapping()),
    st.just(OddPairsMapping()),
    st.complex_numbers(allow_nan=True),
    st.frozensets(st.integers(), max_size=3),
    st.sets(st.text(max_size=2), max_size=3),
)


def _containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    keys = st.one_of(st.sampled_from(["label", "size", "x", "y", "a"]), texts)
    return st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.lists(children, max_size=3).map(LyingList),
        st.dictionaries(keys, children, max_size=4),
        st.dictionaries(keys, children, max_size=3).map(types.MappingProxyType),
        st.dictionaries(keys, children, max_size=3).map(LyingDict),
        st.dictionaries(
            st.one_of(st.integers(), st.none(), st.builds(Hostile)), children, max_size=2
        ),
    )


anything = st.recursive(st.one_of(scalars, junk), _containers, max_leaves=20)

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), texts
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(texts, children, max_size=4)
    ),
    max_leaves=20,
)

# --- input built from the declared types --------------------------------------------------------

ABSENT: Any = object()


def optional(values: st.SearchStrategy[tuple[Any, Any]], default: object):
    """(input, expected) pairs for an optional field: a value, null, or left out."""
    return st.one_of(values, st.just((None, default)), st.just((ABSENT, default)))


def same(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[tuple[Any, Any]]:
    return strategy.map(lambda value: (value, value))


finite = st.floats(allow_nan=False, allow_infinity=False)
small_ints = st.integers(min_value=-(2**53), max_value=2**53)
numbers_as_float = st.one_of(
    finite.map(lambda value: (value, value)), small_ints.map(lambda value: (value, float(value)))
)


@st.composite
def inner_values(draw: st.DrawFn) -> tuple[Any, Any]:
    label = draw(st.text(max_size=5))
    sent: dict[str, Any] = {"label": label}
    expected: dict[str, Any] = {"label": label}
    size = draw(st.one_of(st.just(ABSENT), st.none(), st.integers(min_value=0)))
    if size is not ABSENT:
        sent["size"] = size
        if size is not None:
            expected["size"] = size
    return sent, expected


@st.composite
def point_values(draw: st.DrawFn) -> tuple[Any, Any]:
    x_sent, x = draw(numbers_as_float)
    sent: dict[str, Any] = {"x": x_sent}
    y = 0.0
    choice = draw(st.sampled_from(["absent", "null", "value"]))
    if choice == "null":
        sent["y"] = None
    elif choice == "value":
        sent["y"], y = draw(numbers_as_float)
    return sent, Point(x, y)


def _list_of(pairs: st.SearchStrategy[tuple[Any, Any]], *, as_tuple: bool = False):
    def split(items: list[tuple[Any, Any]]) -> tuple[Any, Any]:
        sent = [item[0] for item in items]
        return (tuple(sent) if as_tuple else sent), [item[1] for item in items]

    return st.lists(pairs, max_size=5).map(split)


def _records(pairs: st.SearchStrategy[tuple[Any, Any]]):
    def split(entries: dict[str, tuple[Any, Any]]) -> tuple[Any, Any]:
        return {k: v[0] for k, v in entries.items()}, {k: v[1] for k, v in entries.items()}

    return st.dictionaries(st.text(max_size=5), pairs, max_size=4).map(split)


def _sets():
    def as_pair(items: list[int]) -> tuple[Any, Any]:
        return items, set(items)

    return (
        st.lists(st.integers(min_value=-3, max_value=3), max_size=6)
        .filter(lambda items: len(set(items)) <= 3)
        .map(as_pair)
    )


COMMON: dict[str, st.SearchStrategy[tuple[Any, Any]]] = {
    "text": same(st.text(min_size=1, max_size=8)),
    "count": optional(
        st.one_of(
            same(st.integers(min_value=0)),
            st.integers(min_value=0, max_value=2**53).map(lambda n: (float(n), n)),
        ),
        None,
    ),
    "flag": optional(same(st.booleans()), False),
    "tags": optional(
        st.one_of(_list_of(same(st.text())), _list_of(same(st.text()), as_tuple=True)), None
    ),
    "mode": optional(same(st.sampled_from(["fast", "slow"])), "fast"),
    "kind": optional(st.sampled_from(list(Kind)).map(lambda k: (k.value, k)), None),
    "inner": optional(inner_values(), None),
    "point": optional(point_values(), None),
    "scores": optional(_records(numbers_as_float), None),
    "ratio": optional(
        same(st.floats(min_value=0, max_value=1, exclude_min=True, exclude_max=True)), None
    ),
    "uniq": optional(_sets(), None),
}
EVERYTHING = {
    **COMMON,
    "either": optional(
        st.one_of(
            same(st.integers()),
            same(st.text()),
            st.integers(min_value=-(2**53), max_value=2**53).map(lambda n: (float(n), n)),
        ),
        None,
    ),
    "maybe": optional(_list_of(same(st.one_of(st.none(), st.integers()))), None),
}


@st.composite
def valid_input(
    draw: st.DrawFn, fields: dict[str, st.SearchStrategy[tuple[Any, Any]]], order: list[str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    sent: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    for name in order:
        value, out = draw(fields[name])
        if value is not ABSENT:
            sent[name] = value
        expected[name] = out
    return sent, expected


# --- properties 1 and 2: any input ----------------------------------------------------------

field_names = st.one_of(st.sampled_from(NAMES), texts, st.sampled_from(["txet", "cuont", "Flag"]))


@st.composite
def near_valid_input(draw: st.DrawFn) -> dict[str, Any]:
    sent, _ = draw(valid_input(EVERYTHING, NAMES))
    for name in draw(st.lists(field_names, min_size=1, max_size=3)):
        sent[name] = draw(anything)
    return sent


inputs = st.one_of(
    anything,
    near_valid_input(),
    st.dictionaries(field_names, anything, max_size=8),
    st.dictionaries(field_names, anything, max_size=8).map(types.MappingProxyType),
)


def _parse_or_refusal(data: object, t=everything) -> ToolRefusal | None:
    try:
        parse_tool_input(t, data)
    except ToolRefusal as refusal:
        return refusal
    return None


@pytest.mark.slow
@SETTINGS
@given(inputs)
def test_any_input_is_accepted_or_refused_with_bad_arguments(data):
    refusal = _parse_or_refusal(data)
    if refusal is not None:
        assert refusal.code == "bad-arguments"
        assert refusal.lines == (FIELDS_LINE,)
        assert refusal.message


@pytest.mark.slow
@SETTINGS
@given(inputs)
def test_refusal_text_reads_back_and_stays_on_its_lines(data):
    refusal = _parse_or_refusal(data)
    if refusal is None:
        return
    body = refusal_body(refusal)
    head, *rows = body.split("\n")
    assert rows == [FIELDS_LINE]
    parts = head.split("\t")
    assert len(parts) == 3
    assert parts[:2] == ["refused", "bad-arguments"]
    assert parts[2] == refusal.message
    for breaker in BREAKERS:
        assert breaker not in refusal.message
    assert len(body.splitlines()) == 2
    assert parse_refusal_body(body) == refusal
    assert parse_refusal_body(refusal_rows(refusal)) == refusal


def _types_match(got: object, want: object) -> bool:
    """Equal, and of the same types at every depth (so 1 never stands for 1.0)."""
    if type(got) is not type(want):
        return False
    if isinstance(want, (list, tuple)):
        return len(got) == len(want) and all(map(_types_match, got, want))  # type: ignore[arg-type]
    if isinstance(want, dict):
        return got.keys() == want.keys() and all(  # type: ignore[attr-defined]
            _types_match(got[k], want[k])  # type: ignore[index]
            for k in want
        )
    if isinstance(want, Point):
        return _types_match(got.x, want.x) and _types_match(got.y, want.y)  # type: ignore[attr-defined]
    return got == want


@pytest.mark.slow
@SETTINGS
@given(valid_input(EVERYTHING, NAMES))
def test_input_built_from_the_declared_types_is_accepted_as_expected(case):
    sent, expected = case
    out = parse_tool_input(everything, sent)
    assert out == expected
    assert _types_match(out, expected), (out, expected)


# --- the schema and the validator agree ---------------------------------------------------------

AGREEABLE_NAMES = [f.name for f in agreeable.input.fields]
SCHEMA = tool_input_schema(agreeable)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _without_nulls(value: object) -> object:
    """A JSON value with `null` object members dropped: to a validator they mean left out."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(item) for item in value]
    return value


@st.composite
def near_valid_json(draw: st.DrawFn) -> dict[str, Any]:
    sent, _ = draw(valid_input(COMMON, AGREEABLE_NAMES))
    sent = {k: list(v) if isinstance(v, tuple) else v for k, v in sent.items()}
    for name in draw(st.lists(st.sampled_from(AGREEABLE_NAMES), max_size=3)):
        sent[name] = draw(json_values)
    return sent


def test_schema_is_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["required"] == ["text"]
    assert list(SCHEMA["properties"]) == AGREEABLE_NAMES


@pytest.mark.slow
@SETTINGS
@given(st.one_of(json_values, near_valid_json()))
def test_whatever_is_accepted_conforms_to_the_schema(data):
    refusal = _parse_or_refusal(data, agreeable)
    if refusal is not None:
        assert refusal.code == "bad-arguments"
        return
    errors = list(VALIDATOR.iter_errors(_without_nulls(data if data is not None else {})))
    assert errors == [], [error.message for error in errors]


@pytest.mark.slow
@SETTINGS
@given(valid_input(COMMON, AGREEABLE_NAMES))
def test_input_built_from_the_types_conforms_to_the_schema(case):
    sent, _ = case
    sent = {k: list(v) if isinstance(v, tuple) else v for k, v in sent.items()}
    parse_tool_input(agreeable, sent)
    assert list(VALIDATOR.iter_errors(_without_nulls(sent))) == []
