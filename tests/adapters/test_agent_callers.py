"""The agent adapters offer a model only the tools its caller may use (`ToolCall.may_use`).

Each with the framework's own loop and a scripted model: OpenAI Agents (`is_enabled`) and
Pydantic AI (the tools a toolset lists for each run step).
"""

# ruff: noqa: PLC0415 - each test imports its framework, which the other test may lack

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest
from scoped_tools import READER, WRITER, Caller, registry

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer


def test_openai_agents_enables_only_the_caller_tools():
    pytest.importorskip("agents")
    from agents import Agent, RunConfig, Runner
    from agents.testing import ScriptedModel, assistant_message, function_call

    from adecore_tools.openai_agents import agent_tools

    def shown(call: Caller, **options: Any) -> tuple[list[str], list[Any]]:
        name = "note_write" if "notes:write" in call.scopes else "note_read"
        model = ScriptedModel(
            [[function_call(name, {"title": "a"}, call_id="c1")], [assistant_message("ok")]]
        )
        agent = Agent(name="notes", model=model, tools=agent_tools(registry, **options))
        result = asyncio.run(
            Runner.run(agent, "go", context=call, run_config=RunConfig(tracing_disabled=True))
        )
        outputs = [i.output for i in result.new_items if i.type == "tool_call_output_item"]
        return [t.name for t in model.calls[0].tools], outputs

    assert shown(READER) == (["note_read"], ["read a"])
    assert shown(WRITER) == (["note_read", "note_write"], ["wrote a"])
    made: list[str] = []

    def make_call(ctx: Any) -> Caller:
        made.append(ctx.tool_name)
        return ctx.context

    assert shown(READER, make_call=make_call)[0] == ["note_read"]
    assert sorted(set(made)) == ["note_read", "note_write"]


@pytest.mark.skipif(sys.version_info < (3, 11), reason="Pydantic AI needs Python 3.11")
def test_pydantic_ai_lists_only_the_caller_tools_each_step():
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from adecore_tools.pydantic_ai import RegistryToolset

    seen: list[list[str]] = []

    def script(messages: list[Any], info: AgentInfo) -> ModelResponse:
        seen.append([t.name for t in info.function_tools])
        if len(messages) == 1:
            part = ToolCallPart(tool_name="note_write", args={"title": "a"}, tool_call_id="c1")
            return ModelResponse(parts=[part])
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(FunctionModel(script), toolsets=[RegistryToolset(registry)])
    asyncio.run(agent.run("go", deps=READER))
    assert seen[0] == ["note_read"]
    seen.clear()
    asyncio.run(agent.run("go", deps=WRITER))
    assert seen[0] == ["note_read", "note_write"]
