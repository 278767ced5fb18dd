"""Objects: the fields of a tool's input, of a `TypedDict` and of a dataclass.

Each field is one `Field`, whatever object it belongs to; what differs is how the object says
which fields it has, which must be sent, and what describes them. A `TypedDict` or dataclass is
read here into an `Object` node; the type of each of its fields is read by the caller's reader
(`_introspect`), which calls this module back for the objects it meets.
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any

import typing_extensions as te

from .._model.errors import Where, is_async, type_name, unlistable, written
from .._model.nodes import (
    MISSING,
    Field,
    Node,
    Nullable,
    Object,
    description_within,
    own_description,
    required_message,
)
from .docstrings import split_docstring
from .hints import flatten, read_hints, unevaluated_signature, written_as

__all__ = ["KEY_WRAPPERS", "documents_itself", "make_field", "read_object"]

_REQUIRED = (te.Required, getattr(typing, "Required", te.Required))
_NOT_REQUIRED = (te.NotRequired, getattr(typing, "NotRequired", te.NotRequired))
_READ_ONLY = (te.ReadOnly, getattr(typing, "ReadOnly", te.ReadOnly))
_UNIONS = (typing.Union, types.UnionType)
KEY_WRAPPERS = (*_REQUIRED, *_NOT_REQUIRED, *_READ_ONLY)
"""What only means something on a `TypedDict` key."""

NodeReader = Callable[[object, Where], Node]
"""Reads the type of one field into its node: the caller's, which knows what it is reading."""


def make_field(  # noqa: PLR0913 - each argument is one fact about the field
    name: str,
    node: Node,
    default: object,
    doc: str | None,
    where: Where,
    *,
    hint: object,
    key_required: bool | None = None,
    made: Callable[[], Any] | None = None,
) -> Field:
    """One field. `key_required` says whether the key must be sent, where its class decides.

    `made` is a dataclass field's default factory.

    `doc` is the field's docstring entry. A `Doc` on its annotation `hint` comes first; one inside
    a type it names (an alias's) after, as does one inside `Annotated[Alias, Ge(0)]`.
    """
    if default is None and not isinstance(node, Nullable):
        # Python 3.10's get_type_hints makes `x: T = None` Optional[T]; do the same everywhere.
        node = Nullable(node)
    missing_message = required_message(node)
    admits_none = isinstance(node, Nullable)
    if missing_message is not None:
        if default is not MISSING or key_required is False:
            raise where.error(
                ValueError,
                "uses required_field but may be left out (a default, NotRequired, a default "
                "factory); drop one",
            )
        required = True
    elif key_required is not None:
        required = key_required
    else:
        required = default is MISSING and not admits_none
    if not required and default is MISSING and key_required is None:
        default = None
    description = own_description(node)
    if description and doc and not documents_itself(hint):  # looked at only when both speak
        description = None
    return Field(
        name=name,
        type=node,
        required=required,
        default=default,
        description=description or doc or description_within(node),
        missing_message=missing_message,
        factory=made,
    )


def documents_itself(hint: object) -> bool:
    """Whether a `Doc` stands on the annotation itself (`Annotated[X, Doc(...)]`, or that `| None`).

    A description inside a type it names, such as an alias's, does not count.
    """
    if te.get_origin(hint) in _UNIONS:  # `| None`, or Python 3.10's Optional for a None default
        present = [arg for arg in te.get_args(hint) if arg is not type(None)]
        hint = present[0] if len(present) == 1 else None
    metadata = te.get_args(hint)[1:] if te.get_origin(hint) is te.Annotated else ()
    return any(isinstance(getattr(m, "documentation", None), str) for m in flatten(metadata))


