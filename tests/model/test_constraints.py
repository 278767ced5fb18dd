"""The annotated-types constraints, run through our validators at every depth.

The first part runs annotated-types' own shipped corpus (`annotated_types.test_cases.cases()`)
for every annotation our field model supports; the rest pins each constraint's message at depth 3
(a `TypedDict` inside a list inside a dataclass), grouped metadata, predicates, `Not`, unknown
metadata and descriptions.
"""

import dataclasses
import enum
import math
import sys
import typing
import uuid
from collections.abc import Iterator
from typing import Annotated, Any, TypedDict

import annotated_types as at
import pytest
from annotated_types import test_cases as at_cases
from helpers import refusal
from typing_extensions import Doc, TypeAliasType

from adecore_tools import (
    ToolRefusal,
    parse_tool_input,
    required_field,
    tool,
    tool_input_schema,
    transform,
)

# --- the corpus ---------------------------------------------------------------------------------


def declare(annotation: object, name: str = "corpus"):
    """A tool with one field `x` of this annotation (TypeError when it cannot be declared)."""

    async def fn(x) -> None:
        """Takes x."""

    fn.__annotations__ = {"x": annotation, "return": None}
    return tool("c", name=name)(fn)


def _read_corpus() -> list[tuple[int, at_cases.Case, Any, str | None]]:
    read = []
    for number, case in enumerate(at_cases.cases()):
        try:
            t = declare(case.annotation)
        except TypeError as exc:
            read.append((number, case, None, str(exc)))
        else:
            read.append((number, case, t, None))
    return read


CORPUS = _read_corpus()


def as_json(value: object) -> object:
    """A corpus value as a model would send it: a set is sent as an array."""
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    return value


def _is_non_finite(value: object) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def _params(which: str) -> list[Any]:
    params = []
    for number, case, t, reason in CORPUS:
        values = case.valid_cases if which == "valid" else case.invalid_cases
        for index, value in enumerate(values):
            case_id = f"{number}-{index}"
            if t is None:
                mark = pytest.mark.skip(reason=f"not a field type: {reason}")
                params.append(pytest.param(None, value, id=case_id, marks=mark))
            else:
                params.append(pytest.param(t, value, id=case_id))
    return params


def test_corpus_leaves_out_only_types_without_one_json_type():
    skipped = {number: reason for number, _, t, reason in CORPUS if t is None}
    for number, reason in skipped.items():
        assert reason is not None
        assert reason.startswith("field 'x' of tool 'corpus': "), (number, reason)
        assert (
            "type datetime.datetime has no one JSON type" in reason
            or "object keys are strings in JSON" in reason
        ), (number, reason)
    # datetime bounds (Gt x3, Ge, Lt, Le, Interval), four Timezone cases and dict[int, int]
    assert len(skipped) == 12
    assert len(CORPUS) - len(skipped) >= 38


@pytest.mark.parametrize(("t", "value"), _params("valid"))
def test_corpus_valid_values_are_accepted(t, value):
    if _is_non_finite(value):
        # our float type refuses NaN and the infinities by design: a number is finite
        found = refusal(t, {"x": value})
        assert found.message.startswith("x: expected a finite number, got ")
        return
    out = parse_tool_input(t, {"x": as_json(value)})
    assert out == {"x": value}
    assert type(out["x"]) is not bool


@pytest.mark.parametrize(("t", "value"), _params("invalid"))
def test_corpus_invalid_values_are_refused(t, value):
    found = refusal(t, {"x": as_json(value)})
    assert found.message.startswith("x: expected ")


