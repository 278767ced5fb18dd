"""Type hints to the field model, once, at decoration.

Every mistake in a hint is found here and reported with the tool, the field path and what to do
about it. Hints are resolved with the public `typing_extensions.get_type_hints`
(`_annotations`); the `Annotated` metadata this package understands is picked out here, and each
bound is read by the bounds table (`_bounds`).
"""

from __future__ import annotations

import builtins
import collections.abc as cabc
import dataclasses
import enum
import math
import sys
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any

import typing_extensions as te
from typing_extensions import TypeIs

from .._model.bounds import check_meetable, read_bound
from .._model.errors import (
    NO_CYCLES,
    NONE_ALONE,
    Unresolved,
    Where,
    advice,
    check_callable,
    is_class,
    type_name,
    unlistable,
    written,
)
from .._model.field_info import unhonoured
from .._model.memo import once
from .._model.metadata import ToolCall, Transform, required_field, transform
from .._model.nodes import (
    Anything,
    Array,
    Bound,
    Choice,
    Constrained,
    JsonType,
    Node,
    Nullable,
    Record,
    Scalar,
    Union,
    hashable,
)
from .hints import alias_value, flatten
from .objects import KEY_WRAPPERS, read_object

__all__ = ["is_call_class", "node_of"]

_SEQUENCES: dict[object, type] = {
    list: list,
    tuple: tuple,
    set: set,
    frozenset: frozenset,
    cabc.Sequence: list,
}
_MAPPINGS = (dict, cabc.Mapping)
_UNIONS = (typing.Union, types.UnionType)
_LITERALS = (typing.Literal, te.Literal)
_ALIASES = (te.TypeAliasType, getattr(typing, "TypeAliasType", te.TypeAliasType))
_NEW_TYPES = (typing.NewType, te.NewType)  # two classes on Python 3.10
_SCALARS = {kind: Scalar(kind) for kind in (str, int, float, bool)}
_ANYTHING = (typing.Any, te.Any, object)  # two `Any`s on Python 3.10


def node_of(tp: Any, where: Where, seen: tuple[object, ...] = ()) -> Node:
    """The node for one type. `seen` holds the classes and aliases being read, to refuse cycles.

    Equal hints mean the same, so each is read once (a type that contains itself never gets a
    node, so one found here was never in `seen`).
    """
    if type(tp) is type and tp in _SCALARS:  # `str`, `int`, `float`, `bool`: no key to build
        return _SCALARS[tp]
    return once(_NODES, (tp, _in_order(tp), where.returned), _new_node, tp, where, seen)


_NODES: dict[tuple[object, object, bool], Node] = {}
"""Nodes by hint, apart for return types: `Any` is read in a return type alone."""


_LITERAL_VALUES = frozenset((str, int, float, bool, type(None)))
"""The types of a `Literal`'s values: most leaves of a hint."""


def _in_order(tp: object) -> object:
    """The arguments of a hint at every depth, in order, and the types of its values.

    `int | str == str | int`, yet the order decides a union's first branch and a Literal's enum;
    `MultipleOf(2) == MultipleOf(2.0)`, yet a float step rounds. The cache of nodes must tell
    them apart.
    """
    if is_class(tp):
        return tp  # a class has no arguments (and most hints are classes)
    if type(tp) in _LITERAL_VALUES:
        return (tp, type(tp))  # what `_held_types` says of it, without the call
    args = te.get_args(tp)
    return tuple(map(_in_order, args)) if args else (tp, *_held_types(tp))


def _held_types(value: object) -> tuple[type, ...]:
    """Its type, and those of what it holds (`MultipleOf(2)`: `int`), by its class's match args.

    Metadata no bound knows may hold anything: what cannot be read is left out.
    """
    kind = type(value)
    names: object = None
    for base in kind.__mro__:  # class dicts, not `getattr`: a failed lookup is slow
        names = base.__dict__.get("__match_args__")
        if names is not None:
            break
    if type(names) is not tuple or not names:
        return (kind,)
    # a plain loop: a comprehension or a generator costs twice as much, and every bound of every
    # hint comes here for each tool declared
    found: list[type] = [kind]
    try:
        for name in typing.cast("tuple[str, ...]", names):
            held: object = getattr(value, name, None)
            found.append(type(held))
    except Exception:  # noqa: BLE001 - the host's own metadata: what it holds does not matter
        return (kind,)
    return tuple(found)