def read_object(cls: type[object], where: Where, node_of: NodeReader) -> Object:
    """A `TypedDict` or dataclass, its fields' types read by `node_of`."""
    is_dataclass = dataclasses.is_dataclass(cls)
    description, docs = split_docstring(_own_doc(cls, where))
    for base in _object_bases(cls):  # a field documented in a base keeps its description
        docs = {**split_docstring(_own_doc(base, where))[1], **docs}
    hints = read_hints(cls, where)
    fields: list[Field] = []
    if is_dataclass:
        for hint in hints.values():
            if isinstance(hint, dataclasses.InitVar):
                raise where.error(
                    TypeError,
                    f"{type_name(cls)} has an InitVar, which no input can fill; make it a field, "
                    "or drop it",
                )
        _check_constructor(cls, where)
        for f in dataclasses.fields(typing.cast("Any", cls)):
            if not f.init:
                continue
            default = f.default
            say = None if default is not MISSING or f.default_factory is MISSING else False
            here = where.into(f.name)
            hint = _not_final(hints[f.name])
            node = node_of(hint, here)
            doc = _field_doc(f, here) or docs.get(f.name)
            made = None if f.default_factory is MISSING else typing.cast("Any", f.default_factory)
            fields.append(
                make_field(f.name, node, default, doc, here, hint=hint, key_required=say, made=made)
            )
    else:
        _check_closed(cls, where)
        optional_keys: frozenset[str] = getattr(cls, "__optional_keys__", frozenset[str]())
        for key, hint in hints.items():
            name = _key_text(key, cls, where)
            if (why := unlistable(name)) is not None:
                raise where.error(ValueError, f"the key {name!r} of {type_name(cls)} {why}")
            here = where.into(name)
            bare, say = _key_wrappers(hint, here)
            node = node_of(bare, here)
            if say is None:  # a key admitting None may be left out, unless required_field
                say = key not in optional_keys and (
                    not isinstance(node, Nullable) or required_message(node) is not None
                )
            doc = docs.get(name)
            fields.append(make_field(name, node, MISSING, doc, here, hint=bare, key_required=say))
    return Object(
        cls=cls,
        fields=tuple(fields),
        description=description or None,
        is_dataclass=is_dataclass,
    )


def _key_text(key: object, cls: type[object], where: Where) -> str:
    """A `TypedDict` key as plain text, which every lookup of the validator compares.

    A str subclass's own hash or equality would decide those lookups, and the functional syntax
    takes keys that are no string at all.
    """
    if not isinstance(key, str):
        raise where.error(
            TypeError,
            f"the key {written(key)} of {type_name(cls)} is not a string; an object's keys are "
            "strings in JSON: name the key with one",
        )
    return str.__str__(key)


def _field_doc(f: dataclasses.Field[Any], where: Where) -> str | None:
    """A dataclass field's `field(doc=...)` (Python 3.14), or `None`.

    Written on the field itself, it comes before the class docstring's entry, as a `Doc` on its
    annotation comes before both.
    """
    if sys.version_info < (3, 14) or not isinstance(f.doc, str) or not f.doc:
        return None
    if (why := unlistable(f.doc)) is not None:
        raise where.error(ValueError, f"its description {why}")
    return f.doc


def _not_final(hint: object) -> object:
    """A dataclass field's type without `Final`: still a field, one `__init__` sets once."""
    return _unwrapped(hint, (te.Final,))[0]


def _check_constructor(cls: type[object], where: Where) -> None:
    """Refuse a dataclass that cannot be built from its fields by name, and from nothing else.

    Or whose `__post_init__` is async: `__init__` would never await its checks.
    """
    if is_async(getattr(cls, "__post_init__", None)):
        raise where.error(
            TypeError,
            f"{type_name(cls)}.__post_init__ is async; it runs while the input is checked, where "
            "nothing is awaited, so its checks would never run; make it a plain def",
        )
    names = {f.name for f in dataclasses.fields(typing.cast("Any", cls)) if f.init}
    try:
        params = unevaluated_signature(cls).parameters.values()
    except (TypeError, ValueError) as exc:  # as `dataclasses` itself reads it: no signature
        raise where.error(
            TypeError,
            f"{type_name(cls)} cannot be built from its fields by name (its __init__ has no "
            "signature Python can read); let dataclasses write __init__ (init=True and no "
            "__init__ of the class's own)",
        ) from exc
    by_name = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    if any(p.kind is p.VAR_KEYWORD for p in params):
        by_name |= names
    needed = {p.name for p in params if p.default is p.empty and p.kind not in _VARIADIC}
    if names <= by_name and needed <= names:
        return
    taken = ", ".join(p.name for p in params)
    raise where.error(
        TypeError,
        f"{type_name(cls)} cannot be built from its fields by name (its __init__ takes ({taken})); "
        "let dataclasses write __init__ (init=True and no __init__ of the class's own)",
    )


