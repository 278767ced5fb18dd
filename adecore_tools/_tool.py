"""`@tool`, `Tool` and toolkits: a decorated `async def` with its field model, checked once.

Everything about a tool is decided when it is declared: names, description, the field model, its
validator and its schema. A hint naming a class defined further down the module is read again
when the tool joins a toolkit.
"""

from __future__ import annotations

import _thread
import importlib
import inspect
import sys
import typing
from collections.abc import Callable, Coroutine, Iterable
from functools import WRAPPER_ASSIGNMENTS
from typing import Any, ClassVar, Generic, TypeVar

from typing_extensions import ParamSpec

from ._annotations import unevaluated_signature
from ._compile import Checker, compile_fields
from ._docstrings import cleaned, split_docstring
from ._fields import Field, ToolCall
from ._frozen import Frozen, Unique
from ._introspect import Signature, Unresolved, check_bound, read_signature, unlistable
from ._problems import Invalid, message
from ._refusals import field, lower_words, safe_refusal
from ._schema import input_schema, read_only_dict

__all__ = [
    "Tool",
    "ToolAnnotations",
    "ToolInput",
    "Toolkit",
    "check_name",
    "define_toolkit",
    "mcp_entry",
    "parse_tool_input",
    "resolved",
    "start",
    "tool",
    "tool_input_schema",
]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")
# A tool only gives its result, so a Tool[P, bool] is a Tool[P, int].
R_co = TypeVar("R_co", covariant=True)

_EMPTY: dict[str, Any] = {}


def check_name(name: object, what: str) -> str:
    """A tool or toolkit name: lower snake case, at most 64 characters; else `ValueError`."""
    if not lower_words(name, "_") or len(name) > 64:
        msg = (
            f"{what} name {name!r} is not lower snake case of at most 64 characters "
            "(like 'note_write'); rename it"
        )
        raise ValueError(msg)
    return str.__str__(name)  # a `StrEnum` member's text, not the member (`Names.NOTE`)


class ToolAnnotations(Frozen):
    """What a client may expect of a tool before it runs it (MCP tool annotations).

    `read_only`: it changes nothing. `destructive`: it removes or overwrites what it cannot give
    back. `idempotent` and `open_world` are left out of the listing when `None`.
    """

    __slots__ = ("read_only", "destructive", "idempotent", "open_world", "title")
    read_only: bool
    destructive: bool
    idempotent: bool | None
    open_world: bool | None
    title: str | None

    def __init__(
        self,
        *,
        read_only: bool = False,
        destructive: bool = False,
        idempotent: bool | None = None,
        open_world: bool | None = None,
        title: str | None = None,
    ) -> None:
        """Check the annotations: they are listed to clients as JSON booleans and a string."""
        for flag, value, optional in (
            ("read_only", read_only, False),
            ("destructive", destructive, False),
            ("idempotent", idempotent, True),
            ("open_world", open_world, True),
        ):
            if not (type(value) is bool or (optional and value is None)):
                either = "True, False or None" if optional else "True or False"
                msg = f"{flag} is {either}, got {value!r}"
                raise ValueError(msg)
        if read_only and destructive:
            msg = (
                "a tool cannot be both read_only and destructive (a read-only tool removes "
                "nothing); set one of them only"
            )
            raise ValueError(msg)
        if title is not None and (not isinstance(title, str) or not title.strip()):
            msg = f"a title is a non-empty string, got {title!r}"
            raise ValueError(msg)
        if title is not None and (why := unlistable(title)) is not None:
            msg = f"its title {why}"
            raise ValueError(msg)
        self._set_once(read_only, destructive, idempotent, open_world, title)

    def __reduce__(self) -> tuple[Any, ...]:
        """Copy and pickle by keyword (the arguments are keyword-only), as the same class."""
        return (_annotations, (type(self), *self._values()))


def _annotations(cls: type[ToolAnnotations], *values: Any) -> ToolAnnotations:
    return cls(**dict(zip(ToolAnnotations.__slots__, values, strict=True)))


