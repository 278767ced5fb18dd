"""Definition-time safety: mistakes raise at once, and user text never breaks anything.

1. Every annotation the schema cannot describe raises `TypeError` at decoration (or, for a name
   not defined yet, when the tool joins a toolkit), naming the tool and the field.
2. Strings the host controls (docstrings, descriptions, TypedDict keys, Literal and Enum values,
   required_field messages, the texts of ValueErrors from transforms, predicates and dataclass
   constructors) never break the validator or the schema: the tool declares, its schema is exactly
   right, validation works, and every message echoing them stays on one line.
"""

import builtins
import collections
import collections.abc
import dataclasses
import datetime as dt
import decimal
import enum
import importlib
import json
import math
import pathlib
import re
import string
import sys
import typing
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Annotated, Any, ClassVar, Final, Literal, NamedTuple, TypeVar

import annotated_types as at
import pytest
import typing_extensions as te
from helpers import refusal
from typing_extensions import Doc

from adecore_tools import (
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    field,
    parse_refusal_body,
    parse_tool_input,
    refusal_body,
    required_field,
    tool,
    tool_input_schema,
    transform,
)


def declare(annotation: object, *, name: str = "odd_tool", default: str = "") -> Any:
    """A tool with one field `fld` of this annotation, declared from source text."""
    namespace: dict[str, object] = {"A": annotation}
    source = f'async def {name}(*, fld: A{default}) -> None:\n    """Takes one field."""\n'
    exec(source, namespace)  # noqa: S102 - our own source text; the annotation is in the namespace
    return tool("odd")(namespace[name])


# --- annotations the schema cannot describe ---------------------------------------------------


class Mixed(enum.Enum):
    A = "a"
    B = 1


class Empty(enum.Enum):
    pass


class Pair(enum.Enum):
    A = (1, 2)


class Point(NamedTuple):
    x: int


class Plain:
    pass


class MyInt(int):
    pass


class MyStr(str):
    __slots__ = ()


T = TypeVar("T")


@dataclasses.dataclass
class WithInitVar:
    a: int
    b: dataclasses.InitVar[int]


@dataclasses.dataclass
class Mutable:
    a: int


@dataclasses.dataclass(frozen=True)
class FrozenWithList:
    """Frozen and hashable by its class, yet its list field makes every instance unhashable."""

    xs: list[int]


@dataclasses.dataclass(frozen=True)
class FrozenWithDict:
    labels: dict[str, str]


class Loop(te.TypedDict):
    child: "list[Loop]"


@dataclasses.dataclass
class LoopData:
    child: "LoopData | None" = None


class When(te.TypedDict):
    when: dt.datetime


@dataclasses.dataclass
class Deep:
    items: list[dict[str, When]]


@dataclasses.dataclass(init=False)
class NoInit:
    x: int

    def __init__(self, xy: tuple[int, int]) -> None:
        self.x = xy[0]


@dataclasses.dataclass
class OwnInit:
    """`dataclasses` keeps an `__init__` the class writes itself."""

    x: int

    def __init__(self, *, value: int) -> None:
        self.x = value


@dataclasses.dataclass(init=False)
class InitNeedsMore:
    """Takes every field by name, and one more thing no input holds."""

    x: int

    def __init__(self, x: int, scale: int) -> None:
        self.x = x * scale


@dataclasses.dataclass(init=False)
class InitByPosition:
    """Needs nothing beyond its fields, but takes them only by position."""

    x: int

    def __init__(self, *args: int) -> None:
        (self.x,) = args


@dataclasses.dataclass(init=False)
class InitUnread:
    """InitUnread"""  # what `dataclasses` writes from 3.11; 3.10 lets the signature's error out

    x: int

    __init__ = dict.__init__  # no signature `inspect` can read, nor one `dataclasses` could


@dataclasses.dataclass
class InheritsInitUnread(InitUnread):
    y: int = 0


class ExtraItems(te.TypedDict, extra_items=int):  # type: ignore[call-arg]
    name: str


class ExtraNulls(te.TypedDict, extra_items=None):  # type: ignore[call-arg]
    """Any other key, holding null: `None` here is a type, not "no extra items"."""

    name: str


class ExtraKey(te.TypedDict, closed=True):  # type: ignore[call-arg]
    """PEP 728's first draft, which typing-extensions still reads before Python 3.14."""

    name: str
    __extra_items__: int


class ExtraInherited(ExtraItems):
    """PEP 728: `extra_items` is inherited, though `__extra_items__` does not say so at run time."""

    size: int


class Page(te.TypedDict, te.Generic[T]):
    items: list[T]


