"""`@tool`: a function declared a tool of a toolkit, every mistake in it found at once.

The decorator checks what is the host's to get right (names, a function that returns one answer,
a description, the annotations, scopes and time limit) and reads the signature
(`_tool.resolve`); a hint naming a class further down the module is left for when the tool joins
a toolkit. An `async def` is awaited; a plain `def` runs in a worker thread.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, Protocol, TypeVar, overload

from typing_extensions import ParamSpec

from .._declare.docstrings import cleaned, split_docstring
from .._declare.signature import check_bound
from .._model.errors import Unresolved, check_name, unlistable
from .._model.tool_annotations import ToolAnnotations
from .bounded import check_timeout
from .tool import Calling, Tool, resolve

__all__ = ["Decorator", "SyncTool", "tool"]

P = ParamSpec("P")
R = TypeVar("R")
# A tool only gives its result, so a SyncTool[P, bool] is a SyncTool[P, int].
R_co = TypeVar("R_co", covariant=True)


class SyncTool(Tool[P, R_co]):
    """A tool of a plain `def`: run in a worker thread, and still callable as the function is.

    Its `fn` is the plain function (typed as its base's, a checker reads it off `__call__`).
    """

    __slots__ = ()

    if typing.TYPE_CHECKING:  # `Tool.__init__` (else a checker would make one of the fields)

        def __init__(self, *args: Any, **kwargs: Any) -> None: ...

        def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R_co:  # type: ignore[override]  # pyright: ignore[reportIncompatibleMethodOverride]
            """Call the function itself, as if it were not decorated."""
            ...


class Decorator(Protocol):
    """What `tool(...)` returns: an `async def` becomes a `Tool`, a plain `def` a `SyncTool`."""

    @overload
    def __call__(self, fn: Callable[P, Coroutine[Any, Any, R]], /) -> Tool[P, R]: ...  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload] - the first match wins

    @overload
    def __call__(self, fn: Callable[P, R], /) -> SyncTool[P, R]: ...


def tool(  # noqa: PLR0913 - the MCP annotations, scopes and time limit are keyword options
    toolkit: str,
    *,
    name: str | None = None,
    description: str | None = None,
    read_only: bool = False,
    destructive: bool = False,
    idempotent: bool | None = None,
    open_world: bool | None = None,
    title: str | None = None,
    scopes: Iterable[str] = (),
    timeout: float | None = None,
) -> Decorator:
    """Declare a function a tool of `toolkit`: an `async def`, or a plain `def` run in a thread.

    The name defaults to the function's, the description to its docstring without the parameter
    section. `scopes` are what a caller must hold to see and call it (`ToolCall.may_use`);
    `timeout` is the most seconds a run may take. The signature is read now: every mistake in it
    raises here.
    """
    if callable(toolkit):  # `@tool` without parentheses: the function came as the toolkit
        msg = (
            "@tool needs a toolkit name; write @tool('toolkit_name') above "
            f"{getattr(toolkit, '__name__', toolkit)!r}"
        )
        raise TypeError(msg)

    def decorate(fn: Callable[..., Any]) -> Tool[..., Any]:
        static = False
        if isinstance(fn, staticmethod):  # `@tool` above `@staticmethod`: callable, as typed
            fn, static = fn.__func__, True
        if not (inspect.isfunction(fn) or inspect.ismethod(fn)):
            raise TypeError(_no_function(fn, name))
        tool_name = check_name(fn.__name__ if name is None else name, "tool")
        try:
            toolkit_name = check_name(toolkit, "toolkit")
        except ValueError as exc:
            msg = f"tool {tool_name!r}: {exc}"
            raise ValueError(msg) from None
        sync = not inspect.iscoroutinefunction(fn)
        if sync and (why := _not_one_answer(fn)) is not None:
            raise TypeError(f"tool {tool_name!r}: {why}")
        needed = _scopes(scopes, tool_name)
        limit = check_timeout(timeout, f"tool {tool_name!r}: timeout")
        annotations = _annotations(
            tool_name,
            read_only=read_only,
            destructive=destructive,
            idempotent=idempotent,
            open_world=open_world,
            title=title,
        )
        text, docs = _texts(fn.__doc__, description, tool_name)
        if not static:
            check_bound(fn, tool_name)
        try:
            calling: Calling | None = resolve(fn, tool_name, docs)
        except Unresolved:
            calling = None  # a class further down the module: read again in define_toolkit
        kind = typing.cast("type[Tool[..., Any]]", SyncTool if sync else Tool)
        return kind(tool_name, toolkit_name, text, annotations, fn, docs, calling, needed, limit)

    return typing.cast("Decorator", decorate)


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
        f"{where}a tool is a function (or a bound method), got {fn!r}; "
        "wrap it in a function with the fields as its parameters"
    )


def _annotations(tool_name: str, **given: Any) -> ToolAnnotations:
    """The MCP annotations, or a `ValueError` naming the tool."""
    try:
        return ToolAnnotations(**given)
    except ValueError as exc:
        msg = f"tool {tool_name!r}: {exc}"
        raise ValueError(msg) from None


def _scopes(scopes: object, tool_name: str) -> frozenset[str]:
    """The scopes a caller must hold, checked: strings, each non-empty with no whitespace."""
    if isinstance(scopes, str):
        msg = f"tool {tool_name!r}: scopes come in a list, as in scopes=({scopes!r},)"
        raise ValueError(msg)  # noqa: TRY004 - the contract says ValueError for any bad scopes
    try:
        found = tuple(typing.cast("Iterable[object]", scopes))
    except TypeError:
        msg = f"tool {tool_name!r}: scopes come in a list of strings, got {scopes!r}"
        raise ValueError(msg) from None
    for scope in found:
        if not isinstance(scope, str) or not scope or any(c.isspace() for c in scope):
            msg = (
                f"tool {tool_name!r}: a scope is a non-empty string with no whitespace, "
                f"like 'notes:write'; got {scope!r}"
            )
            raise ValueError(msg)
    return frozenset(typing.cast("tuple[str, ...]", found))


def _not_one_answer(fn: Callable[..., object]) -> str | None:
    """Why a plain function cannot be a tool, and what to write instead; `None` if it can."""
    if inspect.isasyncgenfunction(fn) or inspect.isgeneratorfunction(fn):
        kind = "an async generator" if inspect.isasyncgenfunction(fn) else "a generator"
        return (
            f"a tool returns one answer, and {kind} yields many; return the answer "
            "instead of yielding it"
        )
    if not inspect.iscoroutinefunction(inspect.unwrap(fn)):
        return None  # a plain function: run in a worker thread
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