def test_corpus_passes_the_annotated_kind():
    sets = declare(Annotated[set[int], at.Len(2, 3)], "sets")
    tuples = declare(Annotated[tuple[int, ...], at.Len(2, 3)], "tuples")
    floats = declare(Annotated[float, at.Interval(ge=0.5, le=1)], "floats")
    assert parse_tool_input(sets, {"x": [1, 2, 2]}) == {"x": {1, 2}}
    assert type(parse_tool_input(sets, {"x": [1, 2]})["x"]) is set
    assert type(parse_tool_input(tuples, {"x": [1, 2]})["x"]) is tuple
    out = parse_tool_input(floats, {"x": 1})
    assert out == {"x": 1.0}
    assert type(out["x"]) is float


# --- every constraint at depth 3 ----------------------------------------------------------------


def is_even(value: int) -> bool:
    return value % 2 == 0


def deep_tool(annotation: object):
    """A tool whose field `outer` is a dataclass holding a list of TypedDicts with key `v`."""
    row = TypedDict("Row", {"v": annotation})  # noqa: UP013 - the key type is a variable
    outer = dataclasses.make_dataclass("Outer", [("rows", list[row])])

    async def deep(outer) -> None:
        """Takes a deep value."""

    deep.__annotations__ = {"outer": outer, "return": None}
    return tool("c")(deep), outer


def deep_input(*values: object) -> dict[str, Any]:
    return {"outer": {"rows": [{"v": value} for value in values]}}


DEPTH_CASES = [
    # (id, annotation, good value (None: no value passes), bad value, expected text)
    ("gt", Annotated[int, at.Gt(0)], 1, 0, "expected more than 0, got 0"),
    ("ge", Annotated[int, at.Ge(0)], 0, -1, "expected at least 0, got -1"),
    ("lt", Annotated[float, at.Lt(1)], 0.5, 1, "expected less than 1, got 1.0"),
    ("le", Annotated[float, at.Le(1)], 1, 1.5, "expected at most 1, got 1.5"),
    ("interval-low", Annotated[int, at.Interval(ge=1, lt=5)], 1, 0, "expected at least 1, got 0"),
    ("interval-high", Annotated[int, at.Interval(ge=1, lt=5)], 4, 5, "expected less than 5, got 5"),
    ("interval-gt", Annotated[int, at.Interval(gt=1)], 2, 1, "expected more than 1, got 1"),
    ("interval-le", Annotated[int, at.Interval(le=1)], 1, 2, "expected at most 1, got 2"),
    ("multiple", Annotated[int, at.MultipleOf(3)], 6, 4, "expected a multiple of 3, got 4"),
    (
        "multiple-float",
        Annotated[float, at.MultipleOf(0.5)],
        2,
        0.3,
        "expected a multiple of 0.5, got 0.3",
    ),
    (
        "min-len-str",
        Annotated[str, at.MinLen(2)],
        "ab",
        "a",
        "expected at least 2 characters, got 1",
    ),
    ("max-len-str", Annotated[str, at.MaxLen(1)], "a", "ab", "expected at most 1 character, got 2"),
    (
        "max-len-list",
        Annotated[list[int], at.MaxLen(1)],
        [1],
        [1, 2],
        "expected at most 1 item, got 2",
    ),
    (
        "min-len-tuple",
        Annotated[tuple[int, ...], at.MinLen(1)],
        [1],
        [],
        "expected at least 1 item, got 0",
    ),
    (
        "len-set",
        Annotated[set[str], at.Len(2)],
        ["a", "b"],
        ["a", "a"],
        "expected at least 2 distinct items, got 1",
    ),
    (
        "len-record-low",
        Annotated[dict[str, int], at.Len(1, 2)],
        {"a": 1},
        {},
        "expected at least 1 key, got 0",
    ),
    (
        "len-record-high",
        Annotated[dict[str, int], at.Len(1, 2)],
        {"a": 1, "b": 2},
        {"a": 1, "b": 2, "c": 3},
        "expected at most 2 keys, got 3",
    ),
    ("len-str", Annotated[str, at.Len(1, 1)], "a", "ab", "expected at most 1 character, got 2"),
    (
        "predicate",
        Annotated[int, at.Predicate(is_even)],
        2,
        3,
        "expected a value passing is_even, got 3",
    ),
    (
        "lambda",
        Annotated[int, at.Predicate(lambda v: v > 0)],
        1,
        0,
        "expected a value passing its check, got 0",
    ),
    ("lower", at.LowerCase[str], "abc", "ABC", 'expected lowercase text, got "ABC"'),
    ("upper", at.UpperCase[str], "ABC", "abc", 'expected uppercase text, got "abc"'),
    ("digit", at.IsDigit[str], "123", "a1", 'expected digits only, got "a1"'),
    ("ascii", at.IsAscii[str], "a b", "é", 'expected ASCII text, got "é"'),
    (
        "alpha",
        Annotated[str, at.Predicate(str.isalpha)],
        "ab",
        "a1",
        'expected letters only, got "a1"',
    ),
    (
        "alnum",
        Annotated[str, at.Predicate(str.isalnum)],
        "a1",
        "a-1",
        'expected letters and digits only, got "a-1"',
    ),
    (
        "identifier",
        Annotated[str, at.Predicate(str.isidentifier)],
        "a_1",
        "1a",
        'expected an identifier, got "1a"',
    ),
    ("isnan", Annotated[float, at.Predicate(math.isnan)], None, 1.5, "expected NaN, got 1.5"),
    ("isinf", at.IsInfinite[float], None, 1.5, "expected an infinite number, got 1.5"),
    ("isfinite", at.IsFinite[float], 1.5, None, ""),
    ("not-finite", at.IsNotFinite[float], None, 1.5, "expected not a finite number, got 1.5"),
    ("not-nan", at.IsNotNan[float], 1.5, None, ""),
    ("not-infinite", at.IsNotInfinite[float], 1.5, None, ""),
    (
        "not-meta",
        Annotated[str, at.Not(str.isdigit)],
        "ab",
        "12",
        'expected not digits only, got "12"',
    ),
    (
        "not-predicate",
        Annotated[str, at.Predicate(at.Not(str.islower))],
        "AB",
        "ab",
        'expected not lowercase text, got "ab"',
    ),
    (
        "not-named",
        Annotated[int, at.Not(is_even)],
        3,
        2,
        "expected not a value passing is_even, got 2",
    ),
]


