"""Hand a registry's tools to the OpenAI Agents SDK (`openai-agents`).

    python examples/openai_agents.py    # prints the tools built from the notes registry; no model

`function_tools(registry)` turns each tool into an `agents.FunctionTool` with the tool's name,
description and input schema. When the model calls one, the SDK hands over the arguments as a JSON
string; they go to `registry.run` with the run's context as the call object, so the host decides
per run what the tools may touch:

    agent = Agent(name="notes", tools=function_tools(registry))
    await Runner.run(agent, "Write down: buy milk", context=NoteCall(doc, may_write=True))

The tool's lines reach the model as one text, and a refusal as its `refusal_body` text, which says
what went wrong and how to fix it. Any other exception is the host's bug and goes to the SDK, which
fails the run or reports it as its failure policy says.
"""

from __future__ import annotations

import json
from typing import Any

import agents
from agents import FunctionTool
from agents.tool_context import ToolContext

from adecore_tools import Tool, ToolRefusal, ToolRegistry, refusal_body, tool_input_schema


def function_tools(registry: ToolRegistry) -> list[agents.Tool]:
    """One `FunctionTool` per tool of `registry`, in the registry's order.

    Typed as the list `Agent(tools=...)` takes (a list of any of the SDK's tools).
    """
    return [function_tool(registry, t) for t in registry.tools]


def function_tool(registry: ToolRegistry, t: Tool[..., Any]) -> FunctionTool:
    """`t` as the Agents SDK's tool: invoked through `registry.run`, answered in text."""

    async def invoke(ctx: ToolContext[Any], arguments: str) -> str:
        try:
            parsed: object = json.loads(arguments) if arguments else None
        except (ValueError, RecursionError):
            # Not JSON, or JSON Python will not read (an int of over 4300 digits, nesting past
            # the recursion limit): hand the text itself on. The registry refuses anything that
            # is not an object as `bad-arguments`, with the fields line, like any other bad input.
            parsed = arguments
        try:
            lines = await registry.run(t.name, parsed, ctx.context)
        except ToolRefusal as refusal:
            return refusal_body(refusal)
        return "\n".join(lines)

    return FunctionTool(
        name=t.name,
        description=t.description,
        params_json_schema=tool_input_schema(t),  # a plain copy: the SDK may change it
        on_invoke_tool=invoke,
        # Strict mode would rewrite the schema: every property required, no others allowed. A
        # model would then have to send `revision` and `dry_run` with every write, and a limit
        # with every read. Our schemas list only the required fields in `required` and carry no
        # `additionalProperties` (the library refuses unknown fields itself, naming the closest
        # real one), so they go to the model as they are.
        strict_json_schema=False,
    )


def main() -> None:
    """Print what the Agents SDK will show a model for the notes tools."""
    from notes import registry  # noqa: PLC0415 - examples/ is not a package; see mcp_server.py

    for ft in (function_tool(registry, t) for t in registry.tools):
        listing = {
            "name": ft.name,
            "description": ft.description,
            "parameters": ft.params_json_schema,
            "strict": ft.strict_json_schema,
        }
        print(json.dumps(listing, indent=2))


if __name__ == "__main__":
    main()