def _new_node(tp: Any, where: Where, seen: tuple[object, ...]) -> Node:  # noqa: C901, PLR0911, PLR0912 - one per kind of node
    origin: Any = te.get_origin(tp)
    alias = origin if isinstance(origin, _ALIASES) else tp  # `Pair[int]`: the alias is `Pair`
    if isinstance(alias, (*_ALIASES, *_NEW_TYPES)):
        if any(_again(tp, alias, earlier) for earlier in seen):
            raise where.error(TypeError, f"{type_name(alias)} refers to itself; {NO_CYCLES}")
        return node_of(alias_value(tp, alias, where), where, (*seen, tp))
    if where.returned and any(tp is anything for anything in _ANYTHING):
        return Anything()  # a part of a result, checked to be JSON; never an input
    args: tuple[Any, ...] = te.get_args(tp)
    if origin is te.Annotated:
        return _annotated(args[0], args[1:], where, seen)
    if origin in _LITERALS:
        return _literal(args, where)
    kind: type[object] | None = tp if is_class(tp) else None
    if is_call_class(kind) or is_call_class(origin):
        raise where.error(
            TypeError,
            f"{type_name(tp)} is a ToolCall, never input: annotate the call parameter with the "
            "class alone (not in a union, Annotated, a list or an object)",
        )
    if kind is not None and issubclass(kind, enum.Enum):
        return _enum(kind, where)
    if origin in _UNIONS:
        return _union(args, where, seen)
    if origin in _SEQUENCES or kind in _SEQUENCES:
        return _array(origin or tp, args, where, seen)
    if origin in _MAPPINGS or kind in _MAPPINGS:
        return _record(args, where, seen)
    if sys.version_info >= (3, 15) and builtins.frozendict in (origin, kind):
        raise where.error(
            TypeError,
            f"{type_name(tp)} cannot be read: an object's keys come as a new dict; use "
            "Mapping[str, X], or Annotated[dict[str, X], transform(frozendict)] to get a "
            "frozendict",
        )
    if kind is not None and (te.is_typeddict(kind) or dataclasses.is_dataclass(kind)):
        if kind in seen:
            raise where.error(TypeError, f"{type_name(kind)} contains itself; {NO_CYCLES}")
        within = (*seen, kind)
        return read_object(kind, where, lambda hint, here: node_of(hint, here, within))
    raise where.error(TypeError, _unreadable(tp, origin))


def _unreadable(tp: Any, origin: Any) -> str:  # noqa: PLR0911 - one answer per kind of hint
    """Why a hint stands for no input, and what to write instead."""
    if isinstance(origin, type) and (te.is_typeddict(origin) or dataclasses.is_dataclass(origin)):
        what = "TypedDict" if te.is_typeddict(origin) else "dataclass"
        return (
            f"a generic {what} ({type_name(tp)}) cannot be read; declare a {what} with "
            "concrete types"
        )
    if origin in KEY_WRAPPERS:
        return (
            f"{type_name(tp)} only means something on a TypedDict key; write it on the key itself, "
            "not inside another type or an alias"
        )
    if origin is typing.ClassVar or tp is typing.ClassVar:  # `te.ClassVar` is the same
        return (
            f"{type_name(tp)} is a class variable, never input; write the field's type alone (a "
            "dataclass takes te.ClassVar[...] for a field when quoted, as under from __future__ "
            "import annotations: import ClassVar by name there)"
        )
    if tp is te.LiteralString or tp is getattr(typing, "LiteralString", te.LiteralString):
        return (
            "LiteralString is text written in the source, which no input is; take a str "
            "(and check it, as with a Literal of the strings you allow)"
        )
    if origin is te.Final or tp is te.Final:
        return (
            f"{type_name(tp)} is read only as a dataclass field's annotation with its type, "
            "Final[X]; write the type alone here"
        )
    if tp is None or tp is type(None):
        return NONE_ALONE
    if isinstance(tp, (str, typing.ForwardRef)):
        name = tp if isinstance(tp, str) else tp.__forward_arg__
        return (
            f"the quoted name {name!r} inside a type was never resolved (Python 3.10 does not look "
            f'inside list[...] or dict[...]); quote the whole annotation ("list[{name}]") instead'
        )
    return f"type {type_name(tp)} has no one JSON type; {advice(tp)}"


def _again(tp: object, alias: object, earlier: object) -> bool:
    """Whether an alias met while reading `earlier` goes round a cycle.

    Met again holding all its earlier arguments (the same ones, or `Grow[list[int]]` after
    `Grow[int]`), it came from its own value, and will again without end; met inside them
    (`Pair[int]` within `Pair[Pair[int]]`), it is a smaller type.
    """
    origin = te.get_origin(earlier)
    if (origin if isinstance(origin, _ALIASES) else earlier) is not alias:
        return False
    return all(_within(arg, tp) for arg in te.get_args(earlier))