UNSUPPORTED: dict[str, tuple[object, str]] = {
    "Any": (Any, "fld"),
    "object": (object, "fld"),
    "datetime": (dt.datetime, "fld"),
    "date": (dt.date, "fld"),
    "bytes": (bytes, "fld"),
    "bytearray": (bytearray, "fld"),
    "Decimal": (decimal.Decimal, "fld"),
    "UUID": (uuid.UUID, "fld"),
    "Path": (pathlib.Path, "fld"),
    "complex": (complex, "fld"),
    "None": (None, "fld"),
    "NoneType": (type(None), "fld"),
    "Literal of str and int": (Literal["a", 1], "fld"),
    "Literal of int and bool": (Literal[1, True], "fld"),
    "Literal of None only": (Literal[None], "fld"),  # noqa: PYI061 - the spelling is the subject
    "Literal of bytes": (Literal[b"x"], "fld"),
    "Literal of NaN": (Literal[math.nan], "fld"),
    "Literal of mixed members": (Literal[Mixed.A, Mixed.B], "fld"),
    "Enum of mixed types": (Mixed, "fld"),
    "Enum without members": (Empty, "fld"),
    "Enum of tuples": (Pair, "fld"),
    "bare list": (list, "fld"),
    "bare dict": (dict, "fld"),
    "bare typing.List": (typing.List, "fld"),  # noqa: UP006 - the bare alias is the subject
    "bare typing.Dict": (typing.Dict, "fld"),  # noqa: UP006
    "bare tuple": (tuple, "fld"),
    "bare set": (set, "fld"),
    "bare frozenset": (frozenset, "fld"),
    "bare Sequence": (Sequence, "fld"),
    "bare Mapping": (Mapping, "fld"),
    "dict[int, str]": (dict[int, str], "fld"),
    "Mapping[int, str]": (Mapping[int, str], "fld"),
    "dict with Literal keys": (dict[Literal["a"], int], "fld"),
    "tuple[int, str]": (tuple[int, str], "fld"),
    "tuple[int]": (tuple[int], "fld"),
    "tuple[()]": (tuple[()], "fld"),
    "NamedTuple": (Point, "fld"),
    "set[list[int]]": (set[list[int]], "fld"),
    "set[dict[str, int]]": (set[dict[str, int]], "fld"),
    "set of a mutable dataclass": (set[Mutable], "fld"),
    "set of a frozen dataclass holding a list": (set[FrozenWithList], "fld"),
    "frozenset of a frozen dataclass holding a dict": (frozenset[FrozenWithDict], "fld"),
    "recursive TypedDict": (Loop, "fld.child[]"),
    "recursive dataclass": (LoopData, "fld.child"),
    "TypeVar": (T, "fld"),
    "Callable": (Callable[[], int], "fld"),
    "Iterable": (Iterable[int], "fld"),
    "Iterator": (Iterator[int], "fld"),
    "type[int]": (type[int], "fld"),
    "plain class": (Plain, "fld"),
    "int subclass": (MyInt, "fld"),
    "str subclass": (MyStr, "fld"),
    "InitVar": (WithInitVar, "fld"),
    "int | Any": (int | Any, "fld"),
    "Optional[Any]": (typing.Optional[Any], "fld"),  # noqa: UP045 - the spelling is the subject
    "Annotated[Any]": (Annotated[Any, Doc("anything")], "fld"),
    "NotRequired on a parameter": (te.NotRequired[int], "fld"),
    "Required on a parameter": (te.Required[int], "fld"),
    "ReadOnly on a parameter": (te.ReadOnly[int], "fld"),
    "ClassVar": (ClassVar[int], "fld"),
    "Final": (Final[int], "fld"),
    "Never": (te.Never, "fld"),
    "LiteralString": (te.LiteralString, "fld"),
    "list[Any]": (list[Any], "fld[]"),
    "dict[str, object]": (dict[str, object], "fld{}"),
    "list[datetime]": (list[dt.datetime], "fld[]"),
    "union with datetime": (int | dt.datetime, "fld"),
    "TypedDict key": (When, "fld.when"),
    "deep inside a dataclass": (Deep, "fld.items[]{}.when"),
    "dataclass without its __init__": (NoInit, "fld"),
    "dataclass with an __init__ of its own": (OwnInit, "fld"),
    "TypedDict with extra_items": (ExtraItems, "fld"),
    "generic TypedDict": (Page[int], "fld"),
    "MaxLen not called": (Annotated[str, at.MaxLen], "fld"),
    "Ge not called": (Annotated[int, at.Ge], "fld"),
    "Len not called": (Annotated[str, at.Len], "fld"),
    "Doc not called": (Annotated[str, Doc], "fld"),
    "required_field not called": (Annotated[str, required_field], "fld"),
    "transform not called": (Annotated[str, transform], "fld"),
}


@pytest.mark.parametrize("case", UNSUPPORTED)
def test_every_unsupported_annotation_names_the_tool_and_the_field(case):
    annotation, path = UNSUPPORTED[case]
    with pytest.raises(TypeError) as caught:
        declare(annotation)
    text = str(caught.value)
    assert "'odd_tool'" in text
    assert f"field {path!r}" in text


FIX = re.compile(
    r"(?:; (?:use|take|say|write|declare|bound|give|make|let|if this|a choice is) |, like )[^;]*$"
    r"| only means something on a TypedDict key$"
)
"""How a message ends once it has said what is wrong: with what to do (`; use ...`, `, like
list[str]`), or, for a key wrapper on a parameter, with where it belongs."""


@pytest.mark.parametrize("case", UNSUPPORTED)
def test_every_unsupported_annotation_says_what_to_do(case):
    """A declaration error ends by saying what to do, after what is wrong."""
    annotation, _ = UNSUPPORTED[case]
    with pytest.raises(TypeError) as caught:
        declare(annotation)
    text = str(caught.value).split(": ", 1)[1]  # after "field 'fld' of tool 'odd_tool'"
    assert FIX.search(text), text


@pytest.mark.parametrize(
    ("annotation", "advice"),
    [
        (dt.datetime, "ISO 8601"),
        (decimal.Decimal, "returns Decimal(text) and raises ValueError"),
        (uuid.UUID, "transform(UUID)"),
        (pathlib.Path, "transform(Path)"),
        (string.Template, "transform(Template)"),
        (bytes, "base64"),
    ],
)
def test_a_type_sent_as_text_gets_advice_for_its_own_kind(annotation, advice):
    with pytest.raises(TypeError, match=re.escape(advice)):
        declare(annotation)


@pytest.mark.parametrize(
    ("annotation", "named"),
    [(string.Formatter, "string.Formatter"), (typing.SupportsInt, "SupportsInt")],
)
def test_a_class_of_string_or_typing_gets_the_advice_any_class_does(annotation, named):
    """`string.Formatter` was told to use transform(Template), as every class of the `string`
    module was; a class of `typing` (`SupportsInt`, `TextIO`) was no longer asked whether it was
    the call object, as it is on Python 3.10 to 3.13, though only 3.14's bare `Union` is none."""
    with pytest.raises(TypeError) as caught:
        declare(annotation)
    said = str(caught.value)
    assert said.startswith(f"field 'fld' of tool 'odd_tool': type {named} has no one JSON type;")
    assert said.endswith("; if this is the call object, make it a subclass of ToolCall")
    assert "transform(" not in said


@pytest.mark.skipif(sys.version_info < (3, 14), reason="t-strings are new in Python 3.14")
def test_a_t_string_template_is_told_to_take_a_str():
    """It got the list of supported types, and was asked whether it was the call object."""
    template = importlib.import_module("string.templatelib").Template
    with pytest.raises(TypeError) as caught:
        declare(template)
    assert str(caught.value) == (
        "field 'fld' of tool 'odd_tool': type string.templatelib.Template has no one JSON type; "
        "take a str and convert it with transform(...), such as transform(Template)"
    )