@pytest.mark.parametrize(
    ("annotation", "good", "bad", "text"),
    [pytest.param(*case[1:], id=case[0]) for case in DEPTH_CASES],
)
def test_every_constraint_holds_at_depth_three(annotation, good, bad, text):
    t, outer = deep_tool(annotation)
    if good is not None:
        origin = typing.get_origin(typing.get_args(annotation)[0])
        expected = origin(good) if origin in (set, tuple) else good
        out = parse_tool_input(t, deep_input(good, good))
        assert type(out["outer"]) is outer
        assert out["outer"].rows == [{"v": expected}, {"v": expected}]
        assert type(out["outer"].rows[0]["v"]) is type(expected) or isinstance(expected, int)
    if bad is not None:
        first = good if good is not None else bad
        message = refusal(t, deep_input(first, bad)).message
        if good is None:
            assert message == f"outer.rows[0].v: {text}; outer.rows[1].v: {text}"
        else:
            assert message == f"outer.rows[1].v: {text}"


def test_several_problems_of_one_value_at_depth_three():
    t, _ = deep_tool(Annotated[int, at.Interval(gt=0, lt=10), at.MultipleOf(4)])
    assert refusal(t, deep_input(8, 10, 0)).message == (
        "outer.rows[1].v: expected less than 10, got 10; "
        "outer.rows[1].v: expected a multiple of 4, got 10; "
        "outer.rows[2].v: expected more than 0, got 0"
    )


# --- grouped metadata ---------------------------------------------------------------------------


