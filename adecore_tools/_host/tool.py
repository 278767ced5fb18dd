"""`Tool`: a decorated function with its field model, validator and schema, built once.

Everything about a tool is decided when it is declared (`_decorator`): names, description, the
field model, its validator and its schema. A hint naming a class defined further down the module
is read again when the tool joins a toolkit (`resolved`).
"""

from __future__ import annotations

import importlib
import inspect
import sys
import typing
from collections.abc import Callable, Coroutine
from functools import WRAPPER_ASSIGNMENTS
from typing import Any, ClassVar, Generic, TypeVar

from typing_extensions import ParamSpec

from .._check.blocks import Checker
from .._check.compile import compile_fields
from .._check.defaults import check_defaults
from .._declare.output import MODEL, Output, read_output
from .._declare.signature import Signature, read_signature
from .._model.errors import Unresolved, Where
from .._model.frozen import Frozen, Unique
from .._model.metadata import ToolCall, unapproved
from .._model.nodes import Field, Node
from .._model.problems import Invalid, message
from .._model.refusals import field, safe_refusal
from .._model.tool_annotations import ToolAnnotations
from .bounded import in_thread
from .wraps import FromFunction, Unwrapped

__all__ = [
    "Calling",
    "Tool",
    "ToolInput",
    "parse_tool_input",
    "resolve",
    "resolved",
    "start",
    "tool_input_schema",
]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")
# A tool only gives its result, so a Tool[P, bool] is a Tool[P, int].
R_co = TypeVar("R_co", covariant=True)

_EMPTY: dict[str, Any] = {}


class ToolInput(Unique):
    """A tool's input: its fields in signature order, with the validator built once.

    The validator is compiled on the tool's first check, not when it is declared: a new shape of
    input costs a compile of about half a millisecond, which a host declaring hundreds of tools
    pays only for those it calls. Its schemas are rendered once per profile, when first asked
    for, and kept: callers are handed copies.
    """

    __slots__ = ("fields", "validate", "advice", "tool_name", "_rendered")
    fields: tuple[Field, ...]
    validate: Checker
    advice: tuple[str, ...]
    """The rows of a bad-arguments refusal: `fields` and every field name, tab-separated."""
    tool_name: str
    _rendered: dict[tuple[str, bool], dict[str, Any]]

    def __init__(
        self,
        fields: tuple[Field, ...],
        validate: Checker,
        advice: tuple[str, ...],
        tool_name: str,
        _rendered: dict[tuple[str, bool], dict[str, Any]] | None = None,
    ) -> None:
        self._set_once(fields, validate, advice, tool_name, {} if _rendered is None else _rendered)

    def rendered(self, profile: str = "mcp", *, in_words: bool = False) -> dict[str, Any]:
        """The schema of a profile as rendered and kept: not to be handed out, but copied.

        `ValueError` for a profile that cannot state a field, or that is no profile.
        """
        key = (profile, in_words)
        schema = self._rendered.get(key)
        if schema is None:
            from .._render.providers import PROFILE_NAMES, PROFILES  # noqa: PLC0415 - listed
            from .._render.schema import render  # noqa: PLC0415

            if profile not in PROFILES:
                raise _no_profile(profile, PROFILE_NAMES)
            made = render(self.fields, PROFILES[profile], Where(self.tool_name), in_words=in_words)
            schema = self._rendered.setdefault(key, made)  # another thread's, if it was first
        return schema

    @property
    def schema(self) -> dict[str, Any]:
        """The `inputSchema` an MCP client lists: a plain copy, the caller's own."""
        from .._render.schema import copied  # noqa: PLC0415 - listed, not declared

        schema: dict[str, Any] = copied(self.rendered())
        return schema

    def __repr__(self) -> str:
        """Show the fields."""
        return f"ToolInput(fields={self.fields!r})"

    def __reduce__(self) -> typing.NoReturn:
        """Refuse, saying what pickles: the validators are compiled code, a tool's own."""
        import pickle  # noqa: PLC0415 - rare, and not imported by anything else we load

        msg = "a tool's input holds compiled validators; pickle the tool instead (by reference)"
        raise pickle.PicklingError(msg)