@pytest.mark.skipif(sys.version_info < (3, 15), reason="frozendict is new in Python 3.15")
@pytest.mark.parametrize("generic", [True, False], ids=["frozendict[str, int]", "frozendict"])
def test_a_frozendict_field_is_told_to_take_a_mapping(generic):
    """It was said to have "no one JSON type", though it is an object; a record passes a dict."""
    kind: Any = builtins.frozendict
    with pytest.raises(TypeError) as caught:
        declare(kind[str, int] if generic else kind)
    assert str(caught.value) == (
        f"field 'fld' of tool 'odd_tool': {'frozendict[str, int]' if generic else 'frozendict'} "
        "cannot be read: an object's keys come as a new dict; use Mapping[str, X], or "
        "Annotated[dict[str, X], transform(frozendict)] to get a frozendict"
    )


def test_a_sentinel_is_told_that_a_value_left_out_is_none():
    """PEP 661 (the builtin `sentinel` on Python 3.15): `x: int | MISSING = MISSING`."""
    sentinel = getattr(te, "Sentinel", None)
    if sentinel is None:
        pytest.skip("typing-extensions before 4.14 has no Sentinel")
    missing = sentinel("MISSING")
    with pytest.raises(TypeError) as caught:
        declare(int | missing)
    assert str(caught.value) == (  # as typing-extensions writes it: `<MISSING>` before 4.16
        f"field 'fld' of tool 'odd_tool': type {missing!r} has no one JSON type; a sentinel "
        "marks a value left out, which a tool gets as None: write X | None = None"
    )


@pytest.mark.parametrize(
    ("annotation", "text"),
    [
        (
            Annotated[str, at.MaxLen],
            "MaxLen is used without its arguments; write it called, as in MaxLen(...)",
        ),
        (
            Annotated[str, required_field],
            (
                "required_field is used without its arguments; write it called, as in "
                "required_field(...)"
            ),
        ),
        (
            Annotated[int, required_field("needs a number")],
            (
                "required_field is for a str field, not int; remove it (a field with no "
                "default that does not admit None is required, and MinLen(1) refuses an empty "
                "list)"
            ),
        ),
        (
            NoInit,
            (
                f"{__name__}.NoInit cannot be built from its fields by name (its __init__ "
                "takes (xy)); let dataclasses write __init__ (init=True and no __init__ of the "
                "class's own)"
            ),
        ),
        (
            InitNeedsMore,
            (
                f"{__name__}.InitNeedsMore cannot be built from its fields by name (its "
                "__init__ takes (x, scale)); let dataclasses write __init__ (init=True and no "
                "__init__ of the class's own)"
            ),
        ),
        (
            InitByPosition,
            (
                f"{__name__}.InitByPosition cannot be built from its fields by name (its "
                "__init__ takes (args)); let dataclasses write __init__ (init=True and no "
                "__init__ of the class's own)"
            ),
        ),
        (
            InitUnread,
            (
                f"{__name__}.InitUnread cannot be built from its fields by name (its __init__ "
                "has no signature Python can read); let dataclasses write __init__ (init=True and "
                "no __init__ of the class's own)"
            ),
        ),
        (
            ExtraItems,
            (
                f"{__name__}.ExtraItems allows keys beyond its fields (extra_items), which this "
                "package refuses in any input; declare each key, or use dict[str, X]"
            ),
        ),
        (
            ExtraInherited,
            (
                f"{__name__}.ExtraInherited allows keys beyond its fields (extra_items, from "
                f"{__name__}.ExtraItems), which this package refuses in any input; declare each "
                "key, or use dict[str, X]"
            ),
        ),
        (
            ExtraNulls,
            (
                f"{__name__}.ExtraNulls allows keys beyond its fields (extra_items), which this "
                "package refuses in any input; declare each key, or use dict[str, X]"
            ),
        ),
        pytest.param(
            ExtraKey,
            (
                f"{__name__}.ExtraKey allows keys beyond its fields (extra_items), which this "
                "package refuses in any input; declare each key, or use dict[str, X]"
            ),
            marks=pytest.mark.skipif(
                sys.version_info >= (3, 14),
                reason="from Python 3.14 typing-extensions reads `__extra_items__` as a key",
            ),
        ),
        (
            Page[int],
            (
                f"a generic TypedDict ({__name__}.Page[int]) cannot be read; declare a TypedDict "
                "with concrete types"
            ),
        ),
    ],
    ids=[
        "uncalled bound",
        "uncalled required_field",
        "required_field not on a str",
        "no __init__",
        "__init__ needs more than the fields",
        "__init__ takes the fields by position",
        "__init__ has no signature",
        "extra items",
        "extra items inherited",
        "extra items of None",
        "extra items key",
        "generic",
    ],
)
def test_a_mistake_the_type_system_allows_is_named_with_its_fix(annotation, text):
    with pytest.raises(TypeError) as caught:
        declare(annotation)
    assert str(caught.value) == f"field 'fld' of tool 'odd_tool': {text}"


def test_a_dataclass_based_on_one_whose_signature_cannot_be_read_is_declared():
    """A base's docstring is read for its fields' entries, and one `dataclasses` wrote is passed
    over: telling that asks for the base's signature, which raised `ValueError` out of `@tool`."""
    t = declare(InheritsInitUnread)
    assert [f.name for f in t.input.fields[0].type.fields] == ["x", "y"]
    assert parse_tool_input(t, {"fld": {"x": 1}})["fld"] == InheritsInitUnread(x=1)


def test_a_type_nested_past_the_recursion_limit_is_named_with_its_fix():
    """Every depth is read, until Python's own recursion limit: then a `TypeError` says so."""
    chain: list[Any] = [int]
    for level in range(1500):
        chain.append(te.TypedDict(f"Level{level}", {"inner": chain[-1]}))  # type: ignore[operator]
    with pytest.raises(TypeError) as caught:
        declare(chain[-1])
    assert str(caught.value) == (
        "tool 'odd_tool': a type nests deeper than Python's recursion limit lets this package read "
        "it; flatten it (a list of rows, or a record keyed by path)"
    )
    assert isinstance(caught.value.__cause__, RecursionError)  # shown, should the cause be other


