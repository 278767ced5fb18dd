"""The registry: every tool a host offers, looked up by name and run with checked input.

A registry never changes after it is built, so one instance is safely shared by every task and
thread of a host; `select` builds a smaller one for an agent that should see less.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Iterator
from typing import Any

from ._checks import text_of
from ._frozen import Unique
from ._refusals import ToolRefusal
from ._schema import Kept
from ._show import show
from ._suggest import closest
from ._tool import Tool, mcp_entry, start
from ._toolkit import Toolkit, listed

__all__ = ["ToolRegistry", "create_tool_registry"]


class ToolRegistry(Unique):
    """Toolkits and their tools, by name. Immutable; build one with `create_tool_registry`."""

    __slots__ = ("toolkits", "tools", "_by_name", "_tools_line", "_listing")

    toolkits: tuple[Toolkit, ...]
    """The toolkits, in the order given."""
    tools: tuple[Tool[..., Any], ...]
    """Every tool, in toolkit order, then tool order."""
    _by_name: dict[str, Tool[..., Any]]
    _tools_line: str
    _listing: Kept | None

    def __init__(self, toolkits: Iterable[Toolkit]) -> None:
        """Check the toolkits and index their tools; `ValueError` on a name used twice."""
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
            by_name,
            "\t".join(("tools", *by_name)),
            None,
        )

    def __reduce__(self) -> tuple[type[ToolRegistry], tuple[tuple[Toolkit, ...]]]:
        """Pickle by toolkits, what `__init__` takes."""
        return (type(self), (self.toolkits,))

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
        t = self._by_name.get(name) if type(name) is str else self.get(name)
        if t is None:
            raise self._unknown(name)
        return await start(t, input, call)

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
        return ToolRegistry(kit for kit in self.toolkits if kit.name in chosen)

    def mcp_tools(self) -> list[dict[str, Any]]:
        """The MCP `tools/list` entries, in order: plain copies, the caller's own."""
        listing = self._listing
        if listing is None:  # built on first use; two threads may both build it, equal
            listing = Kept([mcp_entry(t) for t in self.tools])
            object.__setattr__(self, "_listing", listing)
        return typing.cast("list[dict[str, Any]]", listing.copy())


def create_tool_registry(toolkits: Iterable[Toolkit]) -> ToolRegistry:
    """A registry of these toolkits; `ValueError` when two toolkits, or two tools, share a name."""
    return ToolRegistry(toolkits)
