"""What each place a host sends its tools to lists for one tool: MCP, OpenAI, Anthropic, Gemini.

An entry is put together from the tool's schemas, each rendered once per profile and kept
(`ToolInput.rendered`); the registry keeps each listing it was asked for and hands out copies.
"""

from __future__ import annotations

from typing import Any, Literal

from ._results import output_schema
from ._tool import Tool

__all__ = ["anthropic_entry", "gemini_entry", "mcp_entry", "openai_entry"]

OpenAIApi = Literal["responses", "chat"]


def mcp_entry(t: Tool[..., Any], *, in_words: bool) -> dict[str, Any]:
    """The MCP `tools/list` entry: name, title, description, schemas and annotations."""
    notes = t.annotations
    hints: dict[str, Any] = {"readOnlyHint": notes.read_only, "destructiveHint": notes.destructive}
    if notes.idempotent is not None:
        hints["idempotentHint"] = notes.idempotent
    if notes.open_world is not None:
        hints["openWorldHint"] = notes.open_world
    if notes.title is not None:
        hints["title"] = notes.title
    entry: dict[str, Any] = {"name": t.name}
    if notes.title is not None:
        entry["title"] = notes.title
    entry["description"] = t.description
    entry["inputSchema"] = t.input.rendered("mcp", in_words=in_words)
    returned = output_schema(t)
    if returned is not None:
        entry["outputSchema"] = returned
    entry["annotations"] = hints
    return entry


def openai_entry(
    t: Tool[..., Any], *, api: OpenAIApi, strict: bool, in_words: bool
) -> dict[str, Any]:
    """An OpenAI function tool, strict where the strict profile can state the tool.

    A tool it cannot state (a record) is listed with `"strict": false` and its MCP schema: one
    record field does not stop a whole listing.
    """
    parameters = _stated(t, "openai-strict", in_words=in_words) if strict else None
    function = {
        "name": t.name,
        "description": t.description,
        "parameters": parameters or t.input.rendered("mcp", in_words=in_words),
        "strict": parameters is not None,
    }
    if api == "chat":
        return {"type": "function", "function": function}
    return {"type": "function", **function}


def anthropic_entry(t: Tool[..., Any], *, strict: bool, in_words: bool) -> dict[str, Any]:
    """An Anthropic tool; `"strict": true` where its strict tool use can take the tool.

    Strict tool use closes every object, so a tool with a record (an open object) is listed with
    its `anthropic` schema, not strict.
    """
    schema = _stated(t, "anthropic-strict", in_words=in_words) if strict else None
    entry: dict[str, Any] = {
        "name": t.name,
        "description": t.description,
        "input_schema": schema or t.input.rendered("anthropic", in_words=in_words),
    }
    if schema is not None:
        entry["strict"] = True
    return entry


def gemini_entry(t: Tool[..., Any], *, in_words: bool) -> dict[str, Any]:
    """A Gemini function declaration: `parameters` in Gemini's subset of OpenAPI.

    A tool with no fields has no `parameters`, as Gemini asks. One the subset cannot state (a
    record, an object with no properties) gives its JSON Schema as `parametersJsonSchema`.
    """
    entry: dict[str, Any] = {"name": t.name, "description": t.description}
    if not t.input.fields:
        return entry
    try:
        entry["parameters"] = t.input.rendered("gemini", in_words=in_words)
    except ValueError:
        entry["parametersJsonSchema"] = t.input.rendered("mcp", in_words=in_words)
    return entry


def _stated(t: Tool[..., Any], profile: str, *, in_words: bool) -> dict[str, Any] | None:
    """The tool's schema in `profile`, or None where the profile cannot state it."""
    try:
        return t.input.rendered(profile, in_words=in_words)
    except ValueError:
        return None
