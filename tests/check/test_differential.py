"""Differential tests: the library accepts exactly what two independent validators accept.

Hypothesis draws TOOLS (fields of every type the field model takes, nested two or three deep,
with random bounds, built at run time) and JSON VALUES (random, and drawn from the tool's full
schema so that many are valid or nearly so). Each value goes through `parse_tool_input` and through:

1. the real `jsonschema` package (Draft 2020-12) on the tool's FULL schema (`full_schema.py`:
   every bound, `additionalProperties: false`, every union branch, null for fields that may be
   left out);
2. pydantic in strict mode (JSON input, `extra="forbid"`) on an equivalent `TypedDict` built
   from the same field model.

They must agree on accept or refuse. Where the library deliberately differs, the oracle says so
in one named place (`ORACLE` below and `_pydantic_type`), and a `test_difference_*` test pins the
difference against the stock validator, so the list in the docs' Guarantees section stays true.

`DIFF_EXAMPLES` (default 120) sets how many tools each property draws; each tool meets 12 values.
"""

import dataclasses
import enum
import itertools
import json
import math
import os
import typing
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Annotated, Any, Literal

import annotated_types as at
import jsonschema
import pytest
import typing_extensions as te
from full_schema import SET_MARK, full_schema
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from jsonschema.exceptions import ValidationError
from needs import missing

from adecore_tools import (
    ToolRefusal,
    parse_tool_input,
    required_field,
    tool,
    tool_input_schema,
)
from adecore_tools._model.metadata import RequiredField
from adecore_tools._model.nodes import (
    Array,
    Choice,
    Constrained,
    Field,
    Node,
    Nullable,
    Object,
    Record,
    Scalar,
    Union,
)

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

# pydantic needs a newer typing-extensions than the package does: `.ci/run` removes it to run the
# suite on the oldest typing-extensions the package admits
pydantic = pytest.importorskip("pydantic", reason=missing("pydantic"))