def test_an_alias_nested_past_the_recursion_limit_is_named_with_its_fix():
    """An alias's value is resolved where it is read: too deep there is too deep, not unreadable."""
    deep: Any = int
    for _ in range(3000):
        deep = list[deep]
    with pytest.raises(TypeError) as caught:
        declare(te.TypeAliasType("Deep", deep))
    assert str(caught.value) == (
        "tool 'odd_tool': a type nests deeper than Python's recursion limit lets this package read "
        "it; flatten it (a list of rows, or a record keyed by path)"
    )
    assert isinstance(caught.value.__cause__, RecursionError)


class Closed(te.TypedDict, closed=True):  # type: ignore[call-arg]
    name: str


class NoExtra(te.TypedDict, extra_items=te.Never):  # type: ignore[call-arg]
    name: str


class ClosedAgain(ExtraItems, closed=True):  # type: ignore[call-arg]
    """Closes what its base left open: the nearest class decides."""


class NoExtraToRead(te.TypedDict, extra_items=te.ReadOnly[te.Never]):  # type: ignore[call-arg]
    name: str


@dataclasses.dataclass
class ByName:
    """An `__init__` of its own that still takes every field by name."""

    x: int
    y: int = 0

    def __init__(self, x: int, y: int = 0, **_: object) -> None:
        self.x, self.y = x, y


@pytest.mark.parametrize("annotation", [Closed, NoExtra, ClosedAgain, NoExtraToRead])
def test_a_closed_typeddict_is_read_like_any_other(annotation):
    t = declare(annotation)
    assert parse_tool_input(t, {"fld": {"name": "a"}}) == {"fld": {"name": "a"}}
    assert _refusal(t, {"fld": {"name": "a", "more": 1}}).message == "fld.more: unknown field"


def test_a_dataclass_with_its_own_init_taking_the_fields_by_name_is_read():
    t = declare(ByName)
    assert parse_tool_input(t, {"fld": {"x": 1}})["fld"] == ByName(1)


@pytest.mark.parametrize(
    ("annotation", "text"),
    [
        (
            Annotated[str, at.MinLen(5), at.MaxLen(2)],
            "MinLen(min_length=5) and MaxLen(max_length=2)",
        ),
        (Annotated[list[int], at.Len(5, 2)], "MinLen(min_length=5) and MaxLen(max_length=2)"),
        (Annotated[int, at.Gt(3), at.Lt(1)], "Gt(gt=3) and Lt(lt=1)"),
        (Annotated[float, at.Interval(gt=5, lt=5)], "Gt(gt=5) and Lt(lt=5)"),
        (Annotated[float, at.Ge(5), at.Lt(5)], "Ge(ge=5) and Lt(lt=5)"),
        (Annotated[int, at.Gt(2.5), at.Lt(3)], "Gt(gt=2.5) and Lt(lt=3)"),
        (Annotated[int, at.Ge(2), at.Gt(3), at.Le(3)], "Gt(gt=3) and Le(le=3)"),
    ],
)
def test_bounds_no_value_can_meet_are_refused_at_declaration(annotation, text):
    with pytest.raises(ValueError, match="no value meets both") as caught:
        declare(annotation)
    assert str(caught.value) == (
        f"field 'fld' of tool 'odd_tool': no value meets both {text}; loosen one of them"
    )


@pytest.mark.parametrize(
    "annotation",
    [
        Annotated[float, at.Gt(math.inf)],
        Annotated[float, at.Ge(math.inf)],
        Annotated[int, at.Le(-math.inf)],
        Annotated[float | None, at.Lt(-math.inf)],
    ],
)
def test_a_bound_beyond_every_finite_number_is_refused_at_declaration(annotation):
    with pytest.raises(ValueError, match="no finite number meets") as caught:
        declare(annotation)
    assert str(caught.value).startswith("field 'fld' of tool 'odd_tool': no finite number meets ")


@pytest.mark.parametrize(
    "annotation", [Annotated[float, at.Lt(math.inf)], Annotated[int, at.Ge(-math.inf)]]
)
def test_a_bound_at_infinity_that_every_number_meets_is_kept(annotation):
    assert parse_tool_input(declare(annotation), {"fld": 1}) == {"fld": 1}


@pytest.mark.parametrize(
    ("annotation", "value"),
    [
        (Annotated[str, at.MinLen(2), at.MaxLen(2)], "ab"),
        (Annotated[int, at.Ge(3), at.Le(3)], 3),
        (Annotated[int, at.Gt(2.5), at.Le(3)], 3),
        (Annotated[int, at.Gt(2), at.Lt(4)], 3),
        (Annotated[float, at.Ge(2.5), at.Le(2.5)], 2.5),
        (Annotated[int, at.Gt(-(10**400)), at.Lt(10**400)], 0),
    ],
)
def test_bounds_that_leave_one_value_are_kept(annotation, value):
    assert parse_tool_input(declare(annotation), {"fld": value}) == {"fld": value}


@pytest.mark.parametrize(
    ("key", "name"),
    [
        (uuid.UUID, "uuid.UUID"),
        (dt.date, "datetime.date"),
        (bytes, "bytes"),
        (list, "list"),
    ],
)
def test_a_key_of_any_other_type_is_told_keys_are_strings(key, name):
    with pytest.raises(TypeError) as caught:
        declare(dict[key, int])  # type: ignore[valid-type]
    assert str(caught.value) == (
        "field 'fld' of tool 'odd_tool': object keys are strings in JSON; use dict[str, ...], "
        f"not {name} keys"
    )


def test_a_bounded_string_key_is_told_keys_take_no_bounds():
    """Such a key is a string: "keys are strings" would send the host in a circle."""
    with pytest.raises(TypeError) as caught:
        declare(dict[Annotated[str, at.MinLen(2)], int])
    assert str(caught.value) == (
        "field 'fld' of tool 'odd_tool': a mapping's keys take no bounds or checks (the schema "
        "lists none for them); use dict[str, ...] and check the keys in the tool, or declare "
        "the keys as a TypedDict"
    )


class OddMatch:
    """Metadata no bound knows, with match args a pattern could not use."""

    __match_args__ = 1  # type: ignore[assignment]


class RaisingMatch:
    __match_args__ = ("value",)

    @property
    def value(self) -> int:
        raise LookupError


