"""Field model to checkers: one closure per node, chosen once, when the tool is declared.

A checker takes a value from the input and returns what the function receives, or an `Invalid`
with every problem it found (returned, not raised: bad input is the normal case). Checkers call
no code that belongs to the input (its `__eq__`, `__hash__`, `__iter__` and so on): types are
tested with `type()` and `issubclass`, and containers are read through the base classes' own
methods. Two exceptions: a `dict`'s keys are compared as the dict compares them when a field
name is looked up in it (README, "Guarantees"), and a mapping that is no `dict`, which has no
such base, is read through its own `items()` (one that raises is refused). The checkers here
are the reference for what is accepted; `_codegen` adds an inline fast path in front of them for
objects. An `Invalid` is new for each refusal: a parent may add to the one it builds, never to
one it was given.

`native=True` builds the checker for a default written in the function's own terms (an `Enum`
member, a dataclass instance, a set): same types and bounds, no conversion, no transform.
"""

from __future__ import annotations

import builtins
import collections.abc as cabc
import copy
import math
import operator
import sys
import types
import typing
from collections.abc import Callable, Sequence
from enum import Enum
from itertools import repeat
from typing import Any

import annotated_types as at

from . import _codegen
from ._fields import (
    MISSING,
    Array,
    Check,
    Choice,
    Constrained,
    Field,
    Node,
    Nullable,
    Object,
    Record,
    RequiredField,
    Scalar,
    Union,
    bound_types,
    shared_default,
)
from ._frozen import keep, kept, once
from ._introspect import Where
from ._problems import (
    LIMIT,
    Invalid,
    Key,
    Mismatch,
    Problem,
    Unknown,
    add,
    combine,
    declared,
    is_mapping,
    merge,
    message,
    mismatch,
    one_line,
    out_of_range,
    show,
    text_of,
    unreadable,
)

__all__ = ["Checker", "compile_fields", "expected"]

Checker = Callable[[Any], Any]

_NO_VALUE: Any = object()

_type_of: Callable[[object], type[object]] = type
"""`type(value)` typed as a class of object, for values from the input (no `typing.cast` call)."""


def compile_fields(fields: Sequence[Field], tool: str) -> Checker:
    """The validator of a tool's input: a mapping in, the function's keyword arguments out."""
    _check_defaults(fields, Where(tool))
    return _object_checker(fields, _codegen.KWARGS, None)


def _check_defaults(fields: Sequence[Field], where: Where) -> None:
    """Refuse a default its own field would refuse, here or in any nested dataclass.

    A default factory is not called: it may do anything, and runs only when it is needed.
    """
    for f in fields:
        here = where.into(f.name)
        if f.default is not MISSING and f.default is not None:
            check = _checker(f.type, native=True)
            try:
                refused = check(f.default)
            except Exception as exc:  # a predicate's own bug, met on the default: say where
                raise here.error(
                    TypeError,
                    f"checking the default {_written(f.default)} raised "
                    f"{type(exc).__name__}: {exc}; fix the check, or change the default",
                ) from exc
            if isinstance(refused, Invalid):
                raise here.error(
                    ValueError,
                    f"the default {_written(f.default)} is refused by the field's own type "
                    f"({message(refused)}); change the default or the type",
                )
            if not _immutable(f.default):
                _check_copy(f.default, here)
        _check_nested_defaults(f.type, here)


def _written(default: object) -> str:
    """A default as Python writes it, for a message; a long one as a refusal shows a value.

    So is an int of over 4300 digits, which Python will not write.
    """
    try:
        written = repr(default)
    except ValueError:
        return show(default)
    return written if len(written) <= _WRITTEN_AT_MOST else show(default)


_WRITTEN_AT_MOST = 200
"""The longest default a declaration error writes out: a whole value, not a page of one."""


def _check_copy(default: object, where: Where) -> None:
    """Copy a mutable default once now: each call gets a copy, and one that fails must fail here."""
    try:
        copy.deepcopy(default)
    except Exception as exc:
        raise where.error(
            TypeError,
            f"the default {_written(default)} cannot be copied for each call "
            f"({type(exc).__name__}: {exc}); use an immutable default (a tuple, a frozenset, "
            "None) or build the value in the function",
        ) from exc