EXAMPLES = int(os.environ.get("DIFF_EXAMPLES", "120"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)
VALUES_PER_TOOL = 12

# --- tools drawn at run time ----------------------------------------------------------------

_NUMBERS = itertools.count()


def _fresh(prefix: str) -> str:
    return f"{prefix}{next(_NUMBERS)}"


# Names a host could pick, including ones the generated validator uses for its own locals.
TOP_NAMES = [
    "text",
    "items",
    "data",
    "ok",
    "problems",
    "unknown",
    "out",
    "v0",
    "_k0",
    "exc",
    "self",
    "make",
    "found",
    "é",
]
# TypedDict keys (functional syntax) may be any string at all.
KEY_NAMES = ["a", "b", "text", "a'b", 'x"y', "a\\nb", "a\nb", "é", "", " ", "0", "{}", "__class__"]
DATACLASS_NAMES = ["a", "b", "text", "é", "data", "self", "cls", "_x"]

ALPHABET = st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs", "Cc"))
WEIRD_TEXT = st.text(ALPHABET, max_size=4) | st.sampled_from(
    ["a'b", 'x"y', "\\", "\n", "é", "", " ", '"""', "{0}", "%s"]
)
INT_STEPS = st.integers(1, 5) | st.sampled_from([0.5, 2.5])
FLOAT_STEPS = st.sampled_from([1, 2, 3, 0.5, 0.25, 0.1, 2.5])


@st.composite
def number_checks(draw: st.DrawFn, kind: type) -> list[object]:
    """Bounds around a whole number they all admit (bounds no value meets fail at declaration)."""
    pivot = draw(st.integers(-8, 8))
    if kind is int:
        lows = st.integers(-10, pivot - 1) | st.sampled_from([pivot - 0.5, -(2**53), -(2**64)])
        highs = st.integers(pivot + 1, 10) | st.sampled_from(
            [pivot + 0.5, pivot + 1.0, 2**53, 2**64]
        )
    else:
        lows = st.floats(-10, pivot - 0.25) | st.integers(-10, pivot - 1) | st.just(-(2**53))
        highs = st.floats(pivot + 0.25, 10) | st.integers(pivot + 1, 10) | st.just(2**53)
    checks: list[object] = [make(draw(lows)) for make in (at.Gt, at.Ge) if _rarely(draw, 3)]
    checks += [make(draw(highs)) for make in (at.Lt, at.Le) if _rarely(draw, 3)]
    if _rarely(draw, 3):
        checks.append(at.MultipleOf(draw(INT_STEPS if kind is int else FLOAT_STEPS)))
    return checks


@st.composite
def length_checks(draw: st.DrawFn) -> list[object]:
    """Length bounds around a length they both admit."""
    pivot = draw(st.integers(0, 4))
    checks: list[object] = []
    if draw(st.booleans()):
        checks.append(at.MinLen(draw(st.integers(0, pivot))))
    if draw(st.booleans()):
        checks.append(at.MaxLen(draw(st.integers(pivot, 6))))
    return checks


def _rarely(draw: st.DrawFn, odds: int) -> bool:
    """True about once in `odds + 1` draws (Hypothesis leans towards 0, so 0 means no)."""
    return draw(st.integers(0, odds)) == odds


def _annotated(tp: object, checks: list[object]) -> object:
    if not checks:
        return tp
    annotated: Any = Annotated
    return annotated[(tp, *checks)]


def _unique_by_value(values: list[Any]) -> list[Any]:
    seen: set[object] = set()
    out = []
    for value in values:
        key = (type(value) is bool, value)
        if key not in seen:
            seen.add(key)
            out.append(value)
    return out


@st.composite
def choice_type(draw: st.DrawFn) -> object:
    kind = draw(st.sampled_from(["str", "int", "number", "bool"]))
    if kind == "str":
        values = draw(st.lists(WEIRD_TEXT, min_size=1, max_size=4, unique=True))
    elif kind == "int":
        values = draw(
            st.lists(st.integers(-5, 5) | st.just(2**60), min_size=1, max_size=4, unique=True)
        )
    elif kind == "number":
        numbers = st.integers(-5, 5) | st.sampled_from([0.5, -2.5, 1e20, 3.0])
        values = _unique_by_value(draw(st.lists(numbers, min_size=1, max_size=4)))
    else:
        values = draw(st.sampled_from([[True], [False], [True, False]]))
    if draw(st.booleans()):
        literal: Any = Literal
        return literal[tuple(values)]
    members = [(f"M{i}", value) for i, value in enumerate(values)]
    return enum.Enum(_fresh("Choice"), members)


@st.composite
def leaf_type(draw: st.DrawFn, *, blank_ok: bool) -> object:
    """A scalar or a choice, maybe with bounds, maybe behind a NewType or type alias."""
    kind = draw(st.sampled_from(["str", "int", "float", "bool", "choice", "choice"]))
    tp: object
    if kind == "choice":
        return draw(choice_type())
    if kind == "str":
        checks = draw(length_checks())
        if blank_ok and _rarely(draw, 4):
            checks.append(required_field("the text may not be blank"))
        base: object = str
    elif kind == "bool":
        checks, base = [], bool
    else:
        base = int if kind == "int" else float
        checks = draw(number_checks(base))
    if not checks and _rarely(draw, 5):
        base = typing.NewType(_fresh("New"), typing.cast("type", base))
    tp = _annotated(base, checks)
    if _rarely(draw, 6):
        tp = te.TypeAliasType(_fresh("Alias"), tp)
    return tp


def _as_literal(tp: object) -> object:
    """DIFFERENCE: in a set of `Enum | int`, `0` stays an int and `0.0` becomes the member: two
    items, where JSON Schema counts one (pinned by the union-branch difference test below). A
    set's union holds a choice as its `Literal`, whose values merge as the schema's do."""
    if not isinstance(tp, enum.EnumMeta):
        return tp
    literal: Any = Literal
    return literal[tuple(member.value for member in typing.cast("Any", tp))]


@st.composite
def hashable_type(draw: st.DrawFn) -> object:
    """What a set may hold: scalars and choices (and unions of them)."""
    if _rarely(draw, 5):
        first, second = (_as_literal(draw(leaf_type(blank_ok=True))) for _ in range(2))
        return typing.Union[first, second]  # noqa: UP007 - built at run time
    return draw(leaf_type(blank_ok=True))


@st.composite
def any_type(draw: st.DrawFn, depth: int, *, blank_ok: bool = True) -> object:  # noqa: PLR0911
    """Any supported type, nested at most `depth` containers deep."""
    if depth <= 0 or _rarely(draw, 3):
        return draw(leaf_type(blank_ok=blank_ok))
    kind = draw(
        st.sampled_from(
            [
                "list",
                "sequence",
                "tuple",
                "set",
                "frozenset",
                "dict",
                "mapping",
                "typeddict",
                "typeddict",
                "dataclass",
                "union",
                "optional",
            ]
        )
    )
    if kind in ("list", "sequence", "tuple"):
        items = draw(any_type(depth - 1))
        tp: Any = {"list": list, "sequence": Sequence, "tuple": tuple}[kind]
        built = tp[items, ...] if kind == "tuple" else tp[items]
        return _annotated(built, draw(length_checks()))
    if kind in ("set", "frozenset"):
        tp = set if kind == "set" else frozenset
        return _annotated(tp[draw(hashable_type())], draw(length_checks()))
    if kind in ("dict", "mapping"):
        tp = dict if kind == "dict" else Mapping
        return _annotated(tp[str, draw(any_type(depth - 1))], draw(length_checks()))
    if kind == "typeddict":
        return draw(typeddict_type(depth))
    if kind == "dataclass":
        return draw(dataclass_type(depth))
    if kind == "union":
        # equal branches collapse into one, which then stands for the field itself
        branches = draw(st.lists(any_type(depth - 1, blank_ok=blank_ok), min_size=2, max_size=3))
        return typing.Union[tuple(branches)]  # noqa: UP007 - built at run time
    # left out when null: required_field would contradict it
    return typing.Optional[draw(any_type(depth - 1, blank_ok=False))]  # noqa: UP045


@st.composite
def typeddict_type(draw: st.DrawFn, depth: int) -> object:
    names = draw(st.lists(st.sampled_from(KEY_NAMES), min_size=1, max_size=4, unique=True))
    total = draw(st.booleans())
    keys: dict[str, object] = {}
    for name in names:
        mode = draw(st.sampled_from(["required", "not_required", "nullable", "required_null"]))
        inner = draw(any_type(depth - 1, blank_ok=mode == "required"))
        if mode == "required":
            keys[name] = inner if total else te.Required[inner]
        elif mode == "not_required":
            keys[name] = te.NotRequired[inner]
        elif mode == "nullable":
            keys[name] = typing.Optional[inner]  # noqa: UP045 - built at run time
        else:
            keys[name] = te.Required[typing.Optional[inner]]  # noqa: UP045
    return te.TypedDict(_fresh("Shape"), keys, total=total)  # type: ignore[operator]


@st.composite
def dataclass_type(draw: st.DrawFn, depth: int) -> object:
    names = draw(st.lists(st.sampled_from(DATACLASS_NAMES), min_size=1, max_size=3, unique=True))
    fields: list[tuple[str, object, Any]] = []
    for name in names:
        if draw(st.booleans()):
            fields.append((name, draw(any_type(depth - 1)), dataclasses.field()))
        else:
            inner = draw(any_type(depth - 1, blank_ok=False))
            optional = typing.Optional[inner]  # noqa: UP045 - built at run time
            fields.append((name, optional, dataclasses.field(default=None)))
    return dataclasses.make_dataclass(
        _fresh("Record"), fields, kw_only=True, frozen=draw(st.booleans())
    )


@st.composite
def tools(draw: st.DrawFn) -> Any:
    """A tool of one to four fields, built from source text, its annotations in a namespace."""
    names = draw(st.lists(st.sampled_from(TOP_NAMES), min_size=1, max_size=4, unique=True))
    namespace: dict[str, object] = {}
    params = []
    for i, name in enumerate(names):
        required = draw(st.booleans())
        namespace[f"A{i}"] = draw(any_type(draw(st.integers(1, 3)), blank_ok=required))
        params.append(f"{name}: A{i}" + ("" if required else " = None"))
    source = f'async def generated(*, {", ".join(params)}) -> None:\n    """Generated."""\n'
    exec(source, namespace)  # noqa: S102 - our own source text; annotations come in the namespace
    return tool("diff")(namespace["generated"])


# --- values drawn from the full schema -------------------------------------------------------

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.integers(),
    st.sampled_from([2**53 + 1, 2**64, -(2**1100), 1e300, -0.0, 0.5, 1.0]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.sampled_from(KEY_NAMES) | st.text(max_size=3), children, max_size=3)
    ),
    max_leaves=8,
)
non_finite = st.sampled_from([math.nan, math.inf, -math.inf])
WHITESPACE = st.sampled_from(["", " ", "\t\n", "\x1c", "\u3000", "\x85"])