@pytest.mark.parametrize("meta", [OddMatch(), RaisingMatch()], ids=["not a tuple", "raises"])
def test_unknown_metadata_of_any_shape_is_ignored(meta):
    t = declare(Annotated[int, meta])
    assert parse_tool_input(t, {"fld": 1}) == {"fld": 1}


def test_a_name_never_defined_names_the_tool_and_the_field_when_the_toolkit_is_built():
    namespace: dict[str, object] = {}
    source = (
        "async def odd_tool(*, good: int, fld: 'NeverDefined') -> None:\n"
        '    """Takes one field."""\n'
    )
    exec(source, namespace)  # noqa: S102 - our own source text
    later = tool("odd")(namespace["odd_tool"])  # deferred: the name may be defined further down
    with pytest.raises(TypeError) as caught:
        define_toolkit("odd", [later])
    text = str(caught.value)
    assert "'odd_tool'" in text
    assert "NeverDefined" in text
    assert "'fld'" in text  # each message names the tool and the field path


@pytest.mark.parametrize(
    "annotation",
    [
        Annotated[int, at.Le(10**400)],
        Annotated[int, at.Gt(-(10**400))],
        Annotated[float, at.Ge(-(10**400))],
        Annotated[int, at.MultipleOf(10**400)],
    ],
    ids=["int Le", "int Gt", "float Ge", "MultipleOf"],
)
def test_an_int_bound_beyond_a_float_is_a_bound_like_any_other(annotation):
    """An int bound too large for a float is still an int: it declares and it holds."""
    t = declare(annotation)
    assert parse_tool_input(t, {"fld": 0}) == {"fld": 0}


@pytest.mark.parametrize(
    ("annotation", "kind"),
    [
        (Annotated[int, at.Gt("a")], TypeError),
        (Annotated[float, at.Gt(math.nan)], TypeError),
        (Annotated[int, at.Gt(True)], TypeError),
        (Annotated[int, at.MultipleOf(0)], ValueError),
        (Annotated[int, at.MultipleOf(math.inf)], ValueError),
        (Annotated[str, at.MinLen(-1)], ValueError),
        (Annotated[str, at.MaxLen(1.5)], ValueError),
        (Annotated[str, at.Predicate(5)], TypeError),  # type: ignore[arg-type]
    ],
    ids=[
        "Gt str",
        "Gt nan",
        "Gt True",
        "step 0",
        "step inf",
        "MinLen -1",
        "MaxLen 1.5",
        "Predicate 5",
    ],
)
def test_a_bad_bound_names_the_tool_and_the_field(annotation, kind):
    with pytest.raises(kind) as caught:
        declare(annotation)
    assert "field 'fld' of tool 'odd_tool'" in str(caught.value)


# --- host strings: quotes, backslashes, newlines, non-ASCII ------------------------------------

NASTY = [
    "a'b",
    'x"y',
    "back\\slash",
    "a\\nb",
    "new\nline",
    "tab\there",
    "é",
    "名前",
    "",
    " ",
    '"""',
    "'''",
    "{0}{}",
    "%s%d",
    "\x00",
    "\u2028",
    "\U0001f600",  # a lone surrogate is refused: see test_a_lone_surrogate_in_host_text_...
    "refused\tnot-permitted\tforged",
    "_k0",
    "data",
]


def _one_line(refusal: ToolRefusal) -> None:
    assert refusal.code == "bad-arguments"
    body = refusal_body(refusal)
    body.encode("utf-8")
    assert len(body.split("\n")) == 1 + len(refusal.lines)
    assert field(refusal.message) == refusal.message
    assert parse_refusal_body(body) == refusal


def _refusal(t: Any, data: object) -> ToolRefusal:
    found = refusal(t, data)
    _one_line(found)
    return found


Null = te.TypeAliasType("Null", None)
QuotedNull = te.TypeAliasType("QuotedNull", "None")  # quoted names in an alias resolve too
NullAgain = te.TypeAliasType("NullAgain", Null)
Looped = te.TypeAliasType("Looped", "Looped")  # names only itself: never None


@pytest.mark.parametrize(
    "annotation",
    [
        typing.Optional[Literal[None]],  # noqa: UP045, PYI061 - the forms a host may write
        Literal[None] | None,  # noqa: PYI061
        list[Literal[None] | None],  # noqa: PYI061
        Null | None,
    ],
    ids=repr,
)
def test_a_union_of_nothing_but_none_is_no_input(annotation):
    with pytest.raises(TypeError, match=r"None alone is no input; use X \| None"):
        declare(annotation)


@pytest.mark.parametrize(
    "annotation",
    [
        int | Null,
        typing.Optional[int] | Null,  # noqa: UP045
        te.TypeAliasType("Maybe", int | Null),
        int | QuotedNull,
        int | NullAgain,
    ],
)
def test_an_alias_of_none_in_a_union_makes_it_nullable(annotation):
    t = declare(annotation)
    assert parse_tool_input(t, {"fld": None}) == {"fld": None}
    assert parse_tool_input(t, {"fld": 3}) == {"fld": 3}
    assert tool_input_schema(t)["properties"]["fld"] == {"type": "integer"}


def test_an_alias_naming_only_itself_is_refused_in_a_union():
    with pytest.raises(TypeError, match="Looped refers to itself"):
        declare(int | Looped)


Grow = te.TypeAliasType("Grow", "list[Grow[list[T]]]", type_params=(T,))  # never repeats
Cell = te.TypeAliasType("Cell", dict[str, T], type_params=(T,))
IntCell = te.TypeAliasType("IntCell", Cell[int])


def test_a_generic_alias_growing_in_its_own_value_is_refused_as_a_cycle():
    """`Grow[int]` reads `Grow[list[int]]`, then `Grow[list[list[int]]]`: never the same twice."""
    with pytest.raises(TypeError, match="Grow refers to itself"):
        declare(Grow[int])


def test_an_alias_met_again_only_in_its_arguments_is_no_cycle():
    t = declare(Cell[Cell[list[Cell[int]]]])
    assert parse_tool_input(t, {"fld": {"a": {"b": [{"c": 1.0}]}}}) == {
        "fld": {"a": {"b": [{"c": 1}]}}
    }
    t = declare(Cell[IntCell])
    assert parse_tool_input(t, {"fld": {"a": {"b": 1.0}}}) == {"fld": {"a": {"b": 1}}}