class Between(at.GroupedMetadata):
    """A custom group: at least `lo` and at most `hi`."""

    def __init__(self, lo: int, hi: int) -> None:
        self.lo, self.hi = lo, hi

    def __iter__(self) -> Iterator[object]:
        yield at.Ge(self.lo)
        yield at.Le(self.hi)


class EvenBetween(at.GroupedMetadata):
    """A group holding a group and a predicate."""

    def __iter__(self) -> Iterator[object]:
        yield Between(0, 10)
        yield at.Predicate(is_even)


@pytest.mark.parametrize(
    ("annotation", "good", "bad", "text"),
    [
        pytest.param(
            Annotated[int, at.Interval(gt=0, le=10)],
            10,
            11,
            "expected at most 10, got 11",
            id="interval",
        ),
        pytest.param(
            Annotated[list[int], at.Len(1, 2)],
            [1, 2],
            [1, 2, 3],
            "expected at most 2 items, got 3",
            id="len",
        ),
        pytest.param(
            Annotated[int, Between(1, 3)], 3, 0, "expected at least 1, got 0", id="custom"
        ),
        pytest.param(
            Annotated[int, EvenBetween()],
            4,
            3,
            "expected a value passing is_even, got 3",
            id="nested",
        ),
        pytest.param(
            Annotated[int, EvenBetween()], 0, 12, "expected at most 10, got 12", id="nested-bound"
        ),
    ],
)
def test_grouped_metadata_is_unpacked(annotation, good, bad, text):
    t = declare(annotation, "grouped")
    assert parse_tool_input(t, {"x": good}) == {"x": good}
    assert refusal(t, {"x": bad}).message == f"x: {text}"


def test_grouped_metadata_lists_every_broken_part():
    t = declare(Annotated[int, EvenBetween()], "grouped")
    assert refusal(t, {"x": 13}).message == (
        "x: expected at most 10, got 13; x: expected a value passing is_even, got 13"
    )
    t = declare(Annotated[str, at.Len(2, 3), at.Predicate(str.islower)], "grouped")
    assert refusal(t, {"x": "ABCD"}).message == (
        'x: expected at most 3 characters, got 4; x: expected lowercase text, got "ABCD"'
    )


def test_empty_group_and_bare_interval_add_nothing():
    t = declare(Annotated[int, at.Interval()], "grouped")
    assert parse_tool_input(t, {"x": -(10**9)}) == {"x": -(10**9)}


@pytest.mark.parametrize(
    ("annotation", "sent", "said"),
    [
        (Annotated[int, at.Le(10**20)], 10**20 + 1, "expected at most 100000000000000000000"),
        (Annotated[int, at.Lt(2**64)], 2**64, "expected less than 18446744073709551616"),
        (Annotated[int, at.MultipleOf(10**20)], 7, "expected a multiple of 100000000000000000000"),
        (
            Annotated[float, at.Ge(-(10**30))],
            -1e31,
            "expected at least -1000000000000000000000000000000",
        ),
    ],
)
def test_a_bound_is_written_whole_however_large(annotation, sent, said):
    """A model learns a bound from the refusal: `a very large integer` is for echoed input."""
    assert refusal(declare(annotation, "large"), {"x": sent}).message.startswith(f"x: {said}, got")


@pytest.mark.parametrize(
    ("bound", "said"),
    [
        (at.Ge(10**5000), "expected at least a very large integer"),
        (at.Le(-(10**5000)), "expected at most a very large negative integer"),
        (at.MultipleOf(10**5000), "expected a multiple of a very large integer"),
    ],
)
def test_a_bound_past_the_digits_python_writes_is_named_as_a_very_large_integer(bound, said):
    """Python refuses to write an int over `sys.get_int_max_str_digits()` digits as text: the
    refusal names it as it names such an input, and raises nothing else."""
    t = declare(Annotated[int, bound], "huge")
    assert refusal(t, {"x": 3}).message == f"x: {said}, got 3"