class ToolInput(Unique):
    """A tool's input: its fields in signature order, with the validator and schema built once."""

    __slots__ = ("fields", "validate", "schema", "advice")
    fields: tuple[Field, ...]
    validate: Checker
    schema: dict[str, Any]
    advice: tuple[str, ...]
    """The rows of a bad-arguments refusal: `fields` and every field name, tab-separated."""

    def __init__(
        self,
        fields: tuple[Field, ...],
        validate: Checker,
        schema: dict[str, Any],
        advice: tuple[str, ...],
    ) -> None:
        self._set_once(fields, validate, schema, advice)

    def __repr__(self) -> str:
        """Show the fields."""
        return f"ToolInput(fields={self.fields!r})"

    def __reduce__(self) -> typing.NoReturn:
        """Refuse, saying what pickles: the validators are compiled code, a tool's own."""
        import pickle  # noqa: PLC0415 - rare, and not imported by anything else we load

        msg = "a tool's input holds compiled validators; pickle the tool instead (by reference)"
        raise pickle.PicklingError(msg)


class _Calling(Frozen):
    """How a resolved tool is called: its input and its call parameter."""

    __slots__ = ("input", "call_name", "call_type", "call_positional")
    input: ToolInput
    call_name: str | None
    call_type: type[ToolCall] | None
    call_positional: bool

    def __init__(
        self,
        input: ToolInput,  # noqa: A002 - the tool's input
        call_name: str | None,
        call_type: type[ToolCall] | None,
        call_positional: bool,  # noqa: FBT001 - a value class
    ) -> None:
        self._set(input, call_name, call_type, call_positional)


class _Unwrapped:
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


class _FromFunction:
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


class Tool(Unique, Generic[P, R_co]):
    """A tool: the decorated function with its name, toolkit, description and field model.

    Still callable like the function (no validation then); `registry.run` validates first.
    """

    __slots__ = (
        "name",
        "toolkit",
        "description",
        "annotations",
        "fn",
        "_docs",
        "_calling",
        "_entry",
        "__dict__",  # what the function's wrapper reads as: its `__name__`, `__doc__`, ...
    )
    name: str
    toolkit: str
    description: str
    annotations: ToolAnnotations
    fn: Callable[P, Coroutine[Any, Any, R_co]]
    _docs: dict[str, str]
    _calling: _Calling | None
    _entry: dict[str, Any] | None

    def __init__(
        self,
        name: str,
        toolkit: str,
        description: str,
        annotations: ToolAnnotations,
        fn: Callable[P, Coroutine[Any, Any, R_co]],
        _docs: dict[str, str],
        _calling: _Calling | None,
        _entry: dict[str, Any] | None = None,
    ) -> None:
        self._set_once(name, toolkit, description, annotations, fn, _docs, _calling, _entry)
        # As `functools.wraps` would set them, for frameworks and tools that read the callable.
        vars(self).update({a: getattr(fn, a) for a in WRAPPER_ASSIGNMENTS if hasattr(fn, a)})

    def __repr__(self) -> str:
        """Show what a client would list."""
        return (
            f"Tool(name={self.name!r}, toolkit={self.toolkit!r}, "
            f"description={self.description!r}, annotations={self.annotations!r})"
        )

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> Coroutine[Any, Any, R_co]:
        """Call the function itself, as if it were not decorated."""
        return self.fn(*args, **kwargs)

    @property
    def input(self) -> ToolInput:
        """The field model of the tool's input (SPEC 4)."""
        return resolved(self).input

    __wrapped__: ClassVar[_Unwrapped] = _Unwrapped()
    # With the code and defaults, `inspect` reads a tool as a coroutine function (hosts ask it
    # whether to await a callable) and as the function's signature.
    __code__: ClassVar[_FromFunction] = _FromFunction()
    __defaults__: ClassVar[_FromFunction] = _FromFunction()
    __kwdefaults__: ClassVar[_FromFunction] = _FromFunction()
    # a bound method's: its `__code__` lists `self`
    __signature__: ClassVar[_FromFunction] = _FromFunction()

    if typing.TYPE_CHECKING:  # in the tool's `__dict__`, from its function (see `__init__`)
        __name__: str
        __qualname__: str
        __annotations__: dict[str, Any]

    if sys.version_info >= (3, 14) and not typing.TYPE_CHECKING:  # checkers read the dict above
        # `functools.wraps` copies `__annotate__` only: the class's own annotations would show
        # through a tool. The function's are read when asked, as 3.14 evaluates them then. The
        # class keeps its own, the dict `from __future__ import annotations` has written here.
        __annotations__ = _FromFunction(own=__annotations__)

    def __reduce__(self) -> tuple[Callable[[str, str], Tool[..., Any]], tuple[str, str]]:
        """Pickle by reference, as a function is: the tool its module holds under its name."""
        where = (self.fn.__module__, self.fn.__qualname__)
        try:
            found = _tool_at(*where)
        except Exception:  # noqa: BLE001 - any failure to find it means the same: not pickleable
            found = None
        if found is not self:
            import pickle  # noqa: PLC0415 - rare, and not imported by anything else we load

            msg = f"tool {self.name!r} is not {'.'.join(where)}: only module-level tools pickle"
            raise pickle.PicklingError(msg)
        return (_tool_at, where)


