"""Declaration errors: where a host's mistake is, and the words that say what to do about it.

Every mistake in a tool's declaration is a plain `TypeError` or `ValueError` raised when the tool
is declared, naming the tool and the path of the field inside its input. The readers of
signatures, hints, objects and bounds all say where through a `Where`.
"""

from __future__ import annotations

import inspect
import itertools
import types
import typing
from typing import Any, TypeGuard

import typing_extensions as te

from .refusals import lower_words

__all__ = [
    "NONE_ALONE",
    "NO_CYCLES",
    "SUPPORTED",
    "Unresolved",
    "Where",
    "advice",
    "cannot_read",
    "check_callable",
    "check_name",
    "is_async",
    "is_class",
    "type_name",
    "unlistable",
    "written",
]


class Unresolved(Exception):  # noqa: N818 - a state (a name not defined yet), not a failure
    """A hint names something not defined yet; the tool retries when it joins a toolkit."""

    def __init__(self, name: str, fields: tuple[str, ...]) -> None:
        """Keep the name that could not be resolved, and the paths of the fields naming it."""
        super().__init__(name)
        self.name = name
        self.fields = fields


class Where:
    """Where a definition mistake is: the tool, and the path of the field inside its input.

    Made for every field and never compared: a plain class, cheaper to make than a value.
    """

    __slots__ = ("tool", "path", "returned")

    def __init__(self, tool: str, path: str = "", *, returned: bool = False) -> None:
        self.tool = tool
        self.path = path
        self.returned = returned
        """Whether the path is inside the tool's return type, not its input."""

    def into(self, part: str) -> Where:
        """The place one step further in: a field name, `[]` for items, `{}` for record values."""
        sep = "" if not self.path or part in ("[]", "{}") else "."
        return Where(self.tool, f"{self.path}{sep}{part}", returned=self.returned)

    def error(self, kind: type[Exception], text: str) -> Exception:
        """A definition error naming the tool and the field."""
        if self.returned:
            inside = f"{self.path!r} in " if self.path else ""
            return kind(f"{inside}the return type of tool {self.tool!r}: {text}")
        where = f"field {self.path!r} of tool {self.tool!r}" if self.path else f"tool {self.tool!r}"
        return kind(f"{where}: {text}")


def unlistable(text: str) -> str | None:
    """Why no listing can carry a host's text, or `None`: UTF-8 has no lone surrogate.

    The MCP SDK would refuse the whole `tools/list` answer, on every call.
    """
    if text.isascii():
        return None
    try:
        text.encode()
    except UnicodeEncodeError as exc:
        return (
            f"holds a lone surrogate ({text[exc.start]!r} at index {exc.start}), which no UTF-8 "
            "text such as an MCP listing can carry; write the character itself "
            "(in Python '\\U0001f600', not the JSON escapes '\\ud83d\\ude00')"
        )
    return None


def written(value: object) -> str:
    """A value as Python writes it; an int past the 4,300 digits Python writes, by its size.

    So is a bound holding one (`Gt(10**5000)`): its class, and the int by its size.
    """
    try:
        return repr(value)
    except ValueError:
        if isinstance(value, int):
            return "a very large negative integer" if value < 0 else "a very large integer"
        names: tuple[str, ...] = getattr(type(value), "__match_args__", ())
        held = written(getattr(value, names[0])) if names else "..."
        return f"{type(value).__name__}({held})"


def check_name(name: object, what: str) -> str:
    """A tool or toolkit name: lower snake case, at most 64 characters; else `ValueError`."""
    if not lower_words(name, "_") or len(name) > 64:
        msg = (
            f"{what} name {name!r} is not lower snake case of at most 64 characters "
            "(like 'note_write'); rename it"
        )
        raise ValueError(msg)
    return str.__str__(name)  # a `StrEnum` member's text, not the member (`Names.NOTE`)


def cannot_read(what: str, exc: Exception) -> str:
    """Why a type written as text, or evaluated late, fails: Python's own error, named."""
    return f"{what} cannot be read ({type(exc).__name__}: {exc}); write a valid type"