def _check_nested_defaults(node: Node, where: Where) -> None:
    if isinstance(node, (Scalar, Choice)):  # most nodes: a leaf, asked about first
        return
    if isinstance(node, (Nullable, Constrained)):
        _check_nested_defaults(node.inner, where)
    elif isinstance(node, Array):
        _check_nested_defaults(node.items, where.into("[]"))
    elif isinstance(node, Record):
        _check_nested_defaults(node.values, where.into("{}"))
    elif isinstance(node, Union):
        for branch in node.branches:
            _check_nested_defaults(branch, where)
    else:  # the last kind of node: an object
        _check_defaults(node.fields, where)


def _checker(node: Node, *, native: bool = False) -> Checker:
    return once(_CHECKERS, (node, native), _new_checker, node, native)


_CHECKERS: dict[tuple[Node, bool], Checker] = {}


def _new_checker(node: Node, native: bool) -> Checker:  # noqa: FBT001, PLR0911 - one per node kind
    if isinstance(node, Scalar):
        return _SCALARS[node.kind, native]
    if isinstance(node, Choice):
        return _choice(node, native=native)
    if isinstance(node, Nullable):
        return _nullable(_checker(node.inner, native=native))
    if isinstance(node, Constrained):
        return _constrained(node, native=native)
    if isinstance(node, Array):
        return _array(node, native=native)
    if isinstance(node, Record):
        return _record(_checker(node.values, native=native))
    if isinstance(node, Union):
        return _union(node, native=native)
    if native:
        return _native_object(node)
    return _object_checker(
        node.fields, _codegen.DATACLASS if node.is_dataclass else _codegen.TYPEDDICT, node
    )


def expected(node: Node) -> str:
    """What a node takes, as a model would read it: `a string`, `one of "a", "b"`, ..."""
    return once(_EXPECTED, node, _new_expected, node)


_EXPECTED: dict[Node, str] = {}


def _new_expected(node: Node) -> str:
    # never a `Nullable`: the field model lifts it out of unions and bounds, so only a whole type
    # is one, and a missing field's is asked bare
    if isinstance(node, Scalar):
        return _PHRASES[node.kind]
    if isinstance(node, Choice):
        return _one_of([declared(value) for value in node.values])
    if isinstance(node, Constrained):
        return expected(node.inner)
    if isinstance(node, Array):
        return "an array"
    if isinstance(node, Union):
        return _either(node)
    return "an object"


_NAMED = 20
"""The most choices a refusal names; past that it counts them (the schema lists them all)."""


def _one_of(shown: list[str]) -> str:
    """`one of "a", "b"`, or the one choice; twenty named at most, then how many there are."""
    shown = list(dict.fromkeys(shown))
    if len(shown) == 1:
        return shown[0]
    more = f", … ({len(shown)} choices)" if len(shown) > _NAMED else ""
    return f"one of {', '.join(shown[:_NAMED])}{more}"


def _either(node: Union) -> str:
    """`one of "a", "b" or an integer`: each thing named once, every branch's choices in one list.

    So a union of many large enums is named within the same twenty choices as one enum.
    """
    phrases: dict[str, None] = {}
    choices: list[str] = []
    for branch in _branches(node):
        if isinstance(branch, Choice):
            phrases.setdefault("", None)  # where the choices are named
            choices += (declared(value) for value in branch.values)
        else:
            phrases.setdefault(expected(branch), None)
    if _PHRASES[float] in phrases:  # "an integer or a number": a number already says it
        phrases.pop(_PHRASES[int], None)
    return " or ".join(phrase or _one_of(choices) for phrase in phrases)


def _branches(node: Node) -> cabc.Iterator[Node]:
    """A union's branches, those of a bounded union among them, without their bounds."""
    while isinstance(node, Constrained):
        node = node.inner
    if isinstance(node, Union):
        for branch in node.branches:
            yield from _branches(branch)
    else:
        yield node


_PHRASES = {str: "a string", int: "an integer", float: "a number", bool: "a boolean"}


# --- scalars ----------------------------------------------------------------------------------


def _str(value: Any) -> str | Invalid:
    if type(value) is str:
        return value
    if issubclass(type(value), str):
        return str.__str__(value)
    return mismatch("a string", value)


def _int(value: Any, *, native: bool = False) -> int | Invalid:
    kind = _type_of(value)
    if kind is int:
        return value  # type: ignore[no-any-return]
    if issubclass(kind, int) and kind is not bool:
        return int.__int__(value)
    if not native and issubclass(kind, float) and float.is_integer(value):
        return int(float.__float__(value))
    return mismatch("an integer", value)


