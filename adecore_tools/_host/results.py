"""`tool_result` and `tool_output_schema`: a tool's output, resolved, rendered by `_render`."""

from __future__ import annotations

from typing import Any

from .._model.content import ToolResult
from .._render.results import output_schema, result_of
from .._render.schema import copied
from .tool import Tool, resolved

__all__ = ["tool_output_schema", "tool_result"]


def tool_result(tool: Tool[..., Any], value: object) -> ToolResult:
    """What a client receives when `tool` returns `value`: blocks, text, structured content.

    A value the tool's return annotation refuses is a `TypeError` naming the tool and the path.
    """
    if not isinstance(tool, Tool):
        msg = f"tool_result(tool, value) takes a Tool, got a {type(tool).__name__}"
        raise TypeError(msg)
    return result_of(tool.name, resolved(tool).output, value)


def tool_output_schema(tool: Tool[..., Any]) -> dict[str, Any] | None:
    """The schema of a tool's output model, as an MCP client lists it, or `None` for none.

    A root that is not an object is wrapped as `{"result": ...}`. A plain copy, the caller's.
    """
    if not isinstance(tool, Tool):
        msg = f"tool_output_schema(tool) takes a Tool, got a {type(tool).__name__}"
        raise TypeError(msg)
    schema = kept_output_schema(tool)
    return None if schema is None else copied(schema)


def kept_output_schema(tool: Tool[..., Any]) -> dict[str, Any] | None:
    """The output schema as rendered and kept, for a listing: not to be handed out, but copied."""
    return output_schema(tool.name, resolved(tool).output)
