"""A registry's tools as OpenAI Agents SDK tools: `agent_tools(registry)` for `Agent(tools=...)`.

    pip install 'adecore_tools[openai-agents]'

Each tool becomes an `agents.FunctionTool` with the tool's name, description and input schema:

    agent = Agent(name="notes", tools=agent_tools(registry))
    await Runner.run(agent, "Write down: buy milk", context=NoteCall(doc, may_write=True))

- **Strict mode.** A tool goes to the model in strict mode, with its `openai-strict` schema (every
  field required, a field that may be left out nullable), wherever that profile can state it. A
  tool it cannot state (one with a record, `dict[str, X]`) goes with its MCP schema and strict
  mode off. What a strict model sends for a field it leaves out, `null`, is what the registry
  reads as "left out", so strict mode loses nothing. `strict=False` turns it off for every tool.
- **Who sees what.** Each tool is enabled for a run (the SDK's `is_enabled`) only when the
  caller may use it (`ToolCall.may_use`): the call object is the run's `context`, or what
  `make_call` builds (given a tool context whose `tool_call_id` is empty: no call is made
  yet). A caller `make_call` refuses is offered nothing.
- **A call.** The SDK hands over the arguments as JSON text; they go to `registry.run_json`
  with the call object: the run's `context`, or what `make_call` (plain or `async`) builds from
  the SDK's tool context, for each call.
- **What the model gets back.** The tool's result as `tool_result(tool, value).text`: its text or
  lines, or a structured value's compact JSON. A result with an image goes block by block, as the
  SDK's `ToolOutputText` and `ToolOutputImage`; audio or a resource, which the SDK has no output
  for, as a line of text saying what the tool returned and that it cannot be shown. A
  `ToolRefusal`, from the arguments, the tool or `make_call`, comes back as its `refusal_body`
  text, which says what to fix. Any other exception goes to the SDK, which fails the run with it.
- **Approval.** Each tool's `needs_approval` asks the call object (`ToolCall.needs_approval`,
  with the checked arguments): a call that needs it pauses the run, which returns it among its
  `interruptions`. The host asks its user, then `state.approve(item)` or `state.reject(item)`
  on `result.to_state()` and runs the state again: approved, the tool runs once; rejected, it
  never runs, and the model reads the SDK's rejection. `make_call` is asked for the call object
  then too, with the call's id: once to ask, once to run.

This module imports the SDK; `import adecore_tools` does not import this module.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from functools import partial
from typing import Any, TypeAlias

try:
    import agents
    from agents import AgentBase, FunctionTool, RunContextWrapper, ToolOutputImage, ToolOutputText
    from agents.tool_context import ToolContext
except ModuleNotFoundError as _missing:
    if _missing.name != "agents":  # the SDK is there, but something it needs is not
        raise
    raise ModuleNotFoundError(
        "adecore_tools.openai_agents needs the OpenAI Agents SDK: "
        "pip install 'adecore_tools[openai-agents]'",
        name=_missing.name,
    ) from _missing

from ._host.seam import (
    Image,
    OpenAITool,
    Text,
    Tool,
    ToolRegistry,
    answer,
    asks,
    offered,
    shown,
)

__all__ = ["MakeCall", "agent_tools", "function_tool"]

MakeCall: TypeAlias = Callable[[ToolContext[Any]], object]
"""Builds the call object of one call from the SDK's tool context; it may be `async`.

`ctx.context` is what the host passed to `Runner.run(..., context=...)`; `ctx.tool_name` and
`ctx.tool_call_id` say which call it is. A `ToolRefusal` it raises goes back to the model as text.
Asked whether a tool is enabled for a run (no call yet), `ctx.tool_call_id` is empty.
"""


_BLOCKS: dict[type[Any], Callable[[Any], ToolOutputText | ToolOutputImage]] = {
    Text: lambda b: ToolOutputText(text=b.text),
    Image: lambda b: ToolOutputImage(
        image_url=f"data:{b.mime_type};base64,{base64.b64encode(b.data).decode()}"
    ),
}
"""The SDK's own output for each kind of content it has one for (it has none for audio)."""


def agent_tools(
    registry: ToolRegistry, *, make_call: MakeCall | None = None, strict: bool = True
) -> list[agents.Tool]:
    """One `FunctionTool` per tool of `registry`, in the registry's order, for `Agent(tools=...)`.

    Typed as the list `Agent` takes (of any of the SDK's tools); `function_tool` gives one tool
    typed as a `FunctionTool`.

    Args:
        registry: The tools to hand over.
        make_call: Builds each call's call object from the SDK's tool context; without it, the
            call object is the run's `context`.
        strict: Strict mode for every tool the `openai-strict` profile can state; `False` sends
            every tool with its MCP schema and strict mode off.
    """
    entries = registry.openai_tools(strict=strict)
    return [
        _function_tool(registry, t, e, make_call)
        for t, e in zip(registry.tools, entries, strict=True)
    ]


def function_tool(
    registry: ToolRegistry,
    tool: Tool[..., Any],
    *,
    make_call: MakeCall | None = None,
    strict: bool = True,
) -> FunctionTool:
    """One tool of `registry` as a `FunctionTool`, as `agent_tools` builds each.

    `ValueError` for a tool that is not in `registry`: the call would run another tool, or none.
    """
    if not isinstance(tool, Tool):
        msg = f"function_tool(registry, tool) takes a Tool, got a {type(tool).__name__}"
        raise TypeError(msg)
    if tool not in registry:
        msg = f"tool {tool.name!r} is not in the registry; add its toolkit, or pass its registry"
        raise ValueError(msg)
    entry = registry.openai_tools(strict=strict)[registry.tools.index(tool)]
    return _function_tool(registry, tool, entry, make_call)


def _function_tool(
    registry: ToolRegistry,
    tool: Tool[..., Any],
    entry: OpenAITool,
    make_call: MakeCall | None,
) -> FunctionTool:
    """`tool` as the SDK's tool, from its OpenAI entry: run by `registry`, answered in text."""
    name = tool.name

    async def invoke(
        ctx: ToolContext[Any], arguments: str
    ) -> str | list[ToolOutputText | ToolOutputImage]:
        made = (lambda: ctx.context) if make_call is None else partial(make_call, ctx)
        # The SDK invokes a call only once it needs no approval or a person approved it
        return shown(await answer(registry, name, arguments, made, approved=True), _BLOCKS)

    async def needs_approval(
        ctx: RunContextWrapper[Any], arguments: dict[str, Any], call_id: str
    ) -> bool:
        if make_call is None:
            return await asks(registry, name, arguments, lambda: ctx.context)
        asking = ToolContext.from_agent_context(
            ctx, tool_call_id=call_id, tool_name=name, tool_arguments=json.dumps(arguments)
        )
        return await asks(registry, name, arguments, partial(make_call, asking))

    async def enabled(ctx: RunContextWrapper[Any], agent: AgentBase[Any]) -> bool:
        if make_call is None:
            return name in await offered(registry, lambda: ctx.context)
        asking = ToolContext.from_agent_context(
            ctx, tool_call_id="", agent=agent, tool_name=name, tool_arguments=""
        )
        return name in await offered(registry, partial(make_call, asking))

    return FunctionTool(
        name=name,
        description=tool.description,
        # A plain copy, ours to give: the SDK copies it again, and in strict mode checks it with
        # `ensure_strict_json_schema`, which leaves the `openai-strict` schema as it is.
        params_json_schema=entry["parameters"],
        on_invoke_tool=invoke,
        strict_json_schema=bool(entry["strict"]),
        is_enabled=enabled,
        needs_approval=needs_approval,
    )
