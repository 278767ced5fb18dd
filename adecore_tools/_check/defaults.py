"""Defaults: each is checked against its own field when the tool is declared.

A default is written in the function's own terms (an `Enum` member, a dataclass instance, a
set), so it is checked as such: the same types and bounds as input, with no conversion and no
transform, and in words about Python values ("expected Color.RED or a string"), since the host
reads them. A mutable default is copied once here, so one that cannot be copied for each call
fails at declaration, not on a call.
"""

from __future__ import annotations

import collections.abc as cabc
import typing
from enum import Enum
from typing import Any

from .._model.defaults import Uncopied
from .._model.errors import Where
from .._model.field_info import AS_DEFAULT, is_field_info
from .._model.nodes import (
    MISSING,
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
    core,
    layers,
)
from .._model.problems import Invalid, Problem, add, merge, message, mismatch
from .._model.words import show
from .blocks import (
    SCALARS,
    Checker,
    bounded,
    item_problems,
    native_int,
    nullable,
    record,
    text_of,
    type_of,
    union,
)
from .compile import missing
from .expected import expected, one_of

__all__ = ["check_defaults"]


def check_defaults(fields: tuple[Field, ...], tool: str) -> None:
    """Refuse a default its own field would refuse, or cannot copy, here or in any dataclass."""
    _check_defaults(fields, Where(tool))


def _check_defaults(fields: tuple[Field, ...], where: Where) -> None:
    """Refuse a default its own field would refuse, here or in any nested dataclass.

    A default factory is not called: it may do anything, and runs only when it is needed.
    """
    for f in fields:
        here = where.into(f.name)
        if is_field_info(f.default):
            raise here.error(TypeError, AS_DEFAULT)
        if f.default is not MISSING and f.default is not None:
            check = _native(f.type)
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
            declared = f.declared
            if isinstance(declared, Uncopied):
                raise here.error(
                    TypeError,
                    f"the default {_written(f.default)} cannot be copied for each call "
                    f"({type(declared.error).__name__}: {declared.error}); use an immutable "
                    "default (a tuple, a frozenset, None) or build the value in the function",
                ) from declared.error
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


def _check_nested_defaults(node: Node, where: Where) -> None:
    node = core(node)
    if isinstance(node, Array):
        _check_nested_defaults(node.items, where.into("[]"))
    elif isinstance(node, Record):
        _check_nested_defaults(node.values, where.into("{}"))
    elif isinstance(node, Union):
        for branch in node.branches:
            _check_nested_defaults(branch, where)
    elif isinstance(node, Object):
        _check_defaults(node.fields, where)


def _native(node: Node) -> Checker:
    """The check of a default of this node (defaults are few: it is not kept)."""
    return _BUILDERS[type(node)](node)


def _members(outputs: tuple[object, ...]) -> str | None:
    """`one of Color.RED, Color.BLUE`: what a default of an `Enum` field is written as."""
    if not all(isinstance(output, Enum) for output in outputs):
        return None
    return one_of(
        [f"{type(m).__name__}.{m.name}" for m in typing.cast("tuple[Enum, ...]", outputs)]
    )


def _native_choice(outputs: tuple[object, ...], phrase: str) -> Checker:
    def check(value: Any) -> Any:
        for output in outputs:
            if value is output or (type(value) is type(output) and value == output):
                return value
        kind = type_of(value)
        if kind in (str, int, float, bool) or not issubclass(kind, (str, int, float)):
            return mismatch(phrase, value)
        # `show` pictures a subclass as its plain value: "expected 1, got 1" for an `IntEnum`
        return add(None, f"expected {phrase}, got {show(value)} of type {kind.__name__}")

    return check


def _native_array(item: Checker, build: type) -> Checker:
    """A default's check: it is already of the kind the field builds (a list: any sequence)."""
    kind: type = cabc.Sequence if build is list else build
    wanted = "an array" if build is list else f"a {build.__name__}"

    def check(value: Any) -> Any:
        if not isinstance(value, kind) or isinstance(value, (str, bytes)):
            return mismatch(wanted, value)
        found = item_problems(map(item, typing.cast("cabc.Iterable[object]", value)))
        return value if found is None else found

    return check


def _native_object(node: Object) -> Checker:
    checkers = tuple(_native(f.type) for f in node.fields)

    def check(value: Any) -> Any:
        entries = _native_entries(node, value)
        if isinstance(entries, Invalid):
            return entries
        found = None
        for f, checker in zip(node.fields, checkers, strict=True):
            entry = entries.pop(f.name, None)
            if entry is None:
                if f.required:
                    found = add(found, missing(f))
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


def _constrained(node: Constrained) -> Checker:
    base, bounds = layers(node)
    return bounded(base, bounds, _native(base), ())


_SCALARS: dict[type, Checker] = {**SCALARS, int: native_int}
"""A default of each scalar type: an int is no float's."""

_BUILDERS: dict[type, typing.Callable[[Any], Checker]] = {
    Scalar: lambda node: _SCALARS[node.kind],
    Choice: lambda node: _native_choice(node.outputs, _members(node.outputs) or expected(node)),
    Nullable: lambda node: nullable(_native(node.inner)),
    Constrained: _constrained,
    Array: lambda node: _native_array(_native(node.items), node.kind),
    Record: lambda node: record(_native(node.values)),
    Union: lambda node: union(tuple(map(_native, node.branches)), None),
    Object: _native_object,
}
"""How a default of each kind of node is checked."""