def test_a_number_bound_applies_to_a_union_of_bounded_numbers():
    """Each branch keeps its own bounds, and the union's bound holds over the whole."""
    t = declare(Annotated[Annotated[int, at.Ge(0)] | Annotated[float, at.Le(5)], at.Gt(-1)], "nums")
    assert parse_tool_input(t, {"x": 3}) == {"x": 3}
    assert parse_tool_input(t, {"x": -0.5}) == {"x": -0.5}
    assert refusal(t, {"x": -1}).message == "x: expected more than -1, got -1.0"


# --- predicates ---------------------------------------------------------------------------------


def test_predicate_value_error_is_a_refusal():
    def positive(value: int) -> bool:
        if value == 0:
            raise ValueError("zero is neither")
        return value > 0

    t = declare(Annotated[int, at.Predicate(positive)], "pred")
    assert parse_tool_input(t, {"x": 1}) == {"x": 1}
    assert refusal(t, {"x": -1}).message == "x: expected a value passing positive, got -1"
    assert refusal(t, {"x": 0}).message == "x: zero is neither"


def test_predicate_other_exceptions_pass_through():
    def explode(value: int) -> bool:
        raise KeyError(value)

    t = declare(Annotated[int, at.Predicate(explode)], "pred")
    with pytest.raises(KeyError):
        parse_tool_input(t, {"x": 1})


def test_predicate_never_sees_none_or_the_wrong_type():
    seen = []

    def keep(value: object) -> bool:
        seen.append(value)
        return True

    t = declare(Annotated[int | None, at.Predicate(keep)], "pred")
    assert parse_tool_input(t, {"x": None}) == {"x": None}
    assert refusal(t, {"x": "a"}).message == 'x: expected an integer, got "a"'
    assert seen == []
    parse_tool_input(t, {"x": 2.0})
    assert seen == [2]
    assert type(seen[0]) is int


# --- metadata that fits no type, unknown metadata -----------------------------------------------


@pytest.mark.parametrize(
    "annotation",
    [
        Annotated[str, at.Gt(0)],
        Annotated[bool, at.Ge(0)],
        Annotated[list[int], at.Le(3)],
        Annotated[int, at.MinLen(1)],
        Annotated[float, at.MaxLen(1)],
        Annotated[bool, at.Len(1)],
        Annotated[str, at.Interval(gt=1)],
    ],
)
def test_bounds_on_the_wrong_type_raise_at_decoration(annotation):
    with pytest.raises(TypeError, match="field 'x' of tool 'misfit'"):
        declare(annotation, "misfit")


class Marker:
    """Metadata no one knows."""


@pytest.mark.parametrize(
    "metadata",
    [
        pytest.param(("a note",), id="str"),
        pytest.param((42,), id="int"),
        pytest.param((Marker(),), id="object"),
        pytest.param((at.Unit("m"),), id="unit"),
        pytest.param((at.Timezone(None),), id="timezone"),
        pytest.param((Marker, "x", 1.5), id="several"),
    ],
)
def test_unknown_metadata_is_ignored(metadata):
    t = declare(Annotated[(int, *metadata)], "unknown")
    assert parse_tool_input(t, {"x": -5}) == {"x": -5}
    assert refusal(t, {"x": "5"}).message == 'x: expected an integer, got "5"'
    assert tool_input_schema(t) == {
        "type": "object",
        "properties": {"x": {"type": "integer"}},
        "required": ["x"],
    }


@pytest.mark.parametrize(
    "metadata",
    [
        pytest.param({"a": 1}, id="dict"),
        pytest.param([1, 2], id="list"),
        pytest.param({1}, id="set"),
    ],
)
def test_unhashable_unknown_metadata_is_ignored(metadata):
    t = declare(Annotated[int, metadata], "unknown")
    assert parse_tool_input(t, {"x": 3}) == {"x": 3}


PositiveInt = TypeAliasType("PositiveInt", Annotated[int, at.Gt(0)])


