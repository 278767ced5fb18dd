"""The building blocks of checkers: scalars, `| None`, bounds, records, unions, containers.

`_compile` puts them together into the checkers of input, `_defaults` into the checks of a
default written in the function's own terms. A checker takes a value and returns what the
function receives, or an `Invalid` with every problem it found (returned, not raised: bad input
is the normal case). Nothing here calls code that belongs to the input (its `__eq__`,
`__hash__`, `__iter__` and so on): types are tested with `type()` and `issubclass`, and
containers are read through the base classes' own methods, but for a mapping that is no `dict`,
which has no such base: its own `items()` is read (one that raises is refused).
"""

from __future__ import annotations

import builtins
import collections.abc as cabc
import math
import sys
import typing
from collections.abc import Callable
from typing import Any

from .._model.bounds import Test
from .._model.nodes import Bound, Node, core
from .._model.problems import (
    Invalid,
    Key,
    Mismatch,
    Problem,
    add,
    combine,
    merge,
    mismatch,
    out_of_range,
    unreadable,
)
from .._model.words import is_mapping, said, show

__all__ = [
    "NO_VALUE",
    "SCALARS",
    "Checker",
    "bounded",
    "entries_of",
    "item_problems",
    "items_of",
    "native_int",
    "nullable",
    "read_as",
    "read_once",
    "record",
    "sized",
    "text_of",
    "type_of",
    "union",
]

Checker = Callable[[Any], Any]
"""A value from the input in; what the function receives, or an `Invalid`, out."""

NO_VALUE: Any = object()
"""No value: what a lookup finds when there is none (`None` may be a value)."""


type_of: Callable[[object], type[object]] = type
"""`type(value)` typed as a class of object, for values from the input (no `typing.cast` call)."""


# --- scalars ----------------------------------------------------------------------------------


def _str(value: Any) -> str | Invalid:
    if type(value) is str:
        return value
    if issubclass(type(value), str):
        return str.__str__(value)
    return mismatch("a string", value)


def _int(value: Any, *, native: bool = False) -> int | Invalid:
    """An int; from the input, a float with an integral value too (`native`: not for a default)."""
    kind = type_of(value)
    if kind is int:
        return value  # type: ignore[no-any-return]
    if issubclass(kind, int) and kind is not bool:
        return int.__int__(value)
    if not native and issubclass(kind, float) and float.is_integer(value):
        return int(float.__float__(value))
    return mismatch("an integer", value)


def _float(value: Any) -> float | Invalid:
    kind = type_of(value)
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


def native_int(value: Any) -> int | Invalid:
    """An int as a default is written: a float is no int there."""
    return _int(value, native=True)


SCALARS: dict[type, Checker] = {str: _str, int: _int, float: _float, bool: _bool}
"""The checker of each scalar type."""


# --- wrappers ---------------------------------------------------------------------------------


def nullable(inner: Checker) -> Checker:
    """`None` as it is, anything else as `inner` checks it."""

    def check(value: Any) -> Any:
        return None if value is None else inner(value)

    return check


def bounded(
    base: Node,
    bounds: tuple[Bound, ...],
    inner: Checker,
    transforms: tuple[Callable[[Any], Any], ...],
) -> Checker:
    """`inner`'s value, then every bound tested on it, then every transform applied.

    A container `inner` refuses tests its own lengths (`sized`): what is tested here is a value
    `inner` took.
    """
    kind = core(base)  # under transforms: what a length counts
    tests = tuple(b.rule.test(b.limit, kind) for b in bounds)
    relying = frozenset(t for b, t in zip(bounds, tests, strict=True) if b.rule.relying)

    def check(value: Any) -> Any:
        value = inner(value)
        if isinstance(value, Invalid):
            return value
        found = None
        for test in tests:
            problem = test(value) if found is None or test not in relying else _relying(test, value)
            if problem is not None:
                found = add(found, problem)
        if found is not None:
            return found
        for fn in transforms:
            try:
                value = fn(value)
            except ValueError as exc:
                return add(None, Problem((), said(exc, "the value was refused"), authored=True))
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
    return problem


# --- containers -------------------------------------------------------------------------------


def items_of(value: Any) -> list[Any] | tuple[Any, ...] | None:
    """The items of a list or tuple from the input, read without its own methods, else None.

    A list is read into a copy first: checking an item may run the input's own code (a mapping's
    `items()`), which could change the list while it is read.
    """
    kind = type_of(value)
    if kind is tuple:
        return value  # type: ignore[no-any-return]
    if issubclass(kind, list):
        return list.copy(value)  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    if issubclass(kind, tuple):
        return tuple.__getitem__(value, slice(None))  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    return None


