"""The registry: every tool a host offers, looked up by name and run with checked input.

A registry never changes after it is built, so one instance is safely shared by every task and
thread of a host; `select` builds a smaller one for an agent that should see less.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Coroutine, Iterable, Iterator
from typing import Any, Literal, TypeVar

from .._check.blocks import text_of
from .._model.content import ToolResult
from .._model.frozen import Unique
from .._model.refusals import ToolRefusal
from .._model.suggest import closest
from .._model.words import show
from .tool import Tool, start
from .toolkit import Toolkit, listed

if typing.TYPE_CHECKING:
    from .._render.listings import (
        AnthropicTool,
        GeminiFunction,
        OpenAIApi,
        OpenAIChatTool,
        OpenAITool,
    )
    from .._render.schema import Kept

# Listings, portability, results, JSON text and repair are imported where they are first used:
# a host that only declares and runs tools never loads them (`import adecore_tools` stays small).

__all__ = ["ToolRegistry", "create_tool_registry"]

_Entry = TypeVar("_Entry")


class ToolRegistry(Unique):
    """Toolkits and their tools, by name. Immutable; build one with `create_tool_registry`."""

    __slots__ = (
        "toolkits",
        "tools",
        "repair",
        "bounds_in_words",
        "_by_name",
        "_tools_line",
        "_listings",
    )

    toolkits: tuple[Toolkit, ...]
    """The toolkits, in the order given."""
    tools: tuple[Tool[..., Any], ...]
    """Every tool, in toolkit order, then tool order."""
    repair: bool
    """Whether input a type admits no string for is decoded from JSON text first (`run`)."""
    bounds_in_words: bool
    """Whether listings say each bound and JSON default in the field's description."""
    _by_name: dict[str, Tool[..., Any]]
    _tools_line: str
    _listings: dict[tuple[object, ...], Kept]

    def __init__(
        self, toolkits: Iterable[Toolkit], *, repair: bool = False, bounds_in_words: bool = False
    ) -> None:
        """Check the toolkits and index their tools; `ValueError` on a name used twice."""
        for option, value in (("repair", repair), ("bounds_in_words", bounds_in_words)):
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
        self._set_once(
            kits,
            tuple(by_name.values()),
            repair,
            bounds_in_words,
            by_name,
            "\t".join(("tools", *by_name)),
            {},
        )

    def __reduce__(self) -> tuple[Callable[..., ToolRegistry], tuple[object, ...]]:
        """Pickle by toolkits and options, what `__init__` takes."""
        return (_rebuilt, (type(self), self.toolkits, self.repair, self.bounds_in_words))

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

    async def run(self, name: str, input: object = None, call: object = None) -> Any:  # noqa: A002 - the contract's name
        """Check `input` for the tool `name`, then await the tool with it and `call`.

        Returns what the tool returns. Bad input raises `ToolRefusal("bad-arguments")`, an
        unknown name `ToolRefusal("unknown-tool")`; a missing or wrong call object is the host's
        mistake (`TypeError`); whatever the tool raises passes through.
        """
        return await self._started(self._named(name), input, call)

    async def run_json(self, name: str, arguments: str | bytes, call: object = None) -> Any:
        """`run`, with the arguments as JSON text, as OpenAI's clients (and any streamed call) give.

        Empty or blank text means no fields. Text that is not JSON (truncated, a trailing comma,
        `NaN`, invalid UTF-8, a key given twice, nested too deep) is a `bad-arguments` refusal
        saying where it breaks, with the tool's `fields` row; never a `JSONDecodeError`.
        """
        from .._check.json_text import arguments_of  # noqa: PLC0415 - on first use

        t = self._named(name)
        return await self._started(t, arguments_of(arguments, t.input.advice), call)

    async def call(self, name: str, arguments: object = None, call: object = None) -> ToolResult:
        """Run the tool as `run` does, and answer what a client receives of it: a `ToolResult`.

        `arguments` is a mapping, `None`, or its JSON text (`str` or `bytes`, read as `run_json`
        reads it). A refusal is not raised but answered: a result whose `is_error` is true and
        whose text is the refusal's `refusal_body`. Anything else raised passes through, as
        from `run`. Every adapter answers through this one method.
        """
        from .._check.json_text import arguments_of  # noqa: PLC0415 - on first use
        from .results import tool_result  # noqa: PLC0415

        try:
            t = self._named(name)
            if isinstance(arguments, (str, bytes)):
                arguments = arguments_of(arguments, t.input.advice)
            value = await self._started(t, arguments, call)
        except ToolRefusal as refusal:
            return ToolResult.refused(refusal)
        return tool_result(t, value)

    def _named(self, name: str) -> Tool[..., Any]:
        """The tool `run` runs for `name`, or the `unknown-tool` refusal."""
        t = self._by_name.get(name) if type(name) is str else self.get(name)
        if t is None:
            raise self._unknown(name)
        return t

    def _started(self, t: Tool[..., Any], input: object, call: object) -> Coroutine[Any, Any, Any]:  # noqa: A002
        """The tool's run with checked input (repaired first, when the registry repairs)."""
        if self.repair:
            from .._check.repair import repaired  # noqa: PLC0415 - on first use

            checked = t.input
            input = repaired(checked.fields, checked.tool_name, input)  # noqa: A001
        return start(t, input, call)

    def _unknown(self, name: object) -> ToolRefusal:
        hint = closest(text_of(name), tuple(self._by_name))
        text = f"there is no tool named {show(name)}"
        if hint is not None:
            text += f" (did you mean {hint!r}?)"
        return ToolRefusal("unknown-tool", text, (self._tools_line,))

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
        return ToolRegistry(
            (kit for kit in self.toolkits if kit.name in chosen),
            repair=self.repair,
            bounds_in_words=self.bounds_in_words,
        )

    def mcp_tools(self) -> list[dict[str, Any]]:
        """The MCP `tools/list` entries, in order: plain copies, the caller's own."""
        from .._render.listings import mcp_entry  # noqa: PLC0415 - on first use
        from .results import kept_output_schema  # noqa: PLC0415

        words = self.bounds_in_words
        return self._listed(("mcp",), lambda t: mcp_entry(t, kept_output_schema(t), in_words=words))

    @typing.overload
    def openai_tools(
        self, *, api: Literal["responses"] = ..., strict: bool = ...
    ) -> list[OpenAITool]: ...
    @typing.overload
    def openai_tools(self, *, api: Literal["chat"], strict: bool = ...) -> list[OpenAIChatTool]: ...
    def openai_tools(
        self, *, api: OpenAIApi = "responses", strict: bool = True
    ) -> list[OpenAITool] | list[OpenAIChatTool]:
        """OpenAI function tools for the Responses API (`api="responses"`) or Chat Completions.

        With `strict`, each tool the strict profile can state is strict; any other is listed
        with `"strict": false` and its MCP schema. Each entry's type is the one the SDK's own
        `create(tools=...)` takes.
        """
        if api not in ("responses", "chat"):
            msg = f"api is 'responses' or 'chat', got {api!r}"
            raise ValueError(msg)
        from .._render.listings import openai_chat_entry, openai_entry  # noqa: PLC0415

        words, on = self.bounds_in_words, bool(strict)
        if api == "chat":
            return self._listed(
                ("openai", api, on), lambda t: openai_chat_entry(t, strict=on, in_words=words)
            )
        return self._listed(
            ("openai", api, on), lambda t: openai_entry(t, strict=on, in_words=words)
        )

    def anthropic_tools(self, *, strict: bool = True) -> list[AnthropicTool]:
        """Anthropic tools; with `strict`, `"strict": true` on each tool strict use can take."""
        from .._render.listings import anthropic_entry  # noqa: PLC0415 - on first use

        words = self.bounds_in_words
        return self._listed(
            ("anthropic", bool(strict)),
            lambda t: anthropic_entry(t, strict=bool(strict), in_words=words),
        )

    def gemini_tools(self) -> list[GeminiFunction]:
        """Gemini function declarations: `name`, `description`, `parameters`."""
        from .._render.listings import gemini_entry  # noqa: PLC0415 - on first use

        words = self.bounds_in_words
        return self._listed(("gemini",), lambda t: gemini_entry(t, in_words=words))

    def portability(self) -> list[dict[str, str | None]]:
        """Each rule a provider states that this registry breaks: provider, tool and rule.

        Computed when asked; it never raises.
        """
        from .._render.listings import (  # noqa: PLC0415 - on first use
            anthropic_entry,
            gemini_entry,
            openai_entry,
        )
        from .._render.providers import broken_rules  # noqa: PLC0415

        words = self.bounds_in_words
        listings = {
            "openai": self._kept(
                ("openai", "responses", True),
                lambda t: openai_entry(t, strict=True, in_words=words),
            ).value,
            "gemini": self._kept(("gemini",), lambda t: gemini_entry(t, in_words=words)).value,
            "anthropic": self._kept(
                ("anthropic", True), lambda t: anthropic_entry(t, strict=True, in_words=words)
            ).value,
        }
        return broken_rules(self.tools, listings)

    def _listed(
        self, key: tuple[object, ...], entry: Callable[[Tool[..., Any]], _Entry]
    ) -> list[_Entry]:
        """A listing built once and handed out copied."""
        return typing.cast("list[_Entry]", self._kept(key, entry).copy())

    def _kept(self, key: tuple[object, ...], entry: Callable[[Tool[..., Any]], object]) -> Kept:
        """A listing built once (two threads may both build it, equal) and kept unchanged."""
        listing = self._listings.get(key)
        if listing is None:
            from .._render.schema import Kept  # noqa: PLC0415 - on first use

            listing = self._listings.setdefault(key, Kept([entry(t) for t in self.tools]))
        return listing


def _rebuilt(
    cls: type[ToolRegistry],
    toolkits: tuple[Toolkit, ...],
    repair: bool,  # noqa: FBT001 - as `__reduce__` passes them
    bounds_in_words: bool,  # noqa: FBT001
) -> ToolRegistry:
    return cls(toolkits, repair=repair, bounds_in_words=bounds_in_words)


def create_tool_registry(
    toolkits: Iterable[Toolkit], *, repair: bool = False, bounds_in_words: bool = False
) -> ToolRegistry:
    """A registry of these toolkits; `ValueError` when two toolkits, or two tools, share a name.

    `repair` decodes JSON text sent where a type admits no string, before the checks (`run`).
    `bounds_in_words` says each bound and JSON default in the listings' descriptions.
    """
    return ToolRegistry(toolkits, repair=repair, bounds_in_words=bounds_in_words)
