"""Field model to the JSON Schema an MCP client lists, computed once per tool and shared.

Only `type`, `description`, `enum`, `items`, `properties` and `required` are written, in that
order, at every depth: bounds, null branches and union branches after the first are left out
(the validator still enforces them, and a model learns them from a refusal). What is returned is
read-only, so one caller cannot change what the next one lists; `copy.deepcopy` gives a plain,
mutable copy.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Mapping
from typing import Any, NoReturn

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

__all__ = ["input_schema", "read_only_dict"]

_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def input_schema(fields: Iterable[Field]) -> dict[str, Any]:
    """The `inputSchema` of a tool: an object with one property per field, in signature order."""
    return _object(tuple(fields), None)


def _object(fields: tuple[Field, ...], description: str | None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"}
    if description:
        schema["description"] = description
    schema["properties"] = read_only_dict({f.name: _node(f.type, f.description) for f in fields})
    required = [f.name for f in fields if f.required]
    if required:
        schema["required"] = _read_only_list(required)
    return read_only_dict(schema)


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
        schema["enum"] = _read_only_list(node.values)
    elif isinstance(node, Array):
        schema["items"] = _node(node.items, None)
    return read_only_dict(schema)


def _json_type(node: Scalar | Choice | Array | Record) -> str:
    if isinstance(node, Scalar):
        return _TYPES[node.kind]
    if isinstance(node, Choice):
        return node.json_type
    return "array" if isinstance(node, Array) else "object"


def _thawed(value: Any) -> Any:
    if isinstance(value, dict):
        mapping = typing.cast("dict[str, Any]", value)
        return {key: _thawed(item) for key, item in mapping.items()}
    if isinstance(value, list):
        items = typing.cast("list[object]", value)
        return [_thawed(item) for item in items]
    return value


def _refuse(*_: object, **__: object) -> NoReturn:
    msg = "schemas are shared and read-only; copy.deepcopy() gives a copy you can change"
    raise TypeError(msg)


class _FrozenDict(dict[str, Any]):
    """A dict that refuses every change: it is JSON-serialisable and equal to a plain dict.

    Made only by `read_only_dict`: calling the class runs `__init__`, which refuses too.
    """

    __slots__ = ()
    __init__ = __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return _thawed(self)  # type: ignore[no-any-return]

    def __reduce__(self) -> tuple[type[dict[str, Any]], tuple[dict[str, Any]]]:
        return (dict, (_thawed(self),))


class _FrozenList(list[Any]):
    """A list that refuses every change: it is JSON-serialisable and equal to a plain list.

    Made only by `_read_only_list`: calling the class runs `__init__`, which refuses too.
    """

    __slots__ = ()
    __init__ = __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return _thawed(self)  # type: ignore[no-any-return]

    def __reduce__(self) -> tuple[type[list[Any]], tuple[list[Any]]]:
        return (list, (_thawed(self),))


def read_only_dict(items: Mapping[str, Any]) -> dict[str, Any]:
    """A dict of these items that refuses every change (its values are kept as they are)."""
    made: dict[str, Any] = dict.__new__(_FrozenDict)
    dict.update(made, items)  # pyright: ignore[reportUnknownMemberType] - past the refusing override
    return made


def _read_only_list(items: Iterable[Any]) -> list[Any]:
    made: list[Any] = list.__new__(_FrozenList)
    list.extend(made, items)  # pyright: ignore[reportUnknownMemberType] - past the refusing override
    return made