def _native_int(value: Any) -> int | Invalid:
    return _int(value, native=True)


def _float(value: Any) -> float | Invalid:
    kind = _type_of(value)
    if kind is float:
        number = value
    elif issubclass(kind, float):
        number = float.__float__(value)
    elif issubclass(kind, int) and kind is not bool:
        try:
            number = float(int.__int__(value))
        except OverflowError:
            return out_of_range(_WITHIN_DOUBLE, value)
    else:
        return mismatch("a number", value)
    if not math.isfinite(number):
        return out_of_range("a finite number", value)
    return number  # type: ignore[no-any-return]


_WITHIN_DOUBLE = f"a number within ±{sys.float_info.max!r}"
"""What an int too large for a float field is told: "a finite number" would not say why, as it
is one."""


def _bool(value: Any) -> bool | Invalid:
    if type(value) is bool:
        return value
    return mismatch("a boolean", value)


_SCALARS: dict[tuple[type, bool], Checker] = {
    (str, False): _str,
    (str, True): _str,
    (int, False): _int,
    (int, True): _native_int,
    (float, False): _float,
    (float, True): _float,
    (bool, False): _bool,
    (bool, True): _bool,
}


def _choice(node: Choice, *, native: bool) -> Checker:
    phrase = expected(node)
    if native:
        return _native_choice(node.outputs, _members(node.outputs) or phrase)
    table = dict(zip(node.values, node.outputs, strict=True))
    if node.json_type == "string":
        return _string_choice(table, phrase)
    if node.json_type == "boolean":
        return _boolean_choice(table, phrase)
    return _number_choice(table, phrase)


def _members(outputs: tuple[object, ...]) -> str | None:
    """`one of Color.RED, Color.BLUE`: what a default of an `Enum` field is written as."""
    if not all(isinstance(output, Enum) for output in outputs):
        return None
    return _one_of(
        [f"{type(m).__name__}.{m.name}" for m in typing.cast("tuple[Enum, ...]", outputs)]
    )


def _native_choice(outputs: tuple[object, ...], phrase: str) -> Checker:
    def check(value: Any) -> Any:
        for output in outputs:
            if value is output or (type(value) is type(output) and value == output):
                return value
        kind = _type_of(value)
        if kind in (str, int, float, bool) or not issubclass(kind, (str, int, float)):
            return mismatch(phrase, value)
        # `show` pictures a subclass as its plain value: "expected 1, got 1" for an `IntEnum`
        return add(None, f"expected {phrase}, got {show(value)} of type {kind.__name__}")

    return check


def _string_choice(table: dict[Any, object], phrase: str) -> Checker:
    def check(value: Any) -> Any:
        # a plain string is looked up as it is: `str.__str__` costs a refused call 30 ns
        kind = _type_of(value)
        if kind is str or issubclass(kind, str):
            found = table.get(value if kind is str else str.__str__(value), _NO_VALUE)
            if found is not _NO_VALUE:
                return found
        return mismatch(phrase, value)

    return check


def _boolean_choice(table: dict[Any, object], phrase: str) -> Checker:
    def check(value: Any) -> Any:
        found = table.get(value, _NO_VALUE) if type(value) is bool else _NO_VALUE
        return mismatch(phrase, value) if found is _NO_VALUE else found

    return check


def _number_choice(table: dict[Any, object], phrase: str) -> Checker:
    """Numbers match by value (`1.0` is `1`); a boolean never matches a number."""

    def check(value: Any) -> Any:
        kind = _type_of(value)
        if kind is not bool and issubclass(kind, (int, float)):
            number = float.__float__(value) if issubclass(kind, float) else int.__int__(value)
            found = table.get(number, _NO_VALUE)
            if found is not _NO_VALUE:
                return found
        return mismatch(phrase, value)

    return check


# --- wrappers ---------------------------------------------------------------------------------


def _nullable(inner: Checker) -> Checker:
    def check(value: Any) -> Any:
        return None if value is None else inner(value)

    return check


