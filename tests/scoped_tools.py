"""Two note tools that need scopes, and a call class holding them: for the callers' tests."""

from __future__ import annotations

from dataclasses import dataclass, field

from adecore_tools import ToolCall, create_tool_registry, define_toolkit, tool


@tool("notes", read_only=True, scopes=("notes:read",))
async def note_read(title: str) -> str:
    """Read a note."""
    return f"read {title}"


@tool("notes", scopes=("notes:write",))
async def note_write(title: str) -> str:
    """Write a note."""
    return f"wrote {title}"


registry = create_tool_registry([define_toolkit("notes", [note_read, note_write])])


@dataclass
class Caller(ToolCall):
    """A caller holding `scopes`, a dataclass field."""

    scopes: frozenset[str] = field(default_factory=frozenset)


READER = Caller(frozenset({"notes:read"}))
WRITER = Caller(frozenset({"notes:read", "notes:write"}))