@pytest.mark.parametrize(
    ("annotation", "shown"),
    [
        (Annotated[str, at.LowerCase], "Annotated[~_StrType, Predicate(str.islower)]"),
        (Annotated[str, at.IsDigits[str]], "Annotated[str, Predicate(str.isdigit)]"),
        (Annotated[int, Annotated[int, at.Ge(0)]], "Annotated[int, Ge(ge=0)]"),
        (Annotated[int, PositiveInt], "PositiveInt"),
    ],
    ids=["alias", "alias given str", "annotated", "type alias"],
)
def test_an_annotated_type_as_metadata_is_refused_not_ignored(annotation, shown):
    """`Annotated[str, LowerCase]` took "ABC": the alias's own checks never ran."""
    with pytest.raises(TypeError) as caught:
        declare(annotation, "misfit")
    assert str(caught.value) == (
        f"field 'x' of tool 'misfit': the metadata {shown} is an Annotated type, whose bounds "
        "never apply as metadata; use it as the type (LowerCase[str], not Annotated[str, "
        "LowerCase]), or list its metadata here"
    )


@pytest.mark.skipif(sys.version_info < (3, 12), reason="the `type` statement is Python 3.12+")
def test_a_type_alias_as_metadata_naming_a_class_not_defined_yet_is_ignored():
    """Its value cannot be read yet, so it shows no Annotated type: metadata no bound knows."""
    namespace: dict[str, Any] = {}
    exec("type Later = Thing\n", namespace)  # noqa: S102 - our own source text; needs 3.12 to parse
    t = declare(Annotated[int, namespace["Later"]], "later")
    assert parse_tool_input(t, {"x": 3}) == {"x": 3}
    assert refusal(t, {"x": "3"}).message == 'x: expected an integer, got "3"'


ParsedInt = TypeAliasType("ParsedInt", Annotated[str, transform(int)])
"""A predicate on it is given what the transform made: its type is not checked."""


UuidText = TypeAliasType("UuidText", Annotated[str, transform(uuid.UUID)])
Stripped = TypeAliasType("Stripped", Annotated[str, transform(str.strip)])
Counted = TypeAliasType("Counted", Annotated[int, transform(str)])
Halved = TypeAliasType("Halved", Annotated[int, transform(float)])


@pytest.mark.parametrize(
    ("annotation", "name", "made"),
    [
        (Annotated[ParsedInt, at.MaxLen(3)], "MaxLen", "int"),
        (Annotated[UuidText, at.MinLen(1)], "MinLen", "uuid.UUID"),
        (Annotated[Counted, at.Ge(0)], "Ge", "str"),
        (Annotated[ParsedInt | None, required_field("x needs a number")], "required_field", "int"),
    ],
)
def test_a_bound_around_a_class_that_cannot_take_it_is_refused_at_decoration(
    annotation, name, made
):
    """A bound around a type that transforms tests what it made: a class here (the guide's advice).

    It was checked only against the type the model sends, and Python's `TypeError` (an int has
    no len) came out of every call.
    """
    with pytest.raises(TypeError) as caught:
        declare(annotation, "around")
    assert str(caught.value) == (
        f"field 'x' of tool 'around': {name} stands around a type whose Annotated transforms its "
        f"value into a {made}, which it cannot apply to; write {name} inside that Annotated, "
        "before the transform"
    )


def test_a_bound_around_a_transform_of_the_same_kind_holds_on_what_it_made():
    t = declare(Annotated[Stripped, at.MinLen(1)], "stripped")
    assert parse_tool_input(t, {"x": " a "}) == {"x": "a"}
    assert refusal(t, {"x": "   "}).message == "x: expected at least 1 character, got 0"
    t = declare(Annotated[Halved, at.Lt(10)], "halved")
    assert parse_tool_input(t, {"x": 3}) == {"x": 3.0}
    assert refusal(t, {"x": 12}).message == "x: expected less than 10, got 12.0"