@st.composite
def values(draw: st.DrawFn, schema: dict[str, Any], *, with_non_finite: bool = True) -> Any:
    """A value for a schema: mostly drawn from it (valid or near its edges), else random JSON."""
    if _rarely(draw, 9):
        return draw(json_values | non_finite if with_non_finite else json_values)
    return draw(_valid(schema, with_non_finite=with_non_finite))


def _valid(schema: dict[str, Any], *, with_non_finite: bool) -> st.SearchStrategy[Any]:  # noqa: C901, PLR0911
    again = {"with_non_finite": with_non_finite}
    if "allOf" in schema:
        return _valid(schema["allOf"][0], **again)
    if "anyOf" in schema:
        return st.one_of([values(branch, **again) for branch in schema["anyOf"]])
    if "enum" in schema:
        twins = [float(v) for v in schema["enum"] if type(v) is int and abs(v) < 2**53]
        twins += [int(v) for v in schema["enum"] if type(v) is float and v.is_integer()]
        return st.sampled_from([*schema["enum"], *twins])
    kind = schema.get("type")
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "string":
        low, high = _sizes(schema, "minLength", "maxLength")
        return st.text(min_size=low, max_size=high) | WHITESPACE
    if kind in ("integer", "number"):
        return _numbers(schema)
    if kind == "array":
        low, high = _sizes(schema, "minItems", "maxItems")
        items = st.lists(values(schema["items"], **again), min_size=low, max_size=high)
        if schema.get(SET_MARK):
            items = st.one_of(items, items.map(lambda found: found + found[:2]))
        return items
    if "properties" in schema:
        return _objects(schema, with_non_finite=with_non_finite)
    low, high = _sizes(schema, "minProperties", "maxProperties")
    return st.dictionaries(
        st.text(max_size=3),
        values(schema["additionalProperties"], **again),
        min_size=low,
        max_size=high,
    )


def _sizes(schema: dict[str, Any], low_key: str, high_key: str) -> tuple[int, int]:
    low = max(0, schema.get(low_key, 0) - 1)
    high = schema.get(high_key, low + 4) + 1
    return low, max(low, high)


