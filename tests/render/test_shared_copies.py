"""A schema or listing handed out is the caller's own: a change to it reaches no later caller."""

from __future__ import annotations

import json

import pytest

from adecore_tools import (
    create_tool_registry,
    define_toolkit,
    tool,
    tool_input_schema,
)

# --- the shared schema and listing cannot be changed through their base classes ---------------


@pytest.mark.parametrize(
    "change",
    [
        lambda s: dict.__setitem__(s, "additionalProperties", True),
        lambda s: dict.update(s, {"additionalProperties": True}),
        lambda s: dict.__delitem__(s, "properties"),
        dict.clear,
        lambda s: list.append(s["required"], "extra"),
        lambda s: dict.__setitem__(s["properties"]["text"], "type", "integer"),
    ],
)
def test_a_schema_changed_through_its_base_class_changes_no_later_schema(change):
    @tool("round")
    async def note(text: str, limit: int = 3) -> None:
        """Write a note."""

    before = json.dumps(tool_input_schema(note))
    change(tool_input_schema(note))
    assert json.dumps(tool_input_schema(note)) == before


def test_a_listing_changed_through_its_base_class_changes_no_later_listing():
    @tool("round")
    async def listed(text: str) -> None:
        """List it."""

    registry = create_tool_registry([define_toolkit("round", [listed])])
    before = json.dumps(registry.mcp_tools())
    entry = registry.mcp_tools()[0]
    dict.__setitem__(entry, "name", "other")
    dict.__setitem__(entry["annotations"], "readOnlyHint", True)
    dict.__setitem__(entry["inputSchema"]["properties"], "more", {"type": "string"})
    assert json.dumps(registry.mcp_tools()) == before