def _layers(node: Constrained) -> tuple[Node, tuple[Check, ...]]:
    """The node under one or more layers of bounds, and all their bounds, innermost first.

    Bounds around an alias's bounds are tested as one layer, so a value breaking both is told
    both (SPEC 5); the same bound twice is tested once. A layer with transforms ends it: the
    bounds around it hold on what they made.
    """
    checks = list(node.checks)
    inner = node.inner
    while isinstance(inner, Constrained) and not inner.transforms:
        checks = [*inner.checks, *(c for c in checks if not _among(c, inner.checks))]
        inner = inner.inner
    return inner, tuple(checks)


def _among(check: Check, checks: tuple[Check, ...]) -> bool:
    """Whether the same bound is there already (`MultipleOf(2)` is not `MultipleOf(2.0)`)."""
    return any(check == c and bound_types(check) == bound_types(c) for c in checks)


def _bounded_inner(inner: Node, checks: tuple[Check, ...]) -> Checker:
    """The checker of what the bounds apply to; a set within a `MaxLen` is built only that far."""
    if isinstance(inner, Array) and inner.kind in (set, frozenset):
        most = min((c.max_length for c in checks if isinstance(c, at.MaxLen)), default=None)
        return _array(inner, native=False, most=most)
    return _checker(inner)


def _length_of_sent(
    inner: Node, checks: tuple[Check, ...]
) -> Callable[[Any, Invalid], Invalid] | None:
    """For a list or record whose items were refused: its length bounds, tested on what was sent.

    So the message lists every problem (SPEC 5). Not for a set: it counts once duplicates merge.
    """
    if not (
        (isinstance(inner, Array) and inner.kind in (list, tuple)) or isinstance(inner, Record)
    ):
        return None  # asked first: most bounded nodes are a string or a number
    bounds = [c for c in checks if isinstance(c, (at.MinLen, at.MaxLen))]
    if not bounds:
        return None
    tests = tuple(_length_test(c, inner) for c in bounds)

    def with_lengths(sent: Any, problems: Invalid) -> Invalid:
        if isinstance(problems, Mismatch):
            # not a list or a mapping at all, or a mapping that could not be read (`Unreadable`):
            # its type is the problem, and a mapping is not read again to count it
            return problems
        sized: cabc.Sized | None
        if isinstance(inner, Array):
            sized = _items_of(sent)
        else:
            entries = entries_of(sent)  # any mapping, read as its own class's methods read it
            sized = None if isinstance(entries, Invalid) else list(entries)
        if sized is None:
            return problems
        found = None
        for test in tests:
            problem = test(sized)
            if problem is not None:
                found = add(found, problem)
        return problems if found is None else combine(found, problems)

    return with_lengths


def _constrained(node: Constrained, *, native: bool) -> Checker:
    """The checker of a node with bounds, those of the layers of bounds it wraps too."""
    base, checks = _layers(node)
    inner = _checker(base, native=True) if native else _bounded_inner(base, checks)
    kind = base
    while isinstance(kind, (Constrained, Nullable)):  # under transforms: what a length counts
        kind = kind.inner
    tests = tuple(_test(check, kind) for check in checks)
    relying = frozenset(
        t for c, t in zip(checks, tests, strict=True) if isinstance(c, at.Predicate)
    )
    transforms = () if native else node.transforms
    lengths = _length_of_sent(base, checks)

    def check(value: Any) -> Any:
        sent, value = value, inner(value)
        if isinstance(value, Invalid):
            return value if lengths is None else lengths(sent, value)
        found = None
        for test in tests:
            problem = test(value) if found is None or test not in relying else _relying(test, value)
            if problem is not None:
                if isinstance(problem, Invalid):
                    return problem
                found = add(found, problem)
        if found is not None:
            return found
        for fn in transforms:
            try:
                value = fn(value)
            except ValueError as exc:
                return add(None, Problem((), _said(exc, "the value was refused"), authored=True))
        return value

    return check


def _relying(test: Test, value: object) -> str | Problem | None:
    """A predicate's test of a value the checks before it refused.

    Every problem is listed, but the predicate may rely on those checks (`xs[0]` after
    `MinLen(1)`): an exception from it is no problem of the value's.
    """
    try:
        problem = test(value)
    except Exception:  # noqa: BLE001 - it met a value it was promised it would not see
        return None
    return typing.cast("str | Problem | None", problem)  # a predicate's: never an `Invalid`


_SAID = 200
"""The most characters of a host's `ValueError` a message repeats."""


