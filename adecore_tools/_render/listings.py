"""What each place a host sends its tools to lists for one tool: MCP, OpenAI, Anthropic, Gemini.

An entry is put together from the tool's schemas, each rendered once per profile and kept
(`ToolInput.rendered`); the registry keeps each listing it was asked for and hands out copies.
"""

from __future__ import annotations

from typing import Any, Literal

from .._host.tool import Tool
from .._model.nodes import Array, Node, Object, Record, Union, core
from .results import output_schema

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
    parameters = None
    if strict:
        try:
            parameters = t.input.rendered("openai-strict", in_words=in_words)
        except ValueError:
            parameters = None
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

    Strict tool use closes every object, so a tool with a record (an open object) is not strict.
    """
    entry: dict[str, Any] = {
        "name": t.name,
        "description": t.description,
        "input_schema": t.input.rendered("anthropic", in_words=in_words),
    }
    if strict and not any(_opens(f.type) for f in t.input.fields):
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


def _opens(node: Node) -> bool:
    """Whether a record stands anywhere in the type: an object of keys no schema lists."""
    node = core(node)
    if isinstance(node, Record):
        return True
    if isinstance(node, Array):
        return _opens(node.items)
    if isinstance(node, Union):
        return _opens(node.branches[0])  # the only branch a schema lists
    if isinstance(node, Object):
        return any(_opens(f.type) for f in node.fields)
    return False
