"""`@tool`: an `async def` declared a tool of a toolkit, every mistake in it found at once.

The decorator checks what is the host's to get right (names, an async function, a description,
the annotations) and reads the signature (`_tool.resolve`); a hint naming a class further down
the module is left for when the tool joins a toolkit.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from typing_extensions import ParamSpec

from .._declare.docstrings import cleaned, split_docstring
from .._declare.signature import check_bound
from .._model.errors import Unresolved, check_name, unlistable
from .._model.tool_annotations import ToolAnnotations
from .tool import Calling, Tool, resolve

__all__ = ["tool"]

P = ParamSpec("P")
R = TypeVar("R")


def tool(  # noqa: PLR0913 - the MCP annotations are keyword options
    toolkit: str,
    *,
    name: str | None = None,
    description: str | None = None,
    read_only: bool = False,
    destructive: bool = False,
    idempotent: bool | None = None,
    open_world: bool | None = None,
    title: str | None = None,
) -> Callable[[Callable[P, Coroutine[Any, Any, R]]], Tool[P, R]]:
    """Declare an `async def` function a tool of `toolkit`.

    The name defaults to the function's, the description to its docstring without the parameter
    section. The signature is read now: every mistake in it raises here.
    """
    if callable(toolkit):  # `@tool` without parentheses: the function came as the toolkit
        msg = (
            "@tool needs a toolkit name; write @tool('toolkit_name') above "
            f"{getattr(toolkit, '__name__', toolkit)!r}"
        )
        raise TypeError(msg)

    def decorate(fn: Callable[P, Coroutine[Any, Any, R]]) -> Tool[P, R]:
        static = False
        if isinstance(fn, staticmethod):  # `@tool` above `@staticmethod`: callable, as typed
            fn, static = typing.cast("Callable[P, Coroutine[Any, Any, R]]", fn.__func__), True
        if not (inspect.isfunction(fn) or inspect.ismethod(fn)):
            raise TypeError(_no_function(fn, name))
        tool_name = check_name(fn.__name__ if name is None else name, "tool")
        try:
            toolkit_name = check_name(toolkit, "toolkit")
        except ValueError as exc:
            msg = f"tool {tool_name!r}: {exc}"
            raise ValueError(msg) from None
        if not inspect.iscoroutinefunction(fn):
            raise TypeError(f"tool {tool_name!r}: {_not_async(fn)}")
        try:
            annotations = ToolAnnotations(
                read_only=read_only,
                destructive=destructive,
                idempotent=idempotent,
                open_world=open_world,
                title=title,
            )
        except ValueError as exc:
            msg = f"tool {tool_name!r}: {exc}"
            raise ValueError(msg) from None
        text, docs = _texts(fn.__doc__, description, tool_name)
        if not static:
            check_bound(fn, tool_name)
        try:
            calling: Calling | None = resolve(fn, tool_name, docs)
        except Unresolved:
            calling = None  # a class further down the module: read again in define_toolkit
        return Tool(tool_name, toolkit_name, text, annotations, fn, docs, calling)

    return decorate


def _no_function(fn: object, name: str | None) -> str:
    """Why `fn` is no tool function, and what to write instead."""
    if isinstance(fn, Tool):
        return (
            f"tool {fn.name!r} is a tool already; to list it in another toolkit too, "
            f"decorate its function again: tool('other', name=...)({fn.name}.fn)"
        )
    named = name or getattr(fn, "__name__", None)
    where = f"tool {named!r}: " if isinstance(named, str) else ""
    if isinstance(fn, classmethod):
        return (
            f"{where}a classmethod has no class yet when @tool reads it; decorate the bound "
            f"method after the class instead: tool(...)(Owner.{fn.__name__})"
        )
    return (
        f"{where}a tool is an `async def` function (or a bound method), got {fn!r}; "
        "wrap it in an `async def` with the fields as its parameters"
    )


def _not_async(fn: Callable[..., object]) -> str:
    """Why a function is no `async def`, and what to write instead."""
    if inspect.isasyncgenfunction(fn):
        return (
            "a tool returns one answer, and an async generator yields many; return the answer "
            "instead of yielding it"
        )
    if not inspect.iscoroutinefunction(inspect.unwrap(fn)):
        return "a tool is an `async def` function; make it async"
    if hasattr(fn, "__deprecated__"):
        return (  # before 3.12, typing-extensions cannot mark its wrapper a coroutine function
            "@deprecated wraps the async function in a plain one before Python 3.12; say that "
            "the tool is deprecated in its description instead"
        )
    return (
        "the function is async, but the decorator that wraps it returns a plain function; "
        "make the wrapper an `async def` that awaits it"
    )


def _texts(doc: object, description: object, tool_name: str) -> tuple[str, dict[str, str]]:
    """The tool's description and its parameters' from its docstring; `ValueError` if unusable."""
    if isinstance(doc, str) and (why := unlistable(doc)) is not None:
        msg = f"tool {tool_name!r}: its docstring {why}"
        raise ValueError(msg)
    summary, docs = split_docstring(doc if isinstance(doc, str) else None)
    text = summary if description is None else _own_description(description, tool_name)
    if not text:
        msg = (
            f"tool {tool_name!r} has no description; write a docstring saying what it does "
            "(a model reads it to choose the tool) or pass description=..."
        )
        raise ValueError(msg)
    return text, docs


def _own_description(description: object, tool_name: str) -> str:
    """A description given to `@tool`, cleaned as a docstring is (any line endings)."""
    if not isinstance(description, str):
        msg = f"tool {tool_name!r}: a description says what it does, in a str; got {description!r}"
        raise ValueError(msg)  # noqa: TRY004 - a bad description is a ValueError, as a bad name is
    if (why := unlistable(description)) is not None:
        msg = f"tool {tool_name!r}: its description {why}"
        raise ValueError(msg)
    return cleaned(description).strip()