def _said(exc: ValueError, otherwise: str) -> str:
    """What a host's `ValueError` says, cut: it may repeat the input (`float("x" * 10**6)`).

    It may hold the input itself, too (`ValueError("too large:", n)`), and Python writes no int
    of over 4300 digits: then it says nothing, and `otherwise` stands.
    """
    try:
        text = str(exc)
    except ValueError:
        return otherwise
    if not text or text.isspace():
        return otherwise
    return text if len(text) <= _SAID else f"{text[:_SAID]}…"


Test = Callable[[Any], "str | Problem | Invalid | None"]
"""A bound's test: None when the value meets it, else the problem."""


def _test(check: Check, base: Node) -> Test:  # noqa: PLR0911 - one test per bound
    if isinstance(check, RequiredField):
        blank = Problem((), check.message, authored=True)

        def required(value: str) -> Invalid | None:
            return add(None, blank) if not value or value.isspace() else None

        return required
    if isinstance(check, (at.MinLen, at.MaxLen)):
        return _length_test(check, base)
    if isinstance(check, at.Gt):
        return _bound_test(operator.gt, check.gt, f"more than {_number(check.gt)}")
    if isinstance(check, at.Ge):
        return _bound_test(operator.ge, check.ge, f"at least {_number(check.ge)}")
    if isinstance(check, at.Lt):
        return _bound_test(operator.lt, check.lt, f"less than {_number(check.lt)}")
    if isinstance(check, at.Le):
        return _bound_test(operator.le, check.le, f"at most {_number(check.le)}")
    if isinstance(check, at.MultipleOf):
        step = check.multiple_of
        return _bound_test(_is_multiple, step, f"a multiple of {_number(step)}")
    return _predicate_test(check.func)


def _number(bound: object) -> str:
    """A bound as a model reads it: `0`, not `0.0` (Ge(0) and Ge(0.0) are one bound)."""
    if isinstance(bound, float) and bound.is_integer() and abs(bound) < 2**53:
        return str(int(bound))
    return declared(bound)


def _is_multiple(value: Any, step: Any) -> bool:
    if type(value) is int and type(step) is float and not -_EXACT <= value <= _EXACT:
        # `%` would round the int to a float first (`(2**53 + 1) % 2.0 == 0`), and typing hands
        # `MultipleOf(2)` the `MultipleOf(2.0)` some module wrote before: count exactly
        return _exact_multiple(value, step)
    try:
        return value % step == 0  # type: ignore[no-any-return]
    except OverflowError:  # an int beyond a float's range, with a float step: count exactly
        return _exact_multiple(value, step)


_EXACT = 2**53
"""Every int from `-_EXACT` to `_EXACT` is a float exactly; `%` rounds one beyond to a float."""


def _exact_multiple(value: int, step: float) -> bool:
    from fractions import Fraction  # noqa: PLC0415 - rare, and costly to import

    return Fraction(value) % Fraction(step) == 0


def _bound_test(holds: Callable[[Any, Any], bool], bound: object, wanted: str) -> Test:
    def test(value: Any) -> str | None:
        if holds(value, bound):
            return None
        return f"expected {wanted}, got {show(value)}"

    return test


_UNITS: dict[type, tuple[str, str]] = {Array: ("item", "items"), Record: ("key", "keys")}


def _wanted_length(word: str, limit: int, base: Node) -> str:
    """`expected at most 5 items`: a length bound as a model reads it.

    A set counts its items once duplicates merge: a model that sent three equal ones learns why.
    """
    if isinstance(base, Array) and base.kind in (set, frozenset):
        one, many = "distinct item", "distinct items"
    else:
        one, many = _UNITS.get(type(base), ("character", "characters"))
    return f"expected {word} {limit} {one if limit == 1 else many}"


def _length_test(check: at.MinLen | at.MaxLen, base: Node) -> Callable[[cabc.Sized], str | None]:
    if isinstance(check, at.MinLen):
        limit, word, holds = check.min_length, "at least", operator.ge
    else:
        limit, word, holds = check.max_length, "at most", operator.le
    wanted = _wanted_length(word, limit, base)

    def test(value: cabc.Sized) -> str | None:
        size = len(value)
        return None if holds(size, limit) else f"{wanted}, got {size}"

    return test