class Shade(enum.Enum):
    """Text values, but its members are no `str`."""

    DARK = "dark"


@dataclasses.dataclass
class Spot:
    """Read from a mapping, but a predicate is given the instance."""

    name: str


@pytest.mark.parametrize(
    ("annotation", "text"),
    [
        (
            Annotated[int, at.Predicate(str.isdigit)],
            "Predicate(str.isdigit) takes str, but the field gives it int",
        ),
        (
            Annotated[str, at.Not(math.isnan)],
            "Predicate(math.isnan) takes int or float, but the field gives it str",
        ),
        (
            Annotated[list[str], at.Predicate(str.islower)],
            "Predicate(str.islower) takes str, but the field gives it list",
        ),
        (
            Annotated[Shade, at.Predicate(str.islower)],
            "Predicate(str.islower) takes str, but the field gives it test_constraints.Shade",
        ),
        (
            Annotated[str | int, at.Predicate(str.isupper)],
            "Predicate(str.isupper) takes str, but the field gives it int",
        ),
        (
            Annotated[Spot, at.Predicate(str.islower)],
            "Predicate(str.islower) takes str, but the field gives it test_constraints.Spot",
        ),
        (
            Annotated[ParsedInt, at.Predicate(str.isdigit)],
            "Predicate(str.isdigit) takes str, but the field gives it int",
        ),
    ],
    ids=[
        "str method on int",
        "math on str",
        "str method on list",
        "on an Enum",
        "on a union",
        "on a dataclass",
        "on what a class transform made",
    ],
)
def test_a_builtin_predicate_of_another_type_is_refused_at_decoration(annotation, text):
    """Python's own `TypeError` (descriptor 'isdigit' ...) came out of every call instead."""
    with pytest.raises(TypeError) as caught:
        declare(annotation, "misfit")
    assert str(caught.value) == (
        f"field 'x' of tool 'misfit': {text}; use a predicate for that type, or put this one on "
        "a field of its type"
    )


@pytest.mark.parametrize(
    ("annotation", "value"),
    [
        (Annotated[bool, at.Predicate(int.bit_length)], True),
        (Annotated[int | float, at.Predicate(math.isfinite)], 2),
        (Annotated[str | None, at.Predicate(str.islower)], "a"),
        (Annotated[typing.Literal["a", "b"], at.Predicate(str.islower)], "b"),
        (Annotated[ParsedInt, at.Predicate(int.bit_length)], "5"),
        (Annotated[list[int], at.Predicate(math.prod)], [2, 3]),
        (Annotated[list[float], at.Predicate(math.fsum)], [0.5]),
    ],
    ids=["subclass", "numbers", "optional", "literal", "after a transform", "prod", "fsum"],
)
def test_a_builtin_predicate_of_the_fields_type_is_taken(annotation, value):
    taken = parse_tool_input(declare(annotation, "fits"), {"x": value})["x"]
    assert taken == (5 if value == "5" else value)


def test_not_as_bare_metadata_is_enforced():
    # annotated_types.Not is not hashable: an Annotated holding it cannot be hashed either
    t = declare(Annotated[str, at.Not(str.isdigit)], "negated")
    assert parse_tool_input(t, {"x": "a"}) == {"x": "a"}
    assert refusal(t, {"x": "1"}).message == 'x: expected not digits only, got "1"'


# --- descriptions: typing_extensions.Doc and annotated_types.doc --------------------------------


def test_annotated_types_doc_is_typing_extensions_doc():
    assert at.doc is Doc


