"""Field model to the checkers of input: one closure per node, chosen once, at declaration.

A checker takes a value from the input and returns what the function receives, or an `Invalid`
with every problem it found (`_checks` says how values are read). The checkers here are the
reference for what is accepted; `_codegen` adds an inline fast path in front of them for
objects. An `Invalid` is new for each refusal: a parent may add to the one it builds, never to
one it was given.
"""

from __future__ import annotations

import copy
import typing
from collections.abc import Callable, Sequence
from itertools import repeat
from typing import Any

from .._model.bounds import Test, lengths, longest
from .._model.defaults import immutable
from .._model.memo import once
from .._model.nodes import (
    MISSING,
    Array,
    Bound,
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
    layers,
    shared_default,
)
from .._model.problems import LIMIT, Invalid, Problem, Unknown, add, mismatch
from .._model.words import said, show
from . import codegen
from .blocks import (
    NO_VALUE,
    SCALARS,
    Checker,
    bounded,
    entries_of,
    item_problems,
    items_of,
    nullable,
    record,
    sized,
    text_of,
    type_of,
    union,
)
from .expected import expected

__all__ = ["checker", "compile_fields", "missing"]


def compile_fields(fields: Sequence[Field]) -> Checker:
    """The validator of a tool's input: a mapping in, the function's keyword arguments out."""
    return _object_checker(fields, codegen.KWARGS, None)


def checker(node: Node) -> Checker:
    """The checker of a node."""
    return _BUILDERS[type(node)](node)


def _choice(node: Choice) -> Checker:
    phrase = expected(node)
    table = dict(zip(node.values, node.outputs, strict=True))
    if node.json_type == "string":
        return _string_choice(table, phrase)
    if node.json_type == "boolean":
        return _boolean_choice(table, phrase)
    return _number_choice(table, phrase)


def _string_choice(table: dict[Any, object], phrase: str) -> Checker:
    def check(value: Any) -> Any:
        # a plain string is looked up as it is: `str.__str__` costs a refused call 30 ns
        kind = type_of(value)
        if kind is str or issubclass(kind, str):
            found = table.get(value if kind is str else str.__str__(value), NO_VALUE)
            if found is not NO_VALUE:
                return found
        return mismatch(phrase, value)

    return check


def _boolean_choice(table: dict[Any, object], phrase: str) -> Checker:
    def check(value: Any) -> Any:
        found = table.get(value, NO_VALUE) if type(value) is bool else NO_VALUE
        return mismatch(phrase, value) if found is NO_VALUE else found

    return check


def _number_choice(table: dict[Any, object], phrase: str) -> Checker:
    """Numbers match by value (`1.0` is `1`); a boolean never matches a number."""

    def check(value: Any) -> Any:
        kind = type_of(value)
        if kind is not bool and issubclass(kind, (int, float)):
            number = float.__float__(value) if issubclass(kind, float) else int.__int__(value)
            found = table.get(number, NO_VALUE)
            if found is not NO_VALUE:
                return found
        return mismatch(phrase, value)

    return check


def _bounded_inner(inner: Node, bounds: tuple[Bound, ...]) -> Checker:
    """The checker of what the bounds apply to.

    A set within a `MaxLen` is built only that far. A list or record whose items are refused
    tests its length bounds on what it read, so the refusal lists them too; not a set, whose
    length counts once duplicates merge.
    """
    if isinstance(inner, Array) and inner.kind in (set, frozenset):
        return _array(inner, most=longest(bounds))
    if isinstance(inner, (Array, Record)):
        tests = tuple(b.rule.test(b.limit, inner) for b in lengths(bounds))
        if isinstance(inner, Array):
            return _array(inner, tests)
        return record(checker(inner.values), tests)
    return checker(inner)


def _constrained(node: Constrained) -> Checker:
    """The checker of a node with bounds, those of the layers of bounds it wraps too."""
    base, bounds = layers(node)
    return bounded(base, bounds, _bounded_inner(base, bounds), node.transforms)


def _array(node: Array, lengths: tuple[Test, ...] = (), most: Bound | None = None) -> Checker:
    """An array's checker; a set within a `MaxLen` is built only until it holds more.

    `lengths` are its length bounds, for a refusal of its items to list too.
    """
    item = checker(node.items)
    build = node.kind

    def check(value: Any) -> Any:
        items = items_of(value)
        if items is None:
            return mismatch("an array", value)
        out = list(map(item, items))
        if any(map(isinstance, out, repeat(Invalid))):
            return sized(typing.cast("Invalid", item_problems(out)), lengths, items)
        if build is list:
            return out
        if most is not None and len(out) > most.limit:
            return _set_of_at_most(out, most, build, node)
        return build(out)

    return check