_PREDICATE_WORDS: dict[object, str] = {
    str.islower: "lowercase text",
    str.isupper: "uppercase text",
    str.isdigit: "digits only",
    str.isascii: "ASCII text",
    str.isalpha: "letters only",
    str.isalnum: "letters and digits only",
    str.isidentifier: "an identifier",
    math.isfinite: "a finite number",
    math.isnan: "NaN",
    math.isinf: "an infinite number",
}


def _predicate_words(func: Callable[[Any], object]) -> str:
    if isinstance(func, at.Not):
        return f"not {_predicate_words(func.func)}"
    words = _PREDICATE_WORDS.get(func)
    if words is not None:
        return words
    name = getattr(func, "__name__", None)
    if not isinstance(name, str) or not name.strip() or name == "<lambda>":
        return "a value passing its check"
    return f"a value passing {one_line(name)}"  # a name may be anything, a verbose regex too


def _predicate_test(func: Callable[[Any], object]) -> Test:
    """Like a transform, a predicate may refuse with a `ValueError` of its own words."""
    wanted = f"expected {_predicate_words(func)}"

    def test(value: Any) -> str | Problem | None:
        try:
            holds = func(value)
        except ValueError as exc:
            return Problem((), _said(exc, f"{wanted}, got {show(value)}"), authored=True)
        return None if holds else f"{wanted}, got {show(value)}"

    return test


# --- containers -------------------------------------------------------------------------------


def _items_of(value: Any) -> list[Any] | tuple[Any, ...] | None:
    """The items of a list or tuple from the input, read without its own methods, else None."""
    kind = _type_of(value)
    if kind is list or kind is tuple:
        return value  # type: ignore[no-any-return]
    if issubclass(kind, list):
        return list.copy(value)  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    if issubclass(kind, tuple):
        return tuple.__getitem__(value, slice(None))  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    return None


def _array(node: Array, *, native: bool, most: int | None = None) -> Checker:
    """An array's checker; a set of at `most` items is built only until it holds more."""
    item = _checker(node.items, native=native)
    build = node.kind
    if native:
        return _native_array(item, build)

    def check(value: Any) -> Any:
        items = _items_of(value)
        if items is None:
            return mismatch("an array", value)
        out = list(map(item, items))
        if any(map(isinstance, out, repeat(Invalid))):
            return _item_problems(out)
        if build is list:
            return out
        if most is not None and len(out) > most:
            return _set_of_at_most(out, most, build, node)
        return build(out)

    return check


def _set_of_at_most(items: list[Any], most: int, build: type, node: Array) -> Any:
    """The set of `items`, or its problem as soon as it holds more than `most` of them.

    Items crafted to share one hash make a set quadratic to build; built only this far, each
    item costs at most `most` comparisons. Its other bounds are not checked then: it is never
    whole.
    """
    built: set[Any] = set()
    for item in items:
        built.add(item)
        if len(built) > most:
            return add(None, f"{_wanted_length('at most', most, node)}, got more than {most}")
    return built if build is set else build(built)


def _native_array(item: Checker, build: type) -> Checker:
    """A default's check: it is already of the kind the field builds (a list: any sequence)."""
    kind: type = cabc.Sequence if build is list else build
    wanted = "an array" if build is list else f"a {build.__name__}"

    def check(value: Any) -> Any:
        if not isinstance(value, kind) or isinstance(value, (str, bytes)):
            return mismatch(wanted, value)
        found = _item_problems(map(item, typing.cast("cabc.Iterable[object]", value)))
        return value if found is None else found

    return check


def _item_problems(results: cabc.Iterable[object]) -> Invalid | None:
    """The problems of an array's items, each at its index; None when every item passed."""
    found = None
    for index, result in enumerate(results):
        if isinstance(result, Invalid):
            found = merge(found, index, result)
    return found


def entries_of(value: Any) -> cabc.Iterable[tuple[Any, Any]] | Invalid:
    """The (key, value) pairs of a mapping from the input: a dict's read without its own methods."""
    kind = _type_of(value)
    if issubclass(kind, dict):
        return dict.items(value)  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    if sys.version_info >= (3, 15) and issubclass(kind, builtins.frozendict):
        # Python 3.15's immutable dict is only registered as a `Mapping`: read it as a dict is
        return builtins.frozendict.items(value)  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    if is_mapping(kind):
        try:
            return [(key, entry) for key, entry in value.items()]
        except Exception:  # noqa: BLE001 - a mapping that cannot be read is the input's fault
            return unreadable()
    return mismatch("an object", value)