@pytest.mark.parametrize(
    ("annotation", "named"),
    [
        (type[int], "type[int]"),
        (collections.abc.Callable[[int], str], "collections.abc.Callable[[int], str]"),
        (collections.deque[int], "collections.deque[int]"),
        (re.Pattern[str], "re.Pattern[str]"),
        (typing.Any, "Any"),
        (pathlib.Path, "pathlib.Path"),
        (typing.Union, "Union"),
    ],
)
def test_a_type_is_named_the_same_way_on_every_python(annotation, named):
    """3.10 counts `deque[int]` as a class; 3.11 made `Any` one; 3.13 moved `Path` to `_local`;
    3.14 made `Union` one (asked then whether it was the call object).
    """
    with pytest.raises(TypeError) as info:
        declare(annotation)
    said = str(info.value)
    assert said.startswith(f"field 'fld' of tool 'odd_tool': type {named} has no one JSON type; ")
    assert ("ToolCall" in said) is False


def test_docstrings_and_descriptions_keep_their_text_exactly():
    text = 'Says "hi" to \'you\'\\n, then {braces} %s é 名前 """ and \\ back.'
    t = tool("odd", description=text)(declare(str).fn)
    assert t.description == text

    async def documented(
        *,
        a: Annotated[str, Doc(text)],
        b: Annotated[int, Doc("line one\nline two\ttab")] = 0,
    ) -> None:
        pass

    documented.__doc__ = f"Quotes ''' and \"\"\" and \\ in a docstring: {text}"
    t = tool("odd")(documented)
    assert t.description == documented.__doc__
    assert tool_input_schema(t) == {
        "type": "object",
        "properties": {
            "a": {"type": "string", "description": text},
            "b": {"type": "integer", "description": "line one\nline two\ttab"},
        },
        "required": ["a"],
    }
    assert parse_tool_input(t, {"a": "x"}) == {"a": "x", "b": 0}


def _with_doc(doc: object, **options: Any) -> Any:
    async def documented(*, a: str) -> None:
        pass

    documented.__doc__ = doc
    return tool("odd", **options)(documented)


def _documented_later(doc: object) -> type[object]:
    """A dataclass given its docstring after the `class` statement, which refuses a surrogate."""

    @dataclasses.dataclass
    class Later:
        a: int

    Later.__doc__ = doc  # type: ignore[assignment]
    return Later


class SurrogateMember(enum.Enum):
    FINE = "fine"
    HALF = "half \ud800"


SURROGATES = {
    "docstring": (lambda: _with_doc("Writes \ud83d\ude00."), "tool 'documented': its docstring"),
    "docstring's Args": (
        lambda: _with_doc("Writes.\n\nArgs:\n    a: The \ud800."),
        "tool 'documented': its docstring",
    ),
    "description=": (
        lambda: _with_doc("Writes.", description="Writes \udc80."),
        "tool 'documented': its description",
    ),
    "title=": (lambda: _with_doc("Writes.", title="Note \ud800"), "tool 'documented': its title"),
    "Doc": (lambda: declare(Annotated[str, Doc("\ud800")]), "field 'fld' of tool 'odd_tool'"),
    "Doc of items": (
        lambda: declare(list[Annotated[str, Doc("x\ud800")]]),
        "field 'fld[]' of tool 'odd_tool'",
    ),
    "TypedDict key": (
        lambda: declare(te.TypedDict("Keyed", {"a\ud800": int})),  # type: ignore[operator]
        "field 'fld' of tool 'odd_tool'",
    ),
    "Literal": (lambda: declare(Literal["ok", "\udbff"]), "field 'fld' of tool 'odd_tool'"),
    "class __doc__ set later": (
        lambda: declare(_documented_later("Writes.\n\nAttributes:\n    a: The \ud800.")),
        "field 'fld' of tool 'odd_tool'",
    ),
    "Enum": (lambda: declare(SurrogateMember), "field 'fld' of tool 'odd_tool'"),
}


@pytest.mark.parametrize(("declaring", "where"), SURROGATES.values(), ids=list(SURROGATES))
def test_a_lone_surrogate_in_host_text_is_refused_at_decoration(declaring, where):
    """No UTF-8 text carries one: the MCP SDK would fail at every `tools/list` instead.

    (A `class` statement's docstring cannot hold one: Python refuses it when it makes the class;
    one set on the class later can.)
    """
    with pytest.raises(ValueError, match="lone surrogate") as caught:
        declaring()
    said = str(caught.value)
    assert said.startswith(where)
    assert "write the character itself" in said
    said.encode("utf-8")  # the message itself can be printed and logged


class Googol(enum.Enum):
    SMALL = 1
    HUGE = 10**5000


@pytest.mark.parametrize(
    ("annotation", "what"),
    [
        (Literal[1, 10**5000], "the Literal"),
        (list[Literal[-(10**5000)]], "the Literal"),
        (Googol, f"the Enum {__name__}.Googol"),
    ],
    ids=["Literal", "negative, in a list", "Enum"],
)
def test_a_choice_json_cannot_write_is_refused_at_decoration(annotation, what):
    """`json.dumps` of the listing raised Python's int-to-text `ValueError` at every listing."""
    with pytest.raises(ValueError, match="4300 digits") as caught:
        declare(annotation)
    assert str(caught.value).endswith(
        f": {what} holds an integer of more than 4300 digits, which Python writes as no text, so "
        "no JSON listing could carry it; use a smaller number, or a string"
    )


def test_a_choice_of_large_integers_json_can_write_is_listed():
    t = declare(Literal[2**64, 10**4299])
    assert json.loads(json.dumps(tool_input_schema(t)))["properties"]["fld"]["enum"] == [
        2**64,
        10**4299,
    ]


def test_a_docstring_that_is_no_string_is_no_description():
    with pytest.raises(ValueError, match="tool 'documented' has no description; write a docstring"):
        _with_doc(b"Writes.")
    declare(_documented_later(b"Data."))  # a class's counts as none too


def test_a_character_outside_the_basic_plane_is_listed():
    t = _with_doc("Writes \U0001f600.\n\nArgs:\n    a: The \U0001f600.", title="\U0001f600")
    (entry,) = create_tool_registry([define_toolkit("odd", [t])]).mcp_tools()
    assert entry["description"] == "Writes \U0001f600."
    assert entry["inputSchema"]["properties"]["a"]["description"] == "The \U0001f600."
    assert entry["annotations"]["title"] == "\U0001f600"


