"""A result as the JSON a client receives, checked against its output model: one walk per node kind.

Results go the other way from input. The tool made the value: nothing here converts what a
model sent, and a transform in a return annotation (which converts input) is never called. A
result is checked against the annotated type itself; a value of another type is a problem at
its path. Dataclasses become objects, enum members their values, tuples and sets arrays (a
set's items sorted where they sort), and an object field holding `None` is left out.

The value is the host's, but it may hold anything: types are read with `type()`, containers
through their base classes' own methods, and a value whose own code raises while it is read is
a problem at its path, as a value of the wrong type is. A part annotated `Any` is any JSON
value, walked in a loop to a bounded depth. Every text comes out readable as UTF-8 (`readable`),
and an int of any size is written whole (`json_text`).
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import sys
import typing
from collections.abc import Callable
from typing import Any

from .._check.blocks import (
    NO_VALUE,
    SCALARS,
    Checker,
    entries_of,
    item_problems,
    nullable,
    record,
    text_of,
    type_of,
    union,
)
from .._check.compile import checker, missing
from .._check.expected import expected
from .._model.nodes import (
    Anything,
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
    bare,
    core,
    holds_none,
    layers,
    made_by,
)
from .._model.problems import Invalid, Key, Problem, Step, add, merge, mismatch
from .._model.words import is_mapping, show

__all__ = ["digits", "json_checker", "json_text", "readable"]


def json_checker(node: Node) -> Checker:
    """What checks a result against `node`: its JSON value out, or an `Invalid`."""
    return _CHECKERS[type(node)](node)


def _scalar(node: Scalar) -> Checker:
    check = SCALARS[node.kind]
    if node.kind is not str:
        return check

    def text(value: Any) -> Any:
        sent = check(value)
        return sent if isinstance(sent, Invalid) else readable(sent)

    return text


def _record(node: Record) -> Checker:
    """A mapping with string keys, as a dict; its keys readable, as its texts are."""
    check = record(json_checker(node.values))

    def sent(value: Any) -> Any:
        out = check(value)
        if isinstance(out, Invalid) or all(key.isascii() for key in out):
            return out
        return {readable(key): item for key, item in out.items()}

    return sent


def readable(text: str) -> str:
    """Text as UTF-8 can carry it: each surrogate (lone, as no UTF-8 text has one) as U+FFFD.

    `os.listdir` gives such text for a name that is no UTF-8 (`surrogateescape`), and an MCP
    transport fails the whole answer on it. The same object when nothing is replaced.
    """
    if text.isascii():
        return text
    try:
        text.encode()
    except UnicodeEncodeError:
        return _SURROGATES.sub("\ufffd", text)
    return text


_SURROGATES = re.compile("[\ud800-\udfff]")


def _choice(node: Choice) -> Checker:
    """A member or one of the values, as its value (an `Enum` member is sent as its value)."""
    take = checker(node)  # a value as input reads it, to what the function would receive
    pairs = tuple(zip(node.outputs, node.values, strict=True))

    def check(value: Any) -> Any:
        found = next((sent for output, sent in pairs if value is output), None)
        if found is not None:
            return found
        made = take(value)
        if isinstance(made, Invalid):
            return made
        return next(sent for output, sent in pairs if made is output)

    return check


def _array(node: Array) -> Checker:
    """A list, tuple, set or frozenset, as a list; a set's items sorted where they sort."""
    item = json_checker(node.items)

    def check(value: Any) -> Any:
        read = _items(value)
        if read is None:
            return mismatch("an array", value)
        items, unordered = read
        out = list(map(item, items))
        found = item_problems(out)
        if found is not None:
            return found
        if unordered:
            with contextlib.suppress(TypeError):  # JSON values of mixed types, or objects
                out.sort()  # comparing JSON values runs no code of the host's
        return out

    return check


def _items(value: object) -> tuple[list[Any], bool] | None:
    """The items of an array, read through its base class, and whether they have no order."""
    kind = type_of(value)
    if issubclass(kind, (list, tuple)):
        base: Any = list if issubclass(kind, list) else tuple
        return [*base.__iter__(value)], False
    if issubclass(kind, (set, frozenset)):
        base = set if issubclass(kind, set) else frozenset
        return [*base.__iter__(value)], True
    return None


def _object(node: Object) -> Checker:
    """A dict of the object's fields, or an instance of the dataclass; `None` fields left out."""
    parts = {f.name: (f, json_checker(bare(f.type))) for f in node.fields}
    names = tuple(parts)
    cls = node.cls if node.is_dataclass else None

    def check(value: Any) -> Any:
        kind = type_of(value)
        entries = _attributes(value, names) if cls and issubclass(kind, cls) else entries_of(value)
        if isinstance(entries, Invalid):
            return entries
        out: dict[str, Any] = {}
        found = None
        for key, entry in entries:
            name = text_of(key)
            part = None if name is None else parts.get(name)
            if name is None or part is None:
                found = add(found, f"no field {show(key)} in {node.cls.__name__}")
            elif entry is not None:
                sent = out[name] = part[1](entry)
                if isinstance(sent, Invalid):
                    found = merge(found, name, sent)
        for f in node.fields:
            if f.name not in out and _always(f):
                found = add(found, missing(f))
        return out if found is None else found

    return check


def _always(f: Field) -> bool:
    """Whether a field is always in an object sent: it must be given, and never as `None`."""
    return f.required and not holds_none(f.type)


def _attributes(value: object, names: tuple[str, ...]) -> list[tuple[str, Any]] | Invalid:
    """The fields of a dataclass instance; one never set left out, one that raises a problem."""
    read: list[tuple[str, Any]] = []
    for name in names:
        try:
            read.append((name, getattr(value, name)))
        except AttributeError:  # an `init=False` field never set: left out
            continue
        except Exception as exc:  # noqa: BLE001 - the host's own code: a problem at its path
            return add(None, Problem((name,), f"could not be read ({type(exc).__name__})"))
    return read