def _tool_at(module: str, qualname: str) -> Tool[..., Any]:
    """The tool a module holds under a qualified name: what a pickled tool is read back as."""
    found: object = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    if not isinstance(found, Tool):
        msg = f"{module}.{qualname} is not a tool"
        raise TypeError(msg)
    return typing.cast("Tool[..., Any]", found)


def resolved(t: Tool[..., Any]) -> _Calling:
    """How a tool is called, reading hints left for later first if need be."""
    calling = t._calling  # noqa: SLF001  # pyright: ignore[reportPrivateUsage] - this module owns Tool
    if calling is None:
        try:
            calling = _resolve(t.fn, t.name, t._docs)  # noqa: SLF001  # pyright: ignore[reportPrivateUsage]
        except Unresolved as exc:
            paths = ", ".join(repr(path) for path in exc.fields)
            if not exc.fields:
                naming = "its annotations name"
            elif len(exc.fields) == 1:
                naming = f"field {paths} names"
            else:
                naming = f"fields {paths} name"
            msg = (
                f"tool {t.name!r}: {naming} {exc.name!r}, which is not defined; define or import "
                "it at module level, in the module that wrote the annotation, before the toolkit "
                "is assembled"
            )
            raise TypeError(msg) from None
        calling = _kept(t, "_calling", calling)
    return calling


def _kept(t: Tool[..., Any], slot: str, value: T) -> T:
    """`value` set in the tool's empty `slot`, or what another thread set there first.

    Two threads may read a tool's input or listing entry at once: the first to finish sets it,
    for good, so what was handed out stays.
    """
    with _SETTING:
        found: T | None = getattr(t, slot)
        if found is not None:
            return found
        object.__setattr__(t, slot, value)
        return value


_SETTING = _thread.allocate_lock()  # `threading.Lock`, without importing `threading` (0.4 ms)
"""Held by `_kept` while it tests and sets a slot."""


def start(t: Tool[..., R], data: object, call: object) -> Coroutine[Any, Any, R]:
    """Validate `data` and start the tool's function with it and `call`, for the caller to await.

    The call object is checked first: a host's mistake must not hide behind a model's.
    """
    # `resolved` only for a tool whose hints were left for later: the call costs every run 20 ns
    calling = t._calling or resolved(t)  # noqa: SLF001  # pyright: ignore[reportPrivateUsage]
    name, kind = calling.call_name, calling.call_type
    if kind is not None and not isinstance(call, kind):
        msg = (
            f"tool {t.name!r} needs a call object of type {kind.__name__}, "
            f"got {type(call).__name__}; pass one to registry.run(name, input, call)"
        )
        raise TypeError(msg)
    checked = calling.input
    kwargs: dict[str, Any] | Invalid = checked.validate(_EMPTY if data is None else data)
    if isinstance(kwargs, Invalid):  # as in parse_tool_input: raised in this frame, to save 70 ns
        raise safe_refusal("bad-arguments", message(kwargs), checked.advice)
    if name is None:
        return t.fn(**kwargs)
    if calling.call_positional:
        return t.fn(call, **kwargs)
    kwargs[name] = call
    return t.fn(**kwargs)


def mcp_entry(t: Tool[..., Any]) -> dict[str, Any]:
    """The MCP `tools/list` entry of a tool: built once, shared, read-only."""
    entry = t._entry  # noqa: SLF001  # pyright: ignore[reportPrivateUsage] - this module owns Tool
    if entry is None:
        notes = t.annotations
        hints: dict[str, Any] = {
            "readOnlyHint": notes.read_only,
            "destructiveHint": notes.destructive,
        }
        if notes.idempotent is not None:
            hints["idempotentHint"] = notes.idempotent
        if notes.open_world is not None:
            hints["openWorldHint"] = notes.open_world
        if notes.title is not None:
            hints["title"] = notes.title
        entry = read_only_dict(
            {
                "name": t.name,
                "description": t.description,
                "inputSchema": t.input.schema,
                "annotations": read_only_dict(hints),
            }
        )
        entry = _kept(t, "_entry", entry)
    return entry