def _within(part: object, tp: object) -> bool:
    return any(arg == part or _within(part, arg) for arg in te.get_args(tp))


def is_call_class(tp: object) -> TypeIs[type[ToolCall]]:
    return isinstance(tp, type) and issubclass(tp, ToolCall)


def _annotated(
    tp: object, metadata: Iterable[object], where: Where, seen: tuple[object, ...]
) -> Node:
    inner = node_of(tp, where, seen)
    bounds: list[Bound] = []
    transforms: list[Callable[[Any], Any]] = []
    description: str | None = None
    for meta in flatten(metadata):
        if (misplaced := _misplaced(meta)) is not None:
            raise where.error(TypeError, misplaced)
        documentation = getattr(meta, "documentation", None)
        if isinstance(documentation, str):
            if (why := unlistable(documentation)) is not None:
                raise where.error(ValueError, f"its description {why}")
            description = documentation
        elif isinstance(meta, Transform):
            check_callable(meta.fn, where)
            transforms.append(meta.fn)
        elif (bound := read_bound(meta, inner, where)) is not None:
            bounds.append(bound)
    check_meetable(bounds, inner, where)
    if not (bounds or transforms or description is not None):
        return inner
    if isinstance(inner, Nullable):
        return Nullable(Constrained(inner.inner, tuple(bounds), tuple(transforms), description))
    return Constrained(inner, tuple(bounds), tuple(transforms), description)


def _misplaced(meta: object) -> str | None:
    """Why metadata cannot stand where it is written: a bound not called, or a type.

    Or pydantic's metadata setting what this package cannot honour.
    """
    if _uncalled(meta):
        name = typing.cast("Callable[..., object]", meta).__name__
        return f"{name} is used without its arguments; write it called, as in {name}(...)"
    if te.get_origin(_alias_of(meta)) is te.Annotated:  # as metadata, its bounds never apply
        return (
            f"the metadata {type_name(meta)} is an Annotated type, whose bounds never apply as "
            "metadata; use it as the type (LowerCase[str], not Annotated[str, LowerCase]), or "
            "list its metadata here"
        )
    return unhonoured(meta)


def _alias_of(meta: object) -> object:
    """What a type alias in metadata stands for (`type PositiveInt = Annotated[...]`)."""
    if not isinstance(meta, _ALIASES):
        return meta
    alias: Any = meta
    try:
        return alias.__value__
    except Exception:  # noqa: BLE001 - a name not defined yet: no type to judge, so no mistake
        return None


def _uncalled(meta: object) -> bool:
    """Whether metadata is a bound's class or a helper itself (`MaxLen`, not `MaxLen(10)`)."""
    if isinstance(meta, type):
        return meta.__module__ == "annotated_types" or meta is te.Doc
    return meta is required_field or meta is transform


def _json_type(value: object) -> JsonType | None:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float) and math.isfinite(value):
        return "number"
    if isinstance(value, str):
        return "string"
    return None


def _choice(
    values: tuple[object, ...], outputs: tuple[object, ...], what: str, where: Where
) -> Choice:
    kinds: set[JsonType | None] = {_json_type(value) for value in values}
    if kinds == {"integer", "number"}:
        kinds = {"number"}
    kind = kinds.pop() if len(kinds) == 1 else None
    for value in values if kind == "string" else ():
        if (why := unlistable(typing.cast("str", value))) is not None:
            raise where.error(ValueError, f"{what} value {value!r} {why}")
    for value in values if kind in ("integer", "number") else ():
        if isinstance(value, int) and value.bit_length() > 64 and not _writable(value):
            raise where.error(
                ValueError,
                f"{what} holds an integer of more than {sys.get_int_max_str_digits()} digits, "
                "which Python writes as no text, so no JSON listing could carry it; use a "
                "smaller number, or a string",
            )
    if kind is None:
        listed = ", ".join(sorted(map(written, values)))
        raise where.error(
            TypeError,
            f"{what} mixes JSON types or holds a non-JSON value ({listed}); "
            "a choice is all strings, all numbers or all booleans",
        )
    return Choice(values=typing.cast("tuple[Any, ...]", values), outputs=outputs, json_type=kind)


def _writable(number: int) -> bool:
    try:
        str(number)
    except ValueError:  # beyond `sys.get_int_max_str_digits()`
        return False
    return True


