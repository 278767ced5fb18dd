"""Repair, opt-in: JSON text a model sent where a type admits no string, decoded before checks.

Models send `'["a", "b"]'` for a list, `'{"x": 1}'` for an object, `"5"` for a number and
`"true"` for a boolean. Where the field's type (its `| None` left out) takes no string at all,
such text is decoded, each kind only where that kind is taken: `"5"` for a list or `"[5]"` for an
int stays as sent. A `Literal` or `Enum` of numbers or booleans takes no string either, so its
values are decoded as a number's or a boolean's are. Nothing is repaired where a string is a
valid value (a `str`, a string `Literal` or `Enum`, a union with a branch that takes one), which
is where repairs corrupt data; nor is a value a union takes as sent (`["5"]` for
`list[int] | list[str]`): what is accepted without repair is accepted unchanged with it.
The decoded value then goes through every ordinary check; text that fails to decode is left as
sent, and refused as usual. Each repair is logged at INFO on the `adecore_tools` logger.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from .._model.memo import once
from .._model.nodes import (
    Array,
    Choice,
    Field,
    Node,
    Object,
    Record,
    Scalar,
    Union,
    core,
)
from .._model.problems import Invalid, Key, Step, path_text
from .._model.words import is_mapping
from .blocks import Checker, entries_of, items_of, read_as, read_once, text_of, type_of
from .compile import checker
from .json_text import json_value

__all__ = ["repaired"]

_KINDS: dict[type, str] = {list: "an array", dict: "an object", int: "a number", float: "a number"}
_KINDS[bool] = "a boolean"
"""What a decoded value is, as the log says it."""


def repaired(fields: tuple[Field, ...], tool: str, data: object) -> object:
    """A tool's input, JSON text decoded where a field's type takes no string; else as sent."""
    nodes = {f.name: f.type for f in fields}
    walk = _Walk(decode=True)
    out = _mapping(data, nodes.get, (), walk, record=False)
    for path, decoded in walk.done:
        _log(tool, path, decoded)
    return out


_Path = tuple[Step, ...]
"""Where a value is in the input, as a refusal names it: `rows[0].amount`, `labels["color"]`."""


class _Walk:
    """One walk over a value: its JSON text decoded (`decode`), or its mappings only read once.

    `done` holds each repair, where and what was decoded there: they are logged once the walk
    is over, as a union tries repairs for more than one branch, and keeps one.
    """

    __slots__ = ("decode", "done")

    def __init__(self, *, decode: bool) -> None:
        self.decode = decode
        self.done: list[tuple[_Path, object]] = []


def _mapping(
    data: object,
    node_of: Callable[[str], Node | None],
    path: _Path,
    walk: _Walk,
    *,
    record: bool,
) -> object:
    """A new mapping with each value repaired, or `data` as read when nothing changed.

    A mapping that is no dict is read once, here: the checks read what was read. One that
    cannot be read is left for the checks to refuse.
    """
    data = read_once(data)
    entries = entries_of(data)
    if isinstance(entries, Invalid):
        return data
    pairs: list[tuple[Any, Any]] = []
    changed, named = False, True
    for key, value in entries:
        name = text_of(key)
        if name is None:  # for the checks to refuse
            named = False
            pairs.append((key, value))
            continue
        node = node_of(name)
        step = Key(name) if record else name
        new = value if node is None else _value(node, value, (*path, step), walk)
        changed = changed or new is not value
        pairs.append((name, new))
    if not changed:
        return data
    return dict(pairs) if named else read_as(pairs)


def _value(node: Node, value: object, path: _Path, walk: _Walk) -> object:  # noqa: PLR0911
    """`value` repaired for `node`: decoded text, or a container with its parts repaired."""
    node = core(node)
    if value is None:
        return value
    text = text_of(value)
    if text is not None:
        return _decoded(node, value, text, path, walk)
    if _reads(node):
        value = read_once(value)
    if isinstance(node, Union):
        return _union(node, value, path, walk)
    if isinstance(node, Array):
        items = items_of(value)
        if items is None:
            return value
        new = [_value(node.items, item, (*path, i), walk) for i, item in enumerate(items)]
        return new if any(map(operator.is_not, new, items)) else value
    if isinstance(node, (Record, Object)):
        if isinstance(node, Record):
            values = node.values
            return _mapping(value, lambda _: values, path, walk, record=True)
        fields = {f.name: f.type for f in node.fields}
        return _mapping(value, fields.get, path, walk, record=False)
    return value


def _reads(node: Node) -> bool:
    """Whether the checks read a mapping given to the node (repair reads it only then).

    An object or a record does, and a union with one among its branches.
    """
    node = core(node)
    if isinstance(node, Union):
        return any(map(_reads, node.branches))
    return isinstance(node, (Record, Object))


def _union(node: Union, value: object, path: _Path, walk: _Walk) -> object:
    """`value` as sent when the union takes it so, else repaired for a branch that then takes it.

    A branch that takes a string as sent wins over one that would decode it: `["5"]` stays as
    sent for `list[int] | list[str]`, as it does without repair. When no repair is taken, the
    first branch of the value's kind has it, to be refused as usual. First, each mapping any
    branch reads is read once: the union's checks, here and after, read what was read.
    """
    branches = [branch for branch in node.branches if _takes(core(branch), value)]
    reading = _Walk(decode=False)
    for branch in branches:
        value = _value(branch, value, path, reading)
    check = once(_CHECKERS, node, checker, node)
    if not walk.decode or not isinstance(check(value), Invalid):
        return value
    tries: list[tuple[object, _Walk]] = []
    for branch in branches:
        tried = _Walk(decode=True)
        new = _value(branch, value, path, tried)
        if new is not value and not isinstance(check(new), Invalid):
            walk.done += tried.done
            return new
        tries.append((new, tried))
    if not tries:
        return value
    new, tried = tries[0]
    walk.done += tried.done
    return new


_CHECKERS: dict[Node, Checker] = {}
"""The checker of each union repair met: it decides whether the union takes a value as sent."""


def _decoded(node: Node, sent: object, text: str, path: _Path, walk: _Walk) -> object:
    """The JSON value `text` holds, when the node takes no text but takes that kind of value."""
    if not walk.decode or _takes_text(node):
        return sent
    decoded = _decode(text)
    if decoded is _NOTHING or not _takes(node, decoded):
        return sent
    walk.done.append((path, decoded))
    return _value(node, decoded, path, walk)


def _takes_text(node: Node) -> bool:
    if isinstance(node, Scalar):
        return node.kind is str
    if isinstance(node, Choice):
        return node.json_type == "string"
    if isinstance(node, Union):
        return any(_takes_text(core(branch)) for branch in node.branches)
    return False


def _takes(node: Node, value: object) -> bool:
    """Whether the node takes a value of this kind (its content is for the checks to judge).

    Its class is compared by identity: `in` would run a metaclass's `__eq__`.
    """
    kind = type_of(value)
    if isinstance(node, Union):
        return any(_takes(core(branch), value) for branch in node.branches)
    if isinstance(node, Array):
        return issubclass(kind, (list, tuple))
    if isinstance(node, (Record, Object)):
        return issubclass(kind, dict) or is_mapping(kind)
    json_type: str | None = node.json_type if isinstance(node, Choice) else None
    if isinstance(node, Scalar):
        json_type = _JSON_TYPES.get(node.kind)
    if json_type == "boolean":
        return kind is bool
    return json_type in ("integer", "number") and (kind is int or kind is float)


_JSON_TYPES = {bool: "boolean", int: "integer", float: "number"}
"""The scalars a JSON value other than a string may be sent for (a `str` takes the text)."""


_NOTHING: Any = object()


def _decode(text: str) -> Any:
    """The value strict JSON text holds, or `_NOTHING` (never an exception).

    What `run_json` refuses (a key given twice, `NaN`) is not decoded: the checks refuse it.
    """
    try:
        return json_value(text)
    except (ValueError, RecursionError):
        return _NOTHING


def _log(tool: str, path: _Path, decoded: object) -> None:
    """Log one repair; `logging` is imported here, off the import path, as repairs are rare."""
    import logging  # noqa: PLC0415

    logging.getLogger("adecore_tools").info(
        "tool %r: repaired field %r, sent %s as JSON text",
        tool,
        path_text(path),
        _KINDS.get(type(decoded), "a value"),
    )
