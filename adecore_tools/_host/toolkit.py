"""Toolkits: a named group of tools, the unit a host hands to an agent.

A tool joins a toolkit only once its hints are all read: one naming a class defined further
down the module is read again here, and still unread, raises.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from typing import Any, TypeVar

from .._model.errors import check_name
from .._model.frozen import Frozen
from .tool import Tool, resolved

__all__ = ["Toolkit", "define_toolkit", "listed"]

T = TypeVar("T")


def listed(items: Iterable[T], what: str, example: str) -> tuple[T, ...]:
    """The items, or a `TypeError` saying to list them.

    One item given alone is a slip, as is a string or bytes (read item by item): the host is told
    so, not `'Tool' object is not iterable` or `'n' is not a tool`.
    """
    try:  # `iter`, not `Iterable`: that misses a class iterable by `__getitem__` alone
        found = None if isinstance(items, (str, bytes)) else iter(items)
    except TypeError:
        found = None
    if found is None:
        msg = f"{what} come in a list, got {_short_repr(items)}; write {example}"
        raise TypeError(msg)
    return tuple(found)


def _short_repr(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"a {type(value).__name__}"


class Toolkit(Frozen):
    """A named group of tools, the unit a host hands to an agent."""

    __slots__ = ("name", "tools")
    name: str
    tools: tuple[Tool[..., Any], ...]

    def __init__(self, name: str, tools: Iterable[Tool[..., Any]] | list[object]) -> None:
        """Check the tools: `ValueError` when one names another toolkit or two share a name.

        `list[object]` is what mypy makes of a list of tools of different signatures written
        with no annotation (`TOOLS = [note_read, note_write]`): it joins their `ParamSpec`s to
        `object`. Each item is checked to be a tool here.
        """
        name = check_name(name, "toolkit")
        members = listed(
            tools, f"toolkit {name!r}: tools", f"define_toolkit({name!r}, [a_tool, another_tool])"
        )
        seen: set[str] = set()
        checked: list[Tool[..., Any]] = []
        for item in members:
            if not isinstance(item, Tool):
                msg = f"toolkit {name!r}: {item!r} is not a tool; decorate it with @tool({name!r})"
                raise TypeError(msg)
            member = typing.cast("Tool[..., Any]", item)  # its parameters are not known here
            if member.toolkit != name:
                msg = (
                    f"toolkit {name!r}: tool {member.name!r} belongs to toolkit "
                    f"{member.toolkit!r}; declare it with @tool({name!r}) or put it in its own "
                    "toolkit"
                )
                raise ValueError(msg)
            if member.name in seen:
                msg = f"toolkit {name!r}: two tools are named {member.name!r}; rename one"
                raise ValueError(msg)
            seen.add(member.name)
            resolved(member)
            checked.append(member)
        self._set_once(name, tuple(checked))


def define_toolkit(name: str, tools: Iterable[Tool[..., Any]] | list[object]) -> Toolkit:
    """A toolkit; `ValueError` when a tool names another toolkit or two tools share a name.

    `tools` may be a list of tools of different signatures with no annotation, which mypy
    types `list[object]`; each item is checked to be a tool.
    """
    return Toolkit(name, tools)
