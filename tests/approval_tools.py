"""The tools and call class the approval tests share: ask before every destructive tool."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adecore_tools import ToolCall, create_tool_registry, define_toolkit, tool

ran: list[str] = []
"""The titles each tool ran with, in order: what a test reads to see a tool ran, and how often."""


@tool("notes", destructive=True)
async def note_delete(title: str) -> str:
    """Delete a note."""
    ran.append(title)
    return f"deleted {title}"


@tool("notes", read_only=True)
async def note_read(title: str) -> str:
    """Read a note."""
    ran.append(title)
    return f"read {title}"


@dataclass
class Careful(ToolCall):
    """Asks before every destructive tool: the override the docs show."""

    user: str = "ann"
    asked: list[tuple[str, dict[str, Any]]] = field(
        default_factory=list[tuple[str, dict[str, Any]]]
    )

    def needs_approval(self, tool: Any, arguments: dict[str, Any]) -> bool:
        self.asked.append((tool.name, arguments))
        return bool(tool.annotations.destructive)


registry = create_tool_registry([define_toolkit("notes", [note_delete, note_read])])
