"""A registry's tools as LangChain tools: `langchain_tools(registry)` for LangChain and LangGraph.

    pip install 'adecore_tools[langchain]'

Each tool becomes a `StructuredTool` with the tool's name, description and input schema, for
LangChain's `create_agent`, LangGraph's `ToolNode` or a chat model's `bind_tools`:

    agent = create_agent(model, langchain_tools(registry))
    await agent.ainvoke({"messages": [("user", "Write down: buy milk")]}, context=call)

- **One validator.** The schema goes to LangChain as a JSON Schema dict, which LangChain passes
  through unchecked: the registry checks the arguments, and its refusal says what to fix.
- **Strict mode.** A tool's schema is its `openai-strict` one (every field required, a field that
  may be left out nullable) wherever that profile can state it, so that `bind_tools(...,
  strict=True)` sends a schema OpenAI takes; `tool.metadata["strict"]` says which. A tool it
  cannot state (one with a record, `dict[str, X]`) has its MCP schema. `strict=False` gives every
  tool its MCP schema.
- **A call.** The call object is the run's `context` (`agent.ainvoke(..., context=...)`), or what
  `make_call` (plain or `async`) builds from LangGraph's `ToolRuntime` (outside a graph, one that
  holds the run's `RunnableConfig` alone). The tools are async:
  run the agent with `ainvoke` or `astream`.
- **What the model gets back.** A `ToolMessage`: the result's text, with a structured value as the
  message's `artifact`; a result with an image as LangChain's text and image blocks (audio or a
  resource, for which a tool message has no block, as a line saying it cannot be shown). A
  `ToolRefusal`, from the arguments, the tool or `make_call`, is a `ToolMessage` with
  `status="error"` holding its `refusal_body`, which the tool itself returns: it reaches the model
  however `ToolNode`'s `handle_tool_errors` is set. Any other exception is raised, not sent.
- **Annotations.** `tool.metadata["annotations"]` holds the MCP annotations (`readOnlyHint`, ...).

This module imports langchain-core; `import adecore_tools` does not import this module.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from functools import partial
from typing import Annotated, Any, TypeAlias

try:
    from langchain_core.messages import content as blocks
    from langchain_core.runnables import RunnableConfig
    from langchain_core.tools import BaseTool, InjectedToolArg, StructuredTool, ToolException
    from langgraph.prebuilt import ToolRuntime
except ModuleNotFoundError as _missing:
    # `langchain_core.messages` where `langchain_core` is no package; any other name: LangChain is
    # there, but not all it needs
    if (_missing.name or "").partition(".")[0] not in ("langchain_core", "langgraph"):
        raise
    raise ModuleNotFoundError(
        "adecore_tools.langchain needs LangChain: pip install 'adecore_tools[langchain]'",
        name=_missing.name,
    ) from _missing

from ._host.seam import Image, OpenAITool, Text, ToolRegistry, answer, shown

__all__ = ["MakeCall", "langchain_tools"]

MakeCall: TypeAlias = Callable[[ToolRuntime[Any, Any]], object]
"""Builds the call object of one call from LangGraph's tool runtime; it may be `async`.

`runtime.context` is what the host passed to `agent.ainvoke(..., context=...)`; `.state`,
`.config`, `.tool_call_id` and `.store` are there too. A tool invoked outside a graph gets a
runtime holding the run's `config` alone. A `ToolRefusal` it raises goes back to the model as the
tool's error message.
"""

_FILLED = ("runtime", "config", "run_manager")
"""Arguments LangChain and LangGraph fill themselves: a field of that name would be overwritten."""

_BLOCKS: dict[type[Any], Callable[[Any], Any]] = {
    Text: lambda b: blocks.create_text_block(b.text),
    Image: lambda b: blocks.create_image_block(
        base64=base64.b64encode(b.data).decode(), mime_type=b.mime_type
    ),
}
"""LangChain's own block for each kind of content a tool message takes: no audio (langchain-core
turns a tool's content with an audio block into its JSON text)."""


def _no_stream(_: object) -> None:
    """Where a tool invoked outside a graph streams: nowhere."""


class _Refused(ToolException):
    """A refusal on its way to LangChain, which returns it as the tool's error message."""


def _refusal_text(error: ToolException) -> str:
    if not isinstance(error, _Refused):  # a tool's own `ToolException` is no refusal
        raise error
    return str(error)


def langchain_tools(
    registry: ToolRegistry, *, make_call: MakeCall | None = None, strict: bool = True
) -> list[BaseTool]:
    """One `StructuredTool` per tool of `registry`, in the registry's order.

    `ValueError` for a tool with a field LangChain fills itself (`runtime`, `config`,
    `run_manager`): the model's value would never reach the tool.

    Args:
        registry: The tools to hand over.
        make_call: Builds each call's call object from LangGraph's `ToolRuntime`; without it,
            the call object is the run's `context`.
        strict: The `openai-strict` schema for every tool that profile can state; `False`
            gives every tool its MCP schema.
    """
    listed = zip(registry.openai_tools(strict=strict), registry.mcp_tools(), strict=True)
    return [_structured_tool(registry, entry, mcp, make_call) for entry, mcp in listed]


def _structured_tool(
    registry: ToolRegistry,
    entry: OpenAITool,
    mcp: dict[str, Any],
    make_call: MakeCall | None,
) -> StructuredTool:
    name: str = entry["name"]
    for field in _FILLED:
        if field in entry["parameters"]["properties"]:
            msg = (
                f"tool {name!r} has a field named {field!r}, which LangChain fills itself; "
                "rename the field to offer the tool to LangChain"
            )
            raise ValueError(msg)

    async def run(
        *,
        runtime: Annotated[ToolRuntime[Any, Any] | None, InjectedToolArg()] = None,
        config: RunnableConfig,
        **arguments: Any,
    ) -> tuple[Any, Any]:
        if runtime is None:  # invoked outside a graph: a runtime around the run's config alone
            runtime = ToolRuntime(
                state=None,
                context=None,
                config=config,
                stream_writer=_no_stream,
                tool_call_id=None,
                store=None,
            )
        given = runtime
        made = partial(make_call, given) if make_call is not None else lambda: given.context
        result = await answer(registry, name, arguments, made)
        if result.is_error:
            raise _Refused(result.text)
        return shown(result, _BLOCKS), result.structured

    return StructuredTool(
        name=name,
        description=mcp["description"],
        args_schema=entry["parameters"],  # a plain copy, ours to give
        coroutine=run,
        response_format="content_and_artifact",
        handle_tool_error=_refusal_text,
        metadata={"strict": entry["strict"], "annotations": mcp.get("annotations")},
    )