def is_class(tp: object) -> TypeGuard[type[object]]:
    """A class, not a generic alias (which Python 3.10 also counts as a `type`: `list[int]`)."""
    return isinstance(tp, type) and not isinstance(tp, types.GenericAlias)


def is_async(fn: object) -> bool:
    """Whether calling `fn` gives a coroutine or an async generator, not a value."""
    return inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn)


def check_callable(fn: object, where: Where) -> None:
    """Refuse a predicate or transform that is no callable, or is async.

    Input is checked where nothing is awaited: a coroutine would be truthy (every value passing
    the predicate) or handed to the tool.
    """
    if not callable(fn):
        raise where.error(TypeError, f"Predicate needs a callable, got {fn!r}")
    if any(map(is_async, (fn, type(fn).__call__))):  # `__call__`: an object's own
        name = getattr(fn, "__name__", type(fn).__name__)
        raise where.error(
            TypeError,
            f"{name} is async; it runs while the input is checked, where nothing is awaited, so "
            "it would pass a coroutine on; make it a plain def, or await the work in the tool's "
            "body",
        )


def type_name(tp: object) -> str:
    """A type as a host writes it, on every Python (3.13 defines `Path` in `pathlib._local`)."""
    if not is_class(tp):
        return repr(tp).replace("typing_extensions.", "").replace("typing.", "")
    public = itertools.takewhile(lambda part: not part.startswith("_"), tp.__module__.split("."))
    module = ".".join(public)
    if module in ("", "builtins", "typing", "typing_extensions"):  # 3.11 made `Any` a class
        return tp.__qualname__
    return f"{module}.{tp.__qualname__}"


SUPPORTED = (
    "str, int, float, bool, a Literal, an Enum, list[X], Sequence[X], tuple[X, ...], set[X], "
    "frozenset[X], dict[str, X], Mapping[str, X], a TypedDict, a dataclass, X | None, A | B "
    "or Annotated[X, ...]"
)

NONE_ALONE = "None alone is no input; use X | None for an optional X"

NO_CYCLES = "recursive types cannot be listed (the schema has no $ref); bound the depth instead"

_TEXT_TYPES = {
    "datetime": "such as an ISO 8601 text",
    "decimal": "such as a function that returns Decimal(text) and raises ValueError when it fails",
    "uuid": "such as transform(UUID)",
    "pathlib": "such as transform(Path)",
    "string": "such as transform(Template)",  # only Template: a t-string's (3.14), or a `$` one
}
"""Types a model sends as text, by module, and how to convert that text."""

_SENTINEL: Any = getattr(te, "Sentinel", None)  # PEP 661; Python 3.15's builtin `sentinel`
"""The class of sentinels (typing-extensions 4.14 and later; on Python 3.15 the builtin)."""


def advice(tp: object) -> str:  # noqa: PLR0911 - one per kind
    """What to write instead of a type no schema can describe."""
    kind = tp if is_class(tp) else None
    if any(tp is anything for anything in (typing.Any, te.Any, object)):  # 3.10: two Anys
        return "say what a model should send, such as str or a TypedDict"
    if kind in (bytes, bytearray):
        return "take a str (base64, say) and decode it with transform(...)"
    module, name = (kind.__module__, kind.__name__) if kind is not None else ("", "")
    package = module.partition(".")[0]  # pathlib._local
    if package in _TEXT_TYPES and (package != "string" or name == "Template"):  # not Formatter
        return f"take a str and convert it with transform(...), {_TEXT_TYPES[package]}"
    if _SENTINEL is not None and isinstance(tp, _SENTINEL):  # `x: int | MISSING = MISSING`
        return "a sentinel marks a value left out, which a tool gets as None: write X | None = None"
    if isinstance(tp, (te.TypeVar, te.ParamSpec, te.TypeVarTuple)):
        return "type variables cannot be listed; use the concrete type"
    if module not in ("", "builtins") and (module, name) != ("typing", "Union"):  # a 3.14 class
        return f"use {SUPPORTED}; if this is the call object, make it a subclass of ToolCall"
    return f"use {SUPPORTED}"
