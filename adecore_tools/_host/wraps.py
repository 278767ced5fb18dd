"""What a tool reads as: the function it wraps, as `functools.wraps` would have it.

Frameworks and `inspect` read a callable's `__wrapped__`, `__code__`, defaults and signature, and
ask whether it is a coroutine function. A tool answers with its function's, read when asked, and
refuses to have any of them set.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from typing_extensions import ParamSpec

from .._declare.hints import unevaluated_signature

if typing.TYPE_CHECKING:
    from .tool import Tool

__all__ = ["FromFunction", "Unwrapped"]

P = ParamSpec("P")
R = TypeVar("R")


class Unwrapped:
    """`tool.__wrapped__`, the function, as `functools.wraps` would set it.

    So `inspect.signature(tool)` shows the function's. The class itself has none (a property
    would be one), so `inspect.signature(Tool)` reads the class.
    """

    @typing.overload
    def __get__(self, tool: None, owner: type[object]) -> typing.NoReturn: ...

    @typing.overload
    def __get__(
        self, tool: Tool[P, R], owner: type[object] | None = None
    ) -> Callable[P, Coroutine[Any, Any, R]]: ...

    def __get__(self, tool: Tool[P, R] | None, owner: type[object] | None = None) -> Any:
        if tool is None:
            raise AttributeError("__wrapped__")
        return tool.fn

    def __set__(self, tool: object, value: typing.NoReturn) -> None:
        """Refuse, as every attribute of a tool does (typed so a checker flags the write too)."""
        msg = "Tool is immutable; cannot set '__wrapped__'"
        raise AttributeError(msg)


class FromFunction:
    """What `inspect` reads off a function (`__code__`, its defaults), read off the tool's.

    Not in the tool's `__dict__`: `functools.update_wrapper(obj, tool)` copies that, and a sync
    wrapper object would then read as a coroutine function. The class itself reads `own`, or has
    none.
    """

    __slots__ = ("name", "own")
    name: str
    own: dict[str, object] | None

    def __init__(self, own: dict[str, object] | None = None) -> None:
        self.own = own

    def __set_name__(self, owner: type[object], name: str) -> None:
        self.name = name

    def __get__(self, tool: Tool[..., Any] | None, owner: type[object] | None = None) -> Any:
        if tool is None:
            if self.own is None:
                raise AttributeError(self.name)
            return self.own
        if self.name == "__signature__":
            if not inspect.ismethod(tool.fn):  # a function's is read off its code
                raise AttributeError(self.name)
            # annotations unevaluated (3.14): `inspect.signature(tool, annotation_format=...)`
            # reads this whatever format it asks for, and one naming a class further down failed
            return unevaluated_signature(tool.fn)
        return getattr(tool.fn, self.name)

    def __set__(self, tool: object, value: typing.NoReturn) -> None:
        """Refuse, as every attribute of a tool does."""
        msg = f"Tool is immutable; cannot set {self.name!r}"
        raise AttributeError(msg)