def _numbers(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    anchors: list[float] = [0, 1, -1, 0.5, -0.0, 2**53, 2**53 + 1, -(2**53), 2**64, 2**1100]
    for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        if key in schema:
            bound = schema[key]
            anchors += [bound, bound - 1, bound + 1, bound - 0.5, bound + 0.5]
    if "multipleOf" in schema:
        step = schema["multipleOf"]
        anchors += [step * k for k in range(-2, 4)]
    pool = st.sampled_from(anchors) | st.integers(-20, 20) | st.floats(-20, 20)
    return st.tuples(pool, st.sampled_from(["same", "float", "int"])).map(_as_kind)


def _as_kind(pair: tuple[float, str]) -> float:
    number, kind = pair
    try:
        if kind == "float":
            return float(number)
        if kind == "int" and math.isfinite(number):
            return int(number)
    except OverflowError:
        pass
    return number


@st.composite
def _objects(draw: st.DrawFn, schema: dict[str, Any], *, with_non_finite: bool) -> dict[str, Any]:
    required = set(schema.get("required", ()))
    out: dict[str, Any] = {}
    for name, sub in schema["properties"].items():
        how = draw(st.integers(0, 19))
        if name in required and how == 19:
            continue  # a required key left out
        if name not in required and how >= 16:
            continue  # an optional key left out
        if name not in required and how == 15:
            out[name] = None
            continue
        out[name] = draw(values(sub, with_non_finite=with_non_finite))
    if _rarely(draw, 11):
        key = draw(st.sampled_from([*KEY_NAMES, "zz"]))
        out.setdefault(key, draw(json_values))
    return out


# --- the jsonschema oracle --------------------------------------------------------------------


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _finite_number(_checker: object, value: object) -> bool:
    """DIFFERENCE: "number" is a finite double: NaN, Infinity and ints beyond a double refused."""
    if not _is_number(value):
        return False
    try:
        return math.isfinite(value)  # type: ignore[arg-type]
    except OverflowError:
        return False


def _checked_number(schema: dict[str, Any], value: Any) -> Any:
    """DIFFERENCE: a bound sees the value after its type's conversion (an int of a float field
    is already a float, an integral float of an int field already an int)."""
    try:
        if schema.get("type") == "number" and isinstance(value, int):
            return float(value)
    except OverflowError:
        return value
    if schema.get("type") == "integer" and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _bound(keyword: str, holds: Any) -> Any:
    def check(_validator: Any, bound: Any, instance: Any, schema: dict[str, Any]) -> Any:
        if _is_number(instance) and not holds(_checked_number(schema, instance), bound):
            yield ValidationError(f"{instance!r} breaks {keyword} {bound!r}")

    return check


def is_multiple(value: Any, step: Any) -> bool:
    """DIFFERENCE: `multipleOf: m` means `value % m == 0` in Python arithmetic, but an
    int is never rounded to a double for it: exact arithmetic decides (as where `%` overflows)."""
    if type(value) is int:
        return Fraction(value) % Fraction(step) == 0
    try:
        return value % step == 0  # type: ignore[no-any-return]
    except OverflowError:
        return Fraction(value) % Fraction(step) == 0


def _multiple_of(_validator: Any, step: Any, instance: Any, schema: dict[str, Any]) -> Any:
    if not _is_number(instance):
        return
    if not is_multiple(_checked_number(schema, instance), step):
        yield ValidationError(f"{instance!r} is not a multiple of {step!r}")


def _count(instance: list[Any], schema: dict[str, Any]) -> int:
    """DIFFERENCE: a set's length is counted after its duplicates merge, as Python
    merges them: in a set of `int | bool`, `false` and `0` are one item."""
    if not schema.get(SET_MARK):
        return len(instance)
    items = schema.get("items", {})
    try:
        return len({_checked_number(items, v) for v in instance})
    except TypeError:
        return len(instance)  # an unhashable item: `items` refuses it anyway


def _items_bound(keyword: str, holds: Any) -> Any:
    def check(validator: Any, size: int, instance: Any, schema: dict[str, Any]) -> Any:
        if validator.is_type(instance, "array") and not holds(_count(instance, schema), size):
            yield ValidationError(f"{len(instance)} items break {keyword} {size}")

    return check


ORACLE = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    validators={
        "minimum": _bound("minimum", lambda v, b: v >= b),
        "maximum": _bound("maximum", lambda v, b: v <= b),
        "exclusiveMinimum": _bound("exclusiveMinimum", lambda v, b: v > b),
        "exclusiveMaximum": _bound("exclusiveMaximum", lambda v, b: v < b),
        "multipleOf": _multiple_of,
        "minItems": _items_bound("minItems", lambda n, m: n >= m),
        "maxItems": _items_bound("maxItems", lambda n, m: n <= m),
    },
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("number", _finite_number),
)
"""Draft 2020-12 with the library's documented differences, each marked DIFFERENCE above."""


def _oracle_input(value: object) -> object:
    """DIFFERENCE: `None` as the whole input means no fields."""
    return {} if value is None else value


def library_accepts(t: Any, value: object) -> bool:
    code = None
    try:
        parse_tool_input(t, value)
    except ToolRefusal as refusal:
        code = refusal.code
    assert code in (None, "bad-arguments")
    return code is None


def _refusal_text(t: Any, value: object) -> str:
    try:
        parse_tool_input(t, value)
    except ToolRefusal as refusal:
        return refusal.message
    return "(accepted)"


# --- the full schema, as a literal ------------------------------------------------------------


class Tone(enum.Enum):
    CALM = "calm"
    LOUD = "loud"


class Inner(te.TypedDict):
    """A nested shape."""

    label: Annotated[str, at.MaxLen(5)]
    size: te.NotRequired[Annotated[int, at.Ge(0)]]
    note: str | None


@dataclasses.dataclass(frozen=True)
class Point:
    x: float
    y: Annotated[float, at.Le(1)] = 0.0


@tool("diff")
async def showcase(
    *,
    text: Annotated[str, required_field("text is needed"), at.MaxLen(8)],
    count: Annotated[int, at.Ge(0), at.Lt(10), at.MultipleOf(2)] = 0,
    ratio: Annotated[float, at.Gt(0), at.Le(1)] | None = None,
    tone: Tone = Tone.CALM,
    mode: Literal[1, 2.5] | None = None,
    tags: Annotated[list[Annotated[str, at.MinLen(1)]], at.MaxLen(3)] | None = None,
    uniq: Annotated[frozenset[int], at.MinLen(1)] | None = None,
    scores: Annotated[dict[str, float | None], at.MaxLen(2)] | None = None,
    inner: Inner | None = None,
    point: Point | None = None,
    either: int | Annotated[str, at.MinLen(2)] | None = None,
) -> None:
    """Takes a field of every kind, with bounds."""