def _set_of_at_most(items: list[Any], most: Bound, build: type, node: Array) -> Any:
    """The set of `items`, or its problem as soon as it holds more than `most` of them.

    Items crafted to share one hash make a set quadratic to build; built only this far, each
    item costs at most `most` comparisons. Its other bounds are not checked then: it is never
    whole.
    """
    built: set[Any] = set()
    limit = most.limit
    for item in items:
        built.add(item)
        if len(built) > limit:
            wanted = most.rule.expected(limit, node)
            return add(None, f"expected {wanted}, got more than {limit}")
    return built if build is set else build(built)


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
    return codegen.object_validator(
        codegen.Plan(
            mode=mode,
            names=names,
            parts=tuple(parts),
            clean=clean,
            build=None if node is None or not node.is_dataclass else _constructor(node.cls),
        )
    )


def _part(f: Field, i: int, mode: str) -> codegen.Part:
    """What the validator takes from one field, made once per equal field, place and mode.

    A field with no default, or `None`, `True` or `False`, is the same in every tool writing it,
    so one lookup replaces its checker's, fast path's and missing problem's. Any other default is
    the function's own object, copied for each tool (a mutable one), so its part is made each time.
    """
    if not shared_default(f.default):
        return _new_part(f, i, mode)
    return once(_PARTS, (f, i, mode), _new_part, f, i, mode)


def _new_part(f: Field, i: int, mode: str) -> codegen.Part:
    kind, value = _left_out(f, mode)
    check = checker(bare(f.type))  # None: left out
    return codegen.Part(check, kind, value, codegen.fast_path(f.type, i))


_PARTS: dict[tuple[Field, int, str], codegen.Part] = {}


def _left_out(f: Field, mode: str) -> tuple[str, object]:
    """What a field left out becomes (see `_codegen`): a problem, its default, or nothing."""
    if f.required:
        return codegen.MISSING_FIELD, missing(f)
    if f.factory is not None:
        factory = f.factory
        return codegen.MAKE, lambda: _fresh(factory())
    if mode != codegen.KWARGS and f.default is MISSING:
        return codegen.ABSENT, None  # a key left out stays out
    if immutable(f.default):
        return codegen.DEFAULT, f.default
    # A mutable default, for the function or a dataclass: copied when its field was declared,
    # so changing the function's own object later reaches no call, and again for each call.
    declared = f.declared
    return codegen.MAKE, lambda: copy.deepcopy(declared)


def _fresh(made: object) -> object:
    """What a default factory made, copied: it may hold what every call of it shares.

    A factory may build from a class default (`Page()` whose `pad` is one `Pad()` for every
    `Page`), so only a copy is the call's own. What cannot be copied is passed as made.
    """
    try:
        return copy.deepcopy(made)
    except Exception:  # noqa: BLE001 - a handle, a lock: as the factory made it
        return made


def missing(f: Field) -> Problem:
    """The problem of a required field left out: the host's words, or what it expects."""
    if f.missing_message is not None:
        return Problem((f.name,), f.missing_message, authored=True)
    return Problem((f.name,), f"missing, expected {expected(bare(f.type))}")


def _constructor(cls: type) -> Callable[[dict[str, Any]], Any]:
    def build(kwargs: dict[str, Any]) -> Any:
        try:
            return cls(**kwargs)
        except ValueError as exc:
            text = said(exc, f"{cls.__name__} refused these values")
            return add(None, Problem((), text, authored=True))

    return build


_OBJECT_MODES: dict[bool, str] = {True: codegen.DATACLASS, False: codegen.TYPEDDICT}
"""How an object's validator builds what it passes on: a dataclass instance, or a new dict."""

_BUILDERS: dict[type, Callable[[Any], Checker]] = {
    Scalar: lambda node: SCALARS[node.kind],
    Choice: _choice,
    Nullable: lambda node: nullable(checker(node.inner)),
    Constrained: _constrained,
    Array: _array,
    Record: lambda node: record(checker(node.values)),
    Union: lambda node: union(
        tuple(map(checker, node.branches)),
        expected(node),
        reads=any(isinstance(core(branch), (Record, Object)) for branch in node.branches),
    ),
    Object: lambda node: _object_checker(node.fields, _OBJECT_MODES[node.is_dataclass], node),
}
"""How each kind of node is checked."""