def _record(values: Checker) -> Checker:
    def check(value: Any) -> dict[str, Any] | Invalid:
        entries = entries_of(value)
        if isinstance(entries, Invalid):
            return entries
        out: dict[str, Any] = {}
        found = None
        for key, entry in entries:
            name = text_of(key)
            if name is None:
                found = add(found, f"expected string keys, got {show(key)} as a key")
                continue
            result = out[name] = values(entry)
            if isinstance(result, Invalid):
                found = merge(found, Key(name), result)
        return out if found is None else found

    return check


def _union(node: Union, *, native: bool) -> Checker:
    branches = tuple(_checker(branch, native=native) for branch in node.branches)
    # a default is told what each branch takes of it (a member, a set), not what input may be:
    # "expected 1 or a string, got 1" would contradict itself
    phrase = None if native else expected(node)

    def check(value: Any) -> Any:
        converted = _NO_VALUE
        failures: list[Invalid] = []
        for branch in branches:
            result = branch(value)
            if isinstance(result, Invalid):
                failures.append(result)
            elif native or _unchanged(result, value):
                return result
            elif converted is _NO_VALUE:
                converted = result
        return converted if converted is not _NO_VALUE else _union_problems(failures, phrase, value)

    return check


def _union_problems(failures: list[Invalid], phrase: str | None, value: object) -> Invalid:
    """A refused union's problems: the closest branch's that the value's type fit, else a mismatch.

    The closest is the first of the fewest problems. A branch's mismatch that `fits` (a mapping
    that could not be read, NaN for a float) is its branch's to tell: pictured against the
    union's types, it would read "expected a number ..., got a very large integer".
    """
    closest = None
    for failure in failures:
        if (not isinstance(failure, Mismatch) or failure.fits) and (
            closest is None or failure.count < closest.count
        ):
            closest = failure
    if closest is not None:
        return closest
    if phrase is None:  # a default's: every failure is a mismatch, in its branch's own words
        phrase = " or ".join(dict.fromkeys(typing.cast("Mismatch", f).expected for f in failures))
    return mismatch(phrase, value)


def _unchanged(result: object, value: object) -> bool:
    """Whether a branch passed the value on as it came: same types, equal, at every depth."""
    if result is value:
        return True
    kind = type(result)
    if kind is not type(value):
        return False
    if kind in (str, int, float, bool):
        return result == value
    if kind is list or kind is tuple:
        ours: Any = result
        theirs: Any = value
        return len(ours) == len(theirs) and all(map(_unchanged, ours, theirs))
    if kind is dict:
        checked: Any = result
        given: Any = value
        return len(checked) == len(given) and all(
            type(key) is str and key in checked and _unchanged(checked[key], entry)
            for key, entry in given.items()
        )
    return False


# --- objects ----------------------------------------------------------------------------------


def _object_checker(fields: Sequence[Field], mode: str, node: Object | None) -> Checker:
    names = tuple(f.name for f in fields)
    index = frozenset(names)

    def clean(data: Any) -> tuple[dict[str, Any] | None, Invalid | None]:
        """The known fields of a mapping that is not a plain dict of known names, and the rest.

        `(None, problem)` when `data` is no mapping at all.
        """
        entries = entries_of(data)
        if isinstance(entries, Invalid):
            return None, entries
        known: dict[str, Any] = {}
        found = None
        for key, entry in entries:
            name = text_of(key)
            if name is None:
                found = add(found, f"expected field names, got {show(key)} as a key")
            elif name in index:
                known[name] = entry
            elif found is not None and len(found.entries) >= LIMIT:
                found.count += 1  # never shown: spare it an entry
            else:
                found = add(found, Unknown(name, names))
        return known, found

    parts = [_part(f, i, mode) for i, f in enumerate(fields)]
    return _codegen.object_validator(
        _codegen.Plan(
            mode=mode,
            names=names,
            parts=tuple(parts),
            clean=clean,
            build=None if node is None or not node.is_dataclass else _constructor(node.cls),
        )
    )