def sized(found: Invalid, tests: tuple[Test, ...], read: cabc.Sized) -> Invalid:
    """The problems of a container's items, after those of its length, tested on what was read.

    So a refusal lists every problem of a list or record whose items were refused too.
    """
    lengths = None
    for test in tests:
        problem = test(read)
        if problem is not None:
            lengths = add(lengths, typing.cast("str", problem))  # a length's, in our words
    return found if lengths is None else combine(lengths, found)


def item_problems(results: cabc.Iterable[object]) -> Invalid | None:
    """The problems of an array's items, each at its index; None when every item passed."""
    found = None
    for index, result in enumerate(results):
        if isinstance(result, Invalid):
            found = merge(found, index, result)
    return found


def entries_of(value: Any) -> list[tuple[Any, Any]] | Invalid:
    """The (key, value) pairs of a mapping from the input, read once into a list.

    A dict is read without its own methods; checking a value may run the input's own code, which
    could change the dict while it is read, so the pairs are read first.
    """
    kind = type_of(value)
    if issubclass(kind, dict):
        return list(dict.items(value))  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]
    if sys.version_info >= (3, 15) and issubclass(kind, builtins.frozendict):
        # Python 3.15's immutable dict is only registered as a `Mapping`: read it as a dict is
        return list(builtins.frozendict.items(value))  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]
    if is_mapping(kind):
        try:
            return [(key, entry) for key, entry in value.items()]
        except Exception:  # noqa: BLE001 - a mapping that cannot be read is the input's fault
            return unreadable()
    return mismatch("an object", value)


class _Read(cabc.Mapping[Any, Any]):
    """A mapping that is no dict, read once: its pairs, as its own `items()` gave them.

    `None` when that failed: then every later reading fails as the first one did.
    """

    __slots__ = ("pairs",)

    def __init__(self, pairs: list[tuple[Any, Any]] | None) -> None:
        self.pairs = pairs

    def items(self) -> Any:  # what `entries_of` reads
        if self.pairs is None:
            raise LookupError(_UNREAD)
        return self.pairs

    def __getitem__(self, key: object) -> Any:
        raise KeyError(key)  # never asked: its pairs are read

    def __iter__(self) -> cabc.Iterator[Any]:
        return iter(())

    def __len__(self) -> int:
        return 0 if self.pairs is None else len(self.pairs)


_UNREAD = "the mapping could not be read"


def read_once(value: object) -> object:
    """A mapping that is no dict, read into what `entries_of` reads; any other value as it is.

    A mapping's own `items()` may give another answer each time it is called, or none the
    second time: it is called once per value, however many branches (or, with repair, passes)
    read it. One that cannot be read is read as that failure again.
    """
    kind = type_of(value)
    if kind is _Read or issubclass(kind, dict) or not is_mapping(kind):
        return value
    pairs = entries_of(value)
    return _Read(None if isinstance(pairs, Invalid) else pairs)


def read_as(pairs: list[tuple[Any, Any]]) -> cabc.Mapping[Any, Any]:
    """A mapping the checks read as these pairs: a pass before them hands on what it read."""
    return _Read(pairs)


def record(values: Checker, lengths: tuple[Test, ...] = ()) -> Checker:
    """A mapping with string keys, each value as `values` checks it, passed on as a new dict.

    `lengths` are its length bounds, for a refusal of its values to list too.
    """

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
        return out if found is None else sized(found, lengths, entries)

    return check


def union(branches: tuple[Checker, ...], phrase: str | None, *, reads: bool = False) -> Checker:
    """The first branch that takes the value unchanged, else the first that converts it.

    `phrase` is what the union takes, for a value no branch's type fits. `None` checks a default:
    the first branch that takes it wins, and each branch says what it takes of a default (a
    member, a set), not what input may be: "expected 1 or a string, got 1" would contradict
    itself. When a branch `reads` mappings, a mapping that is no dict is read once, here, and
    every branch is given what was read.
    """
    native = phrase is None

    def check(value: Any) -> Any:
        if reads and type_of(value) is not dict:  # not `type()`: it would narrow `value`
            value = read_once(value)
        converted: Any = NO_VALUE
        failures: list[Invalid] = []
        for branch in branches:
            result = branch(value)
            if isinstance(result, Invalid):
                failures.append(result)
            elif native or _unchanged(result, value):
                return result
            elif converted is NO_VALUE:
                converted = result
        return converted if converted is not NO_VALUE else _union_problems(failures, phrase, value)

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


def text_of(value: object) -> str | None:
    """A `str` from the input as plain text, read without its own methods; None for anything else.

    A `str` subclass could run its own `__hash__` or `__eq__` in a lookup; its text cannot.
    """
    if type(value) is str:
        return value
    if issubclass(type(value), str):
        return str.__str__(typing.cast("str", value))
    return None