def _is_none(tp: object, where: Where) -> bool:
    """`None` as a type: `type(None)`, `Literal[None]` or an alias of one (a union's branch)."""
    aliases: list[object] = []
    while isinstance(tp, _ALIASES) and all(tp is not alias for alias in aliases):
        aliases.append(tp)
        try:
            tp = alias_value(tp, tp, where)  # quoted names resolved, as everywhere
        except Unresolved:
            return False  # read as a branch, which reports the name
    return (
        tp is None
        or tp is type(None)
        or (te.get_origin(tp) in _LITERALS and te.get_args(tp) == (None,))
    )


def _literal(args: tuple[object, ...], where: Where) -> Node:
    present = tuple(arg for arg in args if arg is not None)
    if not present:
        raise where.error(TypeError, "Literal[None] alone is no input; use X | None")
    values = tuple(arg.value if isinstance(arg, enum.Enum) else arg for arg in present)
    node: Node = _choice(values, present, "the Literal", where)  # JSON values, so hashable
    if len({(value, type(value) is bool) for value in values}) < len(values):
        listed = ", ".join(map(written, values))
        raise where.error(
            TypeError,
            f"the Literal lists one JSON value twice ({listed}): an Enum member stands for its "
            "value, and 1 and 1.0 are one number; list it once",
        )
    return Nullable(node) if len(present) < len(args) else node


def _enum(cls: type[enum.Enum], where: Where) -> Choice:
    # Not `tuple(cls)`: since Python 3.11 it leaves out a Flag's zero and multi-bit members.
    # An alias names a member again: each is offered once (by identity: an Enum with its own
    # `__eq__` has members that do not hash).
    members: list[enum.Enum] = []
    kept: set[int] = set()
    for member in cls.__members__.values():
        if id(member) not in kept:
            kept.add(id(member))
            members.append(member)
    if not members:
        raise where.error(
            TypeError,
            f"the Enum {type_name(cls)} has no members to choose from; give it at least one member",
        )
    values = tuple(m.value for m in members)
    return _choice(values, tuple(members), f"the Enum {type_name(cls)}", where)


def _union(args: tuple[object, ...], where: Where, seen: tuple[object, ...]) -> Node:
    branches = [node_of(arg, where, seen) for arg in args if not _is_none(arg, where)]
    if not branches:
        raise where.error(TypeError, NONE_ALONE)
    nullable = len(branches) < len(args) or any(isinstance(b, Nullable) for b in branches)
    unwrapped = tuple(b.inner if isinstance(b, Nullable) else b for b in branches)
    node = unwrapped[0] if len(unwrapped) == 1 else Union(unwrapped)
    return Nullable(node) if nullable else node


def _array(kind: object, args: tuple[object, ...], where: Where, seen: tuple[object, ...]) -> Array:
    built = _SEQUENCES[kind]
    if built is tuple:
        if len(args) != 2 or args[1] is not Ellipsis:
            raise where.error(
                TypeError,
                "a fixed-length tuple cannot be described; use tuple[X, ...] or a TypedDict",
            )
        args = args[:1]
    if len(args) != 1:
        raise where.error(
            TypeError, f"{type_name(kind)} needs its item type, like {type_name(kind)}[str]"
        )
    items = node_of(args[0], where.into("[]"), seen)
    if built in (set, frozenset) and not hashable(items):
        raise where.error(
            TypeError, f"{built.__name__} items must be hashable; use list[...] instead"
        )
    return Array(items=items, kind=built)


def _record(args: tuple[object, ...], where: Where, seen: tuple[object, ...]) -> Record:
    if len(args) != 2:
        raise where.error(TypeError, "a mapping needs its key and value types, like dict[str, int]")
    key = args[0]
    aliased = isinstance(key, (*_ALIASES, *_NEW_TYPES))  # `dict[UserId, int]`, UserId a str
    if key is not str and not (aliased and node_of(key, where, seen) == _SCALARS[str]):
        if te.get_origin(key) is te.Annotated and te.get_args(key)[0] is str:
            raise where.error(
                TypeError,
                "a mapping's keys take no bounds or checks (the schema lists none for them); use "
                "dict[str, ...] and check the keys in the tool, or declare the keys as a TypedDict",
            )
        raise where.error(
            TypeError,
            f"object keys are strings in JSON; use dict[str, ...], not {type_name(key)} keys",
        )
    return Record(values=node_of(args[1], where.into("{}"), seen))