@pytest.mark.parametrize("make", [Doc, at.doc], ids=["typing_extensions", "annotated_types"])
def test_doc_describes_and_does_not_constrain(make):
    class Row(TypedDict):
        key: Annotated[str, make("The key")]

    @dataclasses.dataclass
    class Outer:
        rows: Annotated[list[Row], make("The rows")]

    async def described(
        n: Annotated[int, make("A number"), at.Ge(0)], outer: Outer | None = None
    ) -> None:
        """Takes described fields."""

    t = tool("c")(described)
    assert tool_input_schema(t) == {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "description": "A number"},
            "outer": {
                "type": "object",
                "properties": {
                    "rows": {
                        "type": "array",
                        "description": "The rows",
                        "items": {
                            "type": "object",
                            "properties": {"key": {"type": "string", "description": "The key"}},
                            "required": ["key"],
                        },
                    }
                },
                "required": ["rows"],
            },
        },
        "required": ["n"],
    }
    assert [f.description for f in t.input.fields] == ["A number", None]
    assert parse_tool_input(t, {"n": 0, "outer": {"rows": [{"key": ""}]}}) == {
        "n": 0,
        "outer": Outer(rows=[{"key": ""}]),
    }
    assert refusal(t, {"n": -1}).message == "n: expected at least 0, got -1"


def test_doc_text_is_not_read_as_a_constraint():
    t = declare(Annotated[str, Doc("at most 3 characters"), at.doc("lowercase")], "doc_only")
    assert parse_tool_input(t, {"x": "ABCDEF"}) == {"x": "ABCDEF"}
    assert tool_input_schema(t)["properties"]["x"]["type"] == "string"


def test_an_int_meets_a_float_step_exactly_so_equal_steps_mean_the_same():
    """typing caches `Annotated[...]` by equal arguments, so a plugin writing
    `Annotated[int, MultipleOf(14)]` gets the `MultipleOf(14.0)` another module wrote first (a
    long-running host loads them in any order). An int is never rounded to a float for the check:
    `14 * 2**50 + 1` is no multiple of 14, though `(14 * 2**50 + 1) % 14.0 == 0`."""

    @tool("steps")
    async def by_float(n: Annotated[int, at.MultipleOf(14.0)]) -> None:
        """Takes a multiple of 14.0."""

    @tool("steps")
    async def by_int(n: Annotated[int, at.MultipleOf(14)]) -> None:
        """Takes a multiple of 14."""

    odd = 14 * 2**50 + 1
    assert odd % 14.0 == 0  # what Python's `%` says, the int rounded to a float
    for t in (by_float, by_int):
        with pytest.raises(ToolRefusal) as info:
            parse_tool_input(t, {"n": odd})
        assert info.value.message.startswith("n: expected a multiple of 14")
        assert parse_tool_input(t, {"n": 14 * 2**50}) == {"n": 14 * 2**50}
        assert parse_tool_input(t, {"n": 28}) == {"n": 28}


def test_a_float_meets_a_step_past_any_float_exactly():
    """`0.0 % 10**400` raises OverflowError (the step is no float), so the check counts exactly:
    zero is a multiple of every step, and any other float is no multiple of a step that large."""

    @tool("steps")
    async def by_huge(x: Annotated[float, at.MultipleOf(10**400)]) -> None:
        """Takes a multiple of 10**400."""

    assert parse_tool_input(by_huge, {"x": 0.0}) == {"x": 0.0}
    with pytest.raises(ToolRefusal) as info:
        parse_tool_input(by_huge, {"x": 1.5})
    assert info.value.message.startswith("x: expected a multiple of ")


def test_a_builtin_predicate_from_outside_math_is_not_taken_for_a_number_one():
    """Only `math`'s builtins are known to take numbers: `operator.truth`, a builtin too, checks
    a str field as written (here: refusing the empty string)."""
    import operator  # noqa: PLC0415

    @tool("truth")
    async def said(text: Annotated[str, at.Predicate(operator.truth)]) -> None:
        """Takes some text."""

    assert parse_tool_input(said, {"text": "a"}) == {"text": "a"}
    with pytest.raises(ToolRefusal) as info:
        parse_tool_input(said, {"text": ""})
    assert info.value.message.startswith("text: expected a value passing truth")