SHOWCASE_FULL = {
    "type": "object",
    "properties": {
        "text": {"type": "string", "minLength": 1, "pattern": "\\S", "maxLength": 8},
        "count": {
            "anyOf": [
                {"type": "integer", "minimum": 0, "exclusiveMaximum": 10, "multipleOf": 2},
                {"type": "null"},
            ]
        },
        "ratio": {
            "anyOf": [
                {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
                {"type": "null"},
            ]
        },
        "tone": {"anyOf": [{"type": "string", "enum": ["calm", "loud"]}, {"type": "null"}]},
        "mode": {"anyOf": [{"type": "number", "enum": [1, 2.5]}, {"type": "null"}]},
        "tags": {
            "anyOf": [
                {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 3},
                {"type": "null"},
            ]
        },
        "uniq": {
            "anyOf": [
                {"type": "array", "items": {"type": "integer"}, "x-set": True, "minItems": 1},
                {"type": "null"},
            ]
        },
        "scores": {
            "anyOf": [
                {
                    "type": "object",
                    "additionalProperties": {"anyOf": [{"type": "number"}, {"type": "null"}]},
                    "maxProperties": 2,
                },
                {"type": "null"},
            ]
        },
        "inner": {
            "anyOf": [
                {
                    "type": "object",
                    "description": "A nested shape.",
                    "properties": {
                        "label": {"type": "string", "maxLength": 5},
                        "size": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
                        "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                    },
                    "additionalProperties": False,
                    "required": ["label"],
                },
                {"type": "null"},
            ]
        },
        "point": {
            "anyOf": [
                {
                    "type": "object",
                    "properties": {
                        "x": {"type": "number"},
                        "y": {"anyOf": [{"type": "number", "maximum": 1}, {"type": "null"}]},
                    },
                    "additionalProperties": False,
                    "required": ["x"],
                },
                {"type": "null"},
            ]
        },
        "either": {
            "anyOf": [
                {"anyOf": [{"type": "integer"}, {"type": "string", "minLength": 2}]},
                {"type": "null"},
            ]
        },
    },
    "additionalProperties": False,
    "required": ["text"],
}


def test_full_schema_of_a_tool_with_every_kind():
    assert full_schema(showcase) == SHOWCASE_FULL
    jsonschema.Draft202012Validator.check_schema(SHOWCASE_FULL)


@pytest.mark.parametrize(
    ("value", "accepted"),
    [
        ({"text": "hi"}, True),
        ({"text": "hi", "count": 4, "ratio": 1, "tone": "loud", "mode": 2.5}, True),
        ({"text": "hi", "count": 3}, False),
        ({"text": "hi", "count": 10}, False),
        ({"text": "hi", "ratio": 0}, False),
        ({"text": "   "}, False),
        ({"text": "hi", "tags": ["a", "b", "c", "d"]}, False),
        ({"text": "hi", "tags": [""]}, False),
        ({"text": "hi", "uniq": []}, False),
        ({"text": "hi", "scores": {"a": 1, "b": None}}, True),
        ({"text": "hi", "scores": {"a": 1, "b": 2, "c": 3}}, False),
        ({"text": "hi", "inner": {"label": "abc", "size": None, "note": None}}, True),
        ({"text": "hi", "inner": {"label": "abc", "extra": 1}}, False),
        ({"text": "hi", "inner": {"size": 1}}, False),
        ({"text": "hi", "point": {"x": 1, "y": 2}}, False),
        ({"text": "hi", "either": "a"}, False),
        ({"text": "hi", "either": "ab"}, True),
        ({"text": "hi", "nope": 1}, False),
    ],
)
def test_showcase_library_and_full_schema_agree(value, accepted):
    assert library_accepts(showcase, value) is accepted
    assert jsonschema.Draft202012Validator(SHOWCASE_FULL).is_valid(value) is accepted


def _mcp_projection(schema: Any) -> Any:
    """The full schema cut down to the MCP schema: the first non-null branch, six keywords."""
    if not isinstance(schema, dict):
        return schema
    while "anyOf" in schema or "allOf" in schema:
        if "allOf" in schema:
            schema = schema["allOf"][0]
            continue
        schema = next(b for b in schema["anyOf"] if b != {"type": "null"})
    out: dict[str, Any] = {}
    for key in ("type", "enum", "items", "properties", "required"):
        if key in schema:
            value = schema[key]
            if key == "items":
                value = _mcp_projection(value)
            elif key == "properties":
                value = {name: _mcp_projection(sub) for name, sub in value.items()}
            out[key] = value
    if schema.get("type") == "object" and "properties" not in schema:
        out.pop("required", None)
    return out


def _without_descriptions(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _without_descriptions(v) for k, v in schema.items() if k != "description"}
    if isinstance(schema, list):
        return [_without_descriptions(item) for item in schema]
    return schema


@pytest.mark.slow
@SETTINGS
@given(tools())
def test_full_schema_is_valid_and_cut_down_is_the_mcp_schema(t):
    schema = full_schema(t)
    jsonschema.Draft202012Validator.check_schema(schema)
    listed = _without_descriptions(json.loads(json.dumps(tool_input_schema(t))))
    assert _mcp_projection(schema) == listed


# --- property 1: the library accepts exactly what the full schema accepts ---------------------


@pytest.mark.slow
@SETTINGS
@given(st.data())
def test_library_accepts_exactly_what_the_full_schema_accepts(data):
    t = data.draw(tools(), label="tool")
    schema = full_schema(t)
    note(json.dumps(schema, indent=1, ensure_ascii=False))
    oracle = ORACLE(schema)
    drawn = data.draw(st.lists(values(schema), min_size=VALUES_PER_TOOL, max_size=VALUES_PER_TOOL))
    for value in drawn:
        got = library_accepts(t, value)
        expected = oracle.is_valid(_oracle_input(value))
        if got != expected:
            errors = [e.message for e in oracle.iter_errors(_oracle_input(value))]
            note(f"value: {value!r}\nlibrary: {_refusal_text(t, value)}\noracle: {errors}")
        assert got == expected


# --- property 2: pydantic strict on an equivalent TypedDict ----------------------------------

PYDANTIC_CONFIG = pydantic.ConfigDict(strict=True, extra="forbid")


def _refuse(message: str) -> Any:
    raise ValueError(message)


def _int_from_float(value: Any) -> Any:
    """DIFFERENCE: a float with an integral value is an int (strict pydantic refuses it)."""
    return int(value) if type(value) is float and value.is_integer() else value


def _choice_value(node: Choice) -> Any:
    """DIFFERENCE: booleans never match numbers in a choice (pydantic matches True with 1), and
    numbers match by value at any size (pydantic misses `10**20` for `Literal[0, 1e20]`)."""

    def check(value: Any) -> Any:
        if (node.json_type == "boolean") != (type(value) is bool):
            _refuse("a boolean never matches a number, nor a number a boolean")
        if node.json_type in ("integer", "number") and _is_number(value):
            return next((v for v in node.values if v == value), value)
        return value

    return check


def _multiple(step: Any) -> Any:
    """DIFFERENCE: `value % step == 0` (pydantic allows a float rounding tolerance)."""

    def check(value: Any) -> Any:
        return value if is_multiple(value, step) else _refuse(f"not a multiple of {step}")

    return check


def _not_blank(value: str) -> str:
    return value if value and not value.isspace() else _refuse("blank")


def _pydantic_type(node: Node) -> Any:  # noqa: C901, PLR0911, PLR0912 - one return per node kind
    """The pydantic strict equivalent of a type node."""
    annotated: Any = Annotated
    if isinstance(node, Scalar):
        if node.kind is int:
            return annotated[int, pydantic.BeforeValidator(_int_from_float)]
        if node.kind is float:
            # DIFFERENCE: an int too large for a double is refused, never made Infinity
            return annotated[float, pydantic.Field(allow_inf_nan=False)]
        return node.kind
    if isinstance(node, Choice):
        literal: Any = Literal
        first = node.outputs[0]
        tp = type(first) if isinstance(first, enum.Enum) else literal[node.values]
        return annotated[tp, pydantic.BeforeValidator(_choice_value(node))]
    if isinstance(node, Nullable):
        return typing.Optional[_pydantic_type(node.inner)]  # noqa: UP045 - built at run time
    if isinstance(node, Union):
        return typing.Union[tuple(_pydantic_type(b) for b in node.branches)]  # noqa: UP007
    if isinstance(node, Array):
        items = _pydantic_type(node.items)
        kind: Any = {list: list, tuple: tuple, set: set, frozenset: frozenset}[node.kind]
        return kind[items, ...] if kind is tuple else kind[items]
    if isinstance(node, Record):
        return dict[str, _pydantic_type(node.values)]  # type: ignore[misc]
    if isinstance(node, Object):
        return _pydantic_typeddict(node.fields)
    assert isinstance(node, Constrained)
    extra: list[object] = []
    for check in node.checks:
        if isinstance(check, at.MultipleOf):
            extra.append(pydantic.AfterValidator(_multiple(check.multiple_of)))
        elif isinstance(check, RequiredField):
            extra.append(pydantic.AfterValidator(_not_blank))
        else:
            extra.append(check)
    return annotated[(_pydantic_type(node.inner), *extra)]


def _set_of_a_union(node: Node) -> bool:
    """Whether a set anywhere in `node` holds union items (see the union difference below)."""
    while isinstance(node, (Constrained, Nullable)):
        node = node.inner
    if isinstance(node, Array):
        items = node.items
        while isinstance(items, (Constrained, Nullable)):
            items = items.inner
        return (node.kind in (set, frozenset) and isinstance(items, Union)) or _set_of_a_union(
            node.items
        )
    if isinstance(node, Union):
        return any(_set_of_a_union(branch) for branch in node.branches)
    if isinstance(node, Record):
        return _set_of_a_union(node.values)
    if isinstance(node, Object):
        return any(_set_of_a_union(f.type) for f in node.fields)
    return False


def _pydantic_typeddict(fields: tuple[Field, ...]) -> Any:
    keys: dict[str, Any] = {}
    for f in fields:
        node = f.type.inner if isinstance(f.type, Nullable) else f.type
        tp = _pydantic_type(node)
        # DIFFERENCE: null means left out, for every field or key that may be left out
        keys[f.name] = tp if f.required else te.NotRequired[typing.Optional[tp]]  # noqa: UP045
    shape: Any = te.TypedDict(_fresh("Strict"), keys)  # type: ignore[operator]
    shape.__pydantic_config__ = PYDANTIC_CONFIG
    return shape


def pydantic_adapter(t: Any) -> pydantic.TypeAdapter[Any] | None:
    """A strict adapter for the tool, or None when pydantic cannot build one (see the docs)."""
    try:
        return pydantic.TypeAdapter(_pydantic_typeddict(t.input.fields))
    except pydantic.errors.PydanticSchemaGenerationError:
        return None
    except Exception as exc:  # pydantic_core.SchemaError: an int bound such as Gt(2.5)
        if type(exc).__name__ == "SchemaError":
            return None
        raise


def pydantic_accepts(adapter: pydantic.TypeAdapter[Any], value: object) -> bool:
    try:
        adapter.validate_json(json.dumps(_oracle_input(value)))
    except pydantic.ValidationError:
        return False
    return True


@pytest.mark.slow
@SETTINGS
@given(st.data())
def test_library_accepts_exactly_what_strict_pydantic_accepts(data):
    t = data.draw(tools(), label="tool")
    adapter = pydantic_adapter(t)
    if adapter is None:
        return  # a type pydantic cannot express (an int bound like Gt(2.5)): nothing to compare
    if any(_set_of_a_union(f.type) for f in t.input.fields):
        return  # DIFFERENCE: unions pick their branch otherwise, and a set counts what they made
    schema = full_schema(t)
    note(json.dumps(schema, indent=1, ensure_ascii=False))
    drawn = data.draw(
        st.lists(
            values(schema, with_non_finite=False),
            min_size=VALUES_PER_TOOL,
            max_size=VALUES_PER_TOOL,
        )
    )
    for value in drawn:
        got = library_accepts(t, value)
        expected = pydantic_accepts(adapter, value)
        if got != expected:
            note(f"value: {value!r}\nlibrary: {_refusal_text(t, value)}")
        assert got == expected


# --- the documented differences, each pinned against the stock validator ---------------------

STOCK = jsonschema.Draft202012Validator


def _stock_pydantic(tp: Any) -> pydantic.TypeAdapter[Any]:
    return pydantic.TypeAdapter(tp, config=PYDANTIC_CONFIG)


def _json_ok(adapter: pydantic.TypeAdapter[Any], value: object) -> bool:
    try:
        adapter.validate_json(json.dumps(value))
    except pydantic.ValidationError:
        return False
    return True


def _python_ok(adapter: pydantic.TypeAdapter[Any], value: object) -> bool:
    try:
        adapter.validate_python(value)
    except pydantic.ValidationError:
        return False
    return True


@tool("diff")
async def numbers(
    *,
    count: int | None = None,
    ratio: float | None = None,
    limit: Annotated[float, at.Le(2**53)] | None = None,
    step: Annotated[float, at.MultipleOf(0.1)] | None = None,
    pick: Literal[1, 2] | None = None,
    flag: Literal[True] | None = None,
    uniq: Annotated[set[int], at.MinLen(2), at.MaxLen(2)] | None = None,
    lowered: Annotated[str, at.Predicate(str.islower)] | None = None,
) -> None:
    """Takes numbers."""


FULL = full_schema(numbers)


def _field_schema(name: str) -> dict[str, Any]:
    return FULL["properties"][name]["anyOf"][0]


def test_difference_null_means_left_out():
    # the MCP schema lists {"type": "integer"}; the library takes null as "left out"
    assert STOCK(tool_input_schema(numbers)).is_valid({"count": None}) is False
    assert library_accepts(numbers, {"count": None})
    # pydantic strict refuses null for a key that is only NotRequired
    shape: Any = te.TypedDict("NullShape", {"count": te.NotRequired[int]})  # type: ignore[operator]
    shape.__pydantic_config__ = PYDANTIC_CONFIG
    assert _json_ok(pydantic.TypeAdapter(shape), {"count": None}) is False


def test_difference_null_as_the_whole_input_means_no_fields():
    assert library_accepts(numbers, None)
    assert STOCK(FULL).is_valid(None) is False


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_difference_nan_and_infinity_are_refused(value):
    assert STOCK(_field_schema("ratio")).is_valid(value) is True
    assert not library_accepts(numbers, {"ratio": value})


def test_difference_int_beyond_a_double_is_refused_by_a_float_field():
    big = 2**1100
    assert STOCK(_field_schema("ratio")).is_valid(big) is True
    assert not library_accepts(numbers, {"ratio": big})
    # stock strict pydantic turns it into Infinity and accepts it
    assert _stock_pydantic(float).validate_json(json.dumps(big)) == math.inf


def test_difference_a_float_bound_sees_the_int_converted_to_float():
    value = 2**53 + 1  # float(value) == 2**53
    assert STOCK(_field_schema("limit")).is_valid(value) is False
    assert library_accepts(numbers, {"limit": value})
    assert _json_ok(_stock_pydantic(Annotated[float, at.Le(2**53)]), value)  # pydantic agrees


def test_difference_multiple_of_is_python_modulo():
    assert 0.5 % 0.1 != 0
    assert STOCK(_field_schema("step")).is_valid(0.5) is True  # 0.5 / 0.1 == 5.0
    assert not library_accepts(numbers, {"step": 0.5})
    assert library_accepts(numbers, {"step": 0.2})
    # pydantic allows a rounding tolerance
    assert _json_ok(_stock_pydantic(Annotated[float, at.MultipleOf(0.1)]), 0.5)


def test_difference_an_int_beyond_a_double_meets_a_float_step_exactly():
    @tool("diff")
    async def steps(*, n: Annotated[int, at.MultipleOf(0.5)]) -> None:
        """Takes halves."""

    assert library_accepts(steps, {"n": 10**400})
    with pytest.raises(OverflowError):  # stock jsonschema divides, and overflows
        STOCK({"multipleOf": 0.5}).is_valid(10**400)
    assert ORACLE({"multipleOf": 0.5}).is_valid(10**400)


def test_difference_set_length_counts_distinct_items():
    schema = _field_schema("uniq")
    assert STOCK(schema).is_valid([1, 1]) is True  # two items
    assert not library_accepts(numbers, {"uniq": [1, 1]})  # one distinct item
    assert STOCK(schema).is_valid([1, 2, 2]) is False  # three items
    assert library_accepts(numbers, {"uniq": [1, 2, 2]})  # two distinct items
    assert ORACLE(schema).is_valid([1, 2, 2])
    adapter = _stock_pydantic(Annotated[set[int], at.MinLen(2), at.MaxLen(2)])
    assert _json_ok(adapter, [1, 2, 2])  # pydantic counts the set too


class Digit(enum.Enum):
    ZERO = 0
    FIVE = 5


def test_difference_a_union_picks_its_branch_by_its_own_rule():
    """The first branch that keeps the value unchanged, else the first that takes it: `0` is the
    member, `0.0` stays a float. Strict pydantic makes both floats, so a set counts them apart."""
    tp = Annotated[set[Digit | float], at.MaxLen(2)]

    @tool("diff")
    async def digits(x: tp) -> None:  # type: ignore[valid-type]
        """Takes digits."""

    assert parse_tool_input(digits, {"x": [0, 0.0]}) == {"x": {Digit.ZERO, 0.0}}
    assert not library_accepts(digits, {"x": [0, 0.0, 5]})  # three distinct items
    assert ORACLE(full_schema(digits)).is_valid({"x": [0, 0.0, 5]})  # two, as JSON counts them
    assert _json_ok(_stock_pydantic(tp), [0, 0.0, 5])  # {0.0, 5.0}: two


def test_difference_predicates_have_no_schema():
    assert _field_schema("lowered") == {"type": "string"}
    assert STOCK(FULL).is_valid({"lowered": "ABC"})
    assert not library_accepts(numbers, {"lowered": "ABC"})


def test_difference_integral_float_is_an_int_unlike_strict_pydantic():
    assert library_accepts(numbers, {"count": 3.0})
    assert STOCK(_field_schema("count")).is_valid(3.0)  # JSON Schema agrees with the library
    assert not _json_ok(_stock_pydantic(int), 3.0)
    assert not _python_ok(_stock_pydantic(int), 3.0)


def test_difference_booleans_never_match_numbers_unlike_pydantic():
    assert not library_accepts(numbers, {"pick": True})
    assert not library_accepts(numbers, {"flag": 1})
    assert STOCK(_field_schema("pick")).is_valid(True) is False  # JSON Schema agrees
    assert _json_ok(_stock_pydantic(Literal[1, 2]), True)
    assert _json_ok(_stock_pydantic(Literal[True]), 1)
    mixed = enum.Enum("Mixed", {"ONE": 1, "HALF": 2.5})
    assert _json_ok(_stock_pydantic(mixed), True)


def test_difference_numbers_match_choices_by_value_at_any_size():
    @tool("diff")
    async def pick(n: Literal[0, 1e20]) -> None:
        """Takes a choice of numbers."""

    assert parse_tool_input(pick, {"n": 10**20}) == {"n": 1e20}
    assert STOCK(full_schema(pick)).is_valid({"n": 10**20})  # JSON Schema agrees
    assert not _json_ok(_stock_pydantic(Literal[0, 1e20]), 10**20)
    assert _json_ok(_stock_pydantic(Literal[1e20]), 10**20)  # unless the ints are gone


def test_difference_strict_pydantic_python_mode_wants_python_types():
    # JSON arrives as lists and plain values; the library takes them for every array kind and
    # choice. Strict pydantic takes them only from JSON text, not as Python objects.
    for tp, value in [
        (tuple[int, ...], [1]),
        (set[int], [1]),
        (frozenset[int], [1]),
        (enum.Enum("Tint", {"RED": "red"}), "red"),
    ]:
        assert not _python_ok(_stock_pydantic(tp), value)
        assert _json_ok(_stock_pydantic(tp), value)
    assert parse_tool_input(numbers, {"uniq": (1, 2)})["uniq"] == {1, 2}


def test_difference_lone_surrogates_pass_as_text():
    @tool("diff")
    async def echo(text: str) -> None:
        """Takes text."""

    assert parse_tool_input(echo, {"text": "\ud800"}) == {"text": "\ud800"}
    assert STOCK(full_schema(echo)).is_valid({"text": "\ud800"})
    assert not _json_ok(_stock_pydantic(str), "\ud800")  # JSON text cannot carry it to pydantic
    assert _python_ok(_stock_pydantic(str), "\ud800")


def test_difference_int_bound_that_is_not_an_int():
    @tool("diff")
    async def half(n: Annotated[int, at.Gt(2.5)]) -> None:
        """Takes an int above 2.5."""

    assert library_accepts(half, {"n": 3})
    assert not library_accepts(half, {"n": 2})
    assert STOCK(full_schema(half)).is_valid({"n": 3})
    with pytest.raises(Exception, match="'gt' must be coercible to an integer"):
        _stock_pydantic(Annotated[int, at.Gt(2.5)])  # stock pydantic cannot build it