def test_any_typeddict_key_declares_lists_and_validates():
    keys = NASTY
    shape: Any = te.TypedDict("Shape", dict.fromkeys(keys, int))  # type: ignore[operator]

    @tool("odd")
    async def takes_shape(*, shape: shape) -> None:  # type: ignore[valid-type]
        """Takes a shape whose keys are odd."""

    assert tool_input_schema(takes_shape) == {
        "type": "object",
        "properties": {
            "shape": {
                "type": "object",
                "properties": {key: {"type": "integer"} for key in keys},
                "required": keys,
            }
        },
        "required": ["shape"],
    }
    full = dict.fromkeys(keys, 1)
    assert parse_tool_input(takes_shape, {"shape": full}) == {"shape": full}
    refusal = _refusal(takes_shape, {"shape": {**full, "new\nline": "one", "zz\n": 1}})
    assert 'shape["new line"]: expected an integer' in refusal.message
    assert 'shape["zz "]: unknown field' in refusal.message
    missing = _refusal(takes_shape, {"shape": {}})
    assert missing.message.count("missing, expected an integer") == 10
    assert missing.message.endswith(f"and {len(keys) - 10} more")


@pytest.mark.parametrize(
    ("key", "shown"),
    [(1, "1"), (None, "None"), (("a",), "('a',)"), (10**5000, "a very large integer")],
    ids=["int", "None", "tuple", "huge int"],
)
def test_a_typeddict_key_that_is_no_string_is_refused_at_decoration(key, shown):
    """The functional syntax takes any key: one no JSON object has is the host's mistake.

    It raised AttributeError ('int' object has no attribute 'isascii') out of @tool.
    """
    keyed: Any = te.TypedDict("Keyed", {key: int})  # type: ignore[operator]
    with pytest.raises(TypeError) as caught:
        declare(keyed)
    assert str(caught.value) == (
        f"field 'fld' of tool 'odd_tool': the key {shown} of {__name__}.Keyed is not a string; "
        "an object's keys are strings in JSON: name the key with one"
    )


class _OwnHash(str):
    """A key class whose hash is its own: a lookup by the text would never find it."""

    __slots__ = ()

    def __hash__(self) -> int:
        return 1

    def __eq__(self, other: object) -> bool:
        return type(other) is _OwnHash and str.__eq__(self, other)


def test_a_typeddict_key_of_a_str_subclass_is_read_as_its_text():
    """The key's own hash and equality decided every lookup: the field refused every input."""
    keyed: Any = te.TypedDict(  # type: ignore[operator]
        "Keyed", {_OwnHash("blue"): int, _OwnHash("green"): te.NotRequired[int]}
    )
    t = declare(keyed)
    assert tool_input_schema(t)["properties"]["fld"]["required"] == ["blue"]
    got = parse_tool_input(t, {"fld": {"blue": 1}})
    assert got == {"fld": {"blue": 1}}
    assert [type(key) for key in got["fld"]] == [str]
    assert [type(f.name) for f in t.input.fields[0].type.fields] == [str, str]


def test_field_names_the_generated_validator_uses_itself():
    names = [
        "data",
        "ok",
        "unknown",
        "problems",
        "out",
        "v0",
        "v1",
        "_k0",
        "_check0",
        "_left0",
        "_c0_0",
        "_known",
        "_clean",
        "_Invalid",
        "_merge",
        "_add",
        "_combine",
        "_ABSENT",
        "_build",
        "make",
        "check_object",
        "exc",
        "found",
        "é",
        "名前",
    ]
    namespace: dict[str, object] = {"A": Annotated[int, at.Ge(0)]}
    params = ", ".join(f"{name}: A = {n}" for n, name in enumerate(names))
    exec(f'async def names(*, {params}) -> None:\n    """Odd names."""\n', namespace)  # noqa: S102
    t = tool("odd")(namespace["names"])
    assert parse_tool_input(t, {}) == {name: n for n, name in enumerate(names)}
    assert parse_tool_input(t, {"ok": 5, "data": 6})["data"] == 6
    refusal = _refusal(t, {"ok": -1, "_k0": "x", "v1": None, "nope": 1})
    assert refusal.message == (
        'ok: expected at least 0, got -1; _k0: expected an integer, got "x"; nope: unknown field'
    )


def test_three_hundred_fields():
    namespace: dict[str, object] = {}
    params = ", ".join(f"f{n}: int = {n}" for n in range(300))
    exec(f'async def wide(*, {params}) -> None:\n    """Many fields."""\n', namespace)  # noqa: S102
    t = tool("odd")(namespace["wide"])
    assert parse_tool_input(t, {"f299": 1})["f299"] == 1
    refusal = _refusal(t, {f"f{n}": "x" for n in range(300)})
    assert refusal.message.endswith("and 290 more")


LITERALS = [value for value in NASTY if value]


def test_literal_values_with_any_text():
    choices: Any = Literal[tuple(LITERALS)]

    @tool("odd")
    async def pick(*, choice: choices) -> None:  # type: ignore[valid-type]
        """Picks one."""

    assert tool_input_schema(pick) == {
        "type": "object",
        "properties": {"choice": {"type": "string", "enum": LITERALS}},
        "required": ["choice"],
    }
    for value in LITERALS:
        assert parse_tool_input(pick, {"choice": value}) == {"choice": value}
    refusal = _refusal(pick, {"choice": "none of them"})
    assert refusal.message.startswith('choice: expected one of "a\'b", "x\\"y", "back\\\\slash"')
    assert '"new line"' in refusal.message
    assert '"refused not-permitted forged"' in refusal.message


def test_enum_values_with_any_text():
    odd = enum.Enum("Odd", [(f"M{n}", value) for n, value in enumerate(LITERALS)])

    @tool("odd")
    async def pick_member(*, choice: odd) -> None:  # type: ignore[valid-type]
        """Picks one member."""

    assert tool_input_schema(pick_member)["properties"]["choice"] == {
        "type": "string",
        "enum": LITERALS,
    }
    for member in odd:
        assert parse_tool_input(pick_member, {"choice": member.value}) == {"choice": member}
    _refusal(pick_member, {"choice": "\n"})


