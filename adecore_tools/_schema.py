"""Field model to the JSON Schema an MCP client lists, computed once per tool.

Only `type`, `description`, `enum`, `items`, `properties` and `required` are written, in that
order, at every depth: bounds, null branches and union branches after the first are left out
(the validator still enforces them, and a model learns them from a refusal). The schema is kept
as made; each caller is handed a plain copy of its own (`copied`), so no caller can change what
the next one is handed.
"""

from __future__ import annotations

import marshal
import typing
from collections.abc import Iterable
from typing import Any

from ._fields import (
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

__all__ = ["Kept", "copied", "input_schema"]

_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def input_schema(fields: Iterable[Field]) -> dict[str, Any]:
    """The `inputSchema` of a tool: an object with one property per field, in signature order."""
    return _object(tuple(fields), None)


def _object(fields: tuple[Field, ...], description: str | None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"}
    if description:
        schema["description"] = description
    schema["properties"] = {f.name: _node(f.type, f.description) for f in fields}
    required = [f.name for f in fields if f.required]
    if required:
        schema["required"] = required
    return schema


def _node(node: Node, description: str | None) -> dict[str, Any]:
    """One node's schema; `description` (the field's) wins over the node's own."""
    if isinstance(node, Nullable):
        return _node(node.inner, description)
    if isinstance(node, Constrained):
        return _node(node.inner, description or node.description)
    if isinstance(node, Union):
        return _node(node.branches[0], description)
    if isinstance(node, Object):
        return _object(node.fields, description or node.description)
    schema: dict[str, Any] = {"type": _json_type(node)}
    if description:
        schema["description"] = description
    if isinstance(node, Choice):
        schema["enum"] = list(node.values)
    elif isinstance(node, Array):
        schema["items"] = _node(node.items, None)
    return schema


def _json_type(node: Scalar | Choice | Array | Record) -> str:
    if isinstance(node, Scalar):
        return _TYPES[node.kind]
    if isinstance(node, Choice):
        return node.json_type
    return "array" if isinstance(node, Array) else "object"


class Kept:
    """A JSON value this package made and keeps, written once so that copies of it are cheap."""

    __slots__ = ("_blob", "_value")

    def __init__(self, value: Any) -> None:
        try:
            self._blob: bytes | None = marshal.dumps(value)
        except ValueError:  # a host's `str` subclass as a description: copied by hand
            self._blob = None
        self._value = value

    def copy(self) -> Any:
        """A plain copy, the caller's own."""
        # only what `marshal.dumps` wrote here, from a value this package made
        return _copy(self._value) if self._blob is None else marshal.loads(self._blob)  # noqa: S302


def copied(value: Any) -> Any:
    """A plain copy of a JSON value this package made and keeps: the caller's own to change.

    A copy, not the kept value: a dict or list handed out could be changed through its base
    class's own methods (`dict.__setitem__`), which no read-only subclass can refuse. `marshal`
    copies the 200 entries of a listing in about a third of the time the MCP SDK lists them in.
    A value it cannot write (a host's `str` subclass as a description) is copied by hand.
    """
    try:
        return marshal.loads(marshal.dumps(value))  # noqa: S302 - written just now
    except ValueError:
        return _copy(value)


def _copy(value: object) -> object:
    if isinstance(value, dict):
        mapping = typing.cast("dict[object, object]", value)
        return {key: _copy(item) for key, item in mapping.items()}
    if isinstance(value, list):
        return [_copy(item) for item in typing.cast("list[object]", value)]
    return value