def _part(f: Field, i: int, mode: str) -> _codegen.Part:
    """What the validator takes from one field, made once per field object, place and mode.

    A field with no default, or `None`, `True` or `False`, is one object shared by every tool
    writing it (`_introspect`), so one lookup replaces its checker's, fast path's and missing
    problem's. Found by identity, so a field met once is never hashed; any other default is the
    function's own object, copied for each tool (a mutable one), so its part is made each time.
    """
    if not shared_default(f.default):
        return _new_part(f, i, mode)
    key = (id(f), i, mode)
    known = kept(_PARTS, key, f)
    return known if known is not None else keep(_PARTS, key, f, _new_part(f, i, mode))


def _new_part(f: Field, i: int, mode: str) -> _codegen.Part:
    kind, value = _left_out(f, mode)
    checker = _checker(_bare(f.type))  # None: left out
    return _codegen.Part(checker, kind, value, _codegen.fast_path(f.type, i))


_PARTS: dict[tuple[int, int, str], tuple[object, _codegen.Part]] = {}


def _left_out(f: Field, mode: str) -> tuple[str, object]:
    """What a field left out becomes (see `_codegen`): a problem, its default, or nothing."""
    if f.required:
        return _codegen.MISSING_FIELD, _missing(f)
    if mode != _codegen.KWARGS and f.default is MISSING:
        return _codegen.ABSENT, None  # a key left out stays out; a dataclass calls its factory
    if _immutable(f.default):
        return _codegen.DEFAULT, f.default
    # A mutable default, for the function or a dataclass: copied now, so changing the field
    # model's (the function's own object) later reaches no call, and again for each call.
    default = copy.deepcopy(f.default)
    return _codegen.MAKE, lambda: copy.deepcopy(default)


def _missing(f: Field) -> Problem:
    if f.missing_message is not None:
        return Problem((f.name,), f.missing_message, authored=True)
    return Problem((f.name,), f"missing, expected {expected(_bare(f.type))}")


def _bare(node: Node) -> Node:
    return node.inner if isinstance(node, Nullable) else node


def _immutable(value: object) -> bool:
    if value is None or value is MISSING or type(value) in (str, int, float, bool):
        return True
    if isinstance(value, (tuple, frozenset)):
        items: tuple[object, ...] | frozenset[object] = value  # pyright: ignore[reportUnknownVariableType]
        return all(_immutable(item) for item in items)
    if isinstance(value, _FROZEN_MAPPINGS):
        frozen = typing.cast("cabc.Mapping[object, object]", value)
        return all(_immutable(item) for item in frozen.values())
    return isinstance(value, Enum)


# The mappings no one can change through them, shared as a default when their values are.
if sys.version_info >= (3, 15):
    _FROZEN_MAPPINGS: tuple[type, ...] = (types.MappingProxyType, builtins.frozendict)
else:
    _FROZEN_MAPPINGS: tuple[type, ...] = (types.MappingProxyType,)


def _constructor(cls: type) -> Callable[[dict[str, Any]], Any]:
    def build(kwargs: dict[str, Any]) -> Any:
        try:
            return cls(**kwargs)
        except ValueError as exc:
            text = _said(exc, f"{cls.__name__} refused these values")
            return add(None, Problem((), text, authored=True))

    return build


def _native_object(node: Object) -> Checker:
    checkers = tuple(_checker(f.type, native=True) for f in node.fields)

    def check(value: Any) -> Any:
        entries = _native_entries(node, value)
        if isinstance(entries, Invalid):
            return entries
        found = None
        for f, checker in zip(node.fields, checkers, strict=True):
            entry = entries.pop(f.name, None)
            if entry is None:
                if f.required:
                    found = add(found, _missing(f))
                continue
            result = checker(entry)
            if isinstance(result, Invalid):
                found = merge(found, f.name, result)
        for name in entries:
            text = text_of(name)
            if text is None:  # not as `str(name)`: that reads as the path of a key it is not
                found = add(found, f"expected field names, got {show(name)} as a key")
            else:
                found = add(found, Problem((text,), "unknown field"))
        return value if found is None else found

    return check


def _native_entries(node: Object, value: object) -> dict[Any, Any] | Invalid:
    if node.is_dataclass:
        if not isinstance(value, node.cls):
            # not "a <name>": its letters cannot tell "a" from "an" ("a Outer", "an User")
            return mismatch(f"an instance of {node.cls.__name__}", value)
        return {f.name: getattr(value, f.name, None) for f in node.fields}
    if isinstance(value, cabc.Mapping):
        return dict(typing.cast("cabc.Mapping[object, object]", value))
    return mismatch("an object", value)