def test_required_field_message_with_any_text():
    message = 'note_write needs "text"\n\tand \\ more\u2028é'

    @tool("odd")
    async def needs(*, text: Annotated[str, required_field(message)]) -> None:
        """Needs text."""

    for data in ({}, {"text": ""}, {"text": " \n\t"}, {"text": None}):
        assert _refusal(needs, data).message == field(message)
    assert parse_tool_input(needs, {"text": "\n x"}) == {"text": "\n x"}


def _raiser(text: str, name: str) -> Callable[[object], object]:
    def refuse(value: object) -> object:
        raise ValueError(text)

    # a name of its own: checks sharing a name is another test's subject
    refuse.__name__ = name
    return refuse


def _refused_by_host(text: str, name: str) -> Any:
    """A tool whose transform, predicate (named `name`), constructor and nested transform refuse.

    Each raises `ValueError(text)`: fields `t`, `p`, `c` and `deep` (a list of records).
    """

    @dataclasses.dataclass
    class Checked:
        a: int

        def __post_init__(self) -> None:
            raise ValueError(text)

    @tool("odd")
    async def hosts(
        *,
        t: Annotated[str, transform(_raiser(text, name))] | None = None,
        p: Annotated[str, at.Predicate(_raiser(text, name))] | None = None,
        c: Checked | None = None,
        deep: list[dict[str, Annotated[int, transform(_raiser(text, name))]]] | None = None,
    ) -> None:
        """Host code refuses with this text."""

    return hosts


HOST_TEXTS = [
    "bad\nvalue",
    "tab\tin it",
    "quote \" and ' and \\",
    "line\u2028sep",
    "\x85next",
    "refused\tnot-permitted\tforged\nfields\tx",
    "é " * 20,
]


@pytest.mark.parametrize("text", HOST_TEXTS, ids=repr)
def test_transform_predicate_and_constructor_texts_stay_on_one_line(text):
    hosts = _refused_by_host(text, f"refuse_{HOST_TEXTS.index(text)}")
    for data, path in (
        ({"t": "x"}, "t"),
        ({"p": "x"}, "p"),
        ({"c": {"a": 1}}, "c"),
        ({"deep": [{"k": 1}]}, 'deep[0]["k"]'),
    ):
        assert _refusal(hosts, data).message == f"{path}: {field(text)}"


def test_a_host_error_text_is_cut_as_it_may_repeat_the_whole_input():
    """`transform(float)` says `could not convert string to float: '<all of the input>'`."""

    @tool("odd")
    async def numbers(*, t: Annotated[str, transform(float)]) -> None:
        """Takes a number as text."""

    message = _refusal(numbers, {"t": "x" * 10**6}).message
    said = "could not convert string to float: '" + "x" * 10**6
    assert message == f"t: {said[:200]}…"


def test_a_lone_surrogate_a_host_text_repeats_becomes_a_question_mark():
    """Host texts may repeat the input, lone surrogates too: the body must still encode."""
    hosts = _refused_by_host("there is no colour named \ud800", "raiser")
    for data, path in (({"t": "x"}, "t"), ({"p": "x"}, "p"), ({"c": {"a": 1}}, "c")):
        refusal = _refusal(hosts, data)
        assert refusal.message == f"{path}: there is no colour named ?"
        refusal_body(refusal).encode("utf-8")


@pytest.mark.parametrize("text", ["", "   ", "\n\t"], ids=repr)
def test_a_host_error_with_no_words_is_replaced_by_the_library_s(text):
    hosts = _refused_by_host(text, "raiser")
    assert _refusal(hosts, {"t": "x"}).message == "t: the value was refused"
    assert _refusal(hosts, {"p": "x"}).message == 'p: expected a value passing raiser, got "x"'
    assert _refusal(hosts, {"c": {"a": 1}}).message == "c: Checked refused these values"


class _Matches:
    """A reusable check named after its (verbose, multi-line) pattern."""

    def __init__(self, pattern: str) -> None:
        self.regex = re.compile(pattern, re.VERBOSE)
        self.__name__ = pattern.strip()

    def __call__(self, value: str) -> bool:
        return self.regex.fullmatch(value) is not None


def test_a_predicate_name_on_several_lines_stays_on_one_line():
    slug = _Matches(
        r"""
        [a-z0-9]+      # a word
        (-[a-z0-9]+)*  # more words, joined by dashes
        """
    )

    @tool("odd")
    async def publish(*, slug: Annotated[str, at.Predicate(slug)]) -> None:
        """Publishes a page."""

    refusal = _refusal(publish, {"slug": "Not A Slug"})
    assert refusal.message == (
        f'slug: expected a value passing {field(slug.__name__)}, got "Not A Slug"'
    )
    assert parse_refusal_body(refusal_body(refusal)) == refusal


def _words_at_most(limit: int) -> Callable[[str], bool]:
    def few_words(text: str) -> bool:
        return len(text.split()) <= limit

    return few_words


def _suffixed(suffix: str) -> Callable[[str], str]:
    def add_suffix(text: str) -> str:
        return text + suffix

    return add_suffix


def test_predicates_and_transforms_of_the_same_name_keep_their_own_code():
    """Checks made by one factory share a `__name__` (and so a repr): each must stay its own."""

    @tool("odd")
    async def title(*, text: Annotated[str, at.Predicate(_words_at_most(1))]) -> None:
        """Sets a one-word title."""

    @tool("odd")
    async def summary(*, text: Annotated[str, at.Predicate(_words_at_most(50))]) -> None:
        """Sets a summary of up to fifty words."""

    @tool("odd")
    async def shout(*, text: Annotated[str, transform(_suffixed("!"))]) -> None:
        """Shouts."""

    @tool("odd")
    async def ask(*, text: Annotated[str, transform(_suffixed("?"))]) -> None:
        """Asks."""

    assert parse_tool_input(summary, {"text": "two words"}) == {"text": "two words"}
    assert _refusal(title, {"text": "two words"}).message == (
        'text: expected a value passing few_words, got "two words"'
    )
    assert parse_tool_input(shout, {"text": "hi"}) == {"text": "hi!"}
    assert parse_tool_input(ask, {"text": "hi"}) == {"text": "hi?"}
