"""A tool function's signature to its fields and its call parameter, once, at decoration.

Each parameter but the call parameter is a field; its type is read by `_introspect`, the field
made as any object's field is (`_objects`). Mistakes in the signature itself (no annotation,
`*args`, a second call parameter, a docstring entry naming no parameter) are found here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

import typing_extensions as te

from .._model.errors import Where
from .._model.frozen import Frozen
from .._model.memo import keep, kept, once
from .._model.metadata import ToolCall
from .._model.nodes import MISSING, Field, Node, shared_default
from .hints import read_hints, unevaluated_signature
from .objects import documents_itself, make_field
from .types import is_call_class, node_of

__all__ = ["Signature", "check_bound", "read_signature"]


class Signature(Frozen):
    """What a tool function's signature means: its fields, and its call parameter if any."""

    __slots__ = ("fields", "call_name", "call_type", "call_positional")
    fields: tuple[Field, ...]
    call_name: str | None
    call_type: type[ToolCall] | None
    call_positional: bool

    def __init__(
        self,
        fields: tuple[Field, ...],
        call_name: str | None,
        call_type: type[ToolCall] | None,
        call_positional: bool,  # noqa: FBT001 - a value class
    ) -> None:
        self._set(fields, call_name, call_type, call_positional)


def read_signature(fn: Callable[..., Any], tool: str, docs: Mapping[str, str]) -> Signature:
    """Read a tool function into the field model; raise for every mistake in it.

    `docs` are the parameter descriptions from the function's docstring.
    """
    where = Where(tool)
    hints = read_hints(fn, where)
    fields: list[Field] = []
    call: inspect.Parameter | None = None
    call_type: type[ToolCall] | None = None
    for param in unevaluated_signature(fn).parameters.values():
        name, kind = param.name, param.kind  # properties: a call for each read
        default = MISSING if param.default is _EMPTY else param.default
        doc = docs.get(name)
        if kind in _NAMED and shared_default(default):
            # a type read before, by this very object, for a field made before
            hint = hints.get(name, _EMPTY)
            known = kept(_KNOWN_FIELDS, (name, id(hint), default, doc), hint)
            if known is not None:
                fields.append(known)
                continue
        here = where.into(name)
        if kind in _VARIADIC:
            raise here.error(TypeError, "*args and **kwargs cannot be described; name each field")
        if name not in hints:
            raise here.error(TypeError, "has no annotation; annotate it with the type it takes")
        hint = hints[name]
        called = te.get_origin(hint) or hint  # a generic call class too
        if is_call_class(called):
            if call is not None:
                raise here.error(
                    TypeError,
                    f"is a second call parameter (the first is {call.name!r}); "
                    "a tool takes at most one ToolCall",
                )
            call, call_type = param, called
            continue
        if kind is param.POSITIONAL_ONLY:
            raise here.error(TypeError, "is positional-only; fields are passed by name")
        fields.append(_parameter_field(name, node_of(hint, here), default, doc, here, hint))
    _check_documented(docs, fields, call, where)
    return Signature(
        fields=tuple(fields),
        call_name=None if call is None else call.name,
        call_type=call_type,
        call_positional=call is not None and call.kind is call.POSITIONAL_ONLY,
    )


def _parameter_field(  # noqa: PLR0913, PLR0917 - `_field`'s facts, in its order
    name: str, node: Node, default: object, doc: str | None, where: Where, hint: object
) -> Field:
    """A parameter's field; one with no default, or `None`, `True` or `False`, is made once.

    Those defaults are the same objects in every function, so the field is the same in every tool
    writing it; any other default is the function's own object, kept by its field. A docstring
    entry gives way to a `Doc` on the annotation itself only (`_field`): the key says if one is.
    """
    if not shared_default(default):
        return make_field(name, node, default, doc, where, hint=hint)
    key = (name, node, default, doc, doc is not None and documents_itself(hint))
    made = once(_PARAMETER_FIELDS, key, _new_parameter_field, name, node, default, doc, where, hint)
    return keep(_KNOWN_FIELDS, (name, id(hint), default, doc), hint, made)


def _new_parameter_field(  # noqa: PLR0913, PLR0917 - as above, for `once`
    name: str, node: Node, default: object, doc: str | None, where: Where, hint: object
) -> Field:
    return make_field(name, node, default, doc, where, hint=hint)


_PARAMETER_FIELDS: dict[tuple[object, ...], Field] = {}


_KNOWN_FIELDS: dict[tuple[str, int, object, str | None], tuple[object, Field]] = {}
"""The shared fields of parameters passed by name (`kept`): by name, the very hint object, default
and entry.

A hint met again (typing keeps its last 128 `Annotated[...]`, `Literal[...]` and unions; an alias
or a class is one object) gives its field with no walk of the hint to build a key: a hint's
equality is not enough there (`int | str == str | int`), its identity is. A positional-only
parameter is never looked up, so it still reaches its error.
"""


_EMPTY: Any = inspect.Parameter.empty


_NAMED = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def check_bound(fn: Callable[..., Any], tool: str) -> None:
    """Refuse a method decorated in its class body: a tool is called with no instance or class.

    However `self` is annotated: as `Self` or its class, the model would have to send it (a
    dataclass's fields would even be listed as input). Asked at decoration only, before the
    hints (`self: "Service"` waits for nothing), and not of a static method's function.
    """
    if inspect.ismethod(fn):  # bound: its instance or class is filled
        return
    owner = getattr(fn, "__qualname__", "").rpartition(".")[0].rpartition(".")[2]
    if owner in ("", "<locals>"):  # `note_write`, `outer.<locals>.f`: not in a class body
        return
    try:
        first = next(iter(unevaluated_signature(fn).parameters), None)
    except (
        TypeError,
        ValueError,
    ):  # no signature, or a `__wrapped__` loop: `read_hints` says which
        return
    if first in ("self", "cls"):
        raise Where(tool, first).error(
            TypeError,
            f"is the {'instance' if first == 'self' else 'class'} of a method decorated in "
            f"{owner}'s body, and a tool is called without one; decorate the bound method after "
            f"the class instead: tool(...)(obj.{fn.__name__})",
        )


def _check_documented(
    docs: Mapping[str, str], fields: list[Field], call: inspect.Parameter | None, where: Where
) -> None:
    """Refuse a docstring entry naming no parameter: a typo or a rename, its field undescribed."""
    if not docs:
        return
    known = {f.name for f in fields}
    for name in docs:
        if name not in known and (call is None or name != call.name):
            listed = ", ".join(f.name for f in fields) or "none"
            raise where.error(
                ValueError,
                f"its docstring describes {name!r}, which is no parameter; "
                f"fix the name or remove the entry (the fields: {listed})",
            )
