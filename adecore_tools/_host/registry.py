"""The registry: every tool a host offers, looked up by name and run with checked input.

A registry never changes after it is built, so one instance is safely shared by every task and
thread of a host; `select` builds a smaller one for an agent that should see less.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .._check.blocks import text_of
from .._model.content import ToolResult
from .._model.frozen import Unique
from .._model.metadata import ToolCall, asks_approval
from .._model.refusals import ToolRefusal
from .._model.suggest import closest
from .._model.words import show
from .bounded import cancelled_error, check_timeout, failed, limited
from .listing import Listings
from .telemetry import UNREAD, Noted, logged
from .tool import Tool, start
from .toolkit import Toolkit, listed

if typing.TYPE_CHECKING:
    from .._render.schema import Kept

# Results, JSON text and repair are imported where they are first used: a host that only
# declares and runs tools never loads them (`import adecore_tools` stays small).

__all__ = ["ToolRegistry", "create_tool_registry"]


class ToolRegistry(Listings, Unique):
    """Toolkits and their tools, by name. Immutable; build one with `create_tool_registry`."""

    __slots__ = (
        "toolkits",
        "tools",
        "repair",
        "bounds_in_words",
        "timeout",
        "trace",
        "_by_name",
        "_tools_line",
        "_listings",
        "_limits",
        "_scoped",
    )

    toolkits: tuple[Toolkit, ...]
    """The toolkits, in the order given."""
    tools: tuple[Tool[..., Any], ...]
    """Every tool, in toolkit order, then tool order."""
    repair: bool
    """Whether input a type admits no string for is decoded from JSON text first (`run`)."""
    bounds_in_words: bool
    """Whether listings say each bound and JSON default in the field's description."""
    timeout: float | None
    """The most seconds a run of a tool that sets no limit of its own may take, or `None`."""
    trace: bool
    """Whether each run is an OpenTelemetry span."""
    _by_name: dict[str, Tool[..., Any]]
    _tools_line: str
    _listings: dict[tuple[object, ...], Kept]
    _limits: dict[str, float]
    """The time limit of each tool that has one."""
    _scoped: bool
    """Whether a tool needs scopes: who may use what then depends on the caller."""

    def __init__(
        self,
        toolkits: Iterable[Toolkit],
        *,
        repair: bool = False,
        bounds_in_words: bool = False,
        timeout: float | None = None,
        trace: bool = False,
    ) -> None:
        """Check the toolkits and index their tools; `ValueError` on a name used twice."""
        options = (("repair", repair), ("bounds_in_words", bounds_in_words), ("trace", trace))
        for option, value in options:
            if type(value) is not bool:
                msg = f"{option} is True or False, got {value!r}"
                raise TypeError(msg)
        kits = listed(toolkits, "toolkits", "create_tool_registry([a_toolkit, another_toolkit])")
        by_name: dict[str, Tool[..., Any]] = {}
        seen_kits: set[str] = set()
        for kit in kits:
            if not isinstance(kit, Toolkit):
                msg = f"{kit!r} is not a toolkit; make one with define_toolkit(name, tools)"
                raise TypeError(msg)
            if kit.name in seen_kits:
                msg = f"two toolkits are named {kit.name!r}; merge them or rename one"
                raise ValueError(msg)
            seen_kits.add(kit.name)
            for t in kit.tools:
                if t.name in by_name:
                    msg = (
                        f"tool {t.name!r} is in toolkit {by_name[t.name].toolkit!r} and in "
                        f"toolkit {kit.name!r}; tool names are unique across a registry, so "
                        "rename one"
                    )
                    raise ValueError(msg)
                by_name[t.name] = t
        limit = check_timeout(timeout, "the registry's timeout")
        limits = {n: t.timeout or limit for n, t in by_name.items() if t.timeout or limit}
        self._set_once(
            kits,
            tuple(by_name.values()),
            repair,
            bounds_in_words,
            limit,
            trace,
            by_name,
            "\t".join(("tools", *by_name)),
            {},
            limits,
            any(t.scopes for t in by_name.values()),
        )

    def _options(self) -> dict[str, Any]:
        """The options a registry made of this one's toolkits keeps (`select`, `visible_to`)."""
        return {
            "repair": self.repair,
            "bounds_in_words": self.bounds_in_words,
            "timeout": self.timeout,
            "trace": self.trace,
        }

    def __reduce__(self) -> tuple[Callable[..., ToolRegistry], tuple[object, ...]]:
        """Pickle by toolkits and options, what `__init__` takes."""
        return (_rebuilt, (type(self), self.toolkits, self._options()))

    def __repr__(self) -> str:
        """Show the toolkit names."""
        return f"ToolRegistry({[kit.name for kit in self.toolkits]!r})"

    def __len__(self) -> int:
        """The number of tools."""
        return len(self._by_name)

    def __contains__(self, name: object) -> bool:
        """Whether a tool has this name, or is this very tool, as iterating finds (else: no)."""
        if isinstance(name, Tool):
            return self._by_name.get(name.name) is name
        return text_of(name) in self._by_name

    def __iter__(self) -> Iterator[Tool[..., Any]]:
        """The tools, in order."""
        return iter(self.tools)

    def get(self, name: str) -> Tool[..., Any] | None:
        """The tool of that name, or `None` (for anything but a string too)."""
        key = text_of(name)
        return None if key is None else self._by_name.get(key)

    async def run(
        self,
        name: str,
        input: object = None,  # noqa: A002 - the contract's name
        call: object = None,
        *,
        call_id: str | None = None,
        approved: bool = False,
    ) -> Any:
        """Check `input` for the tool `name`, then await the tool with it and `call`.

        Returns what the tool returns. Bad input raises `ToolRefusal("bad-arguments")`, an
        unknown name, or one of a tool `call` may not use, `ToolRefusal("unknown-tool")`, a run
        past its time limit `ToolRefusal("timed-out")`; a missing or wrong call object is the
        host's mistake (`TypeError`); whatever else the tool raises passes through. `call_id`
        names the model's call in the run's span, when the registry traces.

        A call for which `call.needs_approval(tool, arguments)` is true is not run unless
        `approved`: it raises `ToolRefusal("needs-approval")`, for the host to ask its user.
        """
        if self.trace or self.repair:
            return await self._traced(name, input, call, call_id, text=False, approved=approved)
        # `_run` for the usual registry, inlined (another coroutine frame costs a run a tenth), and
        # bad input logged where it is refused: an `except` it passed through would cost it 2%
        t = self._by_name.get(name) if call is None and type(name) is str else None
        if t is None:  # a caller to ask about, or a name no tool has (inlined: a call saved)
            try:
                t = self._named(name, call)
            except ToolRefusal as refusal:
                logged(name, None, UNREAD, refusal.code)
                raise
            except Asking:  # the call's class asks for approval: no `except` costs the others
                return await self._run(
                    name, input, call, text=False, noted=logged, approved=approved
                )
        run = start(t, input, call, logged)
        if self._limits and (limit := self._limits.get(t.name)) is not None:
            run = limited(t, run, limit)
        try:
            return await run
        except ToolRefusal as refusal:
            logged(name, t, input, refusal.code)
            raise
        except cancelled_error() as error:  # evaluated only for what is no refusal
            raise failed(t, error)  # noqa: B904 - its cause is set

    async def run_json(
        self,
        name: str,
        arguments: str | bytes,
        call: object = None,
        *,
        call_id: str | None = None,
        approved: bool = False,
    ) -> Any:
        """`run`, with the arguments as JSON text, as OpenAI's clients (and any streamed call) give.

        Empty or blank text means no fields. Text that is not JSON (truncated, a trailing comma,
        `NaN`, invalid UTF-8, a key given twice, nested too deep) is a `bad-arguments` refusal
        saying where it breaks, with the tool's `fields` row; never a `JSONDecodeError`.
        """
        return await self._traced(name, arguments, call, call_id, text=True, approved=approved)

    async def call(
        self,
        name: str,
        arguments: object = None,
        call: object = None,
        *,
        call_id: str | None = None,
        approved: bool = False,
    ) -> ToolResult:
        """Run the tool as `run` does, and answer what a client receives of it: a `ToolResult`.

        `arguments` is a mapping, `None`, or its JSON text (`str` or `bytes`, read as `run_json`
        reads it). A refusal is not raised but answered: a result whose `is_error` is true and
        whose text is the refusal's `refusal_body`. Anything else raised passes through, as
        from `run`. Every adapter answers through this one method.
        """
        from .results import tool_result  # noqa: PLC0415

        try:
            if isinstance(arguments, (str, bytes)):
                ran = self.run_json(name, arguments, call, call_id=call_id, approved=approved)
            else:
                ran = self.run(name, arguments, call, call_id=call_id, approved=approved)
            value = await ran
        except ToolRefusal as refusal:
            return ToolResult.refused(refusal)
        return tool_result(typing.cast("Tool[..., Any]", self.get(name)), value)

    async def _traced(  # noqa: PLR0913 - a run's arguments, and how its input comes
        self,
        name: str,
        input: object,  # noqa: A002 - the contract's name
        call: object,
        call_id: str | None,
        *,
        text: bool,
        approved: bool,
    ) -> Any:
        """`_run`, in a span when the registry traces, else logging its refusals."""
        if self.trace:
            from .telemetry import traced  # noqa: PLC0415 - only when tracing

            return await traced(self, name, input, call, call_id, text=text, approved=approved)
        return await self._run(name, input, call, text=text, noted=logged, approved=approved)

    async def _run(  # noqa: PLR0913 - a run's arguments, and how it reports
        self,
        name: str,
        input: object,  # noqa: A002 - the contract's name
        call: object,
        *,
        text: bool,
        noted: Noted,
        approved: bool,
    ) -> Any:
        """A run: the tool the caller may use, its input checked, awaited within its limit.

        A refusal is `noted` (logged, or added to the run's span) before it is raised.
        """
        if type(approved) is not bool:
            msg = f"approved is True or False, got {approved!r}"
            raise TypeError(msg)
        t, data = None, UNREAD
        try:
            try:
                t, asking = self._named(name, call), None
            except Asking as asks:
                t, asking = asks.tool, None if approved else typing.cast("ToolCall", call)
            if text:
                from .._check.json_text import arguments_of  # noqa: PLC0415 - on first use

                data = arguments_of(input, t.input.advice)
            else:
                data = input
            if self.repair:
                from .._check.repair import repaired  # noqa: PLC0415 - on first use

                checked = t.input
                data = repaired(checked.fields, checked.tool_name, data)
            run = start(t, data, call, asking=asking)
            if self._limits and (limit := self._limits.get(t.name)) is not None:
                run = limited(t, run, limit)
            return await run
        except ToolRefusal as refusal:
            noted(name, t, data, refusal.code)
            raise
        except cancelled_error() as error:  # evaluated only for what is no refusal
            raise failed(typing.cast("Tool[..., Any]", t), error)  # noqa: B904 - its cause is set

    def _named(self, name: str, call: object) -> Tool[..., Any]:
        """The tool `run` runs for `name`, or the `unknown-tool` refusal: also for a hidden one.

        `Asking` (holding the tool) when the call's class asks for approval, for `_run` to ask.
        """
        t = self._by_name.get(name) if type(name) is str else self.get(name)
        if t is None:
            raise self._unknown(name, call, None)
        if call is not None and (may_use := self._rule(call)) is not None:
            if not may_use(t):
                raise self._unknown(name, call, t)
            if isinstance(call, ToolCall) and asks_approval(type(call)):
                raise Asking(t)
        return t

    def _rule(self, call: object) -> Callable[[Tool[..., Any]], bool] | None:
        """Whether `call` may use a tool, or `None` when it may use every tool (no rule to ask).

        A call object that is no `ToolCall` holds no scopes.
        """
        if isinstance(call, ToolCall):
            # one look at the class decides both rules: a plain call object costs a run no more
            if self._scoped or not type(call)._plain:  # noqa: SLF001  # pyright: ignore[reportPrivateUsage]
                return call.may_use
            return None
        return _unscoped if self._scoped and call is not None else None

    def _unknown(self, name: object, call: object, hidden: Tool[..., Any] | None) -> ToolRefusal:
        """`unknown-tool`, naming only what `call` may use (`hidden` was asked already: no)."""
        may_use = self._rule(call)
        if may_use is None:
            names, row = tuple(self._by_name), self._tools_line
        else:
            names = tuple(t.name for t in self.tools if t is not hidden and may_use(t))
            row = "\t".join(("tools", *names))
        hint = closest(text_of(name), names)
        text = f"there is no tool named {show(name)}"
        if hint is not None:
            text += f" (did you mean {hint!r}?)"
        return ToolRefusal("unknown-tool", text, (row,))

    def visible_to(self, call: object) -> ToolRegistry:
        """A registry of only the tools `call` may use (`call.may_use`), with the same options.

        Every listing of it shows only those. `None`, a host that does not tell callers apart,
        sees every tool: this registry itself. `may_use` is asked once for each tool.
        """
        may_use = self._rule(call)
        if may_use is None:
            return self
        seen = {t for t in self.tools if may_use(t)}
        if len(seen) == len(self.tools):
            return self
        kits = [Toolkit(kit.name, [t for t in kit.tools if t in seen]) for kit in self.toolkits]
        return ToolRegistry([kit for kit in kits if kit.tools], **self._options())

    def select(self, *toolkit_names: str) -> ToolRegistry:
        """A registry with only these toolkits (in this registry's order), to hand an agent less."""
        names = [kit.name for kit in self.toolkits]  # in order: the first of the closest is named
        known = set(names)
        for wanted in toolkit_names:
            if not isinstance(wanted, str):
                msg = f"toolkit names are strings, as in select('notes', 'files'); got {wanted!r}"
                raise TypeError(msg)
            if wanted not in known:
                hint = closest(wanted, names)
                advice = f"; did you mean {hint!r}?" if hint else f"; there are {sorted(names)}"
                msg = f"no toolkit named {wanted!r}{advice}"
                raise ValueError(msg)
        chosen = set(toolkit_names)
        return ToolRegistry((kit for kit in self.toolkits if kit.name in chosen), **self._options())