_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def _check_closed(cls: type[object], where: Where) -> None:
    """Refuse a `TypedDict` that allows keys beyond its fields (PEP 728 `extra_items`).

    A subclass inherits its base's `extra_items` (PEP 728), though its own `__extra_items__`
    does not say so: the nearest class that says anything decides.
    """
    for owner in (cls, *_object_bases(cls)):
        extra = getattr(owner, "__extra_items__", _NO_EXTRA_ITEMS)
        if te.get_origin(extra) in _READ_ONLY:  # `ReadOnly[Never]` closes it too
            (extra,) = te.get_args(extra)
        if extra in _NEVER:
            return
        if extra is not _NO_EXTRA_ITEMS:  # `extra_items=None` allows null values
            break
        if getattr(owner, "__closed__", None) is True:  # `closed=True` and no `__extra_items__`
            return
    else:
        return
    inherited = "" if owner is cls else f", from {type_name(owner)}"
    raise where.error(
        TypeError,
        f"{type_name(cls)} allows keys beyond its fields (extra_items{inherited}), which this "
        "package refuses in any input; declare each key, or use dict[str, X]",
    )


_NEVER = (te.Never, te.NoReturn, typing.NoReturn)


_NO_EXTRA_ITEMS = getattr(te, "NoExtraItems", None)  # typing-extensions 4.12 says None


def _own_doc(cls: type[object], where: Where) -> str | None:
    """The docstring a class was given: not one `dataclasses` wrote, nor one that is no `str`.

    A `class` statement cannot hold a lone surrogate, but `cls.__doc__ = ...` can.
    """
    doc = cls.__doc__
    if not isinstance(doc, str):
        return None
    if (why := unlistable(doc)) is not None:
        raise where.error(ValueError, f"the docstring of {type_name(cls)} {why}")
    generated = doc and dataclasses.is_dataclass(cls) and doc.startswith(cls.__name__)
    if generated and _written_by_dataclasses(cls, doc):  # the prefix spares the signature
        return None
    return doc


def _written_by_dataclasses(cls: type[object], doc: str) -> bool:
    """Whether `doc` is the docstring `dataclasses` gives a class that has none: name and signature.

    From Python 3.14 (PEP 649) it shows each annotation as it evaluated when it was written.
    """
    try:
        signature = unevaluated_signature(cls)
    except (TypeError, ValueError):  # as `dataclasses` itself does
        return doc == cls.__name__
    return written_as(doc, cls, signature)


def _object_bases(cls: type[object]) -> Iterator[type[object]]:
    """The dataclasses or `TypedDict`s a class inherits fields from, nearest first."""
    if dataclasses.is_dataclass(cls):
        yield from (base for base in cls.__mro__[1:] if dataclasses.is_dataclass(base))
        return
    for base in te.get_original_bases(cls):  # a TypedDict's own bases are not in its MRO
        if te.is_typeddict(base):  # its other bases: `TypedDict` itself, `Generic[T]`
            yield base
            yield from _object_bases(base)


def _key_wrappers(hint: object, where: Where) -> tuple[object, bool | None]:
    """A TypedDict key's type without Required / NotRequired / ReadOnly, and what they said.

    Saying both is a contradiction, which Python itself reads either way (the outer one of
    `Required[NotRequired[X]]`, the inner one through `Annotated`).
    """
    bare, wrappers = _unwrapped(hint, KEY_WRAPPERS)
    said = [wrapper in _REQUIRED for wrapper in wrappers if wrapper not in _READ_ONLY]
    if len(set(said)) > 1:
        raise where.error(
            TypeError,
            f"{type_name(hint)} says both Required and NotRequired; keep the one you mean",
        )
    return bare, said[0] if said else None


def _unwrapped(hint: object, wrappers: tuple[object, ...]) -> tuple[object, list[object]]:
    """`hint` without these wrappers (`Required[...]`, `Final[...]`), and those found.

    They may stand outside its `Annotated` or inside; the found come outermost first.
    """
    found: list[object] = []
    while True:
        origin = te.get_origin(hint)
        if origin is te.Annotated:
            inner, *metadata = te.get_args(hint)
            bare, inner_found = _unwrapped(inner, wrappers)
            annotated: Any = te.Annotated
            params = (bare, *metadata)
            return annotated[params], found + inner_found
        if origin not in wrappers:
            return hint, found
        found.append(origin)
        (hint,) = te.get_args(hint)
