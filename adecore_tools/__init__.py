"""Tools for language-model agents: plain `async def` functions, checked input, MCP schemas.

A tool is an `async def` decorated with `@tool(toolkit=...)`. Its signature is read once into a
field model that drives both input validation and the JSON Schema an MCP client lists. Tools form
toolkits, toolkits a registry, and `await registry.run(name, input, call)` runs a tool, answering
bad input with a `ToolRefusal` a model can read and act on.
"""

from typing import TYPE_CHECKING as _TYPE_CHECKING

from ._host.decorator import tool
from ._host.registry import ToolRegistry, create_tool_registry
from ._host.tool import Tool, parse_tool_input, tool_input_schema
from ._host.toolkit import Toolkit, define_toolkit
from ._model.content import Audio, Content, Image, Resource, Text, ToolResult
from ._model.metadata import (
    DRY_RUN_FIELD,
    DRY_RUN_PREVIEW,
    REVISION_FIELD,
    DryRun,
    Revision,
    ToolCall,
    required_field,
    transform,
)
from ._model.refusals import (
    CodedError,
    ToolRefusal,
    field,
    length_of,
    or_note,
    parse_refusal_body,
    refusal_body,
    refusal_rows,
)
from ._model.tool_annotations import ToolAnnotations

if _TYPE_CHECKING:
    from ._host.results import tool_output_schema, tool_result

__all__ = [
    "DRY_RUN_FIELD",
    "DRY_RUN_PREVIEW",
    "REVISION_FIELD",
    "Audio",
    "CodedError",
    "Content",
    "DryRun",
    "Image",
    "Resource",
    "Revision",
    "Text",
    "Tool",
    "ToolAnnotations",
    "ToolCall",
    "ToolRefusal",
    "ToolRegistry",
    "ToolResult",
    "Toolkit",
    "create_tool_registry",
    "define_toolkit",
    "field",
    "length_of",
    "or_note",
    "parse_refusal_body",
    "parse_tool_input",
    "refusal_body",
    "refusal_rows",
    "required_field",
    "tool",
    "tool_input_schema",
    "tool_output_schema",
    "tool_result",
    "transform",
]

_ON_FIRST_USE = {"tool_output_schema": "._host.results", "tool_result": "._host.results"}
"""Public names whose modules load when first used: declaring and running tools need none."""


def __getattr__(name: str) -> object:
    """Import a name of `_ON_FIRST_USE` when it is first asked for, and keep it."""
    module = _ON_FIRST_USE.get(name)
    if module is None:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    from importlib import import_module  # noqa: PLC0415 - only on that first use

    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Every name, those still to load on first use included."""
    return sorted({*globals(), *_ON_FIRST_USE})