class Calling(Frozen):
    """How a resolved tool is called: its input, its call parameter, its output, how it starts."""

    __slots__ = ("input", "call_name", "call_type", "call_positional", "output", "begin")
    input: ToolInput
    call_name: str | None
    call_type: type[ToolCall] | None
    call_positional: bool
    output: Output
    begin: Callable[..., Coroutine[Any, Any, Any]]  # the function, or a plain `def` in a thread

    def __init__(  # noqa: PLR0913, PLR0917 - a value class: its slots, in order
        self,
        input: ToolInput,  # noqa: A002 - the tool's input
        call_name: str | None,
        call_type: type[ToolCall] | None,
        call_positional: bool,  # noqa: FBT001 - a value class
        output: Output,
        begin: Callable[..., Coroutine[Any, Any, Any]],
    ) -> None:
        self._set(input, call_name, call_type, call_positional, output, begin)


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
        "scopes",
        "timeout",
        "__dict__",  # what the function's wrapper reads as: its `__name__`, `__doc__`, ...
    )
    name: str
    toolkit: str
    description: str
    annotations: ToolAnnotations
    fn: Callable[P, Coroutine[Any, Any, R_co]]
    _docs: dict[str, str]
    _calling: Calling | None
    scopes: frozenset[str]  # what a caller must hold to see and call it (`ToolCall.may_use`)
    timeout: float | None  # the most seconds a run may take; `None`: the registry's limit

    def __init__(  # noqa: PLR0913, PLR0917 - a value class: what the decorator read
        self,
        name: str,
        toolkit: str,
        description: str,
        annotations: ToolAnnotations,
        fn: Callable[P, Coroutine[Any, Any, R_co]],
        _docs: dict[str, str],
        _calling: Calling | None,
        scopes: frozenset[str] = frozenset(),
        timeout: float | None = None,
    ) -> None:
        self._set_once(
            name, toolkit, description, annotations, fn, _docs, _calling, scopes, timeout
        )
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
        """The field model of the tool's input: its fields, validator and schema."""
        return resolved(self).input

    @property
    def output(self) -> Node | None:
        """The output model read from the return annotation, or `None`.

        `None` for text, lines, content blocks, nothing, or a result left unchecked.
        """
        output = resolved(self).output
        return output.node if output.kind == MODEL else None

    __wrapped__: ClassVar[Unwrapped] = Unwrapped()
    # With the code and defaults, `inspect` reads a tool as a coroutine function (hosts ask it
    # whether to await a callable) and as the function's signature.
    __code__: ClassVar[FromFunction] = FromFunction()
    __defaults__: ClassVar[FromFunction] = FromFunction()
    __kwdefaults__: ClassVar[FromFunction] = FromFunction()
    # a bound method's: its `__code__` lists `self`
    __signature__: ClassVar[FromFunction] = FromFunction()

    if typing.TYPE_CHECKING:  # in the tool's `__dict__`, from its function (see `__init__`)
        __name__: str
        __qualname__: str
        __annotations__: dict[str, Any]

    if sys.version_info >= (3, 14) and not typing.TYPE_CHECKING:  # checkers read the dict above
        # `functools.wraps` copies `__annotate__` only: the class's own annotations would show
        # through a tool. The function's are read when asked, as 3.14 evaluates them then. The
        # class keeps its own, the dict `from __future__ import annotations` has written here.
        __annotations__ = FromFunction(own=__annotations__)

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


def resolved(t: Tool[..., Any]) -> Calling:
    """How a tool is called, reading hints left for later first if need be."""
    calling = t._calling  # noqa: SLF001  # pyright: ignore[reportPrivateUsage] - this module owns Tool
    if calling is None:
        try:
            calling = resolve(t.fn, t.name, t._docs, final=True)  # noqa: SLF001  # pyright: ignore[reportPrivateUsage]
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
        calling = t._fill("_calling", calling, None)  # noqa: SLF001  # pyright: ignore[reportPrivateUsage]
    return calling