class Asking(Exception):  # noqa: N818 - a signal, not an error
    """Raised by `_named` when the call's class asks for approval: `_run` then asks it.

    A signal by exception, not a value to test: a run of any other call pays nothing for it.
    """

    def __init__(self, tool: Tool[..., Any]) -> None:
        super().__init__(tool.name)
        self.tool = tool


def _unscoped(t: Tool[..., Any]) -> bool:
    """The rule of a call object that is no `ToolCall`: it holds no scopes."""
    return not t.scopes


def _rebuilt(
    cls: type[ToolRegistry], toolkits: tuple[Toolkit, ...], options: dict[str, Any]
) -> ToolRegistry:
    return cls(toolkits, **options)


def create_tool_registry(
    toolkits: Iterable[Toolkit],
    *,
    repair: bool = False,
    bounds_in_words: bool = False,
    timeout: float | None = None,
    trace: bool = False,
) -> ToolRegistry:
    """A registry of these toolkits; `ValueError` when two toolkits, or two tools, share a name.

    `repair` decodes JSON text sent where a type admits no string, before the checks (`run`).
    `bounds_in_words` says each bound and JSON default in the listings' descriptions.
    `timeout` is the most seconds a run of a tool that sets no limit of its own may take.
    `trace` makes each run an OpenTelemetry span (`pip install 'adecore_tools[otel]'`).
    """
    return ToolRegistry(
        toolkits, repair=repair, bounds_in_words=bounds_in_words, timeout=timeout, trace=trace
    )
