"""Hand a registry's tools to Pydantic AI (`pydantic-ai-slim` is enough).

    python examples/pydantic_ai_toolset.py    # prints the tools built from the notes registry

`toolset(registry)` is a Pydantic AI `FunctionToolset` with one tool per registry tool: the tool's
name, description and input schema. When the model calls one, its arguments go to `registry.run`
with the run's dependencies as the call object, so the host decides per run what the tools may
touch:

    agent = Agent("openai:gpt-5", deps_type=NoteCall, toolsets=[toolset(registry)])
    await agent.run("Write down: buy milk", deps=NoteCall(doc, may_write=True))

Pydantic AI only parses the arguments as JSON here (text that is no JSON gets its own error, and
any JSON value but an object fails the run); the registry checks everything else. The tool's
lines reach the model as one text, and a refusal as its `refusal_body` text, which says what went
wrong and how to fix it. Any other exception is the host's bug and fails the run.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai import Tool as AgentTool
from pydantic_ai.toolsets import FunctionToolset

from adecore_tools import Tool, ToolRefusal, ToolRegistry, refusal_body, tool_input_schema


def toolset(registry: ToolRegistry) -> FunctionToolset[Any]:
    """A toolset of every tool of `registry`, in the registry's order."""
    return FunctionToolset([agent_tool(registry, t) for t in registry.tools])


def agent_tool(registry: ToolRegistry, t: Tool[..., Any]) -> AgentTool[Any]:
    """`t` as a Pydantic AI tool: invoked through `registry.run`, answered in text."""

    # `ctx` is positional-only, so an argument named "ctx" lands in `arguments` like any other.
    async def run(ctx: RunContext[Any], /, **arguments: Any) -> str:
        try:
            lines = await registry.run(t.name, arguments, ctx.deps)
        except ToolRefusal as refusal:
            return refusal_body(refusal)
        return "\n".join(lines)

    if sys.version_info < (3, 11):  # Pydantic AI takes `Self` from `typing`; checkers know this
        msg = "Pydantic AI runs on Python 3.11 or newer"
        raise RuntimeError(msg)
    agent_tool = AgentTool.from_schema(
        run,
        name=t.name,
        description=t.description,
        # `from_schema` skips Pydantic's own argument checks: the registry does them.
        json_schema=tool_input_schema(t),  # a plain copy: the framework may change it
        takes_ctx=True,
    )
    # Strict mode off, as in `openai_agents.py`. Left to infer it, Pydantic AI's OpenAI profile
    # adds `additionalProperties: false` to every object of the schema: a record
    # (`dict[str, X]`, listed as `{"type": "object"}`) would then tell the model it takes no key.
    # The registry refuses unknown fields itself, naming the closest real one.
    agent_tool.strict = False
    return agent_tool


def main() -> None:
    """Print what Pydantic AI will show a model for the notes tools."""
    from notes import registry  # noqa: PLC0415 - examples/ is not a package; see mcp_server.py

    for t in toolset(registry).tools.values():
        definition = t.tool_def
        listing = {
            "name": definition.name,
            "description": definition.description,
            "parameters": definition.parameters_json_schema,
            "strict": definition.strict,
        }
        print(json.dumps(listing, indent=2))


if __name__ == "__main__":
    main()