def start(
    t: Tool[..., R],
    data: object,
    call: object,
    noted: Callable[..., None] | None = None,
    asking: ToolCall | None = None,
) -> Coroutine[Any, Any, R]:
    """Validate `data` and start the tool's function with it and `call`, for the caller to await.

    The call object is checked first: a host's mistake must not hide behind a model's; bad input
    is `noted` (by `registry.run`, to log it without an `except`) before it is refused. A call
    `asking` for approval is asked with the checked arguments, and refused if it needs one.
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
        if noted is not None:
            noted(t.name, t, data, "bad-arguments")
        raise safe_refusal("bad-arguments", message(kwargs), checked.advice)
    if asking is not None and asking.needs_approval(t, dict(kwargs)):  # its own copy
        raise unapproved(t.name)
    if name is None:
        return calling.begin(**kwargs)
    if calling.call_positional:
        return calling.begin(call, **kwargs)
    kwargs[name] = call
    return calling.begin(**kwargs)


class _Pending:
    """A tool input's validator until its first check, which compiles the real one and keeps it.

    Two threads may both compile it: the first to finish keeps its own, which both then run.
    """

    __slots__ = ("checked",)
    checked: ToolInput

    def __call__(self, data: object) -> object:
        compiled = compile_fields(self.checked.fields)
        return self.checked._fill("validate", compiled, self)(data)  # noqa: SLF001  # pyright: ignore[reportPrivateUsage]


def resolve(
    fn: Callable[..., Any], name: str, docs: dict[str, str], *, final: bool = False
) -> Calling:
    """Read a tool function's signature and build its input: every check of it raises here.

    A name not defined yet raises `Unresolved`, for the tool to be read again when it joins a
    toolkit (`final`): then a return annotation naming one is left unchecked.
    """
    try:
        signature: Signature = read_signature(fn, name, docs)
        fields = signature.fields
        check_defaults(fields, name)
        pending = _Pending()
        checked = ToolInput(
            fields=fields,
            validate=pending,
            advice=("\t".join(("fields", *(field(f.name) for f in fields))),),
            tool_name=name,
        )
        pending.checked = checked
        output = read_output(fn, name, final=final)
    except RecursionError as exc:  # every reader here walks the type: one too deep for them
        msg = (
            f"tool {name!r}: a type nests deeper than Python's recursion limit lets this package "
            "read it; flatten it (a list of rows, or a record keyed by path)"
        )
        raise TypeError(msg) from exc
    return Calling(
        input=checked,
        call_name=signature.call_name,
        call_type=signature.call_type,
        call_positional=signature.call_positional,
        output=output,
        begin=fn if inspect.iscoroutinefunction(fn) else in_thread(fn),
    )


def parse_tool_input(
    tool: Tool[..., Any],
    input: object,  # noqa: A002 - the contract's name
    *,
    repair: bool = False,
) -> dict[str, Any]:
    """Check `input` for `tool`: the keyword arguments its function would get, defaults filled in.

    Raises `ToolRefusal("bad-arguments")` listing every problem. With `repair`, JSON text sent
    where a type admits no string is decoded first, and the decoded value checked.
    """
    try:  # no cost on the way through: only what is no tool lands in `except`
        calling = tool._calling  # noqa: SLF001  # pyright: ignore[reportPrivateUsage] - as in `start`
    except AttributeError:
        raise TypeError(_not_a_tool(tool, "parse_tool_input(tool, input) takes a Tool")) from None
    checked = (calling or resolved(tool)).input
    if repair:
        from .._check.repair import repaired  # noqa: PLC0415 - on first use

        input = repaired(checked.fields, checked.tool_name, input)  # noqa: A001
    result: dict[str, Any] | Invalid = checked.validate(_EMPTY if input is None else input)
    if isinstance(result, Invalid):
        # raised here, not in a helper: each frame a raise leaves costs a bad call 70 ns
        raise safe_refusal("bad-arguments", message(result), checked.advice)
    return result


def tool_input_schema(
    tool_or_input: Tool[..., Any] | ToolInput,
    profile: str = "mcp",
    *,
    bounds_in_words: bool = False,
) -> dict[str, Any]:
    """The input schema of a tool as `profile` writes it: a plain copy, the caller's own.

    `profile` is `mcp` (what an MCP client lists), `openai-strict`, `gemini` or `anthropic`;
    `ValueError` names a field the profile cannot state. `bounds_in_words` appends each bound and
    JSON default to the field's description.
    """
    if isinstance(tool_or_input, Tool):
        checked = tool_or_input.input
    elif isinstance(tool_or_input, ToolInput):
        checked = tool_or_input
    else:
        raise TypeError(
            _not_a_tool(tool_or_input, "tool_input_schema(tool) takes a Tool or its input")
        )
    from .._render.providers import PROFILE_NAMES  # noqa: PLC0415 - listed, not declared
    from .._render.schema import copied  # noqa: PLC0415

    if profile not in PROFILE_NAMES:
        raise _no_profile(profile, PROFILE_NAMES)
    schema: dict[str, Any] = copied(checked.rendered(profile, in_words=bounds_in_words))
    return schema


def _no_profile(profile: object, names: tuple[str, ...]) -> ValueError:
    return ValueError(f"no schema profile {profile!r}; the profiles are {', '.join(names)}")


def _not_a_tool(given: object, what: str) -> str:
    """Why `given` is no tool: a host's slip (the function itself, or `registry.get`'s `None`)."""
    if given is None:
        return f"{what}, got None (what registry.get answers for a name it does not know)"
    if inspect.isfunction(given) or inspect.ismethod(given):
        return f"{what}, got a function; pass the Tool that @tool made of it"
    return f"{what}, got a {type(given).__name__}"