def _constrained(node: Constrained) -> Checker:
    """The annotated type's checker, then its bounds, tested on what is sent.

    Bounds around a transform hold on what it made from input, which a result never is: they
    are left out, and the layer under the transform is checked as written.
    """
    base, bounds = layers(node)
    inner = json_checker(base)
    if made_by(base) is not None or not bounds:
        return inner
    kind = core(base)
    tests = tuple((b.rule.relying, b.rule.test(b.limit, kind)) for b in bounds)

    def check(value: Any) -> Any:
        sent = inner(value)
        if isinstance(sent, Invalid):
            return sent
        found = None
        for relying, test in tests:
            try:  # a predicate is the host's: it is given the value as returned
                problem = test(value if relying else sent)
            except Exception as exc:  # noqa: BLE001 - the host's own code
                problem = f"could not be checked ({type(exc).__name__})"
            if problem is not None:
                found = add(found, problem)
        return sent if found is None else found

    return check


DEEPEST = 100
"""How many levels of arrays and objects a part annotated `Any` may hold (a cycle holds more)."""


def _anything(value: Any) -> Any:
    """Any JSON value, copied, its texts readable; read in a loop, not a recursion.

    JSON values are arrays (lists, tuples), objects with string keys, strings, finite numbers,
    booleans and null.
    """
    root: list[Any] = [None]
    todo: list[tuple[Any, Any, Any, tuple[Step, ...]]] = [(value, root, 0, ())]
    while todo:
        value, into, place, path = todo.pop()
        sent = _leaf(value)
        if sent is NO_VALUE:
            parts = _parts(value, deep=len(path) >= DEEPEST)
            if isinstance(parts, str):
                return add(None, Problem(path, parts))
            sent, steps = parts
            todo += ((item, sent, key, (*path, step)) for key, step, item in steps)
        into[place] = sent
    return root[0]


def _leaf(value: object) -> object:
    """A string, finite number, boolean or null as JSON; `NO_VALUE` for anything else."""
    kind = type_of(value)
    if value is None or kind is bool:
        return value
    if issubclass(kind, str):
        return readable(str.__str__(typing.cast("str", value)))
    if issubclass(kind, int):
        return int.__int__(typing.cast("int", value))
    if issubclass(kind, float) and math.isfinite(
        number := float.__float__(typing.cast("float", value))
    ):
        return number
    return NO_VALUE


Parts = tuple[Any, list[tuple[Any, "Step", object]]]


def _parts(value: object, *, deep: bool) -> Parts | str:
    """An array or object made empty, and where each item goes in it; else why it is none."""
    read = _items(value)
    kind = type_of(value)
    mapping = issubclass(kind, dict) or is_mapping(kind)
    if deep and (mapping or read is not None):
        return f"nested more than {DEEPEST} levels deep, or cyclic"
    if read is not None and not read[1]:
        items = read[0]
        return [None] * len(items), [(i, i, item) for i, item in enumerate(items)]
    entries = entries_of(value) if mapping else None
    if entries is None or isinstance(entries, Invalid):
        return f"expected a JSON value, got {show(value)}"
    steps: list[tuple[Any, Step, object]] = []
    for key, item in entries:
        name = text_of(key)
        if name is None:
            return f"expected string keys, got {show(key)}"
        steps.append((readable(name), Key(name), item))
    return {}, steps


_CHECKERS: dict[type, Callable[[Any], Checker]] = {
    Anything: lambda _node: _anything,
    Scalar: _scalar,
    Choice: _choice,
    Nullable: lambda node: nullable(json_checker(node.inner)),
    Constrained: _constrained,
    Array: _array,
    Record: _record,
    Union: lambda node: union(
        tuple(map(json_checker, node.branches)),
        expected(node),
        reads=any(isinstance(core(branch), (Record, Object)) for branch in node.branches),
    ),
    Object: _object,
}
"""How a result is checked and sent, by kind of node."""


def json_text(value: object) -> str:
    """The compact JSON text of a JSON value this module made, an int of any size written whole."""
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    except ValueError:  # an int past the digits `str()` writes
        return _written(value)


def _written(value: object) -> str:
    kind = type(value)
    if kind is dict:
        pairs = typing.cast("dict[str, object]", value).items()
        return "{" + ",".join(f"{json_text(key)}:{_written(item)}" for key, item in pairs) + "}"
    if kind is list:
        return "[" + ",".join(map(_written, typing.cast("list[object]", value))) + "]"
    return digits(typing.cast("int", value)) if kind is int else json_text(value)


def digits(number: int) -> str:
    """An int in decimal, past the digits `str()` writes too: in pieces of fewer digits than that.

    Python limits `str()` to 4,300 digits, as writing a longer int takes quadratic time; this is
    for an int a tool made, whose size is the host's to judge.
    """
    most = _MOST_DIGITS()
    if not most or number.bit_length() <= 3 * (most - 1):  # 2**3 < 10: fewer digits than `most`
        return str(number)
    width = most - 1
    piece = 10**width
    left, pieces = abs(number), list[str]()
    while left >= piece:
        left, low = divmod(left, piece)
        pieces.append(f"{low:0{width}d}")
    return ("-" if number < 0 else "") + str(left) + "".join(reversed(pieces))


_MOST_DIGITS: Callable[[], int] = getattr(sys, "get_int_max_str_digits", lambda: 0)
"""How many digits `str()` writes of an int (no limit before Python 3.10.7)."""