def _resolve(fn: Callable[..., Any], name: str, docs: dict[str, str]) -> _Calling:
    try:
        signature: Signature = read_signature(fn, name, docs)
        fields = signature.fields
        checked = ToolInput(
            fields=fields,
            validate=compile_fields(fields, name),
            schema=input_schema(fields),
            advice=("\t".join(("fields", *(field(f.name) for f in fields))),),
        )
    except RecursionError as exc:  # every reader here walks the type: one too deep for them
        msg = (
            f"tool {name!r}: a type nests deeper than Python's recursion limit lets this package "
            "read it; flatten it (a list of rows, or a record keyed by path)"
        )
        raise TypeError(msg) from exc
    return _Calling(
        input=checked,
        call_name=signature.call_name,
        call_type=signature.call_type,
        call_positional=signature.call_positional,
    )


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
            calling: _Calling | None = _resolve(fn, tool_name, docs)
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
        raise ValueError(msg)  # noqa: TRY004 - SPEC 3: a bad description is a ValueError
    if (why := unlistable(description)) is not None:
        msg = f"tool {tool_name!r}: its description {why}"
        raise ValueError(msg)
    return cleaned(description).strip()


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

    def __init__(self, name: str, tools: Iterable[Tool[..., Any]]) -> None:
        """Check the tools: `ValueError` when one names another toolkit or two share a name."""
        name = check_name(name, "toolkit")
        members = listed(
            tools, f"toolkit {name!r}: tools", f"define_toolkit({name!r}, [a_tool, another_tool])"
        )
        seen: set[str] = set()
        for member in members:
            if not isinstance(member, Tool):
                msg = (
                    f"toolkit {name!r}: {member!r} is not a tool; decorate it with @tool({name!r})"
                )
                raise TypeError(msg)
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
        self._set_once(name, members)


def define_toolkit(name: str, tools: Iterable[Tool[..., Any]]) -> Toolkit:
    """A toolkit; `ValueError` when a tool names another toolkit or two tools share a name."""
    return Toolkit(name, tools)


def parse_tool_input(tool: Tool[..., Any], input: object) -> dict[str, Any]:  # noqa: A002 - the contract's name
    """Check `input` for `tool`: the keyword arguments its function would get, defaults filled in.

    Raises `ToolRefusal("bad-arguments")` listing every problem.
    """
    try:  # no cost on the way through: only what is no tool lands in `except`
        calling = tool._calling  # noqa: SLF001  # pyright: ignore[reportPrivateUsage] - as in `start`
    except AttributeError:
        raise TypeError(_not_a_tool(tool, "parse_tool_input(tool, input) takes a Tool")) from None
    checked = (calling or resolved(tool)).input
    result: dict[str, Any] | Invalid = checked.validate(_EMPTY if input is None else input)
    if isinstance(result, Invalid):
        # raised here, not in a helper: each frame a raise leaves costs a bad call 70 ns
        raise safe_refusal("bad-arguments", message(result), checked.advice)
    return result


def tool_input_schema(tool_or_input: Tool[..., Any] | ToolInput) -> dict[str, Any]:
    """The read-only `inputSchema` of a tool, as an MCP client lists it."""
    if isinstance(tool_or_input, Tool):
        return tool_or_input.input.schema
    if isinstance(tool_or_input, ToolInput):
        return tool_or_input.schema
    raise TypeError(_not_a_tool(tool_or_input, "tool_input_schema(tool) takes a Tool or its input"))


def _not_a_tool(given: object, what: str) -> str:
    """Why `given` is no tool: a host's slip (the function itself, or `registry.get`'s `None`)."""
    if given is None:
        return f"{what}, got None (what registry.get answers for a name it does not know)"
    if inspect.isfunction(given) or inspect.ismethod(given):
        return f"{what}, got a function; pass the Tool that @tool made of it"
    return f"{what}, got a {type(given).__name__}"
